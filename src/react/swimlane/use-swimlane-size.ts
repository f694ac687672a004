import { useMemo, useRef, useState } from 'react';
import { useIsomorphicLayoutEffect } from '../list/use-isomorphic-layout-effect.js';
import { useHydrated } from '../use-hydrated.js';
import {
  AXIS_HEIGHT,
  COMPACT_AXIS,
  LEGEND_HEIGHT,
  MINIMAP_HEIGHT,
  TOOLBAR_HEIGHT,
  autoCompact,
} from './geometry.js';

export interface SwimlaneSizeOptions {
  compact: boolean | 'auto' | undefined;
  initialSize: { width: number; height: number } | undefined;
  /** Rows of the layout: a tile squeezes them to fit. */
  rowCount: number;
  rowHeight: number | undefined;
  idleWidth: number | undefined;
}

/**
 * The swimlane's box and what follows from it: the measured size (kept
 * current by a `ResizeObserver`), compact or not (with hysteresis in
 * `'auto'`), and the height of each band, the row height, the label column
 * and the bars' width.
 */
export function useSwimlaneSize(o: SwimlaneSizeOptions) {
  const rootRef = useRef<HTMLDivElement | null>(null);
  const initial = o.initialSize ?? { width: 800, height: 320 };
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
  const compact = o.compact === true || ((o.compact ?? 'auto') === 'auto' && autoCompactNow);

  const axisHeight = compact ? COMPACT_AXIS : AXIS_HEIGHT;
  const minimapHeight = compact ? 0 : MINIMAP_HEIGHT;
  const toolbarHeight = compact ? 0 : TOOLBAR_HEIGHT;
  // A tile's legend, where it leaves room for rows.
  const legendHeight = compact && size.height >= 64 ? LEGEND_HEIGHT : 0;
  const bodyHeight = Math.max(
    8,
    size.height - toolbarHeight - axisHeight - minimapHeight - legendHeight - 2,
  );
  const rowHeight = compact
    ? Math.max(4, Math.min(16, Math.floor(bodyHeight / Math.max(1, o.rowCount))))
    : (o.rowHeight ?? 24);
  // Lane labels: a column of a fifth of the width; a tile's is narrower,
  // and only where its rows are tall enough to read and it is wide enough.
  const labelWidth = !compact
    ? Math.round(Math.min(180, Math.max(72, size.width * 0.2)))
    : rowHeight >= 9 && size.width >= 200
      ? Math.round(Math.min(96, Math.max(48, size.width * 0.2)))
      : 0;
  const barWidth = Math.max(40, size.width - labelWidth - 2);
  const viewOptions = useMemo(
    () => ({ width: barWidth, idleWidth: o.idleWidth ?? 10 }),
    [barWidth, o.idleWidth],
  );
  return {
    rootRef,
    initial,
    size,
    hydrated,
    drawRows,
    compact,
    axisHeight,
    minimapHeight,
    toolbarHeight,
    legendHeight,
    bodyHeight,
    rowHeight,
    labelWidth,
    barWidth,
    viewOptions,
  };
}
