/**
 * The time scale: maps time space (epoch ms) to view space (`viewX`, pixels
 * or any unit the caller draws in) and back, honouring compressed idle gaps
 * (the two spaces are named apart). Active segments share the range in
 * proportion to their duration; each idle segment gets a fixed `idleWidth`
 * (inspect's viewer gives gaps zero width; a few pixels let a renderer draw a
 * break mark there). Ticks count elapsed wall time from the domain start.
 */
import type { TimeSegment } from './layout.js';
import { checkOption, isFiniteNumber } from './options.js';

/**
 * Options of {@link createTimeScale}: either a plain `domain` or the
 * `segments` of a {@link SwimlaneLayout} (which carry its idle gaps).
 *
 * @example
 * declare const layout: SwimlaneLayout;
 * createTimeScale({ segments: layout.segments, range: [160, 760], idleWidth: 8 });
 */
export interface TimeScaleOptions {
  /** `[timeStart, timeEnd]` in epoch ms, mapped linearly (ignored when `segments` is given). */
  readonly domain?: readonly [number, number];
  /** Contiguous segments tiling the domain (`layout.segments`). */
  readonly segments?: readonly TimeSegment[];
  /** `[viewStart, viewEnd]`, e.g. `[0, 800]`. */
  readonly range: readonly [number, number];
  /**
   * Width of each idle segment in view units. Default 0 (gaps vanish, as in
   * inspect's viewer). All gaps together never take more than half the range.
   */
  readonly idleWidth?: number;
}

/**
 * A tick of the time axis.
 *
 * @example
 * const tick: TimeTick = { time: 1_781_115_860_000, offsetMs: 30_000, viewX: 212.5, label: '30s' };
 */
export interface TimeTick {
  /** Epoch ms. */
  readonly time: number;
  /** Elapsed wall time since the domain start, ms. */
  readonly offsetMs: number;
  readonly viewX: number;
  /** Relative time: `0s`, `500ms`, `30s`, `1m`, `1m 30s`, `1h 5m`, `2d 3h`. */
  readonly label: string;
}

/**
 * A time ↔ view mapping made by {@link createTimeScale}. Call it with a time
 * to get `viewX`.
 *
 * @example
 * declare const scale: TimeScale;
 * declare const bar: SwimlaneBar;
 * declare const pointerX: number;
 * const viewX = scale(bar.timeStart);
 * const time = scale.invert(pointerX);
 */
export interface TimeScale {
  (time: number): number;
  /** The time at `viewX` (the start of a gap when a gap has zero width). */
  invert(viewX: number): number;
  /** About `count` ticks at nice steps of active time, plus one where activity resumes after each gap. */
  ticks(count?: number): TimeTick[];
  readonly domain: readonly [number, number];
  readonly range: readonly [number, number];
  /** The pieces of the mapping, each with its time and view extent. */
  readonly pieces: readonly TimeScalePiece[];
}

/**
 * One linear piece of a {@link TimeScale}.
 *
 * @example
 * declare const scale: TimeScale;
 * const gaps = scale.pieces.filter((p: TimeScalePiece) => p.idle);
 */
export interface TimeScalePiece {
  readonly timeStart: number;
  readonly timeEnd: number;
  readonly viewStart: number;
  readonly viewEnd: number;
  readonly idle: boolean;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

// Clock units a person reads at a glance above a second.
const CLOCK_STEPS = [
  SECOND,
  2 * SECOND,
  5 * SECOND,
  10 * SECOND,
  15 * SECOND,
  30 * SECOND,
  MINUTE,
  2 * MINUTE,
  5 * MINUTE,
  10 * MINUTE,
  15 * MINUTE,
  30 * MINUTE,
  HOUR,
  2 * HOUR,
  3 * HOUR,
  6 * HOUR,
  12 * HOUR,
  DAY,
];

/**
 * The smallest readable step ≥ `raw` ms: 1-2-5 × 10ⁿ below a second (down
 * to nanoseconds), clock units above, then 1-2-5 × 10ⁿ days. One home for
 * the static scale's ticks and the interactive viewport's.
 * @example
 * import { niceTickStep } from './time-scale.js';
 * niceTickStep(0.0032); // 0.005
 */
export function niceTickStep(raw: number): number {
  if (!(raw > 0)) return SECOND;
  if (raw < SECOND) {
    const p = Math.pow(10, Math.floor(Math.log10(raw)));
    for (const m of [1, 2, 5, 10]) if (m * p >= raw * (1 - 1e-12)) return m * p;
  }
  for (const s of CLOCK_STEPS) if (s >= raw) return s;
  let days = 1;
  for (;;) {
    for (const m of [1, 2, 5]) if (days * m * DAY >= raw) return days * m * DAY;
    days *= 10;
  }
}

/** The static scale's step: as {@link niceTickStep}, never under 1 ms. */
function niceStep(raw: number): number {
  return niceTickStep(Math.max(1, raw));
}

/**
 * Formats an elapsed time for an axis label: `0s`, `250ms`, `1.5s`, `30s`,
 * `1m`, `1m 30s`, `1h 5m`, `2d 3h`. Sub-second steps print decimals of a
 * second (or plain ms below one second); larger values drop zero units.
 * @internal
 * @example
 * import { formatRelativeTime } from 'src/core/swimlane/time-scale.js';
 * formatRelativeTime(3_900_000); // '1h 5m'
 */
export function formatRelativeTime(offsetMs: number, stepMs = SECOND): string {
  const sign = offsetMs < 0 ? '-' : '';
  let ms = Math.abs(offsetMs);
  if (stepMs < SECOND) {
    const decimals = Math.min(3, Math.max(0, Math.ceil(-Math.log10(stepMs / SECOND) - 1e-9)));
    if (ms < SECOND && ms > 0) return `${sign}${Math.round(ms)}ms`;
    if (ms < MINUTE) return `${sign}${Number((ms / SECOND).toFixed(decimals))}s`;
  }
  ms = Math.round(ms / SECOND) * SECOND;
  const parts: string[] = [];
  const units: [number, string][] = [
    [DAY, 'd'],
    [HOUR, 'h'],
    [MINUTE, 'm'],
    [SECOND, 's'],
  ];
  for (const [size, suffix] of units) {
    const n = Math.floor(ms / size);
    if (n > 0) parts.push(`${n}${suffix}`);
    ms -= n * size;
  }
  return parts.length === 0 ? '0s' : sign + parts.join(' ');
}

/**
 * Creates a scale from time space to view space. Give it `layout.segments`
 * to compress idle gaps, or a plain `domain` for a linear scale. Times
 * outside the domain extrapolate at the rate of the nearest active piece;
 * `invert` does the reverse, so `scale.invert(scale(t)) ≈ t` for every time
 * outside idle gaps (and inside them too when `idleWidth > 0`).
 *
 * @example
 * declare const layout: SwimlaneLayout;
 * const scale = createTimeScale({ segments: layout.segments, range: [0, 600], idleWidth: 8 });
 * scale(layout.timeStart); // 0
 * scale.ticks(6).map((t) => t.label); // ['0s', '30s', '1m', …]
 */
export function createTimeScale(options: TimeScaleOptions): TimeScale {
  const [viewStart, viewEnd] = options.range;
  checkOption('range', options.range, (r) => r.every(isFiniteNumber), 'two finite numbers');
  if (options.domain) {
    checkOption('domain', options.domain, (d) => d.every(isFiniteNumber), 'two finite numbers');
  }
  checkOption(
    'idleWidth',
    options.idleWidth ?? 0,
    (w) => w >= 0 && w < Infinity,
    'a finite number ≥ 0',
  );
  const segments: readonly TimeSegment[] =
    options.segments && options.segments.length > 0
      ? options.segments
      : [{ timeStart: options.domain?.[0] ?? 0, timeEnd: options.domain?.[1] ?? 0, idle: false }];
  const domain: readonly [number, number] = [
    segments[0]!.timeStart,
    segments[segments.length - 1]!.timeEnd,
  ];
  const width = viewEnd - viewStart;

  let idleCount = 0;
  let activeMs = 0;
  let activeCount = 0;
  for (const s of segments) {
    if (s.idle) idleCount++;
    else {
      activeCount++;
      activeMs += Math.max(0, s.timeEnd - s.timeStart);
    }
  }
  // Gaps never take more than half the range; with no active time at all
  // (a run that is one long gap) they share it.
  let idleWidth = Math.max(0, options.idleWidth ?? 0);
  if (activeCount === 0) idleWidth = width / Math.max(1, idleCount);
  else if (idleCount * Math.abs(idleWidth) > Math.abs(width) / 2)
    idleWidth = Math.abs(width) / 2 / idleCount;
  idleWidth *= Math.sign(width) || 1;
  const activeWidth = width - idleCount * idleWidth;

  const pieces: TimeScalePiece[] = [];
  let x = viewStart;
  for (const s of segments) {
    const duration = Math.max(0, s.timeEnd - s.timeStart);
    const w = s.idle
      ? idleWidth
      : activeMs > 0
        ? (duration / activeMs) * activeWidth
        : activeWidth / activeCount; // zero-length activity: equal shares
    pieces.push({
      timeStart: s.timeStart,
      timeEnd: s.timeEnd,
      viewStart: x,
      viewEnd: x + w,
      idle: s.idle,
    });
    x += w;
  }

  const firstActive = pieces.find((p) => !p.idle && p.timeEnd > p.timeStart);
  const lastActive = [...pieces].reverse().find((p) => !p.idle && p.timeEnd > p.timeStart);
  const rateOf = (p: TimeScalePiece | undefined) =>
    p ? (p.viewEnd - p.viewStart) / (p.timeEnd - p.timeStart) : 0;
  const firstRate = rateOf(firstActive);
  const lastRate = rateOf(lastActive);

  /** The piece whose time range holds `time` (binary search; active pieces win ties at edges). */
  const pieceAtTime = (time: number): TimeScalePiece => {
    let lo = 0;
    let hi = pieces.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pieces[mid]!.timeEnd < time) lo = mid + 1;
      else hi = mid;
    }
    const piece = pieces[lo]!;
    // At a shared edge prefer the active neighbour, so an event right at a
    // gap's end maps onto the active side.
    const next = pieces[lo + 1];
    if (piece.idle && next && !next.idle && next.timeStart === time) return next;
    return piece;
  };

  const scale = ((time: number): number => {
    if (time <= domain[0]) return viewStart - (domain[0] - time) * firstRate;
    if (time >= domain[1])
      return pieces[pieces.length - 1]!.viewEnd + (time - domain[1]) * lastRate;
    const p = pieceAtTime(time);
    const span = p.timeEnd - p.timeStart;
    if (span <= 0) return p.viewStart;
    return p.viewStart + ((time - p.timeStart) / span) * (p.viewEnd - p.viewStart);
  }) as TimeScale;

  const ascending = width >= 0;
  scale.invert = (viewX: number): number => {
    const before = ascending ? viewX <= viewStart : viewX >= viewStart;
    const after = ascending ? viewX >= x : viewX <= x;
    if (before) return firstRate === 0 ? domain[0] : domain[0] - (viewStart - viewX) / firstRate;
    if (after) return lastRate === 0 ? domain[1] : domain[1] + (viewX - x) / lastRate;
    // Pieces are few (a gap every 5+ minutes); a linear scan that prefers
    // active pieces keeps zero-width gaps from capturing their edges.
    let hit: TimeScalePiece | undefined;
    for (const p of pieces) {
      const lo = Math.min(p.viewStart, p.viewEnd);
      const hi = Math.max(p.viewStart, p.viewEnd);
      if (viewX >= lo && viewX <= hi) {
        if (!p.idle) {
          hit = p;
          break;
        }
        hit ??= p;
      }
    }
    if (!hit) return domain[1];
    const w = hit.viewEnd - hit.viewStart;
    if (w === 0) return hit.timeStart;
    return hit.timeStart + ((viewX - hit.viewStart) / w) * (hit.timeEnd - hit.timeStart);
  };

  scale.ticks = (count = 5): TimeTick[] => {
    const origin = domain[0];
    const tick = (time: number, step: number): TimeTick => ({
      time,
      offsetMs: time - origin,
      viewX: scale(time),
      label: formatRelativeTime(time - origin, step),
    });
    if (!(activeMs > 0)) return [tick(origin, SECOND)];
    const step = niceStep(activeMs / Math.max(1, count));
    const out: TimeTick[] = [];
    let lastTime = -Infinity;
    pieces.forEach((p, i) => {
      if (p.idle) return;
      // Where activity resumes after a gap, mark the resumption itself: the
      // regular multiples of the step may all fall inside the gap.
      let from = p.timeStart;
      if (i > 0 && pieces[i - 1]!.idle) {
        out.push(tick(p.timeStart, step));
        lastTime = p.timeStart;
        from = p.timeStart + step / 2;
      }
      for (let k = Math.ceil((from - origin) / step); origin + k * step <= p.timeEnd; k++) {
        const time = origin + k * step;
        if (time > lastTime) {
          out.push(tick(time, step));
          lastTime = time;
        }
      }
    });
    return out;
  };

  Object.defineProperties(scale, {
    domain: { value: domain, enumerable: true },
    range: { value: [viewStart, viewEnd] as const, enumerable: true },
    pieces: { value: pieces, enumerable: true },
  });
  return scale;
}
