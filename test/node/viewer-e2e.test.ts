// End to end (issue 22): `skein view <folder>` started in-process on a folder
// of our fixtures, serving the viewer page built as `npm run build` builds it;
// Chromium opens the printed URL, clicks a log in the listing, a sample and an
// event, and the span tree and transcript follow one selection; the page
// follows the system colour scheme; under the server's Content-Security-Policy
// every renderer, the loader's worker and a live run of another origin work,
// and the page cannot be framed.
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumArgs, chromiumPath } from '../../scripts/chromium.mjs';
import { EventStream } from '../../src/index.js';
import { createEventStreamHandler, runCli } from '../../src/server.js';
import { until } from './helpers/live.js';

const fixture = (p: string) => fileURLToPath(new URL(`../fixtures/${p}`, import.meta.url));
const WAIT = { timeout: 30_000, interval: 100 };

let viewerDir: string;
let logs: string;
let browser: Browser;
let url: string;
let stop: () => Promise<number>;

beforeAll(async () => {
  viewerDir = mkdtempSync(join(tmpdir(), 'skein-viewer-build-'));
  await build({
    configFile: fileURLToPath(new URL('../../viewer/vite.config.ts', import.meta.url)),
    build: { outDir: viewerDir, emptyOutDir: true },
    logLevel: 'silent',
  });
  logs = mkdtempSync(join(tmpdir(), 'skein-viewer-logs-'));
  copyFileSync(fixture('inspect/zstd-zip64.eval'), join(logs, 'run.eval'));
  copyFileSync(fixture('acp/session.jsonl'), join(logs, 'session.jsonl'));

  const abort = new AbortController();
  let out = '';
  let err = '';
  const done = runCli(['view', logs, '--port', '0'], {
    stdout: (s) => (out += s),
    stderr: (s) => (err += s),
    signal: abort.signal,
    viewerDir,
  });
  await until(() => out.includes('http://') || err !== '', 'skein view to print its URL');
  if (err !== '') throw new Error(err);
  url = /http:\/\/\S+/.exec(out)![0];
  stop = () => {
    abort.abort();
    return done;
  };
  browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await stop?.();
  rmSync(viewerDir, { recursive: true, force: true });
  rmSync(logs, { recursive: true, force: true });
});

describe('skein view + the viewer page', () => {
  it('lists the folder, opens a log, selects a sample and an event; the views are linked', async () => {
    expect(url).toMatch(/\?list=/);
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(url);

    // The listing: both logs with their formats.
    const listing = page.getByRole('table', { name: 'Logs in the folder' });
    await expect
      .poll(() => listing.getByRole('button').allTextContents(), WAIT)
      .toEqual(expect.arrayContaining(['run.eval', 'session.jsonl']));
    expect(await listing.textContent()).toContain('inspect');

    // Open the .eval: the URL remembers it, the samples are listed.
    await listing.getByRole('button', { name: 'run.eval' }).click();
    expect(new URL(page.url()).searchParams.get('src')).toBe('/api/file/run.eval');
    const samples = page.getByRole('table', { name: 'Samples' });
    await samples.getByRole('button', { name: 'two', exact: true }).click(WAIT);
    const article = (uuid: string) => page.locator(`article[data-event-id="${uuid}"]`);
    await article('two-1-e3').waitFor(WAIT);
    expect(page.url()).toContain('sample=two');

    // An event in the transcript selects its span in the tree …
    await article('two-1-e3').click();
    const span = page.locator('[role="treegrid"] [data-key="s1"]');
    await expect.poll(() => span.getAttribute('aria-selected'), WAIT).toBe('true');
    expect(page.url()).toContain('event=two-1-e3');
    // … and the span in the tree selects its row in the transcript.
    await span.click();
    await expect.poll(() => article('two-1-e0').getAttribute('data-selected'), WAIT).not.toBeNull();

    // The deep link round-trips: a new page on the same URL shows the same sample and event.
    const again = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await again.goto(page.url());
    await again.locator('article[data-event-id="two-1-e0"]').waitFor(WAIT);
    await expect
      .poll(
        () => again.locator('article[data-event-id="two-1-e0"]').getAttribute('data-selected'),
        WAIT,
      )
      .not.toBeNull();
    expect(
      await again
        .getByRole('table', { name: 'Samples' })
        .getByRole('button', { name: 'two', exact: true })
        .getAttribute('aria-current'),
    ).toBe('true');
    expect(errors).toEqual([]);
    await again.close();
    await page.close();
  }, 120_000);

  it('serves an icon: /favicon.ico and the one the page links to', async () => {
    const base = new URL(url);
    const ico = await fetch(new URL('/favicon.ico', base));
    expect(ico.status).toBe(200);
    expect(ico.headers.get('content-type')).toBe('image/x-icon');
    const bytes = new Uint8Array(await ico.arrayBuffer());
    // An ICO directory (reserved 0, type 1) holding one image.
    expect([...bytes.subarray(0, 6)]).toEqual([0, 0, 1, 0, 1, 0]);
    const page = await browser.newPage({ viewport: { width: 390, height: 800 } });
    const missing: string[] = [];
    page.on('response', (r) => {
      if (r.status() >= 400) missing.push(`${r.status()} ${r.url()}`);
    });
    await page.goto(url);
    await page.getByRole('table', { name: 'Logs in the folder' }).waitFor(WAIT);
    const icons = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLLinkElement>('link[rel="icon"]')].map((l) => l.href),
    );
    expect(icons.length).toBeGreaterThan(0);
    for (const href of icons) {
      const r = await fetch(href);
      expect(r.status, href).toBe(200);
      expect(r.headers.get('content-type'), href).toMatch(/^image\//);
    }
    expect(missing).toEqual([]);
    await page.close();
  }, 60_000);

  it('follows the system colour scheme, light or dark', async () => {
    const look = async (colorScheme: 'light' | 'dark') => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, colorScheme });
      await page.goto(url);
      await page.getByRole('table', { name: 'Logs in the folder' }).waitFor(WAIT);
      const style = await page.evaluate(() => {
        const root = getComputedStyle(document.querySelector('.viewer')!);
        return { background: root.backgroundColor, color: root.color };
      });
      await page.close();
      return style;
    };
    const light = await look('light');
    const dark = await look('dark');
    expect(dark.background).not.toBe(light.background);
    expect(dark.color).not.toBe(light.color);
    // Dark is dark: its background is darker than its text, light the other way.
    const luminance = (rgb: string) =>
      rgb
        .match(/[\d.]+/g)!
        .slice(0, 3)
        .reduce((sum, c) => sum + Number(c), 0);
    expect(luminance(dark.background)).toBeLessThan(luminance(dark.color));
    expect(luminance(light.background)).toBeGreaterThan(luminance(light.color));
  }, 60_000);
});

describe('the viewer page under its Content-Security-Policy', () => {
  // 2×2 red PNG.
  const PNG =
    'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEUlEQVR4nGM4wcBwggGMgRQAGQ4DIUwhR/0AAAAASUVORK5CYII=';
  const t = (i: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString();
  /** One display event per renderer: what each draws must not be blocked. */
  const bundles: Record<string, unknown>[] = [
    {
      'text/html': `<p id="html-out" style="color: rgb(200, 0, 0)">html <b>bold</b></p><img alt="dot" src="data:image/png;base64,${PNG}">`,
    },
    {
      'text/markdown': `**markdown out**\n\n![inline](data:image/png;base64,${PNG})\n\n![remote](https://example.com/x.png)`,
    },
    { 'image/png': PNG, 'text/plain': 'a png' },
    {
      'image/svg+xml':
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="red"/></svg>',
    },
    { 'text/latex': '$$e^{i\\pi}+1=0$$' },
    { 'application/json': { answer: [1, 2, { b: 'c' }] } },
    { 'text/x-diff': '--- a\n+++ b\n@@ -1 +1 @@\n-old line\n+new line\n' },
    { 'text/plain': '\u001b[31mred ansi\u001b[0m plain' },
  ];

  /** A page that records every CSP report, of the page and of its frames. */
  async function watchedPage() {
    const page = await browser.newPage({ viewport: { width: 1280, height: 2400 } });
    const blocked: string[] = [];
    page.on('console', (m) => {
      if (/Content.Security.Policy|frame-ancestors/i.test(m.text())) blocked.push(m.text());
    });
    page.on('pageerror', (e) => blocked.push(String(e)));
    return { page, blocked };
  }

  it('every renderer, the worker and the sandboxed frame work; nothing is blocked', async () => {
    writeFileSync(
      join(logs, 'displays.jsonl'),
      bundles
        .map((data, i) =>
          JSON.stringify({ event: 'display', uuid: `d${i}`, timestamp: t(i), outputs: [{ data }] }),
        )
        .join('\n') + '\n',
    );
    const { page, blocked } = await watchedPage();
    const response = await page.goto(new URL('/?src=/api/file/displays.jsonl', url).href);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.locator('article[data-event-id="d7"]').waitFor(WAIT);

    // Untrusted HTML: in the sandboxed srcdoc frame, with its inline style and data: image.
    await page.locator('iframe[sandbox=""]').waitFor(WAIT);
    const srcdoc = () => page.frames().find((f) => f.url() === 'about:srcdoc');
    await expect.poll(() => srcdoc() !== undefined, WAIT).toBe(true);
    const frame = srcdoc();
    await expect.poll(() => frame!.locator('#html-out').textContent(), WAIT).toBe('html bold');
    expect(await frame!.locator('#html-out').evaluate((el) => getComputedStyle(el).color)).toBe(
      'rgb(200, 0, 0)',
    );
    await expect
      .poll(() => frame!.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth), WAIT)
      .toBe(2);
    // Raster, SVG and markdown images from data: URLs are drawn.
    const widths = () =>
      page.$$eval('article img', (imgs) =>
        (imgs as HTMLImageElement[]).map((img) => [img.src.slice(0, 22), img.naturalWidth]),
      );
    await expect.poll(widths, WAIT).toEqual(
      expect.arrayContaining([
        ['data:image/png;base64,', 2],
        ['data:image/svg+xml;cha', 10],
      ]),
    );
    expect((await widths()).filter(([src]) => src === 'data:image/png;base64,')).toHaveLength(2);
    const text = await page.locator('main, body').first().innerText();
    for (const shown of ['markdown out', 'e^{i\\pi}', 'answer', 'new line', 'red ansi plain'])
      expect(text, shown).toContain(shown);
    // The remote markdown image waits for a click (no request leaves by itself).
    await page.getByRole('button', { name: /Load image/ }).waitFor(WAIT);
    expect(blocked).toEqual([]);
    await page.close();
  }, 120_000);

  it('?live= follows a run of another origin (connect-src)', async () => {
    const stream = EventStream.from(
      Array.from({ length: 5 }, (_, i) => ({
        event: 'info' as const,
        uuid: `live-${i}`,
        timestamp: t(i),
        data: `live line ${i}`,
      })),
    );
    const viewerOrigin = new URL(url).origin;
    const handler = createEventStreamHandler(stream, { cors: { origin: viewerOrigin } });
    const server = http.createServer(handler);
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
    try {
      const live = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      const { page, blocked } = await watchedPage();
      await page.goto(new URL(`/?live=${encodeURIComponent(live)}`, url).href);
      await page.locator('article[data-event-id="live-4"]').waitFor(WAIT);
      expect(blocked).toEqual([]);
      await page.close();
    } finally {
      await handler.close();
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
    }
  }, 60_000);

  it('another page cannot frame the viewer (frame-ancestors, X-Frame-Options)', async () => {
    const { page, blocked } = await watchedPage();
    const other = http.createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end(`<!doctype html><iframe src="${url}"></iframe>`);
    });
    await new Promise<void>((ok) => other.listen(0, '127.0.0.1', () => ok()));
    try {
      await page.goto(`http://localhost:${(other.address() as AddressInfo).port}/`);
      await expect.poll(() => blocked.length, WAIT).toBeGreaterThan(0);
      const framed = page.frames().find((f) => f !== page.mainFrame());
      expect(
        await framed
          ?.locator('.viewer')
          .count()
          .catch(() => 0),
      ).toBe(0);
    } finally {
      await page.close();
      other.closeAllConnections();
      await new Promise<void>((ok) => other.close(() => ok()));
    }
  }, 60_000);
});
