/**
 * Builds the bench page with Vite, serves it on 127.0.0.1, opens it in
 * Chromium through playwright-core and runs every browser bench in a fresh page.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { build } from 'vite';
import { chromiumArgs, chromiumFound, chromiumPath, installHint } from '../../scripts/chromium.mjs';
import type { Metric } from '../harness.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const distDir = fileURLToPath(new URL('../.dist', import.meta.url));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
};

/** A static file server for `root`, on loopback, on a free port. */
export async function serveStatic(root: string): Promise<{ url: string; server: Server }> {
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
    const file = join(root, path === '/' ? 'index.html' : path);
    if (!file.startsWith(root)) {
      res.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, server };
}

export async function runBrowserBenches(options: {
  quick: boolean;
  filter?: string;
  log: (line: string) => void;
}): Promise<Metric[]> {
  if (!chromiumFound()) throw new Error(installHint);
  const buildStarted = performance.now();
  await build({ configFile: join(here, 'vite.config.ts') });
  options.log(`browser: build (${((performance.now() - buildStarted) / 1000).toFixed(1)} s)`);
  const { url, server } = await serveStatic(distDir);
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: [...chromiumArgs, '--enable-precise-memory-info', '--js-flags=--expose-gc'],
  });
  const metrics: Metric[] = [];
  try {
    const probe = await browser.newPage();
    await probe.goto(url);
    await probe.waitForFunction(() => 'skeinBench' in window);
    const names = await probe.evaluate(() => window.skeinBench.list());
    await probe.close();
    for (const name of names) {
      if (options.filter && !name.includes(options.filter)) continue;
      options.log(`browser: ${name}`);
      const began = performance.now();
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.goto(url);
      await page.waitForFunction(() => 'skeinBench' in window);
      // SKEIN_BENCH_PROFILE=<dir>: a CPU profile of each bench page, for
      // DevTools or any .cpuprofile reader (not part of the measurements).
      const profileDir = process.env['SKEIN_BENCH_PROFILE'];
      const cdp = profileDir ? await page.context().newCDPSession(page) : null;
      if (cdp !== null) {
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
        await cdp.send('Profiler.start');
      }
      // SKEIN_BENCH_HEAP=<dir>: when a bench calls `window.skeinHeapSample(tag)`
      // (the viewer bench does, before and after its open), a full GC, then a
      // sampling heap profile of what is live (`<name>.<tag>.heapprofile`, for
      // DevTools' Memory panel) and the heap's usage with array-buffer
      // backing stores (`.usage.json`); with SKEIN_BENCH_SNAPSHOT=1 also a heap
      // snapshot (`.heapsnapshot`; large: ~300 MB at 100k events).
      const heapDir = process.env['SKEIN_BENCH_HEAP'];
      if (heapDir) {
        const heap = await page.context().newCDPSession(page);
        await heap.send('HeapProfiler.enable');
        await heap.send('HeapProfiler.startSampling', { samplingInterval: 4096 });
        await page.exposeFunction('skeinHeapSample', async (tag: string) => {
          await mkdir(heapDir, { recursive: true });
          await heap.send('HeapProfiler.collectGarbage');
          const { profile } = await heap.send('HeapProfiler.getSamplingProfile');
          const usage = await heap.send('Runtime.getHeapUsage');
          await writeFile(join(heapDir, `${name}.${tag}.usage.json`), JSON.stringify(usage));
          if (process.env['SKEIN_BENCH_SNAPSHOT'] && !tag.endsWith('before')) {
            const { createWriteStream } = await import('node:fs');
            const out = createWriteStream(join(heapDir, `${name}.${tag}.heapsnapshot`));
            const onChunk = (e: { chunk: string }) => out.write(e.chunk);
            heap.on('HeapProfiler.addHeapSnapshotChunk', onChunk);
            await heap.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
            heap.off('HeapProfiler.addHeapSnapshotChunk', onChunk);
            await new Promise((r) => out.end(r));
          }
          await writeFile(join(heapDir, `${name}.${tag}.heapprofile`), JSON.stringify(profile));
        });
      }
      const result = await page.evaluate(([n, q]) => window.skeinBench.run(n, q), [
        name,
        options.quick,
      ] as const);
      if (cdp !== null && profileDir) {
        const { profile } = await cdp.send('Profiler.stop');
        await mkdir(profileDir, { recursive: true });
        await writeFile(join(profileDir, `${name}.cpuprofile`), JSON.stringify(profile));
        // The long tasks of each of the bench's `frames` calls and the mark
        // that lines them up with the profile (context.ts `skeinProfileMark`).
        const tasks = await page.evaluate(
          () => (window as { skeinFrameRuns?: unknown }).skeinFrameRuns ?? [],
        );
        await writeFile(join(profileDir, `${name}.longtasks.json`), JSON.stringify(tasks));
      }
      if (errors.length) throw new Error(`${name}: page errors:\n${errors.join('\n')}`);
      metrics.push(...result);
      await page.close();
      options.log(`  ${((performance.now() - began) / 1000).toFixed(1)} s`);
    }
  } finally {
    await browser.close();
    server.close();
  }
  return metrics;
}
