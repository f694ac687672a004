import { generateRun } from '../src/core/generate/generate-run.js';
import { importInspectLog } from '../src/core/import/inspect/inspect-log.js';
import { inspectJsonLog } from './inspect-log.js';
import { infoPerJsonRecord } from './import-format.js';
import { defineBench } from './node.js';

/**
 * `core.import.inspect-json.100k`: open a generated 100k-event inspect `.json`
 * log and load its sample's canonical events, as a ratio to a bare JSON.parse
 * of the same bytes (decode + parse) in the same run. Target ≤ 1.5×.
 */
export default defineBench({
  name: 'core.import.inspect-json',
  async run(ctx) {
    const n = ctx.size(100_000, 10_000);
    const bytes = inspectJsonLog(generateRun({ seed: 11, events: n, pendingRate: 0 }));
    const name = `core.import.inspect-json.${ctx.label(n)}`;
    const parse = await ctx.time(() => JSON.parse(new TextDecoder().decode(bytes)), { repeat: 7 });
    const baseline = { name: `${name}.json-parse`, value: parse.median, unit: 'ms' as const, n };
    ctx.record(baseline);
    let count = 0;
    const timing = await ctx.time(
      async () => {
        const log = await importInspectLog(bytes);
        count = (await log.sample(1, 1)).events.length;
      },
      { repeat: 7 },
    );
    if (count !== n) throw new Error(`imported ${count} events, expected ${n}`);
    ctx.record({ name, value: timing.median, unit: 'ms', n, target: '≤ 1.5×' }, baseline);
    // The floor: decode, parse, then one frozen info event per sample event.
    const floor = await ctx.time(
      () =>
        infoPerJsonRecord(new TextDecoder().decode(bytes), (doc) =>
          (doc as { samples: { events: unknown[] }[] }).samples.flatMap((s) => s.events),
        ),
      { repeat: 7 },
    );
    const floorMetric = {
      name: `${name}.floor`,
      value: floor.median,
      unit: 'ms' as const,
      n,
      target: 'the least an importer costs: one frozen info event per record',
    };
    ctx.record(floorMetric, baseline);
    ctx.record(
      { name: `${name}.vs-floor`, value: timing.median, unit: 'ms', n, target: '≤ 1.3×' },
      floorMetric,
    );
    ctx.record({ name: `${name}.bytes`, value: bytes.length / 1024, unit: 'kB', n });
  },
});
