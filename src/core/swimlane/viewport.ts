/**
 * The interactive swimlane's viewport: which stretch of the run
 * is on screen, and how it maps to pixels while the user zooms and pans.
 *
 * Times here are **relative ms** (ms since the layout's `timeStart`), never
 * epoch ms: an epoch-ms double carries ~0.2 µs of noise, while a relative
 * time of a 10-hour run (3.6e7 ms) holds a microsecond with ten digits to
 * spare, so zooming onto a 1 µs span in a 10-hour run stays exact.
 *
 * The mapping is the time scale's (`createTimeScale`): active time is
 * linear, each compressed idle gap is a fixed `gapWidth` px break. With the
 * whole run in view it is the same function, pixel for pixel, so the
 * component's fitted view and `renderTimelineSvg` agree. Zoomed, active time
 * stretches by `k` px/ms and the breaks keep their width:
 *
 *   world(t) = active(t) · k + gaps(t) · gapWidth,   viewX = world(t) − offset
 *
 * where `active(t)` is `t` minus the idle time before it and `gaps(t)` the
 * number of breaks before `t` (fractional inside one).
 */
import type { SwimlaneLayout } from './layout.js';
import { checkOption } from './options.js';
import { formatRelativeTime, niceTickStep } from './time-scale.js';

export { niceTickStep };

/**
 * The run's time axis in relative ms, with its idle gaps: the part of a
 * layout the viewport needs. Made once per layout by {@link createSwimlaneAxis}.
 *
 * @example
 * declare const layout: SwimlaneLayout;
 * const axis = createSwimlaneAxis(layout);
 * axis.duration; // ms from the first to the last thing drawn
 */
export interface SwimlaneAxis {
  /** Epoch ms of relative time 0 (the layout's `timeStart`). */
  readonly origin: number;
  /** Relative ms of the end of the run. */
  readonly duration: number;
  /** Time not inside an idle gap, ms. */
  readonly activeMs: number;
  /** Compressed idle gaps, `[start, end]` in relative ms, sorted. */
  readonly gaps: readonly (readonly [number, number])[];
}

/**
 * A visible stretch of the run: `[start, end]` in relative ms.
 *
 * @example
 * declare const axis: SwimlaneAxis;
 * const whole: SwimlaneViewport = { start: 0, end: axis.duration };
 */
export interface SwimlaneViewport {
  readonly start: number;
  readonly end: number;
}

/**
 * Options shared by the viewport functions.
 *
 * @example
 * const options: SwimlaneViewOptions = { width: 640, idleWidth: 10 };
 */
export interface SwimlaneViewOptions {
  /** Width of the bar area, px. */
  readonly width: number;
  /** Width of each compressed idle gap, px (default 10, as `renderTimelineSvg`). */
  readonly idleWidth?: number;
  /**
   * The shortest stretch of active time the view may show, ms (default
   * 0.001: one microsecond across the whole width).
   */
  readonly minDurationMs?: number;
}

/**
 * A viewport turned into a pixel mapping by {@link projectViewport}.
 *
 * @example
 * declare const axis: SwimlaneAxis;
 * declare const viewport: SwimlaneViewport;
 * declare const bar: SwimlaneBar;
 * const p = projectViewport(axis, viewport, { width: 640 });
 * const viewX = p.x(bar.timeStart - axis.origin);
 */
export interface SwimlaneProjection {
  /** `viewX` of relative time `t`. */
  x(t: number): number;
  /** Relative time at `viewX`. */
  invert(viewX: number): number;
  /** px per ms of active time. */
  readonly k: number;
  /** world px at viewX 0. */
  readonly offset: number;
  /** px per idle gap. */
  readonly gapWidth: number;
  readonly width: number;
  readonly viewport: SwimlaneViewport;
}

/**
 * Builds the axis of a layout: relative times and the idle gaps it compresses.
 *
 * @example
 * declare const timeline: Timeline;
 * const axis = createSwimlaneAxis(layoutSwimlane(timeline));
 */
export function createSwimlaneAxis(
  layout: Pick<SwimlaneLayout, 'timeStart' | 'timeEnd' | 'segments'>,
): SwimlaneAxis {
  const origin = layout.timeStart;
  const gaps: [number, number][] = [];
  let idle = 0;
  for (const s of layout.segments) {
    if (!s.idle || !(s.timeEnd > s.timeStart)) continue;
    gaps.push([s.timeStart - origin, s.timeEnd - origin]);
    idle += s.timeEnd - s.timeStart;
  }
  const duration = Math.max(0, layout.timeEnd - origin);
  return { origin, duration, activeMs: Math.max(0, duration - idle), gaps };
}

/** Internal per-axis tables, cached: cumulative idle before each gap. */
const tables = new WeakMap<SwimlaneAxis, Float64Array>();
function idleBefore(axis: SwimlaneAxis): Float64Array {
  let cum = tables.get(axis);
  if (cum === undefined) {
    cum = new Float64Array(axis.gaps.length + 1);
    for (let i = 0; i < axis.gaps.length; i++) {
      const [s, e] = axis.gaps[i]!;
      cum[i + 1] = cum[i]! + (e - s);
    }
    tables.set(axis, cum);
  }
  return cum;
}

/** Number of gaps starting at or before `t`. */
function gapsStartedBy(axis: SwimlaneAxis, t: number): number {
  let lo = 0;
  let hi = axis.gaps.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (axis.gaps[mid]![0] <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * `[active(t), gaps(t)]`: active ms before `t`, and breaks before it
 * (fractional inside one).
 */
function position(axis: SwimlaneAxis, t: number): [number, number] {
  const cum = idleBefore(axis);
  const i = gapsStartedBy(axis, t);
  if (i > 0) {
    const [s, e] = axis.gaps[i - 1]!;
    if (t < e) return [s - cum[i - 1]!, i - 1 + (t - s) / (e - s)];
  }
  return [t - cum[i]!, i];
}

function gapWidthOf(axis: SwimlaneAxis, options: SwimlaneViewOptions): number {
  const n = axis.gaps.length;
  const idleWidth = options.idleWidth ?? 10;
  if (n === 0) return 0;
  // As createTimeScale: all breaks together never take more than half the width.
  return Math.min(idleWidth, options.width / 2 / n);
}

function checkWidth(options: SwimlaneViewOptions): number {
  return checkOption('width', options.width, (w) => w > 0 && w < Infinity, 'a positive number');
}

/** Active ms shown at the widest zoom (the whole run), never 0. */
function fullActive(axis: SwimlaneAxis): number {
  return axis.activeMs > 0 ? axis.activeMs : 1;
}

function projection(
  axis: SwimlaneAxis,
  k: number,
  offset: number,
  gapWidth: number,
  width: number,
): SwimlaneProjection {
  const cum = idleBefore(axis);
  const gaps = axis.gaps;
  // position() without its tuple: x() runs per drawn bar and per minimap
  // bin, so it allocates nothing (the same arithmetic, inlined).
  const world = (t: number) => {
    if (gaps.length === 0) return t * k;
    const i = gapsStartedBy(axis, t);
    if (i > 0) {
      const [s, e] = gaps[i - 1]!;
      if (t < e) return (s - cum[i - 1]!) * k + (i - 1 + (t - s) / (e - s)) * gapWidth;
    }
    return (t - cum[i]!) * k + i * gapWidth;
  };
  const invert = (viewX: number): number => {
    const w = viewX + offset;
    // The last gap whose break starts at or before w.
    let lo = 0;
    let hi = axis.gaps.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const [s] = axis.gaps[mid]!;
      if ((s - cum[mid]!) * k + mid * gapWidth <= w) lo = mid + 1;
      else hi = mid;
    }
    const i = lo;
    if (i > 0) {
      const [s, e] = axis.gaps[i - 1]!;
      const breakStart = (s - cum[i - 1]!) * k + (i - 1) * gapWidth;
      if (w < breakStart + gapWidth) return s + ((w - breakStart) / gapWidth) * (e - s);
    }
    return (w - i * gapWidth) / k + cum[i]!;
  };
  const viewport = { start: invert(0), end: invert(width) };
  return { x: (t) => world(t) - offset, invert, k, offset, gapWidth, width, viewport };
}

/** Zoom limits in px per active ms. */
function kLimits(axis: SwimlaneAxis, options: SwimlaneViewOptions): [number, number] {
  const width = checkWidth(options);
  const g = gapWidthOf(axis, options);
  const kFit = (width - axis.gaps.length * g) / fullActive(axis);
  const minDuration = checkOption(
    'minDurationMs',
    options.minDurationMs ?? 0.001,
    (d) => d > 0 && d < Infinity,
    'a positive number',
  );
  return [kFit, Math.max(kFit, width / minDuration)];
}

/** Clamps `(k, offset)` so the view stays on the run, and projects it. */
function settle(
  axis: SwimlaneAxis,
  k: number,
  offset: number,
  options: SwimlaneViewOptions,
): SwimlaneProjection {
  const width = checkWidth(options);
  const g = gapWidthOf(axis, options);
  const [kMin, kMax] = kLimits(axis, options);
  const kk = Math.min(kMax, Math.max(kMin, Number.isFinite(k) ? k : kMin));
  const total = fullActive(axis) * kk + axis.gaps.length * g;
  const off = Math.min(Math.max(0, total - width), Math.max(0, offset));
  return projection(axis, kk, off, g, width);
}

/**
 * The whole run.
 *
 * @example
 * declare const axis: SwimlaneAxis;
 * const viewport = fitViewport(axis); // { start: 0, end: axis.duration }
 */
export function fitViewport(axis: SwimlaneAxis): SwimlaneViewport {
  return { start: 0, end: axis.duration };
}

/**
 * Maps a viewport to pixels at `options.width`, clamped to the run and to
 * the zoom limits (never wider than the run, never narrower than
 * `minDurationMs`). The fitted viewport maps like `createTimeScale` over
 * `[0, width]` with the same `idleWidth`.
 *
 * @example
 * declare const axis: SwimlaneAxis;
 * const p = projectViewport(axis, { start: 1000, end: 2000 }, { width: 500 });
 * p.x(1500); // 250
 */
export function projectViewport(
  axis: SwimlaneAxis,
  viewport: SwimlaneViewport,
  options: SwimlaneViewOptions,
): SwimlaneProjection {
  const width = checkWidth(options);
  const g = gapWidthOf(axis, options);
  const [a0, g0] = position(axis, viewport.start);
  const [a1, g1] = position(axis, viewport.end);
  const activeSpan = a1 - a0;
  const k = activeSpan > 0 ? (width - (g1 - g0) * g) / activeSpan : Infinity;
  const kk = k > 0 ? k : Infinity;
  const [kMin, kMax] = kLimits(axis, options);
  const clampedK = Math.min(kMax, Math.max(kMin, Number.isFinite(kk) ? kk : kMax));
  // Keep the middle of the requested range in the middle when k was clamped.
  if (clampedK !== kk) {
    const mid = (viewport.start + viewport.end) / 2;
    const [am, gm] = position(axis, mid);
    return settle(axis, clampedK, am * clampedK + gm * g - width / 2, options);
  }
  return settle(axis, kk, a0 * kk + g0 * g, options);
}

/**
 * Zooms by `factor` (> 1 zooms in) keeping the time under `atX` (px) where
 * it is, clamped to the run and the zoom limits.
 *
 * @example
 * declare const axis: SwimlaneAxis;
 * declare const viewport: SwimlaneViewport;
 * declare const pointerX: number;
 * const next = zoomViewport(axis, viewport, 1.25, pointerX, { width: 640 });
 */
export function zoomViewport(
  axis: SwimlaneAxis,
  viewport: SwimlaneViewport,
  factor: number,
  atX: number,
  options: SwimlaneViewOptions,
): SwimlaneViewport {
  checkOption('factor', factor, (f) => f > 0 && f < Infinity, 'a positive number');
  const p = projectViewport(axis, viewport, options);
  const t = p.invert(atX);
  const [kMin, kMax] = kLimits(axis, options);
  // Clamp before placing: the offset must be computed at the k it will have.
  const k = Math.min(kMax, Math.max(kMin, p.k * factor));
  const [a, g] = position(axis, t);
  return settle(axis, k, a * k + g * p.gapWidth - atX, options).viewport;
}

/**
 * Pans by `deltaX` px (positive moves the view later in time), clamped to the run.
 *
 * @example
 * declare const axis: SwimlaneAxis;
 * declare const viewport: SwimlaneViewport;
 * const next = panViewport(axis, viewport, 40, { width: 640 });
 */
export function panViewport(
  axis: SwimlaneAxis,
  viewport: SwimlaneViewport,
  deltaX: number,
  options: SwimlaneViewOptions,
): SwimlaneViewport {
  const p = projectViewport(axis, viewport, options);
  return settle(axis, p.k, p.offset + deltaX, options).viewport;
}

/**
 * The viewport clamped to the run and the zoom limits (what
 * {@link projectViewport} would show for it).
 *
 * @example
 * import { clampViewport } from './viewport.js';
 * declare const axis: SwimlaneAxis;
 * clampViewport(axis, { start: -50, end: 1e12 }, { width: 640 }); // the whole run
 */
export function clampViewport(
  axis: SwimlaneAxis,
  viewport: SwimlaneViewport,
  options: SwimlaneViewOptions,
): SwimlaneViewport {
  return projectViewport(axis, viewport, options).viewport;
}

/**
 * `true` when the viewport shows the whole run (within half a pixel).
 *
 * @example
 * declare const axis: SwimlaneAxis;
 * declare const viewport: SwimlaneViewport;
 * declare const width: number;
 * const showFitButton = !isFitted(axis, viewport, { width });
 */
export function isFitted(
  axis: SwimlaneAxis,
  viewport: SwimlaneViewport,
  options: SwimlaneViewOptions,
): boolean {
  const p = projectViewport(axis, viewport, options);
  const [kMin] = kLimits(axis, options);
  return p.k <= kMin * (1 + 0.5 / options.width);
}

/**
 * An axis tick of the visible window.
 *
 * @example
 * const tick: SwimlaneTick = { time: 60_000, viewX: 120, label: '1m' };
 */
export interface SwimlaneTick {
  /** Relative ms. */
  readonly time: number;
  readonly viewX: number;
  readonly label: string;
}

/**
 * A compressed idle gap in the visible window, labelled with its real
 * duration.
 *
 * @example
 * const b: SwimlaneBreak = { timeStart: 0, timeEnd: 7_200_000, x0: 100, x1: 110, label: '2h idle' };
 */
export interface SwimlaneBreak {
  readonly timeStart: number;
  readonly timeEnd: number;
  readonly x0: number;
  readonly x1: number;
  readonly label: string;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;

/**
 * A relative time for a tick `step` ms apart from its neighbours: whole
 * units as `formatRelativeTime`, plus as many decimals of a second as the
 * step needs (`5h 12m 3.000125s` at a microsecond step).
 * @example
 * import { formatTickLabel } from './viewport.js';
 * formatTickLabel(3_723_000.5, 0.5); // '1h 2m 3.0005s'
 */
export function formatTickLabel(time: number, step: number): string {
  if (step >= SECOND || time === 0) return formatRelativeTime(time, step);
  const sign = time < 0 ? '-' : '';
  const abs = Math.abs(time);
  if (abs < SECOND) {
    const decimals = Math.min(9, Math.max(0, Math.ceil(-Math.log10(step) - 1e-9)));
    return `${sign}${abs.toFixed(decimals)}ms`;
  }
  const decimals = Math.min(9, Math.max(0, Math.ceil(-Math.log10(step / SECOND) - 1e-9)));
  const whole = Math.floor(abs / MINUTE) * MINUTE;
  const seconds = ((abs - whole) / SECOND).toFixed(decimals);
  const head = whole > 0 ? `${formatRelativeTime(whole)} ` : '';
  return `${sign}${head}${seconds}s`;
}

/**
 * Ticks for the visible window, at a step whose labels fit (`charWidth`
 * px per label character, `minGap` px between labels), plus the idle
 * breaks it shows with their real duration. Ticks are multiples of the step
 * from the run's start, in real time; none falls inside a gap.
 *
 * @example
 * declare const axis: SwimlaneAxis;
 * declare const projection: SwimlaneProjection;
 * const { ticks, breaks } = swimlaneTicks(axis, projection, { charWidth: 6.6 });
 */
export function swimlaneTicks(
  axis: SwimlaneAxis,
  p: SwimlaneProjection,
  options: { charWidth?: number; minGap?: number } = {},
): { ticks: SwimlaneTick[]; breaks: SwimlaneBreak[]; step: number } {
  const charWidth = options.charWidth ?? 6.6;
  const minGap = options.minGap ?? 16;
  const { start, end } = p.viewport;
  const [a0] = position(axis, start);
  const [a1] = position(axis, end);
  const visibleActive = Math.max(a1 - a0, 1e-9);
  // Fit: start from a dense guess and widen the step until labels fit.
  let step = niceTickStep(visibleActive / Math.max(1, p.width / 60));
  for (let guard = 0; guard < 64; guard++) {
    const sample = formatTickLabel(Math.floor(end / step) * step + step / 3, step);
    const room = (sample.length * charWidth + minGap) / p.k;
    if (step >= room) break;
    step = niceTickStep(Math.max(room, step * 1.0001));
  }
  const breaks: SwimlaneBreak[] = [];
  const ticks: SwimlaneTick[] = [];
  // Active stretches of the window, between the gaps it shows.
  const first = Math.max(0, gapsStartedBy(axis, start) - 1);
  let from = start;
  for (let i = first; i <= axis.gaps.length; i++) {
    const gap = axis.gaps[i];
    const activeEnd = gap ? Math.min(end, gap[0]) : end;
    if (activeEnd >= from) {
      const lo = Math.ceil(from / step - 1e-9);
      for (let n = lo; n * step <= activeEnd + 1e-9 * step && ticks.length < 1000; n++) {
        const time = n * step;
        ticks.push({ time, viewX: p.x(time), label: formatTickLabel(time, step) });
      }
    }
    if (!gap || gap[0] > end) break;
    if (gap[1] >= start) {
      breaks.push({
        timeStart: gap[0],
        timeEnd: gap[1],
        x0: p.x(gap[0]),
        x1: p.x(gap[1]),
        label: `${formatRelativeTime(gap[1] - gap[0])} idle`,
      });
    }
    from = Math.max(from, gap[1]);
  }
  return { ticks, breaks, step };
}
