/**
 * Options and the request checks shared by every transport of `skein/server`
 *: auth, CORS (closed by default), where a client resumes from.
 * Pure: no Node built-ins, so the Fetch handler runs wherever `Response` does.
 */
import { SkeinError } from '../../core/errors.js';
import { parseEventId } from '../../core/live/sequence.js';
import type { LiveCloseReason } from '../../core/live/wire.js';
import type { AllowedHosts } from './host-check.js';

/**
 * What an `authorize` hook returns: `true` lets the request through; `false`
 * or `403` refuses it (Forbidden); `401` asks for credentials
 * (Unauthorized); an object picks the status and adds a message (sent as the
 * plain-text body) and headers (e.g. `WWW-Authenticate`).
 *
 * @example
 * import type { AuthDecision } from 'skein/server';
 * const decision: AuthDecision = { status: 401, headers: { 'WWW-Authenticate': 'Bearer' } };
 */
export type AuthDecision =
  boolean | 401 | 403 | { status: 401 | 403; message?: string; headers?: Record<string, string> };

/**
 * Cross-origin access. Without it the handler is closed: a browser request
 * from another origin gets 403, and no `Access-Control-*` header is sent.
 *
 * @example
 * import type { CorsOptions } from 'skein/server';
 * const cors: CorsOptions = { origin: ['https://app.example.com'], credentials: true };
 */
export interface CorsOptions {
  /** Allowed origins: one, a list, or a predicate (`'*'` allows any, without credentials). */
  origin: string | readonly string[] | ((origin: string) => boolean);
  /** Send `Access-Control-Allow-Credentials: true` (cookies, HTTP auth). */
  credentials?: boolean;
  /** How long a preflight may be cached, in seconds. Default 600. */
  maxAgeSeconds?: number;
}

/**
 * Why a connection ended, as `onConnectionClose` reports it: one of the
 * server's close reasons, or `client_closed` when the client went away.
 *
 * @example
 * import type { ConnectionCloseReason } from 'skein/server';
 * const why: ConnectionCloseReason = 'client_closed';
 */
export type ConnectionCloseReason = LiveCloseReason | 'client_closed';

/**
 * What `onConnectionClose` receives when a connection ends.
 *
 * @example
 * import { createEventStreamHandler } from 'skein/server';
 * declare const metrics: { count(name: string): void };
 * createEventStreamHandler(stream, {
 *   onConnectionClose: (info) => metrics.count(`live.close.${info.reason}`),
 * });
 */
export interface ConnectionCloseInfo {
  reason: ConnectionCloseReason;
  /** Entries sent on this connection. */
  sent: number;
  /** The last sequence sent (`null`: none). */
  lastSeq: string | null;
  /** The most bytes this connection held unsent at once (the bound is `maxBufferedBytes`). */
  peakBufferedBytes: number;
}

/**
 * Options of `createEventStreamHandler`, `createEventStreamFetchHandler` and
 * `createEventStreamWebSocketHandler`. `Req` is the request type of the
 * transport (`IncomingMessage` in Node, `Request` for Fetch).
 *
 * @example
 * import { createEventStreamHandler } from 'skein/server';
 * declare const token: string;
 * createEventStreamHandler(stream, {
 *   authorize: (req) => req.headers.authorization === `Bearer ${token}` || 401,
 *   cors: { origin: 'https://app.example.com' },
 * });
 */
export interface EventStreamHandlerOptions<Req> {
  /**
   * `Host` names answered besides the loopback names and IP addresses
   * (`createHostCheck`): a request for any other name is refused with 421,
   * so a DNS-rebinding page cannot read the stream. A deployment behind a
   * real name lists it here (`['runs.example.com']`); `true` answers any.
   */
  allowedHosts?: AllowedHosts;
  /**
   * Connections served at once; one more is refused with 503 and
   * `Retry-After` before anything is read. Default 1000.
   */
  maxConnections?: number;
  /** Decides whether a request may read the stream. Default: everyone may. */
  authorize?: (request: Req) => AuthDecision | Promise<AuthDecision>;
  /** Cross-origin access; closed when absent. */
  cors?: CorsOptions;
  /** A comment line (SSE) or `ping` (WebSocket) after this long without output. Default 15000 ms. */
  heartbeatMs?: number;
  /** Entries read from the source and written per batch. Default 512. */
  batchSize?: number;
  /**
   * Bytes a connection may hold unsent before the server stops reading for
   * it; if the client does not drain below this within `slowClientTimeoutMs`,
   * the connection closes with reason `slow_client`. Default 1 MiB.
   */
  maxBufferedBytes?: number;
  /** See `maxBufferedBytes`. Default 10000 ms. */
  slowClientTimeoutMs?: number;
  /** Gzip the SSE stream when the client accepts it (Node handler only). Default true. */
  compression?: boolean;
  /** The SSE `retry:` hint for native `EventSource` clients, ms. Default 1000. */
  retryMs?: number;
  /** Called once per connection when it ends. */
  onConnectionClose?: (info: ConnectionCloseInfo) => void;
}

/** The options with defaults filled in. */
export interface ResolvedOptions {
  heartbeatMs: number;
  batchSize: number;
  maxBufferedBytes: number;
  slowClientTimeoutMs: number;
  compression: boolean;
  retryMs: number;
  maxConnections: number;
}

export function resolveOptions<Req>(options: EventStreamHandlerOptions<Req>): ResolvedOptions {
  return {
    heartbeatMs: positive(options.heartbeatMs, 15_000, 'heartbeatMs'),
    batchSize: positive(options.batchSize, 512, 'batchSize'),
    maxBufferedBytes: positive(options.maxBufferedBytes, 1 << 20, 'maxBufferedBytes'),
    slowClientTimeoutMs: positive(options.slowClientTimeoutMs, 10_000, 'slowClientTimeoutMs'),
    compression: options.compression ?? true,
    retryMs: positive(options.retryMs, 1000, 'retryMs'),
    maxConnections: positive(options.maxConnections, 1000, 'maxConnections'),
  };
}

/**
 * An option that must be a positive finite number: `fallback` when absent,
 * a `SkeinError` (`invalid_argument`, naming `where` and the option) when not.
 *
 * @example
 * import { positive } from './options.js';
 * const batch = positive(undefined, 512, 'batchSize'); // 512
 */
export function positive(
  value: number | undefined,
  fallback: number,
  name: string,
  where = 'live handler options',
): number {
  if (value === undefined) return fallback;
  if (!(value > 0) || !Number.isFinite(value))
    throw new SkeinError('invalid_argument', where, name, 'a positive number', String(value));
  return value;
}

/** A request reduced to what the checks read, so Node and Fetch share them. */
export interface RequestView {
  method: string;
  /** Path and query, e.g. `/events?from=abc:12`. */
  url: string;
  header(name: string): string | undefined;
}

/** The answer when a request is refused before streaming. */
export interface Refusal {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * CORS headers for a request, or a refusal when its origin is not allowed.
 * Same-origin requests (no `Origin`, or one matching `Host`) pass without
 * headers.
 */
export function corsHeaders(
  request: RequestView,
  cors: CorsOptions | undefined,
): Record<string, string> | Refusal {
  const origin = request.header('origin');
  if (origin === undefined || origin === '' || isSameOrigin(origin, request.header('host')))
    return {};
  if (cors === undefined || !originAllowed(origin, cors.origin))
    return { status: 403, headers: { 'Content-Type': 'text/plain' }, body: 'Origin not allowed' };
  const headers: Record<string, string> = {
    'Access-Control-Allow-Origin': cors.origin === '*' && !cors.credentials ? '*' : origin,
    Vary: 'Origin',
  };
  if (cors.credentials) headers['Access-Control-Allow-Credentials'] = 'true';
  return headers;
}

/** The answer to a CORS preflight (`OPTIONS`). */
export function preflight(request: RequestView, cors: CorsOptions | undefined): Refusal {
  const headers = corsHeaders(request, cors);
  if ('status' in headers && typeof headers.status === 'number') return headers as Refusal;
  return {
    status: 204,
    headers: {
      ...(headers as Record<string, string>),
      'Access-Control-Allow-Methods': 'GET, OPTIONS',
      'Access-Control-Allow-Headers': 'Last-Event-ID, Authorization, Content-Type',
      'Access-Control-Max-Age': String(cors?.maxAgeSeconds ?? 600),
    },
    body: '',
  };
}

export function isRefusal(value: Record<string, string> | Refusal): value is Refusal {
  return typeof (value as Refusal).status === 'number' && 'body' in value;
}

function isSameOrigin(origin: string, host: string | undefined): boolean {
  if (host === undefined) return false;
  return origin === `http://${host}` || origin === `https://${host}`;
}

function originAllowed(origin: string, allowed: CorsOptions['origin']): boolean {
  if (typeof allowed === 'function') return allowed(origin);
  if (typeof allowed === 'string') return allowed === '*' || allowed === origin;
  return allowed.includes(origin);
}

/** Runs the `authorize` hook; a refusal, or `null` to go on. A throwing hook refuses (500). */
export async function checkAuth<Req>(
  request: Req,
  authorize: EventStreamHandlerOptions<Req>['authorize'],
): Promise<Refusal | null> {
  if (authorize === undefined) return null;
  let decision: AuthDecision;
  try {
    decision = await authorize(request);
  } catch {
    return { status: 500, headers: { 'Content-Type': 'text/plain' }, body: 'Authorization failed' };
  }
  if (decision === true) return null;
  const text = { 'Content-Type': 'text/plain' };
  if (decision === 401) return { status: 401, headers: text, body: 'Unauthorized' };
  if (decision === false || decision === 403)
    return { status: 403, headers: text, body: 'Forbidden' };
  return {
    status: decision.status,
    headers: { ...text, ...decision.headers },
    body: decision.message ?? (decision.status === 401 ? 'Unauthorized' : 'Forbidden'),
  };
}

/**
 * Where the client asks to resume: `Last-Event-ID` (what `EventSource` sends
 * on its own), else the `from` query parameter (the last id the client has,
 * for transports that cannot set headers). `null`: from the start.
 */
export function requestedResume(request: RequestView): string | null {
  const header = request.header('last-event-id');
  if (header !== undefined && header !== '') return header;
  const q = request.url.indexOf('?');
  if (q < 0) return null;
  const from = new URLSearchParams(request.url.slice(q + 1)).get('from');
  return from === null || from === '' ? null : from;
}

/**
 * Turns a requested id into the sequence to continue after, given the
 * server's stream id: another stream's id (a restart) or a malformed one
 * starts over (`reset`).
 */
export function resumePoint(
  requested: string | null,
  streamId: string,
): { after: string | null; reset: boolean } {
  if (requested === null) return { after: null, reset: false };
  const id = parseEventId(requested);
  if (id === null) return { after: null, reset: true };
  if (id.streamId !== null && id.streamId !== streamId) return { after: null, reset: true };
  return { after: id.seq, reset: false };
}
