// Longer than 600 lines: one class whose state (heights, anchor, measurement, following the end) is shared by every method, with its DOM seam and options types.
/**
 * The list engine: one stateful object per list that owns everything a
 * virtualized list of any length keeps between frames — row heights (a
 * Fenwick tree, `heights.ts`), the scroll space scaled past the browser's
 * element-height limit (`scroll-space.ts`), the anchor row kept still while
 * heights change, a row navigated to, following the end of a live list,
 * heights learned per estimate, and measurement of the drawn rows.
 *
 * It never touches a browser API: the page is reached through a small
 * {@link ListDom} given in the options (read the viewport and the scroll
 * offset, set `scrollTop`, size the spacer, place rows, observe sizes), so it
 * runs and is tested in Node with plain objects. A view layer (the React hook
 * `useListVirtualizer`) calls four things: {@link ListEngine.setOptions} and
 * {@link ListEngine.getView} while rendering, {@link ListEngine.commit} after
 * the rows it drew are in the page, and {@link ListEngine.sync} on a scroll
 * event; it re-renders when the engine's listeners are told (`subscribe`).
 *
 * The same split as TanStack Virtual's `Virtualizer` and its React adapter
 * (`setOptions` each render, `_willUpdate` after each commit); what differs
 * is the maths (docs/list-engine.md says why).
 */
import { Listeners } from '../stream/listeners.js';
import { rowsContinued } from './carry.js';
import { createRowHeights, type RowHeights } from './heights.js';
import {
  contentOffsetOf,
  rowScrollTop,
  scrollSpace,
  scrollTopOf,
  type ScrollSpace,
} from './scroll-space.js';
import {
  alignOffset,
  firstWindow,
  pageTarget,
  resolveAnchor,
  takeAnchor,
  visibleRange,
  type ListAlign,
  type ScrollAnchor,
} from './window.js';

/**
 * A layout a list cannot honour: its scroller is 0 px tall while shown
 * (`layout_no_height`), or grows with its rows instead of scrolling
 * (`layout_unbounded`: then only the rows of one window height are drawn).
 *
 * @example
 * declare const problem: LayoutProblem | null;
 * const hint =
 *   problem?.code === 'layout_unbounded'
 *     ? `The list grew to ${problem.height}px: give its box a height.`
 *     : null;
 */
export type LayoutProblem =
  | { readonly code: 'layout_no_height' }
  | { readonly code: 'layout_unbounded'; readonly height: number };

/**
 * What a {@link ListDom} reads of the viewport: the height rows are laid out
 * for, and what keeps the layout from being honoured (or `null`).
 *
 * @example
 * const viewport: ListViewport = { height: 600, problem: null };
 */
export interface ListViewport {
  readonly height: number;
  readonly problem: LayoutProblem | null;
}

/**
 * The scrolling element as the engine sees it (an `HTMLElement` is one).
 * Setting `scrollTop` may keep another value (the browser clamps it to the
 * scrollable range and rounds it); the engine reads it back.
 *
 * @example
 * const scroller: ListScroller = { scrollTop: 0, scrollHeight: 4000, clientHeight: 600 };
 */
export interface ListScroller {
  scrollTop: number;
  readonly scrollHeight: number;
  readonly clientHeight: number;
}

/**
 * A drawn row as the engine sees it (an `HTMLElement` is one):
 * `offsetHeight` is its height, `0` when it has no layout.
 *
 * @example
 * const row: ListRow = { isConnected: true, offsetHeight: 72 };
 */
export interface ListRow {
  readonly isConnected: boolean;
  readonly offsetHeight: number;
}

/**
 * Watches drawn rows for size changes (a `ResizeObserver`).
 *
 * @example
 * declare const observer: ListRowObserver<HTMLElement>;
 * declare const row: HTMLElement;
 * observer.observe(row);
 */
export interface ListRowObserver<R> {
  observe(row: R): void;
  unobserve(row: R): void;
  disconnect(): void;
}

/**
 * How the engine reaches the page. The React hook gives one over the DOM
 * (the scroller's first child is the spacer; a row's `data-index` names it;
 * `ResizeObserver`s observe); tests give one over plain objects.
 *
 * @example
 * declare const scroller: HTMLElement;
 * const dom: ListDom<HTMLElement, HTMLElement> = {
 *   getScroller: () => scroller,
 *   readViewport: (el) => ({ height: el.clientHeight, problem: null }),
 *   sizeSpacer(el, size) {
 *     const spacer = el.firstElementChild;
 *     if (!(spacer instanceof HTMLElement)) return false;
 *     spacer.style.height = `${size}px`;
 *     return true;
 *   },
 *   rowIndex: (row) => Number(row.dataset['index']),
 *   placeRow: (row, top) => void (row.style.transform = `translateY(${top}px)`),
 *   observeViewport: () => () => {},
 *   observeRows: () => null,
 * };
 */
export interface ListDom<S extends ListScroller, R extends ListRow> {
  /** The scroller, or `null` while none is in the page. */
  getScroller(): S | null;
  /** The viewport's height and what is wrong with the layout. */
  readViewport(scroller: S): ListViewport;
  /** Sets the scroll range (the spacer's height); `false` when there is no spacer. */
  sizeSpacer(scroller: S, size: number): boolean;
  /** The row a drawn element shows (`NaN` or out of range: none). */
  rowIndex(row: R): number;
  /** Puts a measured row `top` px down the scroller (scroll space). */
  placeRow(row: R, top: number): void;
  /** Calls `onResize` when the scroller's size changes; returns the function that stops. */
  observeViewport(scroller: S, onResize: () => void): () => void;
  /** An observer of drawn rows' sizes, or `null` where there is none. */
  observeRows(onResize: (rows: readonly R[]) => void): ListRowObserver<R> | null;
}

/**
 * Measured heights a list keeps itself (`sizes` of {@link ListEngineOptions}):
 * `get(row)` is `0` while row `row` is not measured. A list over a larger
 * sequence (the transcript's rows over its event tree) keeps them per item,
 * so collapsing and filtering keep them (see `carrySizes`).
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
 * What a list is: its rows, how tall they are, and how it behaves. Given
 * again on every render ({@link ListEngine.setOptions}).
 *
 * @example
 * declare const keys: readonly string[];
 * declare const dom: ListDom<HTMLElement, HTMLElement>;
 * const options: ListEngineOptions<HTMLElement, HTMLElement> = {
 *   count: keys.length,
 *   rows: keys,
 *   estimateSize: () => 28,
 *   getKey: (i) => keys[i]!,
 *   dom,
 * };
 */
export interface ListEngineOptions<S extends ListScroller, R extends ListRow> {
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
  indexOfKey?: ((key: string, hint: number) => number) | undefined;
  /** Rows drawn beyond each edge of the viewport (default 4). */
  overscan?: number | undefined;
  /** A row drawn even when scrolled away (the focused row); -1 for none. */
  keepIndex?: number | undefined;
  /**
   * Measure drawn rows and use what they measure (default `true`). Measured
   * rows are placed by the engine itself (`placeRow`), so a measurement
   * moves them without a render; rows of a list that does not measure are
   * drawn at `item.top`.
   */
  measure?: boolean | undefined;
  /** Where measured heights are kept (default: by key, inside the engine). */
  sizes?: MeasuredSizes | undefined;
  /**
   * Viewport height assumed before the scroller is measured. Without it the
   * first view draws `FIRST_WINDOW_ROWS` rows (the last ones when `pinned`),
   * so a server render and hydration match at any window size.
   */
  initialViewportSize?: number | undefined;
  /**
   * Follow the end: draw the last rows, and keep the scroller at its bottom
   * after every change (new rows, rows measured taller).
   */
  pinned?: boolean | undefined;
  /** Called when the user scrolls (not the engine's own adjustments), before the rows are drawn. */
  onUserScroll?: (() => void) | undefined;
  dom: ListDom<S, R>;
}

/**
 * What to draw now ({@link ListEngine.getView}).
 *
 * @example
 * declare const view: ListView;
 * const { items, scrollSize } = view;
 */
export interface ListView {
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
  /** `false` until the scroller has been measured. */
  readonly ready: boolean;
  /** What keeps the layout from being honoured, or `null`. */
  readonly problem: LayoutProblem | null;
}

/** What the last view drew, for the work done between renders. */
interface Drawn {
  first: number;
  last: number;
  scrollState: number;
  pinned: boolean;
  viewport: number;
  ready: boolean;
  heights: RowHeights;
  space: ScrollSpace;
  scrollTop: number;
  contentOffset: number;
  maxScroll: number;
}

/**
 * The list engine (see the file's head): which rows of a list of any length
 * to draw and where, kept right while rows are measured, inserted, navigated
 * to and appended. Its listeners are told (at once) when the view must be
 * drawn again.
 *
 * @example
 * declare const dom: ListDom<HTMLElement, HTMLElement>;
 * const keys = Array.from({ length: 1_000_000 }, (_, i) => `row-${i}`);
 * const engine = new ListEngine({ count: keys.length, rows: keys, estimateSize: () => 40, getKey: (i) => keys[i]!, dom });
 * const stop = engine.subscribe(() => draw(engine.getView()));
 * declare function draw(view: ListView): void;
 * draw(engine.getView());
 * engine.commit();
 */
export class ListEngine<S extends ListScroller = ListScroller, R extends ListRow = ListRow> {
  #o: ListEngineOptions<S, R>;
  readonly #listeners = new Listeners();

  // --- heights -------------------------------------------------------------------
  /** Measured heights by key, when the list keeps none itself (`null` until one is measured). */
  #byKey: Map<string, number> | null = null;
  readonly #ownSizes: MeasuredSizes = {
    get: (r) => (this.#byKey === null ? 0 : (this.#byKey.get(this.#o.getKey(r)) ?? 0)),
    set: (r, size) => void (this.#byKey ??= new Map()).set(this.#o.getKey(r), size),
  };
  /**
   * What rows of each estimate turned out to measure, on average: rows not
   * measured yet are given that (rows whose bodies wait while the view moves
   * are much shorter than the estimate, and a wrong guess for the rows about
   * to show costs a second render to draw the ones that then fit).
   */
  readonly #learned = new Map<number, { sum: number; count: number }>();
  /** What the heights were built from: rebuilt when any of it changes. */
  #built: {
    count: number;
    rows: unknown;
    sizes: MeasuredSizes | undefined;
    estimateSize: (index: number) => number;
    measuring: boolean;
  } | null = null;
  #heights: RowHeights;
  /** The heights of the last commit: rows that continue them keep theirs. */
  #committed: { rows: unknown; heights: RowHeights; measuring: boolean } | null = null;

  // --- the scroller --------------------------------------------------------------
  /** `null` until the scroller is measured: no view reads the window before. */
  #viewport: number | null = null;
  #problem: LayoutProblem | null = null;
  /** The scroll position the rows are drawn for (a user's scroll, an adjustment). */
  #scrollState = 0;
  #viewportKnown = false;
  /** The scrollTop the last adjustment of ours set, until its scroll event. */
  #ownTop: number | null = null;
  /** The scrollTop seen last (by `sync`, or set by the engine). */
  #lastTop = 0;

  // --- anchoring -----------------------------------------------------------------
  /** The row kept still while heights change (see `ScrollAnchor`). */
  #anchor: ScrollAnchor | null = null;
  /** What the scroller shows, for anchoring rows while heights change. */
  #shown = { contentOffset: 0, scrollTop: 0, scrollSize: 0 };
  /** Whether the last `#measure` moved the scroller (a render follows anyway). */
  #anchoredNow = false;
  #drawn: Drawn | null = null;

  // --- measuring -----------------------------------------------------------------
  readonly #mounted = new Set<R>();
  /** Rows drawn since the last commit: measured in it. */
  #fresh: R[] = [];
  #rowObserver: ListRowObserver<R> | null = null;
  #seenHeights: RowHeights | null = null;
  /** Set when the rows were rebuilt: every drawn row is measured again. */
  #staleRows = false;

  constructor(options: ListEngineOptions<S, R>) {
    this.#o = options;
    this.#heights = this.#build();
  }

  /** Registers a listener told (at once) whenever the view must be drawn again. */
  readonly subscribe = (listener: () => void): (() => void) => this.#listeners.subscribe(listener);

  /**
   * Takes the list's options as they are now (every render). The heights are
   * rebuilt when the rows, their count, the estimate, the sizes store or
   * `measure` changed — not for a new `getKey` function.
   */
  setOptions(options: ListEngineOptions<S, R>): void {
    this.#o = options;
    const b = this.#built;
    if (
      b === null ||
      b.count !== options.count ||
      b.rows !== options.rows ||
      b.sizes !== options.sizes ||
      b.estimateSize !== options.estimateSize ||
      b.measuring !== (options.measure !== false)
    )
      this.#heights = this.#build();
  }

  get #measuring(): boolean {
    return this.#o.measure !== false;
  }

  get #pinned(): boolean {
    return this.#o.pinned === true;
  }

  get #sizes(): MeasuredSizes {
    return this.#o.sizes ?? this.#ownSizes;
  }

  readonly #guess = (r: number): number => {
    const e = this.#o.estimateSize(r);
    const l = this.#learned.get(e);
    return l === undefined ? e : l.sum / l.count;
  };

  #indexOfKey(key: string, hint: number): number {
    const own = this.#o.indexOfKey;
    if (own !== undefined) return own(key, hint);
    const { count, getKey } = this.#o;
    if (hint >= 0 && hint < count && getKey(hint) === key) return hint;
    for (let i = 0; i < count; i++) if (getKey(i) === key) return i;
    return -1;
  }

  /**
   * Heights for the rows now: O(rows), typed arrays only. Rows that continue
   * the last committed ones (a live list grown at its end: `rowsContinued`)
   * keep the heights of the rows they share with them, measured or
   * estimated, so a batch asks only the new rows for theirs.
   */
  #build(): RowHeights {
    const { count, rows, estimateSize, sizes } = this.#o;
    const measuring = this.#measuring;
    this.#built = { count, rows, sizes, estimateSize, measuring };
    const last = this.#committed;
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
    if (sizes === undefined && this.#byKey === null)
      return createRowHeights(count, this.#guess, kept);
    const store = this.#sizes;
    return createRowHeights(count, (r) => store.get(r) || this.#guess(r), kept);
  }

  /**
   * The rows to draw and where, for the options and the scroll position now.
   * Records what it drew: the work between renders (measuring, anchoring,
   * following the end) compares against it.
   */
  getView(): ListView {
    const heights = this.#heights;
    const pinned = this.#pinned;
    const assumed = this.#viewport ?? this.#o.initialViewportSize ?? null;
    const viewport = assumed ?? 0;
    const ready = this.#viewport !== null;
    const space = scrollSpace(heights.total, viewport);
    const maxScroll = Math.max(0, space.scrollSize - space.viewportSize);
    const scrollTop = pinned ? maxScroll : Math.min(this.#scrollState, maxScroll);
    const contentOffset = contentOffsetOf(space, scrollTop);
    this.#shown = { contentOffset, scrollTop, scrollSize: space.scrollSize };
    const [first, last] =
      assumed === null
        ? firstWindow(heights.count, pinned)
        : visibleRange(heights, contentOffset, assumed, this.#o.overscan ?? 4);
    this.#drawn = {
      first,
      last,
      scrollState: this.#scrollState,
      pinned,
      viewport,
      ready,
      heights,
      space,
      scrollTop,
      contentOffset,
      maxScroll,
    };
    const getKey = this.#o.getKey;
    const items: ListItem[] = [];
    const item = (index: number): ListItem => {
      const start = heights.start(index);
      const top = rowScrollTop(start, contentOffset, scrollTop, space);
      return { index, key: getKey(index), start, size: heights.size(index), top };
    };
    if (heights.count > 0) {
      const keepIndex = this.#o.keepIndex ?? -1;
      const keep = keepIndex >= 0 && keepIndex < heights.count ? keepIndex : -1;
      if (keep >= 0 && keep < first) items.push(item(keep));
      for (let r = first; r <= last; r++) items.push(item(r));
      if (keep > last) items.push(item(keep));
    }
    return {
      items,
      heights,
      space,
      scrollSize: space.scrollSize,
      viewportSize: viewport,
      contentOffset,
      scrollTop,
      ready,
      problem: this.#problem,
    };
  }

  // --- telling the view ---------------------------------------------------------

  /** Asks for a new view. */
  #redraw(): void {
    this.#listeners.notify();
  }

  #setScrollState(top: number): void {
    if (this.#scrollState === top) return;
    this.#scrollState = top;
    this.#redraw();
  }

  /** Reads the viewport; asks for a new view when it changed. */
  #readViewport(el: S): number {
    const read = this.#o.dom.readViewport(el);
    let changed = false;
    if (this.#viewport !== read.height) {
      this.#viewport = read.height;
      changed = true;
    }
    if (this.#problem?.code !== read.problem?.code) {
      this.#problem = read.problem;
      changed = true;
    }
    if (changed) this.#redraw();
    return read.height;
  }

  /** Sets the scroller's position as an adjustment of ours (its scroll event is not the user's). */
  #scrollTo(el: S, top: number): void {
    el.scrollTop = top;
    this.#ownTop = el.scrollTop;
    this.#lastTop = el.scrollTop;
  }

  // --- events from the view ------------------------------------------------------

  /**
   * Attaches to the scroller (after the first commit): follows its size.
   * Returns the function that detaches and forgets every drawn row (a view
   * mounted again draws and measures them anew).
   *
   * @example
   * declare const engine: ListEngine;
   * const detach = engine.attach();
   * detach();
   */
  attach(): () => void {
    const el = this.#o.dom.getScroller();
    const stop = el === null ? null : this.#o.dom.observeViewport(el, () => this.#readViewport(el));
    return () => {
      stop?.();
      this.#rowObserver?.disconnect();
      this.#rowObserver = null;
      this.#mounted.clear();
      this.#fresh = [];
    };
  }

  /**
   * A drawn row's element (a ref callback: `null` is ignored). A measuring
   * list measures it in the next {@link commit} and observes it after.
   */
  measureRow(row: R | null): void {
    if (row === null || !this.#measuring) return;
    if (this.#mounted.has(row)) return;
    this.#mounted.add(row);
    this.#fresh.push(row);
    this.#observer()?.observe(row);
  }

  #observer(): ListRowObserver<R> | null {
    // Later changes inside a drawn row: images, resized frames, "show all".
    this.#rowObserver ??= this.#o.dom.observeRows((rows) => {
      if (this.#measure(rows, false)) this.#relayout(true);
    });
    return this.#rowObserver;
  }

  /**
   * Re-reads the scroll position (a scroll event) and asks for the rows for
   * it. `alongside` runs next, told whether the user moved the view up, and
   * whether the scroll was the user's at all (an adjustment of the engine's
   * own — following the end, anchoring — is not). A view that must draw
   * before the browser paints calls this inside its synchronous update.
   */
  sync(alongside?: (movedUp: boolean, byUser: boolean) => void): void {
    const el = this.#o.dom.getScroller();
    if (el === null) return;
    const top = el.scrollTop;
    // The scroll event of an adjustment of ours is not the user moving (it
    // would defer bodies again, and their heights would move it again).
    const own = this.#ownTop;
    this.#ownTop = null;
    const byUser = own === null || Math.abs(own - top) >= 1;
    if (byUser) this.#o.onUserScroll?.();
    const movedUp = byUser && top < this.#lastTop - 0.5;
    this.#lastTop = top;
    const height = this.#o.dom.readViewport(el).height;
    // Following the end and still there: the rows are already the last
    // ones, so a scroll event (ours, or the user's within the slack) needs
    // no new view. (A move up stops following, through `alongside`.)
    const stay = this.#pinned && el.scrollHeight - top - height <= 1;
    // The user moved the view: the row to keep still is the one at the top.
    if (byUser && this.#anchor?.target === true) this.#anchor = null;
    if (!stay || movedUp) this.#setScrollState(top);
    this.#readViewport(el);
    alongside?.(movedUp, byUser);
  }

  /**
   * After the view drawn from the last {@link getView} is in the page
   * (reading before writing, so the browser lays out at most once): forgets
   * rows that left; measures the scroller the first time; keeps the anchor
   * row still after a rebuild and a row navigated to where it landed;
   * measures the rows drawn since (a new view asked for here must be drawn
   * before the browser paints); places measured rows; follows the end.
   */
  commit(): void {
    const d = this.#drawn;
    if (d === null) return;
    const { heights, space, scrollTop, contentOffset, viewport, maxScroll } = d;
    const pinned = d.pinned;
    this.#committed = { rows: this.#built!.rows, heights, measuring: this.#measuring };
    const dom = this.#o.dom;
    const el = dom.getScroller();
    for (const row of this.#mounted) {
      if (!row.isConnected) {
        this.#mounted.delete(row);
        this.#rowObserver?.unobserve(row);
      }
    }
    if (el === null) return;
    if (!this.#viewportKnown) {
      this.#viewportKnown = true;
      // The first layout (after mount or hydration): the rows for the real
      // viewport are drawn next, before the first paint. The rows drawn so
      // far stay fresh, measured in that commit.
      this.#readViewport(el);
      return;
    }
    if (pinned && this.#anchor?.target === true) this.#anchor = null;
    const rebuilt = this.#seenHeights !== heights;
    if (rebuilt) {
      this.#seenHeights = heights;
      this.#staleRows = true;
    }
    // Keep the anchor still: after a rebuild (rows added, a section toggled,
    // a filter: its index may have changed, and in a scaled space so may the
    // scroll position's meaning), and for a target after every commit (it
    // was placed with estimated heights).
    const a = this.#anchor;
    const target = a?.target === true;
    if (a !== null && !pinned && (rebuilt || target)) {
      const r = this.#indexOfKey(a.key, a.row);
      if (r >= 0 && r < heights.count) {
        this.#anchor = { ...a, row: r };
        // Compared in scroll pixels (clamped to the scrollable range, or
        // this would never settle), unlike `resolveAnchor`: in a scaled
        // space one scroll pixel is `scale` content pixels, and the browser
        // keeps whole pixels, so the exact content offset may be out of reach.
        const wanted = scrollTopOf(space, heights.start(r) + a.delta);
        if (Math.abs(wanted - el.scrollTop) >= (target ? 1 : 0.5)) {
          // The spacer first, or the browser clamps the position to its old size.
          dom.sizeSpacer(el, space.scrollSize);
          this.#scrollTo(el, wanted);
          // Drawn there next (before paint); that commit measures. When the
          // browser left the position where this view drew it, no new view
          // comes: go on and place the rows. (Clamped as a view clamps it:
          // a fractional viewport leaves the browser's end a pixel past ours.)
          if (Math.abs(Math.min(el.scrollTop, maxScroll) - scrollTop) >= 0.5) {
            this.#setScrollState(el.scrollTop);
            return;
          }
        }
      }
    }
    let placed = false;
    // Rows still drawn after a rebuild keep their elements (keyed) but maybe
    // not their measured heights (moved items): measure them all.
    const wasStale = this.#staleRows;
    const toMeasure = wasStale ? [...this.#mounted] : this.#fresh;
    this.#staleRows = false;
    this.#fresh = [];
    let scrollSize: number | null = space.scrollSize;
    if (toMeasure.length > 0 && this.#measure(toMeasure, !wasStale)) {
      scrollSize = this.#relayout(false);
      placed = true;
    }
    // (When relayout asked for a new view, that view's commit places them.)
    if (!placed) this.#place(heights, space, scrollTop, contentOffset);
    if (pinned && scrollSize !== null) this.#pin(scrollSize, viewport);
    // Outside a target, the row at the top of the view after a commit is the anchor.
    if (this.#anchor?.target !== true) {
      const h = this.#heights;
      this.#anchor = takeAnchor(h, this.#shown.contentOffset, this.#o.getKey);
    }
  }

  /**
   * Scrolls row `index` into view (`align`, default `'auto'`) and, in a
   * measured list, keeps it exactly there while rows around it are measured
   * or added, until the user scrolls. Returns whether the row exists.
   */
  scrollToIndex(index: number, align: ListAlign = 'auto'): boolean {
    const h = this.#heights;
    if (!(index >= 0 && index < h.count)) return false;
    const el = this.#o.dom.getScroller();
    if (el === null) return true;
    const view = this.#drawn?.viewport ?? 0;
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
    this.#anchor = this.#measuring
      ? { key: this.#o.getKey(index), row: index, delta: -offset, target: true }
      : null;
    const top = scrollTopOf(sp, start - offset);
    if (Math.abs(top - el.scrollTop) >= 0.5) {
      this.#o.dom.sizeSpacer(el, sp.scrollSize);
      this.#scrollTo(el, top);
    }
    // Drawn there in the next view (asked for from a commit: before paint;
    // and where no scroll event comes at all).
    this.#scrollState = el.scrollTop;
    this.#redraw();
    return true;
  }

  /** The row a PageUp (`direction` -1) or PageDown (+1) moves to from `index`. */
  pageFrom(index: number, direction: 1 | -1): number {
    return pageTarget(this.#heights, index, direction, this.#drawn?.viewport ?? 0);
  }

  // --- measuring and placing ----------------------------------------------------

  /**
   * The anchor now, its row found again, or `null`. A target that is no
   * longer shown (collapsed, filtered) lets go: the row at the top is kept.
   */
  #anchorAt(h: RowHeights, offset: number): ScrollAnchor | null {
    const a = this.#anchor;
    if (a !== null && a.target === true) {
      const r = this.#indexOfKey(a.key, a.row);
      if (r >= 0 && r < h.count) return { ...a, row: r };
      this.#anchor = null;
    }
    return takeAnchor(h, offset, this.#o.getKey);
  }

  /**
   * Reads the rows' heights and applies the changes, keeping the anchor row
   * where it is (rows above it may grow or shrink). `fresh`: the rows were
   * just drawn. Returns whether anything changed.
   */
  #measure(rows: Iterable<R>, fresh: boolean): boolean {
    const h = this.#heights;
    const store = this.#sizes;
    const classOf = this.#o.estimateSize;
    const dom = this.#o.dom;
    const held = this.#anchorAt(h, this.#shown.contentOffset);
    const target = this.#anchor?.target === true;
    const anchor = held?.row ?? -1;
    let changed = false;
    // Only a row that was already on screen is an anchor: when the top row
    // is new too (a jump: scrollbar drag, deep link), nothing on screen was
    // where it is, and keeping it in place would only chase the rows the
    // adjustment brings in. (A target is kept still even when new: it was
    // navigated to.)
    let anchorIsNew = false;
    for (const row of rows) {
      if (!row.isConnected) continue;
      const r = dom.rowIndex(row);
      if (!(r >= 0 && r < h.count)) continue;
      if (r === anchor && fresh && !target) anchorIsNew = true;
      // No layout (jsdom, display: none): keep the estimate.
      const size = row.offsetHeight;
      if (size === 0) continue;
      if (store.get(r) === 0) {
        const e = classOf(r);
        const l = this.#learned.get(e);
        if (l === undefined) this.#learned.set(e, { sum: size, count: 1 });
        else if (l.count < 1000) {
          l.sum += size;
          l.count++;
        }
      }
      store.set(r, size);
      if (h.set(r, size) !== 0) changed = true;
    }
    if (!changed) return false;
    this.#anchoredNow = false;
    const el = dom.getScroller();
    // Following the end: the end is the anchor (`#pin` keeps it).
    if (el !== null && held !== null && !anchorIsNew && !this.#pinned) {
      // The rows did not change, only their heights: the anchor's row is
      // the one found above. In a scaled space the same scrollTop maps
      // elsewhere once the total changed; `resolveAnchor` maps it back.
      const top = resolveAnchor(held, h, el.clientHeight, el.scrollTop, () => held.row);
      if (top !== null) {
        // The spacer first, or the browser clamps the position to its old
        // size (rows measured taller near the end: the anchor fell short).
        dom.sizeSpacer(el, scrollSpace(h.total, el.clientHeight).scrollSize);
        this.#scrollTo(el, top);
        this.#anchoredNow = true;
        // Place the rows for where the scroller is now.
        this.#setScrollState(el.scrollTop);
      }
    }
    return true;
  }

  /**
   * Puts the measured rows where `h` says and sizes the spacer. Their
   * positions are only ever set here, never by the view, so moving rows
   * after a measurement needs no new view and nothing can undo it.
   */
  #place(h: RowHeights, sp: ScrollSpace, top: number, offset: number): boolean {
    const dom = this.#o.dom;
    const el = dom.getScroller();
    if (el === null || !dom.sizeSpacer(el, sp.scrollSize)) return false;
    for (const row of this.#mounted) {
      const r = dom.rowIndex(row);
      if (!(r >= 0 && r < h.count)) continue;
      dom.placeRow(row, rowScrollTop(h.start(r), offset, top, sp));
    }
    return true;
  }

  /**
   * Following the end: puts the scroller at the bottom of a list
   * `scrollSize` tall seen through `height` px. Only the page moves (the
   * rows drawn are the last ones), and the scroll event that follows asks
   * for no new view.
   */
  #pin(scrollSize: number, height: number): void {
    const el = this.#o.dom.getScroller();
    if (el === null) return;
    const max = scrollSize - height;
    if (max > 0 && el.scrollTop < max - 1) {
      this.#scrollTo(el, max);
      // The view moves as it follows: rows that come next are drawn the way
      // rows brought in by a scroll are.
      this.#o.onUserScroll?.();
    }
  }

  /**
   * After heights changed: when the rows drawn still cover the view, moves
   * them (and sizes the spacer) in the page without a new view — the next
   * view computes the same values; otherwise asks for a new view. Returns
   * the scroll size now, or `null` when a new view was asked for (its commit
   * places the rows and pins; pinning to the old size here would move the
   * view off the end, and its scroll event would end following).
   */
  #relayout(outsideCommit: boolean): number | null {
    const h = this.#heights;
    const d = this.#drawn;
    if (d === null) return null;
    const el = this.#o.dom.getScroller();
    const nextSpace = scrollSpace(h.total, d.viewport);
    const max = Math.max(0, nextSpace.scrollSize - nextSpace.viewportSize);
    // Anchored: the scroller moved (its view is on the way); place the rows
    // for where it is now, so no frame shows them out of place.
    const top =
      this.#anchoredNow && el !== null
        ? el.scrollTop
        : d.pinned
          ? max
          : Math.min(d.scrollState, max);
    const offset = contentOffsetOf(nextSpace, top);
    // The rows in view (not the overscan) must all be drawn already.
    const [first, last] = visibleRange(h, offset, d.viewport, 0);
    if (!d.ready || first < d.first || last > d.last || !this.#place(h, nextSpace, top, offset)) {
      // Following: to the new end at once. Left where it was until the next
      // view, the browser would clamp the position as the spacer changes
      // size, and that scroll would read as the user leaving the end.
      if (d.ready && d.pinned && el !== null) {
        this.#o.dom.sizeSpacer(el, nextSpace.scrollSize);
        this.#pin(nextSpace.scrollSize, d.viewport);
      }
      this.#redraw();
      return null;
    }
    this.#shown = { contentOffset: offset, scrollTop: top, scrollSize: nextSpace.scrollSize };
    // Rows measured taller outside a commit (the row observer): keep
    // following the end (in a commit, `commit` pins).
    if (d.pinned && outsideCommit) this.#pin(nextSpace.scrollSize, d.viewport);
    return nextSpace.scrollSize;
  }
}
