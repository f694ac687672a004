// The layout's metrics path (issue 18: times and tokens without idle time,
// leaf spans uncached) against the public metrics it must equal, on random
// timelines, whichever is asked first; and the layout's near-sorted order
// against a plain sort.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  spanEndTime,
  spanItemTimes,
  spanStartTime,
  spanTimesInto,
  spanTimesOut,
  spanTokensLight,
  spanTotalTokens,
} from '../../src/core/timeline/metrics.js';
import { startOrder } from '../../src/core/swimlane/layout.js';
import type { TimelineItem, TimelineSpan } from '../../src/core/timeline/types.js';
import { model, point, span, tool } from './helpers/hand-timeline.js';

const arbEvent: fc.Arbitrary<TimelineItem> = fc
  .tuple(fc.nat(4000), fc.nat(900), fc.nat(4))
  .map(([a, d, kind]) => {
    if (kind === 0) return tool(a, a + d, 'boom');
    if (kind === 1) return point('info', a);
    if (kind === 2) return model(a, a + d, d * 10, { pending: true });
    return model(a, a + d, d * 10);
  });

const arbSpan = (depth: number): fc.Arbitrary<TimelineSpan> =>
  fc
    .record({
      events: fc.array(arbEvent, { maxLength: 4 }),
      children: depth > 0 ? fc.array(arbSpan(depth - 1), { maxLength: 3 }) : fc.constant([]),
      branches: depth > 0 ? fc.array(arbSpan(depth - 1), { maxLength: 2 }) : fc.constant([]),
      childrenFirst: fc.boolean(),
    })
    .map(({ events, children, branches, childrenFirst }) =>
      span('agent', childrenFirst ? [...children, ...events] : [...events, ...children], {
        branches,
      }),
    );

/** Every span of a tree, content and branches, pre-order. */
function allSpans(root: TimelineSpan): TimelineSpan[] {
  const out: TimelineSpan[] = [];
  const visit = (s: TimelineSpan) => {
    out.push(s);
    for (const item of s.content) if (item.type === 'span') visit(item);
    for (const b of s.branches) visit(b);
  };
  visit(root);
  return out;
}

function light(s: TimelineSpan, includeBranches: boolean) {
  spanTimesInto(s, includeBranches);
  return {
    start: spanTimesOut.start,
    end: spanTimesOut.end,
    tokens: spanTokensLight(s, includeBranches),
  };
}

function full(s: TimelineSpan, includeBranches: boolean) {
  const options = { includeBranches };
  return {
    start: spanStartTime(s, options),
    end: spanEndTime(s, options),
    tokens: spanTotalTokens(s, options),
  };
}

describe('layout metrics (times and tokens without idle time)', () => {
  it('equal the public metrics on every span, asked before them', () => {
    fc.assert(
      fc.property(arbSpan(3), (root) => {
        const spans = allSpans(root);
        // Leaves first and the root last, then the other way round: the caches
        // fill in different orders.
        const got = spans.map((s) => [light(s, false), light(s, true)]);
        const want = spans.map((s) => [full(s, false), full(s, true)]);
        expect(got).toEqual(want);
      }),
      { numRuns: 150 },
    );
  });

  it('equal the public metrics on every span, asked after them', () => {
    fc.assert(
      fc.property(arbSpan(3), (root) => {
        const spans = allSpans(root);
        const want = spans.map((s) => [full(s, false), full(s, true)]);
        expect(spans.map((s) => [light(s, false), light(s, true)])).toEqual(want);
      }),
      { numRuns: 100 },
    );
  });

  it("give each content item's times and leafness, null for a leaf", () => {
    fc.assert(
      fc.property(arbSpan(3), (root) => {
        for (const s of allSpans(root).reverse()) {
          const times = spanItemTimes(s);
          const leaf = s.branches.length === 0 && s.content.every((i) => i.type === 'event');
          expect(times === null).toBe(leaf);
          if (times === null) continue;
          s.content.forEach((item, i) => {
            const itemLeaf =
              item.type === 'event' ||
              (item.branches.length === 0 && item.content.every((c) => c.type === 'event'));
            expect(times.itemLeaf[i]).toBe(itemLeaf ? 1 : 0);
            if (item.type === 'span') {
              expect([times.itemStarts[i], times.itemEnds[i]]).toEqual([
                spanStartTime(item),
                spanEndTime(item),
              ]);
            } else {
              const one = span('one', [item]);
              expect([times.itemStarts[i], times.itemEnds[i]]).toEqual([
                spanStartTime(one),
                spanEndTime(one),
              ]);
            }
          });
        }
      }),
      { numRuns: 100 },
    );
  });
});

describe('startOrder', () => {
  const oracle = (starts: number[], ends: number[]) =>
    starts.map((_, i) => i).sort((a, b) => starts[a]! - starts[b]! || ends[a]! - ends[b]! || a - b);

  it('sorts by start, then end, then position', () => {
    expect(startOrder([5, 1, 1], [6, 3, 2])).toEqual([2, 1, 0]);
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(20), fc.nat(5)), { maxLength: 200 }), (pairs) => {
        const starts = pairs.map(([s]) => s);
        const ends = pairs.map(([s, d]) => s + d);
        expect(startOrder(starts, ends)).toEqual(oracle(starts, ends));
      }),
    );
  });

  it('sorts input far from sorted (past the insertion budget) the same way', () => {
    const starts = Array.from({ length: 3000 }, (_, i) => 3000 - i);
    const ends = starts.map((s) => s + 1);
    expect(startOrder(starts, ends)).toEqual(oracle(starts, ends));
  });
});
