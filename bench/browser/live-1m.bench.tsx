import { defineBrowserBench } from './context.js';
import { liveAppend } from './live-append.js';

/**
 * `browser.live.append.1m` (issue 21): 20,000/s appended to a live run of 1M
 * events with `<Transcript>` and `<SpanTree>` mounted (`liveAppend`); 100k
 * appended (20k with `--quick`, where generating the run, filling the stream
 * and mounting take most of the bench's time).
 */
export default defineBrowserBench({
  name: 'browser.live.append.1m',
  run: (ctx) => liveAppend(ctx, 1_000_000, ctx.size(100_000, 20_000)),
});
