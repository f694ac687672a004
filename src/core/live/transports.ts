/**
 * The transports of `connectEventStream`: `fetch` (streaming; the default, and
 * the only one in Node, which has no `EventSource`), `EventSource` and
 * `WebSocket`. The core has no DOM lib, so each takes its constructor from
 * the options or, at run time, from `globalThis`, typed by the minimal local
 * interfaces below.
 */
import { SkeinError, type SkeinErrorArgs } from '../errors.js';
import { createSseParser } from './sse-parser.js';

/**
 * An error of a live connection, with a stable `code` from the catalogue and,
 * for HTTP refusals, the `status`.
 *
 * @example
 * declare function login(): void;
 * const { status } = connectEventStream('/api/run');
 * const { error } = status.getSnapshot();
 * if (error instanceof LiveError && error.status === 401) login();
 */
export class LiveError extends SkeinError {
  override name = 'LiveError';
  /** The HTTP status, for `live_http_status`. */
  readonly status: number | undefined;
  constructor(...args: SkeinErrorArgs) {
    super(...args);
    this.status = args[0] === 'live_http_status' ? args[1] : undefined;
  }
}

/**
 * What a transport reports about one connection. `type` is the message kind
 * of the wire protocol (`hello`, `event`, `live`, `close`, `ping`), `data`
 * its parsed JSON, `id` the wire id of an `event`.
 *
 * @example
 * const handlers: LiveTransportHandlers = { open() {}, message(type, data, id) {}, activity() {}, end(error) {} };
 */
export interface LiveTransportHandlers {
  /** The server accepted the connection. */
  open(): void;
  message(type: string, data: unknown, id: string | null): void;
  /** Bytes arrived (a heartbeat counts): the connection is alive. */
  activity(): void;
  /** The connection ended; `fatal` errors stop reconnecting (HTTP 4xx). */
  end(error: LiveError, fatal?: boolean): void;
}

/**
 * A transport: opens one connection to `url`, resuming after `lastEventId`
 * (`null`: from the start), reports through `handlers`, and returns how to
 * close it. After `close()` it reports nothing more.
 *
 * @example
 * const custom: LiveTransport = ({ url, lastEventId }, handlers) => {
 *   const timer = setTimeout(() => handlers.open(), 0); // connect to `url` after `lastEventId`
 *   return { close: () => clearTimeout(timer) };
 * };
 */
export type LiveTransport = (
  request: { url: string; lastEventId: string | null },
  handlers: LiveTransportHandlers,
) => { close(): void };

// --- minimal platform types (the core compiles without the DOM lib) ---------

/**
 * A callback typed as a method (bivariantly), so the platform's own handler
 * types — `(this: WebSocket, ev: MessageEvent) => any`, the `ws` package's —
 * are assignable without casts.
 */
type Handler<E> = { bivarianceHack(event: E): void }['bivarianceHack'];

interface AbortControllerLike {
  /** `never`: an opaque AbortSignal handed to `fetch`, whose `init` types it as such. */
  readonly signal: never;
  abort(): void;
}
interface ReaderLike {
  read(): Promise<{ done: boolean; value?: Uint8Array }>;
  cancel(): Promise<void>;
}
interface ResponseLike {
  readonly ok: boolean;
  readonly status: number;
  readonly statusText: string;
  readonly body: { getReader(): ReaderLike } | null;
  text(): Promise<string>;
}

/**
 * The `fetch` the fetch transport needs.
 *
 * The platform's `fetch` (browser, Node 18+, Deno, Bun) fits as it is; so does a
 * wrapper that adds auth or logging.
 *
 * @example
 * declare const token: string;
 * const authed: FetchLike = (url, init) =>
 *   fetch(url, { ...init, headers: { ...init.headers, Authorization: `Bearer ${token}` } });
 * connectEventStream('/api/run', { fetch: authed });
 * connectEventStream('/api/run', { fetch }); // the platform's, as is
 */
export type FetchLike = (
  url: string,
  init: { headers: Record<string, string>; signal: never; cache?: 'no-store' },
) => Promise<ResponseLike>;

interface EventSourceLike {
  addEventListener(
    type: string,
    listener: (event: { data?: unknown; lastEventId?: string }) => void,
  ): void;
  onerror: Handler<unknown> | null;
  onopen: Handler<unknown> | null;
  close(): void;
}
/**
 * An `EventSource` constructor (the browser's, or a polyfill).
 *
 * @example
 * const EventSource: EventSourceConstructor = window.EventSource;
 * connectEventStream('/api/run', { transport: 'eventsource', EventSource });
 */
export type EventSourceConstructor = new (
  url: string,
  init?: { withCredentials?: boolean },
) => EventSourceLike;

interface WebSocketLike {
  onopen: Handler<unknown> | null;
  onmessage: Handler<{ data: unknown }> | null;
  onerror: Handler<unknown> | null;
  onclose: Handler<{ code?: number; reason?: string }> | null;
  close(code?: number): void;
}
/**
 * A `WebSocket` constructor (the browser's, Node 22's, or the `ws` package's).
 *
 * @example
 * import { WebSocket } from 'ws';
 * connectEventStream('ws://127.0.0.1:8080/', { transport: 'websocket', WebSocket });
 */
export type WebSocketConstructor = new (url: string) => WebSocketLike;

function fromGlobal<T>(name: string): T {
  const value = (globalThis as Record<string, unknown>)[name];
  if (typeof value !== 'function') throw new LiveError('live_no_transport', name);
  return value as T;
}

/** `url` with `from=<id>` set (replacing an earlier `from`). */
export function withFrom(url: string, lastEventId: string | null): string {
  const hash = url.indexOf('#');
  const base = hash < 0 ? url : url.slice(0, hash);
  const [path, query = ''] = base.split('?', 2) as [string, string?];
  const params = query === '' ? [] : query.split('&').filter((p) => !p.startsWith('from='));
  if (lastEventId !== null) params.push(`from=${encodeURIComponent(lastEventId)}`);
  return params.length === 0 ? path : `${path}?${params.join('&')}`;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The fetch transport: a streaming `GET` with `Accept: text/event-stream`
 * and `Last-Event-ID`, parsed as SSE. A 4xx answer (but 408/429) is fatal.
 *
 * @example
 * connectEventStream('/api/run', {
 *   transport: fetchTransport({ headers: { Authorization: 'Bearer t' } }),
 * });
 */
export function fetchTransport(
  options: { fetch?: FetchLike; headers?: Record<string, string> } = {},
): LiveTransport {
  return ({ url, lastEventId }, handlers) => {
    const fetchImpl = options.fetch ?? fromGlobal<FetchLike>('fetch');
    const Controller = fromGlobal<new () => AbortControllerLike>('AbortController');
    const controller = new Controller();
    let active = true;
    const end = (error: LiveError, fatal?: boolean) => {
      if (!active) return;
      active = false;
      controller.abort();
      handlers.end(error, fatal);
    };
    const headers: Record<string, string> = { Accept: 'text/event-stream', ...options.headers };
    if (lastEventId !== null) headers['Last-Event-ID'] = lastEventId;
    const parse = createSseParser(
      (m) => {
        if (!active) return;
        const type = m.event === 'message' ? 'event' : m.event;
        handlers.message(type, parseJson(m.data), m.id);
      },
      () => {
        if (active) handlers.message('ping', null, null);
      },
    );
    const run = async () => {
      const response = await fetchImpl(url, {
        headers,
        signal: controller.signal,
        cache: 'no-store',
      });
      if (!active) return;
      if (!response.ok || response.body === null) {
        const s = response.status;
        const detail = (await response.text().catch(() => '')).slice(0, 200);
        const fatal = s >= 400 && s < 500 && s !== 408 && s !== 429;
        end(new LiveError('live_http_status', s, detail), fatal);
        return;
      }
      handlers.open();
      const reader = response.body.getReader();
      const TextDecoderCtor = fromGlobal<typeof TextDecoder>('TextDecoder');
      const decoder = new TextDecoderCtor();
      for (;;) {
        const { done, value } = await reader.read();
        if (!active) {
          void reader.cancel().catch(() => {});
          return;
        }
        if (done) break;
        handlers.activity();
        parse(decoder.decode(value, { stream: true }));
      }
      end(new LiveError('live_connection_lost', 'the server ended the response'));
    };
    run().catch((error: unknown) => {
      end(
        new LiveError(
          'live_connection_lost',
          error instanceof Error ? error.message : String(error),
        ).causedBy(error),
      );
    });
    return { close: () => void ((active = false), controller.abort()) };
  };
}

/**
 * The `EventSource` transport. We close the `EventSource` on its first error
 * and reconnect ourselves (with `?from=`), so the retry policy is ours, not
 * the browser's. `EventSource` hides HTTP statuses: a refusal looks like a
 * network error and is retried with backoff.
 *
 * @example
 * connectEventStream('/events', { transport: eventSourceTransport({ withCredentials: true }) });
 */
export function eventSourceTransport(
  options: { EventSource?: EventSourceConstructor; withCredentials?: boolean } = {},
): LiveTransport {
  return ({ url, lastEventId }, handlers) => {
    const Ctor = options.EventSource ?? fromGlobal<EventSourceConstructor>('EventSource');
    const source = new Ctor(withFrom(url, lastEventId), {
      withCredentials: options.withCredentials === true,
    });
    let active = true;
    const listen = (sseType: string, type: string) =>
      source.addEventListener(sseType, (event) => {
        if (!active) return;
        handlers.activity();
        handlers.message(type, parseJson(String(event.data ?? '')), event.lastEventId ?? null);
      });
    listen('message', 'event');
    listen('hello', 'hello');
    listen('live', 'live');
    listen('close', 'close');
    source.onopen = () => {
      if (active) handlers.open();
    };
    source.onerror = () => {
      if (!active) return;
      active = false;
      source.close();
      handlers.end(new LiveError('live_connection_lost', 'EventSource error'));
    };
    return { close: () => void ((active = false), source.close()) };
  };
}

/**
 * The WebSocket transport: frames are JSON arrays of messages; resume with
 * `?from=`. An `http(s):` URL is turned into `ws(s):`.
 *
 * @example
 * connectEventStream('ws://127.0.0.1:8080/', {
 *   transport: webSocketTransport({ WebSocket }), // the browser's, Node 22's or `ws`'s
 * });
 */
export function webSocketTransport(
  options: { WebSocket?: WebSocketConstructor } = {},
): LiveTransport {
  return ({ url, lastEventId }, handlers) => {
    const Ctor = options.WebSocket ?? fromGlobal<WebSocketConstructor>('WebSocket');
    const socket = new Ctor(withFrom(url.replace(/^http(s?):/, 'ws$1:'), lastEventId));
    let active = true;
    const end = (error: LiveError) => {
      if (!active) return;
      active = false;
      socket.close();
      handlers.end(error);
    };
    socket.onopen = () => {
      if (active) handlers.open();
    };
    socket.onmessage = (event) => {
      if (!active) return;
      handlers.activity();
      const frame = typeof event.data === 'string' ? parseJson(event.data) : undefined;
      if (!Array.isArray(frame)) {
        end(new LiveError('live_protocol', 'a frame that is not a JSON array'));
        return;
      }
      for (const m of frame as { type?: unknown; id?: unknown; data?: unknown }[]) {
        if (!active) return;
        const type = typeof m?.type === 'string' ? m.type : '';
        if (type === 'event')
          handlers.message('event', m.data, typeof m.id === 'string' ? m.id : null);
        else handlers.message(type, m, null);
      }
    };
    socket.onerror = () => end(new LiveError('live_connection_lost', 'WebSocket error'));
    socket.onclose = (event) =>
      end(
        new LiveError(
          'live_connection_lost',
          `WebSocket closed (${event.code ?? '?'}${event.reason ? ` ${event.reason}` : ''})`,
        ),
      );
    return { close: () => void ((active = false), socket.close()) };
  };
}
