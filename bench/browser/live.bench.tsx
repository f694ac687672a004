import { defineBrowserBench } from './context.js';
import { liveAppend } from './live-append.js';

/**
 * `browser.live.append.100k` (issue 21): 20,000/s appended to a live run of
 * 100k events with `<Transcript>` and `<SpanTree>` mounted (`liveAppend`);
 * 100k appended (20k with `--quick`).
 */
export default defineBrowserBench({
  name: 'browser.live.append.100k',
  run: (ctx) => liveAppend(ctx, 100_000, ctx.size(100_000, 20_000)),
});
