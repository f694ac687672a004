import { generateRun } from '../src/core/generate/generate-run.js';
import { buildTimeline } from '../src/core/timeline/build.js';
import {
  spanEndTime,
  spanIdleTime,
  spanStartTime,
  spanTotalTokens,
} from '../src/core/timeline/metrics.js';
import type { TimelineSpan } from '../src/core/timeline/types.js';
import { quantile } from './harness.js';
import { defineBench } from './node.js';

// Keeps the metric results observable.
let sink = 0;

/** Every span of a timeline (content spans and branches), parents first. */
function allSpans(root: TimelineSpan): TimelineSpan[] {
  const out: TimelineSpan[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const span = stack.pop()!;
    out.push(span);
    for (const item of span.content) if (item.type === 'span') stack.push(item);
    for (const b of span.branches) stack.push(b);
  }
  return out;
}

/** All four metrics of every span, with and without branches. */
function allMetrics(spans: readonly TimelineSpan[]): number {
  let h = 0;
  for (const span of spans) {
    for (const includeBranches of [true, false]) {
      const o = { includeBranches };
      h += spanStartTime(span, o) + spanEndTime(span, o);
      h += spanTotalTokens(span, o) + spanIdleTime(span, o);
    }
  }
  return h;
}

/**
 * `core.timeline.build.100k` / `.1m`: `buildTimeline` over a generated
 * inspect-shaped run (issue 4: ≤ 10× one linear pass over the events at both
 * sizes; inspect's own TS builder is ~40× at 100k and ~200× at 300k). The
 * events are generated outside the timed region. The 1M run also records the
 * heap retained by the built timeline.
 *
 * `core.timeline.metrics.1m`: the span metrics (start, end, tokens, idle,
 * with and without branches) of every span of a freshly built timeline,
 * cold — the first use, which computes and caches them; the figure the
 * first ASCII or SVG render of a timeline pays. Against the same event pass:
 * metrics read each event once (start, `completed`, usage).
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

        // Cold metrics: a fresh timeline per sample, built outside the timed region.
        // (3 samples and no GC between under --quick, as ctx.time.)
        const samples: number[] = [];
        for (let r = 0; r < (ctx.quick ? 3 : 5); r++) {
          const spans = allSpans(buildTimeline(events).root);
          if (!ctx.quick) ctx.heapUsedMB(); // settle the GC before timing
          const t0 = performance.now();
          sink += allMetrics(spans);
          samples.push(performance.now() - t0);
        }
        ctx.record(
          {
            name: `core.timeline.metrics.${label}`,
            value: quantile(samples, 0.5),
            unit: 'ms',
            n,
          },
          base,
        );
        if (sink === 0.5) throw new Error('unreachable');
      }
    }
  },
});
