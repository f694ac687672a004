import type { KeyboardEvent as ReactKeyboardEvent } from 'react';
import {
  panViewport,
  zoomViewport,
  type SelectionStore,
  type SwimlaneProjection,
  type SwimlaneViewport,
} from '../../index.js';
import type { SwimlaneAxis, SwimlaneDrill } from '../../core/swimlane/index.js';
import { ZOOM_STEP } from './geometry.js';

export interface SwimlaneKeysOptions {
  axis: SwimlaneAxis;
  p: SwimlaneProjection;
  viewOptions: { width: number; idleWidth: number };
  drill: SwimlaneDrill;
  store: SelectionStore;
  select: (key: string | null) => void;
  setViewport: (next: SwimlaneViewport | null) => void;
  drillTo: (spanId: string | null) => void;
  setBrush: (brush: [number, number] | null) => void;
  setActive: (active: boolean) => void;
}

/**
 * The swimlane's keys: ←/→ pan, `+`/`-` zoom, `0` fits, Backspace drills
 * one level out, Escape disengages, Enter and Space select the focused bar.
 * Returns the root's `onKeyDown`.
 */
export function useSwimlaneKeys(o: SwimlaneKeysOptions) {
  const { axis, p, viewOptions, drill, store, select, setViewport, drillTo } = o;
  return (e: ReactKeyboardEvent<HTMLDivElement>) => {
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
      o.setBrush(null);
      o.setActive(false);
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
}
