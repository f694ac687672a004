// The runs of an OTLP run registry over HTTP (contract: docs/viewer-api.md,
// "Runs"): the list as JSON, the list as Server-Sent Events while it changes,
// and each run as a skein live stream (`connectEventStream`, the viewer's
// `?live=`). Read-only: GET and HEAD.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { OtlpRunInfo, OtlpRunRegistry } from '../../core/otlp-runs/types.js';
import type { EventStream } from '../../core/stream/event-stream.js';
import { createEventStreamHandler, type EventStreamHandler } from '../server/sse.js';
import { createConnectionCap } from '../server/connection-cap.js';
import { createHostCheck, HOST_REFUSED, type AllowedHosts } from '../server/host-check.js';
import { positive, type EventStreamHandlerOptions } from '../server/options.js';

/**
 * Options of {@link createOtlpRunsHandler}.
 *
 * @example
 * import type { OtlpRunsHandlerOptions } from 'skein/server';
 * const options: OtlpRunsHandlerOptions = { basePath: '/api', allowedHosts: ['runs.example.com'] };
 */
export interface OtlpRunsHandlerOptions {
  /** Where the API lives: `<basePath>/runs`. Default `/api`. */
  basePath?: string;
  /**
   * `Host` names answered besides the loopback names and IP addresses
   * (`createHostCheck`); others get 421. Each run's live stream answers the
   * same names unless `live.allowedHosts` says otherwise.
   */
  allowedHosts?: AllowedHosts;
  /**
   * Requests served at once, watch and live streams included; one more gets
   * 503 with `Retry-After`. Default 1000.
   */
  maxConnections?: number;
  /** Options of each run's live stream handler (auth, CORS, heartbeats, …). */
  live?: EventStreamHandlerOptions<IncomingMessage>;
  /** Least time between two `runs` events of the watch stream, ms. Default 250. */
  watchIntervalMs?: number;
}

/**
 * A request listener for the runs API, with `close()` to end its streams.
 *
 * @example
 * import http from 'node:http';
 * import { createOtlpRunRegistry } from 'skein';
 * import { createOtlpRunsHandler, type OtlpRunsHandler } from 'skein/server';
 * const runs: OtlpRunsHandler = createOtlpRunsHandler(createOtlpRunRegistry());
 * http.createServer(runs).listen(8791, '127.0.0.1');
 */
export interface OtlpRunsHandler {
  (req: IncomingMessage, res: ServerResponse): void;
  /** Whether a request is for this API (to mount it beside other handlers). */
  handles(url: string): boolean;
  close(): Promise<void>;
}

/** One run as the API lists it. */
export interface OtlpRunEntry extends Omit<OtlpRunInfo, 'firstSeen' | 'lastSeen' | 'startTime'> {
  firstSeen: string;
  lastSeen: string;
  startTime: string | null;
  /** Its live stream (`connectEventStream`, the viewer's `?live=`). */
  url: string;
}

/** The run list as the API serves it (`GET <basePath>/runs`). */
export function runsBody(
  registry: OtlpRunRegistry,
  basePath = '/api',
): { runs: OtlpRunEntry[]; bytes: number } {
  const snapshot = registry.getSnapshot();
  return {
    runs: snapshot.runs.map((r) => ({
      ...r,
      firstSeen: new Date(r.firstSeen).toISOString(),
      lastSeen: new Date(r.lastSeen).toISOString(),
      startTime: r.startTime === null ? null : new Date(r.startTime).toISOString(),
      url: `${basePath}/runs/${encodeURIComponent(r.id)}/events`,
    })),
    bytes: snapshot.bytes,
  };
}

function send(res: ServerResponse, status: number, body: string, type: string): void {
  res.writeHead(status, {
    'Content-Type': type,
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(body);
}

/**
 * Serves a registry's runs: `GET <basePath>/runs` (JSON, newest first),
 * `GET <basePath>/runs/watch` (Server-Sent Events: `event: runs` with the
 * same JSON at connect and after changes, at most every `watchIntervalMs`),
 * and `GET <basePath>/runs/<id>/events`, the run as a skein live stream
 * (resume, heartbeats, slow-client bound: `createEventStreamHandler`).
 *
 * @example
 * import http from 'node:http';
 * import { createOtlpRunRegistry } from 'skein';
 * import { createOtlpHandler, createOtlpRunsHandler } from 'skein/server';
 * const registry = createOtlpRunRegistry();
 * const otlp = createOtlpHandler(registry);
 * const runs = createOtlpRunsHandler(registry);
 * http.createServer((req, res) => (runs.handles(req.url ?? '/') ? runs : otlp)(req, res)).listen(4318);
 */
export function createOtlpRunsHandler(
  registry: OtlpRunRegistry,
  options: OtlpRunsHandlerOptions = {},
): OtlpRunsHandler {
  const base = (options.basePath ?? '/api').replace(/\/+$/, '');
  const interval = options.watchIntervalMs ?? 250;
  const prefix = `${base}/runs`;
  const hostAllowed = createHostCheck(options.allowedHosts);
  const cap = createConnectionCap(
    positive(options.maxConnections, 1000, 'maxConnections', 'OTLP runs handler options'),
  );
  const liveOptions: EventStreamHandlerOptions<IncomingMessage> = {
    ...(options.allowedHosts !== undefined ? { allowedHosts: options.allowedHosts } : {}),
    ...options.live,
  };
  const live = new WeakMap<EventStream, EventStreamHandler>();
  const liveHandlers = new Set<EventStreamHandler>();
  const watchers = new Set<ServerResponse>();
  let unsubscribe: (() => void) | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let lastSent = 0;

  const announce = () => {
    timer = null;
    lastSent = Date.now();
    const body = JSON.stringify(runsBody(registry, base));
    for (const res of watchers) res.write(`event: runs\ndata: ${body}\n\n`);
  };
  const onChange = () => {
    if (timer !== null || watchers.size === 0) return;
    timer = setTimeout(announce, Math.max(0, lastSent + interval - Date.now()));
  };

  const handler = ((req: IncomingMessage, res: ServerResponse) => {
    if (!hostAllowed(req.headers.host))
      return send(
        res,
        HOST_REFUSED.status,
        HOST_REFUSED.body,
        HOST_REFUSED.headers['Content-Type']!,
      );
    const release = cap.take();
    if (release === null) {
      const busy = cap.busy();
      res.setHeader('Retry-After', busy.headers['Retry-After']!);
      return send(res, busy.status, busy.body, busy.headers['Content-Type']!);
    }
    res.once('close', release);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      return send(res, 405, 'Method not allowed\n', 'text/plain');
    }
    const path = (req.url ?? '/').split('?')[0]!;
    if (path === prefix || path === `${prefix}/`)
      return send(res, 200, JSON.stringify(runsBody(registry, base)), 'application/json');
    if (path === `${prefix}/watch`) {
      res.writeHead(200, {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-store',
        Connection: 'keep-alive',
        'X-Content-Type-Options': 'nosniff',
      });
      if (req.method === 'HEAD') return void res.end();
      watchers.add(res);
      unsubscribe ??= registry.subscribe(onChange);
      req.on('close', () => {
        watchers.delete(res);
        if (watchers.size === 0 && unsubscribe) {
          unsubscribe();
          unsubscribe = null;
        }
      });
      res.write(`event: runs\ndata: ${JSON.stringify(runsBody(registry, base))}\n\n`);
      return;
    }
    const m = /^\/([^/]+)\/events$/.exec(path.slice(prefix.length));
    if (path.startsWith(`${prefix}/`) && m) {
      let id: string;
      try {
        id = decodeURIComponent(m[1]!);
      } catch {
        return send(res, 404, 'Not found\n', 'text/plain');
      }
      const run = registry.get(id);
      if (!run) return send(res, 404, `No run ${id}\n`, 'text/plain');
      let serve = live.get(run.stream);
      if (!serve) {
        serve = createEventStreamHandler(run.stream, liveOptions);
        live.set(run.stream, serve);
        liveHandlers.add(serve);
      }
      return serve(req, res);
    }
    send(res, 404, 'Not found\n', 'text/plain');
  }) as OtlpRunsHandler;

  handler.handles = (url) => {
    const path = url.split('?')[0]!;
    return path === prefix || path.startsWith(`${prefix}/`);
  };
  handler.close = async () => {
    if (timer !== null) clearTimeout(timer);
    unsubscribe?.();
    unsubscribe = null;
    for (const res of watchers) res.end();
    watchers.clear();
    await Promise.all([...liveHandlers].map((h) => h.close()));
  };
  return handler;
}
