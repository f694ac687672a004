// Inputs read over time: async iterables and WHATWG ReadableStreams (a fetch
// body, `File.stream()`, a Node `Readable.toWeb`). Core has no DOM typings, so
// a ReadableStream is matched by shape: `getReader()` with `read()`. Before
// this, callers had to cast `response.body` to an async iterable, which also
// failed at run time in browsers whose streams are not async-iterable yet.

/**
 * The part of a WHATWG `ReadableStream` skein reads: a reader whose `read()`
 * resolves to `{ done, value }`. A fetch body (`response.body`) fits.
 *
 * @example
 * const body: ReadableStreamLike<Uint8Array> = (await fetch('/run.jsonl')).body!;
 */
export interface ReadableStreamLike<T> {
  getReader(): {
    read(): Promise<{ done: boolean; value?: T }>;
    releaseLock(): void;
    cancel(reason?: unknown): Promise<void>;
  };
}

/**
 * Text or bytes that arrive over time: an async iterable of chunks or a
 * ReadableStream of them. Chunks may split anywhere, even inside a UTF-8
 * character.
 *
 * @example
 * declare const file: File;
 * const chunks: ChunkSource = file.stream();
 */
export type ChunkSource =
  AsyncIterable<string | Uint8Array> | ReadableStreamLike<string | Uint8Array>;

/**
 * True for an async iterable (a stream of chunks or events), as opposed to a
 * whole input.
 *
 * @example
 * import { isAsyncIterable } from './chunks.js';
 * declare const input: unknown;
 * if (isAsyncIterable(input)) for await (const chunk of input) void chunk;
 */
export function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function'
  );
}

/**
 * True for a ReadableStream (anything with `getReader()`).
 *
 * @example
 * import { isReadableStreamLike } from './chunks.js';
 * declare const input: unknown;
 * if (isReadableStreamLike(input)) await input.getReader().cancel();
 */
export function isReadableStreamLike(value: unknown): value is ReadableStreamLike<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { getReader?: unknown }).getReader === 'function'
  );
}

/**
 * True for a {@link ChunkSource}.
 *
 * @example
 * import { isChunkSource } from './chunks.js';
 * declare const input: unknown;
 * isChunkSource(input); // an async iterable or a ReadableStream
 */
export function isChunkSource(value: unknown): value is ChunkSource {
  return isReadableStreamLike(value) || isAsyncIterable(value);
}

/**
 * The chunks of a {@link ChunkSource} as an async iterable. A ReadableStream
 * is read with its reader (async iteration over streams is missing in some
 * browsers); stopping early (`break`, a thrown error) cancels it, as
 * `for await` over a stream does.
 *
 * @example
 * import { chunksOf } from './chunks.js';
 * declare const response: Response;
 * for await (const chunk of chunksOf(response.body!)) void chunk;
 */
export function chunksOf<T>(source: AsyncIterable<T> | ReadableStreamLike<T>): AsyncIterable<T> {
  if (!isReadableStreamLike(source)) return source;
  return {
    async *[Symbol.asyncIterator]() {
      const reader = source.getReader();
      let finished = false;
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) {
            finished = true;
            return;
          }
          if (value !== undefined) yield value;
        }
      } finally {
        if (!finished) await reader.cancel().catch(() => undefined);
        reader.releaseLock();
      }
    },
  };
}
