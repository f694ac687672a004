import type { Event } from '../src/core/events/types.js';
import { generateRun } from '../src/core/generate/generate-run.js';
import { buildEventTree, type EventTree } from '../src/core/tree/event-tree.js';
import { createEventTreeBuilder } from '../src/core/tree/incremental.js';
import { visibleRows } from '../src/core/tree/visible-rows.js';
import type { Metric, Timing } from './harness.js';
import { defineBench } from './node.js';

/**
 * Span tree metrics on a generated 1M-event run (issue 4, "Performance"):
 * - `core.tree.build.<n>`: `buildEventTree` over a finished log;
 * - `core.tree.incremental.<n>`: appending the same events one by one to
 *   `createEventTreeBuilder()` and taking one snapshot;
 * - `core.rows.toggle.<n>`: `visibleRows` after collapsing, then after
 *   expanding again, the span whose subtree is closest to 100k events;
 * - heap retained by each 1M tree (after a full GC) and the peak seen while
 *   building (sampled without GC, so it includes garbage not yet collected).
 *
 * Ratios are to the event pass, one pass over the same events reading the
 * fields a builder reads (bench/node.ts), which is what "one linear pass over
 * the events" costs on real, heap-scattered events; the plain-object
 * `core.noop-pass.<n>` is recorded too. The two builds, whose target (3×) is
 * tight, are timed paired with the pass (`ctx.timePaired`: a pass right
 * before each sample, recorded as `core.tree.<build>.<n>.event-pass`); the
 * toggle uses `core.event-pass.<n>`, measured once. Events are generated
 * outside the timed region. Builds warm up twice, as the baseline does: the
 * first run of a size tiers up the JIT, and at 100k it would otherwise be
 * timed.
 */
export default defineBench({
  name: 'core.tree',
  async run(ctx) {
    const n = ctx.size(1_000_000, 100_000);
    const label = ctx.label(n);
    await ctx.linearPass(n);
    // A finished log: no pending copies, so the batch input is the event list itself.
    const events: Event[] = generateRun({ seed: 11, events: n, pendingRate: 0 });
    const base = await ctx.eventPass(events);

    const build = await ctx.timePaired(() => buildEventTree(events), events, {
      repeat: 5,
      warmup: 2,
    });
    recordPaired(ctx, `core.tree.build.${label}`, build, n);
    const built = measureHeap(ctx, () => buildEventTree(events));
    ctx.record({
      name: `core.tree.build.${label}.heap-retained`,
      value: built.retainedMB,
      unit: 'MB',
      n,
    });
    ctx.record({ name: `core.tree.build.${label}.heap-peak`, value: built.peakMB, unit: 'MB', n });

    const incremental = await ctx.timePaired(
      () => {
        const builder = createEventTreeBuilder();
        for (let i = 0; i < events.length; i++) builder.append(events[i]!);
        return builder.getSnapshot();
      },
      events,
      { repeat: 5, warmup: 2 },
    );
    recordPaired(ctx, `core.tree.incremental.${label}`, incremental, n);
    const live = measureHeap(ctx, () => {
      const builder = createEventTreeBuilder();
      for (let i = 0; i < events.length; i++) builder.append(events[i]!);
      return [builder, builder.getSnapshot()];
    });
    ctx.record({
      name: `core.tree.incremental.${label}.heap-retained`,
      value: live.retainedMB,
      unit: 'MB',
      n,
    });
    ctx.record({
      name: `core.tree.incremental.${label}.heap-peak`,
      value: live.peakMB,
      unit: 'MB',
      n,
    });

    const tree = buildEventTree(events);
    const target = subtreeNear(tree, Math.round(n / 10));
    const collapsed = new Set([tree.spans[target]!.id]);
    const none = new Set<string>();
    const toggle = await ctx.time(
      () => {
        const hidden = visibleRows(tree, collapsed);
        const shown = visibleRows(tree, none);
        return hidden.length + shown.length;
      },
      { repeat: 9, warmup: 2 },
    );
    const span = tree.spans[target]!;
    const size = tree.subtreeEnd[span.index]! - span.index;
    ctx.record(
      { name: `core.rows.toggle.${label}`, value: toggle.median, unit: 'ms', n: size },
      base,
    );
  },
});

/** Records a paired timing: its pass as `<name>.event-pass`, and the build against it. */
function recordPaired(
  ctx: { record(metric: Metric, baseline?: Metric): void },
  name: string,
  paired: { timing: Timing; pass: Timing },
  n: number,
): void {
  const pass: Metric = { name: `${name}.event-pass`, value: paired.pass.median, unit: 'ms', n };
  ctx.record(pass);
  ctx.record({ name, value: paired.timing.median, unit: 'ms', n, target: '≤ 3×' }, pass);
}

/** Index in `tree.spans` of the span whose subtree size is closest to `size`. */
function subtreeNear(tree: EventTree, size: number): number {
  let best = 0;
  let bestGap = Number.POSITIVE_INFINITY;
  for (let s = 0; s < tree.spans.length; s++) {
    const i = tree.spans[s]!.index;
    const gap = Math.abs(tree.subtreeEnd[i]! - i - size);
    if (gap < bestGap) {
      best = s;
      bestGap = gap;
    }
  }
  return best;
}

/** Heap retained by what `make` returns (after GC), and the peak sampled right after it ran. */
function measureHeap(
  ctx: { heapUsedMB(): number },
  make: () => unknown,
): { retainedMB: number; peakMB: number } {
  const before = ctx.heapUsedMB();
  const kept = make();
  const peakMB = process.memoryUsage().heapUsed / 2 ** 20 - before;
  const retainedMB = ctx.heapUsedMB() - before;
  // Keep `kept` alive until after the second measurement.
  if (kept === undefined) throw new Error('unreachable');
  return { retainedMB, peakMB };
}
