import { useEffect, useMemo, useState, type PointerEvent as ReactPointerEvent } from 'react';
import {
  fitViewport,
  panViewport,
  projectViewport,
  swimlaneDensity,
  type SwimlaneProjection,
  type SwimlaneViewport,
} from '../../index.js';
import type { SwimlaneIndex } from '../../core/swimlane/index.js';
import { capture, localX } from './geometry.js';

export interface SwimlaneMinimapOptions {
  index: SwimlaneIndex;
  p: SwimlaneProjection;
  viewOptions: { width: number; idleWidth: number };
  compact: boolean;
  labelWidth: number;
  setViewport: (next: SwimlaneViewport | null) => void;
  setActive: (active: boolean) => void;
}

/**
 * The overview strip: the whole run's bar density (computed after the
 * first paint) and the pointer handler that centres the view on a time.
 */
export function useSwimlaneMinimap(o: SwimlaneMinimapOptions) {
  const { index, p, viewOptions, compact, labelWidth, setViewport, setActive } = o;
  const axis = index.axis;
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
    index: SwimlaneIndex;
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
  return { fittedProjection, density, onMinimap };
}
