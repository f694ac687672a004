// `npm run shot [-- out.png] [-- --theme dark]`: a screenshot of the viewer
// page (`npm start`) on a generated run in headless Chromium, for the README
// (docs/screenshot.png by default). The viewer follows the system's colour
// scheme, so `--theme` emulates it.
import { chromium } from 'playwright-core';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';
import { chromiumArgs, chromiumPath } from './chromium.mjs';

const args = process.argv.slice(2);
const out = args.find((a) => a.endsWith('.png')) ?? 'docs/screenshot.png';
const themeAt = args.indexOf('--theme');
const theme = themeAt >= 0 ? args[themeAt + 1] : 'light';

const server = await createServer({
  configFile: fileURLToPath(new URL('../viewer/vite.config.ts', import.meta.url)),
  server: { port: 0, host: '127.0.0.1' },
  logLevel: 'silent',
});
await server.listen();
const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
try {
  const page = await browser.newPage({
    viewport: { width: 1280, height: 800 },
    deviceScaleFactor: 1,
    colorScheme: theme === 'dark' ? 'dark' : 'light',
  });
  await page.goto(`${server.resolvedUrls.local[0]}?demo=2000`);
  await page.locator('[role="treegrid"] [aria-level="3"]').first().waitFor({ timeout: 60_000 });
  // Select a span three levels down, so the linked selection shows in both views.
  await page.locator('[role="treegrid"] [aria-level="3"]').first().click();
  await page.waitForTimeout(500);
  await page.screenshot({ path: out });
  process.stdout.write(`wrote ${out}\n`);
} finally {
  await browser.close();
  await server.close();
}
