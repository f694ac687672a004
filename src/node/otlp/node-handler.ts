// The OTLP/HTTP receiver for Node's `http` (and Express, Fastify's raw
// request/response): `createOtlpHandler`. The decisions are receiver.ts's;
// this file reads the body (capped as it comes), inflates gzip on zlib's
// thread pool (capped while inflating) and writes the answer.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gunzip } from 'node:zlib';
import type { OtlpRunRegistry } from '../../core/otlp-runs/types.js';
import { checkAuth } from '../server/options.js';
import { nodeRequestView } from '../server/node-request.js';
import {
  admit,
  admitBody,
  connectionsBusy,
  inflateBody,
  ingest,
  loadCodec,
  resolveOtlpOptions,
  targetRegistry,
  tooLarge,
  type OtlpAnswer,
  type OtlpHandlerOptions,
  type OtlpTarget,
} from './receiver.js';

/**
 * A Node request listener receiving OTLP/HTTP exports, with its registry.
 *
 * @example
 * import http from 'node:http';
 * import { createOtlpRunRegistry } from 'skein';
 * import { createOtlpHandler } from 'skein/server';
 * const otlp = createOtlpHandler(createOtlpRunRegistry());
 * http.createServer(otlp).listen(4318, '127.0.0.1');
 * otlp.registry.getSnapshot().runs; // the runs received so far
 */
export interface OtlpHandler {
  (req: IncomingMessage, res: ServerResponse): void;
  /** The registry the exports go to (made around the stream when the target was one). */
  readonly registry: OtlpRunRegistry;
  /** Requests being read or answered now. */
  readonly inFlight: number;
  /** Closes the registry: later exports get 503; resolves when requests in flight are answered. */
  close(): Promise<void>;
}

function write(res: ServerResponse, answer: OtlpAnswer): void {
  if (res.destroyed) return;
  const body = typeof answer.body === 'string' ? Buffer.from(answer.body) : answer.body;
  res.writeHead(answer.status, { ...answer.headers, 'Content-Length': String(body.byteLength) });
  res.end(body);
}

/** Inflates a gzip body, refusing as soon as the output passes `limit`. */
function inflate(body: Buffer, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    gunzip(body, { maxOutputLength: limit }, (error, out) =>
      error ? reject(error) : resolve(out),
    );
  });
}

/**
 * Receives OpenTelemetry exports over OTLP/HTTP: `POST /v1/traces` and
 * `POST /v1/logs` (any prefix before them), protobuf or JSON, plain or gzip,
 * answered as the OTLP/HTTP spec says (200 with partial success, 400 with a
 * `google.rpc.Status`, 413, 415, 429/503 with `Retry-After`). Spans and log
 * records go to `target`: a run registry (`createOtlpRunRegistry`: a run per
 * trace or conversation, each a live `EventStream`) or one `EventStream`.
 *
 * Bodies are capped as they arrive (`maxBodyBytes`) and gzip while it
 * inflates (`maxDecompressedBytes`); a `Host` that is not a loopback name,
 * an IP address or one of `allowedHosts` is refused with 421 (the host check
 * of every skein server, `createHostCheck`), and more than `maxConnections`
 * requests at once with 503; CORS is closed unless `cors` opens it;
 * `authorize` may refuse with 401/403. A client that leaves mid-body exports
 * nothing.
 *
 * @example
 * import http from 'node:http';
 * import { createOtlpRunRegistry } from 'skein';
 * import { createOtlpHandler, createEventStreamHandler } from 'skein/server';
 * const registry = createOtlpRunRegistry();
 * http.createServer(createOtlpHandler(registry)).listen(4318, '127.0.0.1');
 * // OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318 in the agent's environment
 */
export function createOtlpHandler(
  target: OtlpTarget,
  options: OtlpHandlerOptions<IncomingMessage> = {},
): OtlpHandler {
  const registry = targetRegistry(target);
  const resolved = resolveOtlpOptions(options);
  const pending = new Set<Promise<void>>();
  const generic = options as OtlpHandlerOptions<never>;

  const serve = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    await loadCodec();
    const view = nodeRequestView(req);
    const first = admit(view, generic, resolved);
    if ('status' in first) return drainThen(req, res, first);
    const release = resolved.connections.take();
    if (release === null) return drainThen(req, res, connectionsBusy(view, resolved));
    // The slot is held until the answer is written or the client leaves.
    res.once('close', release);
    const refusal = await checkAuth(req, options.authorize);
    if (refusal)
      return drainThen(req, res, { ...refusal, headers: { ...refusal.headers, ...first.cors } });
    const admitted = admitBody(view, first, registry, resolved);
    if ('status' in admitted) return drainThen(req, res, admitted);

    // The body, capped as it arrives.
    const chunks: Buffer[] = [];
    let size = 0;
    const outcome = await new Promise<'ok' | 'big' | 'gone'>((resolve) => {
      const onData = (chunk: Buffer) => {
        size += chunk.length;
        if (size > resolved.maxBodyBytes) {
          cleanup();
          resolve('big');
          return;
        }
        chunks.push(chunk);
      };
      const onEnd = () => {
        cleanup();
        resolve('ok');
      };
      const onClose = () => {
        cleanup();
        resolve(req.complete ? 'ok' : 'gone');
      };
      const cleanup = () => {
        req.off('data', onData);
        req.off('end', onEnd);
        req.off('close', onClose);
        req.off('error', onClose);
      };
      req.on('data', onData);
      req.on('end', onEnd);
      req.on('close', onClose);
      req.on('error', onClose);
    });
    if (outcome === 'gone') return; // nothing was accepted; nobody to answer
    if (outcome === 'big') {
      write(res, tooLarge(admitted.encoding, 'body', resolved.maxBodyBytes, admitted.cors));
      dropRest(req, resolved.maxBodyBytes);
      return;
    }
    const inflated = await inflateBody(
      admitted,
      Buffer.concat(chunks, size),
      resolved.maxDecompressedBytes,
      inflate,
      (e) => (e as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE',
    );
    if ('refused' in inflated) return write(res, inflated.refused);
    // The Buffer itself: protobufjs reads a Buffer's strings natively.
    write(res, ingest(registry, admitted, inflated.body, size, generic));
  };

  const handler = ((req: IncomingMessage, res: ServerResponse) => {
    const p = serve(req, res)
      .catch(() => {
        if (!res.headersSent) write(res, { status: 500, headers: {}, body: 'Internal error\n' });
        else res.destroy();
      })
      .finally(() => pending.delete(p));
    pending.add(p);
  }) as OtlpHandler;
  Object.defineProperty(handler, 'registry', { value: registry });
  Object.defineProperty(handler, 'inFlight', { get: () => pending.size });
  handler.close = async () => {
    registry.close();
    await Promise.all([...pending]);
  };
  return handler;
}

/**
 * After a 413 sent before the body ended: reads on and drops what the client
 * is still sending, up to `limit` more bytes or 2 s, then closes. Closing at
 * once made a client still writing see a broken pipe (EPIPE) instead of the
 * 413 (RFC 9112 §9.6: a server that closes early may lose its response).
 */
function dropRest(req: IncomingMessage, limit: number): void {
  let more = 0;
  const done = () => {
    clearTimeout(timer);
    req.off('data', onData);
    req.off('end', done);
    req.off('close', done);
  };
  const stop = () => {
    done();
    req.destroy();
  };
  const onData = (chunk: Buffer) => {
    more += chunk.length;
    if (more > limit) stop();
  };
  const timer = setTimeout(stop, 2_000);
  timer.unref?.();
  req.on('data', onData);
  req.once('end', done);
  req.once('close', done);
}

/** Answers without reading the body, and lets the rest of it go. */
function drainThen(req: IncomingMessage, res: ServerResponse, answer: OtlpAnswer): void {
  write(res, answer);
  req.resume();
}
