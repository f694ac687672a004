import { HOSTILE_SMALL, hostileCase } from '../src/core/generate/hostile.js';
import { importAny } from '../src/core/import/index.js';
import { buildTimeline } from '../src/core/timeline/build.js';
import { buildTranscriptRows } from '../src/core/transcript/rows.js';
import { buildEventTree } from '../src/core/tree/event-tree.js';
import { defineBench } from './node.js';

/**
 * `core.hostile.depth.<n>` (issue 30): importing a run whose spans nest `n`
 * deep (the hostile corpus's `skein/deep`: canonical events as JSON Lines,
 * `2n` span events and an info event every 97 spans) and building its span
 * tree, timeline and transcript rows, as a ratio to the same pipeline over a
 * flat run of the same events (every span at the root). Target ≤ 3×: depth
 * may cost, but never by the depth. `.flat` is the baseline's own time.
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
  },
});
