// `npm start` serves the demo page, and it renders in Chromium: start the same
// Vite dev server the script starts and load the page in a real browser.
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
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

describe('demo page', () => {
  it('renders the package version and switches theme', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(url);
    await expect
      .poll(() => page.getByTestId('version').textContent(), { timeout: 20_000 })
      .toBe(VERSION);
    await page.getByLabel('Theme').selectOption('dark');
    const bg = await page
      .locator('.skein')
      .first()
      .evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(bg).toBe('rgb(15, 20, 25)');
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);
});
