import { fromAgUi } from '../src/core/import/ag-ui/ag-ui.js';
import { fromUIMessageStream } from '../src/core/import/vercel-ai/vercel-ai.js';
import type { LiveAdapter } from '../src/core/import/live.js';
import { makeAgUiLines, makeUIChunkLines } from './adapter-sources.js';
import { defineBench } from './node.js';

/**
 * `core.adapter.agui` and `core.adapter.vercel-ai` (issue 33): source events
 * per second through each live adapter in Node — `fromAgUi`, `fromUIMessageStream`
 * — into an `EventStream`, each event its own push and flush (the worst
 * case: a socket delivering one event per read; the React hooks flush once
 * per frame). The events are parsed before timing: this is the adapter's
 * cost (copying the event, mapping it, appending the changed versions).
 * Target ≥ 100,000 events/s.
 */
export default defineBench({
  name: 'core.adapter',
  async run(ctx) {
    const n = ctx.size(100_000, 10_000);
    const sources: [string, string, () => LiveAdapter<never>][] = [
      ['agui', makeAgUiLines(n), () => fromAgUi({ schedule: () => {}, now: () => 0 }) as never],
      [
        'vercel-ai',
        makeUIChunkLines(n),
        () => fromUIMessageStream({ schedule: () => {}, now: () => 0 }) as never,
      ],
    ];
    for (const [source, text, make] of sources) {
      const lines = text.split('\n');
      const events = lines.map((l) => JSON.parse(l) as never);
      // The baseline: JSON.parse of the same events, per second (what reading
      // them off the wire costs at least), measured in the same run.
      const parse = await ctx.time(() => lines.map((l) => JSON.parse(l) as unknown), {
        repeat: 5,
        warmup: 1,
      });
      let versions = 0;
      const timing = await ctx.time(
        () => {
          const adapter = make();
          for (const e of events) {
            adapter.push(e);
            adapter.flush();
          }
          adapter.end();
          versions = adapter.stream.length;
        },
        { repeat: 5, warmup: 1 },
      );
      const name = `core.adapter.${source}`;
      const baseline = {
        name: `${name}.json-parse`,
        value: Math.round(events.length / (parse.median / 1000)),
        unit: 'events/s' as const,
        n: events.length,
      };
      ctx.record(baseline);
      ctx.record({
        name,
        value: Math.round(events.length / (timing.median / 1000)),
        unit: 'events/s',
        n: events.length,
        target: '≥ 100,000',
        baseline: baseline.value,
        baselineName: baseline.name,
        ratio: parse.median / timing.median,
      });
      ctx.record({ name: `${name}.versions`, value: versions, unit: 'count', n: events.length });
    }
  },
});
