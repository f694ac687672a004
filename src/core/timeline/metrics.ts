/**
 * Timeline metrics as functions (inspect's `TimelineSpan.start_time`,
 * `end_time`, `total_tokens`, `idle_time`; research/inspect_ai.md §3.1, §3.4).
 *
 * Times are epoch milliseconds. The first call on a span computes the
 * metrics of its whole subtree in one iterative post-order pass and caches
 * them per span object, so asking every span of a timeline costs O(n) in
 * total. Timelines are treated as immutable data: do not mutate a span after
 * asking for its metrics.
 */
import { eventTime } from '../events/event-time.js';
import { eventCountedTokens, hasEndTime } from '../events/outcome.js';
import { timestampMs } from '../events/timestamp.js';
import type { Event } from '../events/types.js';
import type { TimelineItem, TimelineSpan } from './types.js';

/** Gaps longer than this count as idle (research §3.4: 300 s). */
export const IDLE_THRESHOLD_MS = 300_000;

/**
 * Options of the span metrics.
 *
 * @example
 * declare const span: TimelineSpan;
 * spanTotalTokens(span, { includeBranches: false });
 */
export interface SpanMetricOptions {
  /**
   * Include the span's own `branches` (default `true`, as inspect). Nested
   * spans always include theirs, as inspect's recursive defaults do.
   */
  readonly includeBranches?: boolean;
}

interface Stats {
  /** With branches. */
  start: number;
  end: number;
  tokens: number;
  idle: number;
  /** Without the span's own branches. */
  contentStart: number;
  contentEnd: number;
  contentTokens: number;
  contentIdle: number;
}

const cache = new WeakMap<TimelineSpan, Stats>();

// The per-event facts (end time, tokens) have one home, events/outcome.ts;
// re-exported here because the timeline API has always offered them.
export { eventEndTime, eventTotalTokens } from '../events/outcome.js';

// Scratch columns of one content list (start, end, own idle), reused across
// spans so a whole-timeline pass allocates almost nothing per item.
let starts = new Float64Array(1024);
let ends = new Float64Array(1024);
let idles = new Float64Array(1024);
let order = new Uint32Array(1024);

function ensureScratch(n: number): void {
  if (n <= starts.length) return;
  let size = starts.length;
  while (size < n) size *= 2;
  starts = new Float64Array(size);
  ends = new Float64Array(size);
  idles = new Float64Array(size);
  order = new Uint32Array(size);
}

/**
 * End time of an event inside the metrics pass: as {@link eventEndTime}, but
 * `completed` is parsed directly instead of through the per-event WeakMap
 * cache (each event is read once per pass and spans cache the result, so
 * the WeakMap would only add its cost and its GC pressure).
 */
function endOf(event: Event, start: number): number {
  if (hasEndTime(event.event)) {
    const completed = (event as { completed?: unknown }).completed;
    if (typeof completed === 'string') {
      const ms = timestampMs(completed);
      if (!Number.isNaN(ms)) return ms;
    }
  }
  return start;
}

/** Running min start / max end / token sum of {@link fillColumns}. */
interface Totals {
  start: number;
  end: number;
  tokens: number;
}

/**
 * Writes the start, end and own idle time of every item of `list` to the
 * scratch columns from column `at` on, and folds them into `totals`. Each
 * event is read once: its start, its end and its tokens.
 */
function fillColumns(list: readonly TimelineItem[], at: number, totals: Totals): void {
  let min = totals.start;
  let max = totals.end;
  let tokens = totals.tokens;
  for (let i = 0; i < list.length; i++) {
    const item = list[i]!;
    let s: number;
    let e: number;
    let idle: number;
    if (item.type === 'event') {
      const event = item.event;
      s = eventTime(event);
      e = endOf(event, s);
      idle = 0;
      tokens += eventCountedTokens(event);
    } else {
      const st = cache.get(item)!;
      s = st.start;
      e = st.end;
      idle = st.idle;
      tokens += st.tokens;
    }
    if (s < min) min = s;
    if (e > max) max = e;
    starts[at + i] = s;
    ends[at + i] = e;
    idles[at + i] = idle;
  }
  totals.start = min;
  totals.end = max;
  totals.tokens = tokens;
}

/**
 * inspect's `_compute_idle_time` over scratch columns `[0, n)`: children's
 * own idle time plus every gap over the threshold — span start → first
 * child, between consecutive children sorted by start (quirk: `start[i] −
 * end[i−1]`, the *previous* child's end, not the running maximum), last
 * child → span end; ≥ 0. Items without a finite start (empty spans, missing
 * timestamps) are skipped. The sort is stable, so equal starts keep their
 * content order; content is usually already in start order and then no
 * sort happens at all.
 */
function idleOf(n: number, start: number, end: number): number {
  let m = 0;
  let sorted = true;
  let prev = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < n; i++) {
    const s = starts[i]!;
    if (!Number.isFinite(s)) continue;
    if (s < prev) sorted = false;
    prev = s;
    order[m++] = i;
  }
  if (m === 0) return 0;
  if (!sorted) {
    const idx = Array.from(order.subarray(0, m));
    idx.sort((a, b) => starts[a]! - starts[b]! || a - b);
    order.set(idx);
  }
  let idle = 0;
  for (let k = 0; k < m; k++) idle += idles[order[k]!]!;
  const first = order[0]!;
  if (starts[first]! - start > IDLE_THRESHOLD_MS) idle += starts[first]! - start;
  for (let k = 1; k < m; k++) {
    const gap = starts[order[k]!]! - ends[order[k - 1]!]!;
    if (gap > IDLE_THRESHOLD_MS) idle += gap;
  }
  const gapEnd = end - ends[order[m - 1]!]!;
  if (gapEnd > IDLE_THRESHOLD_MS) idle += gapEnd;
  return Math.max(0, idle);
}

const totals: Totals = { start: 0, end: 0, tokens: 0 };

/** The stats of one span whose child spans and branches are all cached. */
function computeOne(span: TimelineSpan): Stats {
  const content = span.content;
  const branches = span.branches;
  const n = content.length;
  ensureScratch(n + branches.length);
  totals.start = Number.POSITIVE_INFINITY;
  totals.end = Number.NEGATIVE_INFINITY;
  totals.tokens = 0;
  fillColumns(content, 0, totals);
  const cStart = totals.start;
  const cEnd = totals.end;
  const cTokens = totals.tokens;
  const contentIdle = idleOf(n, cStart, cEnd);
  if (branches.length === 0) {
    return {
      start: cStart,
      end: cEnd,
      tokens: cTokens,
      idle: contentIdle,
      contentStart: cStart,
      contentEnd: cEnd,
      contentTokens: cTokens,
      contentIdle,
    };
  }
  // Branches: content columns are still in place; append the branches'.
  fillColumns(branches, n, totals);
  return {
    start: totals.start,
    end: totals.end,
    tokens: totals.tokens,
    idle: idleOf(n + branches.length, totals.start, totals.end),
    contentStart: cStart,
    contentEnd: cEnd,
    contentTokens: cTokens,
    contentIdle,
  };
}

function stats(span: TimelineSpan): Stats {
  const known = cache.get(span);
  if (known !== undefined) return known;
  // Iterative post-order over the uncached part of the subtree: a span is
  // computed once all its child spans and branches are.
  const spans: TimelineSpan[] = [span];
  const next: number[] = [0];
  while (spans.length > 0) {
    const top = spans.length - 1;
    const current = spans[top]!;
    const content = current.content;
    let i = next[top]!;
    let pushed = false;
    // Positions [0, content.length) are content, then branches.
    const total = content.length + current.branches.length;
    while (i < total) {
      const item = i < content.length ? content[i]! : current.branches[i - content.length]!;
      i++;
      if (item.type === 'span' && !cache.has(item)) {
        next[top] = i;
        spans.push(item);
        next.push(0);
        pushed = true;
        break;
      }
    }
    if (pushed) continue;
    spans.pop();
    next.pop();
    // A span reachable twice (shared object) is computed once.
    if (!cache.has(current)) cache.set(current, computeOne(current));
  }
  return cache.get(span)!;
}

/**
 * The earliest start (epoch ms) over a span's content (and branches).
 * An empty span gives `+Infinity`, the analogue of inspect's `datetime.max`
 * sentinel (research §3.1); check with `Number.isFinite`.
 *
 * @example
 * declare const timeline: Timeline;
 * new Date(spanStartTime(timeline.root)).toISOString();
 */
export function spanStartTime(span: TimelineSpan, options?: SpanMetricOptions): number {
  const s = stats(span);
  return options?.includeBranches === false ? s.contentStart : s.start;
}

/**
 * The latest end (epoch ms) over a span's content (and branches): model and
 * tool events end at `completed`, others at their start. An empty span gives
 * `-Infinity` (inspect's `datetime.min` sentinel).
 *
 * @example
 * declare const span: TimelineSpan;
 * const durationMs = spanEndTime(span) - spanStartTime(span);
 */
export function spanEndTime(span: TimelineSpan, options?: SpanMetricOptions): number {
  const s = stats(span);
  return options?.includeBranches === false ? s.contentEnd : s.end;
}

/**
 * Total tokens of a span: over every ModelEvent below it, input + cache read
 * + cache write + output. Utility spans count toward their parent.
 *
 * @example
 * declare const timeline: Timeline;
 * spanTotalTokens(timeline.root); // includes init, scoring and branches
 * spanTotalTokens(timeline.root, { includeBranches: false });
 */
export function spanTotalTokens(span: TimelineSpan, options?: SpanMetricOptions): number {
  const s = stats(span);
  return options?.includeBranches === false ? s.contentTokens : s.tokens;
}

/**
 * Idle time of a span in **milliseconds** (inspect returns seconds): the
 * children's own idle time plus every gap longer than 5 minutes between
 * consecutive children (research §3.4, quirks included).
 *
 * @example
 * declare const timeline: Timeline;
 * const idleMinutes = spanIdleTime(timeline.root) / 60_000;
 */
export function spanIdleTime(span: TimelineSpan, options?: SpanMetricOptions): number {
  const s = stats(span);
  return options?.includeBranches === false ? s.contentIdle : s.idle;
}
