// Past 600 lines: `layoutSwimlane` and the passes it runs over one row model (lane packing, bars, markers, idle gaps).
/**
 * Swimlane layout: rows, bars and markers of a timeline in **time space**
 * (epoch ms), plus the idle gaps a scale may compress. Pure data; the SVG
 * renderers and the React `<Swimlane>` only draw it through a time scale
 * (the two coordinate spaces are named apart).
 *
 * Rows follow inspect's viewer (`computeFlatSwimlaneRows` in
 * ts-mono) rather than its ASCII renderer (`event/_timeline_repr.py`): same-name spans share a row
 * while they run one after another, and parallel ones are packed into the
 * fewest numbered lanes (`explore 1`, `explore 2`), so every agent run stays
 * visible; children of all spans of a row are merged one level down.
 */
import { runNested } from '../nested.js';
import { deriveEventUuid } from '../events/uuid.js';
import { eventTime } from '../events/event-time.js';
import { eventEnd, eventError, isFailedEvent } from '../events/outcome.js';
import { isEventKind } from '../events/types.js';
import type {
  AnchorEvent,
  CompactionEvent,
  Event,
  ModelEvent,
  ToolEvent,
} from '../events/types.js';
import type { Timeline, TimelineSpan } from '../timeline/types.js';
import {
  IDLE_THRESHOLD_MS,
  knownLeafGap,
  knownSpanIdleTime,
  spanIdleTime,
  spanTimesInto,
  spanItemTimes,
  spanTimesOut,
  spanTokensLight,
} from '../timeline/metrics.js';
import { createExtentCache } from './extent.js';
import { checkOption } from './options.js';
import { insertionSort } from '../insertion-sort.js';

/**
 * The kinds of markers a swimlane shows (inspect's viewer, ts-mono `timeline/core.ts`): a failed model or
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
 * declare const timeline: Timeline;
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
   * 300 000 (5 minutes, inspect's idle threshold, inspect_ai's `event/_timeline.py`);
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
 * declare const layout: SwimlaneLayout;
 * declare function draw(label: string, depth: number, bars: readonly SwimlaneBar[]): void;
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
 * declare const layout: SwimlaneLayout;
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
 * declare const timeline: Timeline;
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
/** Generic branch names that say nothing (inspect's viewer, inspect's viewer, ts-mono `timeline/core.ts`). */
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
 * import { packLanes } from 'src/core/swimlane/layout.js';
 * packLanes([0, 1, 5], [4, 3, 6], 0); // { lanes: [0, 1, 0], count: 2 }
 */
export function packLanes(
  starts: ArrayLike<number>,
  ends: ArrayLike<number>,
  tolerance: number,
): Packing {
  const n = starts.length;
  const lanes: number[] = new Array<number>(n);
  // Numeric heaps of lane indexes (no object per run: a 100k-run group
  // packs without garbage). `laneEnd[lane]` keys the busy heap.
  const laneEnd = new Float64Array(n);
  const busy = new Int32Array(n);
  const free = new Int32Array(n);
  let busySize = 0;
  let freeSize = 0;
  let count = 0;
  for (let i = 0; i < n; i++) {
    const start = starts[i]!;
    while (busySize > 0 && laneEnd[busy[0]!]! + tolerance <= start) {
      const lane = busy[0]!;
      busySize = siftDown(busy, busySize, laneEnd);
      free[freeSize] = lane;
      siftUp(free, freeSize++, null);
    }
    let lane: number;
    if (freeSize > 0) {
      lane = free[0]!;
      freeSize = siftDown(free, freeSize, null);
    } else lane = count++;
    lanes[i] = lane;
    laneEnd[lane] = Math.max(ends[i]!, start);
    busy[busySize] = lane;
    siftUp(busy, busySize++, laneEnd);
  }
  return { lanes, count };
}

/** Heap order of lane indexes: by `key[lane]` then index, or by index when `key` is null. */
function before(a: number, b: number, key: Float64Array | null): boolean {
  if (key === null) return a < b;
  const d = key[a]! - key[b]!;
  return d < 0 || (d === 0 && a < b);
}

/** Moves the entry at `i` up to its place. */
function siftUp(heap: Int32Array, i: number, key: Float64Array | null): void {
  const value = heap[i]!;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (!before(value, heap[parent]!, key)) break;
    heap[i] = heap[parent]!;
    i = parent;
  }
  heap[i] = value;
}

/** Removes the top of a heap of `size` entries; returns the new size. */
function siftDown(heap: Int32Array, size: number, key: Float64Array | null): number {
  const last = heap[--size]!;
  let i = 0;
  for (;;) {
    const l = 2 * i + 1;
    if (l >= size) break;
    const r = l + 1;
    const m = r < size && before(heap[r]!, heap[l]!, key) ? r : l;
    if (!before(heap[m]!, last, key)) break;
    heap[i] = heap[m]!;
    i = m;
  }
  if (size > 0) heap[i] = last;
  return size;
}

/**
 * Positions `0..n-1` in start order, then end, then position (stable).
 * Content is usually nearly in time order (parallel agents start a few ms
 * apart), so an insertion sort does it in about one pass; past a budget of
 * moves (input far from sorted) it falls back to the engine's sort.
 * @internal
 * @example
 * import { startOrder } from 'src/core/swimlane/layout.js';
 * startOrder([5, 1, 1], [6, 3, 2]); // [2, 1, 0]
 */
export function startOrder(starts: readonly number[], ends: readonly number[]): number[] {
  const n = starts.length;
  const order = new Array<number>(n);
  for (let i = 0; i < n; i++) order[i] = i;
  const after = (a: number, b: number) => starts[a]! - starts[b]! || ends[a]! - ends[b]! || a - b;
  // `after` is a total order (positions differ), so the engine's sort of a
  // half-done insertion sort gives the same order.
  return insertionSort(order, n, after, 16 * n + 64) ? order : order.sort(after);
}

/** `12345` → `12,345`, locale-independent (a layout must not depend on the machine). */
function groupDigits(n: number): string {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function isErrorEvent(event: Event): boolean {
  // The one failure rule (events/outcome.ts): model and tool events with an
  // `error` (not ModelOutput.error, which inspect's viewer deliberately
  // ignores), `error` events; a cancelled call is not marked.
  return isFailedEvent(event);
}

function errorLabel(event: Event): string {
  const message = eventError(event)?.message ?? 'unknown error';
  // `event.event` does not narrow the union (unknown kinds are strings too).
  if (event.event === 'tool') return `Error (${(event as ToolEvent).function}): ${message}`;
  if (event.event === 'model') return `Error (${(event as ModelEvent).model}): ${message}`;
  return `Error: ${message}`;
}

/** Strips a `:<span_id>` suffix that deterministic span-id providers add (inspect_ai's `event/_timeline.py`). */
function anchorKey(id: string): string {
  const colon = id.indexOf(':');
  return colon < 0 ? id : id.slice(0, colon);
}

/**
 * Where a row's bars come from, kept beside the row so the windowed drawing
 * (visible.ts) reads times from typed arrays and builds bar objects only for
 * what it draws. Keyed by the row object: a hand-made or deserialized
 * layout has none and is read through `row.bars`.
 */
interface RowSource {
  readonly spans: readonly TimelineSpan[];
  /** Epoch ms of each span's start and end (content only), in bar order. */
  readonly starts: Float64Array;
  readonly ends: Float64Array;
  /** Bar objects made so far (holes until drawn). */
  readonly made: (SwimlaneBar | undefined)[];
}

const rowSources = new WeakMap<SwimlaneRow, RowSource>();

function makeBar(span: TimelineSpan, source: RowSource, i: number): SwimlaneBar {
  let made = source.made[i];
  if (made === undefined) {
    made = {
      spanId: span.id,
      name: span.name,
      timeStart: source.starts[i]!,
      timeEnd: source.ends[i]!,
      tokens: spanTokensLight(span, false),
      utility: span.utility,
    };
    source.made[i] = made;
  }
  return made;
}

/**
 * Bar `i` of a row, made on demand: drawing a window of a 100k-bar row
 * builds only the bars it shows (the same objects `row.bars` holds).
 * @internal
 * @example
 * import { rowBar } from 'src/core/swimlane/layout.js';
 * declare const row: SwimlaneRow;
 * rowBar(row, 0).spanId;
 */
export function rowBar(row: SwimlaneRow, i: number): SwimlaneBar {
  const source = rowSources.get(row);
  return source === undefined ? row.bars[i]! : makeBar(source.spans[i]!, source, i);
}

/**
 * A row's bar times (epoch ms, bar order) without building its bars, or
 * `null` for a row not made by {@link layoutSwimlane}.
 * @internal
 * @example
 * import { rowBarTimes } from 'src/core/swimlane/layout.js';
 * declare const row: SwimlaneRow;
 * const times = rowBarTimes(row); // { starts, ends } | null
 */
export function rowBarTimes(
  row: SwimlaneRow,
): { readonly starts: Float64Array; readonly ends: Float64Array } | null {
  return rowSources.get(row) ?? null;
}

/**
 * The spans a row's bars stand for (bar order), or `null` for a row not
 * made by {@link layoutSwimlane}.
 * @internal
 * @example
 * import { rowSpans } from 'src/core/swimlane/layout.js';
 * declare const row: SwimlaneRow;
 * rowSpans(row)?.length; // the row's bar count
 */
export function rowSpans(row: SwimlaneRow): readonly TimelineSpan[] | null {
  return rowSources.get(row)?.spans ?? null;
}

const CONTENT_ONLY = { includeBranches: false } as const;

/**
 * What a bar's tooltip says beyond its bar: the span's idle time (inspect's
 * metric, inspect_ai's `event/_timeline.py`, its branches excluded like its bar) and its status —
 * `running` while an event under it is pending, `error` when one failed
 * (the one failure rule, events/outcome.ts), else `ok`.
 *
 * @example
 * const details: SwimlaneBarDetails = { idleMs: 0, status: 'error', errors: 2 };
 */
export interface SwimlaneBarDetails {
  readonly idleMs: number;
  readonly status: 'running' | 'ok' | 'error';
  /** Failed events under the span (its branches excluded). */
  readonly errors: number;
}

const statusCache = new WeakMap<TimelineSpan, { running: boolean; errors: number }>();

/** Pending and failed events of a span's content, nested spans included (cached per span). */
function spanStatus(span: TimelineSpan): { running: boolean; errors: number } {
  return statusCache.get(span) ?? runNested(spanStatusStep, span);
}

type SpanStatus = { running: boolean; errors: number };

/** {@link spanStatus} as a `runNested` step: nested spans are yielded, not recursed into. */
function* spanStatusStep(span: TimelineSpan): Generator<[TimelineSpan], SpanStatus, SpanStatus> {
  let known = statusCache.get(span);
  if (known === undefined) {
    let running = false;
    let errors = 0;
    for (const item of span.content) {
      if (item.type === 'span') {
        const inner = statusCache.get(item) ?? (yield [item]);
        running ||= inner.running;
        errors += inner.errors;
      } else {
        if ((item.event as { pending?: unknown }).pending === true) running = true;
        if (isFailedEvent(item.event)) errors++;
      }
    }
    known = { running, errors };
    statusCache.set(span, known);
  }
  return known;
}

/**
 * The idle time and status of bar `index` of a row (for a tooltip), or
 * `null` for a row not made by {@link layoutSwimlane} (plain data). Read
 * when asked, cached per span: hovering a bar costs its subtree once.
 *
 * @example
 * declare const layout: SwimlaneLayout;
 * const details = swimlaneBarDetails(layout.rows[1]!, 0);
 * details?.status; // 'ok'
 */
export function swimlaneBarDetails(row: SwimlaneRow, index: number): SwimlaneBarDetails | null {
  const span = rowSources.get(row)?.spans[index];
  if (span === undefined) return null;
  const { running, errors } = spanStatus(span);
  return {
    idleMs: spanIdleTime(span, CONTENT_ONLY),
    status: running ? 'running' : errors > 0 ? 'error' : 'ok',
    errors,
  };
}

/** Row fields known when the row is placed; bars, markers and tokens come later. */
interface RowHead {
  key: string;
  label: string;
  name: string;
  depth: number;
  kind: SwimlaneRow['kind'];
  lane: number | null;
  laneCount: number;
  timeStart: number;
  timeEnd: number;
  branchedFrom?: string | null;
}

/**
 * Computes the swimlane of a timeline in time space: rows per agent, bars,
 * markers, and the idle gaps a {@link createTimeScale} can compress. Utility
 * agents are hidden unless `includeUtility`; branches become rows with
 * `showBranches`. The result is plain data (no functions), safe to
 * serialize or send to a worker.
 *
 * Lazy: placing the rows reads each span's cached extent once
 * (typed arrays, no objects per span); a row's `bars`, `markers` and
 * `tokens` are computed the first time they are read, and the windowed
 * drawing (`windowSwimlane`) makes only the bars it draws. So a 100k-span
 * run costs one pass over the spans before the first paint, and each row's
 * events are scanned for markers only once that row is on screen. The view
 * range is the envelope of the bars: every marker lies on its span's bar
 * (an event starts inside its span, a fork inside its parent).
 *
 * @example
 * const layout = layoutSwimlane(buildTimeline(stream.toArray()), { showBranches: true });
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
  const wantEventMarkers = wantErrors || wantCompactions;
  const wantBranches = kinds.has('branch');
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

  const eventMarker = (span: TimelineSpan, event: Event, out: SwimlaneMarker[]): void => {
    const kind = event.event;
    // The kind string first: most events are neither errors nor compactions
    // (an unknown kind may fail: events/outcome.ts).
    if (
      kind !== 'model' &&
      kind !== 'tool' &&
      kind !== 'error' &&
      kind !== 'compaction' &&
      isEventKind(kind)
    )
      return;
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

  // A `runNested` step: nested spans (`markerDepth: 'recursive'`) are
  // yielded, not recursed into.
  const collectEventMarkers = function* (
    span: TimelineSpan,
    level: number,
    out: SwimlaneMarker[],
  ): Generator<[TimelineSpan, number, SwimlaneMarker[]], void, void> {
    // Index loop: the visible rows of a 100k-span run scan every event once.
    const content = span.content;
    for (let i = 0; i < content.length; i++) {
      const item = content[i]!;
      if (item.type === 'event') eventMarker(span, item.event, out);
      else if (markerDepth === 'recursive' || (markerDepth === 'children' && level === 0)) {
        yield [item, level + 1, out];
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

  // Stable: markers at one time keep content order.
  const byTime = (a: SwimlaneMarker, b: SwimlaneMarker) => a.time - b.time;

  /** Markers of a row's spans, in content order then by time (read when the row is drawn). */
  const markersOf = (spans: readonly TimelineSpan[]): SwimlaneMarker[] => {
    const out: SwimlaneMarker[] = [];
    for (let k = 0; k < spans.length; k++) {
      const span = spans[k]!;
      if (wantEventMarkers) runNested(collectEventMarkers, span, 0, out);
      if (wantBranches && span.branches.length > 0) {
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
    }
    return out.sort(byTime);
  };

  /** A row whose bars, markers and tokens are computed on first read. */
  const addRow = (head: RowHead, source: RowSource): SwimlaneRow => {
    let bars: SwimlaneBar[] | undefined;
    let markers: SwimlaneMarker[] | undefined;
    let tokens: number | undefined;
    const { branchedFrom, ...fields } = head;
    // Own enumerable getters (not a class): JSON, structuredClone and
    // deep-equality see the same plain shape as before the layout was lazy.
    const row: SwimlaneRow = {
      key: fields.key,
      label: fields.label,
      name: fields.name,
      depth: fields.depth,
      kind: fields.kind,
      lane: fields.lane,
      laneCount: fields.laneCount,
      get bars() {
        return (bars ??= source.spans.map((span, i) => makeBar(span, source, i)));
      },
      get markers() {
        return (markers ??= markersOf(source.spans));
      },
      get tokens() {
        if (tokens === undefined) {
          tokens = 0;
          for (const span of source.spans) tokens += spanTokensLight(span, false);
        }
        return tokens;
      },
      timeStart: fields.timeStart,
      timeEnd: fields.timeEnd,
      ...(branchedFrom !== undefined ? { branchedFrom } : {}),
    };
    rowSources.set(row, source);
    rows.push(row);
    return row;
  };

  const sourceOf = (spans: readonly TimelineSpan[]): RowSource => {
    const starts = new Float64Array(spans.length);
    const ends = new Float64Array(spans.length);
    spans.forEach((span, i) => {
      spanTimesInto(span, false);
      starts[i] = spanTimesOut.start;
      ends[i] = spanTimesOut.end;
    });
    return { spans, starts, ends, made: new Array<SwimlaneBar | undefined>(spans.length) };
  };

  /** Same-name child spans of a row, with their times, in content order. */
  interface Group {
    name: string;
    spans: TimelineSpan[];
    starts: number[];
    ends: number[];
    /** Some span has child spans or branches (else no rows below its lanes). */
    nodes: boolean;
  }

  interface Entry {
    head: RowHead;
    groupStart: number;
    source: RowSource;
    nodes: boolean;
  }

  type FlattenCall = [
    nodes: readonly TimelineSpan[],
    parentDepth: number,
    parentKey: string,
    branchPrefix: string,
  ];
  // A generator run by `runNested`: each `yield` is a call to itself, so a
  // 100,000-deep span tree does not overflow the call stack.
  // A row's key is its parent's key and its name: a path, O(depth) long. Past
  // 200 characters the parent's part becomes its hash (`~` + 22 characters),
  // so keys stay short at any depth (a 100,000-deep run's paths would add up
  // to gigabytes) and still name the same row in every layout of a run.
  const keyUnder = (parentKey: string, part: string): string =>
    `${parentKey.length > 200 ? `~${deriveEventUuid(parentKey)}` : parentKey}/${part}`;

  const flatten = function* (
    nodes: readonly TimelineSpan[],
    parentDepth: number,
    parentKey: string,
    branchPrefix: string,
  ): Generator<FlattenCall, void, void> {
    const depth = parentDepth + 1;
    const groups = new Map<string, Group>();
    const byName = new Map<string, Group>();
    // Index loops: this scan visits every span of the run once.
    for (let k = 0; k < nodes.length; k++) {
      const node = nodes[k]!;
      // Null for a leaf (no child spans): nothing to place.
      const times = spanItemTimes(node);
      if (times === null) continue;
      const content = node.content;
      for (let c = 0; c < content.length; c++) {
        const item = content[c]!;
        if (item.type === 'event' || (item.utility && !includeUtility)) continue;
        let start: number;
        let end: number;
        if (item.branches.length === 0) {
          // Its times with branches are its content's: already in the parent's pass.
          start = times.itemStarts[c]!;
          end = times.itemEnds[c]!;
        } else {
          spanTimesInto(item, false);
          start = spanTimesOut.start;
          end = spanTimesOut.end;
        }
        // An empty span has no place in time (inspect's builder drops them too).
        if (!Number.isFinite(start)) continue;
        // By the name as written first: a big run repeats a few names, and
        // lower-casing each of 100k of them costs more than the lookup.
        let group = byName.get(item.name);
        if (group === undefined) {
          const key = item.name.toLowerCase();
          group = groups.get(key);
          if (group === undefined) {
            group = { name: item.name, spans: [], starts: [], ends: [], nodes: false };
            groups.set(key, group);
          }
          byName.set(item.name, group);
        }
        group.spans.push(item);
        group.starts.push(start);
        group.ends.push(end);
        if (times.itemLeaf[c] === 0) group.nodes = true;
      }
    }

    const entries: Entry[] = [];
    for (const [lowerName, group] of groups) {
      const { name, starts, ends } = group;
      const n = starts.length;
      const order = startOrder(starts, ends);
      const sortedStarts = new Float64Array(n);
      const sortedEnds = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        sortedStarts[i] = starts[order[i]!]!;
        sortedEnds[i] = ends[order[i]!]!;
      }
      const { lanes, count } = packLanes(sortedStarts, sortedEnds, tolerance);
      const perLane: number[][] = [];
      for (let lane = 0; lane < count; lane++) perLane.push([]);
      for (let i = 0; i < n; i++) perLane[lanes[i]!]!.push(i);
      const groupStart = sortedStarts[0]!;
      perLane.forEach((positions, lane) => {
        const m = positions.length;
        const spans: TimelineSpan[] = [];
        const laneStarts = new Float64Array(m);
        const laneEnds = new Float64Array(m);
        let timeEnd = -Infinity;
        for (let j = 0; j < m; j++) {
          const at = positions[j]!;
          spans.push(group.spans[order[at]!]!);
          laneStarts[j] = sortedStarts[at]!;
          laneEnds[j] = sortedEnds[at]!;
          if (laneEnds[j]! > timeEnd) timeEnd = laneEnds[j]!;
        }
        entries.push({
          head: {
            key: keyUnder(parentKey, count > 1 ? `${lowerName}-${lane + 1}` : lowerName),
            label: count > 1 ? `${name} ${lane + 1}` : name,
            name,
            depth,
            kind: 'agent',
            lane: count > 1 ? lane + 1 : null,
            laneCount: count,
            timeStart: laneStarts[0]!,
            timeEnd,
          },
          groupStart,
          source: { spans, starts: laneStarts, ends: laneEnds, made: new Array(m) },
          nodes: group.nodes,
        });
      });
    }
    // Group start keeps a name's lanes together, then lane order, then time.
    entries.sort(
      (a, b) =>
        a.groupStart - b.groupStart ||
        (a.head.lane ?? 0) - (b.head.lane ?? 0) ||
        a.head.timeStart - b.head.timeStart ||
        a.head.timeEnd - b.head.timeEnd,
    );

    for (const entry of entries) {
      addRow(entry.head, entry.source);
      // Leaf spans (events only, no branches) have no rows below them: a
      // fan-out run's 100k sub-agents are not visited a second time.
      if (entry.nodes) yield [entry.source.spans, depth, entry.head.key, branchPrefix];
    }

    if (!showBranches) return;
    for (const node of nodes) {
      if (node.branches.length === 0) continue;
      // Latest fork first, so connector lines from one parent never cross
      // (inspect's viewer); equal forks keep their order.
      const ordered = node.branches
        .filter((b) => Number.isFinite(extentOf(b).timeStart))
        .map((branch) => ({ branch, fork: forkTime(node, branch) }))
        .sort((a, b) => b.fork - a.fork);
      for (let i = 0; i < ordered.length; i++) {
        const { branch } = ordered[i]!;
        const number = `${branchPrefix}${i + 1}`;
        const firstChild = branch.content.find(
          (item): item is TimelineSpan => item.type === 'span',
        );
        const label = !GENERIC_BRANCH_NAMES.has(branch.name.toLowerCase())
          ? branch.name
          : (firstChild?.name ?? `Branch ${number}`);
        const key = keyUnder(parentKey, `branch-${branch.branchedFrom ?? ''}-${i + 1}`);
        const extent = extentOf(branch);
        addRow(
          {
            key,
            label,
            name: branch.name,
            depth,
            kind: 'branch',
            lane: null,
            laneCount: 1,
            timeStart: extent.timeStart,
            timeEnd: extent.timeEnd,
            branchedFrom: branch.branchedFrom ?? null,
          },
          sourceOf([branch]),
        );
        yield [[branch], depth, key, `${number}.`];
      }
    }
  };

  const rootExtent = extentOf(root);
  const rootKey = root.name.toLowerCase() || 'main';
  addRow(
    {
      key: rootKey,
      label: root.name || 'main',
      name: root.name || 'main',
      depth: 0,
      kind: 'root',
      lane: null,
      laneCount: 1,
      timeStart: rootExtent.timeStart,
      timeEnd: rootExtent.timeEnd,
    },
    sourceOf(Number.isFinite(rootExtent.timeStart) ? [root] : []),
  );
  runNested(flatten, [root], 0, rootKey, '');

  // The view range is the envelope of the bars (markers lie on them).
  let timeStart = Infinity;
  let timeEnd = -Infinity;
  for (const row of rows) {
    // A row's first bar starts first; its timeEnd is its bars' latest end.
    if (rowSources.get(row)!.starts.length === 0) continue;
    if (row.timeStart < timeStart) timeStart = row.timeStart;
    if (row.timeEnd > timeEnd) timeEnd = row.timeEnd;
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

  const segments = idleSegments(root, timeStart, timeEnd, idleThresholdMs);
  let idleMs = 0;
  for (const s of segments) if (s.idle) idleMs += s.timeEnd - s.timeStart;
  return { timeStart, timeEnd, rows, segments, idleMs };
}

/**
 * Splits `[timeStart, timeEnd]` into active and idle segments. Activity is
 * the union of every event's `[start, end]` in the run, branches included
 * (they are activity even when not drawn); a gap in it longer than the
 * threshold is idle (inspect's viewer `computeTimeMapping`, ts-mono
 * `timeline/core.ts`, with the 5-minute idle threshold of `_timeline.py`).
 *
 * A span whose events leave no gap over the threshold stands for all of
 * them as one interval (its extent is covered at both ends), so only spans
 * that may hold a gap are opened: those longer than the threshold, unless
 * their inspect idle time (`spanIdleTime`) is already known to be
 * zero. inspect's gaps run from the previous child's end, never shorter than
 * the gap in the union, so zero idle time proves there is none over 5
 * minutes. The proof is used only when known: computing it needs every
 * span's metrics, which costs more than opening the span (it dominated mount
 * time at 100k spans). Times come from `spanTimesInto`, which caches no leaf;
 * a big leaf whose longest gap, noted by that pass (`knownLeafGap`), is
 * under the threshold is not opened either.
 * @internal
 * @example
 * import { idleSegments } from 'src/core/swimlane/layout.js';
 * declare const timeline: Timeline;
 * idleSegments(timeline.root, 0, 1000, 300_000);
 */
export function idleSegments(
  root: TimelineSpan,
  timeStart: number,
  timeEnd: number,
  threshold: number,
): TimeSegment[] {
  const whole: TimeSegment[] = [{ timeStart, timeEnd, idle: false }];
  if (!(threshold < timeEnd - timeStart)) return whole;

  // Coverage by a union of intervals depends only on the starts and the
  // ends, not on their pairing: two growable typed buffers, no array of
  // boxed growth and no copy to sort (gapsByCells, else gapsBySweep).
  let startList = new Float64Array(256);
  let endList = new Float64Array(256);
  let n = 0;
  const add = (start: number, end: number) => {
    if (n === startList.length) {
      const grownStarts = new Float64Array(n * 2);
      const grownEnds = new Float64Array(n * 2);
      grownStarts.set(startList);
      grownEnds.set(endList);
      startList = grownStarts;
      endList = grownEnds;
    }
    startList[n] = Math.min(timeEnd, Math.max(timeStart, start));
    endList[n++] = Math.min(timeEnd, Math.max(timeStart, start, end));
  };
  const addSpan = (span: TimelineSpan, start: number, end: number) => {
    if (!Number.isFinite(start)) return; // empty
    // The idle-time proof only where the metrics are already known: computing
    // them for it would cost more than opening the span.
    if (
      end - start <= threshold ||
      (threshold >= IDLE_THRESHOLD_MS && knownSpanIdleTime(span) === 0) ||
      (knownLeafGap(span) ?? Infinity) <= threshold
    ) {
      add(start, end);
    } else stack.push(span);
  };
  const stack: TimelineSpan[] = [];
  const addSpanOf = (span: TimelineSpan) => {
    spanTimesInto(span, true);
    addSpan(span, spanTimesOut.start, spanTimesOut.end);
  };
  addSpanOf(root);
  while (stack.length > 0) {
    const span = stack.pop()!;
    const content = span.content;
    // A node's item times come from the pass that placed the rows.
    const times = spanItemTimes(span);
    for (let c = 0; c < content.length; c++) {
      const item = content[c]!;
      if (item.type === 'span') {
        if (times !== null) addSpan(item, times.itemStarts[c]!, times.itemEnds[c]!);
        else addSpanOf(item);
        continue;
      }
      const event = item.event;
      const start = eventTime(event);
      if (!Number.isFinite(start)) continue;
      // inspect's end time (events/outcome.ts): `completed` for model and tool events only.
      add(start, times !== null ? times.itemEnds[c]! : (eventEnd(event) ?? start));
    }
    for (const branch of span.branches) addSpanOf(branch);
  }
  if (n === 0) return whole;
  return (
    gapsByCells(startList, endList, n, timeStart, timeEnd, threshold) ??
    gapsBySweep(startList.subarray(0, n), endList.subarray(0, n), timeStart, timeEnd, threshold)
  );
}

/**
 * The idle segments of {@link idleSegments} without sorting the intervals:
 * the range is cut into cells a third of the threshold wide, and each
 * interval marks the cells it touches (a difference array). A gap over the
 * threshold spans more than three cells, so it holds a whole cell no
 * interval touches; around each run of untouched cells, the gap's exact
 * edges are the latest end in the cell before and the earliest start in the
 * cell after. O(intervals + cells), where two sorts of 300k times were most
 * of the viewer's longest task. `null` when the cells would
 * outnumber the intervals (a tiny threshold on a long run) or a time is NaN:
 * the sweep then gives the same result.
 */
function gapsByCells(
  starts: Float64Array,
  ends: Float64Array,
  n: number,
  timeStart: number,
  timeEnd: number,
  threshold: number,
): TimeSegment[] | null {
  const width = threshold / 3;
  const cells = Math.floor((timeEnd - timeStart) / width) + 1;
  if (!(width > 0) || !(cells <= 4 * n + 4096)) return null;
  const cover = new Int32Array(cells + 1);
  const firstStart = new Float64Array(cells).fill(Infinity);
  const lastEnd = new Float64Array(cells).fill(-Infinity);
  let maxEnd = -Infinity;
  for (let i = 0; i < n; i++) {
    const start = starts[i]!;
    const end = ends[i]!;
    if (start !== start || end !== end) return null; // NaN: the sweep's order
    // Clamped to the range already, so both cells are in [0, cells).
    const a = Math.floor((start - timeStart) / width);
    const b = Math.floor((end - timeStart) / width);
    cover[a]!++;
    cover[b + 1]!--;
    if (start < firstStart[a]!) firstStart[a] = start;
    if (end > lastEnd[b]!) lastEnd[b] = end;
    if (end > maxEnd) maxEnd = end;
  }
  const segments: TimeSegment[] = [];
  let cursor = timeStart;
  let depth = 0;
  let from = -1; // first cell of the current untouched run
  for (let c = 0; c < cells; c++) {
    depth += cover[c]!;
    if (depth === 0) {
      if (from < 0) from = c;
      continue;
    }
    if (from < 0) continue;
    // Cell `from - 1` is touched and cell `from` is not, so an interval ends
    // in it (the latest end before the run); likewise one starts in cell `c`.
    const gapStart = from === 0 ? timeStart : lastEnd[from - 1]!;
    const gapEnd = firstStart[c]!;
    if (gapEnd - gapStart > threshold) {
      if (from > 0) segments.push({ timeStart: cursor, timeEnd: gapStart, idle: false });
      segments.push({ timeStart: gapStart, timeEnd: gapEnd, idle: true });
      cursor = gapEnd;
    }
    from = -1;
  }
  // A run reaching the last cell is the tail: as the sweep, from the last end.
  if (timeEnd - maxEnd > threshold) {
    segments.push({ timeStart: cursor, timeEnd: maxEnd, idle: false });
    segments.push({ timeStart: maxEnd, timeEnd, idle: true });
  } else {
    segments.push({ timeStart: cursor, timeEnd, idle: false });
  }
  return segments;
}

/** The idle segments of {@link idleSegments} by a sweep over the sorted starts and ends. */
function gapsBySweep(
  startList: Float64Array,
  endList: Float64Array,
  timeStart: number,
  timeEnd: number,
  threshold: number,
): TimeSegment[] {
  const n = startList.length;
  // Content is usually in time order already, or nearly (parallel agents
  // start a few ms apart): an insertion sort with a budget of moves does
  // that in about one pass, where a full sort of 100k times cost ~10 ms of
  // the mount; input far from sorted falls back to the engine's sort.
  const sorted = (out: Float64Array): Float64Array => {
    let budget = 16 * out.length + 64;
    if (out.length > 0 && out[0] !== out[0]) return out.sort();
    for (let i = 1; i < out.length; i++) {
      const value = out[i]!;
      let j = i - 1;
      if (value !== value) return out.sort(); // NaN: the engine's order
      if (!(value < out[j]!)) continue;
      while (j >= 0 && out[j]! > value) {
        out[j + 1] = out[j]!;
        j--;
        if (--budget < 0) {
          out[j + 1] = value;
          return out.sort();
        }
      }
      out[j + 1] = value;
    }
    return out;
  };
  const starts = sorted(startList);
  const ends = sorted(endList);

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
