// End to end (issue 22): `skein view <folder>` started in-process on a folder
// of our fixtures, serving the viewer page built as `npm run build` builds it;
// Chromium opens the printed URL, clicks a log in the listing, a sample and an
// event, and the span tree and transcript follow one selection; the page
// follows the system colour scheme.
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumArgs, chromiumPath } from '../../scripts/chromium.mjs';
import { runCli } from '../../src/server.js';
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
