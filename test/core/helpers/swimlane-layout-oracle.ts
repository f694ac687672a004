// The swimlane layout as it was before it became lazy (issue 18): one eager
// pass that builds every bar and marker. Kept as the oracle of the
// differential tests (STYLE.md §14): the lazy layout must give the same rows,
// bars, markers and segments. Not library code.
import { eventTime } from '../../../src/core/events/event-time.js';
import { eventError, isFailedEvent } from '../../../src/core/events/outcome.js';
import { isEventKind } from '../../../src/core/events/types.js';
import type {
  AnchorEvent,
  CompactionEvent,
  Event,
  ModelEvent,
  ToolEvent,
} from '../../../src/core/events/types.js';
import type { Timeline, TimelineItem, TimelineSpan } from '../../../src/core/timeline/types.js';
import { createExtentCache, type SpanExtent } from '../../../src/core/swimlane/extent.js';
import { checkOption } from '../../../src/core/swimlane/options.js';
import {
  idleSegments,
  packLanes,
  type SwimlaneLayout,
  type SwimlaneLayoutOptions,
  type SwimlaneMarker,
  type SwimlaneMarkerKind,
  type SwimlaneRow,
  type SwimlaneBar,
} from '../../../src/core/swimlane/layout.js';

const DEFAULT_KINDS: readonly SwimlaneMarkerKind[] = ['error', 'compaction', 'branch'];
/** Generic branch names that say nothing (inspect's viewer, research §3.7). */
const GENERIC_BRANCH_NAMES = new Set(['', 'branch', 'trajectory']);

/** `12345` → `12,345`, locale-independent (a layout must not depend on the machine). */
function groupDigits(n: number): string {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function isErrorEvent(event: Event): boolean {
  // The one failure rule (events/outcome.ts): model and tool events with an
  // `error` (not ModelOutput.error, which inspect's viewer deliberately
  // ignores, §3.7), `error` events; a cancelled call is not marked.
  return isFailedEvent(event);
}

function errorLabel(event: Event): string {
  const message = eventError(event)?.message ?? 'unknown error';
  // `event.event` does not narrow the union (unknown kinds are strings too).
  if (event.event === 'tool') return `Error (${(event as ToolEvent).function}): ${message}`;
  if (event.event === 'model') return `Error (${(event as ModelEvent).model}): ${message}`;
  return `Error: ${message}`;
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
 * const layout = layoutSwimlane(buildTimeline(stream.toArray()), { showBranches: true });
 * layout.rows.map((row) => `${'  '.repeat(row.depth)}${row.label}`);
 */
export function layoutSwimlaneOracle(
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

  const segments = idleSegments(root, timeStart, timeEnd, idleThresholdMs);
  let idleMs = 0;
  for (const s of segments) if (s.idle) idleMs += s.timeEnd - s.timeStart;
  return { timeStart, timeEnd, rows, segments, idleMs };
}
