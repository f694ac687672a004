/**
 * `node --expose-gc --import tsx bench/import-profile.ts [format…] [--n 100000] [--rounds 7]`
 *
 * A tool for working on importer speed (issue 19): for each named format bench
 * (`acp`, `defect`, `agex`, `cantus`, `otlp`, `skein`, `claude-code`, `openhands`; default all), makes the
 * bench's input at n records and prints the import time as a ratio to
 * `JSON.parse` of the same bytes, paired sample by sample (median of the
 * ratios). Add `--cpu-prof` to node, and `--import-only` here (the import
 * alone, `--rounds` times), to see where the time goes.
 *
 * For JSON Lines it also prints two floors, timed the same way: the parse
 * keeping every record, and the least any importer does with one — each
 * record kept whole as the `data` of one `info` event added to an
 * `EventSink` (a uuid from its path, a time stamp, a deep freeze). An
 * importer's ratio minus that floor is what its own mapping costs.
 */
import { pathToFileURL } from 'node:url';
import { infoPerRecord, timeImportPaired, type FormatBench } from './import-format.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const n = option('--n', 100_000);
const rounds = option('--rounds', 7);
const names = args.filter((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
const formats = names.length
  ? names
  : ['acp', 'defect', 'agex', 'cantus', 'otlp', 'skein', 'claude-code', 'openhands'];

for (const format of formats) {
  const url = pathToFileURL(new URL(`./import-${format}.bench.ts`, import.meta.url).pathname);
  const bench = ((await import(url.href)) as { default: FormatBench }).default;
  const text = bench.spec.make(n);
  if (args.includes('--import-only')) {
    for (let i = 0; i < rounds; i++) await bench.spec.run(text);
    continue;
  }
  const { parse, run, ratio, count } = await timeImportPaired(bench.spec, text, rounds);
  // The floor any importer that keeps what it read pays: the parse, keeping
  // every record (so the collector copies and promotes them, as it does events).
  // (A JSON document's parse keeps everything anyway: only for JSON Lines.)
  const jsonl = bench.spec.encoding === 'jsonl';
  const kept = jsonl
    ? await timeImportPaired({ ...bench.spec, run: (t) => keepAll(t) }, text, rounds)
    : undefined;
  const floor = jsonl
    ? await timeImportPaired({ ...bench.spec, run: (t) => infoPerRecord(t) }, text, rounds)
    : undefined;
  process.stdout.write(
    `${bench.spec.name}.${n}: ${ratio.toFixed(2)}× (import ${run.median.toFixed(0)} ms, ` +
      `parse ${parse.median.toFixed(0)} ms, ${(text.length / 1e6).toFixed(1)} MB, ${count} events; ` +
      `ratios ${[run.min / parse.median, run.max / parse.median].map((r) => r.toFixed(2)).join('–')}; ` +
      (kept && floor
        ? `parse keeping every record ${kept.ratio.toFixed(2)}×, ` +
          `one frozen info event per record ${floor.ratio.toFixed(2)}×)\n`
        : ')\n'),
  );
}

function keepAll(text: string): number {
  const kept: unknown[] = [];
  let at = 0;
  while (at < text.length) {
    let nl = text.indexOf('\n', at);
    if (nl < 0) nl = text.length;
    if (nl > at) kept.push(JSON.parse(text.slice(at, nl)));
    at = nl + 1;
  }
  return kept.length;
}
