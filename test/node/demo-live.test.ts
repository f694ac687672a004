// The demo's live mode (issue 21): `skein serve <log> --live` plays a log,
// the demo page (`?live`) follows it through the dev server's `/live/` proxy
// over the real transport, and shows the connection status.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumArgs, chromiumPath } from '../../scripts/chromium.mjs';
import { generateRun } from '../../src/index.js';
import { runCli } from '../../src/server.js';
import { until } from './helpers/live.js';

let vite: ViteDevServer;
let browser: Browser;
let pageUrl: string;
const abort = new AbortController();
let served: Promise<number>;
const events = generateRun({ seed: 9, events: 300, pendingRate: 0 });

beforeAll(async () => {
  const log = {
    version: 2,
    status: 'success',
    eval: { task: 'x', model: 'm', created: events[0]!.timestamp, dataset: {}, config: {} },
    samples: [{ id: 1, epoch: 1, input: 'q', target: 'a', messages: [], events }],
  };
  const file = join(mkdtempSync(join(tmpdir(), 'skein-demo-live-')), 'log.json');
  writeFileSync(file, JSON.stringify(log));
  let out = '';
  served = runCli(['serve', file, '--live', '--speed', '50', '--max-gap', '100', '--port', '0'], {
    stdout: (s) => (out += s),
    stderr: (s) => (out += s),
    signal: abort.signal,
  });
  await until(() => out.includes('http://'), 'skein serve to listen');
  process.env['SKEIN_LIVE_URL'] = /http:\/\/\S+\//.exec(out)![0].replace(/\/$/, '');
  vite = await createServer({
    configFile: fileURLToPath(new URL('../../demo/vite.config.ts', import.meta.url)),
    server: { port: 0, host: '127.0.0.1' },
    logLevel: 'silent',
  });
  await vite.listen();
  pageUrl = `${vite.resolvedUrls!.local[0]!}?live`;
  browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await vite?.close();
  abort.abort();
  await served;
  delete process.env['SKEIN_LIVE_URL'];
});

describe('demo live mode', () => {
  it('follows `skein serve --live` over SSE and shows the connection status', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(pageUrl);
    const status = page.getByRole('status', { name: 'Connection' });
    await expect.poll(() => status.textContent(), { timeout: 30_000 }).toBe('Live');
    const rows = page.locator('[role="feed"] [data-event-id]');
    await expect.poll(() => rows.count(), { timeout: 30_000 }).toBeGreaterThan(3);
    await expect
      .poll(() => page.locator('[role="treegrid"] [role="row"][aria-level]').count(), {
        timeout: 30_000,
      })
      .toBeGreaterThan(0);
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);
});
