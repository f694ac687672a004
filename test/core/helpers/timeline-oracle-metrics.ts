// The ORACLE for test/core/timeline-oracle.test.ts (STYLE §14): the span
// metrics as they were before the column-based rewrite (per-item objects,
// an unconditional sort, `completed` through the event-time WeakMap), kept
// verbatim (only import paths changed). Do not optimise this file.
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
import { eventCompletedTime, eventTime } from '../../../src/core/events/event-time.js';
import type { Event, ModelEvent } from '../../../src/core/events/types.js';
import type { TimelineItem, TimelineSpan } from '../../../src/core/timeline/types.js';

/** Gaps longer than this count as idle (research §3.4: 300 s). */
export const IDLE_THRESHOLD_MS = 300_000;

/**
 * Options of the span metrics.
 *
 * @example
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

/**
 * Tokens of one event: ModelEvents only, input + cache read + cache write +
 * output (not `usage.total_tokens`; reasoning is not added separately).
 *
 * @example
 * eventTotalTokens(modelEvent); // 16488
 */
export function eventTotalTokens(event: Event): number {
  if (event.event !== 'model') return 0;
  const usage = (event as ModelEvent).output?.usage;
  if (usage === undefined || usage === null) return 0;
  return (
    (usage.input_tokens ?? 0) +
    (usage.input_tokens_cache_read ?? 0) +
    (usage.input_tokens_cache_write ?? 0) +
    (usage.output_tokens ?? 0)
  );
}

/**
 * End time of one event (epoch ms): `completed` for model and tool events,
 * else its start. Sandbox and subtask `completed` is ignored, as inspect does.
 *
 * @example
 * eventEndTime(toolEvent) - eventTime(toolEvent); // duration in ms
 */
export function eventEndTime(event: Event): number {
  if (event.event === 'model' || event.event === 'tool') {
    const completed = eventCompletedTime(event);
    if (completed !== undefined) return completed;
  }
  return eventTime(event);
}

function itemStart(item: TimelineItem): number {
  return item.type === 'event' ? eventTime(item.event) : cache.get(item)!.start;
}
function itemEnd(item: TimelineItem): number {
  return item.type === 'event' ? eventEndTime(item.event) : cache.get(item)!.end;
}
function itemIdle(item: TimelineItem): number {
  return item.type === 'event' ? 0 : cache.get(item)!.idle;
}
function itemTokens(item: TimelineItem): number {
  return item.type === 'event' ? eventTotalTokens(item.event) : cache.get(item)!.tokens;
}

/**
 * inspect's `_compute_idle_time`: children's own idle time plus every gap
 * over the threshold — span start → first child, between consecutive
 * children sorted by start (quirk: `start[i] − end[i−1]`, the *previous*
 * child's end, not the running maximum), last child → span end; ≥ 0.
 * Items without a finite start (empty spans, missing timestamps) are skipped.
 */
function idleOf(items: readonly TimelineItem[], start: number, end: number): number {
  const timed: { start: number; end: number; idle: number }[] = [];
  for (const item of items) {
    const s = itemStart(item);
    if (!Number.isFinite(s)) continue;
    timed.push({ start: s, end: itemEnd(item), idle: itemIdle(item) });
  }
  if (timed.length === 0) return 0;
  timed.sort((a, b) => a.start - b.start);
  let idle = 0;
  for (const t of timed) idle += t.idle;
  const first = timed[0]!;
  if (first.start - start > IDLE_THRESHOLD_MS) idle += first.start - start;
  for (let i = 1; i < timed.length; i++) {
    const gap = timed[i]!.start - timed[i - 1]!.end;
    if (gap > IDLE_THRESHOLD_MS) idle += gap;
  }
  const gapEnd = end - timed[timed.length - 1]!.end;
  if (gapEnd > IDLE_THRESHOLD_MS) idle += gapEnd;
  return Math.max(0, idle);
}

function computeOne(span: TimelineSpan): Stats {
  let cStart = Number.POSITIVE_INFINITY;
  let cEnd = Number.NEGATIVE_INFINITY;
  let cTokens = 0;
  for (const item of span.content) {
    const s = itemStart(item);
    const e = itemEnd(item);
    if (s < cStart) cStart = s;
    if (e > cEnd) cEnd = e;
    cTokens += itemTokens(item);
  }
  let start = cStart;
  let end = cEnd;
  let tokens = cTokens;
  for (const b of span.branches) {
    const st = cache.get(b)!;
    if (st.start < start) start = st.start;
    if (st.end > end) end = st.end;
    tokens += st.tokens;
  }
  const contentIdle = idleOf(span.content, cStart, cEnd);
  const idle =
    span.branches.length === 0
      ? contentIdle
      : idleOf([...span.content, ...span.branches], start, end);
  return {
    start,
    end,
    tokens,
    idle,
    contentStart: cStart,
    contentEnd: cEnd,
    contentTokens: cTokens,
    contentIdle,
  };
}

function stats(span: TimelineSpan): Stats {
  const known = cache.get(span);
  if (known !== undefined) return known;
  // Iterative post-order over the uncached part of the subtree.
  const stack: { span: TimelineSpan; expanded: boolean }[] = [{ span, expanded: false }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (cache.has(top.span)) {
      stack.pop();
      continue;
    }
    if (!top.expanded) {
      top.expanded = true;
      for (const item of top.span.content)
        if (item.type === 'span' && !cache.has(item)) stack.push({ span: item, expanded: false });
      for (const b of top.span.branches)
        if (!cache.has(b)) stack.push({ span: b, expanded: false });
      continue;
    }
    stack.pop();
    cache.set(top.span, computeOne(top.span));
  }
  return cache.get(span)!;
}

/**
 * The earliest start (epoch ms) over a span's content (and branches).
 * An empty span gives `+Infinity`, the analogue of inspect's `datetime.max`
 * sentinel (research §3.1); check with `Number.isFinite`.
 *
 * @example
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
 * const idleMinutes = spanIdleTime(timeline.root) / 60_000;
 */
export function spanIdleTime(span: TimelineSpan, options?: SpanMetricOptions): number {
  const s = stats(span);
  return options?.includeBranches === false ? s.contentIdle : s.idle;
}
