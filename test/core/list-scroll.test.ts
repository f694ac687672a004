import {
  MAX_SCROLL_SIZE,
  contentOffsetOf,
  rowScrollTop,
  scrollSpace,
  scrollTopOf,
} from '../../src/core/list/scroll-space.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

const contentSize = fc.double({ min: 0, max: 5e9, noNaN: true });
const viewport = fc.integer({ min: 0, max: 4000 });

describe('scaled scroll space', () => {
  it('is the identity below the cap', () => {
    const space = scrollSpace(1_000_000, 800);
    expect(space.scale).toBe(1);
    expect(space.scrollSize).toBe(1_000_000);
    expect(contentOffsetOf(space, 12_345)).toBe(12_345);
    expect(scrollTopOf(space, 12_345)).toBe(12_345);
  });

  it('caps the scroll height and reaches the 1,000,000th row of 40 px', () => {
    const rowHeight = 40;
    const space = scrollSpace(1_000_000 * rowHeight, 800);
    expect(space.scrollSize).toBe(MAX_SCROLL_SIZE);
    const bottom = contentOffsetOf(space, space.scrollSize - 800);
    // The last row's top is inside the viewport at the bottom of the scroll range.
    const lastRowTop = 999_999 * rowHeight;
    expect(lastRowTop).toBeGreaterThanOrEqual(bottom);
    expect(lastRowTop + rowHeight).toBeLessThanOrEqual(bottom + 800);
  });

  it('keeps the scroll size within the cap and both ends mapped to both ends', () => {
    fc.assert(
      fc.property(contentSize, viewport, (content, view) => {
        const space = scrollSpace(content, view);
        expect(space.scrollSize).toBeLessThanOrEqual(Math.max(MAX_SCROLL_SIZE, view + 1));
        expect(contentOffsetOf(space, 0)).toBe(0);
        const maxScroll = Math.max(0, space.scrollSize - view);
        expect(contentOffsetOf(space, maxScroll)).toBeCloseTo(Math.max(0, content - view), 3);
        expect(contentOffsetOf(space, maxScroll + 1e9)).toBe(contentOffsetOf(space, maxScroll));
      }),
    );
  });

  it('is monotonic', () => {
    fc.assert(
      fc.property(
        contentSize,
        viewport,
        fc.double({ min: 0, max: 2e7, noNaN: true }),
        fc.double({ min: 0, max: 2e7, noNaN: true }),
        (content, view, a, b) => {
          const space = scrollSpace(content, view);
          const [lo, hi] = a <= b ? [a, b] : [b, a];
          expect(contentOffsetOf(space, lo)).toBeLessThanOrEqual(contentOffsetOf(space, hi));
          expect(scrollTopOf(space, lo)).toBeLessThanOrEqual(scrollTopOf(space, hi));
        },
      ),
    );
  });

  it('round-trips content offsets within one scroll pixel of content', () => {
    fc.assert(
      fc.property(
        contentSize,
        viewport,
        fc.double({ min: 0, max: 1, noNaN: true }),
        (content, view, t) => {
          const space = scrollSpace(content, view);
          const offset = t * Math.max(0, content - view);
          const back = contentOffsetOf(space, scrollTopOf(space, offset));
          expect(Math.abs(back - offset)).toBeLessThanOrEqual(space.scale * 1e-6 + 1e-6);
        },
      ),
    );
  });

  it('places a row relative to the scroll position it is drawn for', () => {
    expect(rowScrollTop(5_000, 4_800, 100)).toBe(300);
    const space = scrollSpace(40_000_000, 400);
    const top = scrollTopOf(space, 20_000_000);
    expect(rowScrollTop(20_000_000, contentOffsetOf(space, top), top)).toBeCloseTo(top, 3);
  });

  it('treats garbage sizes as empty', () => {
    const space = scrollSpace(Number.NaN, -5);
    expect(space).toEqual({ contentSize: 0, scrollSize: 0, viewportSize: 0, scale: 1 });
    expect(contentOffsetOf(space, Number.POSITIVE_INFINITY)).toBe(0);
  });
});
