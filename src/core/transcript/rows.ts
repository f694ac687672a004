/**
 * The transcript's rows: the span tree's visible rows minus the
 * event kinds the filter hides, plus what a span header shows (duration,
 * tokens, status) computed for every span at once.
 *
 * Spans are structure, so the kind filter applies to the events inside them:
 * a span header stays even when every event under it is hidden.
 */
import { KNOWN_EVENT_KINDS } from '../events/types.js';
import { eventTime } from '../events/event-time.js';
import {
  eventEndTime,
  eventTotalTokens,
  isAbortedEvent,
  isFailedEvent,
} from '../events/outcome.js';
import { eventTreeNodeKey, eventTreeNodeUuid, type EventTree } from '../tree/event-tree.js';
import { eventTreeIndexOf } from '../tree/node-index.js';
import { rowOfNode, visibleRows } from '../tree/visible-rows.js';
import { OTHER_KIND, changedSince, kindCode, treeKinds } from '../tree/links.js';
import { markRowsContinued } from '../list/carry.js';
import { ChunkedColumn, float64Chunk, int32Chunk } from '../list/chunked.js';

/**
 * Kinds hidden by default, as inspect's transcript hides them (its "debug"
 * filter shows them): setup and state bookkeeping that drowns the story.
 *
 * @example
 * const filter = new Set(DEFAULT_HIDDEN_KINDS); // hide the same, then some
 */
export const DEFAULT_HIDDEN_KINDS: readonly string[] = Object.freeze([
  'sample_init',
  'sandbox',
  'state',
  'store',
]);

/**
 * Options of {@link buildTranscriptRows}.
 *
 * @example
 * buildTranscriptRows(tree, { collapsed: new Set(['agent-1']), hiddenKinds: new Set(['logger']) });
 */
export interface TranscriptRowsOptions {
  /** Keys (`eventTreeNodeKey`: span ids, step begin uuids, copies' keys) of collapsed sections. */
  collapsed?: ReadonlySet<string>;
  /** Event kinds not shown (default {@link DEFAULT_HIDDEN_KINDS}). */
  hiddenKinds?: ReadonlySet<string>;
}

/**
 * The rows a transcript draws, as columns: row `r` shows tree node `node[r]`
 * at indentation `depth[r]`. `hasChildren`/`expanded` are `1`/`0`.
 *
 * @example
 * const rows = buildTranscriptRows(tree);
 * declare function draw(event: Event): void;
 * for (let r = 0; r < rows.length; r++) draw(tree.events[rows.node[r]!]!);
 */
export interface TranscriptRows {
  readonly length: number;
  readonly node: Int32Array;
  readonly depth: Int32Array;
  readonly hasChildren: Uint8Array;
  readonly expanded: Uint8Array;
  /** Events the kind filter hides from the whole tree (collapsed or not). */
  readonly hiddenCount: number;
  /**
   * Hidden events per kind, for "12 sandbox, 3 store hidden": known kinds in
   * `KNOWN_EVENT_KINDS` order, then other kinds as first seen.
   */
  readonly hiddenByKind: ReadonlyMap<string, number>;
}

/**
 * The transcript rows of `tree`: `visibleRows(tree, collapsed)` without the
 * events of hidden kinds. Two linear passes; never mutates its inputs.
 *
 * @example
 * const collapsed = new Set(['span-init']); // keys of collapsed sections
 * const rows = buildTranscriptRows(tree, { collapsed });
 * `${rows.hiddenCount} events hidden`;
 */
export function buildTranscriptRows(
  tree: EventTree,
  options: TranscriptRowsOptions = {},
): TranscriptRows {
  const collapsed = options.collapsed ?? EMPTY;
  const hidden = options.hiddenKinds ?? DEFAULT_HIDDEN_SET;
  let built = rowsCache.get(tree);
  const hit = built?.find((b) => b.collapsed === collapsed && b.hidden === hidden);
  if (hit !== undefined) return hit.rows;
  // A live snapshot: go on from the rows of the last snapshot built with the
  // same options (the same Set objects), however many came between (a list
  // renders once per frame while its feed may publish more often).
  const matches = (b: BuiltRows) => b.collapsed === collapsed && b.hidden === hidden;
  const since = changedSince(tree, (before) => rowsCache.get(before)?.some(matches) === true);
  const old = since === undefined ? undefined : rowsCache.get(since.base)!.find(matches)!;
  const made =
    old !== undefined && old.perCode !== null
      ? continueTranscriptRows(tree, since!.base, since!.from, old, collapsed, hidden)
      : { rows: fullTranscriptRows(tree, collapsed, hidden), perCode: null };
  if (built === undefined) rowsCache.set(tree, (built = []));
  // A few option sets per tree (two views on one feed may differ).
  if (built.length >= 4) built.shift();
  built.push({
    collapsed,
    hidden,
    rows: made.rows,
    perCode: made.perCode ?? perCodeOf(tree, hidden),
  });
  return made.rows;
}

/** Rows built for a tree with some options, and its hidden events per kind code. */
interface BuiltRows {
  readonly collapsed: ReadonlySet<string>;
  readonly hidden: ReadonlySet<string>;
  readonly rows: TranscriptRows;
  /** Hidden events per kind code; `null` when an unknown kind is hidden (counted by name). */
  readonly perCode: Float64Array | null;
}
const rowsCache = new WeakMap<EventTree, BuiltRows[]>();

/** Codes of the `hidden` kinds (1 per hidden code), or `null` when an unknown kind is hidden. */
function hiddenCodes(hidden: ReadonlySet<string>): Uint8Array | null {
  const codes = new Uint8Array(256);
  for (const kind of hidden) {
    const code = kindCode(kind);
    if (code === OTHER_KIND) return null;
    codes[code] = 1;
  }
  return codes;
}

/** Adds `sign` × the hidden events among nodes `[from, to)` of `tree` to `perCode`. */
function countHidden(
  tree: EventTree,
  codes: Uint8Array,
  from: number,
  to: number,
  sign: number,
  perCode: Float64Array,
): void {
  const kinds = treeKinds(tree);
  const spanIndex = tree.spanIndex;
  for (let i = from; i < to; i++) {
    const code = kinds[i]!;
    if (codes[code] === 1 && spanIndex[i]! < 0) perCode[code] = perCode[code]! + sign;
  }
}

function perCodeOf(tree: EventTree, hidden: ReadonlySet<string>): Float64Array | null {
  const codes = hiddenCodes(hidden);
  if (codes === null) return null;
  const perCode = new Float64Array(256);
  if (hidden.size > 0) countHidden(tree, codes, 0, tree.length, 1, perCode);
  return perCode;
}

/**
 * {@link buildTranscriptRows} of a live snapshot from the rows of an
 * earlier snapshot `before`: rows of nodes before `from` (every
 * node before it unchanged since `before`, `changedSince`) are
 * copied (those nodes kept their place and kind), the walk resumes at
 * `from`, and the hidden counts are corrected by what changed from there.
 * O(rows copied) in typed-array copies plus O(nodes from `from` on).
 */
function continueTranscriptRows(
  tree: EventTree,
  before: EventTree,
  from: number,
  old: BuiltRows,
  collapsed: ReadonlySet<string>,
  hidden: ReadonlySet<string>,
): { rows: TranscriptRows; perCode: Float64Array } {
  const codes = hiddenCodes(hidden)!;
  const perCode = old.perCode!.slice();
  if (hidden.size > 0) {
    countHidden(before, codes, from, before.length, -1, perCode);
    countHidden(tree, codes, from, tree.length, 1, perCode);
  }
  const prev = old.rows;
  // Rows keep pre-order: those showing nodes before `from` come first.
  let keep = 0;
  for (let hi = prev.length; keep < hi;) {
    const mid = (keep + hi) >>> 1;
    if (prev.node[mid]! < from) keep = mid + 1;
    else hi = mid;
  }
  const { depth, spanIndex, subtreeEnd, parentIndex } = tree;
  const kinds = treeKinds(tree);
  const n = tree.length;
  // Resume after the outermost collapsed ancestor of `from`, if any.
  let i = from;
  if (collapsed.size > 0) {
    for (let a = from < n ? parentIndex[from]! : -1; a !== -1; a = parentIndex[a]!) {
      if (collapsed.has(eventTreeNodeKey(tree, a))) i = subtreeEnd[a]!;
    }
  }
  const tailNode: number[] = [];
  const tailFlags: number[] = [];
  while (i < n) {
    if (spanIndex[i]! < 0) {
      if (codes[kinds[i]!] !== 1) {
        tailNode.push(i);
        tailFlags.push(0);
      }
      i++;
      continue;
    }
    const end = subtreeEnd[i]!;
    tailNode.push(i);
    if (end > i + 1 && collapsed.size > 0 && collapsed.has(eventTreeNodeKey(tree, i))) {
      tailFlags.push(1);
      i = end;
      continue;
    }
    tailFlags.push(end > i + 1 ? 3 : 0);
    i++;
  }
  const length = keep + tailNode.length;
  const node = new Int32Array(length);
  const rowDepth = new Int32Array(length);
  const hasChildren = new Uint8Array(length);
  const expanded = new Uint8Array(length);
  node.set(prev.node.subarray(0, keep));
  rowDepth.set(prev.depth.subarray(0, keep));
  hasChildren.set(prev.hasChildren.subarray(0, keep));
  expanded.set(prev.expanded.subarray(0, keep));
  for (let k = 0; k < tailNode.length; k++) {
    const r = keep + k;
    const at = tailNode[k]!;
    const flags = tailFlags[k]!;
    node[r] = at;
    rowDepth[r] = depth[at]!;
    hasChildren[r] = flags & 1;
    expanded[r] = flags >> 1;
  }
  let hiddenCount = 0;
  const hiddenByKind = new Map<string, number>();
  for (let code = 0; code < OTHER_KIND; code++) {
    const c = perCode[code]!;
    if (c > 0) {
      hiddenByKind.set(KNOWN_EVENT_KINDS[code]!, c);
      hiddenCount += c;
    }
  }
  const rows: TranscriptRows = Object.freeze({
    length,
    node,
    depth: rowDepth,
    hasChildren,
    expanded,
    hiddenCount,
    hiddenByKind,
  });
  markRowsContinued(rows, prev, keep);
  return { rows, perCode };
}

/** {@link buildTranscriptRows} from scratch (the oracle of the live path). */
function fullTranscriptRows(
  tree: EventTree,
  collapsed: ReadonlySet<string>,
  hidden: ReadonlySet<string>,
): TranscriptRows {
  const visible = visibleRows(tree, collapsed);
  const events = tree.events;
  const spanIndex = tree.spanIndex;

  // Filter by kind code (one byte per node, from the tree builder), not by
  // reading every event's `event` field: a live tree is rebuilt for every
  // batch, and touching a million events each time was most of the cost.
  const kinds = treeKinds(tree);
  const hiddenCode = new Uint8Array(256);
  let hideOther = false;
  for (const kind of hidden) {
    const code = kindCode(kind);
    if (code === OTHER_KIND) hideOther = true;
    else hiddenCode[code] = 1;
  }
  const isHidden = (i: number): boolean => {
    const code = kinds[i]!;
    if (code !== OTHER_KIND) return hiddenCode[code] === 1;
    return hideOther && hidden.has(events[i]!.event);
  };

  const hiddenByKind = new Map<string, number>();
  let hiddenCount = 0;
  if (hidden.size > 0) {
    const perCode = new Float64Array(256);
    const others = new Map<string, number>();
    for (let i = 0; i < tree.length; i++) {
      if (spanIndex[i]! >= 0 || !isHidden(i)) continue;
      hiddenCount++;
      const code = kinds[i]!;
      if (code !== OTHER_KIND) perCode[code]!++;
      else {
        const kind = events[i]!.event;
        others.set(kind, (others.get(kind) ?? 0) + 1);
      }
    }
    // Known kinds in their catalogue order, then the others as first seen.
    for (let code = 0; code < OTHER_KIND; code++) {
      if (perCode[code]! > 0) hiddenByKind.set(KNOWN_EVENT_KINDS[code]!, perCode[code]!);
    }
    for (const [kind, count] of others) hiddenByKind.set(kind, count);
  }

  const n = visible.length;
  let keep = n;
  let keepRow: Uint8Array | null = null;
  if (hiddenCount > 0) {
    keepRow = new Uint8Array(n);
    keep = 0;
    for (let r = 0; r < n; r++) {
      const i = visible.node[r]!;
      if (spanIndex[i]! < 0 && isHidden(i)) continue;
      keepRow[r] = 1;
      keep++;
    }
  }
  const node = new Int32Array(keep);
  const depth = new Int32Array(keep);
  const hasChildren = new Uint8Array(keep);
  const expanded = new Uint8Array(keep);
  let out = 0;
  for (let r = 0; r < n; r++) {
    if (keepRow !== null && keepRow[r] === 0) continue;
    node[out] = visible.node[r]!;
    depth[out] = visible.depth[r]!;
    hasChildren[out] = visible.hasChildren[r]!;
    expanded[out] = visible.expanded[r]!;
    out++;
  }
  return Object.freeze({
    length: keep,
    node,
    depth,
    hasChildren,
    expanded,
    hiddenCount,
    hiddenByKind,
  });
}

/**
 * The row showing tree node `index`, or `-1` when it is not shown (under a
 * collapsed span, or filtered out). O(log rows): rows keep pre-order.
 *
 * @example
 * declare function reveal(row: number): void;
 * const rows = buildTranscriptRows(tree);
 * const r = transcriptRowOf(rows, 42); // the row of tree node 42, or -1
 * if (r >= 0) reveal(r);
 */
export function transcriptRowOf(rows: TranscriptRows, index: number): number {
  // Transcript rows are a pre-order subsequence of the tree, like visible rows.
  return rowOfNode(rows, index);
}

/**
 * The row showing the event with this uuid, or `-1`. `hint` is where it was
 * last seen: when that row still shows it (the usual case: a live tree grows
 * after it), the answer is O(1); only otherwise are the events scanned, O(n).
 *
 * @example
 * declare const rows: TranscriptRows;
 * declare const focusedId: string;
 * let focusedRow = 0;
 * focusedRow = transcriptRowOfEvent(tree, rows, focusedId, focusedRow);
 */
export function transcriptRowOfEvent(
  tree: EventTree,
  rows: TranscriptRows,
  uuid: string,
  hint = -1,
): number {
  if (hint >= 0 && hint < rows.length && eventTreeNodeUuid(tree, rows.node[hint]!) === uuid) {
    return hint;
  }
  // A row of a later copy of a span begun twice has a suffixed uuid.
  if (tree.keys !== undefined) return transcriptRowOf(rows, eventTreeIndexOf(tree, uuid));
  const events = tree.events;
  for (let i = 0; i < events.length; i++) {
    if (events[i]!.uuid === uuid) return transcriptRowOf(rows, i);
  }
  return -1;
}

/**
 * What a span header shows, summed over its whole subtree.
 *
 * @example
 * const span = tree.spans[0]!;
 * const s = spanSummary(tree, span.index);
 * `${s.durationMs} ms · ${s.tokens} tokens · ${s.status}`;
 */
export interface SpanSummary {
  /** End minus start in ms; `NaN` while the span is open or times are missing. */
  readonly durationMs: number;
  /** Tokens of every model call inside (`eventTotalTokens`: input + cache + output). */
  readonly tokens: number;
  /**
   * Events inside (not counting the span itself), each once: in a tree with
   * copies of a span begun twice, the nodes of later copies are not counted.
   */
  readonly events: number;
  /** Failed events inside (`isFailedEvent`: error events, failed model or tool calls, …). */
  readonly errors: number;
  /** `running` while open, `error` when something inside failed, else `ok`. */
  readonly status: 'running' | 'ok' | 'error';
}

interface TreeSums {
  tokens: ChunkedColumn<Float64Array>;
  errors: ChunkedColumn<Int32Array>;
  /**
   * Only for a tree with copies (a span id begun twice): nodes inside a
   * later copy so far. They add nothing to `tokens` and `errors`.
   */
  repeats: Int32Array | null;
}
const sumsCache = new WeakMap<EventTree, TreeSums>();

/**
 * Prefix sums over pre-order: a subtree's total is `sum[end] - sum[index]`.
 * In a tree with copies of a span begun twice (`tree.twin`, event-tree.ts),
 * only plain nodes count, so each event is counted once however many copies
 * show it.
 * A live snapshot goes on from its previous snapshot's sums:
 * entries up to its first changed node are shared with them (chunks, not
 * copied), so a batch costs O(n / 4,096 + nodes after the first change),
 * not a pass over every event. A tree with copies has no `change` (it is
 * built in full), and so are its sums.
 */
function treeSums(tree: EventTree): TreeSums {
  let sums = sumsCache.get(tree);
  if (sums !== undefined) return sums;
  const n = tree.length;
  let start = 0;
  const twin = tree.twin;
  // From the last snapshot whose sums were taken, however many came between
  // (a span tree reads them once per render, not per snapshot). A new version
  // (a pending call made final) changes its own sums: `eventFrom` counts it;
  // a span that ended does not (its begin holds no tokens).
  const since =
    twin === undefined ? changedSince(tree, (before) => sumsCache.has(before)) : undefined;
  const old = since === undefined ? undefined : sumsCache.get(since.base);
  if (since !== undefined) start = since.eventFrom;
  const tokens = new ChunkedColumn(float64Chunk, n + 1, old?.tokens, start + 1);
  const errors = new ChunkedColumn(int32Chunk, n + 1, old?.errors, start + 1);
  let t0 = tokens.get(start);
  let e0 = errors.get(start);
  // Entries from `start + 1` on, filled here and copied in at the end.
  const tokenTail = new Float64Array(n - start);
  const errorTail = new Int32Array(n - start);
  // Only model, tool, error and unknown-kind events can have tokens or fail
  // (events/outcome.ts): the others are not read at all.
  const kinds = treeKinds(tree);
  const repeats = twin === undefined ? null : new Int32Array(n + 1);
  for (let i = start; i < n; i++) {
    const code = kinds[i]!;
    let t = 0;
    let e = 0;
    if (repeats !== null) {
      const r = twin![i]! >= 0 ? 1 : 0;
      repeats[i + 1] = repeats[i]! + r;
      if (r === 1) {
        tokenTail[i - start] = t0;
        errorTail[i - start] = e0;
        continue;
      }
    }
    if (code === MODEL || code === TOOL || code === ERROR || code === OTHER_KIND) {
      const event = tree.events[i]!;
      // A rolled-back turn is shown but not counted (events/outcome.ts).
      if (!isAbortedEvent(event)) {
        t = eventTotalTokens(event);
        e = isFailedEvent(event) ? 1 : 0;
      }
    }
    t0 += t;
    e0 += e;
    tokenTail[i - start] = t0;
    errorTail[i - start] = e0;
  }
  tokens.setAll(start + 1, tokenTail);
  errors.setAll(start + 1, errorTail);
  sums = { tokens, errors, repeats };
  sumsCache.set(tree, sums);
  return sums;
}

const MODEL = kindCode('model');
const TOOL = kindCode('tool');
const ERROR = kindCode('error');

/**
 * The summary of the span at tree node `index` (O(1) after one O(n) pass per
 * tree, shared by every header of that tree).
 *
 * @example
 * spanSummary(tree, tree.spans[0]!.index).tokens; // 48_213
 */
export function spanSummary(tree: EventTree, index: number): SpanSummary {
  // A copy of a span begun twice shows what its plain twin holds; totals
  // count each event once (treeSums).
  const twin = tree.twin === undefined ? -1 : tree.twin[index]!;
  if (twin >= 0) return spanSummary(tree, twin);
  const sums = treeSums(tree);
  const end = tree.subtreeEnd[index]!;
  const s = tree.spanIndex[index]!;
  const span = s >= 0 ? tree.spans[s]! : null;
  const tokens = sums.tokens.get(end) - sums.tokens.get(index + 1);
  const errors = sums.errors.get(end) - sums.errors.get(index + 1);
  let durationMs = Number.NaN;
  if (span !== null && span.end !== null) {
    durationMs = eventEndTime(span.end) - eventTime(span.begin);
  }
  const status = span !== null && span.end === null ? 'running' : errors > 0 ? 'error' : 'ok';
  const repeats = sums.repeats === null ? 0 : sums.repeats[end]! - sums.repeats[index + 1]!;
  return { durationMs, tokens, events: end - index - 1 - repeats, errors, status };
}

const EMPTY: ReadonlySet<string> = new Set();
const DEFAULT_HIDDEN_SET: ReadonlySet<string> = new Set(DEFAULT_HIDDEN_KINDS);
