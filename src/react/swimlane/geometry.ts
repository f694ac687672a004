import type { Timeline, TimelineItem } from '../../index.js';

// Sizes (px) and thresholds the swimlane's hooks and parts share.

export const AXIS_HEIGHT = 22;
export const TOOLBAR_HEIGHT = 26;
export const MINIMAP_HEIGHT = 22;
export const COMPACT_AXIS = 14;
export const LEGEND_HEIGHT = 16;
/** Tick labels: px per character of the axis font, to keep the last one inside. */
export const TICK_CHAR_WIDTH = 6.6;
/** `'auto'` turns compact below this size… */
const COMPACT_BELOW = { width: 420, height: 160 };
/** …and back to full from this size on (the gap keeps a jittering container stable). */
const FULL_FROM = { width: 460, height: 200 };

/**
 * Whether `'auto'` shows a compact tile at `size`, given what it showed
 * before: with hysteresis, so a container whose size wobbles around one
 * threshold does not flip the mode.
 */
export function autoCompact(size: { width: number; height: number }, wasCompact: boolean): boolean {
  if (size.width < COMPACT_BELOW.width || size.height < COMPACT_BELOW.height) return true;
  if (!wasCompact) return false;
  return size.width < FULL_FROM.width || size.height < FULL_FROM.height;
}
export const LABEL_FONT = 11;
export const ZOOM_STEP = 1.5;
export const MIN_BAR = 6;
/** Bars in the rows of a first paint above which their markers follow it. */
export const DEFER_MARKERS_AT = 5000;
/**
 * Timeline items (events and spans) from which a first paint leaves the
 * markers to the next task however few its bars: a run of 300k events has
 * 140 bars, but each row's markers scan every event of its spans.
 */
export const DEFER_MARKERS_ITEMS = 20_000;

/**
 * Whether `timeline` holds at least `cap` items, by a walk that stops there
 * (O(cap), not O(run)).
 */
export function holdsAtLeast(timeline: Timeline, cap: number): boolean {
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

/** Pointer capture, which throws for a pointer the browser does not know (synthetic events). */
export function capture(el: Element, pointerId: number): void {
  try {
    el.setPointerCapture(pointerId);
  } catch {
    // Not capturable: the drag still works while the pointer stays inside.
  }
}

/** px coordinates of a pointer event relative to an element. */
export function localX(e: { clientX: number }, el: Element): number {
  return e.clientX - el.getBoundingClientRect().left;
}
