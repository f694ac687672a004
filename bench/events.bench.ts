import { parseEvents } from '../src/core/events/parse.js';
import { generateRun } from '../src/core/generate/generate-run.js';
import { defineBench } from './node.js';

/**
 * `core.events.parse.100k`: `parseEvents` over the wire JSON of a generated
 * 100k-event run, as a ratio to the `JSON.parse` of the same text measured in
 * the same run (issue 3: parsing must cost well under one JSON.parse).
 *
 * parseEvents freezes nested input values in place, so every repetition gets
 * a fresh `JSON.parse` that is not timed.
 */
export default defineBench({
  name: 'core.events.parse',
  async run(ctx) {
    const n = ctx.size(100_000, 10_000);
    const name = `core.events.parse.${ctx.label(n)}`;
    const text = JSON.stringify(generateRun({ seed: 5, events: n, pendingRate: 0 }).slice(0, n));
    const baseline = await ctx.jsonParse(text, name);
    const samples: number[] = [];
    let count = 0;
    for (let i = 0; i < 8; i++) {
      const json = JSON.parse(text) as unknown[];
      const t0 = performance.now();
      count = parseEvents(json).events.length;
      // The first run warms the JIT and is not counted.
      if (i > 0) samples.push(performance.now() - t0);
    }
    if (count !== n) throw new Error(`parsed ${count} events, expected ${n}`);
    samples.sort((a, b) => a - b);
    const median = samples[Math.floor(samples.length / 2)] as number;
    ctx.record({ name, value: median, unit: 'ms', n, target: '< 1×' }, baseline);
  },
});
