// `skein bundle`: a folder of logs as a static site, served by a plain static
// file server (no skein code, no headers of ours) and opened in Chromium: it
// lists the logs as `skein view <dir>` does, opens one, and asks the host for
// nothing but its own files (no watch stream).
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumArgs, chromiumPath } from '../../scripts/chromium.mjs';
import { runCli } from '../../src/server.js';

const fixture = (p: string) => fileURLToPath(new URL(`../fixtures/${p}`, import.meta.url));
const WAIT = { timeout: 30_000, interval: 100 };
const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
};

let viewerDir: string;
let work: string;
let browser: Browser;
let server: http.Server;
let base: string;
const served: string[] = [];

beforeAll(async () => {
  viewerDir = mkdtempSync(join(tmpdir(), 'skein-bundle-viewer-'));
  await build({
    configFile: fileURLToPath(new URL('../../viewer/vite.config.ts', import.meta.url)),
    build: { outDir: viewerDir, emptyOutDir: true },
    logLevel: 'silent',
  });
  work = mkdtempSync(join(tmpdir(), 'skein-bundle-'));
  const logs = join(work, 'logs');
  mkdirSync(join(logs, 'task a'), { recursive: true });
  copyFileSync(fixture('acp/session.jsonl'), join(logs, 'session.jsonl'));
  copyFileSync(fixture('inspect/zstd-zip64.eval'), join(logs, 'task a', 'run 1.eval'));
  writeFileSync(join(logs, 'notes.json'), '{"todo": []}');

  // A plain static server: files under the site, by path, and 404 otherwise.
  const site = join(work, 'site');
  server = http.createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url!, 'http://x').pathname);
    served.push(path);
    const file = normalize(join(site, path.endsWith('/') ? `${path}index.html` : path));
    if (!file.startsWith(site) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((ok) => server?.close(ok));
  rmSync(viewerDir, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

describe('skein bundle', () => {
  it('writes a static site that lists and opens the logs like skein view', async () => {
    let err = '';
    const code = await runCli(['bundle', join(work, 'logs'), '-o', join(work, 'site')], {
      stdout: () => {},
      stderr: (t) => (err += t),
      viewerDir,
    });
    expect(code).toBe(0);
    expect(err).toContain('left out notes.json');
    expect(err).toContain('(2 logs)');
    const list = JSON.parse(readFileSync(join(work, 'site', 'list.json'), 'utf8'));
    expect(list.logs.map((l: { url: string }) => l.url).sort()).toEqual([
      'logs/session.jsonl',
      'logs/task%20a/run%201.eval',
    ]);

    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${base}/`);
    const listing = page.getByRole('table', { name: 'Logs in the folder' });
    await expect
      .poll(() => listing.getByRole('button').allTextContents(), WAIT)
      .toEqual(expect.arrayContaining(['session.jsonl', 'task a/run 1.eval']));
    await listing.getByRole('button', { name: 'task a/run 1.eval' }).click();
    await page
      .getByRole('table', { name: 'Samples' })
      .getByRole('button', { name: 'two', exact: true })
      .click(WAIT);
    await page.locator('article[data-event-id="two-1-e3"]').waitFor(WAIT);
    expect(page.url()).toContain('sample=two');
    expect(errors).toEqual([]);
    // Only the site's own files were asked for: no watch stream, no API.
    expect(served.filter((p) => p.includes('watch') || p.startsWith('/api'))).toEqual([]);
    await page.close();
  }, 120_000);

  it('says what is missing: the output, a folder', async () => {
    const cli = (args: string[]) => runCli(args, { stdout: () => {}, stderr: () => {}, viewerDir });
    expect(await cli(['bundle', join(work, 'logs')])).toBe(1);
    expect(await cli(['bundle', fixture('acp/session.jsonl'), '-o', join(work, 'x')])).toBe(2);
  });
});
