import { useCallback, useMemo, useReducer, useState, type RefObject } from 'react';
import { flushSync } from 'react-dom';
import {
  ListEngine,
  type ListAlign,
  type ListDom,
  type ListView,
  type MeasuredSizes,
} from '../../index.js';
import { useIsomorphicLayoutEffect as useLayoutEffect } from './use-isomorphic-layout-effect.js';
import { readViewport } from './viewport.js';

export type { ListItem, MeasuredSizes } from '../../index.js';

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
  /** A row drawn even when scrolled away (the focused row, keyboard first); -1 for none. */
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
export interface ListVirtualizer extends ListView {
  /**
   * `false` until the scroller has been measured (on the server, at
   * hydration, in the first client render).
   */
  readonly ready: boolean;
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
   * or added, until the user scrolls. Returns whether the row exists.
   */
  scrollToIndex(index: number, align?: ListAlign): boolean;
  /** The row a PageUp/PageDown moves to from `index`. */
  pageFrom(index: number, direction: 1 | -1): number;
}

/** The page as the list engine reaches it: the scroller, its spacer (first child), the rows. */
function domOf(scrollRef: RefObject<HTMLElement | null>): ListDom<HTMLElement, HTMLElement> {
  return {
    getScroller: () => scrollRef.current,
    readViewport,
    sizeSpacer(el, size) {
      const spacer = el.firstElementChild;
      if (!(spacer instanceof HTMLElement)) return false;
      spacer.style.height = `${size}px`;
      return true;
    },
    rowIndex: (row) => Number(row.dataset['index']),
    placeRow(row, top) {
      row.style.transform = `translateY(${top}px)`;
    },
    observeViewport(el, onResize) {
      if (typeof ResizeObserver === 'undefined') return () => {};
      const observer = new ResizeObserver(onResize);
      observer.observe(el);
      return () => observer.disconnect();
    },
    observeRows(onResize) {
      if (typeof ResizeObserver === 'undefined') return null;
      const observer = new ResizeObserver((entries) => {
        const rows: HTMLElement[] = [];
        for (const e of entries) if (e.target instanceof HTMLElement) rows.push(e.target);
        onResize(rows);
      });
      return {
        observe: (row) => observer.observe(row),
        unobserve: (row) => observer.unobserve(row),
        disconnect: () => observer.disconnect(),
      };
    },
  };
}

/**
 * The list engine's React adapter: which rows of a list of any length to
 * draw and where, for `<Transcript>`, `<SpanTree>`, `<Swimlane>` and every
 * other list. The engine (core `ListEngine`) owns the heights (a Fenwick
 * tree), the scroll space scaled past the browser's element-height limit,
 * anchoring, a row navigated to, following the end and measurement; this
 * hook gives it the DOM, passes the options on every render, lets it work
 * after every commit and renders again when it asks. See docs/list-engine.md
 * for why this is not `@tanstack/react-virtual`.
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
  const { scrollRef } = options;
  const measuring = options.measure !== false;
  const dom = useMemo(() => domOf(scrollRef), [scrollRef]);
  const engineOptions = { ...options, dom };
  const [engine] = useState(() => new ListEngine<HTMLElement, HTMLElement>(engineOptions));
  engine.setOptions(engineOptions);
  const view = engine.getView();

  // The engine asks for a render (a scroll, a measurement, a jump). Subscribed
  // in the first layout effect, before the engine's own work in `commit`, so
  // a render it asks for there comes before the browser paints.
  const [, render] = useReducer((n: number) => n + 1, 0);
  useLayoutEffect(() => engine.subscribe(render), [engine]);
  useLayoutEffect(() => engine.attach(), [engine]);
  // Every commit on purpose: rows mount in any of them.
  useLayoutEffect(() => engine.commit());

  const measureRow = useCallback(
    (el: HTMLElement | null) => engine.measureRow(el),
    // A list that starts or stops measuring gives its rows a new ref.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [engine, measuring],
  );
  const sync = useCallback(
    (alongside?: (movedUp: boolean, byUser: boolean) => void, flush = true) => {
      // Draw the rows for this position before the browser paints it.
      if (flush) flushSync(() => engine.sync(alongside));
      else engine.sync(alongside);
    },
    [engine],
  );
  const onScroll = useCallback(() => sync(), [sync]);
  const scrollToIndex = useCallback(
    (index: number, align?: ListAlign) => engine.scrollToIndex(index, align),
    [engine],
  );
  const pageFrom = useCallback(
    (index: number, direction: 1 | -1) => engine.pageFrom(index, direction),
    [engine],
  );
  return { ...view, measureRow, onScroll, sync, scrollToIndex, pageFrom };
}
