// What a span tree row shows, read from core's existing definitions: a span
// from `spanSummary` (the transcript's span headers use it too), an event
// from `describeEvent` (status, title, times) and `eventTotalTokens` (the
// timeline's token rule). Nothing here decides whether something failed.
// Shared by <SpanTree> and the text tree (`renderSpanTreeText`, `skein tree`).
import { describeEvent } from '../display/describe-event.js';
import type { EventDisplay } from '../display/types.js';
import { eventTime } from '../events/event-time.js';
import { eventEndTime, eventTotalTokens, isAbortedEvent } from '../events/outcome.js';
import type { Event } from '../events/types.js';
import { spanSummary } from '../transcript/rows.js';
import type { EventTree } from './event-tree.js';
import { VIEW_TURN, VIEW_TURNS, type SpanTreeView } from './outline.js';

/**
 * What one span tree row shows: name, detail, status, start, duration,
 * tokens, and the events and failures inside.
 *
 * @example
 * const view = buildSpanTreeView(tree);
 * const facts: RowFacts = rowFacts(view, 0, runExtent(view.tree), Date.now());
 */
export interface RowFacts {
  readonly name: string;
  readonly detail: string;
  readonly status: 'running' | 'ok' | 'error' | 'cancelled';
  /** Start, epoch ms (NaN when unknown). */
  readonly startMs: number;
  /** Duration, ms; for a running span the time elapsed until `now`. */
  readonly durationMs: number;
  readonly tokens: number;
  /** Events inside. */
  readonly events: number;
  /** Failures inside (for the "N failed" badge of a collapsed row). */
  readonly errors: number;
  /** A rolled-back turn's event or span: shown marked, left out of totals (core `isAbortedEvent`). */
  readonly aborted: boolean;
}

const described = new WeakMap<Event, EventDisplay>();
function describe(event: Event): EventDisplay {
  let d = described.get(event);
  if (d === undefined) {
    d = describeEvent(event, { maxSearchText: 0 });
    described.set(event, d);
  }
  return d;
}

/**
 * The run's time axis: first start to last known end, epoch ms. Read from
 * the top-level nodes only — each one's start, its end (or, while open, its
 * last node's time) — so it costs O(roots), not O(n), on every snapshot of a
 * live run. A child that outlives its parent's end is not seen (clamped).
 *
 * @example
 * const { start, end } = runExtent(buildEventTree(stream.latest()));
 */
export function runExtent(tree: EventTree): { start: number; end: number } {
  let start = Number.POSITIVE_INFINITY;
  let end = Number.NEGATIVE_INFINITY;
  const see = (t: number) => {
    if (!Number.isFinite(t)) return;
    if (t < start) start = t;
    if (t > end) end = t;
  };
  const { events, spanIndex, spans, subtreeEnd } = tree;
  for (let i = 0; i < tree.length; i = subtreeEnd[i]!) {
    see(eventTime(events[i]!));
    const s = spanIndex[i]!;
    const close = s >= 0 ? spans[s]!.end : null;
    if (close !== null) see(eventEndTime(close));
    else see(eventEndTime(events[subtreeEnd[i]! - 1]!));
  }
  if (!Number.isFinite(start)) return { start: 0, end: 0 };
  return { start, end };
}

function eventFacts(event: Event): RowFacts {
  const d = describe(event);
  const start = d.startTime;
  const end = eventEndTime(event);
  return {
    name: d.title || event.event,
    detail: d.subtitle,
    status: d.status,
    startMs: start,
    durationMs: Number.isFinite(end) && Number.isFinite(start) ? end - start : Number.NaN,
    tokens: eventTotalTokens(event),
    events: 0,
    // A rolled-back step does not count as a failure inside its parent.
    errors: d.status === 'error' && d.aborted !== true ? 1 : 0,
    aborted: d.aborted === true,
  };
}

/**
 * The facts of view node `v` (call for drawn rows only): a span's from
 * `spanSummary`, an event's from `describeEvent`, a turn's summed over its
 * events. `extent` and `now` give a running span its elapsed time.
 *
 * @example
 * const view = buildSpanTreeView(tree, { mode: 'outline' });
 * const { name, status, durationMs } = rowFacts(view, 0, runExtent(tree), Date.now());
 */
export function rowFacts(
  view: SpanTreeView,
  v: number,
  extent: { start: number; end: number },
  now: number,
): RowFacts {
  const tree = view.tree;
  const i = view.node[v]!;
  const type = view.type[v]!;
  if (type === VIEW_TURN || type === VIEW_TURNS) {
    // Sum over the group's members (its view subtree's event nodes).
    let tokens = 0;
    let errors = 0;
    let events = 0;
    let start = Number.POSITIVE_INFINITY;
    let end = Number.NEGATIVE_INFINITY;
    let running = false;
    for (let w = v + 1; w < view.subtreeEnd[v]!; w++) {
      if (view.type[w] !== 0) continue;
      const f = eventFacts(tree.events[view.node[w]!]!);
      events++;
      if (!f.aborted) tokens += f.tokens;
      errors += f.errors;
      if (f.status === 'running') running = true;
      if (Number.isFinite(f.startMs)) start = Math.min(start, f.startMs);
      if (Number.isFinite(f.startMs + f.durationMs)) end = Math.max(end, f.startMs + f.durationMs);
    }
    const model = describe(tree.events[i]!);
    const n = view.count[v]!;
    const first = view.ordinal[v]!;
    return {
      name: type === VIEW_TURNS ? `${n} turns` : `turn ${first}`,
      detail:
        type === VIEW_TURNS
          ? `turns ${first}–${first + n - 1}`
          : `${model.title}${n > 1 ? ` · ${n - 1} tool ${n - 1 === 1 ? 'call' : 'calls'}` : ''}`,
      status: running ? 'running' : errors > 0 ? 'error' : 'ok',
      startMs: Number.isFinite(start) ? start : Number.NaN,
      durationMs: Number.isFinite(end) && Number.isFinite(start) ? end - start : Number.NaN,
      tokens,
      events,
      errors,
      aborted: false,
    };
  }
  const s = tree.spanIndex[i]!;
  if (s < 0) return eventFacts(tree.events[i]!);
  const span = tree.spans[s]!;
  const summary = spanSummary(tree, i);
  const start = eventTime(span.begin);
  const duration =
    summary.status === 'running' ? Math.max(0, liveEnd(extent, now) - start) : summary.durationMs;
  return {
    name: span.name,
    detail: span.type !== null && span.type !== span.name ? span.type : '',
    status: summary.status,
    startMs: start,
    durationMs: duration,
    tokens: summary.tokens,
    events: summary.events,
    errors: summary.errors,
    aborted: isAbortedEvent(span.begin),
  };
}

/**
 * How long a run may be quiet and still count as live (ms).
 *
 * @example
 * const live = Date.now() - runExtent(tree).end <= LIVE_WINDOW_MS;
 */
export const LIVE_WINDOW_MS = 5 * 60_000;

/**
 * Where a running span ends for now: the clock while the run is live (its
 * last event within {@link LIVE_WINDOW_MS}), else the run's last known time —
 * a span left open in an old log must not show years of elapsed time.
 *
 * @example
 * const elapsed = liveEnd(runExtent(tree), Date.now()) - runExtent(tree).start;
 */
export function liveEnd(extent: { start: number; end: number }, now: number): number {
  return now - extent.end <= LIVE_WINDOW_MS ? Math.max(now, extent.end) : extent.end;
}
