/**
 * The scaled scroll space: no ceiling on the number of rows.
 *
 * Browsers cap an element's height (~33.5M px in Chromium, ~17.9M px in
 * Firefox), so a list of 1,000,000 rows of 40 px cannot be one tall spacer: a
 * single-spacer virtualizer stops at ~67k rows (inspect's
 * `VirtualList` design note,
 * https://github.com/meridianlabs-ai/ts-mono/blob/main/design/virtual-list-phase-1.md). Every skein list keeps two spaces:
 *
 * - **content space**: where rows are laid out (`contentOffset`, `contentSize`),
 *   as tall as the rows really are;
 * - **scroll space**: the scroll container's own coordinates (`scrollTop`,
 *   `scrollSize`), at most `maxScrollSize` tall.
 *
 * Below the cap the two are the same (scale 1, so native scrolling is exact).
 * Above it, the scrollable range `[0, scrollSize - viewport]` maps linearly
 * onto `[0, contentSize - viewport]`: the first scroll pixel shows the first
 * row and the last one shows the last row, so every row stays reachable.
 */

/**
 * The largest scroll height skein asks a browser for: under Firefox's
 * ~17.9M px limit with room to spare (Chromium's is ~33.5M px).
 *
 * @example
 * import { MAX_SCROLL_SIZE, scrollSpace } from './scroll-space.js';
 * scrollSpace(40_000_000, 800).scrollSize === MAX_SCROLL_SIZE; // true
 */
export const MAX_SCROLL_SIZE = 15_000_000;

/**
 * A scroll space: how tall the scroll container's content is (`scrollSize`)
 * for a list of `contentSize`, and the factor between their scrollable ranges.
 *
 * @example
 * import { scrollSpace } from './scroll-space.js';
 * declare const heights: RowHeights;
 * declare const spacer: HTMLElement;
 * const space = scrollSpace(heights.total, 800);
 * spacer.style.height = `${space.scrollSize}px`;
 */
export interface ScrollSpace {
  /** Height of the laid-out rows (content space), px. */
  readonly contentSize: number;
  /** Height of the scroll container's content (scroll space), px. */
  readonly scrollSize: number;
  /** Height of the viewport, px. */
  readonly viewportSize: number;
  /**
   * Content px per scroll px over the scrollable range (`1` below the cap).
   */
  readonly scale: number;
}

/**
 * The scroll space of a list `contentSize` tall seen through a viewport
 * `viewportSize` tall, capped at `maxScrollSize` (default
 * {@link MAX_SCROLL_SIZE}). Negative or non-finite sizes count as 0.
 *
 * @example
 * import { scrollSpace } from './scroll-space.js';
 * scrollSpace(1_000, 400).scale; // 1
 * scrollSpace(40_000_000, 400).scrollSize; // 15_000_000
 */
export function scrollSpace(
  contentSize: number,
  viewportSize: number,
  maxScrollSize: number = MAX_SCROLL_SIZE,
): ScrollSpace {
  const content = finiteNonNegative(contentSize);
  const viewport = finiteNonNegative(viewportSize);
  // The cap must leave a scrollable range, or nothing could move.
  const cap = Math.max(finiteNonNegative(maxScrollSize), viewport + 1);
  if (content <= cap)
    return { contentSize: content, scrollSize: content, viewportSize: viewport, scale: 1 };
  const scale = (content - viewport) / (cap - viewport);
  return { contentSize: content, scrollSize: cap, viewportSize: viewport, scale };
}

/**
 * The content offset shown at the top of the viewport when the container is
 * scrolled to `scrollTop`. Clamped to the scrollable range; monotonic.
 *
 * @example
 * import { contentOffsetOf, scrollSpace } from './scroll-space.js';
 * const space = scrollSpace(40_000_000, 400);
 * contentOffsetOf(space, space.scrollSize - 400); // 39_999_600: the last row
 */
export function contentOffsetOf(space: ScrollSpace, scrollTop: number): number {
  const maxScroll = Math.max(0, space.scrollSize - space.viewportSize);
  const top = clamp(Number.isFinite(scrollTop) ? scrollTop : 0, 0, maxScroll);
  if (space.scale === 1) return top;
  if (top === maxScroll) return Math.max(0, space.contentSize - space.viewportSize);
  return top * space.scale;
}

/**
 * The `scrollTop` that shows `contentOffset` at the top of the viewport (the
 * inverse of {@link contentOffsetOf}, clamped to the scrollable range).
 *
 * @example
 * import { scrollSpace, scrollTopOf } from './scroll-space.js';
 * const space = scrollSpace(40_000_000, 400);
 * scrollTopOf(space, 20_000_000); // ≈ 7.5M
 */
export function scrollTopOf(space: ScrollSpace, contentOffset: number): number {
  const maxContent = Math.max(0, space.contentSize - space.viewportSize);
  const offset = clamp(Number.isFinite(contentOffset) ? contentOffset : 0, 0, maxContent);
  if (space.scale === 1) return offset;
  if (offset === maxContent) return Math.max(0, space.scrollSize - space.viewportSize);
  return offset / space.scale;
}

/**
 * Where a row starting at content offset `start` sits in scroll space, given
 * the scroll position the rows are drawn for: rows are placed relative to
 * the viewport's top (`scrollTop`) so they stay exact whatever the scale.
 * With `space`, a row far outside the view (a focused row kept mounted) is
 * parked at -1,000,000 px instead: it must not stretch the scroll range.
 *
 * @example
 * import { contentOffsetOf, rowScrollTop } from './scroll-space.js';
 * declare const heights: RowHeights;
 * declare const space: ScrollSpace;
 * declare const el: HTMLElement; // the scroller
 * declare const row: HTMLElement; // the element of row 7
 * const contentOffset = contentOffsetOf(space, el.scrollTop);
 * row.style.transform = `translateY(${rowScrollTop(heights.start(7), contentOffset, el.scrollTop)}px)`;
 */
export function rowScrollTop(
  start: number,
  contentOffset: number,
  scrollTop: number,
  space?: ScrollSpace,
): number {
  const top = scrollTop + (start - contentOffset);
  if (space !== undefined && (top < -space.viewportSize * 4 || top > space.scrollSize)) return -1e6;
  return top;
}

function finiteNonNegative(value: number): number {
  return Number.isFinite(value) && value > 0 ? value : 0;
}

function clamp(value: number, lo: number, hi: number): number {
  return value < lo ? lo : value > hi ? hi : value;
}
