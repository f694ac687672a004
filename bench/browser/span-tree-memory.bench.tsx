import type { ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { EventStream, createEventTreeFeed, generateRun } from 'skein';
import { SpanTree, Transcript } from 'skein/react';
import { defineBrowserBench, type BrowserBenchContext } from './context.js';

/** Until every view in `el` has folded in its whole source. */
async function settled(el: HTMLElement) {
  const busy = () =>
    [...el.querySelectorAll('[role="feed"], [role="treegrid"]')].some(
      (v) => v.getAttribute('aria-busy') !== 'false',
    );
  while (busy()) await new Promise((r) => setTimeout(r, 50));
}

/**
 * The heap in use, MB: after GCs until it stops shrinking (one GC leaves
 * what only the next one frees — weak caches, finalizers: tens of MB here).
 */
async function heap(ctx: BrowserBenchContext): Promise<number> {
  let last = ctx.heapMB()!;
  for (let i = 0; i < 5; i++) {
    await new Promise((r) => setTimeout(r, 20));
    const now = ctx.heapMB()!;
    if (now > last - 0.5) return Math.min(now, last);
    last = now;
  }
  return last;
}

/**
 * The heap `views` holds once mounted and settled, over what was in use
 * before (MB, see `heap`); unmounted afterwards, so the next
 * measurement starts from the same heap.
 */
async function heldBy(ctx: BrowserBenchContext, views: () => ReactNode): Promise<number> {
  const before = await heap(ctx);
  const el = ctx.container(1400, 800);
  const root = createRoot(el);
  flushSync(() =>
    root.render(
      <div style={{ display: 'grid', gridTemplateColumns: '1fr 1.4fr', height: 800 }}>
        {views()}
      </div>,
    ),
  );
  await settled(el);
  await ctx.nextPaint();
  const after = await heap(ctx);
  root.unmount();
  el.remove();
  // Let the unmounted views' feeds and timers go before the next GC.
  await new Promise((r) => setTimeout(r, 100));
  return after - before;
}

/**
 * `browser.spantree.memory.*` (issue 17: "both views on one 1M stream:
 * memory ≤ 1.2× the transcript alone"). On one ready stream (1M events;
 * 100k with `--quick`), the heap held by a mounted, settled `<Transcript>`
 * alone, by `<Transcript>` + `<SpanTree>` each given the stream (they share
 * one feed by themselves: the tree is built once), and by the two each given
 * a feed of its own (two trees). The
 * stream itself is in the heap before every measurement and not counted;
 * each figure is the smaller of two rounds, after a throwaway mount.
 */
export default defineBrowserBench({
  name: 'browser.spantree.memory',
  async run(ctx) {
    if (ctx.heapMB() === undefined) return; // no performance.memory: nothing to report
    const n = ctx.size(1_000_000, 100_000);
    const label = ctx.label(n);
    const stream = EventStream.from(generateRun({ seed: 1, events: n, pendingRate: 0 }));

    const variants = {
      alone: () => <Transcript stream={stream} />,
      // What users write: both views given the stream share one feed
      // (`sharedEventTreeFeed`), so one tree.
      shared: () => (
        <>
          <SpanTree stream={stream} toolbar={false} />
          <Transcript stream={stream} />
        </>
      ),
      // Two trees, as before views shared a feed by themselves.
      separate: () => (
        <>
          <SpanTree feed={createEventTreeFeed(stream)} toolbar={false} />
          <Transcript feed={createEventTreeFeed(stream)} />
        </>
      ),
    };
    // A first mount of each view allocates what stays for the page's life
    // (compiled code, React's and the stream's lazily made state): a
    // throwaway mount of both views first, then two rounds, the smaller
    // figure of each.
    await heldBy(ctx, variants.separate);
    const held = { alone: Infinity, shared: Infinity, separate: Infinity };
    for (let round = 0; round < 2; round++)
      for (const k of ['alone', 'shared', 'separate'] as const)
        held[k] = Math.min(held[k], await heldBy(ctx, variants[k]));
    const { alone, shared, separate } = held;
    const aloneMetric = {
      name: `browser.spantree.memory.transcript-alone.${label}`,
      value: alone,
      unit: 'MB' as const,
      n,
    };
    ctx.record(aloneMetric);

    ctx.record(
      {
        name: `browser.spantree.memory.two-views-shared-feed.${label}`,
        value: shared,
        unit: 'MB',
        n,
        target: '≤ 1.2× transcript alone',
      },
      aloneMetric,
    );

    ctx.record(
      {
        name: `browser.spantree.memory.two-views-two-feeds.${label}`,
        value: separate,
        unit: 'MB',
        n,
      },
      aloneMetric,
    );
  },
});
