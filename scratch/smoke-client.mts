import http from 'node:http';
import { EventEncoder } from '@ag-ui/encoder';
import { HttpAgent } from '@ag-ui/client';
import { EventSchema } from '@ag-ui/core/schemas';
import { importAgUi, fromAgUi } from '/work/wt-agui/src/index.js';

const t0 = 1767225600000;
let ts = t0;
const T = () => (ts += 3);
const events = (input: any) => [
  { type: 'RUN_STARTED', threadId: input.threadId, runId: input.runId, timestamp: T(), input },
  { type: 'TEXT_MESSAGE_START', messageId: 'm1', role: 'assistant', timestamp: T() },
  { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'Let me ', timestamp: T() },
  { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'check.', timestamp: T() },
  { type: 'TEXT_MESSAGE_END', messageId: 'm1', timestamp: T() },
  { type: 'TOOL_CALL_CHUNK', toolCallId: 'c1', toolCallName: 'weather', delta: '{"city":' },
  { type: 'TOOL_CALL_CHUNK', delta: '"Oslo"}' },
  { type: 'TOOL_CALL_RESULT', messageId: 'tm1', toolCallId: 'c1', content: 'Sunny', timestamp: T() },
  { type: 'TEXT_MESSAGE_CHUNK', messageId: 'm2', delta: 'It is ' },
  { type: 'TEXT_MESSAGE_CHUNK', delta: 'sunny.' },
  { type: 'STATE_SNAPSHOT', snapshot: { a: 1 }, timestamp: T() },
  { type: 'RUN_FINISHED', threadId: input.threadId, runId: input.runId, timestamp: T() },
];
let capture = '';
const server = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    const input = JSON.parse(body);
    const enc = new EventEncoder({ accept: req.headers.accept });
    res.writeHead(200, { 'content-type': enc.getContentType() });
    for (const e of events(input)) {
      EventSchema.parse(e);
      const s = enc.encode(e as never);
      capture += s;
      res.write(s);
    }
    res.end();
  });
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
const port = (server.address() as any).port;
const agent = new HttpAgent({ url: `http://127.0.0.1:${port}/`, threadId: 'thread-1', initialMessages: [{ id: 'u1', role: 'user', content: 'Weather?' }] });
const live = fromAgUi();
agent.subscribe({ onEvent: ({ event }) => { live.push(event as never); } });
await agent.runAgent({ runId: 'run-1' });
live.end();
server.close();
const imported = importAgUi(capture);
const a = JSON.stringify(live.stream.latest());
const b = JSON.stringify(imported.events);
console.log('equal', a === b);
if (a !== b) { console.log(a); console.log(b); }
console.log(live.diagnostics(), imported.diagnostics);
