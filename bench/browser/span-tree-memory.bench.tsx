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
 * "Stops" is two GCs 50 ms apart within 0.1 MB: with 0.5 MB and 20 ms, a
 * baseline taken while an unmounted view's garbage was still going read
 * high, and the figure after it low by up to 3 MB (100k: 0.99–1.15× in
 * three runs of the same build).
 */
async function heap(ctx: BrowserBenchContext): Promise<number> {
  let last = ctx.heapMB()!;
  for (let i = 0; i < 12; i++) {
    await new Promise((r) => setTimeout(r, 50));
    const now = ctx.heapMB()!;
    if (now > last - 0.1) return Math.min(now, last);
    last = now;
  }
  return last;
}

/** The median of `values` (the mean of the middle two for an even count). */
function median(values: readonly number[]): number {
  const v = [...values].sort((a, b) => a - b);
  const m = v.length >> 1;
  return v.length % 2 === 1 ? v[m]! : (v[m - 1]! + v[m]!) / 2;
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
  // Work a view schedules after its first paint (measuring rows, idle
  // callbacks) belongs to what it holds: let it run before measuring.
  await new Promise((r) => setTimeout(r, 200));
  const after = await heap(ctx);
  root.unmount();
  el.remove();
  // Let the unmounted views' feeds and timers go before the next GC.
  await new Promise((r) => setTimeout(r, 200));
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
 * each figure is the median of 3 rounds, the variants in a different order
 * each round, after a throwaway mount. (The smaller of two rounds, before,
 * took the lowest of a difference — a baseline read high — and one CI sample
 * read 1.31×. `--quick` took 5 rounds at 100k, but it is CI's smoke check
 * that the bench runs, and those 16 mounts were a third of its browser time.)
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
    // throwaway mount of both views first, then rounds, each in another
    // order (no variant always follows the same one), the median of each.
    await heldBy(ctx, variants.separate);
    const kinds = ['alone', 'shared', 'separate'] as const;
    const samples = { alone: [] as number[], shared: [] as number[], separate: [] as number[] };
    const rounds = 3;
    for (let round = 0; round < rounds; round++)
      for (let k = 0; k < kinds.length; k++) {
        const kind = kinds[(k + round) % kinds.length]!;
        samples[kind].push(await heldBy(ctx, variants[kind]));
      }
    const alone = median(samples.alone);
    const shared = median(samples.shared);
    const separate = median(samples.separate);
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
