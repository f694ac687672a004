import { generateRun } from '../src/core/generate/generate-run.js';
import { buildTimeline } from '../src/core/timeline/build.js';
import { spanTotalTokens } from '../src/core/timeline/metrics.js';
import { defineBench } from './node.js';

/**
 * `core.timeline.build.100k` / `.1m`: `buildTimeline` over a generated
 * inspect-shaped run (issue 4: ≤ 10× one linear pass over the events at both
 * sizes; inspect's own TS builder is ~40× at 100k and ~200× at 300k). The
 * events are generated outside the timed region. The 1M run also records the
 * heap retained by the built timeline.
 */
export default defineBench({
  name: 'core.timeline',
  async run(ctx) {
    for (const n of [ctx.size(100_000, 20_000), ctx.size(1_000_000, 100_000)]) {
      const label = ctx.label(n);
      const events = generateRun({ seed: 11, events: n });
      const base = await ctx.eventPass(events);
      const timing = await ctx.time(() => buildTimeline(events), {
        repeat: n >= 1_000_000 ? 5 : 9,
        warmup: 1,
      });
      ctx.record(
        {
          name: `core.timeline.build.${label}`,
          value: timing.median,
          unit: 'ms',
          n,
          target: '≤ 10×',
        },
        base,
      );
      // The plain-object pass the issue names as well, for comparison.
      const noop = await ctx.linearPass(n);
      ctx.record(
        { name: `core.timeline.build.${label}.vs-noop`, value: timing.median, unit: 'ms', n },
        noop,
      );

      if (n === ctx.size(1_000_000, 100_000)) {
        const before = ctx.heapUsedMB();
        const timeline = buildTimeline(events);
        const after = ctx.heapUsedMB();
        // Keep the timeline alive across the second measurement.
        if (spanTotalTokens(timeline.root) < 0) throw new Error('negative tokens');
        ctx.record({
          name: `core.timeline.build.${label}.heap-retained`,
          value: after - before,
          unit: 'MB',
          n,
        });
      }
    }
  },
});
