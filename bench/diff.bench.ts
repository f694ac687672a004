import { EventStream } from '../src/core/stream/event-stream.js';
import { diffRuns } from '../src/core/diff/diff-runs.js';
import { createRunDiff } from '../src/core/diff/live.js';
import { generateRun } from '../src/core/generate/generate-run.js';
import { generateRunVariant } from '../src/core/generate/run-variant.js';
import type { Metric } from './harness.js';
import { defineBench } from './node.js';

/**
 * Run against run (issue 34, "Performance"):
 * - `core.diff.<n>`: `diffRuns` of two runs of n steps each (a generated run
 *   of about 1.8 × n events, and a second run of the same agent: every
 *   event a new object with its own uuid, span ids and times, and 1 % of the
 *   tool calls and model answers changed), against one linear pass over
 *   both runs' events measured right before each sample (`ctx.timePaired`);
 *   target ≤ 5×.
 * - `core.diff.different.<n>`: two unrelated runs of the same size; target
 *   ≤ 2 s, and `.coarse-steps` records how many steps were aligned coarsely
 *   (the result says so).
 * - `core.diff.live-update.<n>`: a live diff (`createRunDiff`) whose B run
 *   grows by 100 events, the update alone, against the full diff above: what
 *   following a live run costs per change.
 * Runs are built outside the timed region.
 */
export default defineBench({
  name: 'core.diff',
  async run(ctx) {
    const steps = ctx.size(100_000, 20_000);
    const label = ctx.label(steps);
    // About 0.54 steps per generated event (spans, turns, calls; bookkeeping hidden).
    const n = Math.round(steps * 1.86);
    const a = generateRun({ seed: 34, events: n, pendingRate: 0 });
    const b = generateRunVariant(a, { rate: 0.01 });
    const both = [...a, ...b];
    const first = diffRuns(a, b);
    const measured = Math.min(first.a.steps.length, first.b.steps.length);

    const paired = await ctx.timePaired(() => diffRuns(a, b), both, { repeat: 5, warmup: 1 });
    const pass: Metric = {
      name: `core.diff.${label}.event-pass`,
      value: paired.pass.median,
      unit: 'ms',
      n: both.length,
    };
    ctx.record(pass);
    ctx.record(
      {
        name: `core.diff.${label}`,
        value: paired.timing.median,
        unit: 'ms',
        n: measured,
        target: '≤ 5×',
      },
      pass,
    );
    ctx.record({
      name: `core.diff.${label}.changed-rows`,
      value: first.counts.changed + first.counts.onlyA + first.counts.onlyB,
      unit: 'count',
      n: first.rows.length,
    });

    const other = generateRun({ seed: 35, events: n, pendingRate: 0 });
    const different = await ctx.time(() => diffRuns(a, other), { repeat: 3, warmup: 1 });
    ctx.record({
      name: `core.diff.different.${label}`,
      value: different.median,
      unit: 'ms',
      n: measured,
      target: '≤ 2000 ms',
    });
    const apart = diffRuns(a, other);
    ctx.record({
      name: `core.diff.different.${label}.coarse-steps`,
      value: apart.coarseSteps,
      unit: 'count',
      n: apart.a.steps.length + apart.b.steps.length,
    });

    // A live B: all but its last 100 events, then those 100; the update alone is timed.
    const cut = b.length - 100;
    const updates: number[] = [];
    for (let r = 0; r < 5; r++) {
      const stream = new EventStream();
      for (let i = 0; i < cut; i++) stream.append(b[i]!);
      const store = createRunDiff(a, stream);
      store.update();
      for (let i = cut; i < b.length; i++) stream.append(b[i]!);
      const t0 = performance.now();
      store.update();
      updates.push(performance.now() - t0);
      store.dispose();
    }
    updates.sort((x, y) => x - y);
    ctx.record(
      {
        name: `core.diff.live-update.${label}`,
        value: updates[2]!,
        unit: 'ms',
        n: measured,
      },
      { name: `core.diff.${label}`, value: paired.timing.median, unit: 'ms' },
    );
  },
});
