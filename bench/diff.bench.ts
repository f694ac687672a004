import { EventStream } from '../src/core/stream/event-stream.js';
import { diffRuns } from '../src/core/diff/diff-runs.js';
import { createRunDiff } from '../src/core/diff/live.js';
import { DEFAULT_DIFF_IGNORE } from '../src/core/diff/normalize.js';
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
 *   target ≤ 5×. The event pass reads four top-level fields of each event,
 *   no content; `core.diff.<n>.vs-content-pass` gives the same diff against
 *   a pass that reads every value the diff compares (each event's fields
 *   but the ignored top-level ones such as a model call's `input`), once,
 *   as any diff of contents must: what is left of the time past reading.
 * - `core.diff.different.<n>`: two unrelated runs of the same size; target
 *   ≤ 2 s, `.cpu` the same samples' CPU time, and `.coarse-steps` how many
 *   steps were aligned coarsely (the result says so). Reading the runs (their
 *   span trees and steps) is most of it; aligning them a tenth.
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
    const reading = await ctx.time(() => contentPass(both), { repeat: 5, warmup: 1 });
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
    const content: Metric = {
      name: `core.diff.${label}.content-pass`,
      value: reading.median,
      unit: 'ms',
      n: both.length,
    };
    ctx.record(content);
    ctx.record(
      { name: `core.diff.${label}.vs-content-pass`, value: paired.timing.median, unit: 'ms' },
      content,
    );
    ctx.record({
      name: `core.diff.${label}.changed-rows`,
      value: first.counts.changed + first.counts.onlyA + first.counts.onlyB,
      unit: 'count',
      n: first.rows.length,
    });

    const other = generateRun({ seed: 35, events: n, pendingRate: 0 });
    // The same samples' CPU time too (this process, every thread): the wall
    // time grows with whatever else a shared machine runs, the CPU time not.
    const cpu: number[] = [];
    const different = await ctx.time(
      () => {
        const c0 = process.cpuUsage();
        diffRuns(a, other);
        const used = process.cpuUsage(c0);
        cpu.push((used.user + used.system) / 1000);
      },
      { repeat: 3, warmup: 1 },
    );
    ctx.record({
      name: `core.diff.different.${label}`,
      value: different.median,
      unit: 'ms',
      n: measured,
      target: '≤ 2000 ms',
    });
    const cpuSamples = cpu.slice(cpu.length - different.samples.length).sort((x, y) => x - y);
    ctx.record({
      name: `core.diff.different.${label}.cpu`,
      value: cpuSamples[cpuSamples.length >> 1]!,
      unit: 'ms',
      n: measured,
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
    // 3 rounds under --quick (each builds the live diff of B in full first).
    const rounds = ctx.quick ? 3 : 5;
    for (let r = 0; r < rounds; r++) {
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
        value: updates[rounds >> 1]!,
        unit: 'ms',
        n: measured,
      },
      { name: `core.diff.${label}`, value: paired.timing.median, unit: 'ms' },
    );
  },
});

/** Top-level fields the diff ignores by default (`$.input`, `$.call`, …). */
const IGNORED_ROOT = new Set(
  DEFAULT_DIFF_IGNORE.filter((p) => p.startsWith('$.') && !p.includes('.', 2)).map((p) =>
    p.slice(2),
  ),
);

/**
 * One pass reading every value of every event once (strings, numbers,
 * every array and object below), with an explicit stack, but the ignored
 * top-level fields: the content a diff must read at least once.
 */
function contentPass(events: readonly object[]): number {
  let h = 0;
  const stack: unknown[] = [];
  for (const event of events) {
    const record = event as Record<string, unknown>;
    for (const key in record) if (!IGNORED_ROOT.has(key)) stack.push(record[key]);
    while (stack.length > 0) {
      const v = stack.pop();
      if (typeof v === 'string') h += v.length;
      else if (typeof v === 'number') h += 1;
      else if (Array.isArray(v)) for (const x of v as unknown[]) stack.push(x);
      else if (v !== null && typeof v === 'object') {
        const o = v as Record<string, unknown>;
        for (const key in o) stack.push(o[key]);
      }
    }
  }
  return h;
}
