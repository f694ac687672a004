/**
 * The live wire protocol shared by `skein/server` and `connectEventStream`.
 * Over Server-Sent Events each message is one SSE event; over a
 * WebSocket each text frame holds a JSON array of the same messages.
 *
 * | SSE `event:` | WebSocket `type` | data |
 * | --- | --- | --- |
 * | `hello`   | `hello`   | {@link LiveHello}: the stream id, where this connection starts |
 * | (message) | `event`   | one record (a canonical event as JSON); SSE `id:` / `id` is `<streamId>:<seq>` |
 * | `live`    | `live`    | {@link LiveCaughtUp}: history sent, what follows is the live tail |
 * | `close`   | `close`   | {@link LiveClose}: why the server ends the connection |
 * | comment   | `ping`    | heartbeat |
 */
import { deriveEventUuid } from '../events/uuid.js';
import { isCanonicalEvent, mimeStream, toJsonSafe } from '../display/mime-stream.js';
import type { SequencedEntry } from './source.js';

/** Version of the wire protocol, sent in `hello`. */
export const LIVE_PROTOCOL = 1;

/**
 * The first message of every connection.
 *
 * @example
 * const hello: LiveHello = { protocol: 1, streamId: 'q8z0m3kd7a1x', after: '41', reset: false };
 */
export interface LiveHello {
  protocol: number;
  /** Names the server's stream; a different one than before means start over. */
  streamId: string;
  /** The sequence this connection continues after (`null`: from the start). */
  after: string | null;
  /**
   * `true` when the client asked to resume a position this stream does not
   * have (another stream id, or past the head): the server starts over.
   */
  reset: boolean;
}

/**
 * Sent once the history the client lacked is out; what follows is live.
 *
 * @example
 * const live: LiveCaughtUp = { seq: '100000' };
 */
export interface LiveCaughtUp {
  /** The last sequence sent so far (`null`: the stream is empty). */
  seq: string | null;
}

/**
 * Why a server closed a connection:
 * - `slow_client`: the client did not read; its buffer hit the bound;
 * - `shutdown`: the server is stopping;
 * - `source_error`: reading the source failed (`message` says how).
 *
 * @example
 * const reason: LiveCloseReason = 'slow_client';
 */
export type LiveCloseReason = 'slow_client' | 'shutdown' | 'source_error';

/**
 * The last message before the server closes a connection on purpose.
 *
 * @example
 * const close: LiveClose = { reason: 'slow_client', message: '1048576 bytes unread for 10000 ms' };
 */
export interface LiveClose {
  reason: LiveCloseReason;
  message?: string;
}

/**
 * The JSON text of an entry as sent: a canonical event as its own JSON; any
 * other value as a `display` event holding its `display_data` part
 * (`mimeStream`), with a uuid derived from the stream id and sequence, so
 * every delivery of the entry is the same text.
 *
 * Events take the fast path (`JSON.stringify`), whose output equals
 * `toJsonSafe`'s for JSON-safe data; values JSON cannot hold (bigint, a cycle)
 * fall back to `toJsonSafe`.
 *
 * @example
 * entryJson({ seq: '3', value: 42, time: 0 }, 'q8z0m3kd7a1x');
 * // '{"event":"display","uuid":"…","timestamp":"1970-01-01T00:00:00.000Z","outputs":[…]}'
 */
export function entryJson(entry: SequencedEntry, streamId: string): string {
  const value = entry.value;
  if (isCanonicalEvent(value)) {
    try {
      const text = JSON.stringify(value);
      if (text !== undefined) return text;
    } catch {
      // bigint or a cycle: the portable form below
    }
    return JSON.stringify(toJsonSafe(value));
  }
  const record = mimeStream([value]).next().value;
  const part = record !== undefined && 'output_type' in record ? record : undefined;
  const time = entry.time ?? Date.now();
  return JSON.stringify({
    event: 'display',
    uuid: deriveEventUuid(`${streamId}:${entry.seq}`),
    timestamp: new Date(time).toISOString(),
    outputs: part === undefined ? [] : [{ data: part.data, metadata: part.metadata }],
  });
}
