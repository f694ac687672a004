// The HTTP side of `skein view` (issue 22): the built viewer page plus the
// small API it reads (contract: docs/viewer-api.md). node:http only; no
// request ever leaves the bound address.
//
// Safety, because a log may hold secrets and this server has no auth:
// - files are served only when they are in the current listing of the served
//   folder (or are the one file given), looked up by name: a path is never
//   joined from the URL, so `..`, absolute paths and encoded slashes cannot
//   reach anything else (404);
// - on a loopback bind, requests whose Host header is not a loopback name are
//   refused (421), so a DNS-rebinding page cannot read the API;
// - no CORS headers: other origins cannot read the answers.
import { createReadStream, existsSync, watch, type FSWatcher } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { basename, dirname, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listLogs, describeLogFile, type LogEntry } from './log-list.js';

/**
 * Options of {@link createViewHandler}.
 *
 * @example
 * import type { ViewHandlerOptions } from 'skein/server';
 * const options: ViewHandlerOptions = { root: 'logs' };
 */
export interface ViewHandlerOptions {
  /** The folder whose logs are listed and served. */
  root: string;
  /** Serve only this file of `root` (`skein view <file>`). */
  file?: string;
  /** The built viewer page's folder; default `dist/viewer` next to the CLI (see {@link findViewerDir}). */
  viewerDir?: string | null;
  /**
   * Accept any Host header (the server was bound to a non-loopback address on
   * purpose, `--host`). Default false: loopback names only.
   */
  anyHost?: boolean;
  /** Quiet time before a folder change is announced, ms. Default 150. */
  debounceMs?: number;
}

/**
 * The request handler of `skein view`, with `close()` to end its watchers
 * and open event streams.
 *
 * @example
 * import { createViewHandler, type ViewHandler } from 'skein/server';
 * const view: ViewHandler = createViewHandler({ root: 'logs' });
 */
export interface ViewHandler {
  (req: IncomingMessage, res: ServerResponse): void;
  close(): void;
}

/** The JSON of `GET /api/list` (docs/viewer-api.md). */
interface ListBody {
  root: string;
  logs: {
    name: string;
    url: string;
    format: LogEntry['format'];
    size: number;
    mtime: string;
    error?: string;
  }[];
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * Where the built viewer page is: `viewer/` next to the built CLI
 * (`dist/viewer/`), or `dist/viewer/` of the checkout when running from
 * source. `null` when it has not been built.
 *
 * @example
 * import { findViewerDir } from 'skein/server';
 * const dir = findViewerDir(); // '/…/node_modules/skein/dist/viewer' or null
 */
export function findViewerDir(): string | null {
  const here = dirname(fileURLToPath(import.meta.url));
  // dist/cli.js → dist/viewer; dist/node/x.js → dist/viewer; src/node/x.ts → dist/viewer.
  for (const dir of [
    join(here, 'viewer'),
    join(here, '..', 'viewer'),
    join(here, '..', '..', 'dist', 'viewer'),
  ]) {
    if (existsSync(join(dir, 'index.html'))) return dir;
  }
  return null;
}

const NOT_BUILT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>skein view</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font: 16px/1.5 system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; padding: 0 1rem">
<h1>The skein viewer is not built</h1>
<p>This server is running and its API answers (<a href="/api/list">/api/list</a>), but the
viewer page was not found next to the command line (<code>dist/viewer/</code>).</p>
<p>In a checkout of skein, build it with <code>npm run build</code>, then run
<code>skein view</code> again. An installed package ships it built.</p>
</body></html>
`;

function isLoopbackHost(host: string | undefined): boolean {
  if (host === undefined) return false;
  // Strip the port: `[::1]:8080`, `127.0.0.1:8080`, `localhost:8080`.
  const name = host.startsWith('[') ? host.slice(1, host.indexOf(']')) : host.replace(/:\d+$/, '');
  const lower = name.toLowerCase();
  return (
    lower === 'localhost' ||
    lower.endsWith('.localhost') ||
    lower === '::1' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(lower)
  );
}

function send(
  res: ServerResponse,
  status: number,
  body: string,
  type = 'text/plain; charset=utf-8',
) {
  res.writeHead(status, {
    'Content-Type': type,
    'Content-Length': Buffer.byteLength(body),
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-store',
  });
  res.end(body);
}

/**
 * The handler behind `skein view` (docs/viewer-api.md): `GET /api/list`,
 * `GET /api/list/watch` (Server-Sent Events), `GET /api/file/<name>` and the
 * viewer page. Mount it on a `node:http` server.
 *
 * @example
 * import { createServer } from 'node:http';
 * import { createViewHandler } from 'skein/server';
 * const view = createViewHandler({ root: 'logs' });
 * createServer(view).listen(8790, '127.0.0.1');
 */
export function createViewHandler(options: ViewHandlerOptions): ViewHandler {
  const root = resolve(options.root);
  const only = options.file;
  const viewerDir = options.viewerDir === undefined ? findViewerDir() : options.viewerDir;
  const debounceMs = options.debounceMs ?? 150;
  const clients = new Set<ServerResponse>();
  const watchers: FSWatcher[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;

  const entries = async (): Promise<LogEntry[]> =>
    only !== undefined ? [await describeLogFile(root, join(root, only))] : listLogs(root);

  const listBody = async (): Promise<ListBody> => ({
    root,
    logs: (await entries()).map((e) => ({
      name: e.name,
      url: `/api/file/${encodeURIComponent(e.name)}`,
      format: e.format,
      size: e.size,
      mtime: e.mtime.toISOString(),
      ...(e.error !== undefined ? { error: e.error } : {}),
    })),
  });

  const announce = async () => {
    if (clients.size === 0) return;
    let body: string;
    try {
      body = JSON.stringify(await listBody());
    } catch {
      return; // the folder vanished; keep the streams open until it is back
    }
    for (const res of clients) res.write(`event: list\ndata: ${body}\n\n`);
  };

  const startWatching = () => {
    if (watchers.length > 0 || closed) return;
    const onChange = () => {
      clearTimeout(timer);
      timer = setTimeout(() => void announce(), debounceMs);
    };
    const add = (dir: string) => {
      try {
        const w = watch(dir, { persistent: false }, onChange);
        w.on('error', () => {});
        watchers.push(w);
      } catch {
        // A folder that cannot be watched is still listed on demand.
      }
    };
    add(root);
    if (only === undefined) {
      // One level down too, as the listing recurses one level.
      readdir(root, { withFileTypes: true }).then(
        (items) => {
          for (const item of items)
            if (item.isDirectory() && !item.name.startsWith('.') && !closed)
              add(join(root, item.name));
        },
        () => {},
      );
    }
  };

  const serveFile = async (name: string, res: ServerResponse, head: boolean) => {
    // Look the name up in the listing; never join it onto the root.
    const entry = (await entries()).find((e) => e.name === name);
    if (!entry) return send(res, 404, 'Not found\n');
    const path = join(root, ...entry.name.split('/'));
    const real = resolve(path);
    if (!real.startsWith(root + sep)) return send(res, 404, 'Not found\n');
    let size: number;
    try {
      const info = await stat(real);
      if (!info.isFile()) return send(res, 404, 'Not found\n');
      size = info.size;
    } catch {
      return send(res, 404, 'Not found\n');
    }
    res.writeHead(200, {
      'Content-Type': 'application/octet-stream',
      'Content-Length': size,
      'Content-Disposition': `inline; filename="${basename(name).replace(/["\\\r\n]/g, '_')}"`,
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-store',
    });
    if (head) return void res.end();
    const stream = createReadStream(real, { start: 0, end: Math.max(0, size - 1) });
    stream.on('error', () => res.destroy());
    if (size === 0) return void res.end();
    stream.pipe(res);
  };

  const serveStatic = async (pathname: string, res: ServerResponse, head: boolean) => {
    if (viewerDir === null) {
      if (pathname === '/' || pathname === '/index.html')
        return send(res, 200, NOT_BUILT, TYPES['.html']);
      return send(res, 404, 'Not found\n');
    }
    let rel: string;
    try {
      rel = decodeURIComponent(pathname === '/' ? '/index.html' : pathname);
    } catch {
      return send(res, 400, 'Bad path\n');
    }
    const base = resolve(viewerDir);
    const path = resolve(base, `.${rel}`);
    if (rel.includes('\0') || (path !== base && !path.startsWith(base + sep)))
      return send(res, 404, 'Not found\n');
    try {
      const info = await stat(path);
      if (!info.isFile()) return send(res, 404, 'Not found\n');
      res.writeHead(200, {
        'Content-Type': TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream',
        'Content-Length': info.size,
        'X-Content-Type-Options': 'nosniff',
      });
      if (head) return void res.end();
      createReadStream(path)
        .on('error', () => res.destroy())
        .pipe(res);
    } catch {
      send(res, 404, 'Not found\n');
    }
  };

  const handler = ((req: IncomingMessage, res: ServerResponse) => {
    if (!options.anyHost && !isLoopbackHost(req.headers.host)) {
      return send(res, 421, 'This server answers to loopback host names only (see --host)\n');
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      return send(res, 405, 'Method not allowed\n');
    }
    const head = req.method === 'HEAD';
    // The raw path, undecoded: `/api/file/<name>` carries one encoded segment.
    const rawPath = (req.url ?? '/').split('?')[0]!;
    const fail = (e: unknown) => {
      if (!res.headersSent) send(res, 500, `${(e as Error).message}\n`);
      else res.destroy();
    };
    if (rawPath === '/api/list') {
      listBody().then((body) => send(res, 200, JSON.stringify(body), TYPES['.json']), fail);
      return;
    }
    if (rawPath === '/api/list/watch') {
      res.writeHead(200, {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-store',
        Connection: 'keep-alive',
        'X-Content-Type-Options': 'nosniff',
      });
      clients.add(res);
      req.on('close', () => clients.delete(res));
      startWatching();
      listBody().then(
        (body) => res.write(`event: list\ndata: ${JSON.stringify(body)}\n\n`),
        (e: unknown) =>
          res.write(`event: error\ndata: ${JSON.stringify((e as Error).message)}\n\n`),
      );
      return;
    }
    if (rawPath.startsWith('/api/file/')) {
      let name: string;
      try {
        name = decodeURIComponent(rawPath.slice('/api/file/'.length));
      } catch {
        return send(res, 404, 'Not found\n');
      }
      serveFile(name, res, head).catch(fail);
      return;
    }
    if (rawPath.startsWith('/api/')) return send(res, 404, 'Not found\n');
    serveStatic(rawPath, res, head).catch(fail);
  }) as ViewHandler;

  handler.close = () => {
    closed = true;
    clearTimeout(timer);
    for (const w of watchers) w.close();
    watchers.length = 0;
    for (const res of clients) res.end();
    clients.clear();
  };
  return handler;
}
