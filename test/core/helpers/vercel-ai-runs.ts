// AI SDK runs for tests, fuzz seeds and benches, made by the `ai` package
// itself: `streamText` on its mock model (`ai/test`) with a real tool, its
// UI message stream (`toUIMessageStream`, merged into `createUIMessageStream`
// for data parts), each chunk validated by `uiMessageChunkSchema`, and the
// `UIMessage` that `readUIMessageStream` (what `useChat` runs) builds from it.
import {
  createUIMessageStream,
  readUIMessageStream,
  simulateReadableStream,
  stepCountIs,
  streamText,
  tool,
  uiMessageChunkSchema,
  type UIMessage,
  type UIMessageChunk,
} from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';

/** Options of {@link uiRun}. */
export interface UiRunOptions {
  /** Tokens of the first step's text (default 5). */
  tokens?: number;
  /** The weather tool throws (a `tool-output-error`). */
  toolError?: boolean;
  /** The response message's id (default `msg-1`). */
  messageId?: string;
  /** The stream is aborted after this many model chunks of the last step. */
  abortAfter?: number;
}

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

/** The mock model: step 1 reasons, answers and calls the tool; step 2 cites, shows a file, answers. */
function model(options: UiRunOptions) {
  let call = 0;
  const tokens = options.tokens ?? 5;
  return new MockLanguageModelV3({
    doStream: async () => {
      call++;
      const chunks: unknown[] =
        call === 1
          ? [
              { type: 'stream-start', warnings: [] },
              { type: 'reasoning-start', id: 'r0' },
              { type: 'reasoning-delta', id: 'r0', delta: 'The user wants the weather; ' },
              { type: 'reasoning-delta', id: 'r0', delta: 'ask the tool.' },
              { type: 'reasoning-end', id: 'r0' },
              { type: 'text-start', id: 't0' },
              ...Array.from({ length: tokens }, (_, k) => ({
                type: 'text-delta',
                id: 't0',
                delta: `word${k} `,
              })),
              { type: 'text-end', id: 't0' },
              { type: 'tool-input-start', id: 'call-1', toolName: 'weather' },
              { type: 'tool-input-delta', id: 'call-1', delta: '{"city":' },
              { type: 'tool-input-delta', id: 'call-1', delta: '"Oslo"}' },
              { type: 'tool-input-end', id: 'call-1' },
              {
                type: 'tool-call',
                toolCallId: 'call-1',
                toolName: 'weather',
                input: '{"city":"Oslo"}',
              },
              { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage },
            ]
          : [
              { type: 'stream-start', warnings: [] },
              {
                type: 'source',
                sourceType: 'url',
                id: 'src-1',
                url: 'https://weather.example/oslo',
                title: 'Oslo forecast',
              },
              { type: 'file', mediaType: 'image/png', data: 'iVBORw0KGgo=' },
              { type: 'text-start', id: 't1' },
              { type: 'text-delta', id: 't1', delta: 'It is sunny ' },
              { type: 'text-delta', id: 't1', delta: 'in Oslo.' },
              { type: 'text-end', id: 't1' },
              { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
            ];
      const cut =
        options.abortAfter !== undefined && call === 2
          ? chunks.slice(0, options.abortAfter)
          : chunks;
      return { stream: simulateReadableStream({ chunks: cut as never[], chunkDelayInMs: null }) };
    },
  });
}

/**
 * A two-step response as UI message stream chunks: a data part (updated in
 * place), reasoning, a streamed answer, a tool call with streamed input and
 * its output (or error), a source, a file and a last answer; every chunk
 * checked against the SDK's own schema.
 *
 * @example
 * const chunks = await uiRun({ tokens: 20 });
 */
export async function uiRun(options: UiRunOptions = {}): Promise<UIMessageChunk[]> {
  const messageId = options.messageId ?? 'msg-1';
  const abort = new AbortController();
  const stream = createUIMessageStream({
    generateId: () => messageId,
    execute: async ({ writer }) => {
      writer.write({ type: 'start', messageId });
      writer.write({ type: 'data-weather', id: 'w1', data: { status: 'loading' } });
      const result = streamText({
        model: model(options),
        prompt: 'How is the weather in Oslo?',
        stopWhen: stepCountIs(3),
        abortSignal: abort.signal,
        tools: {
          weather: tool({
            description: 'Current weather of a city',
            inputSchema: z.object({ city: z.string() }),
            execute: async ({ city }) => {
              if (options.toolError === true) throw new Error(`no station in ${city}`);
              return { city, sky: 'sunny', celsius: 21 };
            },
          }),
        },
        onChunk: ({ chunk }) => {
          if (options.abortAfter !== undefined && chunk.type === 'source') abort.abort();
        },
      });
      writer.merge(
        result.toUIMessageStream({
          sendReasoning: true,
          sendSources: true,
          sendStart: false,
          // The SDK hides error texts unless asked (a server must not leak them).
          onError: (e) => (e instanceof Error ? e.message : String(e)),
        }),
      );
      await result.consumeStream({ onError: () => undefined });
      writer.write({ type: 'data-weather', id: 'w1', data: { status: 'done' } });
    },
  });
  const chunks: UIMessageChunk[] = [];
  const schema = uiMessageChunkSchema();
  for await (const chunk of stream as unknown as AsyncIterable<UIMessageChunk>) {
    const checked = await schema.validate!(chunk);
    if (!checked.success) throw checked.error;
    chunks.push(chunk);
  }
  return chunks;
}

/** The message `readUIMessageStream` (what `useChat` runs) builds from chunks, at each step of the way. */
export async function uiMessages(chunks: readonly UIMessageChunk[]): Promise<UIMessage[]> {
  const out: UIMessage[] = [];
  const stream = simulateReadableStream({ chunks: [...chunks], chunkDelayInMs: null });
  for await (const m of readUIMessageStream({ stream })) out.push(m);
  return out;
}

/** The question the runs answer, as `useChat` keeps it. */
export const question: UIMessage = {
  id: 'user-1',
  role: 'user',
  parts: [{ type: 'text', text: 'How is the weather in Oslo?' }],
};
