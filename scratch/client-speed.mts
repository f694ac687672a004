import { HttpAgent } from '@ag-ui/client';
import { EventEncoder } from '@ag-ui/encoder';
process.env.SUPPRESS_TRANSFORMATION_WARNINGS = 'true';
const N = Number(process.argv[2] ?? 2000);
const encoder = new EventEncoder();
const bytes = new TextEncoder();
const body = (input: any) => new ReadableStream<Uint8Array>({
  start(c) {
    const send = (e: any) => c.enqueue(bytes.encode(encoder.encode(e)));
    send({ type: 'RUN_STARTED', threadId: input.threadId, runId: input.runId });
    send({ type: 'TEXT_MESSAGE_START', messageId: 'a', role: 'assistant' });
    for (let k = 0; k < N; k++) send({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'a', delta: `w${k} ` });
    send({ type: 'TEXT_MESSAGE_END', messageId: 'a' });
    send({ type: 'RUN_FINISHED', threadId: input.threadId, runId: input.runId });
    c.close();
  },
});
const agent = new HttpAgent({ url: 'http://x.invalid/', fetch: async (_u, init) => new Response(body(JSON.parse(String(init?.body))), { headers: { 'content-type': 'text/event-stream' } }) });
let n = 0;
agent.subscribe({ onEvent: () => { n++; } });
const t = performance.now();
await agent.runAgent({});
console.log(N, 'events', n, 'ms', Math.round(performance.now() - t));
