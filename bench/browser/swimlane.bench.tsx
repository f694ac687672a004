import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { Swimlane } from 'skein/react';
import { fanOutEvents, fanOutTimeline } from '../../stories/swimlane-fixtures.js';
import { defineBrowserBench } from './context.js';

/**
 * `browser.swimlane.*` (issue 18), on a fan-out run of 100k sub-agents
 * (quick mode too, except `mount-events`, 20k there):
 * - `mount.100k`: `<Swimlane timeline>` with a ready timeline, from the
 *   render call to the first bars painted (target ≤ 100 ms);
 * - `mount-events.100k`: `<Swimlane events>` on the same run's events (the
 *   timeline is built inside: reported, no target);
 * - `mount-markers.100k`: until the markers are painted too (big rows'
 *   markers follow the first paint; no target);
 * - `dom-nodes.100k`: elements drawn after mount, markers included (≤ 2,000);
 * - `hover.100k`: median time of one pointer move over the bars (the
 *   tooltip's re-render; no target);
 * - `zoom-frame-p95.100k`: p95 frame interval while zooming continuously
 *   by wheel around the middle (target < 20 ms), and `zoom-step.100k`, the
 *   median work of one wheel step (≤ 8 ms); `zoom-frame-mean`,
 *   `zoom-frames-over-20ms` and `zoom-step-p95` (no targets) tell paired
 *   runs apart where the p95 of 80 frames only takes whole vsyncs.
 */
export default defineBrowserBench({
  name: 'browser.swimlane',
  async run(ctx) {
    const frame = await ctx.frameBaseline();
    // The ready-timeline figures run at 100k in quick mode too: the layout
    // is lazy, so they fit its time budget (issue 18's targets are at 100k).
    const n = 100_000;
    const label = ctx.label(n);
    const timeline = fanOutTimeline({ agents: n, parallelism: 8 });

    const el = ctx.container(1200, 700);
    const t0 = performance.now();
    const root = createRoot(el);
    flushSync(() => root.render(<Swimlane timeline={timeline} />));
    await ctx.nextPaint();
    const mount = performance.now() - t0;
    if (el.querySelector('.skein-swimlane__strip, .skein-swimlane__bar') === null)
      throw new Error('swimlane painted no bars');
    ctx.record(
      { name: `browser.swimlane.mount.${label}`, value: mount, unit: 'ms', n, target: '≤ 100 ms' },
      frame,
    );
    // Markers of big rows follow the first paint: wait for them (the run
    // has failed agents), so the DOM count below is the whole drawing.
    while (el.querySelector('.skein-swimlane__marker') === null) {
      if (performance.now() - t0 > 10_000) throw new Error('swimlane painted no markers');
      await ctx.nextPaint();
    }
    ctx.record({
      name: `browser.swimlane.mount-markers.${label}`,
      value: performance.now() - t0,
      unit: 'ms',
      n,
    });
    ctx.record({
      name: `browser.swimlane.dom-nodes.${label}`,
      value: el.querySelectorAll('*').length,
      unit: 'count',
      n,
      target: '≤ 2000',
    });

    // Hover: a pointer move over the bars re-renders for the tooltip; the
    // view does not change, so nothing should be re-windowed.
    const body = el.querySelector('.skein-swimlane__body')!;
    const lane0 =
      el.querySelectorAll('.skein-swimlane__lane')[1] ?? el.querySelector('.skein-swimlane__lane')!;
    const laneRect = lane0.getBoundingClientRect();
    const hovers: number[] = [];
    for (let i = 0; i < 40; i++) {
      const t = performance.now();
      flushSync(() => {
        body.dispatchEvent(
          new PointerEvent('pointermove', {
            bubbles: true,
            pointerId: 1,
            clientX: laneRect.left + 20 + ((i * 37) % Math.max(1, laneRect.width - 40)),
            clientY: laneRect.top + laneRect.height / 2,
          }),
        );
      });
      hovers.push(performance.now() - t);
      await new Promise((r) => requestAnimationFrame(r));
    }
    hovers.sort((a, b) => a - b);
    ctx.record({
      name: `browser.swimlane.hover.${label}`,
      value: hovers[Math.floor(hovers.length / 2)]!,
      unit: 'ms',
      n,
    });
    if (el.querySelector('[role="tooltip"]') === null)
      throw new Error('swimlane hover showed no tooltip');

    // Continuous zoom: one wheel step per frame around the middle, in then out.
    const lane = el.querySelector('.skein-swimlane__lane')!;
    const rect = lane.getBoundingClientRect();
    const steps: number[] = [];
    const stats = await ctx.frames(async () => {
      for (let i = 0; i < 80; i++) {
        const t = performance.now();
        flushSync(() => {
          lane.dispatchEvent(
            new WheelEvent('wheel', {
              bubbles: true,
              cancelable: true,
              deltaY: i < 40 ? -120 : 120,
              clientX: rect.left + rect.width / 2,
              clientY: rect.top + 10,
            }),
          );
        });
        steps.push(performance.now() - t);
        await new Promise((r) => requestAnimationFrame(r));
      }
    });
    ctx.record(
      {
        name: `browser.swimlane.zoom-frame-p95.${label}`,
        value: stats.p95,
        unit: 'ms',
        n,
        target: '< 20 ms',
      },
      frame,
    );
    // p95 of 80 frames is quantized to whole vsyncs (16.7 / 33.3 ms): the
    // mean interval and the count of frames over 20 ms tell A/B runs apart.
    const intervals = stats.intervals;
    ctx.record({
      name: `browser.swimlane.zoom-frame-mean.${label}`,
      value: intervals.reduce((a, b) => a + b, 0) / Math.max(1, intervals.length),
      unit: 'ms',
      n,
    });
    ctx.record({
      name: `browser.swimlane.zoom-frames-over-20ms.${label}`,
      value: intervals.filter((x) => x > 20).length,
      unit: 'count',
      n,
    });
    steps.sort((a, b) => a - b);
    ctx.record({
      name: `browser.swimlane.zoom-step-p95.${label}`,
      value: steps[Math.floor(steps.length * 0.95)]!,
      unit: 'ms',
      n,
    });
    ctx.record(
      {
        name: `browser.swimlane.zoom-step.${label}`,
        value: steps[Math.floor(steps.length / 2)]!,
        unit: 'ms',
        n,
        target: '≤ 8 ms',
      },
      frame,
    );
    root.unmount();
    el.remove();

    // <Swimlane events>: the timeline is built inside (reported, no target).
    // Building it from ~300k events is the slow part: 20k in quick mode.
    const nEvents = ctx.size(100_000, 20_000);
    const events = fanOutEvents({ agents: nEvents, parallelism: 8 });
    const el2 = ctx.container(1200, 700);
    const t1 = performance.now();
    const root2 = createRoot(el2);
    flushSync(() => root2.render(<Swimlane events={events} />));
    await ctx.nextPaint();
    // The feed folds a large array in over several slices: wait for the whole run.
    while (el2.querySelector('[aria-busy="true"]') !== null)
      await new Promise((r) => setTimeout(r, 20));
    await ctx.nextPaint();
    ctx.record(
      {
        name: `browser.swimlane.mount-events.${ctx.label(nEvents)}`,
        value: performance.now() - t1,
        unit: 'ms',
        n: nEvents,
      },
      frame,
    );
    root2.unmount();
    el2.remove();
  },
});
