import { useCallback, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { flushSync } from 'react-dom';
import {
  contentOffsetOf,
  createRowHeights,
  scrollSpace,
  scrollTopOf,
  type EventTree,
  transcriptRowOfEvent,
  type RowHeights,
  type ScrollSpace,
  type TranscriptRows,
} from '../../core/index.js';

/**
 * The transcript's virtualizer: which rows to draw and where, with measured
 * row heights, for any number of rows (issue 6).
 *
 * It replaces `@tanstack/react-virtual`, which the first version used: its
 * measurement cache holds one object per row and recomputes every offset after
 * a measured row (O(n) objects per measured frame), so at 1M rows it could only
 * run with fixed, clipped heights, and building that cache was most of the
 * mount. Here heights are a Fenwick tree (core `createRowHeights`): mount is
 * one typed-array pass, a measurement and a lookup are O(log n).
 *
 * Two coordinate spaces (core `scroll-space.ts`): rows are laid out in
 * content space; the scroller scrolls in a scroll space capped below the
 * browser's maximum element height and scaled onto content space beyond it.
 *
 * Heights measured are kept per tree node, so collapsing, filtering and
 * appending keep them; a node whose event changes place when the tree is
 * rebuilt falls back to its estimate until it is drawn again.
 */
export interface VirtualItem {
  /** Row index. */
  readonly index: number;
  /** Top of the row in content space, px. */
  readonly start: number;
  readonly size: number;
}

export interface RowVirtualizer {
  /** Rows to draw: the visible range with overscan, plus `keepRow`; ascending. */
  readonly items: readonly VirtualItem[];
  readonly heights: RowHeights;
  readonly space: ScrollSpace;
  /** Content offset at the top of the viewport. */
  readonly contentOffset: number;
  /** The scroller's `scrollTop` the rows are placed for. */
  readonly scrollTop: number;
  /**
   * Re-reads the scroll position and draws the rows for it: at once
   * (`flushSync`) from an event handler, or with the current render when
   * called from an effect (`flush: false`). `alongside` runs in the same
   * render, told whether the user moved the view up (not the virtualizer's
   * own adjustments).
   */
  readonly sync: (alongside?: (movedUp: boolean) => void, flush?: boolean) => void;
  /** Ref callback for every drawn row (`data-index` names its row): measures it. */
  readonly measureRow: (el: HTMLElement | null) => void;
}

export interface RowVirtualizerOptions {
  tree: EventTree;
  rows: TranscriptRows;
  /** Height before a row is measured. */
  estimate: (row: number) => number;
  scrollRef: RefObject<HTMLElement | null>;
  overscan: number;
  /** A row to draw even when out of range (the focused row, STYLE §10); -1 for none. */
  keepRow: number;
  /** Called on every scroll (before the rows for it are drawn). */
  onScroll?: () => void;
  /**
   * Follow the end: draw the last rows, and keep the scroller at its bottom
   * after every change (new rows, rows measured taller). From the first
   * render on, so a live view never draws its top first.
   */
  pinned?: boolean;
}

/** Measured heights per tree node (0 = not measured), carried across trees. */
interface NodeHeights {
  tree: EventTree;
  sizes: Float32Array;
}

/**
 * The measured heights of `before` moved onto `tree`'s nodes. A live tree
 * grows by insertions (events appended to any open span), which only move
 * nodes later, by at most the number of nodes added, keeping their order: so
 * one forward walk finds each measured node again, O(measured + added). A
 * node not found there (the tree was restructured) is measured again when
 * drawn.
 */
function carryHeights(before: NodeHeights | null, tree: EventTree): NodeHeights {
  const sizes = new Float32Array(tree.length);
  if (before === null) return { tree, sizes };
  const old = before.sizes;
  const a = before.tree.events;
  const b = tree.events;
  const added = Math.max(0, b.length - a.length);
  let shift = 0;
  for (let i = 0; i < old.length; i++) {
    if (old[i] === 0) continue;
    const uuid = a[i]!.uuid;
    const limit = Math.min(b.length - 1, i + added);
    let j = i + shift;
    while (j <= limit && b[j]!.uuid !== uuid) j++;
    if (j > limit) continue;
    sizes[j] = old[i]!;
    shift = j - i;
  }
  return { tree, sizes };
}

/** The rows covering `[offset, offset + viewport)`, with `overscan` more each side. */
function rangeOf(
  heights: RowHeights,
  offset: number,
  viewport: number,
  overscan: number,
): [number, number] {
  if (heights.count === 0) return [0, -1];
  const first = Math.max(0, heights.rowAt(offset) - overscan);
  const lastVisible = heights.rowAt(offset + Math.max(viewport, 1) - 0.5);
  return [first, Math.min(heights.count - 1, lastVisible + overscan)];
}

/** Where a row starting at content offset `start` is drawn (see transcript.tsx). */
function rowTop(start: number, space: ScrollSpace, scrollTop: number, contentOffset: number) {
  const top = scrollTop + (start - contentOffset);
  // A focused row kept mounted far away must not stretch the scroll range:
  // park it above the top.
  return top < -space.viewportSize * 4 || top > space.scrollSize ? -1e6 : top;
}

export function useRowVirtualizer(options: RowVirtualizerOptions): RowVirtualizer {
  const { tree, rows, estimate, scrollRef, overscan, keepRow } = options;
  const onScrollRef = useRef(options.onScroll);
  useLayoutEffect(() => {
    onScrollRef.current = options.onScroll;
  });

  const nodeHeightsRef = useRef<NodeHeights | null>(null);
  const nodeHeights = useMemo(() => carryHeights(nodeHeightsRef.current, tree), [tree]);
  useLayoutEffect(() => {
    nodeHeightsRef.current = nodeHeights;
  }, [nodeHeights]);

  // What rows of each estimate turned out to measure, on average: rows not
  // measured yet are given that (rows whose bodies wait while the view moves
  // are much shorter than the estimate, and a wrong guess for the rows about
  // to show costs a second render to draw the ones that then fit).
  const learned = useRef(new Map<number, { sum: number; count: number }>());
  const guess = useCallback(
    (r: number) => {
      const e = estimate(r);
      const l = learned.current.get(e);
      return l === undefined ? e : l.sum / l.count;
    },
    [estimate],
  );

  // Rebuilt when the rows change (O(rows), typed arrays only); measurements
  // then update it in place and bump `version`.
  const heights = useMemo(() => {
    const sizes = nodeHeights.sizes;
    const node = rows.node;
    return createRowHeights(rows.length, (r) => sizes[node[r]!] || guess(r));
  }, [rows, nodeHeights, guess]);
  const [, setVersion] = useState(0);
  const bump = useCallback(() => setVersion((v) => v + 1), []);

  // Before the scroller is measured, assume it is as tall as the window, so
  // the first render already draws the rows that will show (and one layout,
  // not two, reads the scroller and the rows).
  const [viewport, setViewport] = useState(() =>
    typeof window === 'undefined' ? 800 : window.innerHeight,
  );
  const pinned = options.pinned === true;
  const pinnedRef = useRef(pinned);
  pinnedRef.current = pinned;
  const [scrollState, setScrollTop] = useState(0);
  const space = scrollSpace(heights.total, viewport);
  const maxScroll = Math.max(0, space.scrollSize - space.viewportSize);
  const scrollTop = pinned ? maxScroll : Math.min(scrollState, maxScroll);
  const contentOffset = contentOffsetOf(space, scrollTop);
  // What the scroller shows, for anchoring rows while heights change.
  const shownRef = useRef({ contentOffset, scrollTop, scrollSize: space.scrollSize });
  shownRef.current = { contentOffset, scrollTop, scrollSize: space.scrollSize };

  /** The scrollTop the last anchoring adjustment set, until its scroll event. */
  const anchoredRef = useRef<number | null>(null);
  /** The scrollTop seen last (by `sync`, or set by the virtualizer). */
  const lastTopRef = useRef(0);
  const sync = useCallback(
    (alongside?: (movedUp: boolean) => void, flush = true) => {
      const el = scrollRef.current;
      if (el === null) return;
      const top = el.scrollTop;
      // The scroll event of an anchoring adjustment is not the user moving
      // (it would defer bodies again, and their heights would move it again).
      const own = anchoredRef.current;
      anchoredRef.current = null;
      const byUser = own === null || Math.abs(own - top) >= 1;
      if (byUser) onScrollRef.current?.();
      const movedUp = byUser && top < lastTopRef.current - 0.5;
      lastTopRef.current = top;
      const height = el.clientHeight;
      // Pinned to the end and still there: the rows are already the last
      // ones, so a scroll event (ours, or the user's within the slack) needs
      // no render.
      const stay = pinnedRef.current && el.scrollHeight - top - height <= 1;
      // (A move up unpins, through `alongside`: then the position matters.)
      const update = () => {
        if (!stay || movedUp) setScrollTop(top);
        setViewport(height);
        alongside?.(movedUp);
      };
      // Draw the rows for this position before the browser paints it.
      if (flush) flushSync(update);
      else update();
    },
    [scrollRef],
  );

  // The scroller's size: read once in the first commit's layout effect
  // (below, with the rows), then followed by a ResizeObserver.
  const viewportKnown = useRef(false);
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (el === null || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setViewport(el.clientHeight));
    observer.observe(el);
    return () => observer.disconnect();
  }, [scrollRef]);

  // --- which rows ---------------------------------------------------------------
  const items: VirtualItem[] = [];
  const [first, last] = rangeOf(heights, contentOffset, viewport, overscan);
  const drawn = useRef({ first, last, scrollState, pinned, viewport, overscan });
  drawn.current = { first, last, scrollState, pinned, viewport, overscan };
  if (heights.count > 0) {
    const keep = keepRow >= 0 && keepRow < heights.count ? keepRow : -1;
    if (keep >= 0 && keep < first)
      items.push({ index: keep, start: heights.start(keep), size: heights.size(keep) });
    for (let r = first; r <= last; r++)
      items.push({ index: r, start: heights.start(r), size: heights.size(r) });
    if (keep > last)
      items.push({ index: keep, start: heights.start(keep), size: heights.size(keep) });
  }

  // --- measuring ----------------------------------------------------------------
  const mounted = useRef(new Set<HTMLElement>());
  const state = useRef({ heights, rows, nodeHeights, estimate });
  state.current = { heights, rows, nodeHeights, estimate };

  /**
   * Reads the drawn rows' heights and applies the changes, keeping the row at
   * the top of the viewport where it is (rows above it may grow or shrink).
   * `fresh`: the rows were just drawn. Returns whether anything changed.
   */
  const measure = useCallback(
    (els: Iterable<Element>, fresh: boolean): boolean => {
      const { heights: h, rows: rs, nodeHeights: nh, estimate: classOf } = state.current;
      const shown = shownRef.current;
      const anchor = h.rowAt(shown.contentOffset);
      const anchorDelta = anchor < 0 ? 0 : shown.contentOffset - h.start(anchor);
      let changed = false;
      // Only a row that was already on screen is an anchor: when the top row
      // is new too (a jump: scrollbar drag, deep link), nothing on screen
      // was where it is, and keeping it in place would only chase the rows
      // the adjustment brings in.
      let anchorIsNew = false;
      for (const el of els) {
        if (!(el instanceof HTMLElement) || !el.isConnected) continue;
        const r = Number(el.dataset['index']);
        if (!(r >= 0 && r < h.count)) continue;
        if (r === anchor && fresh) anchorIsNew = true;
        // No layout (jsdom, display: none): keep the estimate.
        const size = el.offsetHeight;
        if (size === 0) continue;
        const node = rs.node[r]!;
        if (node < nh.sizes.length) {
          if (nh.sizes[node] === 0) {
            const e = classOf(r);
            const l = learned.current.get(e);
            if (l === undefined) learned.current.set(e, { sum: size, count: 1 });
            else if (l.count < 1000) {
              l.sum += size;
              l.count++;
            }
          }
          nh.sizes[node] = size;
        }
        if (h.set(r, size) !== 0) changed = true;
      }
      if (!changed) return false;
      anchoredNow.current = false;
      const el = scrollRef.current;
      // Pinned: the end is the anchor (the pin effect keeps it).
      if (el !== null && anchor >= 0 && !anchorIsNew && !pinnedRef.current) {
        const wanted = h.start(anchor) + anchorDelta;
        // Where the scroller's position lands now: in a scaled space the
        // same scrollTop maps elsewhere once the total changed.
        const next = scrollSpace(h.total, el.clientHeight);
        if (Math.abs(wanted - contentOffsetOf(next, el.scrollTop)) >= 0.5) {
          el.scrollTop = scrollTopOf(next, wanted);
          anchoredRef.current = el.scrollTop;
          lastTopRef.current = el.scrollTop;
          anchoredNow.current = true;
          // Place the rows for where the scroller is now.
          setScrollTop(el.scrollTop);
        }
      }
      return true;
    },
    [scrollRef],
  );

  /**
   * Puts the drawn rows where `h` says and sizes the feed. Positions are
   * only ever set here, never by React, so moving rows after a measurement
   * needs no render and nothing can undo it.
   */
  const place = useCallback(
    (h: RowHeights, sp: ScrollSpace, top: number, offset: number) => {
      const feed = scrollRef.current?.firstElementChild;
      if (feed instanceof HTMLElement) feed.style.height = `${sp.scrollSize}px`;
      for (const row of mounted.current) {
        const r = Number(row.dataset['index']);
        if (!(r >= 0 && r < h.count)) continue;
        row.style.transform = `translateY(${rowTop(h.start(r), sp, top, offset)}px)`;
      }
    },
    [scrollRef],
  );

  /**
   * Pinned: puts the scroller at the bottom of a feed `scrollSize` tall seen
   * through `height` px. Only the DOM moves (the rows drawn are the last
   * ones), and the scroll event that follows renders nothing.
   */
  const pin = useCallback(
    (scrollSize: number, height: number) => {
      const el = scrollRef.current;
      if (el === null) return;
      const max = scrollSize - height;
      if (max > 0 && el.scrollTop < max - 1) {
        el.scrollTop = max;
        anchoredRef.current = el.scrollTop;
        lastTopRef.current = el.scrollTop;
        // The view moves as it follows: rows that come next are drawn the
        // way rows brought in by a scroll are (`onScroll`).
        onScrollRef.current?.();
      }
    },
    [scrollRef],
  );

  /** Whether the last `measure` moved the scroller (a render follows anyway). */
  const anchoredNow = useRef(false);

  /**
   * After heights changed: when the rows drawn still cover the view, moves
   * them (and sizes the feed) in the DOM without a render — React's next
   * render computes the same values; otherwise asks for a render. Returns
   * the feed's scroll size now.
   */
  const relayout = useCallback(
    (outsideCommit: boolean): number => {
      const { heights: h } = state.current;
      const d = drawn.current;
      const el = scrollRef.current;
      const nextSpace = scrollSpace(h.total, d.viewport);
      const max = Math.max(0, nextSpace.scrollSize - nextSpace.viewportSize);
      // Anchored: the scroller moved (its render is on the way); place the
      // rows for where it is now, so no frame shows them out of place.
      const top =
        anchoredNow.current && el !== null
          ? el.scrollTop
          : d.pinned
            ? max
            : Math.min(d.scrollState, max);
      const offset = contentOffsetOf(nextSpace, top);
      // The rows in view (not the overscan) must all be drawn already.
      const [first, last] = rangeOf(h, offset, d.viewport, 0);
      const feed = el?.firstElementChild;
      if (first < d.first || last > d.last || !(feed instanceof HTMLElement)) {
        bump();
        return shownRef.current.scrollSize;
      }
      place(h, nextSpace, top, offset);
      shownRef.current = {
        contentOffset: offset,
        scrollTop: top,
        scrollSize: nextSpace.scrollSize,
      };
      // Rows measured taller outside a commit (the ResizeObserver): keep
      // following the end (in a commit, its layout effect pins).
      if (d.pinned && outsideCommit) pin(nextSpace.scrollSize, d.viewport);
      return nextSpace.scrollSize;
    },
    [scrollRef, bump, place, pin],
  );

  const observerRef = useRef<ResizeObserver | null>(null);
  const getObserver = () => {
    if (observerRef.current === null && typeof ResizeObserver !== 'undefined') {
      // Later changes inside a drawn row: images, resized frames, "show all".
      observerRef.current = new ResizeObserver((entries) => {
        if (
          measure(
            entries.map((e) => e.target),
            false,
          )
        )
          relayout(true);
      });
    }
    return observerRef.current;
  };
  useLayoutEffect(
    () => () => {
      // Forget everything: a remount (StrictMode, <Activity>) calls the row
      // refs again, which observe and measure the rows anew.
      observerRef.current?.disconnect();
      observerRef.current = null;
      mounted.current.clear();
      fresh.current = [];
    },
    [],
  );

  /** Rows drawn since the last commit: measured in its layout effect. */
  const fresh = useRef<HTMLElement[]>([]);
  const measureRow = useCallback((el: HTMLElement | null) => {
    if (el === null) return;
    if (!mounted.current.has(el)) {
      mounted.current.add(el);
      fresh.current.push(el);
      getObserver()?.observe(el);
    }
    // getObserver only reads refs.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // After every commit, reading before writing so the browser lays out at
  // most once: forget rows that left; measure the new ones before paint (a
  // re-render here is synchronous, so no frame shows them overlapping) —
  // rows already drawn are remeasured by the ResizeObserver when their
  // content changes; then, pinned, put the scroller at its bottom (only the
  // DOM moves: the rows drawn are already the last ones, and the scroll
  // event that follows renders nothing).
  const renderedScrollSize = space.scrollSize;
  const seenHeights = useRef(heights);
  /** Set when the rows were rebuilt: every drawn row is measured again. */
  const staleRows = useRef(false);
  /** The row at the top of the view after the last commit, to keep there. */
  const topRow = useRef<{ uuid: string; row: number; delta: number } | null>(null);
  const recordTop = () => {
    const { heights: h, rows: rs } = state.current;
    const offset = shownRef.current.contentOffset;
    const r = h.rowAt(offset);
    topRow.current =
      r < 0 ? null : { uuid: tree.events[rs.node[r]!]!.uuid, row: r, delta: offset - h.start(r) };
  };
  // Every commit on purpose (rows mount in any of them); `setViewport` runs
  // once, guarded by `viewportKnown`.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useLayoutEffect(() => {
    let scrollSize = renderedScrollSize;
    const el = scrollRef.current;
    const set = mounted.current;
    for (const node of set) {
      if (!node.isConnected) {
        set.delete(node);
        observerRef.current?.unobserve(node);
      }
    }
    let height = viewport;
    if (!viewportKnown.current && el !== null) {
      viewportKnown.current = true;
      height = el.clientHeight;
      if (height !== viewport) setViewport(height);
    }
    if (seenHeights.current !== heights) {
      seenHeights.current = heights;
      staleRows.current = true;
      // The rows were rebuilt (events added, a section toggled, a filter):
      // keep the row that was at the top where it was. Its index may have
      // changed, and in a scaled space so may the scroll position's meaning.
      const before = topRow.current;
      if (before !== null && !pinned && el !== null) {
        const r = transcriptRowOfEvent(tree, rows, before.uuid, before.row);
        if (r >= 0) {
          const wanted = heights.start(r) + before.delta;
          if (Math.abs(wanted - contentOffset) >= 0.5) {
            el.scrollTop = scrollTopOf(space, wanted);
            anchoredRef.current = el.scrollTop;
            lastTopRef.current = el.scrollTop;
            topRow.current = { ...before, row: r };
            // Re-render there (synchronously, before paint); it measures.
            setScrollTop(el.scrollTop);
            return;
          }
        }
      }
    }
    let placed = false;
    // Rows still drawn after a rebuild keep their elements (keyed by uuid)
    // but maybe not their measured heights (moved nodes): measure them all.
    const wasStale = staleRows.current;
    const toMeasure = wasStale ? [...set] : fresh.current;
    staleRows.current = false;
    fresh.current = [];
    if (toMeasure.length > 0 && measure(toMeasure, !wasStale)) {
      scrollSize = relayout(false);
      placed = true;
    }
    // (When relayout asked for a render, that render places them again.)
    if (!placed) place(heights, space, scrollTop, contentOffset);
    if (pinned) pin(scrollSize, height);
    recordTop();
  });

  return { items, heights, space, contentOffset, scrollTop, sync, measureRow };
}
