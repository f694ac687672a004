import { generateRun } from '../src/core/generate/generate-run.js';
import { EventStream } from '../src/core/stream/event-stream.js';
import { defineBench } from './node.js';

/**
 * `core.generate.1m`: generating a 1M-event run (the fixture every other
 * bench stands on). `core.stream.append.1m`: appending 1M generated events to
 * an EventStream with one subscriber (each event checked and deep-frozen), as
 * a ratio to one pass over the same events, with the peak heap seen while
 * appending.
 */
export default defineBench({
  name: 'core.stream',
  async run(ctx) {
    const n = ctx.size(1_000_000, 100_000);
    const label = ctx.label(n);

    const gen = await ctx.time(() => generateRun({ seed: 3, events: n }), { repeat: 3, warmup: 0 });
    // The baseline pass runs over the same kind of events (dropped afterwards).
    const base = await ctx.eventPass(generateRun({ seed: 3, events: n }));
    ctx.record({ name: `core.generate.${label}`, value: gen.median, unit: 'ms', n }, base);

    // Fresh (unfrozen) events for every repetition: freezing is the cost
    // being measured, and an already-frozen event is skipped.
    const times: number[] = [];
    let peakMB = 0;
    let heapBeforeMB = 0;
    for (let r = 0; r < 3; r++) {
      const events = generateRun({ seed: 3, events: n });
      heapBeforeMB = ctx.heapUsedMB();
      let notified = 0;
      const t0 = performance.now();
      const stream = new EventStream();
      const unsubscribe = stream.subscribe(() => notified++);
      for (let i = 0; i < events.length; i++) {
        stream.append(events[i]!);
        if (i % 50_000 === 0) peakMB = Math.max(peakMB, process.memoryUsage().heapUsed / 2 ** 20);
      }
      await Promise.resolve();
      stream.latest();
      times.push(performance.now() - t0);
      peakMB = Math.max(peakMB, process.memoryUsage().heapUsed / 2 ** 20);
      unsubscribe();
      if (notified !== 1) throw new Error(`expected one batched notification, got ${notified}`);
      if (stream.length !== n) throw new Error('lost events');
    }
    times.sort((a, b) => a - b);
    ctx.record({ name: `core.stream.append.${label}`, value: times[1]!, unit: 'ms', n }, base);
    ctx.record({ name: `core.stream.append.${label}.heap-peak`, value: peakMB, unit: 'MB', n });
    ctx.record({
      name: `core.stream.append.${label}.heap-before`,
      value: heapBeforeMB,
      unit: 'MB',
      n,
    });
  },
});
