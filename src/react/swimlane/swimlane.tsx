import {
  Fragment,
  memo,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type KeyboardEvent as ReactKeyboardEvent,
  type PointerEvent as ReactPointerEvent,
} from 'react';
import {
  buildTimeline,
  canDrillInto,
  createEventTreeFeed,
  drillTimeline,
  findSpanPath,
  createSelectionStore,
  createSwimlaneIndex,
  fitViewport,
  hitTestSwimlane,
  isFitted,
  layoutSwimlane,
  panViewport,
  projectViewport,
  swimlaneBarDetails,
  swimlaneDensity,
  swimlaneTicks,
  windowSwimlane,
  zoomViewport,
  type SelectionStore,
  type SwimlaneDrawBar,
  type SwimlaneDrawRow,
  type SwimlaneLayoutOptions,
  type SwimlaneProjection,
  type SwimlaneRow,
  type SwimlaneViewport,
  type SwimlaneCrumb,
  type Timeline,
  type TimelineItem,
} from '../../index.js';
import { useListVirtualizer } from '../list/use-list-virtualizer.js';
import { useIsomorphicLayoutEffect } from '../list/use-isomorphic-layout-effect.js';
import { useStoreSelector } from '../use-store-selector.js';
import { useControllable } from '../use-controllable.js';
import { useHydrated } from '../use-hydrated.js';
import { useRovingToolbar } from '../use-roving-toolbar.js';
import { formatDuration, formatTokens } from '../../core/format.js';
import { useViewFeed, type ViewSourceProps } from '../view-source.js';

/**
 * Where the swimlane's run comes from: the props every view takes
 * ({@link ViewSourceProps}), or a ready `timeline` (a `buildTimeline`
 * result, drawn as it is).
 *
 * @example
 * declare const run: Event[];
 * const source: SwimlaneSourceProps = { timeline: buildTimeline(run) };
 */
export type SwimlaneSourceProps =
  | (ViewSourceProps & { timeline?: never })
  | { timeline: Timeline; stream?: never; events?: never; iterable?: never; feed?: never };

/** A visible time range, epoch ms `[start, end]`. */
export type SwimlaneRange = readonly [number, number];

/** Props of {@link Swimlane}. */
export type SwimlaneProps = SwimlaneSourceProps & {
  /**
   * A selection store shared with `<Transcript>` and `<SpanTree>`: a click
   * selects the bar's span id, the selected span is highlighted, and the
   * store's `playhead` is drawn. Default: a store of its own.
   */
  selection?: SelectionStore;
  onSelect?: (key: string | null) => void;
  /** The visible range, controlled (epoch ms). `null` shows the whole run. */
  range?: SwimlaneRange | null;
  /** The initial visible range (default: the whole run). */
  defaultRange?: SwimlaneRange | null;
  /** Called with the new range after every zoom, pan, brush or fit (`null`: the whole run). */
  onRangeChange?: (range: SwimlaneRange | null) => void;
  /**
   * Compact tile mode (no toolbar, no minimap, rows squeezed to fit with
   * short lane labels, each agent's model and tool calls drawn in its bars,
   * a legend, the wheel left to the page until the tile is clicked or
   * focused). Default `'auto'`: compact below 420×160 px; once compact, it
   * stays so until 460×200 px, so a container that shrinks and grows by a
   * few pixels (a header that wraps) does not flip it back and forth.
   */
  compact?: boolean | 'auto';
  /** Layout options (`includeUtility`, `idleThresholdMs`, …; `showBranches` is the prop below). */
  layout?: SwimlaneLayoutOptions;
  /**
   * Show each branch as a row under the span it forked from, controlled.
   * Default (uncontrolled): `defaultShowBranches`, else `layout.showBranches`, else `false`;
   * the "Branches" button toggles it.
   */
  showBranches?: boolean;
  defaultShowBranches?: boolean;
  onShowBranchesChange?: (show: boolean) => void;
  /**
   * The span drilled into (its id), controlled: it becomes the view's root and
   * breadcrumbs lead back out. `null` shows the whole run. An id not in the
   * timeline shows the whole run too.
   */
  drill?: string | null;
  /** The initial drilled span (default `null`). */
  defaultDrill?: string | null;
  /** Called with the span drilled into (`null`: back to the whole run). */
  onDrillChange?: (spanId: string | null) => void;
  /** The replay time to draw (epoch ms); overrides the store's `playhead`. */
  playhead?: number | null;
  /** Row height, px (default 24; compact: what fits, 4–16). */
  rowHeight?: number;
  /** Width of each compressed idle gap, px (default 10). */
  idleWidth?: number;
  /** Size assumed before the element is measured (and on the server). Default 800×320. */
  initialSize?: { width: number; height: number };
  /** Accessible name (default `'Swimlane'`). */
  'aria-label'?: string;
  className?: string;
  style?: CSSProperties;
};

const AXIS_HEIGHT = 22;
const TOOLBAR_HEIGHT = 26;
const MINIMAP_HEIGHT = 22;
const COMPACT_AXIS = 14;
const LEGEND_HEIGHT = 16;
/** Tick labels: px per character of the axis font, to keep the last one inside. */
const TICK_CHAR_WIDTH = 6.6;
/** `'auto'` turns compact below this size… */
const COMPACT_BELOW = { width: 420, height: 160 };
/** …and back to full from this size on (the gap keeps a jittering container stable). */
const FULL_FROM = { width: 460, height: 200 };

/**
 * Whether `'auto'` shows a compact tile at `size`, given what it showed
 * before: with hysteresis, so a container whose size wobbles around one
 * threshold does not flip the mode.
 */
function autoCompact(size: { width: number; height: number }, wasCompact: boolean): boolean {
  if (size.width < COMPACT_BELOW.width || size.height < COMPACT_BELOW.height) return true;
  if (!wasCompact) return false;
  return size.width < FULL_FROM.width || size.height < FULL_FROM.height;
}
const LABEL_FONT = 11;
const ZOOM_STEP = 1.5;
const MIN_BAR = 6;
/** Bars in the rows of a first paint above which their markers follow it. */
const DEFER_MARKERS_AT = 5000;
/**
 * Timeline items (events and spans) from which a first paint leaves the
 * markers to the next task however few its bars: a run of 300k events has
 * 140 bars, but each row's markers scan every event of its spans.
 */
const DEFER_MARKERS_ITEMS = 20_000;

/**
 * Whether `timeline` holds at least `cap` items, by a walk that stops there
 * (O(cap), not O(run)).
 */
function holdsAtLeast(timeline: Timeline, cap: number): boolean {
  const stack: (readonly TimelineItem[])[] = [timeline.root.content];
  let count = 0;
  while (stack.length > 0) {
    const items = stack.pop()!;
    count += items.length;
    if (count >= cap) return true;
    for (const item of items) {
      if (item.type !== 'span') continue;
      stack.push(item.content);
      for (const branch of item.branches) stack.push(branch.content);
    }
  }
  return false;
}
/** Opacity of the three density levels of strips. */
const STRIP_OPACITY = [0.35, 0.6, 0.9];

/**
 * A row's density strips as one SVG path per density level (bars per px:
 * under 1, under 4, more), so a row of 100k sub-pixel bars is 3 elements.
 */
function stripPaths(row: SwimlaneDrawRow, y: number, h: number): string[] {
  const out = ['', '', ''];
  for (const s of row.strips) {
    const w = Math.max(1, s.x1 - s.x0);
    const perPx = s.count / w;
    const level = perPx < 1 ? 0 : perPx < 4 ? 1 : 2;
    out[level] += `M${s.x0.toFixed(1)} ${y}h${w.toFixed(1)}v${h}h${(-w).toFixed(1)}Z`;
  }
  return out;
}

interface ViewState {
  viewport: SwimlaneViewport | null;
  /** Pinned to the end of a live run: follows it as it grows. */
  pinned: boolean;
}

function useSourceTimeline(props: SwimlaneSourceProps): { timeline: Timeline; loading: boolean } {
  const feed = useViewFeed(props);
  const snapshot = useStoreSelector(feed ?? NO_FEED, (s) => s);
  const fromFeed = useMemo(
    () => (feed === null ? null : buildTimeline(snapshot.tree.events)),
    [feed, snapshot.tree],
  );
  return {
    timeline: props.timeline ?? fromFeed ?? EMPTY_TIMELINE,
    loading: feed !== null && snapshot.loading,
  };
}

const EMPTY_TIMELINE: Timeline = buildTimeline([]);
const EMPTY_SNAPSHOT = createEventTreeFeed([]).getSnapshot();
const NO_FEED = { getSnapshot: () => EMPTY_SNAPSHOT, subscribe: () => () => {} };

/** Pointer capture, which throws for a pointer the browser does not know (synthetic events). */
function capture(el: Element, pointerId: number): void {
  try {
    el.setPointerCapture(pointerId);
  } catch {
    // Not capturable: the drag still works while the pointer stays inside.
  }
}

/** px coordinates of a pointer event relative to an element. */
function localX(e: { clientX: number }, el: Element): number {
  return e.clientX - el.getBoundingClientRect().left;
}

/**
 * The swimlane: the run's timeline, one row per agent (parallel
 * same-name agents in numbered lanes), bars for agent runs, markers for
 * errors, compaction and branches, compressed idle gaps labelled with their
 * real duration, an axis whose ticks fit the zoom, and an overview strip.
 *
 * Only the visible window is drawn: rows virtualize through the list
 * engine, and core's `windowSwimlane` gives the bars of those rows inside
 * the visible time range, merging bars thinner than a pixel into density
 * strips — the DOM stays bounded at any zoom on any run size.
 *
 * Interaction: wheel (or pinch) zooms around the pointer, Shift+wheel and
 * drag pan, dragging on the axis brushes a range to zoom to, double-click
 * fits, the minimap moves the view; keyboard: ←/→ pan, `+`/`-` zoom, `0`
 * fits, Tab walks the bars, Enter selects. In compact mode the wheel stays
 * the page's until the tile is clicked or focused.
 *
 * Self-contained (only `skein/styles.css`), themable through
 * `--skein-swimlane-*` variables, renders on the server (the fitted view at
 * `initialSize`) and hydrates cleanly.
 *
 * @example
 * import 'skein/styles.css';
 * const selection = createSelectionStore();
 * declare function showRange(range: SwimlaneRange | null): void;
 * <Swimlane stream={stream} selection={selection} onRangeChange={showRange} />
 */
export function Swimlane(props: SwimlaneProps) {
  const { timeline: run, loading } = useSourceTimeline(props);
  const layoutOptions = props.layout;
  const [showBranches, setShowBranches] = useControllable(
    props.showBranches,
    props.defaultShowBranches ?? layoutOptions?.showBranches ?? false,
    props.onShowBranchesChange,
  );
  const [drillId, setDrillId] = useControllable(
    props.drill,
    props.defaultDrill ?? null,
    props.onDrillChange,
  );
  const drill = useMemo(() => drillTimeline(run, drillId), [run, drillId]);
  const timeline = drill.timeline;
  const layout = useMemo(
    () => layoutSwimlane(timeline, { ...layoutOptions, showBranches }),
    [timeline, layoutOptions, showBranches],
  );
  const big = useMemo(() => holdsAtLeast(timeline, DEFER_MARKERS_ITEMS), [timeline]);
  const index = useMemo(() => createSwimlaneIndex(layout), [layout]);
  const axis = index.axis;

  const [ownStore] = useState(() => createSelectionStore());
  const store = props.selection ?? ownStore;
  const sel = useStoreSelector(store, (s) => s);
  const playhead = props.playhead !== undefined ? props.playhead : sel.playhead;
  const selected = sel.selected;

  // --- size ------------------------------------------------------------------
  const rootRef = useRef<HTMLDivElement | null>(null);
  const initial = props.initialSize ?? { width: 800, height: 320 };
  const [size, setSize] = useState(initial);
  const [autoCompactNow, setAutoCompact] = useState(() => autoCompact(initial, false));
  // A tree mounted on the client (not hydrating) draws no rows until the
  // element is measured: the layout effect below measures before the first
  // paint, so drawing rows at `initialSize` first would only be thrown away
  // (it would only slow the mount). Server and hydrating renders draw at `initialSize`.
  const hydrated = useHydrated();
  const [measured, setMeasured] = useState(false);
  const drawRows = measured || !hydrated;
  useIsomorphicLayoutEffect(() => {
    const el = rootRef.current;
    if (el === null) return;
    setMeasured(true);
    const measure = () => {
      const rect = el.getBoundingClientRect();
      if (!(rect.width > 0)) return;
      setSize((s) =>
        s.width === rect.width && s.height === rect.height
          ? s
          : { width: rect.width, height: rect.height },
      );
      setAutoCompact((was) => autoCompact(rect, was));
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const compact =
    props.compact === true || ((props.compact ?? 'auto') === 'auto' && autoCompactNow);

  const axisHeight = compact ? COMPACT_AXIS : AXIS_HEIGHT;
  const minimapHeight = compact ? 0 : MINIMAP_HEIGHT;
  const toolbarHeight = compact ? 0 : TOOLBAR_HEIGHT;
  // A tile's legend, where it leaves room for rows.
  const legendHeight = compact && size.height >= 64 ? LEGEND_HEIGHT : 0;
  const bodyHeight = Math.max(
    8,
    size.height - toolbarHeight - axisHeight - minimapHeight - legendHeight - 2,
  );
  const rows = layout.rows;
  const rowHeight = compact
    ? Math.max(4, Math.min(16, Math.floor(bodyHeight / Math.max(1, rows.length))))
    : (props.rowHeight ?? 24);
  // Lane labels: a column of a fifth of the width; a tile's is narrower,
  // and only where its rows are tall enough to read and it is wide enough.
  const labelWidth = !compact
    ? Math.round(Math.min(180, Math.max(72, size.width * 0.2)))
    : rowHeight >= 9 && size.width >= 200
      ? Math.round(Math.min(96, Math.max(48, size.width * 0.2)))
      : 0;
  const barWidth = Math.max(40, size.width - labelWidth - 2);
  const viewOptions = useMemo(
    () => ({ width: barWidth, idleWidth: props.idleWidth ?? 10 }),
    [barWidth, props.idleWidth],
  );

  // --- the visible range (relative ms inside, epoch ms outside) ------------------
  const toViewport = useCallback(
    (range: SwimlaneRange | null | undefined): ViewState =>
      range == null
        ? { viewport: null, pinned: false }
        : {
            viewport: { start: range[0] - axis.origin, end: range[1] - axis.origin },
            pinned: false,
          },
    [axis.origin],
  );
  const [own, setOwn] = useState<ViewState>(() => toViewport(props.defaultRange));
  const controlled = props.range !== undefined;
  const state = controlled ? toViewport(props.range) : own;
  let viewport = state.viewport ?? fitViewport(axis);
  if (state.pinned && state.viewport !== null) {
    // Pinned to the end of a growing run: keep the width, follow the end.
    const width = state.viewport.end - state.viewport.start;
    viewport = { start: axis.duration - width, end: axis.duration };
  }
  // Memoized by value: a render that changes no view (a hover, a selection)
  // keeps the projection, so the windowed drawing below is not redone.
  const { start: viewStart, end: viewEnd } = viewport;
  const p = useMemo(
    () => projectViewport(axis, { start: viewStart, end: viewEnd }, viewOptions),
    [axis, viewStart, viewEnd, viewOptions],
  );
  const fitted = state.viewport === null || isFitted(axis, p.viewport, viewOptions);

  const onRangeChange = props.onRangeChange;
  const setViewport = useCallback(
    (next: SwimlaneViewport | null) => {
      const whole = next === null || isFitted(axis, next, viewOptions);
      const pinned = !whole && next.end >= axis.duration - 1e-6;
      const value: ViewState = whole
        ? { viewport: null, pinned: false }
        : { viewport: next, pinned };
      if (!controlled) setOwn(value);
      onRangeChange?.(
        value.viewport === null
          ? null
          : [axis.origin + value.viewport.start, axis.origin + value.viewport.end],
      );
    },
    [axis, viewOptions, controlled, onRangeChange],
  );
  /** Drills into a span (or back out with `null`), showing it whole. */
  const drillTo = useCallback(
    (spanId: string | null) => {
      setDrillId(spanId);
      if (!controlled) setOwn({ viewport: null, pinned: false });
      onRangeChange?.(null);
    },
    [setDrillId, controlled, onRangeChange],
  );
  /** The span of a bar if drilling into it shows more, else `null`. */
  const drillable = useCallback(
    (spanId: string | null): string | null => {
      if (spanId === null || spanId === drill.timeline.root.id) return null;
      const path = findSpanPath(drill.timeline.root, spanId);
      return path !== null && canDrillInto(path[path.length - 1]!) ? spanId : null;
    },
    [drill],
  );

  // Interactions read the latest projection without re-binding listeners.
  const live = useRef({ p, setViewport, compact, labelWidth });
  live.current = { p, setViewport, compact, labelWidth };

  // --- rows: the list engine ----------------------------------------------------
  const scrollRef = useRef<HTMLDivElement | null>(null);
  const estimateSize = useCallback(() => rowHeight, [rowHeight]);
  const getKey = useCallback((r: number) => rows[r]!.key, [rows]);
  const list = useListVirtualizer({
    count: rows.length,
    rows,
    estimateSize,
    getKey,
    scrollRef,
    overscan: 2,
    measure: false,
    initialViewportSize: Math.max(1, initial.height - toolbarHeight - axisHeight - minimapHeight),
  });
  const first = drawRows && list.items.length > 0 ? list.items[0]!.index : 0;
  const last = drawRows && list.items.length > 0 ? list.items[list.items.length - 1]!.index : -1;
  // Markers of big rows follow the first paint: a row's first marker read
  // scans every event of its spans (all 100k agents of a fan-out run at the
  // fitted zoom), and the first bars need none of it. Only at mount, and
  // only on the client: later views (zoom, drill, live updates) draw them
  // at once, and the server and hydrating renders agree.
  const [markersAfterMount, setMarkersAfterMount] = useState(false);
  // Decided at the first render: a hydrated tree has drawn its markers
  // already (as the server did), and must not drop them once hydrated.
  const [clientMount] = useState(hydrated);
  const deferMarkers = useMemo(() => {
    if (markersAfterMount || !clientMount) return false;
    // A big run with few bars too, also when it arrives in a view already
    // mounted (the viewer's timeline comes after its load).
    if (big) return true;
    let bars = 0;
    for (let r = first; r <= last; r++) bars += index.row(r).starts.length;
    return bars > DEFER_MARKERS_AT;
  }, [markersAfterMount, clientMount, index, first, last, big]);
  useEffect(() => {
    if (!deferMarkers) return;
    // After the next frame is painted: a frame callback, then a task.
    let task: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      task = setTimeout(() => setMarkersAfterMount(true), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(task);
    };
  }, [deferMarkers]);
  const drawn = useMemo(
    () =>
      windowSwimlane(index, p, {
        rowStart: first,
        rowEnd: last + 1,
        fontSize: LABEL_FONT,
        // Bars under this many px join density strips: the DOM stays bounded
        // (≤ one element per MIN_BAR px per row, strips one path per density).
        minBarWidth: compact ? 2 : MIN_BAR,
        markers: !deferMarkers,
        // A tile shows what each agent did inside its bars (after the first
        // paint of a big run, with the markers: it reads the rows' events too).
        activity: compact && !deferMarkers,
      }).rows,
    [index, p, first, last, compact, deferMarkers],
  );
  const ticks = useMemo(() => swimlaneTicks(axis, p), [axis, p]);

  // --- selection, focus, hover ----------------------------------------------------
  const select = useCallback(
    (key: string | null) => {
      store.select(key);
      props.onSelect?.(key);
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [store, props.onSelect],
  );
  const [hover, setHover] = useState<{ x: number; y: number; text: string } | null>(null);
  const [active, setActive] = useState(false);
  const activeRef = useRef(active);
  activeRef.current = active;

  // --- wheel: zoom around the pointer, Shift pans (non-passive listener) --------------
  useEffect(() => {
    const el = rootRef.current;
    if (el === null) return;
    const onWheel = (e: WheelEvent) => {
      const { p: proj, setViewport: set, compact: tile, labelWidth: lw } = live.current;
      // A dashboard tile leaves the wheel to the page until it is engaged.
      if (tile && !activeRef.current) return;
      const target = e.target instanceof Element ? e.target : null;
      if (target?.closest('.skein-swimlane__minimap') || target?.closest('.skein-swimlane__labels'))
        return;
      e.preventDefault();
      const unit = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? 400 : 1;
      const x = e.clientX - el.getBoundingClientRect().left - lw;
      if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) {
        const delta = (e.shiftKey ? e.deltaY || e.deltaX : e.deltaX) * unit;
        set(panViewport(axis, proj.viewport, delta, viewOptions));
        return;
      }
      const factor = Math.exp(-e.deltaY * unit * (e.ctrlKey ? 0.01 : 0.002));
      set(
        zoomViewport(
          axis,
          proj.viewport,
          factor,
          Math.max(0, Math.min(proj.width, x)),
          viewOptions,
        ),
      );
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, [axis, viewOptions]);

  // --- drag: pan on the bars, brush on the axis --------------------------------------
  const drag = useRef<{
    mode: 'pan' | 'brush';
    startX: number;
    lastX: number;
    moved: boolean;
    pointerId: number;
  } | null>(null);
  const [brush, setBrush] = useState<[number, number] | null>(null);
  const dragMoved = useRef(false);
  /** A click on a bar element (the pointer path above hit-tests the rest). */
  const onSelectBar = useCallback(
    (key: string) => {
      if (dragMoved.current) return;
      store.focus(key);
      select(key);
    },
    [store, select],
  );
  const onFocusBar = useCallback((key: string) => store.focus(key), [store]);

  const onPointerDown = (e: ReactPointerEvent<HTMLDivElement>, mode: 'pan' | 'brush') => {
    if (e.button !== 0) return;
    setActive(true);
    const x = localX(e, e.currentTarget) - labelWidth;
    drag.current = { mode, startX: x, lastX: x, moved: false, pointerId: e.pointerId };
    capture(e.currentTarget, e.pointerId);
    if (mode === 'brush') setBrush([x, x]);
  };
  const onPointerMove = (e: ReactPointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (d === null || d.pointerId !== e.pointerId) {
      updateHover(e);
      return;
    }
    const x = localX(e, e.currentTarget) - labelWidth;
    if (Math.abs(x - d.startX) > 3) d.moved = true;
    if (d.mode === 'pan' && d.moved) {
      setViewport(panViewport(axis, p.viewport, d.lastX - x, viewOptions));
      setHover(null);
    } else if (d.mode === 'brush') setBrush([d.startX, x]);
    d.lastX = x;
  };
  const onPointerUp = (e: ReactPointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    drag.current = null;
    if (d === null) return;
    dragMoved.current = d.moved;
    if (d.mode === 'brush') {
      setBrush(null);
      const x0 = Math.min(d.startX, d.lastX);
      const x1 = Math.max(d.startX, d.lastX);
      if (x1 - x0 > 3) setViewport({ start: p.invert(x0), end: p.invert(x1) });
      return;
    }
    if (!d.moved) clickAt(e);
  };

  /** The row and bar-area x under a pointer over the rows. */
  const rowAt = (e: { clientX: number; clientY: number }): { row: number; x: number } | null => {
    const body = scrollRef.current;
    if (body === null) return null;
    const rect = body.getBoundingClientRect();
    const y = e.clientY - rect.top;
    const item = list.items.find(
      (it) => y >= it.top - body.scrollTop && y < it.top - body.scrollTop + it.size,
    );
    if (item === undefined) return null;
    return { row: item.index, x: e.clientX - rect.left - labelWidth };
  };
  const clickAt = (e: { clientX: number; clientY: number }) => {
    const at = rowAt(e);
    if (at === null || at.x < 0) return;
    const hit = hitTestSwimlane(index, p, at.row, at.x);
    if (hit === null) return;
    const key = hit.type === 'bar' ? hit.bar.spanId : (hit.marker.eventUuid ?? hit.marker.spanId);
    store.focus(key);
    select(key);
  };
  const updateHover = (e: ReactPointerEvent<HTMLDivElement>) => {
    const at = rowAt(e);
    const rect = rootRef.current?.getBoundingClientRect();
    if (at === null || at.x < 0 || rect === undefined) {
      if (hover !== null) setHover(null);
      return;
    }
    const hit = hitTestSwimlane(index, p, at.row, at.x);
    if (hit === null) {
      if (hover !== null) setHover(null);
      return;
    }
    const text =
      hit.type === 'bar' ? barTooltip(hit.bar, rows[at.row]!, hit.index) : hit.marker.label;
    store.hover(hit.type === 'bar' ? hit.bar.spanId : (hit.marker.eventUuid ?? null));
    setHover({ x: e.clientX - rect.left, y: e.clientY - rect.top, text });
  };

  // --- keyboard ---------------------------------------------------------------------
  const onKeyDown = (e: ReactKeyboardEvent<HTMLDivElement>) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const step = p.width / 8;
    const center = p.width / 2;
    let next: SwimlaneViewport | null | undefined;
    if (e.key === 'ArrowLeft') next = panViewport(axis, p.viewport, -step, viewOptions);
    else if (e.key === 'ArrowRight') next = panViewport(axis, p.viewport, step, viewOptions);
    else if (e.key === '+' || e.key === '=')
      next = zoomViewport(axis, p.viewport, ZOOM_STEP, center, viewOptions);
    else if (e.key === '-' || e.key === '_')
      next = zoomViewport(axis, p.viewport, 1 / ZOOM_STEP, center, viewOptions);
    else if (e.key === '0') next = null;
    else if (e.key === 'Backspace' && drill.crumbs.length > 1) {
      e.preventDefault();
      // One level up; the first crumb is the whole run.
      const up = drill.crumbs.length - 2;
      drillTo(up === 0 ? null : drill.crumbs[up]!.spanId);
      return;
    } else if (e.key === 'Escape') {
      setBrush(null);
      setActive(false);
      return;
    } else if (e.key === 'Enter' || e.key === ' ') {
      const key = e.target instanceof Element ? e.target.getAttribute('data-span-id') : null;
      if (key !== null) {
        e.preventDefault();
        store.focus(key);
        select(key);
      }
      return;
    } else return;
    e.preventDefault();
    setViewport(next);
  };

  // --- minimap ---------------------------------------------------------------------
  const fittedProjection = useMemo(
    () => projectViewport(axis, fitViewport(axis), viewOptions),
    [axis, viewOptions],
  );
  // The overview reads every bar (O(bars)): it follows the first paint
  // (`null` on the server and the hydrating render alike) so a big run's
  // first bars never wait for it. Computed in a task after the commit, not
  // in a deferred render: a deferred render is restarted by every urgent
  // update (each zoom step), and its memo with it, so on a 100k-span run the
  // pass ran again and again while the user zoomed (zoom p95).
  const [densityOf, setDensityOf] = useState<{
    index: typeof index;
    viewOptions: typeof viewOptions;
    value: Uint32Array;
  } | null>(null);
  useEffect(() => {
    if (compact) return;
    // After the next frame is painted: a frame callback, then a task.
    let task: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      task = setTimeout(() => {
        const fitted = projectViewport(index.axis, fitViewport(index.axis), viewOptions);
        setDensityOf({ index, viewOptions, value: swimlaneDensity(index, fitted) });
      }, 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(task);
    };
  }, [index, viewOptions, compact]);
  const density =
    densityOf !== null && densityOf.index === index && densityOf.viewOptions === viewOptions
      ? densityOf.value
      : null;
  const onMinimap = (e: ReactPointerEvent<HTMLDivElement>) => {
    if (e.type === 'pointerdown') capture(e.currentTarget, e.pointerId);
    else if (e.buttons !== 1) return;
    setActive(true);
    const x = localX(e, e.currentTarget) - labelWidth;
    const t = fittedProjection.invert(Math.max(0, Math.min(fittedProjection.width, x)));
    // Centre the view on that time, keeping the zoom.
    setViewport(panViewport(axis, p.viewport, p.x(t) - p.width / 2, viewOptions));
  };

  const selectedKey = sel.selected;
  // The selected span, if it can be opened: one search per selection, not per frame.
  const openable = useMemo(() => {
    const id = drillable(selected);
    return id === null ? null : { spanId: id, name: findName(drill.timeline.root, id) ?? id };
  }, [drillable, selected, drill]);
  const playheadX = playhead == null ? null : p.x(playhead - axis.origin);
  const label = props['aria-label'] ?? 'Swimlane';
  const hiddenRows = compact ? Math.max(0, rows.length - Math.floor(bodyHeight / rowHeight)) : 0;

  return (
    // The swimlane is one composite widget that handles its own keys and
    // pointer (an `application`, which jsx-a11y does not count as interactive).
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions
    <div
      ref={rootRef}
      // Its own keys (arrows pan, +/- zoom): an application widget.
      role="application"
      aria-roledescription="swimlane"
      aria-label={label}
      aria-busy={loading}
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
      tabIndex={0}
      className={`skein-swimlane${props.className ? ` ${props.className}` : ''}`}
      data-compact={compact ? '' : undefined}
      data-active={active ? '' : undefined}
      data-fitted={fitted ? '' : undefined}
      style={props.style}
      onKeyDown={onKeyDown}
      onFocus={() => setActive(true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setActive(false);
      }}
      onDoubleClick={(e) => {
        // The bar under the pointer (hit-tested: a label may cover it).
        const at = rowAt(e);
        const hit = at === null || at.x < 0 ? null : hitTestSwimlane(index, p, at.row, at.x);
        const into = drillable(hit?.type === 'bar' ? hit.bar.spanId : null);
        if (into !== null) drillTo(into);
        else setViewport(null);
      }}
    >
      {!compact && (
        <Toolbar
          crumbs={drill.crumbs}
          open={openable}
          showBranches={showBranches}
          onDrill={drillTo}
          onShowBranches={setShowBranches}
        />
      )}
      <div
        className="skein-swimlane__axis"
        style={{ height: axisHeight, paddingLeft: labelWidth }}
        onPointerDown={(e) => onPointerDown(e, 'brush')}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={() => {
          drag.current = null;
          setBrush(null);
        }}
      >
        <Axis
          p={p}
          ticks={ticks}
          height={axisHeight}
          compact={compact}
          playheadX={playheadX}
          brush={brush}
        />
      </div>
      <div
        ref={scrollRef}
        className="skein-swimlane__body"
        onScroll={list.onScroll}
        style={{
          overflowY: compact ? 'hidden' : 'auto',
          overflowX: 'hidden',
          contain: 'size',
          // The rows fill what the swimlane's box leaves them; in a parent
          // with no height, the whole swimlane takes
          // --skein-swimlane-min-height (12rem): never more than its box.
          flex: `1 1 calc(var(--skein-swimlane-min-height, 12rem) - ${toolbarHeight + axisHeight + minimapHeight + legendHeight + 2}px)`,
          minHeight: 0,
          position: 'relative',
        }}
        onPointerDown={(e) => onPointerDown(e, 'pan')}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerLeave={() => {
          if (hover !== null) setHover(null);
          store.hover(null);
        }}
        onPointerCancel={() => {
          drag.current = null;
        }}
      >
        <div style={{ position: 'relative', height: list.scrollSize }}>
          {(drawRows ? list.items : []).map((item) => {
            const row = drawn[item.index - first];
            if (row === undefined) return null;
            return (
              <Row
                key={item.key}
                row={row}
                top={item.top}
                height={rowHeight}
                labelWidth={labelWidth}
                width={barWidth}
                compact={compact}
                labelled={labelWidth > 0}
                selected={selectedKey}
                focused={sel.focused}
                breaks={ticks.breaks}
                onFocusBar={onFocusBar}
                onSelectBar={onSelectBar}
              />
            );
          })}
        </div>
        {playheadX !== null && playheadX >= 0 && playheadX <= p.width && (
          <div
            className="skein-swimlane__playhead"
            aria-hidden="true"
            style={{
              position: 'absolute',
              top: 0,
              bottom: 0,
              left: labelWidth + playheadX,
              width: 0,
            }}
          />
        )}
      </div>
      {!compact && (
        <div
          className="skein-swimlane__minimap"
          style={{ height: minimapHeight, paddingLeft: labelWidth }}
          onPointerDown={onMinimap}
          onPointerMove={onMinimap}
        >
          <Minimap density={density} fitted={fittedProjection} p={p} height={minimapHeight} />
        </div>
      )}
      {legendHeight > 0 && (
        <Legend
          height={legendHeight}
          rows={drawn}
          duration={axis.duration}
          more={hiddenRows}
          labels={labelWidth > 0}
        />
      )}
      {hiddenRows > 0 && legendHeight === 0 && (
        <span className="skein-swimlane__more" aria-hidden="true">
          +{hiddenRows}
        </span>
      )}
      {hover !== null && (
        <div
          role="tooltip"
          className="skein-swimlane__tooltip"
          style={{
            position: 'absolute',
            left: Math.min(hover.x + 12, Math.max(0, size.width - 220)),
            top: hover.y + 14,
          }}
        >
          {hover.text}
        </div>
      )}
      <span className="skein-swimlane__visually-hidden" aria-live="polite">
        {fitted
          ? ''
          : `Showing ${formatDuration(p.viewport.end - p.viewport.start)} of ${formatDuration(axis.duration)}`}
      </span>
    </div>
  );
}

/** The name of the span with `spanId` under `root`, if any. */
function findName(root: Timeline['root'], spanId: string): string | null {
  const path = findSpanPath(root, spanId);
  return path === null ? null : path[path.length - 1]!.name;
}

interface ToolbarProps {
  crumbs: readonly SwimlaneCrumb[];
  /** The selected span when it can be drilled into. */
  open: { spanId: string; name: string } | null;
  showBranches: boolean;
  onDrill: (spanId: string | null) => void;
  onShowBranches: (show: boolean) => void;
}

/**
 * Breadcrumbs of the drill (the run's root first, the current view last,
 * `aria-current`), a button to open the selected span, and the branches
 * toggle: one Tab stop (APG toolbar: ← / → between the buttons), Enter
 * and Space press them.
 */
function Toolbar({ crumbs, open, showBranches, onDrill, onShowBranches }: ToolbarProps) {
  const ref = useRef<HTMLDivElement>(null);
  const roving = useRovingToolbar(ref);
  return (
    <div
      ref={ref}
      role="toolbar"
      aria-label="Swimlane controls"
      className="skein-swimlane__toolbar"
      style={{ height: TOOLBAR_HEIGHT }}
      {...roving}
    >
      <nav aria-label="Drill path" className="skein-swimlane__crumbs">
        <ol>
          {crumbs.map((crumb, i) => (
            <li key={crumb.spanId}>
              {i < crumbs.length - 1 ? (
                <button
                  type="button"
                  className="skein-swimlane__crumb"
                  onClick={() => onDrill(i === 0 ? null : crumb.spanId)}
                >
                  {crumb.label}
                </button>
              ) : (
                <span className="skein-swimlane__crumb" aria-current="location">
                  {crumb.label}
                </span>
              )}
            </li>
          ))}
        </ol>
      </nav>
      {open !== null && (
        <button
          type="button"
          className="skein-swimlane__open"
          aria-label={`Open ${open.name}`}
          onClick={() => onDrill(open.spanId)}
        >
          Open {open.name} ›
        </button>
      )}
      <button
        type="button"
        className="skein-swimlane__toggle"
        aria-pressed={showBranches}
        onClick={() => onShowBranches(!showBranches)}
      >
        Branches
      </button>
    </div>
  );
}

/** A bar's accessible name: name, duration, tokens. */
function barText(bar: SwimlaneDrawBar['bar'], rowLabel: string): string {
  const name = rowLabel === bar.name ? bar.name : `${bar.name} (${rowLabel})`;
  return `${name}: ${formatDuration(bar.timeEnd - bar.timeStart)}, ${formatTokens(bar.tokens)} tokens`;
}

/**
 * A bar's tooltip: its accessible name plus idle time and status.
 * Only on hover: the status walks the span's subtree (once, cached), which
 * for the root bar of a 100k-agent run is the whole run — never at mount.
 */
function barTooltip(bar: SwimlaneDrawBar['bar'], row: SwimlaneRow, index: number): string {
  const text = barText(bar, row.label);
  const details = swimlaneBarDetails(row, index);
  if (details === null) return text;
  const errors =
    details.errors > 0 ? ` (${details.errors} error${details.errors === 1 ? '' : 's'})` : '';
  return `${text}, ${formatDuration(details.idleMs)} idle, ${details.status}${errors}`;
}

interface AxisProps {
  p: SwimlaneProjection;
  ticks: ReturnType<typeof swimlaneTicks>;
  height: number;
  compact: boolean;
  playheadX: number | null;
  brush: [number, number] | null;
}

function Axis({ p, ticks, height, compact, playheadX, brush }: AxisProps) {
  return (
    <svg width={p.width} height={height} className="skein-swimlane__axis-svg" aria-hidden="true">
      {ticks.breaks.map((b) => (
        <g key={`b${b.timeStart}`} className="skein-swimlane__break">
          <rect x={b.x0} y={0} width={Math.max(1, b.x1 - b.x0)} height={height} />
          <title>{b.label}</title>
        </g>
      ))}
      {tickLabels(ticks.ticks, p.width, compact).map(({ tick: t, x, anchor }) => (
        <g key={t.time} className="skein-swimlane__tick">
          <line x1={t.viewX} x2={t.viewX} y1={height - 4} y2={height} />
          {x !== null ? (
            <text x={x} y={height - 6} textAnchor={anchor}>
              {t.label}
            </text>
          ) : null}
        </g>
      ))}
      {playheadX !== null && (
        <line
          className="skein-swimlane__playhead-line"
          x1={playheadX}
          x2={playheadX}
          y1={0}
          y2={height}
        />
      )}
      {brush !== null && (
        <rect
          className="skein-swimlane__brush"
          x={Math.min(brush[0], brush[1])}
          y={0}
          width={Math.abs(brush[1] - brush[0])}
          height={height}
        />
      )}
    </svg>
  );
}

/**
 * Where each tick's label goes: after its tick, or before it where the
 * label would run past the axis's end (so the last one is never cut off),
 * or nowhere where it would run into the previous label.
 */
function tickLabels(
  ticks: ReturnType<typeof swimlaneTicks>['ticks'],
  width: number,
  compact: boolean,
): { tick: (typeof ticks)[number]; x: number | null; anchor: 'start' | 'end' }[] {
  const charWidth = compact ? (TICK_CHAR_WIDTH * 9) / 11 : TICK_CHAR_WIDTH;
  let previousEnd = -Infinity;
  return ticks.map((tick) => {
    const w = tick.label.length * charWidth;
    let x0 = tick.viewX + 3;
    let anchor: 'start' | 'end' = 'start';
    if (x0 + w > width - 1) {
      x0 = tick.viewX - 3 - w;
      anchor = 'end';
    }
    if (x0 < previousEnd + 6 || x0 < 0) return { tick, x: null, anchor };
    previousEnd = x0 + w;
    return { tick, x: anchor === 'start' ? x0 : tick.viewX - 3, anchor };
  });
}

/** Legend of a tile: what its colours mean, its length, the rows it has no room for. */
function Legend({
  height,
  rows,
  duration,
  more,
  labels,
}: {
  height: number;
  rows: readonly SwimlaneDrawRow[];
  duration: number;
  more: number;
  labels: boolean;
}) {
  let model = false;
  let tool = false;
  let error = false;
  for (const row of rows) {
    for (const a of row.activity) {
      if (a.kind === 'model') model = true;
      else tool = true;
    }
    if (!error) error = row.markers.some((m) => m.marker.kind === 'error');
  }
  const agents = rows.length + more;
  return (
    <div className="skein-swimlane__legend" style={{ height }}>
      {model && (
        <span className="skein-swimlane__key" data-kind="model">
          model
        </span>
      )}
      {tool && (
        <span className="skein-swimlane__key" data-kind="tool">
          tool
        </span>
      )}
      {error && (
        <span className="skein-swimlane__key" data-kind="error">
          error
        </span>
      )}
      <span className="skein-swimlane__legend-end">
        {labels && more === 0 ? '' : `${agents} ${agents === 1 ? 'lane' : 'lanes'} · `}
        {formatDuration(duration)}
      </span>
    </div>
  );
}

/** Rows drawn this tall and up keep a band above their bars for markers, so no marker covers a bar's label. */
const MARKER_BAND_FROM = 10;

interface RowProps {
  row: SwimlaneDrawRow;
  top: number;
  height: number;
  labelWidth: number;
  width: number;
  compact: boolean;
  /** Draw the lane's label at its start (`labelWidth` px). */
  labelled: boolean;
  selected: string | null;
  focused: string | null;
  breaks: ReturnType<typeof swimlaneTicks>['breaks'];
  onFocusBar: (key: string) => void;
  onSelectBar: (key: string) => void;
}

/**
 * One row's drawing. Memoized: a re-render that changes no row (a hover's
 * tooltip, the playhead) skips every row.
 */
const Row = memo(function Row({
  row,
  top,
  height,
  labelWidth,
  width,
  compact,
  labelled,
  selected,
  focused,
  breaks,
  onFocusBar,
  onSelectBar,
}: RowProps) {
  const data = row.data;
  // Markers sit in a band above the bar (never over its label or its
  // activity) in rows tall enough for one; in thinner tile rows, on the bar.
  const band = height >= MARKER_BAND_FROM ? (compact ? 4 : 7) : 0;
  const barHeight = Math.max(2, Math.min(height - band - (compact ? 1 : 3), 16));
  const y = band > 0 ? band : (height - barHeight) / 2;
  const markerY = band > 0 ? band / 2 : height / 2;
  const markerR = band > 0 ? band / 2 - 0.5 : Math.max(1.5, barHeight / 3);
  return (
    <div
      className="skein-swimlane__row"
      data-key={data.key}
      data-kind={data.kind}
      style={{
        position: 'absolute',
        top: 0,
        left: 0,
        right: 0,
        height,
        transform: `translateY(${top}px)`,
        display: 'flex',
      }}
    >
      {labelled && (
        <div
          className="skein-swimlane__label"
          style={{
            width: labelWidth,
            // Nesting shows in the indent, up to a third of the label column.
            paddingLeft: 4 + Math.min(data.depth * (compact ? 6 : 10), labelWidth / 3),
          }}
          title={data.label}
        >
          {data.kind === 'branch' ? `\u21b3 ${data.label}` : data.label}
        </div>
      )}
      <svg width={width} height={height} className="skein-swimlane__lane">
        {breaks.map((b) => (
          <rect
            key={b.timeStart}
            className="skein-swimlane__idle"
            x={b.x0}
            y={0}
            width={Math.max(1, b.x1 - b.x0)}
            height={height}
          />
        ))}
        {stripPaths(row, y, barHeight).map((d, level) =>
          d === '' ? null : (
            <path
              key={level}
              className="skein-swimlane__strip"
              data-density={level}
              d={d}
              style={{ opacity: STRIP_OPACITY[level] }}
            />
          ),
        )}
        {row.bars.map((b) => {
          const x0 = Math.max(-2, b.x0);
          const x1 = Math.min(width + 2, b.x1);
          const id = b.bar.spanId;
          return (
            <Fragment key={`${id}:${b.index}`}>
              <rect
                className="skein-swimlane__bar"
                data-span-id={id}
                data-kind={data.kind}
                data-utility={b.bar.utility ? '' : undefined}
                data-selected={selected === id ? '' : undefined}
                role="button"
                aria-label={barText(b.bar, data.label)}
                aria-pressed={selected === id}
                tabIndex={compact ? -1 : 0}
                x={x0}
                y={y}
                width={Math.max(1, x1 - x0)}
                height={barHeight}
                rx={2}
                onFocus={() => {
                  if (focused !== id) onFocusBar(id);
                }}
                onClick={() => onSelectBar(id)}
              />
              {b.label !== null && !compact && (
                <text
                  className="skein-swimlane__bar-label"
                  x={Math.max(x0, 0) + 4}
                  y={y + barHeight / 2}
                  dominantBaseline="central"
                  aria-hidden="true"
                >
                  {b.label}
                </text>
              )}
            </Fragment>
          );
        })}
        {row.activity.map((a, k) => (
          <rect
            key={`a${k}`}
            className="skein-swimlane__activity"
            data-kind={a.kind}
            x={Math.max(-2, a.x0)}
            y={y}
            width={Math.max(1, Math.min(width + 2, a.x1) - Math.max(-2, a.x0))}
            height={barHeight}
          />
        ))}
        {row.markers.map((m) => {
          // One element per marker (no wrapper, no <title>: the tooltip
          // comes from hit-testing), so a dense row stays cheap.
          const cx = m.x;
          const r = markerR;
          const cy = markerY;
          const kind = m.marker.kind;
          const key = `m${m.index}`;
          const common = {
            className: 'skein-swimlane__marker',
            'data-kind': kind,
            'data-count': m.count,
          };
          return kind === 'error' ? (
            <circle key={key} {...common} cx={cx} cy={cy} r={r} />
          ) : kind === 'compaction' ? (
            <line
              key={key}
              {...common}
              x1={cx}
              x2={cx}
              y1={band > 0 ? 0.5 : y - 1}
              y2={band > 0 ? band : y + barHeight + 1}
            />
          ) : (
            <path
              key={key}
              {...common}
              d={`M${cx} ${cy - r}L${cx + r} ${cy}L${cx} ${cy + r}L${cx - r} ${cy}Z`}
            />
          );
        })}
      </svg>
    </div>
  );
});

interface MinimapProps {
  /** Bars per px of the fitted view; `null` until computed. */
  density: Uint32Array | null;
  fitted: SwimlaneProjection;
  p: SwimlaneProjection;
  height: number;
}

function Minimap({ density, fitted, p, height }: MinimapProps) {
  const path = useMemo(() => {
    if (density === null) return null;
    let max = 1;
    for (const c of density) if (c > max) max = c;
    let d = `M0 ${height}`;
    density.forEach((c, i) => {
      d += `L${i} ${height - 2 - ((height - 4) * c) / max}`;
    });
    return `${d}L${density.length} ${height}Z`;
  }, [density, height]);
  const x0 = fitted.x(p.viewport.start);
  const x1 = fitted.x(p.viewport.end);
  return (
    <svg
      width={fitted.width}
      height={height}
      className="skein-swimlane__minimap-svg"
      aria-hidden="true"
    >
      {path !== null && <path className="skein-swimlane__density" d={path} />}
      <rect
        className="skein-swimlane__window"
        x={x0}
        y={0.5}
        width={Math.max(2, x1 - x0)}
        height={height - 1}
      />
    </svg>
  );
}
