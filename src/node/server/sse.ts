/**
 * Server-Sent Events for Node's `http` (and Express, Fastify's raw
 * request/response): `createEventStreamHandler`. See `session.ts` for the
 * connection loop and `core/live/wire.ts` for the messages.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { constants, createGzip, type Gzip } from 'node:zlib';
import {
  resolveOptions,
  type EventStreamHandlerOptions,
  type Refusal,
  type RequestView,
} from './options.js';
import { nodeRequestView } from './node-request.js';
import { SSE_HEADERS, sse } from './sse-text.js';
import { toSource, type LiveSourceInput } from './resolve-source.js';
import { createSessions, sseSink, type Admitted } from './sse-serve.js';

/**
 * A Node request listener serving a live stream, with a few controls.
 *
 * @example
 * import http from 'node:http';
 * import { createEventStreamHandler } from 'skein/server';
 * const handler = createEventStreamHandler(stream);
 * http.createServer(handler).listen(8080);
 * handler.connections; // open connections
 * await handler.close(); // ends every connection with reason `shutdown`
 */
export interface EventStreamHandler {
  (req: IncomingMessage, res: ServerResponse): void;
  /** The stream id clients see (changes only with the source). */
  readonly streamId: string;
  /** Connections being served now. */
  readonly connections: number;
  /** Ends every open connection with the close reason `shutdown`; resolves when they ended. */
  close(): Promise<void>;
}

function refuse(res: ServerResponse, refusal: Refusal): void {
  res.writeHead(refusal.status, refusal.headers);
  res.end(refusal.body);
}

function acceptsGzip(req: IncomingMessage): boolean {
  const accept = req.headers['accept-encoding'];
  if (typeof accept !== 'string') return false;
  return /(^|,)\s*gzip\s*(;\s*q=(?!0(\.0*)?\s*(,|$))[\d.]+)?\s*(,|$)/i.test(accept);
}

/**
 * Serves `source` (an `EventStream`, or any `SequencedSource` such as the
 * Redis adapter) as Server-Sent Events. Returns a `(req, res)` listener that
 * `http.createServer`, Express and Fastify (`reply.raw`) take as is.
 *
 * Each connection gets a `hello` (the stream id), the history after the
 * position it resumes from (`Last-Event-ID`, or `?from=` — the last id the
 * client has), a `live` marker, then the live tail. Every entry's SSE id is
 * `<streamId>:<seq>`, so a reconnecting `EventSource` resumes by itself, and
 * one that comes back to a restarted server (a new stream id) is started
 * over (`hello.reset`). Heartbeat comments keep proxies from timing out;
 * responses are gzipped (flushed after each batch) when the client accepts
 * it; each connection holds at most `maxBufferedBytes` unsent and a client
 * that does not read is closed with `event: close` `{"reason":"slow_client"}`.
 * Values that are not canonical events are sent as `display` events
 * (`mimeStream`'s portable form); each entry's text is made once and shared
 * by every connection. A `Host` that is not a loopback name, an IP address
 * or one of `allowedHosts` is refused with 421 (DNS rebinding); more than
 * `maxConnections` at once with 503; `authorize` refuses with 401/403; CORS
 * is closed unless `cors` is given.
 *
 * @example
 * import http from 'node:http';
 * import { EventStream } from 'skein';
 * import { createEventStreamHandler } from 'skein/server';
 *
 * const stream = new EventStream();
 * const handler = createEventStreamHandler(stream, {
 *   authorize: (req) => req.headers.authorization === `Bearer ${process.env.TOKEN}` || 401,
 * });
 * http.createServer(handler).listen(8080, '127.0.0.1');
 */
export function createEventStreamHandler(
  input: LiveSourceInput,
  options: EventStreamHandlerOptions<IncomingMessage> = {},
): EventStreamHandler {
  const source = toSource(input);
  const resolved = resolveOptions(options);
  const sessions = createSessions(source, resolved, options);

  const serve = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const view = nodeRequestView(req);
    const admission = await sessions.admit(view, req);
    if ('refusal' in admission) return refuse(res, admission.refusal);
    const admitted = admission.admitted;
    try {
      await stream(req, res, view, admitted);
    } finally {
      admitted.release();
    }
  };

  const stream = async (
    req: IncomingMessage,
    res: ServerResponse,
    view: RequestView,
    admitted: Admitted,
  ): Promise<void> => {
    const { cors, head } = admitted;
    if (res.destroyed) return;

    const gzip = resolved.compression && acceptsGzip(req);
    res.writeHead(200, {
      ...SSE_HEADERS,
      ...cors,
      ...(gzip ? { 'Content-Encoding': 'gzip', Vary: varyWith(cors, 'Accept-Encoding') } : {}),
    });
    if (head) return void res.end();
    // No Nagle delay: SSE batches are already as large as they should be.
    req.socket.setNoDelay(true);

    const abort = new AbortController();
    let gz: Gzip | null = null;
    if (gzip) {
      // SYNC_FLUSH after each batch pushes it through zlib at once (flush()).
      gz = createGzip({ level: 6, flush: constants.Z_NO_FLUSH });
      gz.pipe(res);
      gz.on('error', () => res.destroy());
    }
    const out: NodeJS.WritableStream & { writableLength: number } = gz ?? res;
    let closed = false;
    const onClose = () => {
      closed = true;
      abort.abort();
    };
    res.on('close', onClose);
    res.on('error', onClose);

    const write = (text: string) => void out.write(text);
    const sink = sseSink(write, resolved.retryMs, {
      flush: () => {
        if (gz !== null && !closed) gz.flush(constants.Z_SYNC_FLUSH);
      },
      buffered: () =>
        gz === null
          ? res.writableLength
          : gz.writableLength + gz.readableLength + res.writableLength,
      drained: () =>
        new Promise<void>((resolve) => {
          const done = () => {
            res.off('drain', done);
            gz?.off('drain', done);
            res.off('close', done);
            resolve();
          };
          res.once('drain', done);
          gz?.once('drain', done);
          res.once('close', done);
        }),
      close: (c) => {
        if (closed) return;
        out.write(sse.close(c));
        out.end();
        // A client that does not read never lets the end through: cut it.
        const timer = setTimeout(() => res.destroy(), 1000);
        res.once('close', () => clearTimeout(timer));
      },
      closed: () => closed || res.destroyed,
    });
    await sessions.serve(view, admitted, sink, abort.signal);
  };

  const handler = (req: IncomingMessage, res: ServerResponse) => {
    serve(req, res).catch(() => {
      if (!res.headersSent) refuse(res, { status: 500, headers: {}, body: 'Internal error' });
      else res.destroy();
    });
  };
  return sessions.expose(handler);
}

function varyWith(cors: Record<string, string>, header: string): string {
  return cors['Vary'] === undefined ? header : `${cors['Vary']}, ${header}`;
}
