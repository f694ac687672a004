// The OTLP/HTTP receiver's decisions, shared by the Node handler
// (node-handler.ts) and the Fetch one (fetch-handler.ts): which request is
// taken, and what each answer is, as the OTLP/HTTP spec says
// (https://opentelemetry.io/docs/specs/otlp/#otlphttp-response):
// - 200 with an `Export…ServiceResponse` in the request's encoding, its
//   `partial_success` counting what was rejected and why;
// - 400 with a `google.rpc.Status` for a body that cannot be decoded;
// - 413 past the body cap or the decompressed-size cap, 415 for another
//   content type or encoding, 404 for another path, 405 for another method;
// - 429 (the registry cannot keep up) and 503 (shutting down), both with
//   `Retry-After`: the exporters retry those.
// No Node built-ins here: the Fetch handler runs on edge runtimes.
import { quoteBigInts } from '../../core/import/otlp/otlp.js';
import { createOtlpRunRegistry } from '../../core/otlp-runs/registry.js';
import type { OtlpIngestResult, OtlpRunRegistry } from '../../core/otlp-runs/types.js';
import { EventStream } from '../../core/stream/event-stream.js';
import { createConnectionCap, type ConnectionCap } from '../server/connection-cap.js';
import { createHostCheck, HOST_REFUSED, type AllowedHosts } from '../server/host-check.js';
import {
  corsHeaders,
  isRefusal,
  positive,
  type AuthDecision,
  type CorsOptions,
  type RequestView,
} from '../server/options.js';
import type * as Codec from './decode.js';
import type { OtlpEncoding, OtlpSignal } from './decode.js';

// The protobuf code (protobufjs and the generated decoders) is loaded on a
// handler's first request, in a chunk of its own: a server that mounts only
// the live stream handlers of `skein/server` never loads it.
let codec: typeof Codec | null = null;
let loading: Promise<void> | null = null;

/** Loads the protobuf codec; every handler awaits it before it answers. */
export function loadCodec(): Promise<void> {
  return (loading ??= import('./decode.js').then((m) => {
    codec = m;
  }));
}

function pb(): typeof Codec {
  if (codec === null) throw new Error('the OTLP codec is not loaded (await loadCodec())');
  return codec;
}

/** gRPC status codes of the `google.rpc.Status` bodies. */
export const RPC_CODE = {
  INVALID_ARGUMENT: 3,
  RESOURCE_EXHAUSTED: 8,
  UNAVAILABLE: 14,
} as const;

/**
 * What an OTLP handler feeds: a run registry (a run per trace or
 * conversation), or one `EventStream` that takes everything.
 *
 * @example
 * import { createOtlpRunRegistry } from 'skein';
 * import type { OtlpTarget } from 'skein/server';
 * const target: OtlpTarget = createOtlpRunRegistry();
 */
export type OtlpTarget = OtlpRunRegistry | EventStream;

/**
 * What one accepted export did, for `onExport`.
 *
 * @example
 * import type { OtlpExportInfo } from 'skein/server';
 * const log = (info: OtlpExportInfo) => `${info.signal}: ${info.accepted} accepted`;
 */
export interface OtlpExportInfo {
  signal: OtlpSignal;
  encoding: OtlpEncoding;
  /** Body bytes as received (compressed, if it was). */
  bytes: number;
  accepted: number;
  rejected: number;
  duplicates: number;
}

/**
 * Options of `createOtlpHandler` and `createOtlpFetchHandler`. `Req` is the
 * request type of the transport (`IncomingMessage` in Node, `Request` for
 * Fetch).
 *
 * @example
 * import { createOtlpHandler } from 'skein/server';
 * import { createOtlpRunRegistry } from 'skein';
 * declare const token: string;
 * createOtlpHandler(createOtlpRunRegistry(), {
 *   authorize: (req) => req.headers.authorization === `Bearer ${token}` || 401,
 *   allowedHosts: ['otel.internal:4318'],
 * });
 */
export interface OtlpHandlerOptions<Req> {
  /** Decides whether a request may export. Default: everyone may. */
  authorize?: (request: Req) => AuthDecision | Promise<AuthDecision>;
  /** Cross-origin access (browser exporters); closed when absent. */
  cors?: CorsOptions;
  /**
   * `Host` names answered besides the loopback names and IP addresses
   * (`createHostCheck`, as every skein server): a request for any other name
   * is refused with 421 before its body is read, so a page of another site
   * cannot send spans through a DNS-rebound name. A receiver reached by a
   * real name lists it here (`['otel.internal']`); `true` answers any.
   */
  allowedHosts?: AllowedHosts;
  /**
   * Requests read or answered at once; one more is refused with 503 and
   * `Retry-After` (which the exporters retry) before its body is read.
   * Default 1000.
   */
  maxConnections?: number;
  /** Largest body taken as sent (compressed or not), bytes. Default 16 MiB. */
  maxBodyBytes?: number;
  /** Largest body once inflated; a gzip body is refused as soon as it passes it. Default 64 MiB. */
  maxDecompressedBytes?: number;
  /** `Retry-After` of a 429 (the target is behind) and a 503 (shutting down), seconds. Default 1 and 5. */
  retryAfterSeconds?: { busy?: number; closed?: number };
  /** Called after each accepted export. */
  onExport?: (info: OtlpExportInfo) => void;
}

/** An answer, before the transport writes it. */
export interface OtlpAnswer {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array | string;
}

/** What a request asks, once it passed the checks that need no body. */
export interface OtlpAccepted {
  signal: OtlpSignal;
  encoding: OtlpEncoding;
  gzip: boolean;
  cors: Record<string, string>;
}

const MiB = 1024 * 1024;

/** A handler's options with defaults filled in, its host check and its connection cap. */
export interface ResolvedOtlpOptions {
  maxBodyBytes: number;
  maxDecompressedBytes: number;
  retryBusy: number;
  retryClosed: number;
  hostAllowed: (host: string | null | undefined) => boolean;
  connections: ConnectionCap;
}

export function resolveOtlpOptions<Req>(options: OtlpHandlerOptions<Req>): ResolvedOtlpOptions {
  const number = (value: number | undefined, fallback: number, name: string) =>
    positive(value, fallback, name, 'OTLP handler options');
  return {
    maxBodyBytes: number(options.maxBodyBytes, 16 * MiB, 'maxBodyBytes'),
    maxDecompressedBytes: number(options.maxDecompressedBytes, 64 * MiB, 'maxDecompressedBytes'),
    retryBusy: number(options.retryAfterSeconds?.busy, 1, 'retryAfterSeconds.busy'),
    retryClosed: number(options.retryAfterSeconds?.closed, 5, 'retryAfterSeconds.closed'),
    hostAllowed: createHostCheck(options.allowedHosts),
    connections: createConnectionCap(number(options.maxConnections, 1000, 'maxConnections')),
  };
}

/** The registry a target is: itself, or one made around the stream. */
export function targetRegistry(target: OtlpTarget): OtlpRunRegistry {
  return target instanceof EventStream ? createOtlpRunRegistry({ stream: target }) : target;
}

const TEXT = { 'Content-Type': 'text/plain; charset=utf-8' };

function text(status: number, message: string, headers: Record<string, string> = {}): OtlpAnswer {
  return { status, headers: { ...TEXT, ...headers }, body: `${message}\n` };
}

/** A `google.rpc.Status` answer in `encoding`. */
export function statusAnswer(
  status: number,
  encoding: OtlpEncoding,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): OtlpAnswer {
  return {
    status,
    headers: { 'Content-Type': contentTypeOf(encoding), ...headers },
    body: pb().encodeStatus(encoding, code, message),
  };
}

function contentTypeOf(encoding: OtlpEncoding): string {
  return encoding === 'json' ? 'application/json' : 'application/x-protobuf';
}

function signalOf(url: string): OtlpSignal | null {
  const q = url.indexOf('?');
  const path = (q < 0 ? url : url.slice(0, q)).replace(/\/+$/, '');
  if (path.endsWith('/v1/traces')) return 'traces';
  if (path.endsWith('/v1/logs')) return 'logs';
  return null;
}

/** Whether a URL is one of the receiver's paths (for servers that mount it beside others). */
export function isOtlpPath(url: string): boolean {
  return signalOf(url) !== null;
}

function encodingOf(contentType: string | undefined): OtlpEncoding | null {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/x-protobuf' || type === 'application/protobuf') return 'protobuf';
  if (type === 'application/json') return 'json';
  return null;
}

/**
 * The 503 of a request past `maxConnections`: a `google.rpc.Status` in the
 * encoding its content type names (text when it names none), with the
 * `Retry-After` of every skein server's cap.
 */
export function connectionsBusy(view: RequestView, resolved: ResolvedOtlpOptions): OtlpAnswer {
  const busy = resolved.connections.busy();
  const encoding = encodingOf(view.header('content-type'));
  if (encoding === null) return { ...busy };
  const { 'Content-Type': _type, ...headers } = busy.headers;
  return statusAnswer(busy.status, encoding, RPC_CODE.UNAVAILABLE, busy.body.trim(), headers);
}

/**
 * The checks that need no body, in order: path, host, origin, method. Then,
 * in each transport: a connection slot, auth, and {@link admitBody}.
 */
export function admit(
  view: RequestView,
  options: OtlpHandlerOptions<never>,
  resolved: ResolvedOtlpOptions,
): OtlpAccepted | OtlpAnswer {
  const signal = signalOf(view.url);
  if (signal === null) return text(404, 'Not found: OTLP/HTTP takes POST /v1/traces and /v1/logs');
  if (!resolved.hostAllowed(view.header('host')))
    return { ...HOST_REFUSED, headers: { ...HOST_REFUSED.headers } };
  const cors = corsHeaders(view, options.cors);
  if (isRefusal(cors)) return cors;
  if (view.method === 'OPTIONS') {
    return {
      status: 204,
      headers: {
        ...cors,
        'Access-Control-Allow-Methods': 'POST, OPTIONS',
        'Access-Control-Allow-Headers': 'Content-Type, Content-Encoding, Authorization',
        'Access-Control-Max-Age': String(options.cors?.maxAgeSeconds ?? 600),
      },
      body: '',
    };
  }
  if (view.method !== 'POST')
    return text(405, 'Method not allowed', { Allow: 'POST, OPTIONS', ...cors });
  return { signal, encoding: 'json', gzip: false, cors };
}

/** The checks of a request's headers, after auth. */
export function admitBody(
  view: RequestView,
  admitted: OtlpAccepted,
  registry: OtlpRunRegistry,
  resolved: ResolvedOtlpOptions,
): OtlpAccepted | OtlpAnswer {
  const cors = admitted.cors;
  const encoding = encodingOf(view.header('content-type'));
  if (encoding === null)
    return text(
      415,
      'Unsupported Media Type: OTLP/HTTP bodies are application/x-protobuf or application/json',
      cors,
    );
  const contentEncoding = (view.header('content-encoding') ?? '').trim().toLowerCase();
  let gzip = false;
  if (contentEncoding === 'gzip' || contentEncoding === 'x-gzip') gzip = true;
  else if (contentEncoding !== '' && contentEncoding !== 'identity')
    return text(415, `Unsupported Content-Encoding "${contentEncoding}": send gzip or none`, cors);
  const declared = Number(view.header('content-length'));
  if (Number.isFinite(declared) && declared > resolved.maxBodyBytes)
    return tooLarge(encoding, `body of ${declared} bytes`, resolved.maxBodyBytes, cors);
  if (registry.closed)
    return statusAnswer(503, encoding, RPC_CODE.UNAVAILABLE, 'The receiver is shutting down', {
      ...cors,
      'Retry-After': String(resolved.retryClosed),
    });
  if (registry.busy)
    return statusAnswer(
      429,
      encoding,
      RPC_CODE.RESOURCE_EXHAUSTED,
      'The receiver is behind; retry later',
      { ...cors, 'Retry-After': String(resolved.retryBusy) },
    );
  return { ...admitted, encoding, gzip };
}

export function tooLarge(
  encoding: OtlpEncoding,
  what: string,
  limit: number,
  cors: Record<string, string> = {},
): OtlpAnswer {
  return statusAnswer(
    413,
    encoding,
    RPC_CODE.INVALID_ARGUMENT,
    `Payload too large: ${what}, over the limit of ${limit} bytes`,
    { ...cors, Connection: 'close' },
  );
}

/**
 * Decodes a whole body (already inflated) and hands it to the registry: the
 * 200 with its partial success, or a 400.
 */
export function ingest(
  registry: OtlpRunRegistry,
  admitted: OtlpAccepted,
  body: Uint8Array,
  receivedBytes: number,
  options: OtlpHandlerOptions<never>,
): OtlpAnswer {
  const { signal, encoding, cors } = admitted;
  let request: unknown;
  try {
    request =
      encoding === 'protobuf'
        ? pb().decodeProtobuf(signal, body).request
        : parseJsonBody(signal, body);
  } catch (e) {
    return statusAnswer(
      400,
      encoding,
      RPC_CODE.INVALID_ARGUMENT,
      `Could not decode the ${encoding === 'json' ? 'JSON' : 'protobuf'} body: ${(e as Error).message}`,
      cors,
    );
  }
  let result: OtlpIngestResult;
  try {
    result =
      signal === 'traces'
        ? registry.ingestTraces(request, body.length)
        : registry.ingestLogs(request, body.length);
  } catch (e) {
    return statusAnswer(400, encoding, RPC_CODE.INVALID_ARGUMENT, (e as Error).message, cors);
  }
  options.onExport?.({
    signal,
    encoding,
    bytes: receivedBytes,
    accepted: result.accepted,
    rejected: result.rejected,
    duplicates: result.duplicates,
  });
  return {
    status: 200,
    headers: { 'Content-Type': contentTypeOf(encoding), ...cors },
    body: pb().encodeExportResponse(signal, encoding, result.rejected, result.errorMessage),
  };
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** An OTLP/JSON body: an object, its 64-bit numbers kept exact. */
function parseJsonBody(signal: OtlpSignal, body: Uint8Array): unknown {
  const value: unknown = JSON.parse(quoteBigInts(utf8.decode(body)));
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new Error(
      `expected an Export${signal === 'traces' ? 'Trace' : 'Logs'}ServiceRequest object`,
    );
  const list = (value as Record<string, unknown>)[
    signal === 'traces' ? 'resourceSpans' : 'resourceLogs'
  ];
  if (list !== undefined && !Array.isArray(list))
    throw new Error(`${signal === 'traces' ? 'resourceSpans' : 'resourceLogs'} is not an array`);
  return value;
}
