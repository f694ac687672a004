/**
 * The WebSocket variant of the live server, on the `ws` package (an optional
 * peer dependency, loaded on the first upgrade). Same protocol as SSE
 * (`core/live/wire.ts`): each text frame is a JSON array of messages
 * `{type: 'hello'|'event'|'live'|'ping'|'close', …}`; resume with `?from=`.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
// The parts of `ws` this handler uses, declared here so the published d.ts
// needs no `@types/ws` (an optional peer): a consumer type-checking with
// `skipLibCheck: false` and without `ws` must still compile.
/** A `ws` client socket, as far as the handler uses it. */
interface WebSocket {
  readonly readyState: number;
  readonly OPEN: number;
  readonly bufferedAmount: number;
  on(event: 'close' | 'error', listener: () => void): unknown;
  once(event: 'close', listener: () => void): unknown;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  terminate(): void;
}
/** A `ws` server in `noServer` mode, as far as the handler uses it. */
interface WebSocketServer {
  handleUpgrade(
    req: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    callback: (client: WebSocket) => void,
  ): void;
}
/** `ws`'s `WebSocketServer` class. */
type WebSocketServerClass = new (options: {
  noServer: true;
  perMessageDeflate: false;
}) => WebSocketServer;
import {
  checkAuth,
  corsHeaders,
  isRefusal,
  requestedResume,
  resolveOptions,
  type EventStreamHandlerOptions,
  type Refusal,
  type RequestView,
} from './options.js';
import { toSource, type LiveSourceInput } from './resolve-source.js';
import { startSession, type Session, type SessionSink } from './session.js';

/**
 * Options of {@link createEventStreamWebSocketHandler}: the handler options,
 * plus the `ws` server class to use (default: `import('ws')`).
 *
 * @example
 * import { WebSocketServer } from 'ws';
 * import { createEventStreamWebSocketHandler } from 'skein/server';
 * createEventStreamWebSocketHandler(stream, { WebSocketServer });
 */
export interface EventStreamWebSocketOptions extends EventStreamHandlerOptions<IncomingMessage> {
  WebSocketServer?: WebSocketServerClass;
}

/**
 * An `upgrade` listener serving a live stream over WebSockets.
 *
 * @example
 * import type { Server } from 'node:http';
 * import { createEventStreamWebSocketHandler } from 'skein/server';
 * declare const server: Server;
 * server.on('upgrade', createEventStreamWebSocketHandler(stream));
 */
export interface EventStreamWebSocketHandler {
  (req: IncomingMessage, socket: Duplex, head: Buffer): void;
  readonly streamId: string;
  readonly connections: number;
  close(): Promise<void>;
}

const STATUS_TEXT: Record<number, string> = {
  401: 'Unauthorized',
  403: 'Forbidden',
  500: 'Internal Server Error',
};

function refuseUpgrade(socket: Duplex, refusal: Refusal): void {
  const headers = { ...refusal.headers, 'Content-Length': String(Buffer.byteLength(refusal.body)) };
  const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}`);
  socket.end(
    `HTTP/1.1 ${refusal.status} ${STATUS_TEXT[refusal.status] ?? 'Error'}\r\nConnection: close\r\n${lines.join('\r\n')}\r\n\r\n${refusal.body}`,
  );
}

/**
 * Serves `source` over WebSockets with the semantics of
 * `createEventStreamHandler`: hello with the stream id, history after `?from=`,
 * `live`, the tail; heartbeats (`{type:'ping'}` frames); a bound on unsent
 * bytes (`slow_client`); `authorize` and CORS checked before the upgrade
 * (refusals are plain 401/403 responses). Attach it to a server's `upgrade`
 * event; `ws` must be installed (or passed as `WebSocketServer`).
 *
 * @example
 * import http from 'node:http';
 * import { createEventStreamHandler, createEventStreamWebSocketHandler } from 'skein/server';
 * const server = http.createServer(createEventStreamHandler(stream));
 * server.on('upgrade', createEventStreamWebSocketHandler(stream));
 * server.listen(8080, '127.0.0.1');
 */
export function createEventStreamWebSocketHandler(
  input: LiveSourceInput,
  options: EventStreamWebSocketOptions = {},
): EventStreamWebSocketHandler {
  const source = toSource(input);
  const resolved = resolveOptions(options);
  const sessions = new Set<Session>();
  let wss: Promise<WebSocketServer> | null = null;
  const server = (): Promise<WebSocketServer> =>
    (wss ??= (async () => {
      const Server =
        options.WebSocketServer ??
        ((await import('ws')).WebSocketServer as unknown as WebSocketServerClass);
      return new Server({ noServer: true, perMessageDeflate: false });
    })());

  const upgrade = async (req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> => {
    const view: RequestView = {
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      header: (name) => {
        const value = req.headers[name];
        return Array.isArray(value) ? value[0] : value;
      },
    };
    const cors = corsHeaders(view, options.cors);
    if (isRefusal(cors)) return refuseUpgrade(socket, cors);
    const denied = await checkAuth(req, options.authorize);
    if (denied !== null) return refuseUpgrade(socket, denied);
    const ws = await server();
    if (socket.destroyed) return;
    ws.handleUpgrade(req, socket, head, (client) => serve(client, requestedResume(view)));
  };

  const serve = (client: WebSocket, requested: string | null): void => {
    const abort = new AbortController();
    let closed = false;
    const onGone = () => {
      closed = true;
      abort.abort();
    };
    client.on('close', onGone);
    client.on('error', onGone);
    const send = (text: string) => {
      if (!closed && client.readyState === client.OPEN) client.send(text);
    };
    const sink: SessionSink = {
      hello: (h) => send(JSON.stringify([{ type: 'hello', ...h }])),
      entries: (batch) => {
        let text = '[';
        for (let i = 0; i < batch.length; i++) {
          const e = batch[i]!;
          text += `${i ? ',' : ''}{"type":"event","id":${JSON.stringify(e.id)},"data":${e.json}}`;
        }
        send(`${text}]`);
      },
      live: (seq) => send(JSON.stringify([{ type: 'live', seq }])),
      ping: () => send('[{"type":"ping"}]'),
      flush: () => {},
      buffered: () => (closed ? 0 : client.bufferedAmount),
      drained: () => new Promise<void>((resolve) => setTimeout(resolve, 20)),
      close: (c) => {
        if (closed) return;
        send(JSON.stringify([{ type: 'close', ...c }]));
        client.close(c.reason === 'shutdown' ? 1001 : 4000, c.reason);
        // A client that does not read never answers the closing handshake.
        const timer = setTimeout(() => client.terminate(), 1000);
        client.once('close', () => clearTimeout(timer));
      },
      closed: () => closed,
    };
    const session = startSession(source, requested, sink, resolved, abort.signal);
    sessions.add(session);
    void session.done.then((info) => {
      sessions.delete(session);
      if (!closed) client.close(1000);
      options.onConnectionClose?.(info);
    });
  };

  const handler = ((req: IncomingMessage, socket: Duplex, head: Buffer) => {
    upgrade(req, socket, head).catch(() => socket.destroy());
  }) as EventStreamWebSocketHandler;
  Object.defineProperties(handler, {
    streamId: { get: () => source.streamId, enumerable: true },
    connections: { get: () => sessions.size, enumerable: true },
  });
  handler.close = async () => {
    const running = [...sessions];
    for (const s of running) s.stop('shutdown');
    await Promise.all(running.map((s) => s.done));
  };
  return handler;
}
