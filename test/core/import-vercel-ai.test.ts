// The Vercel AI SDK: UI message stream chunks and stored UI messages, both
// made by the `ai` package (streamText on its mock model with a real tool,
// toUIMessageStream, readUIMessageStream), mapped by one mapping; recorded
// streams (JSON Lines and the SSE of toUIMessageStreamResponse) through the
// front door; and the live `messages` adapter touching only what changed.
import { vercelAiFormat } from '../../src/core/import/vercel-ai/vercel-ai.js';
import {
  JsonToSseTransformStream,
  simulateReadableStream,
  type UIMessage as AiUIMessage,
  type UIMessageChunk as AiUIMessageChunk,
} from 'ai';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  EventStream,
  detectFormat,
  eventStatus,
  fromUIMessageStream,
  fromUIMessages,
  importAny,
  importUIMessages,
  isAbortedEvent,
  isVercelAi,
  streamImport,
  type Event,
  type MessageEvent,
  type ToolEvent,
  type UIMessage,
  type UIMessageChunkInput,
  VALUE_CUT_MARKER,
} from '../../src/index.js';
import { checkImport } from './helpers/import-check.js';
import { question, uiMessages, uiRun } from './helpers/vercel-ai-runs.js';

const field = (e: Event | undefined, key: string): unknown =>
  e ? (e as unknown as Record<string, unknown>)[key] : undefined;
const byKind = (events: readonly Event[], kind: string) => events.filter((e) => e.event === kind);
const spans = (events: readonly Event[], type: string) =>
  byKind(events, 'span_begin').filter((e) => field(e, 'type') === type);
const vercel = (e: Event | undefined) =>
  (e?.metadata?.['vercel_ai'] ?? {}) as Record<string, unknown>;
const live = (chunks: readonly unknown[]) => {
  const adapter = fromUIMessageStream();
  for (const c of chunks) adapter.push(c as UIMessageChunkInput);
  adapter.end();
  return adapter.stream.latest();
};
/** Events without what only one form has: times, flags, stream-only metadata. */
const shape = (events: readonly Event[]) =>
  events.map((e) => {
    const {
      timestamp: _t,
      metadata: _m,
      completed: _c,
      ...rest
    } = e as Event & { completed?: unknown };
    return rest;
  });
const jsonl = (records: readonly unknown[]) => records.map((r) => JSON.stringify(r)).join('\n');

async function sse(chunks: readonly AiUIMessageChunk[]): Promise<string> {
  let text = '';
  const stream = simulateReadableStream({ chunks: [...chunks], chunkDelayInMs: null }).pipeThrough(
    new JsonToSseTransformStream(),
  );
  for await (const piece of stream as unknown as AsyncIterable<string>) text += piece;
  return text;
}

describe('Vercel AI SDK types', () => {
  it('the ai package’s chunks and messages are accepted as they are (checked by the compiler)', () => {
    expectTypeOf<AiUIMessageChunk>().toExtend<UIMessageChunkInput>();
    expectTypeOf<AiUIMessage>().toExtend<UIMessage>();
    expect(isVercelAi(jsonl([{ type: 'start' }, { type: 'text-start', id: 'a' }]))).toBe(true);
  });
});

describe('fromUIMessageStream', () => {
  it('a two-step response: turn, steps, reasoning, one growing answer, the tool call, source, file, data', async () => {
    const ev = live(await uiRun({ tokens: 8 }));
    const [turn] = spans(ev, 'turn');
    expect(vercel(turn)).toMatchObject({ message_id: 'msg-1', finish_reason: 'stop' });
    const steps = spans(ev, 'step');
    expect(steps.map((s) => [field(s, 'name'), field(s, 'parent_id')])).toEqual([
      ['step 1', field(turn, 'id')],
      ['step 2', field(turn, 'id')],
    ]);
    const messages = byKind(ev, 'message') as MessageEvent[];
    expect(messages.map((m) => [m.span_id, m.content])).toEqual([
      [
        field(steps[0], 'id'),
        [{ type: 'reasoning', reasoning: 'The user wants the weather; ask the tool.' }],
      ],
      [field(steps[0], 'id'), 'word0 word1 word2 word3 word4 word5 word6 word7 '],
      [field(steps[1], 'id'), [{ type: 'image', image: 'data:image/png;base64,iVBORw0KGgo=' }]],
      [field(steps[1], 'id'), 'It is sunny in Oslo.'],
    ]);
    const tool = byKind(ev, 'tool')[0] as ToolEvent;
    expect([tool.id, tool.function, tool.arguments, JSON.parse(tool.result as string)]).toEqual([
      'call-1',
      'weather',
      { city: 'Oslo' },
      { city: 'Oslo', sky: 'sunny', celsius: 21 },
    ]);
    expect(tool.completed).toBeDefined();
    // The data part written twice under one id: one event, its last data.
    const infos = byKind(ev, 'info').map((i) => field(i, 'data'));
    expect(infos).toEqual([
      { type: 'data-weather', id: 'w1', data: { status: 'done' } },
      {
        type: 'source-url',
        sourceId: 'src-1',
        url: 'https://weather.example/oslo',
        title: 'Oslo forecast',
      },
    ]);
    expect(
      ev.every((e) => e.pending !== true && e.metadata?.['skein_invented'] !== undefined),
    ).toBe(true);
  });

  it('streamed and stored forms of one response give the same events', async () => {
    const chunks = await uiRun({ tokens: 6 });
    const stored = (await uiMessages(chunks)).at(-1)!;
    const fromStore = importUIMessages([question, stored]).events;
    expect(field(fromStore[0], 'content')).toBe('How is the weather in Oslo?');
    expect(shape(fromStore.slice(1))).toEqual(shape(live(chunks)));
  });

  it('a tool that throws is a failed tool event; an aborted stream marks the response aborted', async () => {
    const failed = live(await uiRun({ toolError: true }));
    const tool = byKind(failed, 'tool')[0] as ToolEvent;
    expect([tool.error, eventStatus(tool)]).toEqual([
      { type: 'unknown', message: 'no station in Oslo' },
      'error',
    ]);

    const aborted = live(await uiRun({ abortAfter: 2 }));
    const turn = spans(aborted, 'turn')[0]!;
    expect(turn.metadata?.['aborted']).toBe(true);
    expect(
      aborted
        .filter((e) => e.span_id?.startsWith(field(turn, 'id') as string))
        .every(isAbortedEvent),
    ).toBe(true);
  });

  it('grows one text event per flush, pending until text-end', () => {
    const flushes: (() => void)[] = [];
    const adapter = fromUIMessageStream({ schedule: (f) => flushes.push(f) });
    adapter.push({ type: 'start', messageId: 'm' });
    adapter.push({ type: 'text-start', id: 't' });
    for (let k = 0; k < 100; k++) adapter.push({ type: 'text-delta', id: 't', delta: 'x' });
    flushes.shift()!();
    const text = adapter.stream.toArray().find((e) => e.event === 'message')!;
    expect([field(text, 'content'), text.pending]).toEqual(['x'.repeat(100), true]);
    const before = adapter.stream.length;
    adapter.push({ type: 'text-delta', id: 't', delta: 'y' });
    adapter.push({ type: 'text-end', id: 't' });
    flushes.shift()!();
    const after = adapter.stream.toArray().slice(before);
    expect(after.map((e) => [e.uuid, field(e, 'content'), e.pending])).toEqual([
      [text.uuid, `${'x'.repeat(100)}y`, undefined],
    ]);
  });

  it('chunks before `start` belong to its message; unknown chunks are kept as info', () => {
    const ev = live([
      { type: 'data-status', data: 'warming up' },
      { type: 'start', messageId: 'm9' },
      { type: 'reset-step' },
      { type: 'finish' },
      { type: 'data-status', data: 'after' },
    ]);
    expect(spans(ev, 'turn')).toHaveLength(1);
    expect(byKind(ev, 'info').map((i) => field(i, 'data'))).toEqual([
      { type: 'data-status', data: 'warming up' },
      { chunk: { type: 'reset-step' } },
      { type: 'data-status', data: 'after' },
    ]);
  });
});

describe('the vercel-ai format', () => {
  it('recorded chunks (JSON Lines, and the SSE toUIMessageStreamResponse sends) and stored messages', async () => {
    const chunks = await uiRun();
    const text = jsonl(chunks);
    const r = await checkImport(text, 'vercel-ai', { filename: 'chat.jsonl' });
    await expect(r.dump).toMatchFileSnapshot('__snapshots__/vercel-ai/stream.txt');
    expect(shape(r.events)).toEqual(shape(live(chunks)));
    const sent = await sse(chunks);
    expect(sent.endsWith('data: [DONE]\n\n')).toBe(true);
    expect(detectFormat(sent).format).toBe('vercel-ai');
    expect((await importAny(sent)).events).toEqual(r.events);
    // While it arrives, in pieces.
    const stream = new EventStream();
    const pieces = (async function* () {
      for (let i = 0; i < sent.length; i += 61) yield sent.slice(i, i + 61);
    })();
    for await (const batch of streamImport(pieces)) for (const e of batch) stream.append(e);
    expect(stream.latest()).toEqual(r.events);

    const stored = [question, (await uiMessages(chunks)).at(-1)!];
    const array = await checkImport(JSON.stringify(stored), 'vercel-ai', { filename: 'chat.json' });
    expect(array.events).toEqual(importUIMessages(stored).events);
    expect((await importAny(JSON.stringify({ messages: stored }))).events).toEqual(array.events);
    expect(vercelAiFormat.detect).toBeTypeOf('function');
  });

  it('bad records are kept with diagnostics', () => {
    const r = importUIMessages([question, { id: 'x', role: 'assistant' }, 42] as never);
    expect(r.diagnostics.map((d) => d.code)).toEqual([
      'vercel_ai_not_a_message',
      'vercel_ai_not_a_message',
      'value_invented',
    ]);
    expect(byKind(r.events, 'info')).toHaveLength(2);
  });

  it('a tool output nested 10,000 deep: its text cut at the depth limit, and reported', () => {
    // JSON.stringify overflows the stack on it: the result was a placeholder, unreported.
    let output: unknown = 'leaf';
    for (let i = 0; i < 10_000; i++) output = { d: output };
    const part = { type: 'tool-f', toolCallId: 'c', state: 'output-available', input: {}, output };
    const r = importUIMessages([{ id: 'm', role: 'assistant', parts: [part] }] as never);
    const result = (byKind(r.events, 'tool')[0] as ToolEvent).result as string;
    expect(result.startsWith('{"d":{"d":')).toBe(true);
    expect(result).toContain(VALUE_CUT_MARKER);
    expect(r.diagnostics.map((d) => d.code)).toContain('value_too_deep');
  });
});

describe('fromUIMessages (useChat’s messages)', () => {
  it('never freezes the app’s own messages: events hold copies of their values', () => {
    const data = { type: 'data-weather', data: { city: 'Oslo' } };
    const input = { a: 1 };
    const output = { b: [2] };
    const source = { type: 'source-url', sourceId: 's1', url: 'https://example.com' };
    const messages = [
      { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Weather?' }, data] },
      {
        id: 'a1',
        role: 'assistant',
        metadata: { m: { n: 1 } },
        parts: [
          { type: 'tool-weather', toolCallId: 'c1', state: 'output-available', input, output },
          source,
        ],
      },
      { stray: { x: 1 } },
    ] as never as UIMessage[];
    const adapter = fromUIMessages({ schedule: () => {} });
    adapter.update(messages, { streaming: false });
    adapter.end();
    const imported = importUIMessages(messages);
    for (const value of [
      data,
      data.data,
      input,
      output,
      source,
      messages[1]!.metadata,
      messages[2],
    ])
      expect(Object.isFrozen(value)).toBe(false);
    // The same events as from the text, where skein's own parse is kept, not copied.
    expect(imported.events).toEqual(importUIMessages(JSON.stringify(messages)).events);
    expect(shape(adapter.stream.latest())).toEqual(shape(imported.events));
    const user = imported.events.find((e) => e.event === 'message' && field(e, 'role') === 'user')!;
    expect(field(user, 'content')).toContainEqual({ type: 'data', data });
  });

  it('each update touches only what changed: one event version per changed part, none for the rest', async () => {
    const chunks = await uiRun({ tokens: 30 });
    const snapshots = await uiMessages(chunks);
    const history: UIMessage[] = [question];
    const adapter = fromUIMessages({ schedule: () => {} });
    adapter.update(history, { streaming: true });
    adapter.flush();
    const firstUuid = adapter.stream.at(0)!.uuid;
    let previous = adapter.stream.length;
    let grew = 0;
    for (const snapshot of snapshots) {
      adapter.update([question, snapshot], { streaming: true });
      adapter.flush();
      const added = adapter.stream.toArray().slice(previous);
      previous = adapter.stream.length;
      // The user message is never re-emitted; a token is one version.
      expect(added.some((e) => e.uuid === firstUuid)).toBe(false);
      const texts = added.filter(
        (e) => e.event === 'message' && typeof field(e, 'content') === 'string',
      );
      if (texts.length === 1 && added.length === 1) grew++;
    }
    expect(grew).toBeGreaterThanOrEqual(28); // the 30 tokens, one version each
    adapter.update([question, snapshots.at(-1)!], { streaming: false });
    adapter.end();
    expect(shape(adapter.stream.latest())).toEqual(
      shape(importUIMessages([question, snapshots.at(-1)!]).events),
    );
  });
});
