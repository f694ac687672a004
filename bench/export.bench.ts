/**
 * `skein export` on a generated run of skein JSON Lines:
 * - `cli.export.<n>`: ms to make the page, as a ratio to `importAny` of the
 *   same bytes (target ≤ 2×);
 * - `cli.export.size.<n>`: the page's bytes, as a ratio to the log's gzip
 *   size plus the viewer's own (target ≤ 1.1×; base64 alone costs 4/3 of the
 *   log's part).
 * - `browser.export.open.<n>`: ms from navigation start to the first
 *   transcript rows, the page opened from `file://` in Chromium with the
 *   network off (target ≤ 1 s). Read on the page's clock by polling every
 *   20 ms, so it is at most that much late.
 * Needs the single-file viewer (`npm run build`, or it is built here).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { build } from 'vite';
import { chromiumArgs, chromiumPath } from '../scripts/chromium.mjs';
import { generateRun } from '../src/core/generate/generate-run.js';
import { importAny } from '../src/core/import/index.js';
import { exportRunHtml, findExportViewerDir } from '../src/node/export.js';
import { defineBench } from './node.js';

export default defineBench({
  name: 'cli.export',
  async run(ctx) {
    let viewerDir = findExportViewerDir();
    let built: string | null = null;
    if (viewerDir === null) {
      built = viewerDir = mkdtempSync(join(tmpdir(), 'skein-export-bench-'));
      await build({
        configFile: fileURLToPath(new URL('../viewer/vite.export.config.ts', import.meta.url)),
        build: { outDir: built, emptyOutDir: true },
        logLevel: 'silent',
      });
    }
    try {
      const n = ctx.size(100_000, 10_000);
      const log = new TextEncoder().encode(
        `${generateRun({ seed: 7, events: n, pendingRate: 0 })
          .map((e) => JSON.stringify(e))
          .join('\n')}\n`,
      );
      const options = { filename: 'run.jsonl', viewerDir, maxBytes: 2 ** 31 };
      const imported = await ctx.time(() => importAny(log, { filename: 'run.jsonl' }), {
        repeat: 3,
      });
      let html = '';
      const exported = await ctx.time(
        async () => {
          html = (await exportRunHtml(log, options)).html;
        },
        { repeat: 3 },
      );
      const base = {
        name: `cli.export.import-any.${ctx.label(n)}`,
        value: imported.median,
        unit: 'ms' as const,
        n,
      };
      ctx.record(base);
      ctx.record(
        {
          name: `cli.export.${ctx.label(n)}`,
          value: exported.median,
          unit: 'ms',
          n,
          target: '≤ 2×',
        },
        base,
      );
      const viewer = Buffer.concat([
        readFileSync(join(viewerDir, 'viewer.js')),
        readFileSync(join(viewerDir, 'viewer.css')),
      ]);
      const gz = (b: Uint8Array) => gzipSync(b, { level: 9 }).length / 1024;
      const floor = {
        name: `cli.export.size.log-plus-viewer-gzip.${ctx.label(n)}`,
        value: gz(log) + gz(viewer),
        unit: 'kB' as const,
        n,
      };
      ctx.record(floor);
      ctx.record(
        {
          name: `cli.export.size.${ctx.label(n)}`,
          value: Buffer.byteLength(html) / 1024,
          unit: 'kB',
          n,
          target: '≤ 1.1×',
        },
        floor,
      );
      ctx.record({
        name: `browser.export.open.${ctx.label(n)}`,
        value: await firstRowsFromFile(html),
        unit: 'ms',
        n,
        target: '≤ 1 s',
      });
    } finally {
      if (built !== null) rmSync(built, { recursive: true, force: true });
    }
  },
});

/** Opens `html` from a file, offline, and reads when its first rows showed (ms, page clock). */
async function firstRowsFromFile(html: string): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'skein-export-open-'));
  const file = join(dir, 'run.html');
  writeFileSync(file, html);
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  try {
    const context = await browser.newContext({
      offline: true,
      viewport: { width: 1280, height: 800 },
    });
    const page = await context.newPage();
    await page.goto(pathToFileURL(file).href, { waitUntil: 'commit' });
    const started = Date.now();
    for (;;) {
      // `performance.now()` counts from the navigation's start.
      const at = await page.evaluate(() =>
        document.querySelector('article[data-event-id]') ? performance.now() : null,
      );
      if (at !== null) return at;
      if (Date.now() - started > 120_000)
        throw new Error('the exported page showed no rows in 2 min');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
