// layoutSwimlane: rows, lanes, bars, markers and idle gaps in time space.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eventCompletedTime, eventTime } from '../../src/core/events/event-time.js';
import { layoutSwimlane, packLanes } from '../../src/core/swimlane/layout.js';
import type { SwimlaneLayout } from '../../src/core/swimlane/layout.js';
import {
  BASE_MS,
  model,
  point,
  researchExample,
  span,
  timeline,
  tool,
} from './helpers/hand-timeline.js';
import type { TimelineSpan } from '../../src/core/timeline/types.js';

const s = (seconds: number) => BASE_MS + seconds * 1000;
const labels = (layout: SwimlaneLayout) =>
  layout.rows.map((r) => `${'  '.repeat(r.depth)}${r.label}`);

describe('layoutSwimlane rows', () => {
  it('lays out the research example with numbered lanes for parallel agents', () => {
    const layout = layoutSwimlane(researchExample(), { showBranches: true });
    expect(labels(layout)).toEqual([
      'main',
      '  init',
      '  explore 1',
      '  explore 2',
      '  explore 3',
      '  plan',
      '  coder',
      '  scoring',
      '  coder',
      '    coder',
    ]);
    expect(layout.rows.map((r) => r.key)).toEqual([
      'main',
      'main/init',
      'main/explore-1',
      'main/explore-2',
      'main/explore-3',
      'main/plan',
      'main/coder',
      'main/scoring',
      'main/branch-a1-1',
      'main/branch-a1-1/coder',
    ]);
    expect(layout.timeStart).toBe(s(0));
    expect(layout.timeEnd).toBe(s(120));
  });

  it('keeps sequential same-name spans on one row, one bar each', () => {
    const layout = layoutSwimlane(
      timeline([span('coder', [model(0, 10)]), span('Coder', [model(20, 30)])]),
    );
    const row = layout.rows[1]!;
    expect(row.label).toBe('coder');
    expect(row.lane).toBeNull();
    expect(row.bars.map((b) => [b.timeStart, b.timeEnd])).toEqual([
      [s(0), s(10)],
      [s(20), s(30)],
    ]);
  });

  it('orders rows by group start, then lane, and keeps a name group together', () => {
    const layout = layoutSwimlane(
      timeline([
        span('b', [model(5, 50)]),
        span('a', [model(0, 10)]),
        span('b', [model(6, 8)]),
        span('b', [model(9, 12)]),
      ]),
    );
    expect(labels(layout)).toEqual(['main', '  a', '  b 1', '  b 2']);
    expect(layout.rows[3]!.bars).toHaveLength(2); // 6–8 and 9–12 reuse lane 2
  });

  it('treats spans closer than the overlap tolerance as parallel', () => {
    const near = layoutSwimlane(
      timeline([span('a', [model(0, 10)]), span('a', [model(10.05, 20)])]),
    );
    expect(labels(near)).toEqual(['main', '  a 1', '  a 2']);
    const apart = layoutSwimlane(
      timeline([span('a', [model(0, 10)]), span('a', [model(10.1, 20)])]),
    );
    expect(labels(apart)).toEqual(['main', '  a']);
  });

  it('merges the children of a row’s spans one level down', () => {
    const layout = layoutSwimlane(
      timeline([
        span('coder', [model(0, 10), span('search', [model(1, 2)])]),
        span('coder', [model(20, 30), span('search', [model(21, 22)])]),
      ]),
    );
    expect(labels(layout)).toEqual(['main', '  coder', '    search']);
    expect(layout.rows[2]!.bars).toHaveLength(2);
    expect(layout.rows[2]!.key).toBe('main/coder/search');
  });

  it('hides utility agents unless asked', () => {
    const t = timeline([model(0, 10), span('helper', [model(1, 2, 50)], { utility: true })]);
    expect(labels(layoutSwimlane(t))).toEqual(['main']);
    const shown = layoutSwimlane(t, { includeUtility: true });
    expect(labels(shown)).toEqual(['main', '  helper']);
    expect(shown.rows[1]!.bars[0]!.utility).toBe(true);
  });

  it('shows branches only when enabled, latest fork first, with readable labels', () => {
    const early = span('branch', [point('branch', 2), model(2, 5)], {
      spanType: 'branch',
      branchedFrom: 'a1',
    });
    const late = span('retry', [point('branch', 6), model(6, 9)], {
      spanType: 'branch',
      branchedFrom: 'a2:span9',
    });
    const t = timeline(
      [
        point('anchor', 2, { anchor_id: 'a1' }),
        point('anchor', 6, { anchor_id: 'a2' }),
        model(0, 10),
      ],
      [early, late],
    );
    expect(labels(layoutSwimlane(t))).toEqual(['main']);
    const layout = layoutSwimlane(t, { showBranches: true });
    expect(labels(layout)).toEqual(['main', '  retry', '  Branch 2']);
    expect(layout.rows[1]!.kind).toBe('branch');
    const forks = layout.rows[0]!.markers.filter((m) => m.kind === 'branch').map((m) => m.time);
    expect(forks).toEqual([s(2), s(6)]); // anchors resolved, `:span9` suffix stripped
  });

  it('numbers nested generic branches hierarchically', () => {
    const inner = span('branch', [model(3, 4)], { spanType: 'branch' });
    const outer = span('branch', [model(2, 5)], { spanType: 'branch', branches: [inner] });
    const layout = layoutSwimlane(timeline([model(0, 10)], [outer]), { showBranches: true });
    expect(labels(layout)).toEqual(['main', '  Branch 1', '    Branch 1.1']);
  });

  it('reports tokens per row without branches', () => {
    const b = span('branch', [model(2, 3, 700)], { spanType: 'branch' });
    const layout = layoutSwimlane(timeline([model(0, 1, 100), span('a', [model(1, 2, 20)])], [b]), {
      showBranches: true,
    });
    expect(layout.rows.map((r) => r.tokens)).toEqual([120, 20, 700]);
  });
});

describe('layoutSwimlane markers', () => {
  it('marks failed tool and model calls, error events and compactions', () => {
    const t = timeline([
      span('a', [
        model(0, 1),
        tool(1, 2, 'boom'),
        model(2, 3, 0, { error: 'rate limited' }),
        point('compaction', 4, { tokens_before: 180_000, tokens_after: 12_000 }),
        point('error', 5, { error: { message: 'crash', traceback: '', traceback_ansi: '' } }),
      ]),
    ]);
    const markers = layoutSwimlane(t).rows[1]!.markers;
    expect(markers.map((m) => [m.kind, m.time])).toEqual([
      ['error', s(1)],
      ['error', s(2)],
      ['compaction', s(4)],
      ['error', s(5)],
    ]);
    expect(markers[0]!.label).toBe('Error (bash): boom');
    expect(markers[2]!.label).toBe('Context compaction: 180,000 → 12,000 tokens');
  });

  it('collects markers from direct content, children or the whole subtree', () => {
    const t = timeline([
      model(0, 10),
      span('a', [model(1, 2), span('b', [point('compaction', 3)])]),
    ]);
    const count = (depth: 'direct' | 'children' | 'recursive') =>
      layoutSwimlane(t, { markerDepth: depth }).rows[0]!.markers.length;
    expect([count('direct'), count('children'), count('recursive')]).toEqual([0, 0, 1]);
    expect(layoutSwimlane(t, { markerDepth: 'children' }).rows[1]!.markers).toHaveLength(1);
  });

  it('filters marker kinds', () => {
    const t = timeline([model(0, 1), point('compaction', 1), tool(1, 2, 'x')]);
    expect(
      layoutSwimlane(t, { markerKinds: ['compaction'] }).rows[0]!.markers.map((m) => m.kind),
    ).toEqual(['compaction']);
  });
});

describe('layoutSwimlane idle gaps', () => {
  it('compresses gaps over 5 minutes into idle segments', () => {
    const t = timeline([
      model(0, 60),
      span('a', [model(30, 90)]),
      model(1000, 1010),
      model(1400, 1500),
    ]);
    const layout = layoutSwimlane(t);
    // Activity: 0–90 (the span overlaps the first call), 1000–1010, 1400–1500.
    expect(layout.segments).toEqual([
      { timeStart: s(0), timeEnd: s(90), idle: false },
      { timeStart: s(90), timeEnd: s(1000), idle: true },
      { timeStart: s(1000), timeEnd: s(1010), idle: false },
      { timeStart: s(1010), timeEnd: s(1400), idle: true },
      { timeStart: s(1400), timeEnd: s(1500), idle: false },
    ]);
    expect(layout.idleMs).toBe((910 + 390) * 1000);
  });

  it('keeps gaps at or under the threshold, and honours a custom threshold', () => {
    const t = timeline([model(0, 10), model(310, 320)]);
    expect(layoutSwimlane(t).segments).toHaveLength(1); // exactly 300 s: not idle
    expect(layoutSwimlane(t, { idleThresholdMs: 60_000 }).segments.map((x) => x.idle)).toEqual([
      false,
      true,
      false,
    ]);
    expect(layoutSwimlane(t, { idleThresholdMs: Infinity }).idleMs).toBe(0);
  });

  it('tiles the view range with contiguous segments', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(5000), fc.nat(400)), { minLength: 1, maxLength: 30 }),
        (pairs) => {
          const layout = layoutSwimlane(timeline(pairs.map(([a, d]) => model(a, a + d))), {
            idleThresholdMs: 60_000,
          });
          const segs = layout.segments;
          expect(segs[0]!.timeStart).toBe(layout.timeStart);
          expect(segs[segs.length - 1]!.timeEnd).toBe(layout.timeEnd);
          for (let i = 1; i < segs.length; i++) {
            expect(segs[i]!.timeStart).toBe(segs[i - 1]!.timeEnd);
            if (segs[i]!.idle) expect(segs[i - 1]!.idle).toBe(false);
          }
          for (const seg of segs)
            if (seg.idle) expect(seg.timeEnd - seg.timeStart).toBeGreaterThan(60_000);
        },
      ),
    );
  });
});

/** The oracle: merge every event interval in the run (branches included) and cut gaps over `threshold`. */
function bruteSegments(layout: SwimlaneLayout, root: TimelineSpan, threshold: number) {
  const intervals: [number, number][] = [];
  const visit = (sp: TimelineSpan) => {
    for (const item of sp.content) {
      if (item.type === 'span') visit(item);
      else {
        const start = eventTime(item.event);
        const completed = eventCompletedTime(item.event);
        const end =
          item.event.event === 'model' || item.event.event === 'tool'
            ? (completed ?? start)
            : start;
        const clamp = (t: number) => Math.min(layout.timeEnd, Math.max(layout.timeStart, t));
        intervals.push([clamp(start), clamp(Math.max(start, end))]);
      }
    }
    sp.branches.forEach(visit);
  };
  visit(root);
  intervals.sort((a, b) => a[0] - b[0]);
  const out: { timeStart: number; timeEnd: number; idle: boolean }[] = [];
  let cursor = layout.timeStart;
  let reach = layout.timeStart;
  intervals.forEach(([a, b], i) => {
    if (a - reach > threshold) {
      if (i > 0) out.push({ timeStart: cursor, timeEnd: reach, idle: false });
      out.push({ timeStart: reach, timeEnd: a, idle: true });
      cursor = a;
    }
    reach = Math.max(reach, b);
  });
  if (layout.timeEnd - reach > threshold) {
    out.push(
      { timeStart: cursor, timeEnd: reach, idle: false },
      { timeStart: reach, timeEnd: layout.timeEnd, idle: true },
    );
  } else out.push({ timeStart: cursor, timeEnd: layout.timeEnd, idle: false });
  return out;
}

describe('layoutSwimlane idle gaps (property)', () => {
  // Random nested timelines over ~1.5 hours, so 5-minute gaps are common.
  const arbSpan = (depth: number): fc.Arbitrary<TimelineSpan> =>
    fc
      .record({
        events: fc.array(fc.tuple(fc.nat(5000), fc.nat(200)), { maxLength: 4 }),
        children: depth > 0 ? fc.array(arbSpan(depth - 1), { maxLength: 3 }) : fc.constant([]),
        branches: depth > 0 ? fc.array(arbSpan(depth - 1), { maxLength: 1 }) : fc.constant([]),
      })
      .map(({ events, children, branches }) =>
        span('s', [...events.map(([a, d]) => model(a, a + d)), ...children], { branches }),
      );

  it('matches merging every event interval, for the default and a custom threshold', () => {
    // 7 s and 1 s: cells of a fractional width, and more cells than the
    // intervals allow (the sorting sweep instead of the cells).
    const thresholds = fc.constantFrom(300_000, 60_000, 600_000, 7_000, 1_000);
    fc.assert(
      fc.property(arbSpan(3), thresholds, (root, threshold) => {
        const t = timeline([...root.content, model(0, 1)], [...root.branches]);
        const layout = layoutSwimlane(t, { idleThresholdMs: threshold, showBranches: true });
        expect(layout.segments).toEqual(bruteSegments(layout, t.root, threshold));
      }),
      { numRuns: 300 },
    );
  });

  it('matches it on big leaf agents, in start order or not (their noted longest gap)', () => {
    // 16+ events over ~1.5 hours: most gaps under 5 minutes, some over.
    const leaf = fc
      .tuple(
        fc.array(fc.tuple(fc.nat(5000), fc.nat(400)), { minLength: 16, maxLength: 40 }),
        fc.boolean(),
      )
      .map(([events, inOrder]) => {
        const list = inOrder ? [...events].sort((a, b) => a[0] - b[0]) : events;
        return span(
          'worker',
          list.map(([a, d]) => model(a, a + d)),
        );
      });
    fc.assert(
      fc.property(
        fc.array(leaf, { minLength: 1, maxLength: 3 }),
        fc.constantFrom(300_000, 120_000, 900_000),
        (leaves, threshold) => {
          const t = timeline([...leaves, model(0, 1)]);
          const layout = layoutSwimlane(t, { idleThresholdMs: threshold });
          expect(layout.segments).toEqual(bruteSegments(layout, t.root, threshold));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('matches it on long runs far from time order and nearly in it', () => {
    // 3,000 events 10 s apart with a 10-minute pause every 100: in reverse
    // order (past the insertion sort's budget of moves: the engine's sort),
    // with neighbours swapped (within it), and with one event out of place.
    const n = 3000;
    const at = (k: number) => k * 10 + Math.floor(k / 100) * 600;
    const sorted = Array.from({ length: n }, (_, k) => model(at(k), at(k) + 5 + (k % 7)));
    const swapped = sorted.map((_, k) => sorted[k % 2 === 0 ? Math.min(n - 1, k + 1) : k - 1]!);
    const moved = [...sorted.slice(1, 2000), sorted[0]!, ...sorted.slice(2000)];
    for (const content of [[...sorted].reverse(), swapped, moved]) {
      const t = timeline([span('worker', content)]);
      const layout = layoutSwimlane(t);
      expect(layout.segments.filter((seg) => seg.idle)).toHaveLength(29);
      expect(layout.segments).toEqual(bruteSegments(layout, t.root, 300_000));
    }
  });
});

describe('layoutSwimlane lanes (property)', () => {
  const intervals = fc.array(
    fc.tuple(fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 0, max: 3_000 })),
    {
      minLength: 1,
      maxLength: 60,
    },
  );

  it('never puts two overlapping runs in one lane, and uses the fewest lanes', () => {
    fc.assert(
      fc.property(intervals, (pairs) => {
        const spans: TimelineSpan[] = pairs.map(([startMs, durMs]) =>
          span('w', [model(startMs / 1000, (startMs + durMs) / 1000)]),
        );
        const layout = layoutSwimlane(timeline(spans));
        const rows = layout.rows.slice(1);
        for (const row of rows) {
          const bars = [...row.bars].sort((a, b) => a.timeStart - b.timeStart);
          for (let i = 1; i < bars.length; i++) {
            expect(bars[i]!.timeStart - bars[i - 1]!.timeEnd).toBeGreaterThanOrEqual(100);
          }
        }
        // Lower bound: the most runs in flight at once (tolerance widens each run by 100 ms).
        let maxDepth = 0;
        for (const [a] of pairs) {
          const depth = pairs.filter(([b, d]) => b <= a && a < b + d + 100).length;
          maxDepth = Math.max(maxDepth, depth);
        }
        expect(rows).toHaveLength(maxDepth);
        expect(rows.reduce((n, r) => n + r.bars.length, 0)).toBe(pairs.length);
      }),
    );
  });

  it('packs first-fit into the lowest free lane', () => {
    // At 6 both lanes are free again (lane 0 ended at 6, lane 1 at 3): lane 0 wins.
    expect(packLanes([0, 1, 5, 6], [4, 3, 6, 7], 0)).toEqual({ lanes: [0, 1, 0, 0], count: 2 });
    expect(packLanes([0, 1, 2], [10, 10, 10], 0)).toEqual({ lanes: [0, 1, 2], count: 3 });
    expect(packLanes([], [], 100)).toEqual({ lanes: [], count: 0 });
  });
});

describe('layoutSwimlane degenerate cases', () => {
  it('lays out an empty root as one empty row at time 0', () => {
    const layout = layoutSwimlane(timeline([]));
    expect(layout.rows).toHaveLength(1);
    expect(layout.rows[0]!.bars).toEqual([]);
    expect([layout.timeStart, layout.timeEnd]).toEqual([0, 0]);
  });

  it('handles a zero-duration timeline', () => {
    const layout = layoutSwimlane(timeline([point('info', 3), span('a', [point('info', 3)])]));
    expect([layout.timeStart, layout.timeEnd]).toEqual([s(3), s(3)]);
    expect(layout.segments).toEqual([{ timeStart: s(3), timeEnd: s(3), idle: false }]);
  });

  it('numbers 10+ parallel runs', () => {
    const spans = Array.from({ length: 12 }, (_, i) => span('w', [model(i * 0.01, 10)]));
    expect(labels(layoutSwimlane(timeline(spans))).slice(-2)).toEqual(['  w 11', '  w 12']);
  });

  it('skips empty spans', () => {
    expect(labels(layoutSwimlane(timeline([model(0, 1), span('empty', [])])))).toEqual(['main']);
  });

  it('rejects a negative or NaN idle threshold', () => {
    expect(() => layoutSwimlane(researchExample(), { idleThresholdMs: -1 })).toThrow(
      expect.objectContaining({ code: 'invalid_option' }),
    );
    expect(() => layoutSwimlane(researchExample(), { idleThresholdMs: Number.NaN })).toThrow(
      /idleThresholdMs/,
    );
  });

  it('does not mutate its input', () => {
    const t = researchExample();
    const before = JSON.stringify(t);
    layoutSwimlane(t, { showBranches: true, includeUtility: true });
    expect(JSON.stringify(t)).toBe(before);
  });
});
