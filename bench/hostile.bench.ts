import {
  HOSTILE_SMALL,
  HOSTILE_TEST,
  hostileCase,
  hostileCases,
} from '../src/core/generate/hostile.js';
import { SkeinError } from '../src/core/errors.js';
import { importAny } from '../src/core/import/index.js';
import { EventStream } from '../src/core/stream/event-stream.js';
import { layoutSwimlane } from '../src/core/swimlane/layout.js';
import { buildTimeline } from '../src/core/timeline/build.js';
import { buildTranscriptRows } from '../src/core/transcript/rows.js';
import { buildEventTree } from '../src/core/tree/event-tree.js';
import { buildSpanTreeView } from '../src/core/tree/outline.js';
import { defineBench } from './node.js';

/**
 * `core.hostile.depth.<n>` (issue 30): importing a run whose spans nest `n`
 * deep (the hostile corpus's `skein/deep`: canonical events as JSON Lines,
 * `2n` span events and an info event every 97 spans) and building its span
 * tree, timeline and transcript rows, as a ratio to the same pipeline over a
 * flat run of the same events (every span at the root). Target ≤ 3×: depth
 * may cost, but never by the depth. `.flat` is the baseline's own time.
 *
 * `core.hostile.case-max.test`: every case of the corpus at the `npm test`
 * sizes through import, stream, tree, timeline, swimlane layout, transcript
 * rows and the outline; the slowest case's time (one run each, after one
 * warm-up run of the whole corpus; under `--quick`, one cold run). Target ≤
 * 2,000 ms ("no hang"). The name of the slowest case is printed.
 */
export default defineBench({
  name: 'core.hostile',
  async run(ctx) {
    const n = ctx.size(100_000, 20_000);
    const label = ctx.label(n);
    const deep = hostileCase('skein', 'deep', { ...HOSTILE_SMALL, depth: n }, 1)!.input as string;
    // The same lines with every span at the root: no parent, no enclosing span.
    const flat = deep
      .split('\n')
      .map((line) =>
        line.startsWith('{"event":"span_begin"')
          ? line.replace(/"parent_id":"[^"]*","span_id":"[^"]*"/, '"parent_id":null,"span_id":null')
          : line,
      )
      .join('\n');
    const pipeline = (text: string) => async () => {
      const { events } = await importAny(text, { filename: 'run.jsonl' });
      const tree = buildEventTree(events);
      buildTimeline(events);
      buildTranscriptRows(tree);
    };
    const base = await ctx.time(pipeline(flat), { repeat: 5, warmup: 1 });
    const baseline = {
      name: `core.hostile.depth.${label}.flat`,
      value: base.median,
      unit: 'ms' as const,
      n,
    };
    ctx.record(baseline);
    const timing = await ctx.time(pipeline(deep), { repeat: 5, warmup: 1 });
    ctx.record(
      { name: `core.hostile.depth.${label}`, value: timing.median, unit: 'ms', n, target: '≤ 3×' },
      baseline,
    );

    const corpus = async () => {
      let slowest = { name: '', ms: 0 };
      let cases = 0;
      for (const c of hostileCases(HOSTILE_TEST, 1)) {
        cases++;
        const t0 = performance.now();
        try {
          const { events } = await importAny(c.input, { filename: c.filename });
          const latest = EventStream.from(events).latest();
          const tree = buildEventTree(latest);
          layoutSwimlane(buildTimeline(latest), { showBranches: true });
          buildTranscriptRows(tree);
          buildSpanTreeView(tree, { mode: 'outline' });
        } catch (e) {
          if (!(e instanceof SkeinError)) throw e;
        }
        const ms = performance.now() - t0;
        if (ms > slowest.ms) slowest = { name: c.name, ms };
      }
      return { slowest, cases };
    };
    // A warm-up pass of the whole corpus first, but under --quick (a smoke
    // check; the corpus, generated afresh for each pass, was half this
    // bench's time there): one pass, cold, so its slowest case is an upper bound.
    if (!ctx.quick) await corpus();
    const { slowest, cases } = await corpus();
    process.stderr.write(
      `  slowest hostile case${ctx.quick ? ' (one cold pass)' : ''}: ${slowest.name} (${slowest.ms.toFixed(0)} ms)\n`,
    );
    ctx.record({
      name: 'core.hostile.case-max.test',
      value: slowest.ms,
      unit: 'ms',
      n: cases,
      target: '≤ 2000 ms',
    });
  },
});
