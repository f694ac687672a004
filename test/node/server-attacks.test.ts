// The attack list of skein's local servers, run against real servers on
// loopback: what a hostile page (DNS rebinding, framing, traversal), a
// hostile folder (links, FIFOs, huge files, odd names) and a greedy client
// (floods, readers that stop, hundreds of replays) can do to `skein serve`,
// `skein view` and the live handlers (SSE, WebSocket, Fetch). Every case here
// once worked against an earlier server, or is the neighbour of one that did;
// a server change is tried against all of it.
import { execFileSync, spawn } from 'node:child_process';
import {
  closeSync,
  copyFileSync,
  ftruncateSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import type { Duplex } from 'node:stream';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { connectEventStream, EventStream, type SequencedSource } from '../../src/index.js';
import {
  createEventStreamFetchHandler,
  createEventStreamHandler,
  createEventStreamWebSocketHandler,
  createViewHandler,
  describeLogFile,
  runCli,
  type ViewHandlerOptions,
} from '../../src/server.js';
import { liveEvents, until } from './helpers/live.js';

const fixture = (p: string) => fileURLToPath(new URL(`../fixtures/${p}`, import.meta.url));
const SECRET = 'root:x:0:0:the secret outside the folder\n';

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `skein-attack-${prefix}-`));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A folder with two logs, and a secret file next to it (outside it). */
function folder(): { dir: string; secret: string } {
  const base = tempDir('folder');
  const dir = join(base, 'logs');
  mkdirSync(dir);
  copyFileSync(fixture('acp/session.jsonl'), join(dir, 'session.jsonl'));
  copyFileSync(fixture('claude-code/session.jsonl'), join(dir, 'claude.jsonl'));
  const secret = join(base, 'secret.txt');
  writeFileSync(secret, SECRET);
  return { dir, secret };
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A raw request: path and Host sent exactly as given (fetch would normalise both). */
function get(
  port: number,
  path: string,
  headers: Record<string, string> = {},
  timeoutMs = 10_000,
): Promise<Answer> {
  return new Promise((ok, fail) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        agent: false,
        headers: { host: `127.0.0.1:${port}`, ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          ok({
            status: res.statusCode!,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        );
        res.on('error', fail);
      },
    );
    req.setTimeout(timeoutMs, () =>
      req.destroy(new Error(`no answer to ${path} in ${timeoutMs} ms`)),
    );
    req.on('error', fail);
    req.end();
  });
}

/** The first bytes of a streaming answer (SSE), then the connection is dropped. */
function peek(port: number, path: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((ok, fail) => {
    const req = http.request({ host: '127.0.0.1', port, path, agent: false, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      const done = () => {
        req.destroy();
        ok({ status: res.statusCode!, headers: res.headers, body });
      };
      if (res.statusCode !== 200) {
        res.on('data', (c: string) => (body += c));
        res.on('end', done);
        return;
      }
      res.on('data', (c: string) => {
        body += c;
        if (body.includes('event: live')) done();
      });
    });
    req.on('error', fail);
    req.end();
  });
}

async function listen(
  listener: http.RequestListener,
  upgrade?: (req: IncomingMessage, socket: Duplex, head: Buffer) => void,
): Promise<{ server: http.Server; port: number }> {
  const server = http.createServer(listener);
  if (upgrade) server.on('upgrade', upgrade);
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  cleanups.push(
    () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  );
  return { server, port: (server.address() as AddressInfo).port };
}

async function viewServer(options: ViewHandlerOptions) {
  const handler = createViewHandler({ viewerDir: null, ...options });
  const { server, port } = await listen(handler);
  cleanups.push(() => handler.close());
  return { handler, server, port };
}

/** `skein <command> …` in-process, until it prints its URL. */
async function cli(args: string[]) {
  const abort = new AbortController();
  let out = '';
  let err = '';
  const done = runCli([...args, '--port', '0'], {
    stdout: (s) => (out += s),
    stderr: (s) => (err += s),
    signal: abort.signal,
    viewerDir: null,
  });
  cleanups.push(() => {
    abort.abort();
    return done;
  });
  await until(() => out.includes('http://') || err !== '', 'the server to listen');
  if (err !== '') throw new Error(err);
  const url = new URL(/http:\/\/\S+/.exec(out)![0]);
  return { url, port: Number(url.port) };
}

/** A Fetch handler on a node:http server, as Hono's and Next's Node adapters mount one. */
function fetchListener(handler: (request: Request) => Promise<Response>): http.RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    const abort = new AbortController();
    res.on('close', () => abort.abort());
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
    const request = new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, {
      method: req.method ?? 'GET',
      headers,
      signal: abort.signal,
    });
    void (async () => {
      const response = await handler(request);
      res.writeHead(response.status, Object.fromEntries(response.headers));
      if (response.body === null) return void res.end();
      const reader = response.body.getReader();
      try {
        for (let r = await reader.read(); !r.done; r = await reader.read()) res.write(r.value);
        res.end();
      } catch {
        res.destroy();
      }
    })();
  };
}

function writeServeLog(): string {
  const t = (ms: number) => new Date(Date.UTC(2026, 2, 1, 10) + ms).toISOString();
  const events = [
    { event: 'info', uuid: 'a', timestamp: t(0), data: 'the run' },
    { event: 'info', uuid: 'b', timestamp: t(100), data: 'API_KEY=s3cret' },
  ];
  const file = join(tempDir('serve'), 'run.jsonl');
  writeFileSync(file, events.map((e) => JSON.stringify(e)).join('\n') + '\n');
  return file;
}

describe('a hostile page: DNS rebinding (a foreign Host) is refused by every server', () => {
  const evil = (port: number) => ({
    host: `evil.example:${port}`,
    origin: `http://evil.example:${port}`,
  });

  it('skein serve: 421 for a foreign Host, even with a matching Origin; loopback names served', async () => {
    const s = await cli(['serve', writeServeLog()]);
    const refused = await peek(s.port, '/', evil(s.port));
    expect(refused.status).toBe(421);
    expect(refused.body).not.toContain('s3cret');
    for (const host of [`127.0.0.1:${s.port}`, `localhost:${s.port}`, `[::1]:${s.port}`]) {
      const ok = await peek(s.port, '/', { host });
      expect(ok.status, host).toBe(200);
      expect(ok.body).toContain('s3cret');
    }
  });

  it('createEventStreamHandler: 421 by default, the allowedHosts names served', async () => {
    const stream = EventStream.from(liveEvents(10));
    const plain = await listen(createEventStreamHandler(stream));
    expect((await peek(plain.port, '/', evil(plain.port))).status).toBe(421);
    for (const host of ['evil.example', 'localhost.evil.example', '127.0.0.1.evil.example', 'x'])
      expect((await peek(plain.port, '/', { host })).status, host).toBe(421);
    const named = await listen(
      createEventStreamHandler(stream, { allowedHosts: ['runs.example.com', '.corp.example'] }),
    );
    for (const host of [
      'runs.example.com',
      'RUNS.example.com:443',
      'a.corp.example',
      'corp.example',
    ])
      expect((await peek(named.port, '/', { host })).status, host).toBe(200);
    expect((await peek(named.port, '/', evil(named.port))).status).toBe(421);
  });

  it('the WebSocket form refuses the upgrade with 421', async () => {
    const stream = EventStream.from(liveEvents(10));
    const { port } = await listen(() => {}, createEventStreamWebSocketHandler(stream));
    const status = (headers: Record<string, string>) =>
      new Promise<number>((ok, fail) => {
        const ws = new WebSocket(`ws://127.0.0.1:${port}/`, { headers });
        ws.on('unexpected-response', (_req, res) => {
          ok(res.statusCode!);
          ws.terminate();
        });
        ws.on('open', () => {
          ok(101);
          ws.close();
        });
        ws.on('error', fail);
      });
    expect(await status(evil(port))).toBe(421);
    expect(await status({})).toBe(101);
  });

  it('the Fetch form refuses with 421 (mounted on a Node server)', async () => {
    const stream = EventStream.from(liveEvents(10));
    const { port } = await listen(fetchListener(createEventStreamFetchHandler(stream)));
    expect((await peek(port, '/', evil(port))).status).toBe(421);
    expect((await peek(port, '/', { host: `127.0.0.1:${port}` })).status).toBe(200);
  });

  it('skein view: 421, and no CORS for other origins', async () => {
    const { dir } = folder();
    const s = await cli(['view', dir]);
    expect((await get(s.port, '/api/list', evil(s.port))).status).toBe(421);
    const cross = await get(s.port, '/api/list', { origin: 'https://evil.example' });
    expect(cross.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('a hostile page: traversal, framing, hostile ids', () => {
  const TRAVERSALS = [
    '../secret.txt',
    '..%2Fsecret.txt',
    '..%2fsecret.txt',
    '%2e%2e%2fsecret.txt',
    '%2E%2E%2Fsecret.txt',
    '%252e%252e%252fsecret.txt',
    '..%5csecret.txt',
    '..\\secret.txt',
    '%2e%2e%5csecret.txt',
    '....//secret.txt',
    '..%2F..%2F..%2F..%2Fetc%2Fpasswd',
    '%2Fetc%2Fpasswd',
    '/etc/passwd',
    '%2F%2Fetc%2Fpasswd',
    'C:%5CWindows%5Cwin.ini',
    'session.jsonl%00.txt',
    'session.jsonl%00',
    '%00',
    '.',
    '..',
    '%2e',
    '%2e%2e',
    '',
    '%',
    '%zz',
    '%C0%AE%C0%AE%2Fsecret.txt',
    '%E0%80%AE%E0%80%AE%2Fsecret.txt',
    '%u002e%u002e%2fsecret.txt',
    'session.jsonl%2F..%2F..%2Fsecret.txt',
    'session.jsonl/../../secret.txt',
    './session.jsonl',
    '.%2Fsession.jsonl',
    'SESSION.JSONL',
    'session.jsonl%20',
    'session.jsonl.',
    'session.jsonl%3F',
    'session.jsonl#x',
  ];

  it('view <dir>: every traversal of /api/file and of the page path answers 404 (or 400), never a byte outside', async () => {
    const { dir } = folder();
    const s = await cli(['view', dir]);
    for (const name of TRAVERSALS) {
      const a = await get(s.port, `/api/file/${name}`);
      expect([400, 404], name).toContain(a.status);
      expect(a.body).not.toContain('the secret');
      const page = await get(s.port, `/${name}`);
      expect(page.body).not.toContain('the secret');
    }
    expect((await get(s.port, '/api/file/session.jsonl')).status).toBe(200);
  });

  it('view pages carry a CSP, may not be framed and send no referrer; API answers too', async () => {
    const { dir } = folder();
    const s = await cli(['view', dir]);
    const page = await get(s.port, '/');
    const csp = String(page.headers['content-security-policy']);
    for (const directive of [
      "script-src 'self'",
      "object-src 'none'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
      'connect-src',
    ])
      expect(csp, directive).toContain(directive);
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    for (const path of ['/api/list', '/api/file/session.jsonl', '/api/file/nothing']) {
      const api = await get(s.port, path);
      expect(api.headers['x-frame-options'], path).toBe('DENY');
      expect(api.headers['x-content-type-options'], path).toBe('nosniff');
      expect(String(api.headers['content-security-policy']), path).toContain("default-src 'none'");
    }
  });

  it('live handlers: hostile Last-Event-ID and ?from= values start the client over, nothing breaks', async () => {
    const stream = EventStream.from(liveEvents(20));
    const { port } = await listen(createEventStreamHandler(stream));
    const hostile = [
      'x'.repeat(10_000),
      '::::',
      '-1',
      '1e309',
      '99999999999999999999',
      '__proto__',
      `other:${'9'.repeat(15)}`,
      '%00',
      '0x10',
    ];
    for (const id of hostile) {
      const a = await peek(port, '/', { host: `127.0.0.1:${port}`, 'last-event-id': id });
      expect(a.status, id).toBe(200);
      expect(a.body).toContain('event: live');
      const q = await peek(port, `/?from=${encodeURIComponent(id)}`, { host: `127.0.0.1:${port}` });
      expect(q.status, id).toBe(200);
    }
  });
});

describe('view serves exactly what it was given', () => {
  it('view <url> serves no folder: a secret in the working directory stays unread', async () => {
    const cwd = tempDir('cwd');
    writeFileSync(join(cwd, 'secret.jsonl'), `{"token":"${SECRET.trim()}"}\n`);
    const before = process.cwd();
    process.chdir(cwd);
    cleanups.push(() => process.chdir(before));
    for (const args of [['https://example.org/run.eval'], ['http://127.0.0.1:1/', '--live']]) {
      const s = await cli(['view', ...args]);
      for (const path of ['/api/list', '/api/list/watch', '/api/file/secret.jsonl']) {
        const a = await get(s.port, path);
        expect(a.status, path).toBe(404);
        expect(a.body).not.toContain('secret');
      }
    }
  });

  it('view <file> serves that file alone, not its neighbours', async () => {
    const { dir } = folder();
    const s = await cli(['view', join(dir, 'session.jsonl')]);
    expect((await get(s.port, '/api/file/session.jsonl')).status).toBe(200);
    expect((await get(s.port, '/api/file/claude.jsonl')).status).toBe(404);
    const list = JSON.parse((await get(s.port, '/api/list')).body) as { logs: { name: string }[] };
    expect(list.logs.map((l) => l.name)).toEqual(['session.jsonl']);
  });
});

describe('a hostile folder: links, FIFOs, swaps', () => {
  it('file mode: the log swapped for a symlink to a secret is not served', async () => {
    const { dir, secret } = folder();
    const s = await cli(['view', join(dir, 'session.jsonl')]);
    expect((await get(s.port, '/api/file/session.jsonl')).status).toBe(200);
    unlinkSync(join(dir, 'session.jsonl'));
    symlinkSync(secret, join(dir, 'session.jsonl'));
    const a = await get(s.port, '/api/file/session.jsonl');
    expect(a.status).toBe(404);
    expect(a.body).not.toContain('the secret');
  });

  it('folder mode: a listed log swapped back and forth with a symlink never serves the secret', async () => {
    const { dir, secret } = folder();
    const s = await viewServer({ root: dir, debounceMs: 20 });
    const log = join(dir, 'session.jsonl');
    expect((await get(s.port, '/api/file/session.jsonl')).status).toBe(200);
    // Another process swaps the log for a link to the secret and back, by
    // rename (atomic), as fast as it can: the race an attacker would run.
    const swapper = spawn(
      process.execPath,
      [
        '-e',
        `const fs = require('node:fs');
         const [log, secret, real] = process.argv.slice(1);
         fs.copyFileSync(log, real);
         for (let i = 0; ; i++) {
           fs.symlinkSync(secret, log + '.l' + i);
           fs.renameSync(log + '.l' + i, log);
           fs.copyFileSync(real, log + '.r' + i);
           fs.renameSync(log + '.r' + i, log);
         }`,
        log,
        secret,
        join(dir, '.real'),
      ],
      { stdio: 'ignore' },
    );
    cleanups.push(() => swapper.kill('SIGKILL'));
    let served = 0;
    for (let round = 0; round < 20; round++) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => get(s.port, '/api/file/session.jsonl')),
      );
      for (const a of answers) {
        expect(a.body).not.toContain('the secret');
        if (a.status === 200) served++;
      }
    }
    swapper.kill('SIGKILL');
    expect(served).toBeGreaterThan(0); // the real log is still served between swaps
  });

  it.each(['file', 'folder'])(
    '%s mode: a FIFO swapped in is never waited on; every route keeps answering',
    async (mode) => {
      const { dir } = folder();
      const log = join(dir, 'session.jsonl');
      const s = await viewServer(
        mode === 'file' ? { root: dir, file: 'session.jsonl' } : { root: dir },
      );
      expect((await get(s.port, '/api/file/session.jsonl')).status).toBe(200);
      unlinkSync(log);
      execFileSync('mkfifo', [log]);
      // More than libuv's 4 file-system threads: a blocking open would hang them all.
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => get(s.port, '/api/file/session.jsonl', {}, 5000)),
      );
      for (const a of answers) expect(a.status).toBe(404);
      expect((await get(s.port, '/api/list', {}, 5000)).status).toBe(200);
      if (mode === 'folder')
        expect((await get(s.port, '/api/file/claude.jsonl', {}, 5000)).status).toBe(200);
    },
  );

  it('a listed log that is a symlink or a FIFO from the start is described, never read', async () => {
    const { dir, secret } = folder();
    symlinkSync(secret, join(dir, 'link.jsonl'));
    execFileSync('mkfifo', [join(dir, 'pipe.jsonl')]);
    const s = await viewServer({ root: dir });
    const list = JSON.parse((await get(s.port, '/api/list', {}, 5000)).body) as {
      logs: { name: string }[];
    };
    expect(list.logs.map((l) => l.name).sort()).toEqual(['claude.jsonl', 'session.jsonl']);
    for (const name of ['link.jsonl', 'pipe.jsonl'])
      expect((await get(s.port, `/api/file/${name}`, {}, 5000)).status).toBe(404);
    const described = await Promise.race([
      describeLogFile(dir, join(dir, 'pipe.jsonl')),
      new Promise((_, fail) =>
        setTimeout(() => fail(new Error('describe waited on a FIFO')), 5000),
      ),
    ]);
    expect(described).toMatchObject({ format: null, error: expect.stringMatching(/named pipe/) });
  });

  it('any file name is served, with an RFC 5987 filename*', async () => {
    const { dir } = folder();
    const names = [
      '日本.jsonl',
      'quote"back\\slash.jsonl',
      "it's 100% (done).jsonl",
      'tab\tname.jsonl',
    ];
    for (const name of names) copyFileSync(fixture('acp/session.jsonl'), join(dir, name));
    const s = await viewServer({ root: dir });
    for (const name of names) {
      const a = await get(s.port, `/api/file/${encodeURIComponent(name)}`);
      expect(a.status, name).toBe(200);
      const disposition = String(a.headers['content-disposition']);
      const star = /filename\*=UTF-8''([^;\s]+)/.exec(disposition)?.[1];
      expect(star && decodeURIComponent(star), name).toBe(name);
      expect(/filename="([^"]*)"/.exec(disposition)?.[1]).toMatch(/^[\x20-\x7e]+$/);
    }
  });
});

describe('a hostile folder: work and memory per request stay bounded', () => {
  it('a 1 GiB non-log .json is not read whole, even by four requests at once', async () => {
    const dir = tempDir('huge');
    // Sparse: 1 GiB on paper, a few bytes on disk. Its head tells nothing.
    const fd = openSync(join(dir, 'huge.json'), 'w');
    writeSync(fd, '{"blob": "');
    ftruncateSync(fd, 2 ** 30);
    closeSync(fd);
    copyFileSync(fixture('acp/session.jsonl'), join(dir, 'session.jsonl'));
    const s = await viewServer({ root: dir });
    const rss0 = process.memoryUsage().rss;
    let peak = rss0;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    try {
      const answers = await Promise.all(
        Array.from({ length: 4 }, () => get(s.port, '/api/list', {}, 30_000)),
      );
      for (const a of answers) expect(a.status).toBe(200);
      const list = JSON.parse(answers[0]!.body) as { logs: { name: string; error?: string }[] };
      expect(list.logs.find((l) => l.name === 'huge.json')?.error).toMatch(/not read whole/);
    } finally {
      clearInterval(sampler);
    }
    expect((peak - rss0) / 2 ** 20).toBeLessThan(200);
  });

  it('whole-file detection is shared by concurrent askers: a file is read once, not four times', async () => {
    const dir = tempDir('share');
    const path = join(dir, 'doc.json');
    // 8 MiB of JSON whose head does not tell what it is (under the cap: read whole).
    const size = 8 * 2 ** 20;
    writeFileSync(path, `{"pad": "${'x'.repeat(size)}", "k": 1}`);
    // Bytes this process read through read(2), files and sockets alike (Linux).
    const readBytes = () => Number(/rchar: (\d+)/.exec(readFileSync('/proc/self/io', 'utf8'))![1]);
    const before = readBytes();
    const all = await Promise.all(Array.from({ length: 4 }, () => describeLogFile(dir, path)));
    for (const e of all) expect(e.format).toBeNull();
    expect(readBytes() - before).toBeLessThan(2 * size);
  });

  it('50 watch clients that stop reading are dropped; a reading one keeps its updates', async () => {
    const dir = tempDir('watch');
    // A listing of ~130 kB, announced after every change.
    for (let i = 0; i < 300; i++)
      writeFileSync(join(dir, `${String(i).padStart(3, '0')}-${'n'.repeat(170)}.jsonl`), '{}\n');
    const s = await viewServer({ root: dir, debounceMs: 5 });
    const idle: net.Socket[] = [];
    for (let i = 0; i < 50; i++) {
      const socket = net.connect(s.port, '127.0.0.1');
      socket.on('error', () => {});
      socket.write(`GET /api/list/watch HTTP/1.1\r\nHost: 127.0.0.1:${s.port}\r\n\r\n`);
      socket.pause(); // never reads
      idle.push(socket);
      cleanups.push(() => socket.destroy());
    }
    let lists = 0;
    const reader = http.get(
      { host: '127.0.0.1', port: s.port, path: '/api/list/watch', agent: false },
      (res) =>
        res.on('data', (c: Buffer) => (lists += c.toString().split('event: list').length - 1)),
    );
    cleanups.push(() => reader.destroy());
    const connections = () =>
      new Promise<number>((ok) => s.server.getConnections((_e, n) => ok(n)));
    await until(() => lists >= 1, 'the first list');
    const heap0 = process.memoryUsage().heapUsed;
    let touches = 0;
    const deadline = Date.now() + 40_000;
    while ((await connections()) > 1) {
      if (Date.now() > deadline) throw new Error(`still ${await connections()} connections`);
      const t = 1_700_000_000 + touches++;
      utimesSync(join(dir, `000-${'n'.repeat(170)}.jsonl`), t, t);
      await new Promise((r) => setTimeout(r, 25));
    }
    const seen = lists;
    utimesSync(join(dir, `001-${'n'.repeat(170)}.jsonl`), 1, 1);
    await until(() => lists > seen, 'an update to the reading client');
    expect((process.memoryUsage().heapUsed - heap0) / 2 ** 20).toBeLessThan(100);
  }, 60_000);

  it('requests past maxConnections get 503 with Retry-After, and are served again once some end', async () => {
    const { dir } = folder();
    const s = await viewServer({ root: dir, maxConnections: 3 });
    const sockets: net.Socket[] = [];
    for (let i = 0; i < 3; i++) {
      const socket = net.connect(s.port, '127.0.0.1');
      socket.write(`GET /api/list/watch HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
      sockets.push(socket);
      await new Promise((r) => socket.once('data', r));
    }
    const refused = await get(s.port, '/api/list');
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBeDefined();
    expect(refused.body).toMatch(/Too many connections/);
    sockets[0]!.destroy();
    await until(() => sockets[0]!.destroyed, 'the close');
    await new Promise((r) => setTimeout(r, 50));
    expect((await get(s.port, '/api/list')).status).toBe(200);
    for (const socket of sockets) socket.destroy();
  });
});

describe('a greedy client: the live handlers', () => {
  it('serializes a history once for 500 clients, not once per client', async () => {
    const count = 200;
    const calls = new Map<string, number>();
    const values = Array.from({ length: count }, (_, i) => {
      const seq = String(i + 1);
      return {
        event: 'info',
        uuid: `e${i}`,
        timestamp: new Date(Date.UTC(2026, 0, 1) + i).toISOString(),
        data: `line ${i}`,
        toJSON() {
          calls.set(seq, (calls.get(seq) ?? 0) + 1);
          return { event: this.event, uuid: this.uuid, timestamp: this.timestamp, data: this.data };
        },
      };
    });
    const source: SequencedSource = {
      streamId: 'fanout',
      async read(after, { limit, wait, signal }) {
        const start = after === null ? 0 : Number(after);
        if (start >= count) {
          if (!wait) return [];
          await new Promise<void>((ok) =>
            signal?.addEventListener('abort', () => ok(), { once: true }),
          );
          return [];
        }
        return values
          .slice(start, start + limit)
          .map((value, k) => ({ seq: String(start + k + 1), value }));
      },
    };
    const handler = createEventStreamHandler(source, { compression: false, batchSize: 64 });
    const { port } = await listen(handler);
    const clients = 500;
    const done = await Promise.all(
      Array.from({ length: clients }, () => peek(port, '/', { host: `127.0.0.1:${port}` })),
    );
    for (const a of done) expect(a.body).toContain(`id: fanout:${count}\n`);
    expect(calls.size).toBe(count);
    expect(Math.max(...calls.values())).toBe(1);
    await handler.close();
  }, 60_000);

  it('refuses connections past maxConnections with 503 and Retry-After (SSE, WebSocket)', async () => {
    const stream = EventStream.from(liveEvents(5));
    const sse = createEventStreamHandler(stream, { maxConnections: 2 });
    const ws = createEventStreamWebSocketHandler(stream, {
      maxConnections: 1,
    });
    const { port } = await listen(sse, ws);
    const url = `http://127.0.0.1:${port}/`;
    const a = connectEventStream(url);
    const b = connectEventStream(url);
    cleanups.push(
      () => a.close(),
      () => b.close(),
    );
    await until(() => sse.connections === 2, 'two connections');
    const third = await peek(port, '/', { host: `127.0.0.1:${port}` });
    expect(third.status).toBe(503);
    expect(third.headers['retry-after']).toBe('5');
    expect(third.body).toMatch(/Too many connections/);
    a.close();
    await until(() => sse.connections === 1, 'one closed');
    expect((await peek(port, '/', { host: `127.0.0.1:${port}` })).status).toBe(200);

    const first = new WebSocket(`ws://127.0.0.1:${port}/`);
    cleanups.push(() => first.terminate());
    await new Promise((ok) => first.once('open', ok));
    const second = await new Promise<number>((ok) => {
      const w = new WebSocket(`ws://127.0.0.1:${port}/`);
      w.on('unexpected-response', (_req, res) => ok(res.statusCode!));
      w.on('open', () => ok(101));
      w.on('error', () => {});
    });
    expect(second).toBe(503);
  });
});
