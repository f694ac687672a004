// The HTTP side of `skein view`: the built viewer page plus the small API it
// reads (contract: docs/viewer-api.md). node:http only; no request ever
// leaves the bound address.
//
// Safety, because a log may hold secrets and this server has no auth:
// - it serves what it was given and nothing else: a folder's listed logs, one
//   file, or (for a URL, which the page fetches itself) no file at all;
// - files are served only when they are in the current listing, looked up by
//   name: a path is never joined from the URL, so `..`, absolute paths and
//   encoded slashes cannot reach anything else (404);
// - a listed file is opened without following links and without waiting on
//   a pipe, and must be the very file that was listed (device and inode):
//   one swapped for a link, a FIFO or another file is not served;
// - requests whose Host is not a loopback name, an IP address or an allowed
//   name are refused (421), so a DNS-rebinding page cannot read the API;
// - no CORS headers: other origins cannot read the answers; the page is sent
//   with a Content-Security-Policy and may not be framed;
// - bounded work per request: the listing is made once per folder change and
//   shared, files are streamed a few at a time, watch clients that stop
//   reading are dropped, and requests past `maxConnections` get 503.
import { existsSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SkeinError } from '../core/errors.js';
import { openRegularFile } from './files.js';
import { createLimiter } from './limiter.js';
import { createConnectionCap } from './server/connection-cap.js';
import { createHostCheck, HOST_REFUSED, type AllowedHosts } from './server/host-check.js';
import type { FileIdentity } from './files.js';
import { createFolderListing, type FolderListing, type Listing } from './view-listing.js';

/**
 * Options of {@link createViewHandler}.
 *
 * @example
 * import type { ViewHandlerOptions } from 'skein/server';
 * const options: ViewHandlerOptions = { root: 'logs' };
 */
export interface ViewHandlerOptions {
  /**
   * The folder whose logs are listed and served. Absent: the page alone
   * (`skein view <url>`, whose log the page fetches itself): `/api/list` and
   * `/api/file/…` answer 404.
   */
  root?: string;
  /** Serve only this file of `root` (`skein view <file>`). */
  file?: string;
  /** The built viewer page's folder; default `dist/viewer` next to the CLI (see {@link findViewerDir}). */
  viewerDir?: string | null;
  /**
   * `Host` names answered besides the loopback names and IP addresses (see
   * `createHostCheck`); `true` answers any. Default: none.
   */
  allowedHosts?: AllowedHosts;
  /** Quiet time before a folder change is acted on, ms. Default 150. */
  debounceMs?: number;
  /** Requests served at once, watch streams included; one more gets 503. Default 4096. */
  maxConnections?: number;
  /** Bytes a `/api/list/watch` client may leave unread before it is dropped. Default 1 MiB. */
  maxWatchBufferBytes?: number;
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
  '.md': 'text/plain; charset=utf-8',
};

/**
 * The Content-Security-Policy of the viewer page (and every file of it):
 * scripts and workers only from the page's own origin, no plugins, no
 * `<base>`, no forms, never framed. Connections may go anywhere over HTTP(S)
 * and WebSockets, because `?src=` and `?live=` open logs and live runs of
 * other origins; images may be `https:` (a markdown image, loaded on click),
 * `data:` (inline outputs) or `blob:`. Inline styles are allowed: the
 * sandboxed frame of untrusted HTML inherits this policy and carries its own
 * stricter one. Serve `dist/viewer/` with it when serving it yourself.
 *
 * @example
 * import { VIEWER_CSP } from 'skein/server';
 * const headers = { 'Content-Security-Policy': VIEWER_CSP, 'X-Frame-Options': 'DENY' };
 */
export const VIEWER_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "worker-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "font-src 'self' data:",
  "connect-src 'self' http: https: ws: wss:",
  "frame-src 'none'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The policy of API answers: raw data, never a document that runs or loads anything. */
const API_CSP = "default-src 'none'; frame-ancestors 'none'; sandbox";

/** Headers of every answer. */
const COMMON_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

const PAGE_HEADERS = {
  ...COMMON_HEADERS,
  'Content-Security-Policy': VIEWER_CSP,
  'Cross-Origin-Opener-Policy': 'same-origin',
};
const API_HEADERS = { ...COMMON_HEADERS, 'Content-Security-Policy': API_CSP };

/** Listed files sent at once; more requests wait their turn. */
const FILES_AT_ONCE = 32;
/** A file up to this size is read in one go and sent as one buffer; a bigger one is streamed. */
const SMALL_FILE_BYTES = 256 * 1024;
/**
 * A name missing from a listing this old, or a listed file replaced, makes a
 * new listing (a log just written); younger, the watcher will tell, ms.
 */
const MISSING_REFRESH_MS = 1000;

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

function send(
  res: ServerResponse,
  status: number,
  body: string,
  type = 'text/plain; charset=utf-8',
  headers: Readonly<Record<string, string>> = API_HEADERS,
) {
  res.writeHead(status, {
    ...headers,
    'Content-Type': type,
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
  });
  res.end(body);
}

const notFound = (res: ServerResponse) => send(res, 404, 'Not found\n');

/**
 * `Content-Disposition` for any file name: a plain-ASCII `filename` for old
 * clients and the exact name as RFC 5987 `filename*` (UTF-8, percent-encoded
 * outside `attr-char`), so a name like `日本.jsonl` is a valid header.
 */
function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `inline; filename="${ascii}"; filename*=UTF-8''${encoded}`;
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
  const root = options.root === undefined ? null : resolve(options.root);
  const viewerDir = options.viewerDir === undefined ? findViewerDir() : options.viewerDir;
  const hostAllowed = createHostCheck(options.allowedHosts);
  const cap = createConnectionCap(options.maxConnections ?? 4096);
  const maxWatchBuffer = options.maxWatchBufferBytes ?? 2 ** 20;
  const listing: FolderListing | null =
    root === null
      ? null
      : createFolderListing({ root, file: options.file, debounceMs: options.debounceMs ?? 150 });
  const clients = new Set<ServerResponse>();
  const streaming = createLimiter(FILES_AT_ONCE);
  let unsubscribe: (() => void) | null = null;

  /** Writes to a watch client, or drops it when it left the last ones unread. */
  const tell = (res: ServerResponse, text: string) => {
    if (res.writableLength > maxWatchBuffer) {
      clients.delete(res);
      res.destroy();
      return;
    }
    res.write(text);
  };
  const announce = (current: Listing) => {
    const text = `event: list\ndata: ${current.body}\n\n`;
    for (const res of clients) tell(res, text);
  };

  /** Sends one listed file; `false` when it is no longer the file that was listed. */
  const sendFile = async (
    path: string,
    name: string,
    id: FileIdentity,
    res: ServerResponse,
    head: boolean,
  ): Promise<boolean> => {
    let opened;
    try {
      opened = await openRegularFile(path, id);
    } catch (error) {
      if (error instanceof SkeinError && error.code === 'file_replaced') return false;
      notFound(res); // a link, a pipe, a device, or gone: never served
      return true;
    }
    const { handle, stats } = opened;
    try {
      const size = Number(stats.size);
      if (res.destroyed) return true;
      res.writeHead(200, {
        ...API_HEADERS,
        'Content-Type': 'application/octet-stream',
        'Content-Length': size,
        'Content-Disposition': contentDisposition(name.slice(name.lastIndexOf('/') + 1)),
        'Cache-Control': 'no-store',
      });
      if (head || size === 0) {
        res.end();
        return true;
      }
      // Read from the handle that was checked: the path is not opened again.
      if (size <= SMALL_FILE_BYTES) {
        const bytes = Buffer.allocUnsafe(size);
        let done = 0;
        while (done < size) {
          const { bytesRead } = await handle.read(bytes, done, size - done, done);
          if (bytesRead === 0) break;
          done += bytesRead;
        }
        res.end(done === size ? bytes : bytes.subarray(0, done));
        return true;
      }
      const stream = handle.createReadStream({ start: 0, end: size - 1, autoClose: false });
      await new Promise<void>((done) => {
        stream.on('error', () => res.destroy());
        res.on('close', () => {
          stream.destroy();
          done();
        });
        stream.pipe(res);
      });
      return true;
    } finally {
      await handle.close();
    }
  };

  const serveFile = async (
    folder: FolderListing,
    base: string,
    name: string,
    res: ServerResponse,
    head: boolean,
  ) => {
    // Look the name up in the listing; never join it onto the root. A name
    // missing, or a file replaced since the listing was made (a log rewritten
    // by rename), gets one look at a newer listing.
    for (let attempt = 0; attempt < 2; attempt++) {
      const listed = await folder.names(attempt === 0 ? undefined : MISSING_REFRESH_MS);
      const id = listed.files.get(name);
      if (id === undefined) continue;
      const path = join(base, ...name.split('/'));
      if (!path.startsWith(base + sep)) break;
      if (await streaming(() => sendFile(path, name, id, res, head))) return;
    }
    notFound(res);
  };

  const serveStatic = async (pathname: string, res: ServerResponse, head: boolean) => {
    if (viewerDir === null) {
      if (pathname === '/' || pathname === '/index.html')
        return send(res, 200, NOT_BUILT, TYPES['.html'], PAGE_HEADERS);
      return notFound(res);
    }
    let rel: string;
    try {
      rel = decodeURIComponent(pathname === '/' ? '/index.html' : pathname);
    } catch {
      return send(res, 400, 'Bad path\n');
    }
    const base = resolve(viewerDir);
    const path = resolve(base, `.${rel}`);
    if (rel.includes('\0') || (path !== base && !path.startsWith(base + sep))) return notFound(res);
    let opened;
    try {
      opened = await openRegularFile(path);
    } catch {
      return notFound(res);
    }
    const { handle, stats } = opened;
    res.writeHead(200, {
      ...PAGE_HEADERS,
      'Content-Type': TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream',
      'Content-Length': Number(stats.size),
    });
    if (head || stats.size === 0n) {
      res.end();
      return void (await handle.close());
    }
    const stream = handle.createReadStream();
    stream.on('error', () => res.destroy());
    res.on('close', () => stream.destroy());
    stream.pipe(res);
  };

  const watchList = (folder: FolderListing, req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(200, {
      ...API_HEADERS,
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
    });
    clients.add(res);
    req.on('close', () => {
      clients.delete(res);
      // With no one watching, a change need not be described at once.
      if (clients.size === 0) {
        unsubscribe?.();
        unsubscribe = null;
      }
    });
    unsubscribe ??= folder.subscribe(announce);
    folder.get().then(
      (current) => {
        if (clients.has(res)) tell(res, `event: list\ndata: ${current.body}\n\n`);
      },
      (e: unknown) => res.write(`event: error\ndata: ${JSON.stringify((e as Error).message)}\n\n`),
    );
  };

  const handler = ((req: IncomingMessage, res: ServerResponse) => {
    if (!hostAllowed(req.headers.host)) return send(res, HOST_REFUSED.status, HOST_REFUSED.body);
    const release = cap.take();
    if (release === null) {
      const busy = cap.busy();
      res.setHeader('Retry-After', busy.headers['Retry-After']!);
      return send(res, busy.status, busy.body);
    }
    res.once('close', release);
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
    if (rawPath.startsWith('/api/')) {
      if (listing === null || root === null) return notFound(res);
      if (rawPath === '/api/list') {
        listing.get().then((current) => send(res, 200, current.body, TYPES['.json']), fail);
        return;
      }
      if (rawPath === '/api/list/watch') return watchList(listing, req, res);
      if (rawPath.startsWith('/api/file/')) {
        let name: string;
        try {
          name = decodeURIComponent(rawPath.slice('/api/file/'.length));
        } catch {
          return notFound(res);
        }
        serveFile(listing, root, name, res, head).catch(fail);
        return;
      }
      return notFound(res);
    }
    serveStatic(rawPath, res, head).catch(fail);
  }) as ViewHandler;

  handler.close = () => {
    unsubscribe?.();
    listing?.close();
    for (const res of clients) res.end();
    clients.clear();
  };
  return handler;
}
