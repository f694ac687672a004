import {
  useCallback,
  useEffect,
  useRef,
  useState,
  type PointerEvent as ReactPointerEvent,
  type RefObject,
} from 'react';
import {
  hitTestSwimlane,
  panViewport,
  zoomViewport,
  type SelectionStore,
  type SwimlaneProjection,
  type SwimlaneRow,
  type SwimlaneViewport,
} from '../../index.js';
import type { SwimlaneIndex } from '../../core/swimlane/index.js';
import { capture, localX } from './geometry.js';
import { barTooltip } from './row.js';

export interface SwimlanePointerOptions {
  rootRef: RefObject<HTMLDivElement | null>;
  scrollRef: RefObject<HTMLDivElement | null>;
  /** The rows the list engine draws (index, top, size). */
  items: readonly { index: number; top: number; size: number }[];
  index: SwimlaneIndex;
  rows: readonly SwimlaneRow[];
  p: SwimlaneProjection;
  viewOptions: { width: number; idleWidth: number };
  compact: boolean;
  labelWidth: number;
  store: SelectionStore;
  onSelect: ((key: string | null) => void) | undefined;
  setViewport: (next: SwimlaneViewport | null) => void;
  drillable: (spanId: string | null) => string | null;
  drillTo: (spanId: string | null) => void;
}

/**
 * The swimlane under the mouse: the wheel zooms around the pointer (Shift
 * pans; a tile leaves it to the page until engaged), a drag pans the bars
 * and brushes the axis, a click selects what it hits, a double-click drills
 * or fits, and the hover tooltip. Also whether the widget is engaged
 * (`active`), which focus and the keyboard change too.
 */
export function useSwimlanePointer(o: SwimlanePointerOptions) {
  const { rootRef, scrollRef, items, index, rows, p, viewOptions, labelWidth, store } = o;
  const { setViewport, drillable, drillTo } = o;
  const axis = index.axis;
  const onSelect = o.onSelect;
  const select = useCallback(
    (key: string | null) => {
      store.select(key);
      onSelect?.(key);
    },
    [store, onSelect],
  );
  const [hover, setHover] = useState<{ x: number; y: number; text: string } | null>(null);
  const [active, setActive] = useState(false);
  const activeRef = useRef(active);
  activeRef.current = active;

  // Interactions read the latest projection without re-binding listeners.
  const live = useRef({ p, setViewport, compact: o.compact, labelWidth });
  live.current = { p, setViewport, compact: o.compact, labelWidth };

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
  }, [rootRef, axis, viewOptions]);

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
  /** A pointer cancelled on the axis: drops the drag and its brush. */
  const onAxisPointerCancel = () => {
    drag.current = null;
    setBrush(null);
  };
  /** A pointer cancelled on the bars: drops the drag. */
  const onBodyPointerCancel = () => {
    drag.current = null;
  };
  const onBodyPointerLeave = () => {
    if (hover !== null) setHover(null);
    store.hover(null);
  };

  /** The row and bar-area x under a pointer over the rows. */
  const rowAt = (e: { clientX: number; clientY: number }): { row: number; x: number } | null => {
    const body = scrollRef.current;
    if (body === null) return null;
    const rect = body.getBoundingClientRect();
    const y = e.clientY - rect.top;
    const item = items.find(
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
  /** The bar under the pointer (hit-tested: a label may cover it) is drilled into, else the view fits. */
  const onDoubleClick = (e: { clientX: number; clientY: number }) => {
    const at = rowAt(e);
    const hit = at === null || at.x < 0 ? null : hitTestSwimlane(index, p, at.row, at.x);
    const into = drillable(hit?.type === 'bar' ? hit.bar.spanId : null);
    if (into !== null) drillTo(into);
    else setViewport(null);
  };

  return {
    select,
    hover,
    active,
    setActive,
    brush,
    setBrush,
    onSelectBar,
    onFocusBar,
    onPointerDown,
    onPointerMove,
    onPointerUp,
    onAxisPointerCancel,
    onBodyPointerCancel,
    onBodyPointerLeave,
    onDoubleClick,
  };
}
