// The Vercel AI SDK (`ai`, versions 5 to 7) as the app sees it: the UI
// message stream (https://ai-sdk.dev/docs/ai-sdk-ui/stream-protocol) and the
// `UIMessage[]` that `useChat` keeps and apps store
// (https://ai-sdk.dev/docs/ai-sdk-ui/chatbot-message-persistence). skein
// reads both live (`fromUIMessageStream`, `fromUIMessages`) and recorded
// (`importUIMessages`, and the `vercel-ai` format: a JSON array or
// `{ messages }` of UI messages, JSON Lines of messages or of chunks, or the
// Server-Sent Events text `toUIMessageStreamResponse` sends). The mapping is
// one (./response.ts).
//
// Quirks (README "Supported formats"):
// - Nothing in either form carries a time: live, events get their arrival
//   time; read from storage, synthesized times 1 ms apart. Both are flagged.
// - What only the stream carries — `error` chunks, the finish reason,
//   `abort`, transient data parts — is not in stored messages, and a stored
//   message's partial tool input is shown while the stream shows input only
//   once it is available.
// - The AI SDK's own OpenTelemetry spans (`ai.streamText`, `ai.toolCall`)
//   are read by the OTLP importer, not here.
import type { Event } from '../../events/types.js';
import {
  importLines,
  sniffer,
  type FormatImporter,
  type ImportResult,
  type IncrementalImporter,
} from '../format.js';
import { ImportContext, isRecord, type ImportOptions } from '../guards.js';
import {
  copySourceEvent,
  createLiveAdapter,
  type LiveAdapter,
  type LiveAdapterOptions,
} from '../live.js';
import { Probe, type ImportInput } from '../probe.js';
import { eachSseRecord, looksLikeSse } from '../sse.js';
import type { UIMessage, UIMessageChunkInput } from './types.js';
import { UIMessagesImporter } from './ui-messages.js';
import { TOOL_CHUNKS, UIStreamImporter } from './ui-stream.js';

/** Chunk types of the UI message stream (5 to 7); `data-*` are matched apart. */
const CHUNK_TYPES = new Set([
  'start',
  'finish',
  'abort',
  'error',
  'message-metadata',
  'start-step',
  'finish-step',
  'reset-step',
  'text-start',
  'text-delta',
  'text-end',
  'reasoning-start',
  'reasoning-delta',
  'reasoning-end',
  'reasoning-file',
  'source-url',
  'source-document',
  'file',
  'custom',
  'steering-message',
  ...TOOL_CHUNKS,
]);

function isChunk(r: unknown): boolean {
  if (!isRecord(r) || typeof r['type'] !== 'string') return false;
  return CHUNK_TYPES.has(r['type']) || r['type'].startsWith('data-');
}

function isUIMessage(r: unknown): boolean {
  return (
    isRecord(r) &&
    typeof r['id'] === 'string' &&
    (r['role'] === 'user' || r['role'] === 'assistant' || r['role'] === 'system') &&
    Array.isArray(r['parts'])
  );
}

/** The messages of a stored document: an array, or `{ messages: [...] }`. */
function storedMessages(doc: unknown): unknown[] | undefined {
  if (Array.isArray(doc)) return doc;
  if (isRecord(doc) && Array.isArray(doc['messages'])) return doc['messages'];
  return undefined;
}

/**
 * Reads a first record to choose: UI messages, or stream chunks.
 */
class VercelImporter implements IncrementalImporter {
  readonly #options: ImportOptions;
  readonly #owned: boolean;
  #inner: IncrementalImporter | undefined;

  /** `owned`: records skein parsed from text (see `Messages.copy`). */
  constructor(options: ImportOptions, owned = false) {
    this.#options = options;
    this.#owned = owned;
  }

  #of(record: unknown): IncrementalImporter {
    return (this.#inner ??= isUIMessage(record)
      ? new UIMessagesImporter(this.#options, this.#owned)
      : new UIStreamImporter(this.#options, this.#owned));
  }

  push(record: unknown, path: string): void {
    this.#of(record).push(record, path);
  }
  drain(): Event[] {
    return this.#inner?.drain() ?? [];
  }
  end(): Event[] {
    return this.#inner?.end() ?? [];
  }
  diagnostics() {
    return this.#inner?.diagnostics() ?? [];
  }
}

/**
 * The Vercel AI SDK format: stored UI messages, or UI message stream chunks.
 *
 * @example
 * import { Probe } from '../probe.js';
 * import { vercelAiFormat } from './vercel-ai.js';
 * vercelAiFormat.detect(new Probe('[{"id":"m1","role":"user","parts":[]}]')); // true
 */
export const vercelAiFormat: FormatImporter & {
  incremental(options: ImportOptions): IncrementalImporter;
} = {
  id: 'vercel-ai',
  name: 'Vercel AI SDK UI messages',
  extensions: ['.json', '.jsonl', '.sse'],
  detect(probe) {
    if (probe.isRaw && looksLikeSse(probe.head())) {
      const head = probe.head();
      const records: unknown[] = [];
      eachSseRecord(head.slice(0, head.lastIndexOf('\n\n') + 2), new ImportContext({}), (v) => {
        if (records.length < 4) records.push(v);
      });
      return records.length > 0 && records.every(isChunk);
    }
    const doc = probe.json();
    if (isRecord(doc)) {
      const list = storedMessages(doc);
      return list !== undefined && list.length > 0 && list.slice(0, 4).every(isUIMessage);
    }
    const records = probe.records(4);
    return records.length > 0 && (records.every(isUIMessage) || records.every(isChunk));
  },
  import(probe, options): ImportResult {
    if (probe.isRaw && looksLikeSse(probe.head())) {
      const imp = new UIStreamImporter(options, true);
      const ctx = new ImportContext(options);
      eachSseRecord(probe.text() ?? '', ctx, (value, path) => imp.push(value, path));
      const events = imp.end();
      return { format: 'vercel-ai', events, diagnostics: [...ctx.finish(), ...imp.diagnostics()] };
    }
    const doc = probe.json();
    if (isRecord(doc) && Array.isArray(doc['messages']))
      return importStored(doc['messages'] as unknown[], options, probe.isRaw, '$.messages');
    return importLines(vercelAiFormat, probe, options, new VercelImporter(options, probe.isRaw));
  },
  incremental: (options) => new VercelImporter(options),
};

/**
 * Whether an input is stored UI messages or a recorded UI message stream.
 *
 * @example
 * isVercelAi('{"type":"start","messageId":"m1"}\n{"type":"text-start","id":"t0"}\n'); // true
 */
export const isVercelAi: (input: ImportInput, filename?: string) => boolean =
  sniffer(vercelAiFormat);

/**
 * Imports stored UI messages (`UIMessage[]`, as `useChat` keeps them; or text
 * or bytes of such an array or of `{ messages }`): a `message` event per user
 * message, a `turn` span per assistant message holding its steps, text,
 * reasoning, tool calls, sources, files and data parts.
 *
 * @example
 * declare const messages: UIMessage[]; // from useChat, or your database
 * const { events } = importUIMessages(messages);
 * const stream = EventStream.from(events);
 */
export function importUIMessages(
  input: readonly UIMessage[] | ImportInput,
  options: ImportOptions = {},
): ImportResult {
  const list = storedMessages(input);
  if (list !== undefined) return importStored(list, options, false);
  const probe = new Probe(input, options.filename);
  const doc = probe.json();
  const parsed = storedMessages(doc);
  if (parsed !== undefined && doc !== input) return importStored(parsed, options, probe.isRaw);
  return vercelAiFormat.import(probe, options) as ImportResult;
}

/** Stored messages, each at `<base>[i]`; `owned` when skein parsed them (see `Messages.copy`). */
function importStored(
  list: unknown[],
  options: ImportOptions,
  owned: boolean,
  base = '$',
): ImportResult {
  const imp = new UIMessagesImporter(options, owned);
  list.forEach((m, i) => imp.push(m, `${base}[${i}]`));
  const events = imp.end();
  return { format: 'vercel-ai', events, diagnostics: imp.diagnostics() };
}

/**
 * A live adapter for a UI message stream: push each chunk (from
 * `result.toUIMessageStream()`, a custom `useChat` transport, a recorded
 * stream) or `consume` the stream whole; render `adapter.stream`. A text part
 * streamed token by token is one row, re-emitted as it grows.
 *
 * @example
 * declare const chunks: ReadableStream<UIMessageChunk>; // streamText(…).toUIMessageStream()
 * const adapter = fromUIMessageStream();
 * void adapter.consume(chunks);
 * // <Transcript stream={adapter.stream} />
 */
export function fromUIMessageStream(
  options: LiveAdapterOptions = {},
): LiveAdapter<UIMessageChunkInput> {
  const importer = new UIStreamImporter({ ...options, now: options.now ?? Date.now });
  return createLiveAdapter<UIMessageChunkInput>(
    'fromUIMessageStream',
    importer,
    options,
    copySourceEvent,
  );
}

/**
 * What {@link fromUIMessages} gives: a live adapter fed the whole `messages`
 * array each time it changes.
 *
 * @example
 * declare const adapter: UIMessagesAdapter;
 * declare const messages: UIMessage[];
 * adapter.update(messages, { streaming: true });
 */
export interface UIMessagesAdapter extends Omit<
  LiveAdapter<{ messages: readonly unknown[]; streaming: boolean }>,
  'push'
> {
  /**
   * The current messages (`useChat`'s `messages`): only new and changed
   * messages, and in them only changed parts, update events. `streaming`:
   * the last message is still being written (`status` is `submitted` or
   * `streaming`); default `false`.
   */
  update(
    messages: readonly UIMessage[] | readonly unknown[],
    options?: { streaming?: boolean },
  ): void;
}

/**
 * A live adapter for `useChat`'s `messages`: call `update(messages)` each time
 * they change and render `adapter.stream`. Unchanged messages are skipped by
 * reference; a new token re-emits its one text event.
 *
 * @example
 * declare const messages: UIMessage[];
 * const adapter = fromUIMessages();
 * adapter.update(messages, { streaming: true });
 */
export function fromUIMessages(options: LiveAdapterOptions = {}): UIMessagesAdapter {
  const importer = new UIMessagesImporter({ ...options, now: options.now ?? Date.now });
  const live = createLiveAdapter<{ messages: readonly unknown[]; streaming: boolean }>(
    'fromUIMessages',
    {
      push: (input) => {
        const { messages, streaming } = input as {
          messages: readonly unknown[];
          streaming: boolean;
        };
        importer.update(messages, streaming);
      },
      drain: () => importer.drain(),
      end: () => importer.end(),
      diagnostics: () => importer.diagnostics(),
    },
    options,
  );
  const { push, ...rest } = live;
  return {
    ...rest,
    update(messages, opts) {
      push({ messages, streaming: opts?.streaming ?? false });
    },
  };
}
