import { createRoot } from 'react-dom/client';
import { SkeinTheme } from 'skein/react';
import { defineBrowserBench } from './context.js';

/**
 * `browser.blank-page.mount`: mount an empty skein root with React and wait for
 * the frame that shows it. The floor under every component mount, as a ratio
 * to one idle frame interval measured in the same page.
 */
export default defineBrowserBench({
  name: 'browser.blank-page',
  async run(ctx) {
    const frame = await ctx.frameBaseline();
    const samples: number[] = [];
    const heapBefore = ctx.heapMB();
    const stats = await ctx.frames(async () => {
      for (let i = 0; i < ctx.size(20, 5); i++) {
        const el = ctx.container();
        const t0 = performance.now();
        const root = createRoot(el);
        root.render(<SkeinTheme theme="light">skein</SkeinTheme>);
        await ctx.nextPaint();
        if (!el.textContent?.includes('skein')) throw new Error('blank page did not render');
        samples.push(performance.now() - t0);
        root.unmount();
        el.remove();
      }
    });
    samples.sort((a, b) => a - b);
    const median = samples[Math.floor(samples.length / 2)]!;
    ctx.record(
      { name: 'browser.blank-page.mount', value: median, unit: 'ms', n: samples.length },
      frame,
    );
    ctx.record({ name: 'browser.blank-page.frame-p95', value: stats.p95, unit: 'ms' }, frame);
    ctx.record({ name: 'browser.blank-page.long-tasks', value: stats.longTasks, unit: 'count' });
    const heapAfter = ctx.heapMB();
    if (heapBefore !== undefined && heapAfter !== undefined) {
      ctx.record({ name: 'browser.blank-page.heap', value: heapAfter, unit: 'MB' });
    }
  },
});
