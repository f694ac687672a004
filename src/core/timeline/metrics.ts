// Past 600 lines: every metric reads the same per-span cache and scratch columns, filled by one iterative post-order pass.
/**
 * Timeline metrics as functions (inspect's `TimelineSpan.start_time`,
 * `end_time`, `total_tokens`, `idle_time`; inspect_ai's `event/_timeline.py`).
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

/** Gaps longer than this count as idle (inspect_ai's `event/_timeline.py`: 300 s). */
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

/**
 * Visits `root` and the sub-spans `enter` admits (through content, then
 * branches), each after all of its admitted child spans: an explicit stack,
 * because runs nest thousands of spans deep.
 */
function postOrder(
  root: TimelineSpan,
  enter: (span: TimelineSpan) => boolean,
  visit: (span: TimelineSpan) => void,
): void {
  const spans: TimelineSpan[] = [root];
  const next: number[] = [0];
  while (spans.length > 0) {
    const top = spans.length - 1;
    const current = spans[top]!;
    const content = current.content;
    // Positions [0, content.length) are content, then branches.
    const total = content.length + current.branches.length;
    let i = next[top]!;
    let pushed = false;
    while (i < total) {
      const item = i < content.length ? content[i]! : current.branches[i - content.length]!;
      i++;
      if (item.type === 'span' && enter(item)) {
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
    visit(current);
  }
}

function stats(span: TimelineSpan): Stats {
  const known = cache.get(span);
  if (known !== undefined) return known;
  // Post-order over the uncached part of the subtree: a span is computed
  // once all its child spans and branches are.
  postOrder(
    span,
    (item) => !cache.has(item),
    (current) => {
      // A span reachable twice (shared object) is computed once.
      if (!cache.has(current)) cache.set(current, computeOne(current));
    },
  );
  return cache.get(span)!;
}

// --- Times and tokens without idle time, for a layout pass ------------------
//
// A layout needs every bar's start and end before its first paint (and a
// drawn bar's tokens), but not idle time. Filling the metrics cache for that
// costs a WeakMap entry and a record per span, and the root's idle time
// needs every span's (hundreds of ms at 100k spans), so these have
// their own path: a leaf span (events only, no branches: most spans of a big
// run) is read straight from its events and never cached; only spans with
// child spans or branches are, in `timesCache`, with times and tokens from
// one post-order pass. The values are the ones `stats` gives (the same
// min/max folds and sums, in the same order).

interface Times {
  start: number;
  end: number;
  contentStart: number;
  contentEnd: number;
  tokens: number;
  contentTokens: number;
  /**
   * Start and end of each content item (a child span with its branches), so
   * a layout reading a node's children after its times needs no second pass
   * over their events.
   */
  itemStarts: Float64Array;
  itemEnds: Float64Array;
  /**
   * 1 where the content item is an event or a leaf span (no child spans, no
   * branches), 0 for a span with child spans or branches: a layout skips
   * the leaves' subtrees without a second look at each of them.
   */
  itemLeaf: Uint8Array;
}

const timesCache = new WeakMap<TimelineSpan, Times>();

/** Scratch result of {@link leafTimes}. */
let leafStart = 0;
let leafEnd = 0;

/**
 * An upper bound of the longest gap in the union of a big leaf's event
 * intervals (ms), noted by the pass that reads its times: exact when its
 * events are in start order, larger when a late-listed event fills an
 * earlier gap (never smaller: adding an interval inside the hull only
 * shrinks gaps). A swimlane's idle gaps need no second read of a leaf whose
 * bound is under their threshold (that read was most of the
 * viewer's layout). Small leaves (a fan-out's 100k sub-agents) are not
 * noted: they are read whole anyway.
 */
const leafGaps = new WeakMap<TimelineSpan, number>();
const LEAF_GAP_MIN_EVENTS = 16;

/** Running state of the bound noted in {@link leafGaps}, per leaf pass. */
let gapFirst = 0;
let gapReach = 0;
let gapMax = 0;

function gapBegin(): void {
  gapFirst = Number.POSITIVE_INFINITY;
  gapReach = Number.NEGATIVE_INFINITY;
  gapMax = 0;
}

/** Folds one event `[s, e]` (content order) into the running bound. */
function gapStep(s: number, e: number): void {
  // The idle gaps skip an event without a start, where the leaf's end may
  // count its `completed`: its hull is not its events' union then.
  if (!Number.isFinite(s)) {
    if (Number.isFinite(e)) gapMax = Number.POSITIVE_INFINITY;
    return;
  }
  const end = e > s ? e : s;
  if (gapReach !== Number.NEGATIVE_INFINITY) {
    // Past everything so far, or before it: a new gap at either end of the
    // hull (one inside the hull only shrinks the gaps already noted).
    if (s - gapReach > gapMax) gapMax = s - gapReach;
    if (gapFirst - end > gapMax) gapMax = gapFirst - end;
  }
  if (end > gapReach) gapReach = end;
  if (s < gapFirst) gapFirst = s;
}

/**
 * The longest gap between a leaf span's events (epoch ms of the union of
 * their `[start, end]`), when a pass over its times noted it: only for
 * leaves of 16 events or more; an upper bound when they are not in start order.
 * @internal
 * @example
 * import { knownLeafGap } from 'src/core/timeline/metrics.js';
 * declare const span: TimelineSpan;
 * (knownLeafGap(span) ?? Infinity) <= 300_000; // no gap over 5 minutes
 */
export function knownLeafGap(span: TimelineSpan): number | undefined {
  return leafGaps.get(span);
}

/**
 * The start and end of a leaf span's events into `leafStart`/`leafEnd`;
 * `false` (and nothing written) when the span has child spans or branches.
 */
function leafTimes(span: TimelineSpan): boolean {
  if (span.branches.length > 0) return false;
  const content = span.content;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  const noteGap = content.length >= LEAF_GAP_MIN_EVENTS && !leafGaps.has(span);
  if (noteGap) gapBegin();
  for (let i = 0; i < content.length; i++) {
    const item = content[i]!;
    if (item.type !== 'event') return false;
    const s = eventTime(item.event);
    const e = endOf(item.event, s);
    if (s < min) min = s;
    if (e > max) max = e;
    if (noteGap) gapStep(s, e);
  }
  if (noteGap) leafGaps.set(span, gapMax);
  leafStart = min;
  leafEnd = max;
  return true;
}

/** Scratch tokens of {@link leafTimesTokens}. */
let leafTokenSum = 0;

/**
 * {@link leafTimes} and {@link leafTokens} in one read of the events (a
 * fold over a fan-out run's 100k leaf children reads each once).
 */
function leafTimesTokens(span: TimelineSpan): boolean {
  if (span.branches.length > 0) return false;
  const content = span.content;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  let tokens = 0;
  const noteGap = content.length >= LEAF_GAP_MIN_EVENTS && !leafGaps.has(span);
  if (noteGap) gapBegin();
  for (let i = 0; i < content.length; i++) {
    const item = content[i]!;
    if (item.type !== 'event') return false;
    const event = item.event;
    const s = eventTime(event);
    const e = endOf(event, s);
    if (s < min) min = s;
    if (e > max) max = e;
    tokens += eventCountedTokens(event);
    if (noteGap) gapStep(s, e);
  }
  if (noteGap) leafGaps.set(span, gapMax);
  leafStart = min;
  leafEnd = max;
  leafTokenSum = tokens;
  return true;
}

/** A span with events only and no branches (read directly, never cached). */
function isLeaf(span: TimelineSpan): boolean {
  if (span.branches.length > 0) return false;
  const content = span.content;
  for (let i = 0; i < content.length; i++) if (content[i]!.type !== 'event') return false;
  return true;
}

/** Whether a span item's times are known without computing a subtree. */
function knownTimes(span: TimelineSpan): boolean {
  return timesCache.has(span) || cache.has(span);
}

/** The tokens of a leaf span (events only). */
function leafTokens(span: TimelineSpan): number {
  let tokens = 0;
  for (const item of span.content)
    if (item.type === 'event') tokens += eventCountedTokens(item.event);
  return tokens;
}

/**
 * Folds the items of `list` into `foldStart`/`foldEnd`/`foldTokens` (the
 * times of their spans all known or leaves).
 */
let foldStart = 0;
let foldEnd = 0;
let foldTokens = 0;
function foldTimes(
  list: readonly TimelineItem[],
  itemStarts: Float64Array | null,
  itemEnds: Float64Array | null,
  itemLeaf: Uint8Array | null,
): void {
  let min = foldStart;
  let max = foldEnd;
  let tokens = foldTokens;
  for (let i = 0; i < list.length; i++) {
    const item = list[i]!;
    let s: number;
    let e: number;
    let leaf = 1;
    if (item.type === 'event') {
      s = eventTime(item.event);
      e = endOf(item.event, s);
      tokens += eventCountedTokens(item.event);
    } else if (leafTimesTokens(item)) {
      // A leaf first: it is never in `timesCache`, and most spans of a big
      // run are leaves, so two WeakMap misses per span are saved on
      // mount. A leaf in the metrics cache has the same values.
      s = leafStart;
      e = leafEnd;
      tokens += leafTokenSum;
    } else {
      const st = (timesCache.get(item) ?? cache.get(item))!;
      s = st.start;
      e = st.end;
      tokens += st.tokens;
      leaf = 0;
    }
    if (itemStarts !== null) {
      itemStarts[i] = s;
      itemEnds![i] = e;
      itemLeaf![i] = leaf;
    }
    if (s < min) min = s;
    if (e > max) max = e;
  }
  foldStart = min;
  foldEnd = max;
  foldTokens = tokens;
}

/** The times of a span that is not a leaf, cached (post-order, as `stats`). */
function nodeTimes(span: TimelineSpan): Times {
  postOrder(
    span,
    // The leaf test first: it is cheaper than the two WeakMap misses.
    (item) => !isLeaf(item) && !knownTimes(item),
    (current) => {
      if (timesCache.has(current)) return;
      const content = current.content;
      foldStart = Number.POSITIVE_INFINITY;
      foldEnd = Number.NEGATIVE_INFINITY;
      foldTokens = 0;
      const itemStarts = new Float64Array(content.length);
      const itemEnds = new Float64Array(content.length);
      const itemLeaf = new Uint8Array(content.length);
      foldTimes(content, itemStarts, itemEnds, itemLeaf);
      const contentStart = foldStart;
      const contentEnd = foldEnd;
      const contentTokens = foldTokens;
      foldTimes(current.branches, null, null, null);
      timesCache.set(current, {
        start: foldStart,
        end: foldEnd,
        tokens: foldTokens,
        contentStart,
        contentEnd,
        contentTokens,
        itemStarts,
        itemEnds,
        itemLeaf,
      });
    },
  );
  return timesCache.get(span)!;
}

/**
 * Where {@link spanTimesInto} writes: the span's start and end (epoch ms).
 * @internal
 * @example
 * import { spanTimesInto, spanTimesOut } from 'src/core/timeline/metrics.js';
 * declare const span: TimelineSpan;
 * spanTimesInto(span, false);
 * const duration = spanTimesOut.end - spanTimesOut.start;
 */
export const spanTimesOut = { start: 0, end: 0 };

/**
 * A span's start and end, exactly {@link spanStartTime} and
 * {@link spanEndTime} (`includeBranches` as their option), written to
 * {@link spanTimesOut} — the allocation-free path for a layout that reads
 * every span of a run once: leaf spans are never cached, so reading 100k
 * of them costs one pass over their events and nothing else.
 * @internal
 * @example
 * import { spanTimesInto, spanTimesOut } from 'src/core/timeline/metrics.js';
 * declare const span: TimelineSpan;
 * spanTimesInto(span, true);
 * new Date(spanTimesOut.start).toISOString();
 */
export function spanTimesInto(span: TimelineSpan, includeBranches: boolean): void {
  const known = timesCache.get(span) ?? cache.get(span);
  if (known === undefined && leafTimes(span)) {
    spanTimesOut.start = leafStart;
    spanTimesOut.end = leafEnd;
    return;
  }
  const t = known ?? nodeTimes(span);
  spanTimesOut.start = includeBranches ? t.start : t.contentStart;
  spanTimesOut.end = includeBranches ? t.end : t.contentEnd;
}

/**
 * The times of a span's content items (epoch ms; a child span with its
 * branches, an event from its start to its end), or `null` for a leaf span
 * (events only, no branches), whose items are cheap to read directly. Filled
 * by the same pass as {@link spanTimesInto}. `itemLeaf[i]` is 1 when item
 * `i` is an event or a leaf span, 0 for a span with child spans or branches.
 * @internal
 * @example
 * import { spanItemTimes } from 'src/core/timeline/metrics.js';
 * declare const span: TimelineSpan;
 * const times = spanItemTimes(span); // { itemStarts, itemEnds, itemLeaf } | null
 */
export function spanItemTimes(span: TimelineSpan): {
  readonly itemStarts: Float64Array;
  readonly itemEnds: Float64Array;
  readonly itemLeaf: Uint8Array;
} | null {
  // A leaf is never in `timesCache`: test it first (a layout asks for
  // every span of a run, most of them leaves).
  if (isLeaf(span)) return null;
  return timesCache.get(span) ?? nodeTimes(span);
}

/**
 * A span's total tokens, exactly {@link spanTotalTokens}, through the same
 * path as {@link spanTimesInto} (no idle time, leaves uncached): a drawn
 * bar's tokens without a metrics pass over the rest of the run.
 * @internal
 * @example
 * import { spanTokensLight } from 'src/core/timeline/metrics.js';
 * declare const span: TimelineSpan;
 * spanTokensLight(span, false);
 */
export function spanTokensLight(span: TimelineSpan, includeBranches: boolean): number {
  const known = timesCache.get(span) ?? cache.get(span);
  if (known === undefined && leafTimes(span)) return leafTokens(span);
  const t = known ?? nodeTimes(span);
  return includeBranches ? t.tokens : t.contentTokens;
}

/**
 * A span's idle time (as {@link spanIdleTime}) if its metrics are already
 * computed, else `undefined`: for shortcuts that must not start a pass.
 * @internal
 * @example
 * import { knownSpanIdleTime } from 'src/core/timeline/metrics.js';
 * declare const span: TimelineSpan;
 * knownSpanIdleTime(span) === 0; // proves no gap over 5 minutes
 */
export function knownSpanIdleTime(span: TimelineSpan): number | undefined {
  return cache.get(span)?.idle;
}

/**
 * The earliest start (epoch ms) over a span's content (and branches).
 * An empty span gives `+Infinity`, the analogue of inspect's `datetime.max`
 * sentinel (inspect_ai's `event/_timeline.py`); check with `Number.isFinite`.
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
 * consecutive children (inspect_ai's `event/_timeline.py`, quirks included).
 *
 * @example
 * declare const timeline: Timeline;
 * const idleMinutes = spanIdleTime(timeline.root) / 60_000;
 */
export function spanIdleTime(span: TimelineSpan, options?: SpanMetricOptions): number {
  const s = stats(span);
  return options?.includeBranches === false ? s.contentIdle : s.idle;
}
