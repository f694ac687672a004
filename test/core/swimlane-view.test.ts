// The interactive swimlane's view model: viewport maths, ticks, windowed
// drawing with level of detail, hit-testing, density, and agreement with
// the static SVG.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { layoutSwimlane } from '../../src/core/swimlane/layout.js';
import { renderTimelineSvg } from '../../src/core/swimlane/svg.js';
import { createTimeScale } from '../../src/core/swimlane/time-scale.js';
import {
  clampViewport,
  createSwimlaneAxis,
  fitViewport,
  formatTickLabel,
  isFitted,
  niceTickStep,
  panViewport,
  projectViewport,
  swimlaneTicks,
  zoomViewport,
} from '../../src/core/swimlane/viewport.js';
import {
  createSwimlaneIndex,
  hitTestSwimlane,
  swimlaneDensity,
  windowSwimlane,
} from '../../src/core/swimlane/visible.js';
import { allElements, parseXml } from './helpers/xml-check.js';
import { BASE_MS, model, researchExample, span, timeline, tool } from './helpers/hand-timeline.js';
import { fanOutTimeline } from '../../stories/swimlane-fixtures.js';

/** The research example plus a 2-hour idle gap before a last agent. */
function withIdle() {
  return timeline([
    span('explore', [model(0, 30, 100)]),
    span('explore', [model(5, 20, 100)]),
    span('plan', [model(40, 60, 50), tool(45, 50, 'boom')]),
    span('coder', [model(7260, 7300, 500)]),
  ]);
}

const W = { width: 600 };

/** ISO time `seconds` after BASE_MS with microsecond digits. */
function isoMicros(seconds: number): string {
  const micros = Math.round(seconds * 1e6);
  const ms = Math.floor(micros / 1000);
  const extra = String(micros - ms * 1000).padStart(3, '0');
  return new Date(BASE_MS + ms).toISOString().replace('Z', `${extra}Z`);
}

describe('viewport', () => {
  it('maps the fitted view exactly like createTimeScale, idle gaps included', () => {
    const layout = layoutSwimlane(withIdle());
    expect(layout.idleMs).toBeGreaterThan(7000_000);
    const axis = createSwimlaneAxis(layout);
    const p = projectViewport(axis, fitViewport(axis), { width: 600, idleWidth: 10 });
    const scale = createTimeScale({ segments: layout.segments, range: [0, 600], idleWidth: 10 });
    for (const row of layout.rows)
      for (const bar of row.bars) {
        expect(p.x(bar.timeStart - axis.origin)).toBeCloseTo(scale(bar.timeStart), 6);
        expect(p.x(bar.timeEnd - axis.origin)).toBeCloseTo(scale(bar.timeEnd), 6);
      }
    expect(p.x(0)).toBe(0);
    expect(p.x(axis.duration)).toBeCloseTo(600, 9);
    expect(isFitted(axis, fitViewport(axis), W)).toBe(true);
  });

  it('zooms around the pointer: the time under it stays under it', () => {
    const axis = createSwimlaneAxis(layoutSwimlane(withIdle()));
    let v = fitViewport(axis);
    for (const atX of [100, 420, 37, 599]) {
      const before = projectViewport(axis, v, W).invert(atX);
      v = zoomViewport(axis, v, 1.7, atX, W);
      const after = projectViewport(axis, v, W).invert(atX);
      expect(after).toBeCloseTo(before, 6);
    }
    expect(isFitted(axis, v, W)).toBe(false);
    // Zooming out past the whole run stops at the whole run.
    v = zoomViewport(axis, v, 1e-6, 300, W);
    expect(isFitted(axis, v, W)).toBe(true);
    expect(v.start).toBeCloseTo(0, 9);
    expect(v.end).toBeCloseTo(axis.duration, 6);
  });

  it('pans and clamps to the run', () => {
    const axis = createSwimlaneAxis(layoutSwimlane(researchExample()));
    const zoomed = zoomViewport(axis, fitViewport(axis), 4, 300, W);
    const width = zoomed.end - zoomed.start;
    const right = panViewport(axis, zoomed, 150, W);
    expect(right.start).toBeGreaterThan(zoomed.start);
    expect(right.end - right.start).toBeCloseTo(width, 6);
    const far = panViewport(axis, zoomed, 1e9, W);
    expect(far.end).toBeCloseTo(axis.duration, 6);
    const back = panViewport(axis, far, -1e9, W);
    expect(back.start).toBe(0);
    expect(clampViewport(axis, { start: -5e6, end: 5e9 }, W)).toEqual(fitViewport(axis));
  });

  it('is exact at extremes: a 1 µs span in a 10-hour run zooms to fill the view', () => {
    const hours10 = 10 * 3600;
    const mid = 5 * 3600 + 0.123456; // seconds
    const tl = timeline([
      span('long', [model(0, hours10, 1)]),
      // 1 µs; Date has ms resolution, so the timestamps carry microseconds by hand.
      span('tiny', [
        model(0, 0, 1, { timestamp: isoMicros(mid), completed: isoMicros(mid + 1e-6) }),
      ]),
    ]);
    const layout = layoutSwimlane(tl, { idleThresholdMs: Infinity });
    const axis = createSwimlaneAxis(layout);
    const tinyBar = layout.rows.find((r) => r.label === 'tiny')!.bars[0]!;
    const t0 = tinyBar.timeStart - axis.origin;
    const t1 = tinyBar.timeEnd - axis.origin;
    let v = fitViewport(axis);
    for (let i = 0; i < 200; i++) {
      const p = projectViewport(axis, v, W);
      const at = p.x((t0 + t1) / 2);
      v = zoomViewport(axis, v, 1.5, Math.min(599, Math.max(0, at)), W);
    }
    const p = projectViewport(axis, v, W);
    // The default limit: one microsecond across the whole width.
    expect(v.end - v.start).toBeCloseTo(0.001, 7);
    expect(p.x(t1) - p.x(t0)).toBeGreaterThan(100);
    // Round trips hold to picoseconds (a thousandth of a pixel here).
    expect(p.invert(p.x(t0))).toBeCloseTo(t0, 8);
    expect(p.x(p.invert(300))).toBeCloseTo(300, 2);
    const { ticks, step } = swimlaneTicks(axis, p);
    expect(step).toBeLessThan(0.001);
    expect(ticks.length).toBeGreaterThan(1);
    expect(new Set(ticks.map((t) => t.label)).size).toBe(ticks.length);
    expect(ticks[0]!.label).toMatch(/^5h 0\.123456\ds$/);
    const hit = hitTestSwimlane(
      createSwimlaneIndex(layout),
      p,
      layout.rows.indexOf(layout.rows.find((r) => r.label === 'tiny')!),
      (p.x(t0) + p.x(t1)) / 2,
    );
    expect(hit?.type === 'bar' && hit.bar.spanId).toBe(tinyBar.spanId);
  });

  it('fits ticks to the zoom and marks idle breaks with their real duration', () => {
    const layout = layoutSwimlane(withIdle());
    const axis = createSwimlaneAxis(layout);
    const p = projectViewport(axis, fitViewport(axis), W);
    const { ticks, breaks } = swimlaneTicks(axis, p);
    expect(breaks).toHaveLength(1);
    expect(breaks[0]!.label).toBe('2h idle');
    expect(breaks[0]!.x1 - breaks[0]!.x0).toBeCloseTo(10, 6);
    for (const t of ticks) expect(t.time <= breaks[0]!.timeStart || t.time >= breaks[0]!.timeEnd);
    // Labels never overlap (at 6.6 px a character).
    for (let i = 1; i < ticks.length; i++) {
      if (ticks[i]!.time > breaks[0]!.timeStart && ticks[i - 1]!.time <= breaks[0]!.timeStart)
        continue;
      expect(ticks[i]!.viewX - ticks[i - 1]!.viewX).toBeGreaterThan(
        ticks[i]!.label.length * 6.6 * 0.9,
      );
    }
  });

  it('picks readable steps and labels', () => {
    expect(niceTickStep(0.0032)).toBeCloseTo(0.005, 12);
    expect(niceTickStep(3)).toBe(5);
    expect(niceTickStep(40_000)).toBe(60_000);
    expect(formatTickLabel(3_723_000.5, 0.5)).toBe('1h 2m 3.0005s');
    expect(formatTickLabel(0.25, 0.05)).toBe('0.25ms');
    expect(formatTickLabel(90_000, 30_000)).toBe('1m 30s');
  });
});

describe('windowed drawing', () => {
  const big = layoutSwimlane(fanOutTimeline({ agents: 20_000, parallelism: 8 }));
  const index = createSwimlaneIndex(big);

  it('draws only what overlaps the window (differential against a full scan)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 1e-7, max: 1, noNaN: true }),
        (a, len) => {
          const start = a * index.axis.duration;
          const v = clampViewport(index.axis, { start, end: start + len * index.axis.duration }, W);
          const p = projectViewport(index.axis, v, W);
          const drawn = windowSwimlane(index, p, { minBarWidth: 0, markerMergePx: 0 });
          for (const row of drawn.rows) {
            const expected = row.data.bars
              .map((b, i) => ({ b, i }))
              .filter(
                ({ b }) =>
                  b.timeEnd - index.axis.origin >= p.viewport.start &&
                  b.timeStart - index.axis.origin <= p.viewport.end,
              )
              .map(({ i }) => i);
            expect(row.bars.map((b) => b.index)).toEqual(expected);
            const markers = row.data.markers
              .map((m, i) => ({ m, i }))
              .filter(
                ({ m }) =>
                  m.time - index.axis.origin >= p.viewport.start &&
                  m.time - index.axis.origin <= p.viewport.end,
              )
              .map(({ i }) => i);
            expect(row.markers.map((m) => m.index)).toEqual(markers);
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('merges sub-pixel bars into density strips that keep every bar counted', () => {
    const p = projectViewport(index.axis, fitViewport(index.axis), W);
    const drawn = windowSwimlane(index, p);
    let elements = 0;
    for (const row of drawn.rows) {
      const counted = row.bars.length + row.strips.reduce((n, s) => n + s.count, 0);
      expect(counted).toBe(row.data.bars.length);
      elements += row.bars.length + row.strips.length + row.markers.length;
      for (const s of row.strips) expect(s.x1).toBeGreaterThan(s.x0);
    }
    // Bounded by pixels, not by the 20k bars.
    expect(elements).toBeLessThan(drawn.rows.length * 2 * 600);
    // Zoomed in, bars are wide and labelled when the name fits.
    const zoomed = projectViewport(index.axis, { start: 100_000, end: 130_000 }, W);
    const near = windowSwimlane(index, zoomed);
    const shown = near.rows.flatMap((r) => r.bars);
    expect(shown.length).toBeGreaterThan(0);
    expect(near.rows.every((r) => r.strips.length === 0)).toBe(true);
    expect(shown.some((b) => b.label !== null)).toBe(true);
    for (const b of shown)
      expect(b.label === null || b.x1 - b.x0 >= b.bar.name.length * 6.6 + 8).toBe(true);
  });

  it('hit-tests bars and markers, and misses empty space', () => {
    const layout = layoutSwimlane(withIdle());
    const idx = createSwimlaneIndex(layout);
    const p = projectViewport(idx.axis, { start: 0, end: 70_000 }, W);
    const planRow = layout.rows.findIndex((r) => r.label === 'plan');
    const plan = layout.rows[planRow]!;
    const hitBar = hitTestSwimlane(idx, p, planRow, p.x(55_000));
    expect(hitBar).toMatchObject({ type: 'bar', bar: { spanId: plan.bars[0]!.spanId } });
    const error = plan.markers.find((m) => m.kind === 'error')!;
    const hitMarker = hitTestSwimlane(idx, p, planRow, p.x(error.time - idx.axis.origin) + 1);
    expect(hitMarker).toMatchObject({ type: 'marker', marker: { kind: 'error' } });
    expect(hitTestSwimlane(idx, p, planRow, p.x(10_000))).toBeNull();
    expect(hitTestSwimlane(idx, p, 999, 10)).toBeNull();
  });

  it('counts density for the minimap', () => {
    const fitted = projectViewport(index.axis, fitViewport(index.axis), { width: 200 });
    const bins = swimlaneDensity(index, fitted);
    expect(bins).toHaveLength(200);
    expect(Math.max(...bins)).toBeGreaterThan(0);
    const total = big.rows.filter((r) => r.kind !== 'root').reduce((n, r) => n + r.bars.length, 0);
    // Every bar counts in at least one bin.
    expect(bins.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(total);
  });
});

describe('one layout for the SVG and the component', () => {
  it('places every bar of renderTimelineSvg where the fitted window does', () => {
    for (const tl of [researchExample(), withIdle()]) {
      const svg = parseXml(renderTimelineSvg(tl, { width: 800 }));
      const rects = allElements(svg).filter(
        (e) => e.name === 'rect' && e.attributes['data-span-id'],
      );
      const root = rects[0]!;
      const barStart = Number(root.attributes.x);
      const barEnd = barStart + Number(root.attributes.width);
      const layout = layoutSwimlane(tl, { showBranches: true });
      const index = createSwimlaneIndex(layout);
      const p = projectViewport(index.axis, fitViewport(index.axis), {
        width: barEnd - barStart,
        idleWidth: 10,
      });
      const drawn = windowSwimlane(index, p, { minBarWidth: 0 }).rows.flatMap((r) => r.bars);
      expect(drawn.map((d) => d.bar.spanId)).toEqual(
        rects.map((r) => r.attributes['data-span-id']),
      );
      drawn.forEach((d, i) => {
        expect(Math.abs(d.x0 + barStart - Number(rects[i]!.attributes.x))).toBeLessThan(0.01);
      });
    }
  });
});
