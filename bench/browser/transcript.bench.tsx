import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { EventStream, generateRun, type Event } from 'skein';
import { SkeinTheme, Transcript } from 'skein/react';
import { defineBrowserBench } from './context.js';

/**
 * `browser.transcript.*` (issue 6): mount, DOM size, scroll frames, live
 * appends and heap of `<Transcript>` over a generated run.
 */
export default defineBrowserBench({
  name: 'browser.transcript',
  async run(ctx) {
    const frame = await ctx.frameBaseline();
    const n = ctx.size(1_000_000, 50_000);
    const label = ctx.label(n);
    const heapBefore = ctx.heapMB();
    const events: Event[] = generateRun({ seed: 1, events: n });
    const bytes = events.reduce((sum, e) => sum + JSON.stringify(e).length, 0);
    const stream = EventStream.from(events);

    // mount: from a ready stream to the first rows painted.
    const el = ctx.container(1000, 800);
    const t0 = performance.now();
    const root = createRoot(el);
    flushSync(() =>
      root.render(
        <SkeinTheme theme="light">
          <div style={{ height: 800 }}>
            <Transcript stream={stream} />
          </div>
        </SkeinTheme>,
      ),
    );
    await ctx.nextPaint();
    const mount = performance.now() - t0;
    if (el.querySelector('article') === null) throw new Error('transcript painted no rows');
    ctx.record(
      {
        name: `browser.transcript.mount.${label}`,
        value: mount,
        unit: 'ms',
        n,
        target: '≤ 100 ms',
      },
      frame,
    );

    const feed = el.querySelector<HTMLElement>('[role="feed"]')!;
    const scroller = feed.parentElement!;
    while (feed.getAttribute('aria-busy') !== 'false') await new Promise((r) => setTimeout(r, 50));
    ctx.record({
      name: `browser.transcript.dom-rows.${label}`,
      value: feed.querySelectorAll('article').length,
      unit: 'count',
      n,
      target: '≤ 100',
    });
    const heapAfter = ctx.heapMB();
    if (heapBefore !== undefined && heapAfter !== undefined) {
      ctx.record({
        name: `browser.transcript.heap.${label}`,
        value: (heapAfter - heapBefore) / (bytes / 2 ** 20),
        unit: 'ratio',
        n,
        target: '≤ 2×',
      });
    }

    // scroll: top to bottom in large steps, one per frame.
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
        name: `browser.transcript.scroll-frame-p95.${label}`,
        value: stats.p95,
        unit: 'ms',
        n,
        target: '< 20 ms',
      },
      frame,
    );
    ctx.record({
      name: `browser.transcript.scroll-long-tasks.${label}`,
      value: stats.longTasks,
      unit: 'count',
      n,
      target: '0 over 50 ms',
    });
    root.unmount();
    el.remove();

    // append: events per second while following, from a small live run.
    const live = new EventStream();
    const source = generateRun({ seed: 2, events: ctx.size(20_000, 5_000), pendingRate: 0 });
    for (let i = 0; i < 200; i++) live.append(source[i]!);
    const el2 = ctx.container(1000, 800);
    const root2 = createRoot(el2);
    flushSync(() =>
      root2.render(
        <SkeinTheme theme="light">
          <div style={{ height: 800 }}>
            <Transcript stream={live} />
          </div>
        </SkeinTheme>,
      ),
    );
    await ctx.nextPaint();
    let next = 200;
    const t1 = performance.now();
    const appendStats = await ctx.frames(async () => {
      while (next < source.length) {
        // A burst per frame, as a fast agent produces them.
        for (let k = 0; k < 100 && next < source.length; k++) live.append(source[next++]!);
        await new Promise((r) => requestAnimationFrame(r));
      }
    });
    const rate = ((next - 200) / (performance.now() - t1)) * 1000;
    ctx.record({
      name: 'browser.transcript.append',
      value: rate,
      unit: 'events/s',
      n: next - 200,
      target: '≥ 5,000 (p95 frame < 20 ms)',
    });
    ctx.record(
      {
        name: 'browser.transcript.append-frame-p95',
        value: appendStats.p95,
        unit: 'ms',
        target: '< 20 ms',
      },
      frame,
    );
    root2.unmount();
    el2.remove();
  },
});
