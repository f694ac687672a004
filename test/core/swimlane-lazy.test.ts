// The lazy layout (issue 18) against the eager one it replaced
// (helpers/swimlane-layout-oracle.ts): same rows, bars, markers and segments
// on random timelines, and the same drawing of any window — while a window
// of a big run builds only the bars it draws.
import { clampViewport } from '../../src/core/swimlane/viewport.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createSwimlaneIndex,
  fitViewport,
  hitTestSwimlane,
  layoutSwimlane,
  projectViewport,
  swimlaneBarDetails,
  windowSwimlane,
} from '../../src/index.js';
import type { SwimlaneLayout, SwimlaneLayoutOptions } from '../../src/index.js';
import type { TimelineItem, TimelineSpan } from '../../src/core/timeline/types.js';
import { fanOutTimeline } from '../../stories/swimlane-fixtures.js';
import { model, point, span, timeline, tool } from './helpers/hand-timeline.js';
import { layoutSwimlaneOracle } from './helpers/swimlane-layout-oracle.js';

const NAMES = ['explore', 'Explore', 'coder', 'branch', 'search'];

/** An event of a random kind at `a` seconds lasting `d` (errors, compactions, anchors included). */
const arbEvent: fc.Arbitrary<TimelineItem> = fc
  .tuple(fc.nat(4000), fc.nat(300), fc.nat(6))
  .map(([a, d, kind]) => {
    if (kind === 0) return tool(a, a + d, 'boom');
    if (kind === 1) return point('compaction', a, { tokens_before: 180_000, tokens_after: 12_000 });
    if (kind === 2) return point('anchor', a, { anchor_id: `a${d % 3}` });
    if (kind === 3) return point('error', a, { error: { message: 'bad' } });
    return model(a, a + d, d * 10);
  });

const arbSpan = (depth: number): fc.Arbitrary<TimelineSpan> =>
  fc
    .record({
      name: fc.constantFrom(...NAMES),
      events: fc.array(arbEvent, { maxLength: 4 }),
      children:
        depth > 0
          ? fc.array(arbSpan(depth - 1), { maxLength: 4 })
          : fc.constant<TimelineSpan[]>([]),
      branches:
        depth > 0
          ? fc.array(arbSpan(depth - 1), { maxLength: 2 })
          : fc.constant<TimelineSpan[]>([]),
      utility: fc.boolean(),
      from: fc.constantFrom('a0', 'a1:x', 'a2', null),
    })
    .map(({ name, events, children, branches, utility, from }) =>
      span(name, [...events, ...children], {
        branches: branches.map((b) => ({ ...b, branchedFrom: from })),
        utility: utility && children.length === 0,
      }),
    );

const arbOptions: fc.Arbitrary<SwimlaneLayoutOptions> = fc.record({
  showBranches: fc.boolean(),
  includeUtility: fc.boolean(),
  markerDepth: fc.constantFrom('direct' as const, 'children' as const, 'recursive' as const),
  idleThresholdMs: fc.constantFrom(300_000, 60_000, 1_000),
  markerKinds: fc.constantFrom(
    undefined,
    ['error' as const],
    ['branch' as const, 'compaction' as const],
  ),
});

/** A layout as plain data (what a worker or a JSON file would hold). */
const plain = (layout: SwimlaneLayout): SwimlaneLayout =>
  JSON.parse(JSON.stringify(layout)) as SwimlaneLayout;

describe('lazy layoutSwimlane (differential against the eager layout)', () => {
  it('gives the same rows, bars, markers and segments on random timelines', () => {
    fc.assert(
      fc.property(arbSpan(3), arbOptions, (root, options) => {
        const t = timeline([...root.content, model(0, 1)], [...root.branches]);
        const lazy = layoutSwimlane(t, options);
        const eager = layoutSwimlaneOracle(t, options);
        expect(lazy).toEqual(eager);
        // Serializes to the same plain data (getters included).
        expect(plain(lazy)).toEqual(plain(eager));
      }),
      { numRuns: 200 },
    );
  });

  it('draws and hit-tests every window as the eager layout does', () => {
    fc.assert(
      fc.property(
        arbSpan(3),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 1e-4, max: 1, noNaN: true }),
        fc.constantFrom(0, 1, 6),
        (root, a, len, minBarWidth) => {
          const t = timeline([...root.content, model(0, 1)], [...root.branches]);
          const lazy = createSwimlaneIndex(layoutSwimlane(t, { showBranches: true }));
          const eager = createSwimlaneIndex(layoutSwimlaneOracle(t, { showBranches: true }));
          const W = { width: 300 };
          const start = a * lazy.axis.duration;
          const v = clampViewport(lazy.axis, { start, end: start + len * lazy.axis.duration }, W);
          const p = projectViewport(lazy.axis, v, W);
          expect(windowSwimlane(lazy, p, { minBarWidth })).toEqual(
            windowSwimlane(eager, projectViewport(eager.axis, v, W), { minBarWidth }),
          );
          for (let r = 0; r < lazy.layout.rows.length; r++) {
            for (const x of [0, 37.5, 150, 299]) {
              expect(hitTestSwimlane(lazy, p, r, x)).toEqual(hitTestSwimlane(eager, p, r, x));
            }
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('draws a plain-data layout (no lazy rows) like the lazy one', () => {
    const layout = layoutSwimlane(fanOutTimeline({ agents: 2_000, parallelism: 8 }));
    const lazy = createSwimlaneIndex(layout);
    const copy = createSwimlaneIndex(plain(layout));
    const W = { width: 640 };
    for (const [start, end] of [
      [0, lazy.axis.duration],
      [lazy.axis.duration * 0.4, lazy.axis.duration * 0.41],
    ] as const) {
      const p = projectViewport(lazy.axis, { start, end }, W);
      expect(plain(windowSwimlane(copy, p) as never)).toEqual(
        plain(windowSwimlane(lazy, p) as never),
      );
    }
  });
});

describe('lazy layoutSwimlane (what it builds)', () => {
  it("draws a zoomed window of a big run from a few bars, the rows' own objects", () => {
    const layout = layoutSwimlane(fanOutTimeline({ agents: 20_000, parallelism: 8 }));
    const index = createSwimlaneIndex(layout);
    const W = { width: 800 };
    // A window of about 1/1000 of the run.
    const start = index.axis.duration / 2;
    const p = projectViewport(index.axis, { start, end: start + index.axis.duration / 1000 }, W);
    const { rows } = windowSwimlane(index, p);
    const drawn = rows.reduce((n, r) => n + r.bars.length, 0);
    expect(drawn).toBeGreaterThan(0);
    expect(drawn).toBeLessThan(200);
    // The drawn bars are the row's own bar objects (identity kept): building
    // the full array afterwards reuses them.
    const first = rows.find((r) => r.bars.length > 0)!;
    expect(first.data.bars[first.bars[0]!.index]).toBe(first.bars[0]!.bar);
  });

  it('draws without markers when asked, never collecting them, and with them by default', () => {
    const layout = layoutSwimlane(fanOutTimeline({ agents: 2_000, parallelism: 8 }));
    let reads = 0;
    const counted: SwimlaneLayout = {
      ...layout,
      rows: layout.rows.map(
        (row) =>
          new Proxy(row, {
            get(target, key) {
              if (key === 'markers') reads++;
              return Reflect.get(target, key) as unknown;
            },
          }),
      ),
    };
    const index = createSwimlaneIndex(counted);
    const p = projectViewport(index.axis, fitViewport(index.axis), { width: 800 });
    const without = windowSwimlane(index, p, { markers: false }).rows;
    expect(reads).toBe(0);
    expect(without.every((r) => r.markers.length === 0)).toBe(true);
    expect(without.reduce((n, r) => n + r.strips.length + r.bars.length, 0)).toBeGreaterThan(0);
    const withMarkers = windowSwimlane(index, p).rows;
    expect(reads).toBeGreaterThan(0);
    // The run fails every 97th agent: the default drawing shows them.
    expect(withMarkers.some((r) => r.markers.some((m) => m.marker.kind === 'error'))).toBe(true);
    expect(withMarkers.map((r) => [r.bars, r.strips])).toEqual(
      without.map((r) => [r.bars, r.strips]),
    );
  });

  it('keeps a row the same object across reads (markers and bars computed once)', () => {
    const layout = layoutSwimlane(
      timeline([span('coder', [model(0, 10), tool(2, 3, 'boom'), point('compaction', 5)])]),
    );
    const row = layout.rows[1]!;
    expect(row.markers).toBe(row.markers);
    expect(row.bars).toBe(row.bars);
    expect(row.markers.map((m) => m.kind)).toEqual(['error', 'compaction']);
    expect(row.tokens).toBe(0);
  });
});

describe('swimlaneBarDetails (the tooltip facts)', () => {
  it('gives idle time and status: error with its count, running while pending, else ok', () => {
    const layout = layoutSwimlane(
      timeline([
        span('coder', [model(0, 10), tool(11, 12, 'boom'), span('inner', [tool(13, 14, 'x')])]),
        span('idle', [model(20, 21), model(700, 701)]),
        span('live', [model(800, 801, 0, { pending: true })]),
      ]),
    );
    const byLabel = (label: string) => layout.rows.find((r) => r.label === label)!;
    expect(swimlaneBarDetails(byLabel('coder'), 0)).toEqual({
      idleMs: 0,
      status: 'error',
      errors: 2,
    });
    expect(swimlaneBarDetails(byLabel('idle'), 0)).toEqual({
      idleMs: 679_000,
      status: 'ok',
      errors: 0,
    });
    expect(swimlaneBarDetails(byLabel('live'), 0)?.status).toBe('running');
    // Plain data (no lazy rows) has no spans to read.
    expect(swimlaneBarDetails(plain(layout).rows[1]!, 0)).toBeNull();
  });
});
