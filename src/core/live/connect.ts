/**
 * `connectEventStream`: rebuilds a server's stream on the client, across
 * disconnects, without loss or duplicates.
 *
 * The client keeps the last sequence it appended; every (re)connection asks
 * to continue after it, entries at or before it are dropped as duplicates
 * (never by uuid: a pending event and its final version share one), and a
 * gap in a densely numbered stream reconnects from the last good entry. A
 * new stream id (a restarted server whose history is gone) starts a fresh
 * `EventStream`: the log is append-only and cannot be rewound.
 */
import type { Event } from '../events/types.js';
import { Listeners } from '../stream/listeners.js';
import { EventStream } from '../stream/event-stream.js';
import { compareSeq, formatEventId, nextDenseSeq, parseEventId } from './sequence.js';
import {
  eventSourceTransport,
  fetchTransport,
  LiveError,
  webSocketTransport,
  type EventSourceConstructor,
  type FetchLike,
  type LiveTransport,
  type WebSocketConstructor,
} from './transports.js';
import type { LiveClose, LiveHello } from './wire.js';

/**
 * Where a connection stands:
 * - `connecting`: the first connection, until the server has sent the history;
 * - `live`: caught up, following the tail;
 * - `reconnecting`: the connection dropped; retrying (resumes where it was);
 * - `closed`: `close()` was called, or the server refused for good (`error`).
 *
 * @example
 * const label: Record<LiveStatus, string> = { connecting: 'Connecting…', live: 'Live', reconnecting: 'Reconnecting…', closed: 'Offline' };
 */
export type LiveStatus = 'connecting' | 'live' | 'reconnecting' | 'closed';

/**
 * The connection's state, as `status.getSnapshot()` returns it (a new frozen
 * object on each change).
 *
 * @example
 * const connection = connectEventStream('/api/run');
 * const { status, error } = connection.status.getSnapshot();
 */
export interface LiveConnectionSnapshot {
  readonly status: LiveStatus;
  /** The last error (a `LiveError`), `null` once a connection succeeds again. */
  readonly error: Error | null;
  /** The stream being filled; replaced by a new one when the server's stream id changes. */
  readonly stream: EventStream;
  /** The server's stream id, once known. */
  readonly streamId: string | null;
  /**
   * The wire id of the last entry appended (what a reconnection resumes
   * after), as of the last status change: entries do not make snapshots,
   * `stream` itself notifies about them.
   */
  readonly lastEventId: string | null;
  /** Consecutive failed connection attempts (0 while connected). */
  readonly attempt: number;
  /** How many times the stream was started over for a new stream id. */
  readonly resets: number;
  /** Entries dropped as already received (duplicates), as of the last status change. */
  readonly duplicates: number;
}

/**
 * Options of {@link connectEventStream}.
 *
 * @example
 * connectEventStream('/api/run', { transport: 'eventsource', retry: { maxDelayMs: 5000 } });
 */
export interface ConnectEventStreamOptions {
  /**
   * `'fetch'` (default; streaming `fetch`, works in Node 20+ and browsers and
   * sees HTTP statuses), `'eventsource'`, `'websocket'`, or a custom
   * `LiveTransport`.
   */
  transport?: 'fetch' | 'eventsource' | 'websocket' | LiveTransport;
  /** Injected platform constructors (default: `globalThis`'s, at connect time). */
  fetch?: FetchLike;
  EventSource?: EventSourceConstructor;
  WebSocket?: WebSocketConstructor;
  /** Extra request headers (fetch transport), e.g. `Authorization`. */
  headers?: Record<string, string>;
  /** `withCredentials` for the EventSource transport. */
  withCredentials?: boolean;
  retry?: {
    /**
     * The first retry after a connection that was serving drops comes within
     * this many ms (uniformly jittered, so many clients do not return at
     * once). Default 250.
     */
    firstDelayMs?: number;
    /** Delay after the first failed attempt; doubles per further failure. Default 500. */
    baseDelayMs?: number;
    /** Longest delay between attempts. Default 15000. */
    maxDelayMs?: number;
  };
  /** Reconnect when nothing (not even a heartbeat) arrives for this long. Default 45000 ms. */
  idleTimeoutMs?: number;
  /** The stream to fill first (default: a new one). */
  stream?: EventStream;
  /** Resume after this wire id (`<streamId>:<seq>`) instead of from the start. */
  lastEventId?: string;
  /** Random numbers in [0, 1) for jitter (tests pass a seeded one). */
  random?: () => number;
  /** Timers (tests pass fakes). */
  setTimeout?: (callback: () => void, ms: number) => unknown;
  clearTimeout?: (handle: unknown) => void;
}

/**
 * A live connection: the stream it fills, its status store, and `close()`.
 *
 * @example
 * const { stream, status, close } = connectEventStream('/api/run');
 */
export interface LiveConnection {
  /** The stream being filled (after a server restart, the new one: read it again). */
  readonly stream: EventStream;
  /** The status as a small store: `getSnapshot()` / `subscribe()` (e.g. `useStoreSelector`). */
  readonly status: {
    getSnapshot(): LiveConnectionSnapshot;
    subscribe(listener: () => void): () => void;
  };
  /** Stops for good; status becomes `closed`. */
  close(): void;
}

function pickTransport(options: ConnectEventStreamOptions): LiveTransport {
  const t = options.transport ?? 'fetch';
  if (typeof t === 'function') return t;
  if (t === 'eventsource')
    return eventSourceTransport({
      ...(options.EventSource ? { EventSource: options.EventSource } : {}),
      ...(options.withCredentials ? { withCredentials: true } : {}),
    });
  if (t === 'websocket')
    return webSocketTransport(options.WebSocket ? { WebSocket: options.WebSocket } : {});
  return fetchTransport({
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.headers ? { headers: options.headers } : {}),
  });
}

/**
 * Connects to a `skein/server` live endpoint and rebuilds its stream here:
 * history first, then the live tail, across any number of disconnects and
 * server restarts.
 *
 * - Resumes by sequence id: the client's log equals the server's, every
 *   version of every event, in order — none lost, none twice.
 * - After a connection that was serving drops, retries at once (within
 *   `retry.firstDelayMs`, jittered); backs off (doubling, capped, jittered)
 *   only over consecutive failed attempts. HTTP 4xx refusals (401, 403, …)
 *   are final: status `closed` with the error.
 * - A new server stream id (a restart that lost the history) starts a new
 *   `EventStream`: read `connection.stream` (or the snapshot's `stream`) again.
 *
 * Pure core: no DOM. The transports take `fetch`, `EventSource`, `WebSocket`
 * from the options or `globalThis`.
 *
 * @example
 * const live = connectEventStream('http://127.0.0.1:8080/events');
 * declare function showStatus(status: string): void;
 * live.status.subscribe(() => showStatus(live.status.getSnapshot().status));
 * // later
 * live.stream.length; // events so far
 * live.close();
 */
export function connectEventStream(
  url: string,
  options: ConnectEventStreamOptions = {},
): LiveConnection {
  const transport = pickTransport(options);
  const random = options.random ?? Math.random;
  const setTimer = options.setTimeout ?? ((cb: () => void, ms: number) => setTimeout(cb, ms));
  const clearTimer =
    options.clearTimeout ?? ((h: unknown) => clearTimeout(h as Parameters<typeof clearTimeout>[0]));
  const firstDelay = options.retry?.firstDelayMs ?? 250;
  const baseDelay = options.retry?.baseDelayMs ?? 500;
  const maxDelay = options.retry?.maxDelayMs ?? 15_000;
  const idleTimeout = options.idleTimeoutMs ?? 45_000;

  const listeners = new Listeners();
  let stream = options.stream ?? new EventStream();
  let streamId: string | null = null;
  let lastSeq: string | null = null;
  const initial = options.lastEventId === undefined ? null : parseEventId(options.lastEventId);
  if (initial !== null) {
    streamId = initial.streamId;
    lastSeq = initial.seq;
  }
  let snapshot: LiveConnectionSnapshot = Object.freeze({
    status: 'connecting',
    error: null,
    stream,
    streamId,
    lastEventId: options.lastEventId ?? null,
    attempt: 0,
    resets: 0,
    duplicates: 0,
  });
  const update = (patch: Partial<LiveConnectionSnapshot>) => {
    snapshot = Object.freeze({ ...snapshot, ...patch });
    listeners.schedule();
  };

  let closed = false;
  let connection: { close(): void } | null = null;
  let token = 0;
  let served = false; // the current connection got a hello
  let retryTimer: unknown = null;
  let idleTimer: unknown = null;
  let duplicates = 0;
  let serverClose: LiveClose | null = null;

  const lastEventId = () =>
    lastSeq === null || streamId === null ? lastSeq : formatEventId(streamId, lastSeq);

  const armIdle = (mine: number) => {
    if (idleTimer !== null) clearTimer(idleTimer);
    idleTimer = setTimer(() => {
      if (mine !== token) return;
      drop(new LiveError('live_idle_timeout', idleTimeout));
    }, idleTimeout);
  };

  const connect = () => {
    retryTimer = null;
    if (closed) return;
    const mine = ++token;
    served = false;
    serverClose = null;
    armIdle(mine);
    connection = transport(
      { url, lastEventId: lastEventId() },
      {
        open: () => {
          if (mine === token) armIdle(mine);
        },
        activity: () => {
          if (mine === token) armIdle(mine);
        },
        message: (type, data, id) => {
          if (mine !== token) return;
          onMessage(type, data, id);
        },
        end: (error, fatal) => {
          if (mine !== token) return;
          connection = null;
          if (fatal === true) return finish(error);
          let reason = error;
          if (serverClose !== null)
            reason = new LiveError(
              'live_server_closed',
              serverClose.reason,
              serverClose.message ?? '',
            );
          scheduleRetry(reason);
        },
      },
    );
  };

  /** Ends the current connection and retries (a gap, an idle timeout). */
  const drop = (error: LiveError) => {
    token++;
    connection?.close();
    connection = null;
    scheduleRetry(error);
  };

  const scheduleRetry = (error: Error) => {
    if (closed) return;
    if (idleTimer !== null) clearTimer(idleTimer);
    idleTimer = null;
    // A connection that was serving resets the count: its drop is news, retry at once.
    const attempt = served ? 0 : snapshot.attempt + 1;
    served = false;
    const delay =
      attempt === 0
        ? random() * firstDelay
        : Math.min(maxDelay, baseDelay * 2 ** (attempt - 1)) * (0.5 + random() * 0.5);
    update({ status: 'reconnecting', error, attempt, lastEventId: lastEventId(), duplicates });
    retryTimer = setTimer(connect, delay);
  };

  const finish = (error: Error | null) => {
    closed = true;
    token++;
    connection?.close();
    connection = null;
    if (retryTimer !== null) clearTimer(retryTimer);
    if (idleTimer !== null) clearTimer(idleTimer);
    retryTimer = idleTimer = null;
    update({
      status: 'closed',
      error: error ?? snapshot.error,
      lastEventId: lastEventId(),
      duplicates,
    });
  };

  const onMessage = (type: string, data: unknown, id: string | null) => {
    switch (type) {
      case 'event':
        return onEntry(data, id);
      case 'hello':
        return onHello(data as LiveHello);
      case 'live':
        return update({ status: 'live', lastEventId: lastEventId(), duplicates });
      case 'close':
        serverClose = (data as LiveClose | null) ?? { reason: 'shutdown' };
        return;
      default:
        return; // ping, and kinds a newer server may add
    }
  };

  const onHello = (hello: LiveHello) => {
    if (typeof hello?.streamId !== 'string') {
      drop(new LiveError('live_protocol', 'hello without a stream id'));
      return;
    }
    served = true;
    const restarted = streamId !== null && hello.streamId !== streamId;
    const startsOver = hello.after === null && lastSeq !== null;
    if (restarted || startsOver || hello.reset === true) {
      if (stream.length > 0 || lastSeq !== null) {
        stream = new EventStream();
        lastSeq = null;
        update({ stream, resets: snapshot.resets + 1 });
      }
    }
    streamId = hello.streamId;
    update({ streamId, attempt: 0, error: null });
  };

  const onEntry = (data: unknown, id: string | null) => {
    const parsed = id === null ? null : parseEventId(id);
    if (parsed === null || (parsed.streamId !== null && parsed.streamId !== streamId)) {
      drop(new LiveError('live_protocol', `an entry with id ${String(id)}`));
      return;
    }
    const seq = parsed.seq;
    if (lastSeq !== null && compareSeq(seq, lastSeq) <= 0) {
      duplicates++;
      return;
    }
    // Densely numbered streams (EventStream) reveal a lost entry; resume before it.
    // (The first entry is not checked: a source may start anywhere.)
    if (lastSeq !== null && /^\d+$/.test(seq)) {
      const expected = nextDenseSeq(lastSeq);
      if (expected !== undefined && seq !== expected) {
        drop(new LiveError('live_gap', expected, seq));
        return;
      }
    }
    try {
      // Untyped wire data: append's runtime check rejects what is not an event.
      stream.append(data as Event);
    } catch (error) {
      // Not an event: record why, and move past it so the feed does not stall on it.
      update({ error: error instanceof Error ? error : new Error(String(error)) });
    }
    lastSeq = seq;
  };

  connect();

  return {
    get stream() {
      return stream;
    },
    status: {
      getSnapshot: () => snapshot,
      subscribe: (listener) => listeners.subscribe(listener),
    },
    close: () => {
      if (!closed) finish(null);
    },
  };
}
