import { useCallback, useMemo, useState } from 'react';
import {
  canDrillInto,
  findSpanPath,
  fitViewport,
  isFitted,
  projectViewport,
  type SwimlaneViewport,
} from '../../index.js';
import type { SwimlaneAxis, SwimlaneDrill } from '../../core/swimlane/index.js';
import type { SwimlaneRange } from './props.js';

interface ViewState {
  viewport: SwimlaneViewport | null;
  /** Pinned to the end of a live run: follows it as it grows. */
  pinned: boolean;
}

export interface SwimlaneViewportOptions {
  axis: SwimlaneAxis;
  viewOptions: { width: number; idleWidth: number };
  drill: SwimlaneDrill;
  setDrillId: (spanId: string | null) => void;
  range: SwimlaneRange | null | undefined;
  defaultRange: SwimlaneRange | null | undefined;
  onRangeChange: ((range: SwimlaneRange | null) => void) | undefined;
}

/**
 * The visible range, controlled or not (relative ms inside, epoch ms
 * outside), pinned to the end of a growing run, and its projection to px;
 * `setViewport` and `drillTo` change it and report it.
 */
export function useSwimlaneViewport(o: SwimlaneViewportOptions) {
  const { axis, viewOptions, drill, setDrillId, onRangeChange } = o;
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
  const [own, setOwn] = useState<ViewState>(() => toViewport(o.defaultRange));
  const controlled = o.range !== undefined;
  const state = controlled ? toViewport(o.range) : own;
  let viewport = state.viewport ?? fitViewport(axis);
  if (state.pinned && state.viewport !== null) {
    // Pinned to the end of a growing run: keep the width, follow the end.
    const width = state.viewport.end - state.viewport.start;
    viewport = { start: axis.duration - width, end: axis.duration };
  }
  // Memoized by value: a render that changes no view (a hover, a selection)
  // keeps the projection, so the windowed drawing is not redone.
  const { start: viewStart, end: viewEnd } = viewport;
  const p = useMemo(
    () => projectViewport(axis, { start: viewStart, end: viewEnd }, viewOptions),
    [axis, viewStart, viewEnd, viewOptions],
  );
  const fitted = state.viewport === null || isFitted(axis, p.viewport, viewOptions);

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
  return { p, fitted, setViewport, drillTo, drillable };
}
