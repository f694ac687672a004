/**
 * `npm run bench [-- --quick] [-- --filter NAME] [-- --node-only|--browser-only]`
 *
 * Runs every Node bench (`*.bench.ts` under bench/ or src/) and every browser
 * bench (bench/browser/*.bench.tsx), prints one table with each metric's
 * baseline measured in the same run, and writes bench/results.json as
 * `{"metrics":[{"name","value","unit","baseline"?,"ratio"?,"n"?}]}`.
 */
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runBrowserBenches } from './browser/run-browser.js';
import { formatTable, type Metric } from './harness.js';
import { createNodeContext, type NodeBench } from './node.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const filterAt = args.indexOf('--filter');
const filter = filterAt >= 0 ? args[filterAt + 1] : undefined;
const nodeOnly = args.includes('--node-only');
const browserOnly = args.includes('--browser-only');
const log = (line: string) => process.stderr.write(`${line}\n`);

function findBenches(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name === 'node_modules' || name === '.dist' || name === 'browser') continue;
    if (statSync(path).isDirectory()) findBenches(path, out);
    else if (name.endsWith('.bench.ts')) out.push(path);
  }
  return out.sort();
}

const metrics: Metric[] = [];
const started = performance.now();

if (!browserOnly) {
  const ctx = createNodeContext(quick, metrics);
  const files = [...findBenches(join(root, 'bench')), ...findBenches(join(root, 'src'))];
  // The baseline bench runs first so every later ratio can use it.
  files.sort((a, b) => Number(b.endsWith('core.bench.ts')) - Number(a.endsWith('core.bench.ts')));
  for (const file of files) {
    const bench = ((await import(pathToFileURL(file).href)) as { default: NodeBench }).default;
    if (filter && !bench.name.includes(filter)) continue;
    log(`node: ${bench.name} (${relative(root, file)})`);
    const began = performance.now();
    const cpu = process.cpuUsage();
    await bench.run(ctx);
    // This process's CPU time too (not its child processes'): on a shared
    // machine the wall clock says little about a bench's own cost.
    const used = process.cpuUsage(cpu);
    log(
      `  ${((performance.now() - began) / 1000).toFixed(1)} s (${((used.user + used.system) / 1e6).toFixed(1)} CPU-s)`,
    );
  }
}

if (!nodeOnly) {
  metrics.push(...(await runBrowserBenches({ quick, filter, log })));
}

const results = {
  quick,
  date: new Date().toISOString(),
  node: process.version,
  seconds: Math.round((performance.now() - started) / 100) / 10,
  metrics,
};
writeFileSync(join(root, 'bench/results.json'), `${JSON.stringify(results, null, 2)}\n`);
process.stdout.write(
  `\n${formatTable(metrics)}\n\nwrote bench/results.json (${metrics.length} metrics, ${results.seconds} s)\n`,
);
