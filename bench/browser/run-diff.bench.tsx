import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { generateRun, generateRunVariant } from 'skein';
import { RunDiff } from 'skein/react';
import { defineBrowserBench } from './context.js';

/**
 * `browser.rundiff.*`: a bare `<RunDiff>` of two 100k-step runs (a
 * generated run of 185k events, about 0.54 steps an event, against the same
 * run logged again with 1 % of its tool calls and model answers changed):
 * render call to first rows painted, DOM rows once both runs are read and
 * aligned, and the p95 frame while scrolling top to bottom. `--quick`: 20k
 * events.
 *
 * What `mount` holds: the first rows come from the first slice of each run
 * (the shared tree feed takes 500 events at the first read: both runs' span
 * trees of those, and `createRunDiff`'s diff of them, all code running for
 * the first time), then React's render and commit, the list engine's read of
 * the viewport (the page's first layout) and the paint. The diff of the whole
 * runs comes after, in the background, and is in `settled`. `longest-task`:
 * the longest main-thread task (PerformanceObserver `longtask`) from the
 * render call to both runs' swimlanes drawn and a quiet 300 ms after: the
 * last diff update runs in slices, and the swimlanes after it.
 */
export default defineBrowserBench({
  name: 'browser.rundiff',
  async run(ctx) {
    const frame = await ctx.frameBaseline();
    const n = ctx.size(185_000, 20_000);
    const label = ctx.label(n);
    const a = generateRun({ seed: 34, events: n, pendingRate: 0 });
    const b = generateRunVariant(a, { rate: 0.01 });
    const el = ctx.container(1200, 800);
    // Long tasks from the render call to the swimlanes drawn (the final diff
    // and both runs' lanes come after the rows, in the background). The task
    // that generated the runs ends first: it would be counted otherwise.
    await ctx.nextPaint();
    const tasks: number[] = [];
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) tasks.push(entry.duration);
    });
    observer.observe({ type: 'longtask', buffered: false });
    const t0 = performance.now();
    const root = createRoot(el);
    flushSync(() => root.render(<RunDiff a={a} b={b} />));
    await ctx.nextPaint();
    const mount = performance.now() - t0;
    const grid = el.querySelector<HTMLElement>('[role="treegrid"]')!;
    if (grid.querySelector('.skein-run-diff__body [role="row"]') === null)
      throw new Error('run diff painted no rows');
    ctx.record(
      { name: `browser.rundiff.mount.${label}`, value: mount, unit: 'ms', n, target: '≤ 100 ms' },
      frame,
    );

    const t1 = performance.now();
    while (grid.getAttribute('aria-busy') !== 'false') await new Promise((r) => setTimeout(r, 20));
    await ctx.nextPaint();
    ctx.record({
      name: `browser.rundiff.settled.${label}`,
      value: performance.now() - t1 + mount,
      unit: 'ms',
      n,
    });
    while (el.querySelector('.skein-run-diff__lane') === null)
      await new Promise((r) => setTimeout(r, 20));
    // A quiet moment after: a task still running when the lanes appear is counted.
    await new Promise((r) => setTimeout(r, 300));
    observer.disconnect();
    ctx.record({
      name: `browser.rundiff.longest-task.${label}`,
      value: Math.max(0, ...tasks),
      unit: 'ms',
      n,
      target: '≤ 200 ms',
    });
    ctx.record({
      name: `browser.rundiff.dom-rows.${label}`,
      value: grid.querySelectorAll('.skein-run-diff__body [role="row"]').length,
      unit: 'count',
      n,
      target: '≤ 100',
    });

    const scroller = grid.querySelector<HTMLElement>('.skein-run-diff__scroller')!;
    scroller.scrollTop = 0;
    await ctx.nextPaint();
    const steps = 60;
    const stats = await ctx.frames(async () => {
      for (let i = 1; i <= steps; i++) {
        scroller.scrollTop = ((scroller.scrollHeight - scroller.clientHeight) * i) / steps;
        await new Promise((r) => requestAnimationFrame(r));
      }
    });
    ctx.record(
      {
        name: `browser.rundiff.scroll-frame-p95.${label}`,
        value: stats.p95,
        unit: 'ms',
        n,
        target: '< 20 ms',
      },
      frame,
    );
    root.unmount();
    el.remove();
  },
});
