// Recorded Server-Sent Events (WHATWG HTML §9.2.6) whose `data:` fields hold
// JSON records: what AG-UI's `@ag-ui/encoder` and the Vercel AI SDK's
// `toUIMessageStreamResponse` write, saved from the wire. Each message's data
// (its `data:` lines joined by newlines) is one record; record `i` has the
// path `$[i]`, its index among the messages. The Vercel AI SDK ends its stream
// with `data: [DONE]`, which is not a record. Comments (`: keep-alive`), `id:`,
// `event:` and `retry:` fields carry nothing an importer maps.
import { jsonPath } from '../errors.js';
import { createSseParser } from '../live/sse-parser.js';
import { chunksOf, type ChunkSource } from '../chunks.js';
import type { ImportContext } from './guards.js';
import type { JsonLine } from './lines.js';

/** The terminator the Vercel AI SDK sends after its last chunk. */
const DONE = '[DONE]';

/**
 * True when a text's first non-blank line is an SSE field (`data:`, `event:`,
 * `id:`, `retry:`) or comment (`:`): a recorded event stream, not JSON.
 *
 * @example
 * import { looksLikeSse } from 'src/core/import/sse.js';
 * looksLikeSse('data: {"type":"RUN_STARTED"}\n\n'); // true
 */
export function looksLikeSse(head: string): boolean {
  let at = 0;
  while (at < head.length) {
    const c = head.charCodeAt(at);
    if (c === 32 || c === 9 || c === 10 || c === 13 || c === 0xfeff) at++;
    else break;
  }
  if (head.charCodeAt(at) === 58) return true; // ':' a comment
  return /^(?:data|event|id|retry):/.test(head.slice(at, at + 6));
}

/**
 * Calls `each(value, path)` for every JSON record of a recorded event stream;
 * data that is not JSON is one `invalid_sse_data` diagnostic and is skipped.
 *
 * @example
 * import { eachSseRecord } from 'src/core/import/sse.js';
 * const ctx = new ImportContext({});
 * eachSseRecord('data: {"type":"RUN_STARTED"}\n\n', ctx, (value, path) => void [value, path]);
 */
export function eachSseRecord(
  text: string,
  ctx: ImportContext,
  each: (value: unknown, path: string) => void,
): void {
  const reader = new SseRecords(ctx, (r) => each(r.value, r.path));
  reader.feed(text);
  reader.end();
}

/**
 * The JSON records of a recorded event stream read from chunks (strings or
 * UTF-8 bytes, split anywhere), each yielded once its message is complete.
 *
 * @example
 * import { readSseRecordsAsync } from 'src/core/import/sse.js';
 * const body = (await fetch('/run.sse')).body!;
 * for await (const { value, path } of readSseRecordsAsync(body, new ImportContext({}))) void [value, path];
 */
export async function* readSseRecordsAsync(
  chunks: ChunkSource,
  ctx: ImportContext,
): AsyncGenerator<JsonLine> {
  for await (const batch of readSseBatchesAsync(chunks, ctx)) yield* batch;
}

/**
 * {@link readSseRecordsAsync} a batch at a time: the records whose messages a
 * chunk completes, yielded together once the chunk is read (as
 * `readJsonLineBatchesAsync` does for JSON Lines).
 *
 * @example
 * import { readSseBatchesAsync } from 'src/core/import/sse.js';
 * const body = (await fetch('/run.sse')).body!;
 * for await (const batch of readSseBatchesAsync(body, new ImportContext({}))) void batch.length;
 */
export async function* readSseBatchesAsync(
  chunks: ChunkSource,
  ctx: ImportContext,
): AsyncGenerator<JsonLine[]> {
  let ready: JsonLine[] = [];
  const reader = new SseRecords(ctx, (r) => ready.push(r));
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of chunksOf(chunks)) {
    reader.feed(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
    if (ready.length > 0) {
      yield ready;
      ready = [];
    }
  }
  reader.feed(decoder.decode());
  reader.end();
  if (ready.length > 0) yield ready;
}

/** The SSE parser, with each message's data parsed as JSON and numbered. */
class SseRecords {
  readonly #parse: (chunk: string) => void;
  #index = 0;

  constructor(ctx: ImportContext, each: (record: JsonLine) => void) {
    this.#parse = createSseParser(({ data }) => {
      const index = this.#index++;
      const path = jsonPath('$', index);
      const body = data.trim();
      if (body === DONE || body === '') return;
      try {
        each({ value: JSON.parse(body) as unknown, line: index + 1, path, text: body });
      } catch (e) {
        ctx.warn(path, 'invalid_sse_data', index + 1, e instanceof Error ? e.message : String(e));
      }
    });
  }

  feed(text: string): void {
    this.#parse(text);
  }

  /** A last message with no blank line after it (a capture cut short) still counts. */
  end(): void {
    this.#parse('\n\n');
  }
}
