import { displayOf } from '../src/core/display/display-of.js';
import { defineBench } from './node.js';

/**
 * `core.display.shape-summary.<n>` (issue 5, "Performance"): `displayOf` on an
 * n-element array of records, which takes the shape-summary step of the
 * cascade. The summary samples the array and previews its head and tail, so
 * its time must not grow with n: the target is a small fraction of one linear
 * pass over the same number of objects (`core.noop-pass.<n>`; about 0.07× on
 * the development machine, where a 100k array gives the same absolute time). The second
 * metric is the size of the bundle it returns (all MIME types, UTF-16 code
 * units as kB), which must stay bounded too.
 */
export default defineBench({
  name: 'core.display.shape-summary',
  async run(ctx) {
    // 1M under --quick too: the summary's cost does not depend on n (that is
    // the point), and building the array takes well under a second.
    const n = 1_000_000;
    const label = ctx.label(n);
    const base = await ctx.linearPass(n);
    // Built outside the timed region; a realistic record with a nested array.
    const rows = Array.from({ length: n }, (_, i) => ({
      id: i,
      name: `row ${i}`,
      score: i / n,
      tags: ['a', 'b'],
    }));

    const timing = await ctx.time(() => displayOf(rows), { repeat: 25, warmup: 5 });
    ctx.record(
      {
        name: `core.display.shape-summary.${label}`,
        value: timing.median,
        unit: 'ms',
        n,
        target: '≤ 0.1×',
      },
      base,
    );

    const bundle = displayOf(rows);
    const chars = JSON.stringify(bundle).length;
    ctx.record({
      name: `core.display.shape-summary.${label}.output`,
      value: Math.round((chars / 1024) * 100) / 100,
      unit: 'kB',
      n,
      target: '≤ 8 kB',
    });
  },
});
