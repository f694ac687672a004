import { createRowHeights } from '../../src/core/list/heights.js';
import { scrollSpace } from '../../src/core/list/scroll-space.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pageTarget, resolveAnchor, takeAnchor, visibleRange } from '../../src/index.js';

describe('visibleRange', () => {
  it('covers the viewport with overscan, clamped', () => {
    const h = createRowHeights(100, () => 10);
    expect(visibleRange(h, 0, 50)).toEqual([0, 4]);
    expect(visibleRange(h, 55, 50, 2)).toEqual([3, 12]);
    expect(visibleRange(h, 990, 50, 3)).toEqual([96, 99]);
    expect(
      visibleRange(
        createRowHeights(0, () => 10),
        0,
        50,
      ),
    ).toEqual([0, -1]);
  });

  it('every row intersecting the viewport is inside the range (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 60 }), { minLength: 1, maxLength: 80 }),
        fc.nat(3000),
        fc.integer({ min: 1, max: 400 }),
        (sizes, offset, viewport) => {
          const h = createRowHeights(sizes.length, (r) => sizes[r]!);
          const top = Math.min(offset, h.total);
          const [first, last] = visibleRange(h, top, viewport);
          for (let r = 0; r < sizes.length; r++) {
            const s = h.start(r);
            const intersects = s < top + viewport && s + sizes[r]! > top;
            if (intersects) expect(r >= first && r <= last).toBe(true);
          }
        },
      ),
    );
  });
});

describe('scroll anchoring', () => {
  it('keeps the anchor row where it was when rows above grow', () => {
    const h = createRowHeights(1000, () => 20);
    const keys = Array.from({ length: 1000 }, (_, r) => `k${r}`);
    const anchor = takeAnchor(h, 2010, (r) => keys[r]!)!;
    expect(anchor).toEqual({ key: 'k100', row: 100, delta: 10 });
    h.set(5, 120); // a row above is measured 100 px taller
    const top = resolveAnchor(anchor, h, 400, 2010, (k) => keys.indexOf(k));
    expect(top).toBe(2110);
    // Already in place: nothing to do.
    expect(resolveAnchor(anchor, h, 400, 2110, (k) => keys.indexOf(k))).toBeNull();
  });

  it('finds the anchor by key after rows were inserted above it', () => {
    const before = createRowHeights(10, () => 30);
    const anchor = takeAnchor(before, 95, (r) => `k${r}`)!;
    // Two rows inserted at the top: k3 is now row 5.
    const keys = ['n0', 'n1', ...Array.from({ length: 10 }, (_, r) => `k${r}`)];
    const after = createRowHeights(12, () => 30);
    expect(resolveAnchor(anchor, after, 60, 95, (k) => keys.indexOf(k))).toBe(155);
  });

  it('works in a scaled scroll space', () => {
    const n = 1_000_000;
    const h = createRowHeights(n, () => 40);
    const viewport = 800;
    const space = scrollSpace(h.total, viewport);
    expect(space.scale).toBeGreaterThan(1);
    const scrollTop = 7_000_000;
    const anchor = takeAnchor(h, scrollTop * space.scale, (r) => String(r))!;
    h.set(0, 400);
    const top = resolveAnchor(anchor, h, viewport, scrollTop, (k) => Number(k))!;
    const next = scrollSpace(h.total, viewport);
    expect(Math.abs(top * next.scale - (h.start(anchor.row) + anchor.delta))).toBeLessThan(1);
  });

  it('returns null for a vanished anchor and no anchor for no rows', () => {
    const h = createRowHeights(5, () => 10);
    const anchor = takeAnchor(h, 0, () => 'gone')!;
    expect(resolveAnchor(anchor, h, 20, 0, () => -1)).toBeNull();
    expect(
      takeAnchor(
        createRowHeights(0, () => 1),
        0,
        () => 'x',
      ),
    ).toBeNull();
  });
});

describe('pageTarget', () => {
  it('moves by one viewport of content, at least one row, clamped', () => {
    const h = createRowHeights(100, () => 20);
    expect(pageTarget(h, 0, 1, 200)).toBe(10);
    expect(pageTarget(h, 50, -1, 200)).toBe(40);
    expect(pageTarget(h, 95, 1, 200)).toBe(99);
    expect(pageTarget(h, 3, -1, 200)).toBe(0);
    // A viewport smaller than a row still moves one row.
    expect(pageTarget(h, 10, 1, 5)).toBe(11);
    expect(
      pageTarget(
        createRowHeights(0, () => 1),
        0,
        1,
        100,
      ),
    ).toBe(-1);
  });
});
