import { generateRun } from '../src/core/generate/generate-run.js';
import { renderTimelineAscii } from '../src/core/swimlane/ascii.js';
import { layoutSwimlane } from '../src/core/swimlane/layout.js';
import { buildTimeline } from '../src/core/timeline/build.js';
import type { TimelineSpan } from '../src/core/timeline/types.js';
import { defineBench } from './node.js';

function countSpans(root: TimelineSpan): number {
  let n = 0;
  const stack = [root];
  while (stack.length > 0) {
    const span = stack.pop()!;
    n++;
    for (const item of span.content) if (item.type === 'span') stack.push(item);
    stack.push(...span.branches);
  }
  return n;
}

/**
 * `core.swimlane.layout.10k-spans`: `layoutSwimlane` (branches shown, idle
 * gaps and markers on) over a timeline of ~10k agent spans, built from a
 * generated run of 300k events with 10k sub-agents. Layout reads every event
 * once (markers), so its baseline is one linear pass over that many objects;
 * `.vs-events` compares with one pass over the events themselves.
 *
 * `core.ascii.1m`: `renderTimelineAscii` of the timeline built from 1M
 * generated events, against one linear pass over 1M objects. Span metrics are
 * cached per span after their first use, so the warm figure is the render
 * alone; `.cold` is the first render of a freshly built timeline, metrics
 * included (one sample).
 */
export default defineBench({
  name: 'core.swimlane',
  async run(ctx) {
    {
      const spansTarget = ctx.size(10_000, 1_000);
      const events = generateRun({
        seed: 21,
        events: spansTarget * 30,
        agents: spansTarget,
        depth: 3,
        parallelism: 4,
      });
      const timeline = buildTimeline(events);
      const spans = countSpans(timeline.root);
      const base = await ctx.linearPass(events.length);
      const timing = await ctx.time(() => layoutSwimlane(timeline, { showBranches: true }), {
        repeat: 9,
        warmup: 2,
      });
      const name = `core.swimlane.layout.${ctx.label(spansTarget)}-spans`;
      ctx.record({ name, value: timing.median, unit: 'ms', n: spans }, base);
      // The same against one pass over the events themselves (real, varied shapes).
      ctx.record(
        { name: `${name}.vs-events`, value: timing.median, unit: 'ms', n: spans },
        await ctx.eventPass(events),
      );
    }
    {
      const n = ctx.size(1_000_000, 100_000);
      const label = ctx.label(n);
      const events = generateRun({ seed: 22, events: n });
      const timeline = buildTimeline(events);
      const base = await ctx.linearPass(n);
      const t0 = performance.now();
      const text = renderTimelineAscii(timeline);
      const cold = performance.now() - t0;
      if (!text.startsWith('main')) throw new Error('unexpected ASCII render');
      const timing = await ctx.time(() => renderTimelineAscii(timeline), { repeat: 9, warmup: 1 });
      ctx.record({ name: `core.ascii.${label}`, value: timing.median, unit: 'ms', n }, base);
      ctx.record(
        { name: `core.ascii.${label}.vs-events`, value: timing.median, unit: 'ms', n },
        await ctx.eventPass(events),
      );
      ctx.record({ name: `core.ascii.${label}.cold`, value: cold, unit: 'ms', n }, base);
    }
  },
});
