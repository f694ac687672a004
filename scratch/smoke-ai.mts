import { streamText, tool, stepCountIs, readUIMessageStream, simulateReadableStream, uiMessageChunkSchema } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';
import { fromUIMessageStream, importUIMessages, EventStream } from '/work/wt-agui/src/index.js';

const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } };
let call = 0;
const model = new MockLanguageModelV3({
  doStream: async () => {
    call++;
    const chunks: any[] = call === 1 ? [
      { type: 'stream-start', warnings: [] },
      { type: 'reasoning-start', id: 'r0' },
      { type: 'reasoning-delta', id: 'r0', delta: 'Need the weather.' },
      { type: 'reasoning-end', id: 'r0' },
      { type: 'text-start', id: 't0' },
      { type: 'text-delta', id: 't0', delta: 'Let me ' },
      { type: 'text-delta', id: 't0', delta: 'check.' },
      { type: 'text-end', id: 't0' },
      { type: 'tool-input-start', id: 'call-1', toolName: 'weather' },
      { type: 'tool-input-delta', id: 'call-1', delta: '{"city":"Oslo"}' },
      { type: 'tool-input-end', id: 'call-1' },
      { type: 'tool-call', toolCallId: 'call-1', toolName: 'weather', input: '{"city":"Oslo"}' },
      { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage },
    ] : [
      { type: 'stream-start', warnings: [] },
      { type: 'text-start', id: 't1' },
      { type: 'text-delta', id: 't1', delta: 'It is sunny in Oslo.' },
      { type: 'text-end', id: 't1' },
      { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
    ];
    return { stream: simulateReadableStream({ chunks, chunkDelayInMs: null }) };
  },
});
const result = streamText({
  model,
  prompt: 'Weather in Oslo?',
  stopWhen: stepCountIs(3),
  tools: { weather: tool({ description: 'weather', inputSchema: z.object({ city: z.string() }), execute: async ({ city }) => ({ city, sky: 'sunny' }) }) },
});
const chunks: any[] = [];
for await (const c of result.toUIMessageStream({ sendReasoning: true })) { uiMessageChunkSchema(); chunks.push(c); }
console.log(chunks.map((c) => c.type).join(' '));
const live = fromUIMessageStream();
for (const c of chunks) live.push(c);
live.end();
console.log(live.stream.replay());
let last: any;
for await (const m of readUIMessageStream({ stream: simulateReadableStream({ chunks, chunkDelayInMs: null }) })) last = m;
console.log(JSON.stringify(last.parts.map((p: any) => p.type)));
const stored = importUIMessages([{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Weather in Oslo?' }] }, last]);
console.log(EventStream.from(stored.events).replay());
const strip = (es: any[]) => es.map((e) => ({ ...e, timestamp: 0, metadata: undefined, completed: undefined }));
const a = strip(live.stream.latest() as any);
const b = strip(stored.events.slice(1) as any);
console.log('equal', JSON.stringify(a) === JSON.stringify(b));
if (JSON.stringify(a) !== JSON.stringify(b)) { console.log(JSON.stringify(a, null, 0)); console.log(JSON.stringify(b, null, 0)); }
