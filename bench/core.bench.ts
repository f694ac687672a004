import { defineBench } from './node.js';

/**
 * `core.noop-pass.1m`: one linear pass over 1M small objects — the baseline
 * every core metric is divided by (ARCHITECTURE.md, "Performance model").
 */
export default defineBench({
  name: 'core.noop-pass',
  async run(ctx) {
    await ctx.linearPass(ctx.size(1_000_000, 100_000));
  },
});
