/**
 * Swimlane layout: rows, bars and markers of a timeline in **time space**
 * (epoch ms), plus the idle gaps a scale may compress. Pure data; the SVG
 * renderers and the React `<Swimlane>` only draw it through a time scale
 * (STYLE.md §7, "Name the coordinate space").
 *
 * Rows follow inspect's viewer (`computeFlatSwimlaneRows`, research/inspect_ai.md
 * §3.7) rather than its ASCII renderer (§3.6): same-name spans share a row
 * while they run one after another, and parallel ones are packed into the
 * fewest numbered lanes (`explore 1`, `explore 2`), so every agent run stays
 * visible; children of all spans of a row are merged one level down.
 */
import { eventCompletedTime, eventTime } from '../events/event-time.js';
import type {
  AnchorEvent,
  CompactionEvent,
  ErrorEvent,
  Event,
  ModelEvent,
  ToolEvent,
} from '../events/types.js';
import type { Timeline, TimelineItem, TimelineSpan } from '../timeline/types.js';
import { IDLE_THRESHOLD_MS, spanIdleTime } from '../timeline/metrics.js';
import { createExtentCache, type SpanExtent } from './extent.js';
import { checkOption } from './options.js';

/**
 * The kinds of markers a swimlane shows (research §3.7): a failed model or
 * tool call (or an `error` event), a context compaction, and the fork point
 * of a branch.
 *
 * @example
 * const kinds: SwimlaneMarkerKind[] = ['error', 'compaction'];
 */
export type SwimlaneMarkerKind = 'error' | 'compaction' | 'branch';

/**
 * Options of {@link layoutSwimlane}.
 *
 * @example
 * layoutSwimlane(timeline, { showBranches: true, idleThresholdMs: 60_000 });
 */
export interface SwimlaneLayoutOptions {
  /** Show utility agents (helper model calls) as rows. Default `false`, as inspect's viewer. */
  readonly includeUtility?: boolean;
  /** Show each branch as a row under the span it forked from. Default `false`, as inspect's viewer. */
  readonly showBranches?: boolean;
  /** Marker kinds to collect. Default all three. */
  readonly markerKinds?: readonly SwimlaneMarkerKind[];
  /**
   * Where markers are collected from: a row's own events (`'direct'`, the
   * default, as inspect's viewer), also its child spans' events
   * (`'children'`), or the whole subtree (`'recursive'`).
   */
  readonly markerDepth?: 'direct' | 'children' | 'recursive';
  /**
   * Idle gaps longer than this (ms) become compressible segments. Default
   * 300 000 (5 minutes, inspect's idle threshold, research §3.4);
   * `Infinity` disables compression.
   */
  readonly idleThresholdMs?: number;
  /** Parallel spans closer than this (ms) count as overlapping. Default 100, as inspect. */
  readonly overlapToleranceMs?: number;
}

/**
 * One agent run drawn on a row.
 *
 * @example
 * const bar: SwimlaneBar = { spanId: 's1', name: 'explore', timeStart: 0, timeEnd: 5000, tokens: 1200, utility: false };
 */
export interface SwimlaneBar {
  readonly spanId: string;
  readonly name: string;
  readonly timeStart: number;
  readonly timeEnd: number;
  /** The span's tokens (its branches excluded). */
  readonly tokens: number;
  readonly utility: boolean;
}

/**
 * A point of interest on a row, at `time` (epoch ms).
 *
 * @example
 * const marker: SwimlaneMarker = { kind: 'compaction', time: 1_781_115_900_000, spanId: 's1', eventUuid: 'e9', label: 'Context compaction: 180,000 → 12,000 tokens' };
 */
export interface SwimlaneMarker {
  readonly kind: SwimlaneMarkerKind;
  readonly time: number;
  /** The span whose content (or branch list) holds it. */
  readonly spanId: string;
  /** The event it points at (error and compaction markers). */
  readonly eventUuid?: string;
  /** The branch's anchor id (branch markers). */
  readonly branchedFrom?: string | null;
  /** Short human text for a tooltip. */
  readonly label: string;
}

/**
 * One row of the swimlane.
 *
 * @example
 * for (const row of layout.rows) draw(row.label, row.depth, row.bars);
 */
export interface SwimlaneRow {
  /** Stable tree-path key (`main/explore-2/search`), for selection and React keys. */
  readonly key: string;
  /** What to print: the agent name, with a lane number when a group needs several lanes. */
  readonly label: string;
  /** The agent name shared by the row's spans (the display casing of the first one). */
  readonly name: string;
  /** 0 for the root, 1 for its children, … */
  readonly depth: number;
  readonly kind: 'root' | 'agent' | 'branch';
  /** 1-based lane number when the name group needed several lanes, else `null`. */
  readonly lane: number | null;
  /** Lanes of the row's name group (1 when its runs never overlap). */
  readonly laneCount: number;
  /** Runs on this row; they never overlap (beyond the overlap tolerance). */
  readonly bars: readonly SwimlaneBar[];
  /** Markers, sorted by time. */
  readonly markers: readonly SwimlaneMarker[];
  /** Sum of the bars' tokens. */
  readonly tokens: number;
  readonly timeStart: number;
  readonly timeEnd: number;
  /** Branch rows: the anchor id the branch forked from. */
  readonly branchedFrom?: string | null;
}

/**
 * A piece of the time axis. Consecutive segments tile
 * `[layout.timeStart, layout.timeEnd]`; `idle` ones are gaps without
 * activity longer than the threshold, which a scale may draw narrow.
 *
 * @example
 * const idle = layout.segments.filter((s: TimeSegment) => s.idle);
 */
export interface TimeSegment {
  readonly timeStart: number;
  readonly timeEnd: number;
  readonly idle: boolean;
}

/**
 * The result of {@link layoutSwimlane}: everything a renderer needs, in time
 * space.
 *
 * @example
 * const layout = layoutSwimlane(timeline);
 * const scale = createTimeScale({ segments: layout.segments, range: [160, 760] });
 */
export interface SwimlaneLayout {
  /** The view range (epoch ms): the envelope of every bar and marker. */
  readonly timeStart: number;
  readonly timeEnd: number;
  /** Rows in display order (pre-order, the root first). */
  readonly rows: readonly SwimlaneRow[];
  /** The compressed-time mapping: active and idle segments tiling the view range. */
  readonly segments: readonly TimeSegment[];
  /** Total idle time compressed away (ms). */
  readonly idleMs: number;
}

const DEFAULT_KINDS: readonly SwimlaneMarkerKind[] = ['error', 'compaction', 'branch'];
/** Generic branch names that say nothing (inspect's viewer, research §3.7). */
const GENERIC_BRANCH_NAMES = new Set(['', 'branch', 'trajectory']);

/** Lane packing result: lane index per input position, and the lane count. */
interface Packing {
  lanes: number[];
  count: number;
}

/**
 * Packs intervals (sorted by start) into the fewest lanes, first fit: a run
 * goes to the lowest-numbered lane whose last run ended `tolerance` ms before
 * it starts. First fit on start-sorted intervals is optimal for interval
 * graphs (the lane count equals the maximum number of runs in flight at
 * once). Two heaps make it O(n log n) instead of inspect's O(n · lanes): busy
 * lanes by end time, free lanes by index.
 * @internal
 * @example
 * packLanes([0, 1, 5], [4, 3, 6], 0); // { lanes: [0, 1, 0], count: 2 }
 */
export function packLanes(
  starts: readonly number[],
  ends: readonly number[],
  tolerance: number,
): Packing {
  const lanes: number[] = new Array<number>(starts.length);
  const busy: { end: number; lane: number }[] = [];
  const free: number[] = [];
  let count = 0;
  for (let i = 0; i < starts.length; i++) {
    const start = starts[i]!;
    while (busy.length > 0 && busy[0]!.end + tolerance <= start) {
      heapPush(free, heapPop(busy, (a, b) => a.end - b.end).lane, (a, b) => a - b);
    }
    const lane = free.length > 0 ? heapPop(free, (a, b) => a - b) : count++;
    lanes[i] = lane;
    heapPush(busy, { end: Math.max(ends[i]!, start), lane }, (a, b) => a.end - b.end);
  }
  return { lanes, count };
}

function heapPush<T>(heap: T[], value: T, compare: (a: T, b: T) => number): void {
  heap.push(value);
  let i = heap.length - 1;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (compare(heap[i]!, heap[parent]!) >= 0) break;
    [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
    i = parent;
  }
}

function heapPop<T>(heap: T[], compare: (a: T, b: T) => number): T {
  const top = heap[0]!;
  const last = heap.pop()!;
  if (heap.length > 0) {
    heap[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && compare(heap[l]!, heap[m]!) < 0) m = l;
      if (r < heap.length && compare(heap[r]!, heap[m]!) < 0) m = r;
      if (m === i) break;
      [heap[i], heap[m]] = [heap[m]!, heap[i]!];
      i = m;
    }
  }
  return top;
}

/** `12345` → `12,345`, locale-independent (a layout must not depend on the machine). */
function groupDigits(n: number): string {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function isErrorEvent(event: Event): boolean {
  // Model and tool events with `error` (not ModelOutput.error, which inspect's
  // viewer deliberately ignores, §3.7); skein adds `error` events, the
  // sample-level failure that ends a crashed run.
  if (event.event === 'model' || event.event === 'tool') return event.error != null;
  return event.event === 'error';
}

function errorLabel(event: Event): string {
  // `event.event` does not narrow the union (unknown kinds are strings too).
  if (event.event === 'tool') {
    const tool = event as ToolEvent;
    return `Error (${tool.function}): ${tool.error?.message ?? 'unknown error'}`;
  }
  if (event.event === 'model') {
    const model = event as ModelEvent;
    return `Error (${model.model}): ${model.error ?? 'unknown error'}`;
  }
  return `Error: ${(event as ErrorEvent).error?.message ?? 'unknown error'}`;
}

/** Strips a `:<span_id>` suffix that deterministic span-id providers add (research §3.3). */
function anchorKey(id: string): string {
  const colon = id.indexOf(':');
  return colon < 0 ? id : id.slice(0, colon);
}

/**
 * Computes the swimlane of a timeline in time space: rows per agent, bars,
 * markers, and the idle gaps a {@link createTimeScale} can compress. Utility
 * agents are hidden unless `includeUtility`; branches become rows with
 * `showBranches`. The result is plain data (no functions), safe to
 * serialize or send to a worker.
 *
 * @example
 * const layout = layoutSwimlane(buildTimeline(events), { showBranches: true });
 * layout.rows.map((row) => `${'  '.repeat(row.depth)}${row.label}`);
 */
export function layoutSwimlane(
  timeline: Timeline,
  options: SwimlaneLayoutOptions = {},
): SwimlaneLayout {
  const includeUtility = options.includeUtility ?? false;
  const showBranches = options.showBranches ?? false;
  const kinds = new Set(options.markerKinds ?? DEFAULT_KINDS);
  const wantErrors = kinds.has('error');
  const wantCompactions = kinds.has('compaction');
  const markerDepth = options.markerDepth ?? 'direct';
  const idleThresholdMs = checkOption(
    'idleThresholdMs',
    options.idleThresholdMs ?? 300_000,
    (n) => n >= 0,
    'a number ≥ 0 (Infinity disables compression)',
  );
  const tolerance = checkOption(
    'overlapToleranceMs',
    options.overlapToleranceMs ?? 100,
    (n) => n >= 0 && n < Infinity,
    'a finite number ≥ 0',
  );
  const extentOf = createExtentCache();
  const rows: SwimlaneRow[] = [];
  const root = timeline.root;

  const bar = (span: TimelineSpan, extent: SpanExtent): SwimlaneBar => ({
    spanId: span.id,
    name: span.name,
    timeStart: extent.timeStart,
    timeEnd: extent.timeEnd,
    tokens: extent.tokens,
    utility: span.utility,
  });

  const wantEventMarkers = wantErrors || wantCompactions;
  // Direct markers (the default) are collected during the scan that finds a
  // row's child spans, so each event is visited once.
  const inlineMarkers = markerDepth === 'direct';

  const eventMarker = (span: TimelineSpan, event: Event, out: SwimlaneMarker[]): void => {
    const kind = event.event;
    // The kind string first: most events are neither errors nor compactions.
    if (kind !== 'model' && kind !== 'tool' && kind !== 'error' && kind !== 'compaction') return;
    if (wantErrors && isErrorEvent(event)) {
      out.push({
        kind: 'error',
        time: eventTime(event),
        spanId: span.id,
        eventUuid: event.uuid,
        label: errorLabel(event),
      });
    } else if (wantCompactions && kind === 'compaction') {
      const compaction = event as CompactionEvent;
      const before = compaction.tokens_before == null ? '?' : groupDigits(compaction.tokens_before);
      const after = compaction.tokens_after == null ? '?' : groupDigits(compaction.tokens_after);
      out.push({
        kind: 'compaction',
        time: eventTime(event),
        spanId: span.id,
        eventUuid: event.uuid,
        label: `Context compaction: ${before} → ${after} tokens`,
      });
    }
  };

  const collectEventMarkers = (span: TimelineSpan, level: number, out: SwimlaneMarker[]): void => {
    for (const item of span.content) {
      if (item.type === 'event') eventMarker(span, item.event, out);
      else if (markerDepth === 'recursive' || (markerDepth === 'children' && level === 0)) {
        collectEventMarkers(item, level + 1, out);
      }
    }
  };

  /** The time of a branch's fork point: the parent's anchor event with its id, else the parent's start. */
  const forkTime = (parent: TimelineSpan, branch: TimelineSpan): number => {
    const from = branch.branchedFrom;
    if (from) {
      const key = anchorKey(from);
      for (const item of parent.content) {
        if (
          item.type === 'event' &&
          item.event.event === 'anchor' &&
          anchorKey((item.event as AnchorEvent).anchor_id) === key
        ) {
          return eventTime(item.event);
        }
      }
    }
    return extentOf(parent).timeStart;
  };

  const branchMarkers = (span: TimelineSpan, out: SwimlaneMarker[]): void => {
    if (kinds.has('branch')) {
      for (const branch of span.branches) {
        const extent = extentOf(branch);
        out.push({
          kind: 'branch',
          time: forkTime(span, branch),
          spanId: span.id,
          branchedFrom: branch.branchedFrom ?? null,
          label: `Branch ${branch.name || 'branch'} (${groupDigits(extent.tokensAll)} tokens)`,
        });
      }
    }
  };

  // Stable: markers at one time keep content order.
  const byTime = (a: SwimlaneMarker, b: SwimlaneMarker) => a.time - b.time;

  /** Markers of a row's spans; empty when `flatten` collects them inline. */
  const markersOf = (spans: readonly TimelineSpan[]): SwimlaneMarker[] => {
    const out: SwimlaneMarker[] = [];
    if (inlineMarkers) return out;
    for (const span of spans) {
      if (wantEventMarkers) collectEventMarkers(span, 0, out);
      branchMarkers(span, out);
    }
    return out.sort(byTime);
  };

  const visible = (item: TimelineItem): item is TimelineSpan =>
    item.type === 'span' &&
    (includeUtility || !item.utility) &&
    // An empty span has no place in time (inspect's builder drops them too).
    Number.isFinite(extentOf(item).timeStart);

  interface Entry {
    name: string;
    label: string;
    key: string;
    lane: number | null;
    laneCount: number;
    spans: TimelineSpan[];
    groupStart: number;
    timeStart: number;
    timeEnd: number;
  }

  const flatten = (
    nodes: readonly TimelineSpan[],
    parentDepth: number,
    parentKey: string,
    branchPrefix: string,
    /** The markers of the row `nodes` form, filled here when collected inline. */
    rowMarkers: SwimlaneMarker[],
  ): void => {
    const depth = parentDepth + 1;
    const groups = new Map<string, TimelineSpan[]>();
    const collect = inlineMarkers && wantEventMarkers;
    for (const node of nodes) {
      for (const item of node.content) {
        if (item.type === 'event') {
          if (collect) eventMarker(node, item.event, rowMarkers);
          continue;
        }
        if (!visible(item)) continue;
        const key = item.name.toLowerCase();
        const group = groups.get(key);
        if (group) group.push(item);
        else groups.set(key, [item]);
      }
      if (inlineMarkers) branchMarkers(node, rowMarkers);
    }
    if (inlineMarkers) rowMarkers.sort(byTime);

    const entries: Entry[] = [];
    for (const [lowerName, group] of groups) {
      const name = group[0]!.name;
      const sorted = [...group].sort(
        (a, b) =>
          extentOf(a).timeStart - extentOf(b).timeStart ||
          extentOf(a).timeEnd - extentOf(b).timeEnd,
      );
      const { lanes, count } = packLanes(
        sorted.map((s) => extentOf(s).timeStart),
        sorted.map((s) => extentOf(s).timeEnd),
        tolerance,
      );
      const perLane: TimelineSpan[][] = Array.from({ length: count }, () => []);
      sorted.forEach((s, i) => perLane[lanes[i]!]!.push(s));
      const groupStart = extentOf(sorted[0]!).timeStart;
      perLane.forEach((spans, lane) => {
        let timeEnd = -Infinity;
        for (const s of spans) timeEnd = Math.max(timeEnd, extentOf(s).timeEnd);
        entries.push({
          name,
          label: count > 1 ? `${name} ${lane + 1}` : name,
          key: count > 1 ? `${parentKey}/${lowerName}-${lane + 1}` : `${parentKey}/${lowerName}`,
          lane: count > 1 ? lane + 1 : null,
          laneCount: count,
          spans,
          groupStart,
          timeStart: extentOf(spans[0]!).timeStart,
          timeEnd,
        });
      });
    }
    // Group start keeps a name's lanes together, then lane order, then time.
    entries.sort(
      (a, b) =>
        a.groupStart - b.groupStart ||
        (a.lane ?? 0) - (b.lane ?? 0) ||
        a.timeStart - b.timeStart ||
        a.timeEnd - b.timeEnd,
    );

    for (const entry of entries) {
      const bars = entry.spans.map((s) => bar(s, extentOf(s)));
      const markers = markersOf(entry.spans);
      rows.push({
        key: entry.key,
        label: entry.label,
        name: entry.name,
        depth,
        kind: 'agent',
        lane: entry.lane,
        laneCount: entry.laneCount,
        bars,
        markers,
        tokens: bars.reduce((sum, b) => sum + b.tokens, 0),
        timeStart: entry.timeStart,
        timeEnd: entry.timeEnd,
      });
      flatten(entry.spans, depth, entry.key, branchPrefix, markers);
    }

    if (!showBranches) return;
    for (const node of nodes) {
      // Latest fork first, so connector lines from one parent never cross
      // (inspect's viewer, §3.7); equal forks keep their order.
      const ordered = node.branches
        .filter((b) => Number.isFinite(extentOf(b).timeStart))
        .map((branch) => ({ branch, fork: forkTime(node, branch) }))
        .sort((a, b) => b.fork - a.fork);
      ordered.forEach(({ branch }, i) => {
        const number = `${branchPrefix}${i + 1}`;
        const firstChild = branch.content.find(
          (item): item is TimelineSpan => item.type === 'span',
        );
        const label = !GENERIC_BRANCH_NAMES.has(branch.name.toLowerCase())
          ? branch.name
          : (firstChild?.name ?? `Branch ${number}`);
        const key = `${parentKey}/branch-${branch.branchedFrom ?? ''}-${i + 1}`;
        const extent = extentOf(branch);
        const markers = markersOf([branch]);
        rows.push({
          key,
          label,
          name: branch.name,
          depth,
          kind: 'branch',
          lane: null,
          laneCount: 1,
          bars: [bar(branch, extent)],
          markers,
          tokens: extent.tokens,
          timeStart: extent.timeStart,
          timeEnd: extent.timeEnd,
          branchedFrom: branch.branchedFrom ?? null,
        });
        flatten([branch], depth, key, `${number}.`, markers);
      });
    }
  };

  const rootMarkers = markersOf([root]);
  const rootExtent = extentOf(root);
  const rootKey = root.name.toLowerCase() || 'main';
  rows.push({
    key: rootKey,
    label: root.name || 'main',
    name: root.name || 'main',
    depth: 0,
    kind: 'root',
    lane: null,
    laneCount: 1,
    bars: Number.isFinite(rootExtent.timeStart) ? [bar(root, rootExtent)] : [],
    markers: rootMarkers,
    tokens: rootExtent.tokens,
    timeStart: rootExtent.timeStart,
    timeEnd: rootExtent.timeEnd,
  });
  flatten([root], 0, rootKey, '', rootMarkers);

  // The view range is the envelope of what is drawn.
  let timeStart = Infinity;
  let timeEnd = -Infinity;
  for (const row of rows) {
    for (const b of row.bars) {
      if (b.timeStart < timeStart) timeStart = b.timeStart;
      if (b.timeEnd > timeEnd) timeEnd = b.timeEnd;
    }
    for (const m of row.markers) {
      if (m.time < timeStart) timeStart = m.time;
      if (m.time > timeEnd) timeEnd = m.time;
    }
  }
  if (!(timeStart <= timeEnd)) {
    // Nothing to draw (an empty root): a zero-length range at 0 keeps scales finite.
    return {
      timeStart: 0,
      timeEnd: 0,
      rows,
      segments: [{ timeStart: 0, timeEnd: 0, idle: false }],
      idleMs: 0,
    };
  }

  const segments = idleSegments(root, extentOf, timeStart, timeEnd, idleThresholdMs);
  let idleMs = 0;
  for (const s of segments) if (s.idle) idleMs += s.timeEnd - s.timeStart;
  return { timeStart, timeEnd, rows, segments, idleMs };
}

/**
 * Splits `[timeStart, timeEnd]` into active and idle segments. Activity is
 * the union of every event's `[start, end]` in the run, branches included
 * (they are activity even when not drawn); a gap in it longer than the
 * threshold is idle (inspect's viewer `computeTimeMapping`, research §3.7,
 * with the 5-minute threshold of §3.4).
 *
 * A span whose events leave no gap over the threshold stands for all of
 * them as one interval (its extent is covered at both ends), so only spans
 * that may hold a gap are opened: those longer than the threshold with
 * inspect idle time (`spanIdleTime`, §3.4). inspect's gaps run from the
 * previous child's end, never shorter than the gap in the union, so zero
 * idle time proves there is none over 5 minutes. Most runs open no span at
 * all, and a run with gaps opens only the spans around them.
 */
function idleSegments(
  root: TimelineSpan,
  extentOf: (span: TimelineSpan) => SpanExtent,
  timeStart: number,
  timeEnd: number,
  threshold: number,
): TimeSegment[] {
  const whole: TimeSegment[] = [{ timeStart, timeEnd, idle: false }];
  if (!(threshold < timeEnd - timeStart)) return whole;

  // Coverage by a union of intervals depends only on the sorted starts and
  // the sorted ends, not on their pairing, so two native typed-array sorts
  // replace an index sort with a comparator.
  const startList: number[] = [];
  const endList: number[] = [];
  const add = (start: number, end: number) => {
    startList.push(Math.min(timeEnd, Math.max(timeStart, start)));
    endList.push(Math.min(timeEnd, Math.max(timeStart, start, end)));
  };
  const addSpan = (span: TimelineSpan) => {
    const { timeStartAll: start, timeEndAll: end } = extentOf(span);
    if (!Number.isFinite(start)) return; // empty
    if (end - start <= threshold || (threshold >= IDLE_THRESHOLD_MS && spanIdleTime(span) === 0)) {
      add(start, end);
    } else stack.push(span);
  };
  const stack: TimelineSpan[] = [];
  addSpan(root);
  while (stack.length > 0) {
    const span = stack.pop()!;
    for (const item of span.content) {
      if (item.type === 'span') {
        addSpan(item);
        continue;
      }
      const event = item.event;
      const start = eventTime(event);
      if (!Number.isFinite(start)) continue;
      // inspect's end time (§3.1): `completed` for model and tool events only.
      const completed =
        event.event === 'model' || event.event === 'tool' ? eventCompletedTime(event) : undefined;
      add(start, completed !== undefined && Number.isFinite(completed) ? completed : start);
    }
    for (const branch of span.branches) addSpan(branch);
  }
  const n = startList.length;
  if (n === 0) return whole;
  const starts = Float64Array.from(startList).sort();
  const ends = Float64Array.from(endList).sort();

  const segments: TimeSegment[] = [];
  let cursor = timeStart; // start of the current active segment
  let coverEnd = timeStart; // where coverage last dropped to zero
  let depth = 0;
  let j = 0;
  for (let i = 0; i < n; i++) {
    const start = starts[i]!;
    // Close every interval that ends before this one starts.
    while (j < n && ends[j]! < start) {
      depth--;
      if (depth === 0) coverEnd = ends[j]!;
      j++;
    }
    if (depth === 0 && start - coverEnd > threshold) {
      if (i > 0) segments.push({ timeStart: cursor, timeEnd: coverEnd, idle: false });
      segments.push({ timeStart: coverEnd, timeEnd: start, idle: true });
      cursor = start;
    }
    depth++;
  }
  const lastEnd = ends[n - 1]!;
  if (timeEnd - lastEnd > threshold) {
    segments.push({ timeStart: cursor, timeEnd: lastEnd, idle: false });
    segments.push({ timeStart: lastEnd, timeEnd, idle: true });
  } else {
    segments.push({ timeStart: cursor, timeEnd, idle: false });
  }
  return segments;
}
