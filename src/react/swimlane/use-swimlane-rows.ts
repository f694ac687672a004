import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  swimlaneTicks,
  windowSwimlane,
  type SwimlaneProjection,
  type SwimlaneRow,
} from '../../index.js';
import type { SwimlaneIndex } from '../../core/swimlane/index.js';
import { useListVirtualizer } from '../list/use-list-virtualizer.js';
import { DEFER_MARKERS_AT, LABEL_FONT, MIN_BAR } from './geometry.js';

export interface SwimlaneRowsOptions {
  rows: readonly SwimlaneRow[];
  index: SwimlaneIndex;
  p: SwimlaneProjection;
  rowHeight: number;
  compact: boolean;
  /** Whether rows are drawn yet (the element is measured, or a server/hydrating render). */
  drawRows: boolean;
  hydrated: boolean;
  /** The run holds enough items that its markers follow the first paint. */
  big: boolean;
  /** The list's height before it is measured. */
  initialViewportSize: number;
}

/**
 * The swimlane's rows on the list engine (`useListVirtualizer`), and what
 * is drawn of them: core's `windowSwimlane` for the visible rows inside the
 * visible range, with the markers of a big first paint left to the next
 * task, and the axis ticks.
 */
export function useSwimlaneRows(o: SwimlaneRowsOptions) {
  const { rows, index, p, rowHeight, compact, drawRows, hydrated, big } = o;
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
    initialViewportSize: o.initialViewportSize,
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
  const ticks = useMemo(() => swimlaneTicks(index.axis, p), [index.axis, p]);
  return { scrollRef, list, first, drawn, ticks };
}
