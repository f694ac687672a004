// The OTLP/HTTP receiver as a Fetch handler (`Request → Response`), for
// Next.js route handlers, Hono, Deno, Bun and edge runtimes. No Node
// built-ins: gzip is inflated with `DecompressionStream`, a piece at a time,
// and refused as soon as it passes the cap.
import type { OtlpRunRegistry } from '../../core/otlp-runs/types.js';
import { checkAuth, type RequestView } from '../server/options.js';
import {
  admit,
  admitBody,
  connectionsBusy,
  ingest,
  loadCodec,
  RPC_CODE,
  resolveOtlpOptions,
  statusAnswer,
  targetRegistry,
  tooLarge,
  type OtlpAccepted,
  type OtlpAnswer,
  type OtlpHandlerOptions,
  type OtlpTarget,
} from './receiver.js';

/**
 * A Fetch handler receiving OTLP/HTTP exports, with its registry.
 *
 * @example
 * import { createOtlpRunRegistry } from 'skein';
 * import { createOtlpFetchHandler, type OtlpFetchHandler } from 'skein/server/fetch';
 * const POST: OtlpFetchHandler = createOtlpFetchHandler(createOtlpRunRegistry());
 */
export interface OtlpFetchHandler {
  (request: Request): Promise<Response>;
  readonly registry: OtlpRunRegistry;
  /** Closes the registry: later exports get 503. */
  close(): void;
}

function respond(answer: OtlpAnswer): Response {
  const body = answer.body === '' ? null : answer.body;
  return new Response(body as BodyInit | null, { status: answer.status, headers: answer.headers });
}

class TooLarge extends Error {}

/** Reads a stream whole, refusing as soon as it passes `limit` bytes. */
async function readCapped(stream: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw new TooLarge();
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/**
 * The Fetch form of `createOtlpHandler` (which see): the same paths,
 * encodings, caps, checks and answers. Mount it on `POST` routes ending in
 * `/v1/traces` and `/v1/logs`.
 *
 * @example
 * // app/v1/[signal]/route.ts (Next.js): `export const POST = …`
 * import { createOtlpRunRegistry } from 'skein';
 * import { createOtlpFetchHandler } from 'skein/server/fetch';
 * const registry = createOtlpRunRegistry();
 * const POST = createOtlpFetchHandler(registry, { allowedHosts: ['otel.example.com'] });
 */
export function createOtlpFetchHandler(
  target: OtlpTarget,
  options: OtlpHandlerOptions<Request> = {},
): OtlpFetchHandler {
  const registry = targetRegistry(target);
  const resolved = resolveOtlpOptions(options);
  const generic = options as OtlpHandlerOptions<never>;

  const handler = (async (request: Request): Promise<Response> => {
    await loadCodec();
    const url = new URL(request.url);
    const view: RequestView = {
      method: request.method,
      url: url.pathname + url.search,
      // The URL's host when the runtime gives no Host header (it is the same).
      header: (name) =>
        request.headers.get(name) ?? (name === 'host' ? url.host : undefined) ?? undefined,
    };
    const first = admit(view, generic, resolved);
    if ('status' in first) return respond(first);
    const release = resolved.connections.take();
    if (release === null) return respond(connectionsBusy(view, resolved));
    try {
      return await serve(request, view, first);
    } finally {
      release();
    }
  }) as OtlpFetchHandler;

  const serve = async (
    request: Request,
    view: RequestView,
    first: OtlpAccepted,
  ): Promise<Response> => {
    const refusal = await checkAuth(request, options.authorize);
    if (refusal) return respond({ ...refusal, headers: { ...refusal.headers, ...first.cors } });
    const admitted = admitBody(view, first, registry, resolved);
    if ('status' in admitted) return respond(admitted);
    let received: Uint8Array;
    try {
      received =
        request.body === null
          ? new Uint8Array()
          : await readCapped(request.body, resolved.maxBodyBytes);
    } catch (e) {
      if (e instanceof TooLarge)
        return respond(tooLarge(admitted.encoding, 'body', resolved.maxBodyBytes, admitted.cors));
      throw e; // the client went away: nothing was accepted
    }
    let body = received;
    if (admitted.gzip) {
      try {
        const inflated = new Blob([received as BlobPart])
          .stream()
          .pipeThrough(new DecompressionStream('gzip'));
        body = await readCapped(inflated, resolved.maxDecompressedBytes);
      } catch (e) {
        return respond(
          e instanceof TooLarge
            ? tooLarge(
                admitted.encoding,
                'gzip body inflated',
                resolved.maxDecompressedBytes,
                admitted.cors,
              )
            : statusAnswer(
                400,
                admitted.encoding,
                RPC_CODE.INVALID_ARGUMENT,
                `Could not inflate the gzip body: ${(e as Error).message}`,
                admitted.cors,
              ),
        );
      }
    } else if (body.byteLength > resolved.maxDecompressedBytes) {
      return respond(
        tooLarge(admitted.encoding, 'body', resolved.maxDecompressedBytes, admitted.cors),
      );
    }
    return respond(ingest(registry, admitted, body, received.byteLength, generic));
  };
  Object.defineProperty(handler, 'registry', { value: registry });
  handler.close = () => registry.close();
  return handler;
}
