// What an agent did inside its bar (the compact tile's activity): the model
// and tool calls of a row's own spans, in time space, and their windowed
// drawing merged per pixel.
import { describe, expect, it } from 'vitest';
import { swimlaneRowActivity } from '../../src/core/swimlane/activity.js';
import { layoutSwimlane } from '../../src/core/swimlane/layout.js';
import { fitViewport, projectViewport, zoomViewport } from '../../src/core/swimlane/viewport.js';
import { createSwimlaneIndex, windowSwimlane } from '../../src/core/swimlane/visible.js';
import { buildTimeline } from '../../src/core/timeline/build.js';
import { generateRun } from '../../src/core/generate/generate-run.js';
import { BASE_MS, model, span, timeline, tool } from './helpers/hand-timeline.js';

describe('swimlaneRowActivity', () => {
  it("holds a row's own model and tool calls, by start, not its child agents'", () => {
    const layout = layoutSwimlane(
      timeline([
        model(0, 10),
        tool(12, 20),
        span('explore', [model(3, 8), tool(8, 9)]),
        model(25, 30),
      ]),
    );
    const root = swimlaneRowActivity(layout.rows[0]!);
    expect([...root.kinds]).toEqual([0, 1, 0]);
    expect([...root.starts].map((t) => (t - BASE_MS) / 1000)).toEqual([0, 12, 25]);
    expect([...root.ends].map((t) => (t - BASE_MS) / 1000)).toEqual([10, 20, 30]);
    const explore = swimlaneRowActivity(layout.rows[1]!);
    expect([...explore.kinds]).toEqual([0, 1]);
    // Cached per row; plain (deserialized) rows have none.
    expect(swimlaneRowActivity(layout.rows[0]!)).toBe(root);
    expect(swimlaneRowActivity(structuredClone(layout.rows[0]!)).kinds).toHaveLength(0);
  });

  it('gives a one-agent run both kinds on its main row', () => {
    const run = generateRun({ seed: 5, events: 120, agents: 0, pendingRate: 0 });
    const main = layoutSwimlane(buildTimeline(run)).rows[0]!;
    const a = swimlaneRowActivity(main);
    const calls = run.filter((e) => e.event === 'model' || e.event === 'tool').length;
    expect(a.kinds.includes(0) && a.kinds.includes(1)).toBe(true);
    expect(a.kinds.length).toBeGreaterThan(calls / 2);
    for (let i = 1; i < a.starts.length; i++)
      expect(a.starts[i]!).toBeGreaterThanOrEqual(a.starts[i - 1]!);
    for (let i = 0; i < a.starts.length; i++)
      expect(a.ends[i]!).toBeGreaterThanOrEqual(a.starts[i]!);
  });
});

describe('windowSwimlane activity', () => {
  const layout = layoutSwimlane(
    timeline(
      Array.from({ length: 400 }, (_, i) => (i % 2 === 0 ? model(i, i + 0.6) : tool(i, i + 0.9))),
    ),
  );
  const index = createSwimlaneIndex(layout);

  it('is empty unless asked for', () => {
    const p = projectViewport(index.axis, fitViewport(index.axis), { width: 800 });
    expect(windowSwimlane(index, p).rows[0]!.activity).toEqual([]);
  });

  it('draws each call where it fits, and merges calls thinner than a pixel', () => {
    const wide = projectViewport(index.axis, fitViewport(index.axis), { width: 8000 });
    const each = windowSwimlane(index, wide, { activity: true }).rows[0]!.activity;
    expect(each).toHaveLength(400);
    expect(each.every((a) => a.count === 1 && a.x1 - a.x0 >= 1)).toBe(true);
    // 400 calls in 100 px: at most two segments (one per kind) per pixel, every call counted.
    const narrow = projectViewport(index.axis, fitViewport(index.axis), { width: 100 });
    const merged = windowSwimlane(index, narrow, { activity: true }).rows[0]!.activity;
    expect(merged.length).toBeLessThanOrEqual(200);
    expect(merged.reduce((n, a) => n + a.count, 0)).toBe(400);
    for (const a of merged) {
      expect(a.x0).toBeGreaterThanOrEqual(-1);
      expect(a.x1).toBeLessThanOrEqual(101);
    }
  });

  it('draws only the calls in a zoomed window', () => {
    const fitted = projectViewport(index.axis, fitViewport(index.axis), { width: 800 });
    const zoomed = zoomViewport(index.axis, fitted.viewport, 20, 400, { width: 800 });
    const p = projectViewport(index.axis, zoomed, { width: 800 });
    const drawn = windowSwimlane(index, p, { activity: true }).rows[0]!.activity;
    expect(drawn.length).toBeGreaterThan(5);
    expect(drawn.length).toBeLessThan(60);
    for (const a of drawn) {
      expect(a.x1).toBeGreaterThanOrEqual(0);
      expect(a.x0).toBeLessThanOrEqual(800);
    }
  });
});
