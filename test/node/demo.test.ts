// `npm start` serves the demo page, and it renders in Chromium: start the same
// Vite dev server the script starts and load the page in a real browser.
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumArgs, chromiumPath } from '../../scripts/chromium.mjs';
import { VERSION } from '../../src/index.js';

let server: ViteDevServer;
let browser: Browser;
let url: string;

beforeAll(async () => {
  server = await createServer({
    configFile: fileURLToPath(new URL('../../demo/vite.config.ts', import.meta.url)),
    server: { port: 0, host: '127.0.0.1' },
    logLevel: 'silent',
  });
  await server.listen();
  url = server.resolvedUrls!.local[0]!;
  browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function open(): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url);
  await expect
    .poll(() => page.getByTestId('version').textContent(), { timeout: 30_000 })
    .toBe(VERSION);
  return { page, errors };
}

describe('demo page', () => {
  it('renders the package version and switches theme', async () => {
    const { page, errors } = await open();
    await page.getByLabel('Theme').selectOption('dark');
    const bg = await page
      .locator('.skein')
      .first()
      .evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(bg).toBe('rgb(15, 20, 25)');
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);

  it('shows a generated run as transcript, swimlane, ASCII and replay', async () => {
    const { page, errors } = await open();
    await expect
      .poll(() => page.getByTestId('run-summary').textContent())
      .toMatch(/2,000 of 2,000 events/);
    // The transcript: a feed of event rows, virtualized (far fewer rows than events).
    const rows = page.locator('[role="feed"] [data-event-id]');
    await expect.poll(() => rows.count(), { timeout: 30_000 }).toBeGreaterThan(3);
    expect(await rows.count()).toBeLessThan(200);
    const ascii = (await page.getByTestId('ascii').textContent()) ?? '';
    expect(ascii.split('\n')[0]).toMatch(/^main +│█[█┊ ]*│ +[\d.]+[kM]?$/);
    const img = page.getByTestId('swimlane-svg');
    await expect
      .poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth))
      .toBe(1100);
    expect(await page.getByTestId('replay-count').textContent()).toMatch(
      /Showing the first 400 of [\d,]+ lines/,
    );
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);

  it('streams a run in live mode', async () => {
    const { page, errors } = await open();
    await page.getByLabel('Live').check();
    await expect.poll(() => page.getByTestId('run-summary').textContent()).toMatch(/streaming/);
    await expect
      .poll(() => page.getByTestId('run-summary').textContent(), { timeout: 30_000 })
      .toMatch(/2,000 of 2,000 events/);
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);
});
