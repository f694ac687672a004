/**
 * What the live handlers share — the Node SSE one (`sse.ts`), the Fetch one
 * (`fetch.ts`) and the WebSocket one (`websocket.ts`) — so each keeps only its
 * transport: the admission of a request (preflight, method, CORS, auth), the
 * SSE writer of a session's messages (not for WebSockets), and the running
 * sessions behind a handler's `streamId`, `connections` and `close()`. No
 * Node built-ins: the Fetch handler runs on edge runtimes. Internal.
 */
import { createConnectionCap } from './connection-cap.js';
import { createHostCheck, HOST_REFUSED } from './host-check.js';
import {
  checkAuth,
  corsHeaders,
  isRefusal,
  preflight,
  requestedResume,
  type EventStreamHandlerOptions,
  type Refusal,
  type RequestView,
  type ResolvedOptions,
} from './options.js';
import type { SequencedSource } from '../../core/live/source.js';
import { sse } from './sse-text.js';
import { startSession, type Session, type SessionSink } from './session.js';

/**
 * A request let in: its CORS headers, whether it is a `HEAD`, and the
 * connection slot it holds (a `GET`): `serve` gives it back when the session
 * ends; a handler that does not serve must `release()` it.
 */
export interface Admitted {
  readonly cors: Record<string, string>;
  readonly head: boolean;
  release(): void;
}

const METHOD_NOT_ALLOWED: Refusal = {
  status: 405,
  headers: { Allow: 'GET, HEAD, OPTIONS', 'Content-Type': 'text/plain' },
  body: 'Method not allowed',
};

/**
 * A session sink that writes each message as SSE text through `write`; the
 * transport gives the rest (flushing, back-pressure, closing).
 */
export function sseSink(
  write: (text: string) => void,
  retryMs: number,
  transport: Omit<SessionSink, 'hello' | 'entries' | 'live' | 'ping'>,
): SessionSink {
  return {
    hello: (h) => write(sse.hello(h, retryMs)),
    entries: (batch) => write(sse.entries(batch)),
    live: (seq) => write(sse.live(seq)),
    ping: () => write(sse.ping()),
    ...transport,
  };
}

/** The sessions one handler runs. */
export interface Sessions<Req> {
  /**
   * Checks a request in this order: its `Host` (421), a preflight (answered),
   * the method (405), CORS (403), `authorize` (401/403, with the CORS
   * headers, so the browser lets the page read the status), and for a `GET`
   * a free connection slot (503 with `Retry-After`). A `Refusal` is the whole
   * response; otherwise the request is served.
   */
  admit(view: RequestView, request: Req): Promise<{ refusal: Refusal } | { admitted: Admitted }>;
  /**
   * Serves one admitted request over `sink` until `signal` aborts or the
   * session ends; `ended` runs first when it does, then
   * `onConnectionClose`. Resolves after both.
   */
  serve(
    view: RequestView,
    admitted: Admitted,
    sink: SessionSink,
    signal: AbortSignal,
    ended?: () => void,
  ): Promise<void>;
  /** Gives `handler` its `streamId`, `connections` and `close()`. */
  expose<H extends object>(
    handler: H,
  ): H & { readonly streamId: string; readonly connections: number; close(): Promise<void> };
}

/** The running sessions of a handler serving `source`. */
export function createSessions<Req>(
  source: SequencedSource,
  resolved: ResolvedOptions,
  options: EventStreamHandlerOptions<Req>,
): Sessions<Req> {
  const sessions = new Set<Session>();
  const hostAllowed = createHostCheck(options.allowedHosts);
  // Slots held: sessions running plus requests admitted and not yet serving
  // (an upgrade in progress), so an `authorize` that awaits cannot let more
  // than `maxConnections` through at once.
  const cap = createConnectionCap(resolved.maxConnections);
  return {
    async admit(view, request) {
      if (!hostAllowed(view.header('host')))
        return { refusal: { ...HOST_REFUSED, headers: { ...HOST_REFUSED.headers } } };
      if (view.method === 'OPTIONS') return { refusal: preflight(view, options.cors) };
      if (view.method !== 'GET' && view.method !== 'HEAD') return { refusal: METHOD_NOT_ALLOWED };
      const cors = corsHeaders(view, options.cors);
      if (isRefusal(cors)) return { refusal: cors };
      const denied = await checkAuth(request, options.authorize);
      if (denied !== null)
        return { refusal: { ...denied, headers: { ...cors, ...denied.headers } } };
      const head = view.method === 'HEAD';
      if (head) return { admitted: { cors, head, release: () => {} } };
      const release = cap.take();
      if (release === null) {
        const busy = cap.busy();
        return { refusal: { ...busy, headers: { ...cors, ...busy.headers } } };
      }
      return { admitted: { cors, head, release } };
    },
    async serve(view, admitted, sink, signal, ended) {
      const session = startSession(source, requestedResume(view), sink, resolved, signal);
      sessions.add(session);
      try {
        const info = await session.done;
        ended?.();
        options.onConnectionClose?.(info);
      } finally {
        sessions.delete(session);
        admitted.release();
      }
    },
    expose(handler) {
      Object.defineProperties(handler, {
        streamId: { get: () => source.streamId, enumerable: true },
        connections: { get: () => sessions.size, enumerable: true },
        close: {
          value: async () => {
            const running = [...sessions];
            for (const s of running) s.stop('shutdown');
            await Promise.all(running.map((s) => s.done));
          },
          enumerable: true,
          writable: true,
        },
      });
      return handler as ReturnType<Sessions<Req>['expose']> & typeof handler;
    },
  };
}
