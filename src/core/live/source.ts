/**
 * What a live server serves from: any log that can replay from a
 * sequence number and then follow. An in-process `EventStream` is one
 * ({@link eventStreamSource}); Redis Streams (`skein/server/redis`) another.
 */
import { SkeinError } from '../errors.js';
import type { EventStream } from '../stream/event-stream.js';
import { createStreamId } from './sequence.js';

/**
 * One entry of a {@link SequencedSource}: its sequence (see `compareSeq`) and
 * its value — a canonical event, or any other value, which the server sends
 * in the JSON-portable display form (`mimeStream`).
 *
 * @example
 * const entry: SequencedEntry = { seq: '1', value: { event: 'info', uuid: 'u1', timestamp: '2026-01-01T00:00:00Z' } };
 */
export interface SequencedEntry {
  readonly seq: string;
  readonly value: unknown;
  /**
   * When the entry was written (epoch ms), if the source knows: the timestamp
   * of the `display` event a non-event value is wrapped in.
   */
  readonly time?: number;
}

/**
 * Options of {@link SequencedSource.read}.
 *
 * @example
 * declare const source: SequencedSource;
 * const { signal } = new AbortController();
 * await source.read('41', { limit: 500, wait: true, signal });
 */
export interface SourceReadOptions {
  /** At most this many entries per call. */
  readonly limit: number;
  /**
   * `false`: return at once, with no entries when the reader is at the head.
   * `true`: wait until at least one entry follows `after` (or `signal` aborts;
   * then resolve with none).
   */
  readonly wait: boolean;
  /** Aborting ends a waiting read with no entries. */
  readonly signal?: AbortSignalLike;
}

/**
 * The part of `AbortSignal` the core uses (the core has no DOM lib).
 *
 * @example
 * const signal: AbortSignalLike = new AbortController().signal;
 */
export interface AbortSignalLike {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/**
 * A log a live server can serve: replay from a sequence number, then follow.
 *
 * - `streamId` names this log; it changes when sequence numbers from before
 *   no longer mean the same entries (a restarted in-memory stream), so
 *   clients know to start over instead of resuming.
 * - `read(after)` returns the entries strictly after `after` (`null`: from
 *   the start), in sequence order. It throws a `SkeinError` with code
 *   `live_bad_position` when `after` can never be in this log (malformed, or
 *   beyond its head): the server then starts the client over. A custom
 *   source may throw a `RangeError` instead; the server reads it the same way.
 *
 * @example
 * const source: SequencedSource = eventStreamSource(stream);
 * const first = await source.read(null, { limit: 100, wait: false });
 */
export interface SequencedSource {
  readonly streamId: string;
  read(after: string | null, options: SourceReadOptions): Promise<readonly SequencedEntry[]>;
}

/**
 * Options of {@link eventStreamSource}.
 *
 * @example
 * eventStreamSource(stream, { streamId: 'run-42' });
 */
export interface EventStreamSourceOptions {
  /**
   * The stream id clients see. Default: a random one per call, so a restarted
   * server (a new in-memory stream) is told apart from the old one. Pass a
   * stable id only when the stream is rebuilt with the same events in the
   * same order (e.g. reloaded from a file). No `:` allowed.
   */
  streamId?: string;
}

const cache = new WeakMap<EventStream, SequencedSource>();

/**
 * The {@link SequencedSource} view of an `EventStream`: entry `i` (0-based)
 * has sequence `i + 1`, so `after = '0'` or `null` is the start and
 * `after = String(stream.length)` the head. Reads past the head wait for the
 * next append. One source per stream (and per `streamId` option): calling it
 * twice without options returns the same source, so several handlers over
 * one stream share a stream id.
 *
 * Cost: a read is O(entries returned); a waiting read subscribes to the
 * stream until the next append.
 *
 * @example
 * const source = eventStreamSource(stream);
 * const entries = await source.read(null, { limit: 1000, wait: false });
 */
export function eventStreamSource(
  stream: EventStream,
  options: EventStreamSourceOptions = {},
): SequencedSource {
  if (options.streamId === undefined) {
    const known = cache.get(stream);
    if (known !== undefined) return known;
  }
  const streamId = options.streamId ?? createStreamId();
  if (streamId === '' || streamId.includes(':'))
    throw new SkeinError(
      'invalid_argument',
      'eventStreamSource',
      'streamId',
      'non-empty and hold no ":"',
      JSON.stringify(streamId),
    );
  const source: SequencedSource = {
    streamId,
    async read(after, { limit, wait, signal }) {
      let start = 0;
      if (after !== null) {
        if (!/^\d{1,15}$/.test(after))
          throw new SkeinError('live_bad_position', after, 'not a sequence of this stream');
        start = Number(after);
        if (start > stream.length)
          throw new SkeinError(
            'live_bad_position',
            after,
            `beyond the head of the stream (${stream.length})`,
          );
      }
      if (start >= stream.length) {
        if (!wait || signal?.aborted === true) return [];
        await nextAppend(stream, signal);
      }
      const end = Math.min(stream.length, start + Math.max(1, limit));
      const out: SequencedEntry[] = new Array<SequencedEntry>(end - start);
      for (let i = start; i < end; i++)
        out[i - start] = { seq: String(i + 1), value: stream.at(i) };
      return out;
    },
  };
  if (options.streamId === undefined) cache.set(stream, source);
  return source;
}

/** Resolves on the next append to `stream`, or when `signal` aborts. */
function nextAppend(stream: EventStream, signal: AbortSignalLike | undefined): Promise<void> {
  return new Promise<void>((resolve) => {
    const length = stream.length;
    let unsubscribe = (): void => {};
    const done = (): void => {
      unsubscribe();
      signal?.removeEventListener('abort', done);
      resolve();
    };
    unsubscribe = stream.subscribe(() => {
      if (stream.length > length) done();
    });
    signal?.addEventListener('abort', done, { once: true });
  });
}
