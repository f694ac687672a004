// `skein view` (issue 22): the server the viewer page relies on
// (docs/viewer-api.md): the listing, the watch stream, raw files, path
// traversal refused, the DNS-rebinding guard, no CORS. The viewer page itself
// is not needed: these run with and without a stand-in build.
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli, type CliIO } from '../../src/server.js';
import { until } from './helpers/live.js';

const fixture = (p: string) => fileURLToPath(new URL(`../fixtures/${p}`, import.meta.url));

function logFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'skein-view-'));
  copyFileSync(fixture('inspect/zstd-zip64.eval'), join(dir, 'run.eval'));
  copyFileSync(fixture('acp/session.jsonl'), join(dir, 'session.jsonl'));
  mkdirSync(join(dir, 'nested'));
  copyFileSync(
    fixture('jupyter/agent notebook.ipynb'),
    join(dir, 'nested', 'agent notebook.ipynb'),
  );
  writeFileSync(join(dir, 'notes.json'), '{"todo": []}');
  writeFileSync(join(dir, 'README.md'), '# not a log');
  writeFileSync(join(dir, '.secret.jsonl'), '{"token": "s3cret"}\n');
  const names = ['run.eval', 'session.jsonl', 'nested/agent notebook.ipynb', 'notes.json'];
  names.forEach((n, i) => utimesSync(join(dir, n), 1_700_000_000 + i * 60, 1_700_000_000 + i * 60));
  return dir;
}

async function view(args: string[], extra: Partial<CliIO> = {}) {
  const abort = new AbortController();
  let out = '';
  let err = '';
  const done = runCli(['view', ...args, '--port', '0'], {
    stdout: (s) => (out += s),
    stderr: (s) => (err += s),
    signal: abort.signal,
    viewerDir: null,
    ...extra,
  });
  await until(() => out.includes('http://') || err !== '', 'the server to listen');
  if (err !== '') throw new Error(err);
  const url = /http:\/\/\S+/.exec(out)![0];
  const origin = new URL(url).origin;
  return {
    url,
    origin,
    port: Number(new URL(url).port),
    stop: async () => {
      abort.abort();
      return done;
    },
  };
}

/** A raw request: the path is sent exactly as given (fetch would normalise `..`). */
function get(
  port: number,
  path: string,
  headers: Record<string, string> = {},
): Promise<{
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}> {
  return new Promise((ok, fail) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'GET',
        headers: { host: `127.0.0.1:${port}`, ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          ok({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      },
    );
    req.on('error', fail);
    req.end();
  });
}

interface ListBody {
  root: string;
  logs: {
    name: string;
    url: string;
    format: string | null;
    size: number;
    mtime: string;
    error?: string;
  }[];
}

describe('skein view <dir>', () => {
  it('prints the listing URL and serves /api/list, newest first', async () => {
    const dir = logFolder();
    const s = await view([dir]);
    try {
      expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?list=\/api\/list$/);
      const res = await fetch(`${s.origin}/api/list`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      const body = (await res.json()) as ListBody;
      expect(body.root).toBe(dir);
      expect(body.logs.map((l) => [l.name, l.format])).toEqual([
        ['notes.json', null],
        ['nested/agent notebook.ipynb', 'jupyter'],
        ['session.jsonl', 'acp'],
        ['run.eval', 'inspect'],
      ]);
      const notes = body.logs[0]!;
      expect(notes.error).toBe(
        'not a log skein can read: a JSON document: an object with keys "todo"',
      );
      const run = body.logs[3]!;
      expect(run).toEqual({
        name: 'run.eval',
        url: '/api/file/run.eval',
        format: 'inspect',
        size: statSync(join(dir, 'run.eval')).size,
        mtime: new Date(1_700_000_000 * 1000).toISOString(),
      });
      expect(body.logs[1]!.url).toBe('/api/file/nested%2Fagent%20notebook.ipynb');
    } finally {
      expect(await s.stop()).toBe(0);
    }
  });

  it('serves the raw bytes of a listed log, with Content-Length', async () => {
    const dir = logFolder();
    const s = await view([dir]);
    try {
      for (const name of ['run.eval', 'nested/agent notebook.ipynb']) {
        const res = await fetch(`${s.origin}/api/file/${encodeURIComponent(name)}`);
        expect(res.status).toBe(200);
        const bytes = new Uint8Array(await res.arrayBuffer());
        const want = new Uint8Array(readFileSync(join(dir, name)));
        expect(res.headers.get('content-length')).toBe(String(want.length));
        expect(res.headers.get('content-type')).toBe('application/octet-stream');
        expect(Buffer.from(bytes).equals(Buffer.from(want))).toBe(true);
      }
    } finally {
      await s.stop();
    }
  });

  it('refuses path traversal and anything not listed with 404', async () => {
    const dir = logFolder();
    writeFileSync(join(dir, '..', 'outside.json'), '{"version":2,"eval":{}}');
    const s = await view([dir]);
    try {
      for (const path of [
        '/api/file/../outside.json',
        '/api/file/..%2Foutside.json',
        '/api/file/..%2F..%2F..%2F..%2Fetc%2Fpasswd',
        '/api/file/%2Fetc%2Fpasswd',
        `/api/file/${encodeURIComponent(join(dir, 'run.eval'))}`,
        '/api/file/nested%2F..%2F..%2Foutside.json',
        '/api/file/..%5Coutside.json',
        '/api/file/README.md',
        '/api/file/.secret.jsonl',
        '/api/file/run.eval%00.json',
        '/api/file/%E0%A4%A',
        '/api/file/',
        '/api/nope',
        '/../package.json',
        '/%2e%2e/package.json',
      ]) {
        const res = await get(s.port, path);
        expect(res.status, path).toBe(404);
        expect(res.body.toString()).not.toContain('s3cret');
      }
    } finally {
      await s.stop();
    }
  });

  it('refuses non-loopback Host headers (DNS rebinding) and sends no CORS headers', async () => {
    const dir = logFolder();
    const s = await view([dir]);
    try {
      const evil = await get(s.port, '/api/list', { host: `attacker.example:${s.port}` });
      expect(evil.status).toBe(421);
      for (const host of [`localhost:${s.port}`, `127.0.0.1:${s.port}`, `[::1]:${s.port}`]) {
        expect((await get(s.port, '/api/list', { host })).status, host).toBe(200);
      }
      const cross = await get(s.port, '/api/list', { origin: 'https://attacker.example' });
      expect(cross.status).toBe(200);
      expect(cross.headers['access-control-allow-origin']).toBeUndefined();
      const post = await new Promise<number>((ok, fail) => {
        const req = request(
          { host: '127.0.0.1', port: s.port, path: '/api/list', method: 'POST' },
          (res) => {
            res.resume();
            ok(res.statusCode!);
          },
        );
        req.on('error', fail);
        req.end();
      });
      expect(post).toBe(405);
    } finally {
      await s.stop();
    }
  });

  it('--allowed-host adds names to answer to; * answers any', async () => {
    const named = await view([logFolder(), '--allowed-host', 'my-box.lan,.example.test']);
    try {
      for (const host of ['my-box.lan', 'a.example.test:8790', '192.168.1.9'])
        expect((await get(named.port, '/api/list', { host })).status, host).toBe(200);
      expect((await get(named.port, '/api/list', { host: 'other.lan' })).status).toBe(421);
    } finally {
      await named.stop();
    }
    const any = await view([logFolder(), '--host', '127.0.0.1', '--allowed-host', '*']);
    try {
      expect((await get(any.port, '/api/list', { host: 'other.lan' })).status).toBe(200);
    } finally {
      await any.stop();
    }
  });

  it('streams the listing over SSE: at connect, then when a log appears', async () => {
    const dir = logFolder();
    const s = await view([dir]);
    const abort = new AbortController();
    try {
      const res = await fetch(`${s.origin}/api/list/watch`, { signal: abort.signal });
      expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      let text = '';
      const lists: ListBody[] = [];
      const pump = (async () => {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          text += decoder.decode(value, { stream: true });
          let end;
          while ((end = text.indexOf('\n\n')) >= 0) {
            const block = text.slice(0, end);
            text = text.slice(end + 2);
            const data = /^data: (.*)$/m.exec(block)?.[1];
            if (/^event: list$/m.test(block) && data) lists.push(JSON.parse(data) as ListBody);
          }
        }
      })().catch(() => {});
      await until(() => lists.length >= 1, 'the first list', 10_000);
      expect(lists[0]!.logs).toHaveLength(4);
      copyFileSync(fixture('claude-code/session.jsonl'), join(dir, 'new-session.jsonl'));
      await until(
        () => lists.some((l) => l.logs.some((x) => x.name === 'new-session.jsonl')),
        'a list with the new log',
        20_000,
      );
      const last = lists.find((l) => l.logs.some((x) => x.name === 'new-session.jsonl'))!;
      expect(last.logs[0]).toMatchObject({ name: 'new-session.jsonl', format: 'claude-code' });
      abort.abort();
      await pump;
    } finally {
      await s.stop();
    }
  }, 40_000);

  it('serves a minimal page when the viewer is not built, the built page when it is', async () => {
    const dir = logFolder();
    const bare = await view([dir]);
    try {
      const res = await fetch(`${bare.origin}/`);
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toContain('The skein viewer is not built');
      expect(html).toContain('npm run build');
    } finally {
      await bare.stop();
    }
    const built = mkdtempSync(join(tmpdir(), 'skein-viewer-'));
    mkdirSync(join(built, 'assets'));
    writeFileSync(join(built, 'index.html'), '<!doctype html><title>viewer</title>');
    writeFileSync(join(built, 'assets', 'app.js'), 'export {};');
    const s = await view([dir], { viewerDir: built });
    try {
      const page = await fetch(`${s.origin}/?list=/api/list`);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await page.text()).toBe('<!doctype html><title>viewer</title>');
      const js = await fetch(`${s.origin}/assets/app.js`);
      expect(js.headers.get('content-type')).toMatch(/^text\/javascript/);
      expect((await get(s.port, '/assets/../../outside.json')).status).toBe(404);
      expect((await get(s.port, '/assets/%2e%2e%2f%2e%2e%2foutside.json')).status).toBe(404);
    } finally {
      await s.stop();
    }
  });
});

describe('skein view <file> and <url>', () => {
  it('a file: ?src=/api/file/<name>, and only that file is served', async () => {
    const dir = logFolder();
    const s = await view([join(dir, 'nested', 'agent notebook.ipynb')]);
    try {
      const src = new URL(s.url).searchParams.get('src')!;
      expect(src).toBe('/api/file/agent%20notebook.ipynb');
      expect(s.url).toMatch(/\?src=\/api\/file\/agent%2520notebook\.ipynb$/);
      const res = await fetch(`${s.origin}${src}`);
      expect(res.status).toBe(200);
      expect((await res.arrayBuffer()).byteLength).toBe(
        statSync(join(dir, 'nested', 'agent notebook.ipynb')).size,
      );
      const list = (await (await fetch(`${s.origin}/api/list`)).json()) as ListBody;
      expect(list.logs.map((l) => [l.name, l.format])).toEqual([
        ['agent notebook.ipynb', 'jupyter'],
      ]);
      expect((await get(s.port, '/api/file/..%2Frun.eval')).status).toBe(404);
    } finally {
      await s.stop();
    }
  });

  it('a URL: ?src=<url>, or ?live=<url> with --live; --open opens the printed URL', async () => {
    const opened: string[] = [];
    const a = await view(['https://example.org/logs/run.eval'], { openUrl: (u) => opened.push(u) });
    await a.stop();
    expect(new URL(a.url).searchParams.get('src')).toBe('https://example.org/logs/run.eval');
    expect(opened).toEqual([]);
    const b = await view(['http://127.0.0.1:8787/', '--live', '--open'], {
      openUrl: (u) => opened.push(u),
    });
    await b.stop();
    expect(new URL(b.url).searchParams.get('live')).toBe('http://127.0.0.1:8787/');
    expect(opened).toEqual([b.url]);
  });

  it('usage and input errors exit with their codes', async () => {
    let err = '';
    const io = { stdout: () => {}, stderr: (t: string) => (err += t) };
    expect(await runCli(['view', fixture('acp/session.jsonl'), '--live'], io)).toBe(1);
    expect(err).toContain('--live applies to a URL');
    expect(await runCli(['view', '/nonexistent/dir'], io)).toBe(3);
    expect(await runCli(['view', '-'], io)).toBe(1);
    expect(err).toContain('not standard input');
  });
});
