// `npm run shot [-- out.png] [-- --theme dark]`: a screenshot of the demo page
// in headless Chromium, for the README (docs/screenshot.png by default).
import { chromium } from 'playwright-core';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';
import { chromiumArgs, chromiumPath } from './chromium.mjs';

const args = process.argv.slice(2);
const out = args.find((a) => a.endsWith('.png')) ?? 'docs/screenshot.png';
const themeAt = args.indexOf('--theme');
const theme = themeAt >= 0 ? args[themeAt + 1] : 'light';

const server = await createServer({
  configFile: fileURLToPath(new URL('../demo/vite.config.ts', import.meta.url)),
  server: { port: 0, host: '127.0.0.1' },
  logLevel: 'silent',
});
await server.listen();
const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
try {
  const page = await browser.newPage({
    viewport: { width: 1280, height: 800 },
    deviceScaleFactor: 1,
  });
  await page.goto(server.resolvedUrls.local[0]);
  await page.getByTestId('version').waitFor();
  await page.getByLabel('Theme').selectOption(theme);
  await page.waitForTimeout(300);
  await page.screenshot({ path: out });
  process.stdout.write(`wrote ${out}\n`);
} finally {
  await browser.close();
  await server.close();
}
