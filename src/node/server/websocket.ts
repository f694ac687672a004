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
  resolveOptions,
  type EventStreamHandlerOptions,
  type Refusal,
  type RequestView,
} from './options.js';
import { nodeRequestView } from './node-request.js';
import { toSource, type LiveSourceInput } from './resolve-source.js';
import type { SessionSink } from './session.js';
import { createSessions, type Admitted } from './sse-serve.js';

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
  204: 'No Content',
  401: 'Unauthorized',
  403: 'Forbidden',
  405: 'Method Not Allowed',
  421: 'Misdirected Request',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
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
 * bytes (`slow_client`); `authorize` and CORS checked before the upgrade, as
 * the SSE handlers check them (refusals are plain 401/403 responses, with the
 * CORS headers of an allowed origin). Attach it to a server's `upgrade`
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
  const sessions = createSessions(source, resolved, options);
  let wss: Promise<WebSocketServer> | null = null;
  const server = (): Promise<WebSocketServer> =>
    (wss ??= (async () => {
      const Server =
        options.WebSocketServer ??
        ((await import('ws')).WebSocketServer as unknown as WebSocketServerClass);
      return new Server({ noServer: true, perMessageDeflate: false });
    })());

  const upgrade = async (req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> => {
    const view = nodeRequestView(req);
    const admission = await sessions.admit(view, req);
    if ('refusal' in admission) return refuseUpgrade(socket, admission.refusal);
    const admitted = admission.admitted;
    try {
      const ws = await server();
      if (socket.destroyed) return admitted.release();
      ws.handleUpgrade(req, socket, head, (client) => serve(client, view, admitted));
    } catch (error) {
      admitted.release();
      throw error;
    }
  };

  const serve = (client: WebSocket, view: RequestView, admitted: Admitted): void => {
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
    void sessions.serve(view, admitted, sink, abort.signal, () => {
      if (!closed) client.close(1000);
    });
  };

  const handler = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    upgrade(req, socket, head).catch(() => socket.destroy());
  };
  return sessions.expose(handler);
}
