/**
 * What the interactive swimlane draws for one viewport: only the
 * bars and markers of the visible rows inside the visible time window, at a
 * level of detail the pixels can show.
 *
 * A per-row interval index (relative starts and ends in typed arrays, plus
 * a running maximum of the ends) finds a row's first visible bar by binary
 * search, so a zoomed window costs O(log n + visible), not O(n). When bars
 * get thinner than a pixel, a run of them becomes one density strip and the
 * walk jumps over the rest of the pixel by binary search too, so even the
 * fitted view of 100k bars costs O(pixels · log n) per row.
 */
import { ACTIVITY_KINDS, swimlaneRowActivity, type SwimlaneActivityKind } from './activity.js';
import type { SwimlaneBar, SwimlaneLayout, SwimlaneMarker, SwimlaneRow } from './layout.js';
import { rowBar, rowBarTimes } from './layout.js';
import type { SwimlaneAxis, SwimlaneProjection } from './viewport.js';
import { createSwimlaneAxis } from './viewport.js';

/** One row's interval index. */
interface RowIndex {
  readonly starts: Float64Array;
  readonly ends: Float64Array;
  /** `maxEnd[i]` = max of `ends[0..i]`: monotone, so binary-searchable. */
  readonly maxEnd: Float64Array;
}

/**
 * A layout prepared for windowed drawing: its axis and, per row, an
 * interval index built on first use (a row never scrolled to costs
 * nothing).
 *
 * @example
 * declare const timeline: Timeline;
 * const index = createSwimlaneIndex(layoutSwimlane(timeline));
 */
export interface SwimlaneIndex {
  readonly layout: SwimlaneLayout;
  readonly axis: SwimlaneAxis;
  /** Row `r`'s index (built once, then cached). @internal */
  readonly row: (r: number) => RowIndex;
  /**
   * Row `r`'s marker times, relative ms (built once, when the row is first
   * drawn: the layout collects a row's markers only then). @internal
   */
  readonly markerTimes: (r: number) => Float64Array;
  /** Row `r`'s activity (model and tool calls), relative ms, built on first use. @internal */
  readonly activity: (r: number) => RowActivity;
}

/** A row's activity in relative ms, with a running maximum of the ends. */
interface RowActivity {
  readonly kinds: Uint8Array;
  readonly starts: Float64Array;
  readonly ends: Float64Array;
  readonly maxEnd: Float64Array;
}

/**
 * Prepares a layout for {@link windowSwimlane} and {@link hitTestSwimlane}.
 * O(rows); each row's index is built when it is first drawn, and its
 * markers when they are first drawn or hit-tested.
 *
 * @example
 * declare const layout: SwimlaneLayout;
 * declare const viewport: SwimlaneViewport;
 * declare const width: number;
 * const index = createSwimlaneIndex(layout);
 * const view = windowSwimlane(index, projectViewport(index.axis, viewport, { width }), { rowStart: 0, rowEnd: 20 });
 */
export function createSwimlaneIndex(layout: SwimlaneLayout): SwimlaneIndex {
  const axis = createSwimlaneAxis(layout);
  const origin = axis.origin;
  const cache: (RowIndex | undefined)[] = new Array<RowIndex | undefined>(layout.rows.length);
  const row = (r: number): RowIndex => {
    let index = cache[r];
    if (index === undefined) {
      const data = layout.rows[r]!;
      // A lazy layout's rows carry their bar times: no bar objects needed.
      const times = rowBarTimes(data);
      const bars = times === null ? data.bars : null;
      const n = times !== null ? times.starts.length : bars!.length;
      const starts = new Float64Array(n);
      const ends = new Float64Array(n);
      const maxEnd = new Float64Array(n);
      let max = -Infinity;
      for (let i = 0; i < n; i++) {
        const timeStart = times !== null ? times.starts[i]! : bars![i]!.timeStart;
        const timeEnd = times !== null ? times.ends[i]! : bars![i]!.timeEnd;
        starts[i] = timeStart - origin;
        ends[i] = Math.max(timeEnd, timeStart) - origin;
        if (ends[i]! > max) max = ends[i]!;
        maxEnd[i] = max;
      }
      index = { starts, ends, maxEnd };
      cache[r] = index;
    }
    return index;
  };
  const markerCache: (Float64Array | undefined)[] = new Array<Float64Array | undefined>(
    layout.rows.length,
  );
  const markerTimes = (r: number): Float64Array => {
    let times = markerCache[r];
    if (times === undefined) {
      const markers = layout.rows[r]!.markers;
      times = new Float64Array(markers.length);
      for (let i = 0; i < markers.length; i++) times[i] = markers[i]!.time - origin;
      markerCache[r] = times;
    }
    return times;
  };
  const activityCache: (RowActivity | undefined)[] = new Array<RowActivity | undefined>(
    layout.rows.length,
  );
  const activity = (r: number): RowActivity => {
    let known = activityCache[r];
    if (known === undefined) {
      const a = swimlaneRowActivity(layout.rows[r]!);
      const n = a.kinds.length;
      const starts = new Float64Array(n);
      const ends = new Float64Array(n);
      const maxEnd = new Float64Array(n);
      let max = -Infinity;
      for (let i = 0; i < n; i++) {
        starts[i] = a.starts[i]! - origin;
        ends[i] = a.ends[i]! - origin;
        if (ends[i]! > max) max = ends[i]!;
        maxEnd[i] = max;
      }
      known = { kinds: a.kinds, starts, ends, maxEnd };
      activityCache[r] = known;
    }
    return known;
  };
  return { layout, axis, row, markerTimes, activity };
}

const NO_TIMES = new Float64Array(0);

/** First `i` with `array[i] >= value` (array ascending). */
function lowerBound(array: Float64Array, value: number, from = 0): number {
  let lo = from;
  let hi = array.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (array[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First `i` with `array[i] > value` (array ascending). */
function upperBound(array: Float64Array, value: number, from = 0): number {
  let lo = from;
  let hi = array.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (array[mid]! <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * A bar wide enough to draw on its own.
 *
 * @example
 * declare const bar: SwimlaneBar;
 * const d: SwimlaneDrawBar = { row: 2, index: 0, bar, x0: 10, x1: 80, label: 'explore' };
 */
export interface SwimlaneDrawBar {
  readonly row: number;
  /** Index in `layout.rows[row].bars`. */
  readonly index: number;
  readonly bar: SwimlaneBar;
  /** viewX of its start and end (not clipped to the window). */
  readonly x0: number;
  readonly x1: number;
  /** Its name when that fits inside it, else `null`. */
  readonly label: string | null;
}

/**
 * Bars thinner than a pixel, merged: `count` bars (indexes `first`…`last`
 * of the row) between `x0` and `x1`.
 *
 * @example
 * declare const strip: SwimlaneDrawStrip;
 * const opacity = Math.min(1, 0.25 + strip.count / (strip.x1 - strip.x0) / 4);
 */
export interface SwimlaneDrawStrip {
  readonly row: number;
  readonly first: number;
  readonly last: number;
  readonly count: number;
  readonly x0: number;
  readonly x1: number;
}

/**
 * A marker, or several closer together than `markerMergePx` (`count`).
 *
 * @example
 * declare const marker: SwimlaneMarker;
 * const d: SwimlaneDrawMarker = { row: 0, index: 3, marker, x: 120, count: 1 };
 */
export interface SwimlaneDrawMarker {
  readonly row: number;
  /** Index of the first merged marker in `layout.rows[row].markers`. */
  readonly index: number;
  /** The first marker, or the first error among the merged ones. */
  readonly marker: SwimlaneMarker;
  readonly x: number;
  readonly count: number;
}

/**
 * A stretch of a row where the agent was calling a model (or a tool):
 * `count` calls merged between `x0` and `x1` (px, at least 1 px wide).
 * Calls closer than a pixel merge; where calls of both kinds share a pixel,
 * the segment has the kind of the first.
 *
 * @example
 * const a: SwimlaneDrawActivity = { row: 0, kind: 'tool', x0: 40, x1: 52, count: 3 };
 */
export interface SwimlaneDrawActivity {
  readonly row: number;
  readonly kind: SwimlaneActivityKind;
  readonly x0: number;
  readonly x1: number;
  readonly count: number;
}

/**
 * The drawing of one row in a window.
 *
 * @example
 * declare const drawBar: (bar: SwimlaneDrawBar) => void;
 * declare const view: { rows: SwimlaneDrawRow[] };
 * for (const r of view.rows) r.bars.forEach(drawBar);
 */
export interface SwimlaneDrawRow {
  readonly row: number;
  readonly data: SwimlaneRow;
  readonly bars: readonly SwimlaneDrawBar[];
  readonly strips: readonly SwimlaneDrawStrip[];
  readonly markers: readonly SwimlaneDrawMarker[];
  /** Model and tool calls in the window (empty unless asked for with `activity`). */
  readonly activity: readonly SwimlaneDrawActivity[];
}

/**
 * Options of {@link windowSwimlane}.
 *
 * @example
 * declare const p: SwimlaneProjection;
 * declare const index: SwimlaneIndex;
 * windowSwimlane(index, p, { rowStart: 0, rowEnd: 12, minBarWidth: 1, fontSize: 11 });
 */
export interface SwimlaneWindowOptions {
  /** First row to draw (default 0). */
  readonly rowStart?: number;
  /** Row after the last to draw (default: all rows). */
  readonly rowEnd?: number;
  /** Bars narrower than this (px) merge into density strips (default 1; 0 draws every bar). */
  readonly minBarWidth?: number;
  /** Markers closer than this (px) merge (default 4; 0 keeps all). */
  readonly markerMergePx?: number;
  /** Label font size, px (default 11). */
  readonly fontSize?: number;
  /** Width of a label, px (default 0.6 em per character). */
  readonly measureText?: (text: string, fontSize: number) => number;
  /** Extra px a bar needs around its label (default 8). */
  readonly labelPadding?: number;
  /**
   * Draw markers (default `true`). `false` leaves every row's `markers`
   * empty without collecting them: a row's first marker read scans all of
   * its spans' events, which a first paint of a big run can leave for later.
   */
  readonly markers?: boolean;
  /**
   * Draw each row's model and tool calls (default `false`): at most about
   * two segments per pixel per row, whatever the number of calls.
   */
  readonly activity?: boolean;
}

/**
 * The drawing of a window: for each visible row, the bars, density strips
 * and markers that overlap the projection's viewport, in px.
 *
 * @example
 * declare const viewport: SwimlaneViewport;
 * declare const index: SwimlaneIndex;
 * declare const first: number;
 * declare const last: number;
 * const p = projectViewport(index.axis, viewport, { width: 640 });
 * const { rows } = windowSwimlane(index, p, { rowStart: first, rowEnd: last + 1 });
 */
export function windowSwimlane(
  index: SwimlaneIndex,
  p: SwimlaneProjection,
  options: SwimlaneWindowOptions = {},
): { rows: SwimlaneDrawRow[] } {
  const rows = index.layout.rows;
  const rowStart = Math.max(0, options.rowStart ?? 0);
  const rowEnd = Math.min(rows.length, options.rowEnd ?? rows.length);
  const minBar = options.minBarWidth ?? 1;
  const mergePx = options.markerMergePx ?? 4;
  const fontSize = options.fontSize ?? 11;
  const measure = options.measureText ?? ((t: string, f: number) => t.length * f * 0.6);
  const padding = options.labelPadding ?? 8;
  const withMarkers = options.markers ?? true;
  const { start, end } = p.viewport;
  const out: SwimlaneDrawRow[] = [];
  for (let r = rowStart; r < rowEnd; r++) {
    const data = rows[r]!;
    const ri = index.row(r);
    const bars: SwimlaneDrawBar[] = [];
    const strips: SwimlaneDrawStrip[] = [];
    const n = ri.starts.length;
    let i = lowerBound(ri.maxEnd, start);
    while (i < n && ri.starts[i]! <= end) {
      if (ri.ends[i]! < start) {
        i++;
        continue;
      }
      const x0 = p.x(ri.starts[i]!);
      const x1 = p.x(ri.ends[i]!);
      if (x1 - x0 >= minBar) {
        const bar = rowBar(data, i);
        const fits = x1 - x0 >= measure(bar.name, fontSize) + padding;
        bars.push({ row: r, index: i, bar, x0, x1, label: fits ? bar.name : null });
        i++;
        continue;
      }
      // A sub-pixel bar: take every bar that starts within this pixel at once.
      const cellEnd = p.invert(Math.floor(x0) + 1);
      const j = Math.max(i + 1, upperBound(ri.starts, cellEnd, i));
      const sx1 = Math.max(x0 + Math.max(minBar, 1), p.x(ri.maxEnd[j - 1]!));
      const last = strips[strips.length - 1];
      if (last !== undefined && x0 <= last.x1 + 0.5 && last.last === i - 1) {
        strips[strips.length - 1] = {
          ...last,
          last: j - 1,
          count: last.count + (j - i),
          x1: Math.max(last.x1, sx1),
        };
      } else {
        strips.push({ row: r, first: i, last: j - 1, count: j - i, x0, x1: sx1 });
      }
      i = j;
    }
    const markers: SwimlaneDrawMarker[] = [];
    const times = withMarkers ? index.markerTimes(r) : NO_TIMES;
    for (let m = lowerBound(times, start); m < times.length && times[m]! <= end; m++) {
      const x = p.x(times[m]!);
      const prev = markers[markers.length - 1];
      const marker = data.markers[m]!;
      if (prev !== undefined && x - prev.x < mergePx) {
        const keep = prev.marker.kind !== 'error' && marker.kind === 'error' ? marker : prev.marker;
        markers[markers.length - 1] = { ...prev, marker: keep, count: prev.count + 1 };
        continue;
      }
      markers.push({ row: r, index: m, marker, x, count: 1 });
    }
    const activity = options.activity === true ? windowActivity(index.activity(r), r, p) : [];
    out.push({ row: r, data, bars, strips, markers, activity });
  }
  return { rows: out };
}

/** Calls starting in one pixel past which they are merged without looking at each. */
const DENSE_PIXEL = 8;

interface OpenSegment {
  row: number;
  kind: SwimlaneActivityKind;
  x0: number;
  x1: number;
  count: number;
}

/**
 * A row's activity inside the projection's window, merged per pixel. Calls
 * thinner than a pixel are taken a pixel at a time (binary search to the
 * first call past it), so a row of 100k calls costs O(pixels · log n).
 */
function windowActivity(a: RowActivity, r: number, p: SwimlaneProjection): SwimlaneDrawActivity[] {
  const { start, end } = p.viewport;
  const out: OpenSegment[] = [];
  // The open segment of each kind, extended while the next call touches it.
  const open: (OpenSegment | undefined)[] = [undefined, undefined];
  const n = a.starts.length;
  let i = lowerBound(a.maxEnd, start);
  while (i < n && a.starts[i]! <= end) {
    if (a.ends[i]! < start) {
      i++;
      continue;
    }
    const code = a.kinds[i]!;
    const x0 = p.x(a.starts[i]!);
    let x1 = p.x(a.ends[i]!);
    let j = i + 1;
    if (x1 - x0 < 1) {
      x1 = x0 + 1;
      // Many calls starting within this pixel: they join it at once (a long
      // one among them is cut to the pixel; with a few, each counts).
      const k = upperBound(a.starts, p.invert(Math.floor(x0) + 1), i);
      if (k - i > DENSE_PIXEL) j = k;
    }
    const last = open[code];
    if (last !== undefined && x0 <= last.x1 + 0.5) {
      last.x1 = Math.max(last.x1, x1);
      last.count += j - i;
    } else {
      const segment = { row: r, kind: ACTIVITY_KINDS[code]!, x0, x1, count: j - i };
      open[code] = segment;
      out.push(segment);
    }
    i = j;
  }
  return out;
}

/**
 * What is under a point: a marker (checked first, they sit on bars) or a bar.
 *
 * @example
 * declare const pointerX: number;
 * declare const p: SwimlaneProjection;
 * declare const index: SwimlaneIndex;
 * declare const row: number;
 * declare const selection: SelectionStore;
 * const hit = hitTestSwimlane(index, p, row, pointerX);
 * if (hit?.type === 'bar') selection.select(hit.bar.spanId);
 */
export type SwimlaneHit =
  | {
      readonly type: 'bar';
      readonly row: number;
      readonly index: number;
      readonly bar: SwimlaneBar;
    }
  | {
      readonly type: 'marker';
      readonly row: number;
      readonly index: number;
      readonly marker: SwimlaneMarker;
    };

/**
 * The bar or marker of row `row` at `viewX`, within `tolerance` px (default
 * 3): a marker first, then a bar that contains the point, then the nearest
 * bar. O(log n).
 *
 * @example
 * declare const projection: SwimlaneProjection;
 * declare const index: SwimlaneIndex;
 * const hit = hitTestSwimlane(index, projection, 4, 212.5);
 */
export function hitTestSwimlane(
  index: SwimlaneIndex,
  p: SwimlaneProjection,
  row: number,
  viewX: number,
  tolerance = 3,
): SwimlaneHit | null {
  const data = index.layout.rows[row];
  if (data === undefined) return null;
  const ri = index.row(row);
  const t0 = p.invert(viewX - tolerance);
  const t1 = p.invert(viewX + tolerance);
  const times = index.markerTimes(row);
  let best: SwimlaneHit | null = null;
  let bestDistance = Infinity;
  for (let m = lowerBound(times, t0); m < times.length && times[m]! <= t1; m++) {
    const d = Math.abs(p.x(times[m]!) - viewX);
    if (d < bestDistance) {
      bestDistance = d;
      best = { type: 'marker', row, index: m, marker: data.markers[m]! };
    }
  }
  if (best !== null) return best;
  const n = ri.starts.length;
  for (let i = lowerBound(ri.maxEnd, t0); i < n && ri.starts[i]! <= t1; i++) {
    if (ri.ends[i]! < t0) continue;
    const x0 = p.x(ri.starts[i]!);
    const x1 = p.x(ri.ends[i]!);
    const d = viewX < x0 ? x0 - viewX : viewX > x1 ? viewX - x1 : 0;
    if (d < bestDistance) {
      bestDistance = d;
      best = { type: 'bar', row, index: i, bar: rowBar(data, i) };
      if (d === 0) break;
    }
  }
  return best;
}

/**
 * The overview strip (minimap): how many bars cover each of `bins`
 * equal slices of the fitted view (idle gaps as narrow as in the main
 * view's fitted projection `fitted`). O(bars), once per layout.
 *
 * @example
 * declare const index: SwimlaneIndex;
 * const bins = swimlaneDensity(index, projectViewport(index.axis, fitViewport(index.axis), { width: 300 }));
 */
export function swimlaneDensity(index: SwimlaneIndex, fitted: SwimlaneProjection): Uint32Array {
  const bins = Math.max(1, Math.floor(fitted.width));
  // A difference array: a long bar costs two writes, not one per bin.
  const delta = new Int32Array(bins + 1);
  for (let r = 0; r < index.layout.rows.length; r++) {
    if (index.layout.rows[r]!.kind === 'root') continue;
    const { starts, ends } = index.row(r);
    for (let i = 0; i < starts.length; i++) {
      const b0 = Math.max(0, Math.min(bins - 1, Math.floor(fitted.x(starts[i]!))));
      const b1 = Math.max(b0, Math.min(bins - 1, Math.floor(fitted.x(ends[i]!))));
      delta[b0]!++;
      delta[b1 + 1]!--;
    }
  }
  const counts = new Uint32Array(bins);
  let running = 0;
  for (let b = 0; b < bins; b++) {
    running += delta[b]!;
    counts[b] = running;
  }
  return counts;
}
