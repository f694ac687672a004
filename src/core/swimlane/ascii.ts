/**
 * The ASCII swimlane: inspect_ai's `Timeline.render()`
 * (`event/_timeline_repr.py`), character for character
 * (inspect_ai's `event/_timeline_repr.py`).
 *
 * Everything here follows the Python, including its quirks: rows group spans
 * by lower-cased name, only singleton clusters are recursed into, markers are
 * dropped on empty cells, the first marker on a cell wins, branch rows follow
 * their own labelling rules, and cells are placed with `int()` truncation for
 * starts but `int(x + 0.5)` for ends. Times are compared at microsecond
 * precision, as Python's `datetime` does; token counts are formatted with
 * Python's round-half-even. What differs is cost: span extents are computed
 * once (see extent.ts) and overlap clustering is O(1) per span, so a
 * million-event timeline renders in one linear pass.
 */
import { runNested } from '../nested.js';
import { cappedIndent } from '../indent.js';
import { eventTime } from '../events/event-time.js';
import type { Timeline, TimelineSpan } from '../timeline/types.js';
import { createExtentCache, type SpanExtent } from './extent.js';
import { checkOption } from './options.js';
import { formatTokens } from '../format.js';

/**
 * Options of {@link renderTimelineAscii}.
 *
 * @example
 * const options: AsciiSwimlaneOptions = { width: 100 };
 */
export interface AsciiSwimlaneOptions {
  /**
   * Total width in characters (default 120, as inspect). Lines come out
   * `width − 2` long: inspect budgets 4 separator characters but draws two.
   */
  readonly width?: number;
}

interface Row {
  depth: number;
  name: string;
  /** `[timeStart, timeEnd]` pairs, epoch ms. */
  segments: [number, number][];
  tokens: number;
  /** `[time, glyph]` pairs, applied in order (the first on a cell wins). */
  markers: [number, string][];
}

const CIRCLED_DIGITS = '⓪①②③④⑤⑥⑦⑧⑨';
const COMPACTION_GLYPH = '┊';
const FILLED = '█';
/** `_OVERLAP_TOLERANCE`: 100 ms, in microseconds (see {@link micros}). */
const OVERLAP_TOLERANCE_US = 100_000;

/**
 * A time difference in whole microseconds. Python's `datetime` holds
 * microseconds exactly while our epoch-ms doubles carry ~0.2 µs of noise at
 * today's epoch, so differences are rounded back before any comparison or
 * division; infinities (empty spans) pass through.
 */
function micros(deltaMs: number): number {
  return Math.round(deltaMs * 1000);
}

/** `timedelta.total_seconds()`: whole microseconds divided by 10⁶, as Python does. */
function totalSeconds(deltaMs: number): number {
  return micros(deltaMs) / 1e6;
}

/** `_count_glyph`: ⓪…⑨, else the last digit. */
function countGlyph(n: number): string {
  if (n >= 0 && n <= 9) return CIRCLED_DIGITS[n]!;
  const s = String(n);
  return s[s.length - 1]!;
}

/** `label` cut to `max` code points, its last one an ellipsis when cut. */
function fitLabel(label: string, max: number): string {
  if (codePointLength(label) <= max) return label;
  return `${Array.from(label)
    .slice(0, Math.max(0, max - 1))
    .join('')}…`;
}

/** Python's `len()`: code points, not UTF-16 units. */
function codePointLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** `_render_bar`: a string of exactly `width` cells. */
function renderBar(
  segments: readonly [number, number][],
  viewStart: number,
  viewEnd: number,
  width: number,
  markers: readonly [number, string][],
): string {
  if (width <= 0) return '';
  const totalDuration = totalSeconds(viewEnd - viewStart);
  // Degenerate case (everything at one instant): inspect fills the whole bar.
  if (!(totalDuration > 0)) return FILLED.repeat(width);

  const bar: string[] = new Array<string>(width).fill(' ');
  for (const [segStart, segEnd] of segments) {
    const startFrac = totalSeconds(segStart - viewStart) / totalDuration;
    const endFrac = totalSeconds(segEnd - viewStart) / totalDuration;
    // int() truncates toward zero (Math.trunc, not Math.floor); the end is
    // rounded half up by `int(x + 0.5)`, exactly as the Python writes it.
    const startPos = Math.max(0, Math.min(width - 1, Math.trunc(startFrac * width)));
    const endPos = Math.max(startPos + 1, Math.min(width, Math.trunc(endFrac * width + 0.5)));
    for (let i = startPos; i < Math.min(endPos, width); i++) bar[i] = FILLED;
  }
  for (const [time, glyph] of markers) {
    const frac = totalSeconds(time - viewStart) / totalDuration;
    const pos = Math.max(0, Math.min(width - 1, Math.trunc(frac * width)));
    // Markers only show on filled cells (inspect_ai's `event/_timeline_repr.py`).
    if (bar[pos] === FILLED) bar[pos] = glyph;
  }
  return bar.join('');
}

/** `_collect_markers`: a compaction marker per CompactionEvent in direct content. */
function collectMarkers(span: TimelineSpan, out: [number, string][] = []): [number, string][] {
  for (const item of span.content) {
    if (item.type === 'event' && item.event.event === 'compaction') {
      out.push([eventTime(item.event), COMPACTION_GLYPH]);
    }
  }
  return out;
}

function compareNumbers(a: number, b: number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * `_cluster_spans`: sort by start (stable), then a span joins the last cluster
 * if it overlaps any member, where two spans overlap when
 * `max(start) < min(end) + 100 ms`. Since the newcomer starts last, that is
 * `start < min(memberEnd, ownEnd) + 100 ms`, which holds for some member iff
 * it holds for the member with the latest end: one comparison per span.
 */
function clusterSpans(
  spans: readonly TimelineSpan[],
  extentOf: (span: TimelineSpan) => SpanExtent,
): TimelineSpan[][] {
  if (spans.length === 0) return [];
  const sorted = [...spans].sort((a, b) =>
    compareNumbers(extentOf(a).timeStartAll, extentOf(b).timeStartAll),
  );
  const first = sorted[0]!;
  const clusters: TimelineSpan[][] = [[first]];
  let clusterEnd = extentOf(first).timeEndAll;
  for (let i = 1; i < sorted.length; i++) {
    const span = sorted[i]!;
    const { timeStartAll: start, timeEndAll: end } = extentOf(span);
    if (micros(start - Math.min(clusterEnd, end)) < OVERLAP_TOLERANCE_US) {
      clusters[clusters.length - 1]!.push(span);
      if (end > clusterEnd) clusterEnd = end;
    } else {
      clusters.push([span]);
      clusterEnd = end;
    }
  }
  return clusters;
}

/**
 * A call of {@link rowsStep}: `_collect_rows` of a span (`flag`: include its
 * own row, 1 or 0) or `_emit_branch_rows` of a branch (`flag`: its index).
 */
type RowsCall = [
  kind: 'rows' | 'branch',
  span: TimelineSpan,
  depth: number,
  flag: number,
  extentOf: (span: TimelineSpan) => SpanExtent,
  rows: Row[],
];

/**
 * inspect's two mutually recursive row collectors as one `runNested` step:
 * each call they make to each other is yielded, so a 100,000-deep run does
 * not overflow the call stack.
 */
function* rowsStep(...call: RowsCall): Generator<RowsCall, void, void> {
  const [kind, span, depth, flag, extentOf, rows] = call;
  if (kind === 'rows') yield* collectRows(span, depth, extentOf, rows, flag === 1);
  else yield* emitBranchRows(span, flag, depth, extentOf, rows);
}

/** `_collect_rows`: the span's own row, then its child groups, then its branches. */
function* collectRows(
  span: TimelineSpan,
  depth: number,
  extentOf: (span: TimelineSpan) => SpanExtent,
  rows: Row[],
  includeOwnRow: boolean,
): Generator<RowsCall, void, void> {
  if (includeOwnRow) {
    const extent = extentOf(span);
    rows.push({
      depth,
      name: depth === 0 ? 'main' : span.name,
      segments: [[extent.timeStartAll, extent.timeEndAll]],
      tokens: extent.tokensAll,
      markers: collectMarkers(span),
    });
  }

  // Group non-utility child spans by lower-cased name, in first-seen order,
  // then order the groups (stably) by their earliest start.
  const groups = new Map<string, { spans: TimelineSpan[]; start: number }>();
  for (const item of span.content) {
    if (item.type !== 'span' || item.utility) continue;
    const key = item.name.toLowerCase();
    const start = extentOf(item).timeStartAll;
    const group = groups.get(key);
    if (group) {
      group.spans.push(item);
      if (start < group.start) group.start = start;
    } else {
      groups.set(key, { spans: [item], start });
    }
  }
  const ordered = [...groups.values()].sort((a, b) => compareNumbers(a.start, b.start));

  for (const { spans: group } of ordered) {
    const displayName = group[0]!.name;
    if (group.length === 1) {
      const child = group[0]!;
      const extent = extentOf(child);
      rows.push({
        depth: depth + 1,
        name: displayName,
        segments: [[extent.timeStartAll, extent.timeEndAll]],
        tokens: extent.tokensAll,
        markers: collectMarkers(child),
      });
      yield ['rows', child, depth + 1, 0, extentOf, rows];
      continue;
    }
    // Several spans with one name: one row, a segment per overlap cluster;
    // a parallel cluster is an envelope with a count glyph at its start.
    const clusters = clusterSpans(group, extentOf);
    const segments: [number, number][] = [];
    const markers: [number, string][] = [];
    let tokens = 0;
    for (const s of group) tokens += extentOf(s).tokensAll;
    for (const cluster of clusters) {
      for (const s of cluster) collectMarkers(s, markers);
      if (cluster.length === 1) {
        const extent = extentOf(cluster[0]!);
        segments.push([extent.timeStartAll, extent.timeEndAll]);
      } else {
        let envelopeStart = Infinity;
        let envelopeEnd = -Infinity;
        for (const s of cluster) {
          const extent = extentOf(s);
          if (extent.timeStartAll < envelopeStart) envelopeStart = extent.timeStartAll;
          if (extent.timeEndAll > envelopeEnd) envelopeEnd = extent.timeEndAll;
        }
        segments.push([envelopeStart, envelopeEnd]);
        markers.push([envelopeStart, countGlyph(cluster.length)]);
      }
    }
    rows.push({ depth: depth + 1, name: displayName, segments, tokens, markers });
    // Only singleton clusters are recursed into (a parallel envelope hides its children).
    for (const cluster of clusters) {
      if (cluster.length === 1) yield ['rows', cluster[0]!, depth + 1, 0, extentOf, rows];
    }
  }

  for (let index = 0; index < span.branches.length; index++)
    yield ['branch', span.branches[index]!, depth, index, extentOf, rows];
}

/** `_emit_branch_rows`: a `↳` row, then the branch's child rows, then nested branches. */
function* emitBranchRows(
  branch: TimelineSpan,
  index: number,
  depth: number,
  extentOf: (span: TimelineSpan) => SpanExtent,
  rows: Row[],
): Generator<RowsCall, void, void> {
  // The label counts utility spans too (inspect filters them only when recursing).
  const childSpans: TimelineSpan[] = [];
  for (const item of branch.content) if (item.type === 'span') childSpans.push(item);
  const label =
    childSpans.length === 1 ? `\u21b3 ${childSpans[0]!.name}` : `\u21b3 branch ${index + 1}`;
  const extent = extentOf(branch);
  rows.push({
    depth: depth + 1,
    name: label,
    segments: [[extent.timeStartAll, extent.timeEndAll]],
    tokens: extent.tokensAll,
    markers: collectMarkers(branch),
  });
  for (const child of childSpans) {
    if (child.utility) continue;
    // A lone child's own row is already the branch row.
    yield ['rows', child, depth + 1, childSpans.length !== 1 ? 1 : 0, extentOf, rows];
  }
  for (let i = 0; i < branch.branches.length; i++)
    yield ['branch', branch.branches[i]!, depth + 1, i, extentOf, rows];
}

/** Names longer than this many code points are cut (`…`): every row is padded to the widest. */
const MAX_NAME = 200;

/** A row's label: its name, indented by its depth (`cappedIndent`). */
function labelOf(row: Row): string {
  let name = row.name;
  if (name.length > MAX_NAME) {
    const points: string[] = [];
    for (const ch of name) {
      if (points.length > MAX_NAME) break;
      points.push(ch);
    }
    if (points.length > MAX_NAME) name = `${points.slice(0, MAX_NAME - 1).join('')}…`;
  }
  // Indented up to MAX_INDENT levels (inspect has no limit).
  return cappedIndent(row.depth, '  ') + name;
}

/**
 * Renders a timeline as inspect_ai's ASCII swimlane (`Timeline.render`),
 * character for character (inspect_ai's `event/_timeline_repr.py`): one row per agent
 * name (indented by depth), a proportional bar of `█` cells with `┊`
 * compaction markers and `⓪…⑨` parallel counts, `↳` rows for branches, and a
 * token column. Utility agents are hidden but counted in their parent's
 * tokens. A root without content renders as `main`.
 *
 * @example
 * renderTimelineAscii(buildTimeline(stream.toArray()), { width: 100 });
 * // main      │████████████████████████████████████████…│  134k
 * //   explore │        ③██████████████████              …│ 28.0k
 */
export function renderTimelineAscii(
  timeline: Timeline,
  options: AsciiSwimlaneOptions = {},
): string {
  // inspect takes any int (widths under the columns just clamp the bar to 4).
  const width = checkOption('width', options.width ?? 120, Number.isInteger, 'an integer');
  const root = timeline.root;
  if (root.content.length === 0) return 'main';

  const extentOf = createExtentCache();
  const { timeStartAll: viewStart, timeEndAll: viewEnd } = extentOf(root);
  const rows: Row[] = [];
  runNested(rowsStep, 'rows', root, 0, 1, extentOf, rows);

  const tokenWidth = 6; // " 48.5k"
  const separatorChars = 4; // inspect budgets " │" + "│ " but draws only the bars
  const minLabelWidth = 10; // len("  Explore") + 1
  let widest = 0;
  for (const row of rows) widest = Math.max(widest, codePointLength(labelOf(row)));
  // inspect sizes the label column to the widest label and clamps the bar to
  // 4 cells, so long names in a narrow terminal leave no timeline. Here the
  // labels give way instead: the bar keeps at least half of what the label
  // and bar share, and a label too long for the rest ends in "…". Where the
  // labels fit (the usual case) this is inspect's layout, unchanged.
  const shared = width - separatorChars - tokenWidth;
  const labelRoom = Math.max(Math.floor(shared / 2), Math.min(minLabelWidth, shared - 4));
  const labelColWidth = Math.min(Math.max(widest + 1, minLabelWidth), Math.max(2, labelRoom));
  const barWidth = Math.max(4, width - labelColWidth - separatorChars - tokenWidth);

  const lines: string[] = [];
  for (const row of rows) {
    const label = fitLabel(labelOf(row), labelColWidth - 1);
    const padded = label + ' '.repeat(Math.max(0, labelColWidth - codePointLength(label)));
    const bar = renderBar(row.segments, viewStart, viewEnd, barWidth, row.markers);
    const tokens = formatTokens(row.tokens);
    lines.push(`${padded}│${bar}│${' '.repeat(Math.max(0, tokenWidth - tokens.length))}${tokens}`);
  }
  return lines.join('\n');
}
