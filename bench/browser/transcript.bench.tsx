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

    // append to a large live run: the stream already holds `big` events (a
    // live run that has been going for a while). Every snapshot of its tree
    // is O(n), so the feed holds snapshots back in proportion to their cost:
    // this shows what following such a run costs (no target; issue 6 notes).
    const big = ctx.size(200_000, 20_000);
    const bigRun = generateRun({ seed: 3, events: big + 3_000, pendingRate: 0 });
    const bigStream = EventStream.from(bigRun.slice(0, big));
    const el3 = ctx.container(1000, 800);
    const root3 = createRoot(el3);
    flushSync(() =>
      root3.render(
        <SkeinTheme theme="light">
          <div style={{ height: 800 }}>
            {/* A live run joined late: it follows the end (a stream made with
                EventStream.from is complete and would open at its start). */}
            <Transcript stream={bigStream} openAt="end" />
          </div>
        </SkeinTheme>,
      ),
    );
    const feed3 = el3.querySelector<HTMLElement>('[role="feed"]')!;
    while (feed3.getAttribute('aria-busy') !== 'false') await new Promise((r) => setTimeout(r, 50));
    await ctx.nextPaint();
    let at = big;
    const t2 = performance.now();
    const bigStats = await ctx.frames(async () => {
      while (at < bigRun.length) {
        for (let k = 0; k < 100 && at < bigRun.length; k++) bigStream.append(bigRun[at++]!);
        await new Promise((r) => requestAnimationFrame(r));
      }
    });
    // Until the last appended event that has a row (shown by default) is drawn.
    const hidden = new Set(['span_end', 'sample_init', 'sandbox', 'state', 'store']);
    let lastAt = bigRun.length - 1;
    while (hidden.has(bigRun[lastAt]!.event)) lastAt--;
    const lastId = bigRun[lastAt]!.uuid;
    const until = performance.now() + 30_000;
    while (el3.querySelector(`[data-event-id="${lastId}"]`) === null) {
      if (performance.now() > until) throw new Error(`append-at: ${lastId} never drawn`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const bigLabel = ctx.label(big);
    ctx.record({
      name: `browser.transcript.append-at.${bigLabel}`,
      value: ((at - big) / (performance.now() - t2)) * 1000,
      unit: 'events/s',
      n: big,
    });
    ctx.record(
      {
        name: `browser.transcript.append-at.${bigLabel}.frame-p95`,
        value: bigStats.p95,
        unit: 'ms',
        n: big,
      },
      frame,
    );
    ctx.record({
      name: `browser.transcript.append-at.${bigLabel}.longest-task`,
      value: bigStats.longestTask,
      unit: 'ms',
      n: big,
    });
    root3.unmount();
    el3.remove();
  },
});
