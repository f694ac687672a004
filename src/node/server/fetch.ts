/**
 * The Fetch form of the SSE handler (`Request → Response`), for Next.js route
 * handlers, Hono, Deno, Bun and edge runtimes. This module imports no Node
 * built-ins. It does not compress: edge platforms compress responses
 * themselves, and `CompressionStream` cannot flush per batch.
 */
import {
  resolveOptions,
  type EventStreamHandlerOptions,
  type Refusal,
  type RequestView,
} from './options.js';
import { toSource, type LiveSourceInput } from './resolve-source.js';
import { SSE_HEADERS, sse } from './sse-text.js';
import { createSessions, sseSink } from './sse-serve.js';

/**
 * A Fetch handler serving a live stream, with the same controls as the Node
 * one.
 *
 * @example
 * import { createEventStreamFetchHandler, type EventStreamFetchHandler } from 'skein/server';
 * const GET: EventStreamFetchHandler = createEventStreamFetchHandler(stream, {
 *   allowedHosts: ['example.com'], // the name it is reached by (loopback names need none)
 * });
 * const response = await GET(new Request('https://example.com/run', { headers: { 'Last-Event-ID': '41' } }));
 */
export interface EventStreamFetchHandler {
  (request: Request): Promise<Response>;
  readonly streamId: string;
  readonly connections: number;
  close(): Promise<void>;
}

function respond(refusal: Refusal): Response {
  return new Response(refusal.body === '' ? null : refusal.body, {
    status: refusal.status,
    headers: refusal.headers,
  });
}

/**
 * Serves `source` as Server-Sent Events through the Fetch API: the same
 * protocol, resume, heartbeats, slow-client bound, `Host` check, connection
 * cap, auth and CORS as `createEventStreamHandler` (which see), minus
 * compression. The `Host` is the request's header, else its URL's host. The request's
 * `signal` (aborted by the runtime when the client leaves) ends the session.
 *
 * @example
 * // app/api/run/route.ts (Next.js): `export const GET = …`
 * import { createEventStreamFetchHandler } from 'skein/server';
 * const GET = createEventStreamFetchHandler(stream);
 */
export function createEventStreamFetchHandler(
  input: LiveSourceInput,
  options: EventStreamHandlerOptions<Request> = {},
): EventStreamFetchHandler {
  const source = toSource(input);
  const resolved = resolveOptions(options);
  const sessions = createSessions(source, resolved, options);
  const encoder = new TextEncoder();

  const handler = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const view: RequestView = {
      method: request.method,
      url: url.pathname + url.search,
      // Runtimes build `request.url` from the Host header; some drop the
      // header itself from `request.headers`.
      header: (name) => request.headers.get(name) ?? (name === 'host' ? url.host : undefined),
    };
    const admission = await sessions.admit(view, request);
    if ('refusal' in admission) return respond(admission.refusal);
    const admitted = admission.admitted;
    const { cors, head } = admitted;
    if (head) return new Response(null, { headers: { ...SSE_HEADERS, ...cors } });

    const abort = new AbortController();
    request.signal.addEventListener('abort', () => abort.abort(), { once: true });
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    let closed = false;
    let wake: (() => void) | null = null;
    const hwm = resolved.maxBufferedBytes;
    const body = new ReadableStream<Uint8Array>(
      {
        start: (c) => {
          controller = c;
        },
        pull: () => {
          wake?.();
          wake = null;
        },
        cancel: () => {
          closed = true;
          abort.abort();
          wake?.();
        },
      },
      { highWaterMark: hwm, size: (chunk) => chunk.byteLength },
    );
    const put = (text: string) => {
      if (!closed) controller.enqueue(encoder.encode(text));
    };
    const sink = sseSink(put, resolved.retryMs, {
      flush: () => {},
      buffered: () => (closed ? 0 : hwm - (controller.desiredSize ?? hwm)),
      drained: () =>
        new Promise<void>((resolve) => {
          wake = resolve;
        }),
      close: (c) => {
        if (closed) return;
        put(sse.close(c));
        closed = true;
        controller.close();
      },
      closed: () => closed,
    });
    void sessions.serve(view, admitted, sink, abort.signal, () => {
      if (!closed) {
        closed = true;
        controller.close();
      }
    });
    return new Response(body, { headers: { ...SSE_HEADERS, ...cors } });
  };
  return sessions.expose(handler);
}
