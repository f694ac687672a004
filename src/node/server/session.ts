/**
 * One client connection's loop, shared by the SSE (Node and Fetch) and
 * WebSocket transports: replay the history the client lacks, announce `live`,
 * follow the tail; heartbeats; stop reading for a client whose buffer is full
 * and close it with `slow_client` if it does not drain in time. Memory per
 * connection is bounded by `maxBufferedBytes` plus one batch: entries are
 * pulled from the source only when the client has room. The entries' text is
 * made once per source and shared by every connection (`entry-text.ts`).
 */
import { SkeinError } from '../../core/errors.js';
import type { SequencedEntry, SequencedSource } from '../../core/live/source.js';
import {
  LIVE_PROTOCOL,
  type LiveClose,
  type LiveCloseReason,
  type LiveHello,
} from '../../core/live/wire.js';
import type { ConnectionCloseInfo, ResolvedOptions } from './options.js';
import { resumePoint } from './options.js';
import { entryTexts } from './entry-text.js';

/** How a transport writes messages. Every method but `drained` is synchronous. */
export interface SessionSink {
  hello(hello: LiveHello): void;
  /** Writes a batch of entries: `id` is the wire id, `json` the record's JSON text. */
  entries(batch: readonly { id: string; json: string }[]): void;
  live(seq: string | null): void;
  ping(): void;
  /** Pushes what was written so far to the client (a gzip flush). */
  flush(): void;
  /** Bytes written but not yet taken by the client. */
  buffered(): number;
  /** Resolves when some buffered bytes were taken, or the connection closed. */
  drained(): Promise<void>;
  /** Writes the close message and ends the connection. */
  close(close: LiveClose): void;
  /** Whether the connection is gone. */
  closed(): boolean;
}

/** A running session: `done` resolves with how it ended. */
export interface Session {
  done: Promise<ConnectionCloseInfo>;
  /** Ends the session on the server's side, with `reason`. */
  stop(reason: LiveCloseReason, message?: string): void;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const setImmediateLike = (globalThis as { setImmediate?: (callback: () => void) => unknown })
  .setImmediate;
/**
 * Lets the event loop turn between batches. Reads that can be answered at
 * once resolve as microtasks, so without this a connection replaying a long
 * history would serialize all of it (up to the buffer bound) in one turn:
 * Node corks a response's socket until the turn ends, so nothing would be
 * sent meanwhile, and other connections would wait.
 */
const yieldToLoop = (): Promise<void> =>
  new Promise<void>((resolve) =>
    setImmediateLike !== undefined ? setImmediateLike(resolve) : setTimeout(resolve, 0),
  );

/**
 * Starts serving `source` to one client over `sink`, continuing after
 * `requested` (a wire id or bare sequence; `null`: from the start). `signal`
 * aborts when the client goes away.
 */
export function startSession(
  source: SequencedSource,
  requested: string | null,
  sink: SessionSink,
  options: ResolvedOptions,
  signal: AbortSignal,
): Session {
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  signal.addEventListener('abort', onAbort, { once: true });
  let stopReason: { reason: LiveCloseReason; message?: string } | null = null;
  let sent = 0;
  let lastSeq: string | null = null;
  let peak = 0;
  let lastWrite = Date.now();
  const streamId = source.streamId;

  const heartbeat = setInterval(
    () => {
      if (sink.closed() || Date.now() - lastWrite < options.heartbeatMs) return;
      // A full buffer already tells the client nothing is wrong… except that
      // it is slow; a ping would only add to it.
      if (sink.buffered() > 0) return;
      sink.ping();
      sink.flush();
      lastWrite = Date.now();
    },
    Math.max(10, Math.floor(options.heartbeatMs / 2)),
  );

  const write = (entries: readonly SequencedEntry[]): void => {
    sink.entries(entryTexts(source, entries));
    sink.flush();
    sent += entries.length;
    lastSeq = entries[entries.length - 1]!.seq;
    lastWrite = Date.now();
  };

  /** `false` when the client did not drain in time (the session is over). */
  const roomForMore = async (): Promise<boolean> => {
    let buffered = sink.buffered();
    if (buffered > peak) peak = buffered;
    if (buffered <= options.maxBufferedBytes) {
      await yieldToLoop();
      return !sink.closed() && !controller.signal.aborted;
    }
    const deadline = Date.now() + options.slowClientTimeoutMs;
    while (buffered > options.maxBufferedBytes) {
      if (sink.closed() || controller.signal.aborted) return false;
      const left = deadline - Date.now();
      if (left <= 0) {
        stopReason ??= {
          reason: 'slow_client',
          message: `${buffered} bytes unread for ${options.slowClientTimeoutMs} ms (bound ${options.maxBufferedBytes})`,
        };
        return false;
      }
      // A poll bounds the wait even if a 'drain' is missed between checks.
      await Promise.race([sink.drained(), sleep(Math.min(left, 50))]);
      buffered = sink.buffered();
    }
    return true;
  };

  const run = async (): Promise<void> => {
    let { after, reset } = resumePoint(requested, streamId);
    const read = (wait: boolean) =>
      source.read(after, { limit: options.batchSize, wait, signal: controller.signal });
    let first: readonly SequencedEntry[];
    try {
      first = await read(false);
    } catch (error) {
      if (!isBadPosition(error)) throw error;
      // A position this stream never had (another run's, or past the head).
      after = null;
      reset = true;
      first = await read(false);
    }
    if (controller.signal.aborted) return;
    sink.hello({ protocol: LIVE_PROTOCOL, streamId, after, reset });
    let batch = first;
    while (batch.length > 0) {
      write(batch);
      after = lastSeq;
      if (!(await roomForMore())) return;
      batch = await read(false);
      if (controller.signal.aborted) return;
    }
    sink.live(after);
    sink.flush();
    for (;;) {
      batch = await read(true);
      if (controller.signal.aborted || sink.closed()) return;
      // A waiting read should not come back empty unless aborted; a source
      // that does must not turn this loop into a busy spin.
      if (batch.length === 0) {
        await sleep(50);
        continue;
      }
      write(batch);
      after = lastSeq;
      if (!(await roomForMore())) return;
    }
  };

  const done = run().then(
    () => finish(),
    (error: unknown) => {
      stopReason ??= {
        reason: 'source_error',
        message: error instanceof Error ? error.message : String(error),
      };
      return finish();
    },
  );

  function finish(): ConnectionCloseInfo {
    clearInterval(heartbeat);
    signal.removeEventListener('abort', onAbort);
    controller.abort();
    const reason = stopReason?.reason ?? 'client_closed';
    if (stopReason !== null && !sink.closed()) {
      sink.close(
        stopReason.message === undefined
          ? { reason: stopReason.reason }
          : { reason: stopReason.reason, message: stopReason.message },
      );
    }
    return { reason, sent, lastSeq, peakBufferedBytes: peak };
  }

  return {
    done,
    stop(reason, message) {
      stopReason ??= message === undefined ? { reason } : { reason, message };
      controller.abort();
    },
  };
}

/** A source's "this position was never in the log" (a custom source may still throw a RangeError). */
function isBadPosition(error: unknown): boolean {
  return (
    (error instanceof SkeinError && error.code === 'live_bad_position') ||
    error instanceof RangeError
  );
}
