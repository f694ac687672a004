import { useCallback, useMemo, useRef, useState, type RefObject } from 'react';
import { flushSync } from 'react-dom';
import {
  alignOffset,
  contentOffsetOf,
  createRowHeights,
  firstWindow,
  pageTarget,
  rowScrollTop,
  rowsContinued,
  scrollSpace,
  scrollTopOf,
  visibleRange,
  type ListAlign,
  type RowHeights,
  type ScrollAnchor,
  type ScrollSpace,
} from '../../core/index.js';
import { useIsomorphicLayoutEffect as useLayoutEffect } from './use-isomorphic-layout-effect.js';
import { readViewport, sameProblem, type LayoutProblem } from './viewport.js';

/**
 * One row to draw.
 *
 * @example
 * declare const item: ListItem;
 * <div key={item.key} style={{ transform: `translateY(${item.top}px)`, height: item.size }} />;
 */
export interface ListItem {
  /** Row index. */
  readonly index: number;
  readonly key: string;
  /** Top in content space, px. */
  readonly start: number;
  readonly size: number;
  /** Where to draw it in the scroller (scroll space), px: `translateY(top)`. */
  readonly top: number;
}

/**
 * Measured heights a list keeps itself (`sizes` of
 * {@link ListVirtualizerOptions}): `get(row)` is `0` while row `row` is not
 * measured. A list over a larger sequence (the transcript's rows over its
 * event tree) keeps them per item, so collapsing and filtering keep them
 * (see core `carrySizes`).
 *
 * @example
 * declare const nodeOfRow: Int32Array;
 * const perNode = new Float32Array(1000);
 * const sizes: MeasuredSizes = {
 *   get: (r) => perNode[nodeOfRow[r]!]!,
 *   set: (r, size) => void (perNode[nodeOfRow[r]!] = size),
 * };
 */
export interface MeasuredSizes {
  get(row: number): number;
  set(row: number, size: number): void;
}

/**
 * Options of {@link useListVirtualizer}.
 *
 * @example
 * import { useRef } from 'react';
 * declare const keys: readonly string[];
 * const scrollRef = useRef<HTMLDivElement>(null);
 * const options: ListVirtualizerOptions = {
 *   count: keys.length,
 *   rows: keys,
 *   estimateSize: () => 28,
 *   getKey: (i) => keys[i]!,
 *   scrollRef,
 * };
 */
export interface ListVirtualizerOptions {
  count: number;
  /**
   * The rows' identity: when it changes, heights are rebuilt and the row at
   * the top of the viewport (or a row navigated to) is kept where it was
   * (found again by key).
   */
  rows: unknown;
  /** Height of row `index` before it is measured (or always, with `measure: false`), px. */
  estimateSize: (index: number) => number;
  /** A stable key per row (survives rebuilds: anchoring and measured heights use it). */
  getKey: (index: number) => string;
  /** The row with `key`, or -1; `hint` is where it was. Default: a linear search. */
  indexOfKey?: (key: string, hint: number) => number;
  /** The scrolling element; its first child is sized to the scroll space. */
  scrollRef: RefObject<HTMLElement | null>;
  /** Rows drawn beyond each edge of the viewport (default 4). */
  overscan?: number;
  /** A row drawn even when scrolled away (the focused row, STYLE §10); -1 for none. */
  keepIndex?: number;
  /**
   * Measure drawn rows (`offsetHeight`, then a `ResizeObserver` per row) and
   * use what they measure (default `true`). Measured rows are positioned by
   * the hook itself (their `transform`), so a measurement moves them without
   * a render; rows of a list that does not measure are drawn at `item.top`.
   */
  measure?: boolean;
  /** Where measured heights are kept (default: by key, inside the hook). */
  sizes?: MeasuredSizes;
  /**
   * Viewport height assumed before the scroller is measured. Without it
   * (default) the first render — on the server, at hydration — draws
   * `FIRST_WINDOW_ROWS` rows (the last ones when `pinned`), to be laid out in
   * normal flow until `ready`, so hydration matches at any window size.
   */
  initialViewportSize?: number;
  /**
   * Follow the end: draw the last rows, and keep the scroller at its bottom
   * after every change (new rows, rows measured taller). From the first
   * render on, so a live view never draws its top first.
   */
  pinned?: boolean;
  /** Called when the user scrolls (not the hook's own adjustments), before the rows are drawn. */
  onUserScroll?: () => void;
}

/**
 * What {@link useListVirtualizer} gives a list to draw.
 *
 * @example
 * declare const list: ListVirtualizer;
 * const { items, scrollSize, measureRow } = list;
 */
export interface ListVirtualizer {
  /** Rows to draw: the visible range with overscan, plus `keepIndex`; ascending. */
  readonly items: readonly ListItem[];
  readonly heights: RowHeights;
  readonly space: ScrollSpace;
  /** Height of the scroller's content (the spacer), px. */
  readonly scrollSize: number;
  readonly viewportSize: number;
  /** Content offset at the top of the viewport. */
  readonly contentOffset: number;
  /** The scroller's `scrollTop` the rows are drawn for. */
  readonly scrollTop: number;
  /**
   * `false` until the scroller has been measured (on the server, at
   * hydration, in the first client render).
   */
  readonly ready: boolean;
  /** What keeps the layout from being honoured, or `null`. */
  readonly problem: LayoutProblem | null;
  /** Ref callback for every drawn row (`data-index` names its row): measures it. */
  readonly measureRow: (el: HTMLElement | null) => void;
  /** Scroll handler for the scroller (`onScroll`). */
  readonly onScroll: () => void;
  /**
   * Re-reads the scroll position and draws the rows for it: at once
   * (`flushSync`) from an event handler, or with the current render
   * (`flush: false`). `alongside` runs in the same render, told whether the
   * user moved the view up, and whether the scroll was the user's at all
   * (an adjustment of the hook's own — pinning, anchoring — is not).
   */
  readonly sync: (alongside?: (movedUp: boolean, byUser: boolean) => void, flush?: boolean) => void;
  /**
   * Scrolls row `index` into view (`align`, default `'auto'`) and, in a
   * measured list, keeps it exactly there while rows around it are measured
   * or added, until the user scrolls (issue 16: the target drifted off
   * screen). Returns whether the row exists.
   */
  scrollToIndex(index: number, align?: ListAlign): boolean;
  /** The row a PageUp/PageDown moves to from `index`. */
  pageFrom(index: number, direction: 1 | -1): number;
}

/**
 * The list engine's React side (issue 17): which rows of a list of any
 * length to draw and where, for `<Transcript>`, `<SpanTree>`, `<Swimlane>`
 * and every later list. Heights are a Fenwick tree and the scroll space is
 * scaled past the browser's element-height limit (core `src/core/list/`),
 * so 1M rows cost one typed-array pass to lay out and O(log n) per lookup.
 * Measured heights (optional) keep the row in view still while rows above
 * are measured; a row navigated to is held where it landed; `pinned` follows
 * the end of a live list. See docs/list-engine.md for why this is not
 * `@tanstack/react-virtual`.
 *
 * Rows are absolutely positioned inside the scroller's first child (the
 * spacer, `height: scrollSize`), each at `translateY(item.top)`.
 *
 * @example
 * import { useRef } from 'react';
 * declare const keys: readonly string[];
 * const scrollRef = useRef<HTMLDivElement>(null);
 * const getKey = (i: number) => keys[i]!;
 * const list = useListVirtualizer({ count: keys.length, rows: keys, estimateSize: () => 28, getKey, scrollRef, measure: false });
 * <div ref={scrollRef} onScroll={list.onScroll} style={{ height: 400, overflow: 'auto' }}>
 *   <div style={{ height: list.scrollSize, position: 'relative' }}>
 *     {list.items.map((item) => (
 *       <div key={item.key} style={{ position: 'absolute', transform: `translateY(${item.top}px)` }}>{item.key}</div>
 *     ))}
 *   </div>
 * </div>;
 */
export function useListVirtualizer(options: ListVirtualizerOptions): ListVirtualizer {
  const { count, rows, estimateSize, getKey, scrollRef } = options;
  const overscan = options.overscan ?? 4;
  const keepIndex = options.keepIndex ?? -1;
  const measuring = options.measure !== false;
  const indexOfKey = useMemo(
    () =>
      options.indexOfKey ??
      ((key: string, hint: number) => {
        if (hint >= 0 && hint < count && getKey(hint) === key) return hint;
        for (let i = 0; i < count; i++) if (getKey(i) === key) return i;
        return -1;
      }),
    [options.indexOfKey, count, getKey],
  );
  const onUserScrollRef = useRef(options.onUserScroll);
  useLayoutEffect(() => {
    onUserScrollRef.current = options.onUserScroll;
  });

  // Measured heights: the list's own store, or one by key kept here.
  // Stable across renders: a caller's inline `getKey` must not rebuild the
  // heights on every render (a rebuild re-anchors the view to the row that
  // was at the top before a scroll, undoing it).
  const byKey = useRef<Map<string, number> | null>(null);
  const getKeyRef = useRef(getKey);
  getKeyRef.current = getKey;
  const ownSizes = useMemo<MeasuredSizes>(
    () => ({
      get: (r) => (byKey.current === null ? 0 : (byKey.current.get(getKeyRef.current(r)) ?? 0)),
      set: (r, size) => void (byKey.current ??= new Map()).set(getKeyRef.current(r), size),
    }),
    [],
  );
  const sizes = options.sizes ?? ownSizes;

  // What rows of each estimate turned out to measure, on average: rows not
  // measured yet are given that (rows whose bodies wait while the view moves
  // are much shorter than the estimate, and a wrong guess for the rows about
  // to show costs a second render to draw the ones that then fit).
  const learned = useRef(new Map<number, { sum: number; count: number }>());
  const guess = useCallback(
    (r: number) => {
      const e = estimateSize(r);
      const l = learned.current.get(e);
      return l === undefined ? e : l.sum / l.count;
    },
    [estimateSize],
  );

  // Rebuilt when the rows change (O(rows), typed arrays only); measurements
  // then update it in place and bump `version`. Rows that continue the last
  // committed ones (a live list grown at its end: `rowsContinued`) keep the
  // heights of the rows they share with them, measured or estimated, so a
  // batch asks only the new rows for theirs (issue 21).
  const committed = useRef<{ rows: unknown; heights: RowHeights; measuring: boolean } | null>(null);
  const heights = useMemo(
    () => {
      const last = committed.current;
      const keep =
        last !== null &&
        last.measuring === measuring &&
        typeof rows === 'object' &&
        rows !== null &&
        typeof last.rows === 'object' &&
        last.rows !== null
          ? rowsContinued(rows, last.rows)
          : 0;
      const kept = keep > 0 ? { heights: last!.heights, keep } : undefined;
      if (!measuring) return createRowHeights(count, estimateSize, kept);
      // Nothing measured by key yet (a mount): skip the lookups.
      if (options.sizes === undefined && byKey.current === null)
        return createRowHeights(count, guess, kept);
      return createRowHeights(count, (r) => sizes.get(r) || guess(r), kept);
    },
    // `rows` stands for the rows' content.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [count, rows, sizes, guess, estimateSize, measuring],
  );
  useLayoutEffect(() => {
    committed.current = { rows, heights, measuring };
  }, [rows, heights, measuring]);
  const [, setVersion] = useState(0);
  const bump = useCallback(() => setVersion((v) => v + 1), []);

  // `null` until the scroller is measured: nothing in a render reads the
  // window (the server has none, and hydration must render what it did).
  const [viewportState, setViewportState] = useState<number | null>(null);
  const [problem, setProblem] = useState<LayoutProblem | null>(null);
  const assumed = viewportState ?? options.initialViewportSize ?? null;
  const viewport = assumed ?? 0;
  const ready = viewportState !== null;
  const setViewport = useCallback((el: HTMLElement) => {
    const read = readViewport(el);
    setViewportState(read.height);
    setProblem((p) => (sameProblem(p, read.problem) ? p : read.problem));
    return read.height;
  }, []);
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

  /** The scrollTop the last adjustment of ours set, until its scroll event. */
  const anchoredRef = useRef<number | null>(null);
  /** The scrollTop seen last (by `sync`, or set by the hook). */
  const lastTopRef = useRef(0);
  /** The row kept still while heights change (see `ScrollAnchor`). */
  const anchorRef = useRef<ScrollAnchor | null>(null);
  const sync = useCallback(
    (alongside?: (movedUp: boolean, byUser: boolean) => void, flush = true) => {
      const el = scrollRef.current;
      if (el === null) return;
      const top = el.scrollTop;
      // The scroll event of an adjustment of ours is not the user moving
      // (it would defer bodies again, and their heights would move it again).
      const own = anchoredRef.current;
      anchoredRef.current = null;
      const byUser = own === null || Math.abs(own - top) >= 1;
      if (byUser) onUserScrollRef.current?.();
      const movedUp = byUser && top < lastTopRef.current - 0.5;
      lastTopRef.current = top;
      const height = readViewport(el).height;
      // Pinned to the end and still there: the rows are already the last
      // ones, so a scroll event (ours, or the user's within the slack) needs
      // no render. (A move up unpins, through `alongside`.)
      const stay = pinnedRef.current && el.scrollHeight - top - height <= 1;
      // The user moved the view: the row to keep still is the one at the top.
      if (byUser && anchorRef.current?.target === true) anchorRef.current = null;
      const update = () => {
        if (!stay || movedUp) setScrollTop(top);
        setViewport(el);
        alongside?.(movedUp, byUser);
      };
      // Draw the rows for this position before the browser paints it.
      if (flush) flushSync(update);
      else update();
    },
    [scrollRef, setViewport],
  );
  const onScroll = useCallback(() => sync(), [sync]);

  // The scroller's size: read once in the first commit's layout effect
  // (below, with the rows), then followed by a ResizeObserver.
  const viewportKnown = useRef(false);
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (el === null || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setViewport(el));
    observer.observe(el);
    return () => observer.disconnect();
  }, [scrollRef, setViewport]);

  // --- which rows ---------------------------------------------------------------
  const [first, last] =
    assumed === null
      ? firstWindow(heights.count, pinned)
      : visibleRange(heights, contentOffset, assumed, overscan);
  const drawn = useRef({ first, last, scrollState, pinned, viewport, ready });
  drawn.current = { first, last, scrollState, pinned, viewport, ready };
  const items: ListItem[] = [];
  const item = (index: number): ListItem => {
    const start = heights.start(index);
    const top = rowScrollTop(start, contentOffset, scrollTop, space);
    return { index, key: getKey(index), start, size: heights.size(index), top };
  };
  if (heights.count > 0) {
    const keep = keepIndex >= 0 && keepIndex < heights.count ? keepIndex : -1;
    if (keep >= 0 && keep < first) items.push(item(keep));
    for (let r = first; r <= last; r++) items.push(item(r));
    if (keep > last) items.push(item(keep));
  }

  // --- measuring ----------------------------------------------------------------
  const mounted = useRef(new Set<HTMLElement>());
  const state = useRef({ heights, sizes, estimateSize, getKey, indexOfKey });
  state.current = { heights, sizes, estimateSize, getKey, indexOfKey };

  /**
   * The anchor's row now and its offset, or `null`. A target that is no
   * longer shown (collapsed, filtered) lets go: the row at the top is kept.
   */
  const anchorOf = (h: RowHeights, offset: number): { row: number; delta: number } | null => {
    const a = anchorRef.current;
    if (a !== null && a.target === true) {
      const r = state.current.indexOfKey(a.key, a.row);
      if (r >= 0 && r < h.count) return { row: r, delta: a.delta };
      anchorRef.current = null;
    }
    const r = h.rowAt(offset);
    return r < 0 ? null : { row: r, delta: offset - h.start(r) };
  };

  /** Whether the last `measure` moved the scroller (a render follows anyway). */
  const anchoredNow = useRef(false);

  /**
   * Reads the drawn rows' heights and applies the changes, keeping the anchor
   * row where it is (rows above it may grow or shrink). `fresh`: the rows
   * were just drawn. Returns whether anything changed.
   */
  const measure = useCallback(
    (els: Iterable<Element>, fresh: boolean): boolean => {
      const { heights: h, sizes: store, estimateSize: classOf } = state.current;
      const held = anchorOf(h, shownRef.current.contentOffset);
      const target = anchorRef.current?.target === true;
      const anchor = held?.row ?? -1;
      let changed = false;
      // Only a row that was already on screen is an anchor: when the top row
      // is new too (a jump: scrollbar drag, deep link), nothing on screen
      // was where it is, and keeping it in place would only chase the rows
      // the adjustment brings in. (A target is kept still even when new: it
      // was navigated to.)
      let anchorIsNew = false;
      for (const el of els) {
        if (!(el instanceof HTMLElement) || !el.isConnected) continue;
        const r = Number(el.dataset['index']);
        if (!(r >= 0 && r < h.count)) continue;
        if (r === anchor && fresh && !target) anchorIsNew = true;
        // No layout (jsdom, display: none): keep the estimate.
        const size = el.offsetHeight;
        if (size === 0) continue;
        if (store.get(r) === 0) {
          const e = classOf(r);
          const l = learned.current.get(e);
          if (l === undefined) learned.current.set(e, { sum: size, count: 1 });
          else if (l.count < 1000) {
            l.sum += size;
            l.count++;
          }
        }
        store.set(r, size);
        if (h.set(r, size) !== 0) changed = true;
      }
      if (!changed) return false;
      anchoredNow.current = false;
      const el = scrollRef.current;
      // Pinned: the end is the anchor (the pin effect keeps it).
      if (el !== null && held !== null && !anchorIsNew && !pinnedRef.current) {
        const wanted = h.start(anchor) + held.delta;
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

  /** Sets the spacer's height (the scroll range) in the DOM. */
  const sizeSpacer = useCallback(
    (scrollSize: number) => {
      const spacer = scrollRef.current?.firstElementChild;
      if (spacer instanceof HTMLElement) spacer.style.height = `${scrollSize}px`;
    },
    [scrollRef],
  );

  /**
   * Puts the measured rows where `h` says and sizes the spacer. Their
   * positions are only ever set here, never by React, so moving rows after
   * a measurement needs no render and nothing can undo it.
   */
  const place = useCallback(
    (h: RowHeights, sp: ScrollSpace, top: number, offset: number) => {
      sizeSpacer(sp.scrollSize);
      for (const row of mounted.current) {
        const r = Number(row.dataset['index']);
        if (!(r >= 0 && r < h.count)) continue;
        row.style.transform = `translateY(${rowScrollTop(h.start(r), offset, top, sp)}px)`;
      }
    },
    [sizeSpacer],
  );

  /**
   * Pinned: puts the scroller at the bottom of a list `scrollSize` tall seen
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
        // way rows brought in by a scroll are.
        onUserScrollRef.current?.();
      }
    },
    [scrollRef],
  );

  /**
   * After heights changed: when the rows drawn still cover the view, moves
   * them (and sizes the spacer) in the DOM without a render — React's next
   * render computes the same values; otherwise asks for a render. Returns
   * the scroll size now, or `null` when a render was asked for (it places
   * the rows and pins; pinning to the old size here would move the view off
   * the end, and its scroll event would end following).
   */
  const relayout = useCallback(
    (outsideCommit: boolean): number | null => {
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
      const [first, last] = visibleRange(h, offset, d.viewport, 0);
      const spacer = el?.firstElementChild;
      if (!d.ready || first < d.first || last > d.last || !(spacer instanceof HTMLElement)) {
        // Pinned: to the new end at once. Left where it was until the render,
        // the browser would clamp the position as the spacer changes size,
        // and that scroll would read as the user leaving the end.
        if (d.ready && d.pinned) {
          sizeSpacer(nextSpace.scrollSize);
          pin(nextSpace.scrollSize, d.viewport);
        }
        bump();
        return null;
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
    [scrollRef, bump, place, pin, sizeSpacer],
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
  const measureRow = useCallback(
    (el: HTMLElement | null) => {
      if (el === null || !measuring) return;
      if (!mounted.current.has(el)) {
        mounted.current.add(el);
        fresh.current.push(el);
        getObserver()?.observe(el);
      }
    },
    // getObserver only reads refs.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [measuring],
  );

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
  /** Outside a target, the row at the top of the view after a commit is the anchor. */
  const recordTop = () => {
    if (anchorRef.current?.target === true) return;
    const { heights: h, getKey: keyOf } = state.current;
    const offset = shownRef.current.contentOffset;
    const r = h.rowAt(offset);
    anchorRef.current = r < 0 ? null : { key: keyOf(r), row: r, delta: offset - h.start(r) };
  };
  // Every commit on purpose (rows mount in any of them); the scroller is
  // measured once here, guarded by `viewportKnown`, then by a ResizeObserver.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useLayoutEffect(() => {
    const el = scrollRef.current;
    const set = mounted.current;
    for (const node of set) {
      if (!node.isConnected) {
        set.delete(node);
        observerRef.current?.unobserve(node);
      }
    }
    if (el === null) return;
    if (!viewportKnown.current) {
      viewportKnown.current = true;
      // The first layout (after mount or hydration): the rows for the real
      // viewport are drawn at once, synchronously, before the first paint.
      // The rows drawn so far stay in `fresh`, measured in that commit.
      setViewport(el);
      return;
    }
    if (pinned && anchorRef.current?.target === true) anchorRef.current = null;
    const rebuilt = seenHeights.current !== heights;
    if (rebuilt) {
      seenHeights.current = heights;
      staleRows.current = true;
    }
    // Keep the anchor still: after a rebuild (rows added, a section
    // toggled, a filter: its index may have changed, and in a scaled space so
    // may the scroll position's meaning), and for a target after every
    // commit (it was placed with estimated heights).
    const a = anchorRef.current;
    const target = a?.target === true;
    if (a !== null && !pinned && (rebuilt || target)) {
      const r = indexOfKey(a.key, a.row);
      if (r >= 0 && r < heights.count) {
        anchorRef.current = { ...a, row: r };
        // Compared in scroll pixels (clamped to the scrollable range, or
        // this would never settle): in a scaled space one scroll pixel is
        // `scale` content pixels, and the browser keeps whole pixels, so the
        // exact content offset may be out of reach.
        const wanted = scrollTopOf(space, heights.start(r) + a.delta);
        if (Math.abs(wanted - el.scrollTop) >= (target ? 1 : 0.5)) {
          // The spacer first, or the browser clamps the position to its old size.
          sizeSpacer(space.scrollSize);
          el.scrollTop = wanted;
          anchoredRef.current = el.scrollTop;
          lastTopRef.current = el.scrollTop;
          // Re-render there (synchronously, before paint); it measures. When
          // the browser left the position where this render drew it, no
          // render comes: go on and place the rows.
          // (Clamped as a render clamps it: a fractional viewport leaves the
          // browser's end a pixel past ours.)
          if (Math.abs(Math.min(el.scrollTop, maxScroll) - scrollTop) >= 0.5) {
            setScrollTop(el.scrollTop);
            return;
          }
        }
      }
    }
    let placed = false;
    // Rows still drawn after a rebuild keep their elements (keyed) but maybe
    // not their measured heights (moved items): measure them all.
    const wasStale = staleRows.current;
    const toMeasure = wasStale ? [...set] : fresh.current;
    staleRows.current = false;
    fresh.current = [];
    let scrollSize: number | null = renderedScrollSize;
    if (toMeasure.length > 0 && measure(toMeasure, !wasStale)) {
      scrollSize = relayout(false);
      placed = true;
    }
    // (When relayout asked for a render, that render places them again.)
    if (!placed) place(heights, space, scrollTop, contentOffset);
    if (pinned && scrollSize !== null) pin(scrollSize, viewport);
    recordTop();
  });

  const scrollToIndex = useCallback(
    (index: number, align: ListAlign = 'auto') => {
      const el = scrollRef.current;
      const { heights: h, getKey: keyOf } = state.current;
      if (!(index >= 0 && index < h.count)) return false;
      if (el === null) return true;
      const view = drawn.current.viewport;
      const sp = scrollSpace(h.total, view);
      const start = h.start(index);
      const offset = alignOffset(
        start,
        h.size(index),
        contentOffsetOf(sp, el.scrollTop),
        view,
        align,
      );
      // Held there while rows are measured; a list of fixed heights has
      // nothing to hold it against (the row at the top is its anchor).
      anchorRef.current = measuring
        ? { key: keyOf(index), row: index, delta: -offset, target: true }
        : null;
      const top = scrollTopOf(sp, start - offset);
      if (Math.abs(top - el.scrollTop) >= 0.5) {
        sizeSpacer(sp.scrollSize);
        el.scrollTop = top;
        anchoredRef.current = el.scrollTop;
        lastTopRef.current = el.scrollTop;
      }
      // Draw the rows there in this render (from a layout effect: before
      // paint; and in jsdom at all, where no scroll event comes).
      setScrollTop(el.scrollTop);
      bump();
      return true;
    },
    [scrollRef, bump, sizeSpacer, measuring],
  );
  const pageFrom = useCallback(
    (index: number, direction: 1 | -1) =>
      pageTarget(state.current.heights, index, direction, drawn.current.viewport),
    [],
  );

  return {
    items,
    heights,
    space,
    scrollSize: space.scrollSize,
    viewportSize: viewport,
    contentOffset,
    scrollTop,
    ready,
    problem,
    measureRow,
    onScroll,
    sync,
    scrollToIndex,
    pageFrom,
  };
}
