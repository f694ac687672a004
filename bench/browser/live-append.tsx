import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { EventStream, createEventTreeFeed, createSelectionStore, generateRun } from 'skein';
import { SpanTree, Transcript } from 'skein/react';
import type { BrowserBenchContext } from './context.js';

/** The rate the issue asks a live view to sustain. */
const TARGET_RATE = 20_000;

/**
 * `browser.live.append.<size>` (issue 21): a live run that already holds
 * `big` events, with a mounted `<Transcript>` and `<SpanTree>` following it
 * through one shared feed, gets `added` more events appended at 20,000/s —
 * each frame appends what is due since the start, as a fast feed delivers
 * them. Recorded: the rate sustained (events appended / wall time until the
 * last one is drawn), the p95 frame interval and the longest task while
 * appending. Targets: ≥ 20,000 events/s, p95 < 20 ms, no long task > 50 ms.
 * The time to generate the run, fill the stream and mount both views is
 * recorded too (`.setup`), as it bounds the bench's own run time.
 */
export async function liveAppend(
  ctx: BrowserBenchContext,
  big: number,
  added: number,
): Promise<void> {
  const frame = await ctx.frameBaseline();
  const setupStart = performance.now();
  const run = generateRun({ seed: 21, events: big + added, pendingRate: 0.1 });
  // Joined late: the history is in, the run goes on (not complete).
  const stream = new EventStream();
  for (let i = 0; i < big; i++) stream.append(run[i]!);
  // One feed for both views, as their docs say to mount them on one run:
  // the tree is built once, not once per view.
  const feed = createEventTreeFeed(stream);
  const selection = createSelectionStore();
  const el = ctx.container(1200, 800);
  const root = createRoot(el);
  flushSync(() =>
    root.render(
      <div style={{ display: 'grid', gridTemplateColumns: '1fr 1.4fr', height: 800 }}>
        <SpanTree feed={feed} selection={selection} toolbar={false} />
        <Transcript feed={feed} openAt="end" />
      </div>,
    ),
  );
  const busy = () =>
    el.querySelector('[role="feed"]')?.getAttribute('aria-busy') !== 'false' ||
    el.querySelector('[role="treegrid"]')?.getAttribute('aria-busy') !== 'false';
  while (busy()) await new Promise((r) => setTimeout(r, 50));
  await ctx.nextPaint();
  const setup = performance.now() - setupStart;

  let at = big;
  const t0 = performance.now();
  const stats = await ctx.frames(async () => {
    while (at < run.length) {
      const due = Math.min(
        run.length,
        big + Math.ceil(((performance.now() - t0) / 1000) * TARGET_RATE),
      );
      while (at < due) stream.append(run[at++]!);
      await new Promise((r) => requestAnimationFrame(r));
    }
  });
  // Until the last appended event with a transcript row is drawn.
  const hidden = new Set(['span_end', 'sample_init', 'sandbox', 'state', 'store']);
  let lastAt = run.length - 1;
  while (hidden.has(run[lastAt]!.event)) lastAt--;
  const lastId = run[lastAt]!.uuid;
  const until = performance.now() + 60_000;
  while (el.querySelector(`[data-event-id="${CSS.escape(lastId)}"]`) === null) {
    if (performance.now() > until) throw new Error(`browser.live.append: ${lastId} never drawn`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const seconds = (performance.now() - t0) / 1000;
  const name = `browser.live.append.${ctx.label(big)}`;
  ctx.record({
    name,
    value: added / seconds,
    unit: 'events/s',
    n: big,
    target: '≥ 20,000',
  });
  ctx.record(
    { name: `${name}.frame-p95`, value: stats.p95, unit: 'ms', n: big, target: '< 20 ms' },
    frame,
  );
  ctx.record({
    name: `${name}.longest-task`,
    value: stats.longestTask,
    unit: 'ms',
    n: big,
    target: '≤ 50 ms',
  });
  ctx.record({ name: `${name}.long-tasks`, value: stats.longTasks, unit: 'count', n: big });
  ctx.record({ name: `${name}.setup`, value: setup, unit: 'ms', n: big });
  root.unmount();
  el.remove();
}
