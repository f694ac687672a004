/**
 * Which rows a virtualized list draws, where a row lands after the rows
 * change, and how far a page key moves. Pure functions over
 * {@link RowHeights} and the scroll space; `ListEngine` (engine.ts) keeps
 * the state between frames and calls these.
 */
import type { RowHeights } from './heights.js';
import { contentOffsetOf, scrollSpace, scrollTopOf } from './scroll-space.js';

/**
 * Rows drawn before the scroller has been measured (on the server, at
 * hydration, in the first client render): a fixed count, so the server's
 * HTML and the first client render match at any window size.
 *
 * @example
 * firstWindow(1_000, false); // [0, 29]
 */
export const FIRST_WINDOW_ROWS = 30;

/**
 * The rows drawn before the viewport is known: the first
 * {@link FIRST_WINDOW_ROWS} (`rows`) of `count`, or the last ones when
 * `atEnd` (a live list opens at its end), as `[first, last]`.
 *
 * @example
 * firstWindow(100, true); // [70, 99]
 * firstWindow(0, false); // [0, -1]
 */
export function firstWindow(
  count: number,
  atEnd: boolean,
  rows: number = FIRST_WINDOW_ROWS,
): [number, number] {
  if (count <= 0) return [0, -1];
  return atEnd ? [Math.max(0, count - rows), count - 1] : [0, Math.min(count, rows) - 1];
}

/**
 * How to bring a row into view: its top at the viewport's top (`start`), its
 * middle in the middle (`center`), its bottom at the bottom (`end`), or
 * `auto`: where it is when already entirely in view, else the nearest edge.
 *
 * @example
 * const align: ListAlign = 'center';
 */
export type ListAlign = 'auto' | 'start' | 'center' | 'end';

/**
 * Where row `[start, start + size)` should sit below the viewport's top
 * (content px, ≥ 0) when brought into view from `current` (the content offset
 * at the viewport's top) with `align`.
 *
 * @example
 * alignOffset(1000, 40, 0, 400, 'center'); // 180
 * alignOffset(100, 40, 0, 400, 'auto'); // 100: already in view, stays
 */
export function alignOffset(
  start: number,
  size: number,
  current: number,
  viewportSize: number,
  align: ListAlign,
): number {
  if (align === 'center') return Math.max(0, (viewportSize - size) / 2);
  if (align === 'start') return 0;
  if (align === 'end') return Math.max(0, viewportSize - size);
  if (start >= current && start + size <= current + viewportSize) return start - current;
  return start < current ? 0 : Math.max(0, viewportSize - size);
}

/**
 * The rows covering `[contentOffset, contentOffset + viewportSize)` with
 * `overscan` more on each side, as `[first, last]` (inclusive; `[0, -1]` when
 * there are no rows).
 *
 * @example
 * declare const heights: RowHeights;
 * declare const contentOffset: number;
 * declare function draw(row: number): void;
 * const [first, last] = visibleRange(heights, contentOffset, 800, 4);
 * for (let r = first; r <= last; r++) draw(r);
 */
export function visibleRange(
  heights: RowHeights,
  contentOffset: number,
  viewportSize: number,
  overscan = 0,
): [number, number] {
  if (heights.count === 0) return [0, -1];
  const first = Math.max(0, heights.rowAt(contentOffset) - overscan);
  const lastVisible = heights.rowAt(contentOffset + Math.max(viewportSize, 1) - 0.5);
  return [first, Math.min(heights.count - 1, lastVisible + overscan)];
}

/**
 * A scroll anchor: the row at the top of the viewport and how far into it
 * the viewport starts. Taken before the rows change (rows measured, rows
 * above inserted or removed), resolved after, so what the user looks at stays
 * put (CSS `overflow-anchor`, which cannot work in a scaled space).
 *
 * @example
 * declare const heights: RowHeights;
 * declare const contentOffset: number;
 * declare const keys: readonly string[]; // a stable key per row
 * const anchor = takeAnchor(heights, contentOffset, (r) => keys[r]!);
 */
export interface ScrollAnchor {
  /** Identity of the anchor row (a key that survives rebuilds). */
  readonly key: string;
  /** Its index when taken: tried first when the key is looked up again. */
  readonly row: number;
  /** Content px between the row's top and the viewport's top. */
  readonly delta: number;
  /**
   * A row navigated to (`scrollToIndex`, a deep link, find): held where it
   * landed while rows around it are measured, until the user scrolls. A
   * plain anchor is the row at the top of the view, retaken after every
   * change.
   */
  readonly target?: boolean;
}

/**
 * The anchor of the viewport at `contentOffset`, or `null` when there are no
 * rows.
 *
 * @example
 * declare const heights: RowHeights;
 * declare const keys: readonly string[];
 * const anchor = takeAnchor(heights, 1234, (r) => keys[r]!);
 * anchor?.delta; // how far the viewport's top is inside the anchor row
 */
export function takeAnchor(
  heights: RowHeights,
  contentOffset: number,
  keyOf: (row: number) => string,
): ScrollAnchor | null {
  const row = heights.rowAt(contentOffset);
  if (row < 0) return null;
  return { key: keyOf(row), row, delta: contentOffset - heights.start(row) };
}

/**
 * Where to scroll so `anchor` is where it was: the `scrollTop` in the new
 * scroll space, or `null` when the anchor row is gone (`rowOf` returns -1) or
 * nothing needs to move (within half a pixel of `scrollTop`).
 *
 * @example
 * declare const anchor: ScrollAnchor;
 * declare const heights: RowHeights;
 * declare const el: HTMLElement; // the scroller
 * declare const keys: readonly string[];
 * const top = resolveAnchor(anchor, heights, el.clientHeight, el.scrollTop, (k) => keys.indexOf(k));
 * if (top !== null) el.scrollTop = top;
 */
export function resolveAnchor(
  anchor: ScrollAnchor,
  heights: RowHeights,
  viewportSize: number,
  scrollTop: number,
  rowOf: (key: string, hint: number) => number,
): number | null {
  const row = rowOf(anchor.key, anchor.row);
  if (row < 0 || row >= heights.count) return null;
  const space = scrollSpace(heights.total, viewportSize);
  const wanted = heights.start(row) + anchor.delta;
  if (Math.abs(wanted - contentOffsetOf(space, scrollTop)) < 0.5) return null;
  return scrollTopOf(space, wanted);
}

/**
 * The row a PageUp (`direction` -1) or PageDown (+1) moves focus to from
 * `row`: the row one viewport away in content space (so pages of tall and
 * short rows both move by what the user sees), at least one row, clamped.
 *
 * @example
 * declare const heights: RowHeights;
 * declare const focusedRow: number;
 * const target = pageTarget(heights, focusedRow, 1, 800); // the row PageDown moves to
 */
export function pageTarget(
  heights: RowHeights,
  row: number,
  direction: 1 | -1,
  viewportSize: number,
): number {
  if (heights.count === 0) return -1;
  const from = Math.min(Math.max(row, 0), heights.count - 1);
  const page = Math.max(viewportSize, 1);
  const target =
    direction > 0
      ? heights.rowAt(heights.start(from) + page)
      : heights.rowAt(Math.max(0, heights.start(from) - page));
  if (target === from) return Math.min(Math.max(from + direction, 0), heights.count - 1);
  return target;
}
