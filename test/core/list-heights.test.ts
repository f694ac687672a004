import { createRowHeights } from '../../src/core/list/heights.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

/** The obvious O(n) answers, to check the Fenwick tree against. */
function naive(sizes: number[]) {
  const clean = sizes.map((s) => (Number.isFinite(s) && s > 0 ? s : 0));
  const start = (r: number) => clean.slice(0, Math.max(0, r)).reduce((a, b) => a + b, 0);
  const total = start(clean.length);
  const rowAt = (offset: number) => {
    if (clean.length === 0) return -1;
    let row = -1;
    for (let r = 0; r < clean.length; r++) if (clean[r]! > 0 && start(r) <= offset) row = r;
    if (row === -1) {
      // Before every sized row (or none has a height): the first sized row, else the last.
      const first = clean.findIndex((s) => s > 0);
      return first === -1 ? clean.length - 1 : first;
    }
    return row;
  };
  return { clean, start, total, rowAt };
}

describe('createRowHeights', () => {
  it('answers start, size, total and rowAt for fixed heights', () => {
    const h = createRowHeights(5, (r) => (r === 2 ? 36 : 72));
    expect(h.count).toBe(5);
    expect(h.total).toBe(4 * 72 + 36);
    expect([0, 1, 2, 3, 4, 5].map((r) => h.start(r))).toEqual([0, 72, 144, 180, 252, 324]);
    expect(h.rowAt(0)).toBe(0);
    expect(h.rowAt(71.9)).toBe(0);
    expect(h.rowAt(72)).toBe(1);
    expect(h.rowAt(179)).toBe(2);
    expect(h.rowAt(1e9)).toBe(4);
    expect(h.rowAt(-5)).toBe(0);
    expect(h.size(2)).toBe(36);
    expect(h.size(99)).toBe(0);
  });

  it('updates prefix sums when a row is measured, and reports the change', () => {
    const h = createRowHeights(1000, () => 40);
    expect(h.set(10, 140)).toBe(100);
    expect(h.set(10, 140)).toBe(0);
    expect(h.start(11)).toBe(11 * 40 + 100);
    expect(h.start(999)).toBe(999 * 40 + 100);
    expect(h.total).toBe(1000 * 40 + 100);
    expect(h.rowAt(10 * 40 + 139)).toBe(10);
    expect(h.rowAt(10 * 40 + 140)).toBe(11);
    expect(h.set(-1, 5)).toBe(0);
    expect(h.set(1000, 5)).toBe(0);
    expect(h.set(3, Number.NaN)).toBe(-40);
    expect(h.size(3)).toBe(0);
  });

  it('handles no rows and rows without height', () => {
    const empty = createRowHeights(0, () => 40);
    expect([empty.total, empty.rowAt(0), empty.start(0)]).toEqual([0, -1, 0]);
    const flat = createRowHeights(3, () => 0);
    expect(flat.rowAt(0)).toBe(2);
    expect(flat.rowAt(10)).toBe(2);
    const gaps = createRowHeights(4, (r) => [10, 0, 0, 10][r]!);
    expect(gaps.rowAt(10)).toBe(3);
    expect(gaps.rowAt(9)).toBe(0);
  });

  it('agrees with the naive sums after any sequence of updates (property)', () =>
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 200 }), { minLength: 0, maxLength: 80 }),
        fc.array(fc.tuple(fc.nat(90), fc.integer({ min: -5, max: 300 })), { maxLength: 40 }),
        fc.array(fc.integer({ min: -50, max: 20_000 }), { minLength: 1, maxLength: 20 }),
        (initial, updates, offsets) => {
          const sizes = initial.slice();
          const h = createRowHeights(sizes.length, (r) => sizes[r]!);
          for (const [r, s] of updates) {
            const before = r < sizes.length ? Math.max(0, sizes[r]!) : 0;
            const delta = h.set(r, s);
            if (r < sizes.length) {
              sizes[r] = s;
              expect(delta).toBe(Math.max(0, s) - before);
            } else expect(delta).toBe(0);
          }
          const n = naive(sizes);
          expect(h.total).toBe(n.total);
          for (let r = 0; r <= sizes.length; r++) expect(h.start(r)).toBe(n.start(r));
          for (const o of offsets) expect(h.rowAt(o)).toBe(n.rowAt(o));
        },
      ),
    ));

  it('builds a million rows without per-row objects and stays exact at the end', () => {
    const n = 1_000_000;
    const h = createRowHeights(n, (r) => (r % 5 === 0 ? 36 : 72));
    const total = (n / 5) * 36 + ((n * 4) / 5) * 72;
    expect(h.total).toBe(total);
    expect(h.rowAt(total - 1)).toBe(n - 1);
    expect(h.start(n - 1)).toBe(total - 72);
    h.set(0, 1036);
    expect(h.rowAt(total + 999)).toBe(n - 1);
    expect(h.rowAt(total - 1)).toBeLessThan(n - 1);
    expect(h.start(n - 1)).toBe(total + 1000 - 72);
  });

  it('heights continued from others share nothing a later set can change (property)', () =>
    fc.assert(
      fc.property(
        // Past several 4,096-row chunks, so kept rows span shared chunks.
        fc.integer({ min: 0, max: 13_000 }),
        fc.integer({ min: 0, max: 13_000 }),
        fc.nat(13_000),
        fc.array(fc.tuple(fc.boolean(), fc.nat(13_000), fc.integer({ min: 0, max: 90 })), {
          maxLength: 30,
        }),
        (n, m, keepAt, updates) => {
          const a = Array.from({ length: n }, (_, r) => 10 + (r % 7));
          const before = createRowHeights(n, (r) => a[r]!);
          const keep = Math.min(keepAt, n, m);
          const b = Array.from({ length: m }, (_, r) => (r < keep ? a[r]! : 20 + (r % 3)));
          const after = createRowHeights(m, (r) => b[r]!, { heights: before, keep });
          // Each is written in turn; neither may see the other's writes.
          for (const [first, at, size] of updates) {
            const [h, sizes] = first ? [before, a] : [after, b];
            if (at >= sizes.length) continue;
            h.set(at, size);
            sizes[at] = size;
          }
          for (const [h, sizes] of [
            [before, a],
            [after, b],
          ] as const) {
            let sum = 0;
            for (let r = 0; r < sizes.length; r++) {
              // expect() only on a mismatch: 1.5M calls would cost seconds.
              if ((r % 997 === 0 || r === sizes.length - 1) && h.start(r) !== sum) {
                expect(h.start(r), `start(${r})`).toBe(sum);
              }
              if (h.size(r) !== sizes[r]) expect(h.size(r), `size(${r})`).toBe(sizes[r]);
              sum += sizes[r]!;
            }
            expect(h.total).toBe(sum);
            // The last pixel is the last row's that has any (a row set to 0 at
            // the end covers none).
            let last = sizes.length - 1;
            while (last > 0 && sizes[last] === 0) last--;
            if (sum > 0) expect(h.rowAt(sum - 1)).toBe(last);
          }
        },
      ),
      { numRuns: 60 },
    ));

  it('gives the last pixel to the last row that has height when later rows are set to 0', () => {
    const sizes = Array.from({ length: 11 }, (_, r) => 10 + (r % 7));
    const h = createRowHeights(11, (r) => sizes[r]!);
    h.set(10, 0);
    expect(h.total).toBe(sizes.slice(0, 10).reduce((a, b) => a + b, 0));
    expect(h.rowAt(h.total - 1)).toBe(9);
    expect(h.start(10)).toBe(h.total);
  });
});
