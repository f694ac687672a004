/**
 * The span tree: inspect_ai's `event_tree`, `event_tree_walk` and
 * `event_sequence` (`src/inspect_ai/event/_tree.py`), as a
 * flat pre-order structure.
 *
 * ## Placement (inspect's rules, kept exactly)
 * - A pre-pass registers every `span_begin`, so an event may attach to a span
 *   whose begin comes later in the list (`_tree.py`: "Pre-create one node per
 *   span so we can attach events no matter when they arrive in the file").
 * - One forward pass in list order: a `span_begin` goes under the span named by
 *   its `parent_id`; any other event under the span named by its `span_id`.
 *   A null, empty (`if span_id and …`) or unknown id puts it at the root; there
 *   is no "currently open span" fallback and no timestamp sort, so a tool span
 *   precedes its own ToolEvent (inspect_ai's `span()`).
 * - A `span_end` sets the span's `end`; spans never closed keep `end: null`.
 *   A `span_end` whose id never began is dropped, with a `span_end_unknown`
 *   diagnostic (inspect logs a warning and drops it too).
 * - Events after a span's `span_end` that still carry its id are placed inside it.
 *
 * ## Where skein deviates, and why
 * - **Duplicate span ids: inspect's rule, kept, and written down because
 *   it is odd.** inspect keys nodes by id in a dict comprehension
 *   (`nodes = {ev.id: EventTreeSpan(…, begin=ev) for ev in events if
 *   isinstance(ev, SpanBeginEvent)}`, `_tree.py`), so the *last* begin of an
 *   id wins the node (its name, type, `parent_id` and `begin`), and the
 *   forward pass then appends that one node once per begin
 *   (`bucket(ev.parent_id).append(nodes[ev.id])`, each under *that* begin's
 *   parent): the span shows once per begin, every copy holding every event
 *   of the id, and the first begin event is not in the tree at all. skein
 *   does the same — so the span tree, the transcript and the timeline
 *   (`buildTimeline`, which follows inspect for parity with
 *   `timeline_build`) show the same copies — and keeps a `span_duplicate_id`
 *   diagnostic on each later begin to say what happened. What a flat tree
 *   needs on top:
 *   - **Keys.** The copy under the first begin keeps the plain keys; a node
 *     inside any other copy gets its plain key plus `COPY_KEY_SEPARATOR`
 *     (U+241F) and the ordinals of the begins on its way down
 *     (`"a\u241f2"`, `"m1\u241f1.2"`): unique, stable while a run grows, and
 *     never a real id. They are in `tree.keys` (present only when there are
 *     copies); {@link eventTreeNodeKey} reads them, so selection, find,
 *     collapse state and the node index tell copies apart.
 *   - **Sums.** `tree.twin[i]` is the plain node of a node inside a later
 *     copy; token, failure and event totals count plain nodes only, so each
 *     event counts once however many copies show it (a copy's own summary is
 *     its plain twin's).
 *   - **Guards.** A begin that would show a span inside itself is left out
 *     (`span_copy_cycle`); copies of copies past 4 × the events + 100k nodes
 *     are shown without their contents (`span_copies_capped`).
 *   - **Live.** A snapshot with copies has no `change`: views derive it
 *     from scratch (rare input; correctness first).
 *   test/core/duplicate-span-id.test.ts checks the tree, its views and the
 *   timeline against each other on such runs.
 * - **Second `span_end` for a span.** inspect overwrites `end`: the last end
 *   wins, the earlier one is not in the tree. skein does the same (it pairs
 *   with the last begin, which names the node) and flags the later end with
 *   `span_end_duplicate`.
 * - **Parent cycles.** inspect does not guard a span that is its own parent or
 *   a chain of `parent_id`s that loops; its walkers then recurse forever. skein
 *   cuts each cycle at the member whose begin comes **last** in the list: that
 *   span goes to the root (a `span_parent_cycle` diagnostic); the rest hang
 *   below it as their ids say. "Last" is what an incremental builder can decide
 *   at the moment the cycle closes, so both builders agree.
 * - **Legacy `step` events** (logs before inspect 0.3.94 have nothing else,
 *   inspect_ai's `span()`; inspect's `event_tree` treats them as plain leaves). skein
 *   makes a `step` begin a node (`origin: 'step'`) and nests by begin/end
 *   order **within the span they belong to**: each `span_id` (null for the
 *   root) has its own stack of open steps, and an event, span or step placed
 *   under that id goes into the innermost open step of that id instead. A step
 *   end closes the innermost open step of the same `name` under its `span_id`;
 *   steps opened inside it and still open are left without an end
 *   (`step_unclosed`). A step end with no open step of that name stays a plain
 *   leaf, as inspect would show it (`step_end_unmatched`). Steps carry no ids,
 *   so this order-based rule is the only information there is.
 *
 * Everything else is inspect's; `eventSequence` round-trips the tree for
 * well-formed input.
 *
 * ## Representation
 * An {@link EventTree} is columns over nodes in pre-order (`depth`,
 * `parentIndex`, `subtreeEnd`, …; flat arrays, not nested objects, jaeger-ui's flat trace rows), not
 * one object per node: at 1M events that is ~25 MB of typed arrays instead of
 * ~100 MB of objects, and a build is a few typed-array writes per event.
 * {@link eventTreeNode} gives an object view of one node when a view needs it.
 */
import { SkeinError, type Diagnostic } from '../errors.js';
import type { Event, SpanBeginEvent, SpanEndEvent, StepEvent } from '../events/types.js';
import { COPY_KEY_SEPARATOR, Placement } from './links.js';

/**
 * A span (or legacy step) node of an {@link EventTree}: inspect's
 * `EventTreeSpan` without `children` (they follow it in pre-order, up to
 * `tree.subtreeEnd[index]`).
 *
 * @example
 * declare function markRunning(spanId: string): void;
 * for (const span of tree.spans) if (span.end === null) markRunning(span.id);
 */
export interface EventTreeSpan {
  /** `'span'` for a `span_begin`/`span_end` pair, `'step'` for a legacy `step` pair. */
  readonly origin: 'span' | 'step';
  /** The node's index in the tree (pre-order). */
  readonly index: number;
  /** The span id; for a step (which has none) the begin event's `uuid`. */
  readonly id: string;
  /** `parent_id` as written (`null` when absent or empty; always `null` for steps). */
  readonly parentId: string | null;
  readonly name: string;
  /** `type` as written; `null` when absent. */
  readonly type: string | null;
  /** The begin event; of an id begun more than once, its last begin (inspect's rule). */
  readonly begin: SpanBeginEvent | StepEvent;
  /** The closing event (the last `span_end` of the id), or `null` while open (never inferred). */
  readonly end: SpanEndEvent | StepEvent | null;
  /** Direct children. */
  readonly childCount: number;
}

/**
 * inspect's `event_tree` as flat pre-order columns: node `i` is
 * `events[i]` (a span node's event is its begin), at `depth[i]` under node
 * `parentIndex[i]` (`-1` for a root), and its subtree is `[i, subtreeEnd[i])`.
 * `spanIndex[i]` is the node's index in `spans`, or `-1` for an event node.
 *
 * The columns are typed read-only. They are not frozen at run time (typed
 * arrays cannot be, and freezing a 1M array costs milliseconds): do not write
 * to them. A tree is plain data and survives `structuredClone`.
 *
 * @example
 * declare function print(line: string): void;
 * const tree = buildEventTree(stream.toArray());
 * for (let i = 0; i < tree.length; i++) print('  '.repeat(tree.depth[i]!) + tree.events[i]!.event);
 */
export interface EventTree {
  /** Number of nodes. */
  readonly length: number;
  readonly events: readonly Event[];
  readonly depth: ArrayLike<number>;
  readonly parentIndex: ArrayLike<number>;
  /** Exclusive end of the node's subtree; `i + 1` for a leaf. */
  readonly subtreeEnd: ArrayLike<number>;
  readonly spanIndex: ArrayLike<number>;
  /** Span and step nodes, in pre-order. */
  readonly spans: readonly EventTreeSpan[];
  /** Number of top-level nodes. */
  readonly rootCount: number;
  /** What was repaired or dropped, sorted by input position (`path` is `$[i]`). */
  readonly diagnostics: readonly Diagnostic[];
  /**
   * What changed since the snapshot before this one (a live tree: an
   * incremental builder or a feed), so a view can keep what it derived from
   * that snapshot and redo only the rest. Absent from a batch
   * build and from a builder's first snapshot, or the first after a rebuild
   * (a new version that moved an event): then everything may differ.
   * `previousEventTree(tree)` is the snapshot it is relative to.
   */
  readonly change?: EventTreeChange;
  /**
   * Node keys, present only when some span id was begun more than once (its
   * node then appears once per begin, module comment): {@link eventTreeNodeKey}
   * reads them. Nodes inside a later copy have keys like `"m1\u241f1.2"`.
   */
  readonly keys?: readonly string[];
  /**
   * With `keys`: per node, `-1` for a node of the tree without copies (each
   * event has exactly one), else the index of that node (its *plain twin*).
   * Totals count plain nodes only.
   */
  readonly twin?: ArrayLike<number>;
}

/**
 * How an {@link EventTree} snapshot differs from its builder's snapshot
 * before it (`previousEventTree`). A live run grows at its end, so `from` is
 * usually a few nodes from the end and `updated` short.
 *
 * @example
 * declare const before: EventTree;
 * const c = tree.change;
 * // Nodes [0, c.from) are where they were: reuse what was derived from them.
 * const keep = c !== undefined && previousEventTree(tree) === before ? c.from : 0;
 */
export interface EventTreeChange {
  /**
   * Every node before `from` is the previous snapshot's node at the same
   * index, in the same place: same key, kind, `depth`, `parentIndex` and
   * `spanIndex`, and the same `subtreeEnd` except for the ancestors of node
   * `from` (the open spans a batch grew). From `from` on, anything may
   * differ. `from` is below both lengths (or 0).
   */
  readonly from: number;
  /**
   * Nodes before `from` whose event is a new version (same kind and place:
   * a pending event made final) or whose span object is new (its span ended,
   * its begin was re-sent), ascending. The ancestors of node `from` are not
   * listed: their span objects change whenever their subtree grows.
   */
  readonly updated: readonly number[];
  /** The previous snapshot's `length`. */
  readonly previousLength: number;
}

/**
 * An object view of one tree node, from {@link eventTreeNode} and
 * {@link walkEventTree}.
 *
 * @example
 * const node = eventTreeNode(tree, 0);
 * const title = node.kind === 'span' ? node.span.name : node.event.event;
 */
export type EventTreeNode = EventTreeSpanNode | EventTreeEventNode;

/**
 * Fields every {@link EventTreeNode} has.
 *
 * @example
 * const { index, depth, parentIndex, subtreeEnd, key }: EventTreeNodeBase = eventTreeNode(tree, 3);
 */
export interface EventTreeNodeBase {
  readonly index: number;
  readonly depth: number;
  readonly parentIndex: number;
  readonly subtreeEnd: number;
  /** Stable identity: {@link eventTreeNodeKey}. */
  readonly key: string;
}

/**
 * A span or step node.
 *
 * @example
 * const node = eventTreeNode(tree, 0);
 * const label = node.kind === 'span' ? `${node.span.type ?? ''} ${node.span.name}` : node.event.event;
 */
export interface EventTreeSpanNode extends EventTreeNodeBase {
  readonly kind: 'span';
  readonly span: EventTreeSpan;
  /** The begin event. */
  readonly event: SpanBeginEvent | StepEvent;
}

/**
 * A leaf: any event that is not a span or step begin.
 *
 * @example
 * import { walkEventTree } from './event-tree.js';
 * const models: Event[] = [];
 * for (const node of walkEventTree(tree))
 *   if (node.kind === 'event' && node.event.event === 'model') models.push(node.event);
 */
export interface EventTreeEventNode extends EventTreeNodeBase {
  readonly kind: 'event';
  readonly event: Event;
}

/**
 * Builds the span tree of `events` (in list order) with inspect_ai's
 * `event_tree` rules plus skein's written rules for duplicate ids, cycles and
 * legacy steps (module comment above). O(n); never mutates `events`.
 *
 * @example
 * const tree = buildEventTree(stream.latest());
 * const open = tree.spans.filter((s) => s.end === null);
 */
export function buildEventTree(events: readonly Event[]): EventTree {
  // One forward pass (links.ts): an event whose span begins later in the list
  // waits at the root and moves in when the begin comes, which is where
  // inspect's pre-pass puts it. Span count is unknown up front; a quarter of
  // the events is a generous first guess (generated runs have ~1 in 5).
  const n = events.length;
  const placement = new Placement(n, n >> 2);
  placement.setEvents(events);
  for (let i = 0; i < n; i++) placement.place(i, events[i]!);
  return placement.flatten(events, placement.pendingDiagnostics());
}

/**
 * The stable key of node `index`: the span id of a span node, the begin
 * event's uuid of a step node, the event's uuid otherwise; inside a copy of a
 * span begun more than once, that key plus a suffix (`tree.keys`). Collapse
 * state, selection and row identity use it.
 *
 * @example
 * const collapsed = new Set([eventTreeNodeKey(tree, 0)]);
 */
export function eventTreeNodeKey(tree: EventTree, index: number): string {
  if (tree.keys !== undefined) return tree.keys[index]!;
  const s = tree.spanIndex[index]!;
  return s >= 0 ? tree.spans[s]!.id : tree.events[index]!.uuid;
}

/**
 * The uuid a uuid-keyed view (the transcript: `data-event-id`, `selectedId`,
 * `#event=`) shows node `index` under: its event's uuid, plus the suffix of
 * its key inside a later copy of a span begun more than once, so that each
 * copy's rows have their own (`"m1\u241f2"`). {@link eventTreeIndexOf} finds
 * the node by it.
 *
 * @example
 * declare function rowId(uuid: string): void;
 * rowId(eventTreeNodeUuid(tree, 0)); // the first node's event uuid, unless it is a copy
 */
export function eventTreeNodeUuid(tree: EventTree, index: number): string {
  const uuid = tree.events[index]!.uuid;
  if (tree.twin === undefined || tree.twin[index]! < 0) return uuid;
  const key = tree.keys![index]!;
  return uuid + key.slice(key.lastIndexOf(COPY_KEY_SEPARATOR));
}

/**
 * An object view of node `index` (O(1); allocate only for what you show).
 *
 * @example
 * const root = eventTreeNode(tree, 0);
 * declare function title(text: string): void;
 * if (root.kind === 'span') title(root.span.name);
 */
export function eventTreeNode(tree: EventTree, index: number): EventTreeNode {
  if (!(index >= 0 && index < tree.length)) {
    throw new SkeinError('index_out_of_range', 'eventTreeNode: index', index, tree.length);
  }
  const s = tree.spanIndex[index]!;
  const base = {
    index,
    depth: tree.depth[index]!,
    parentIndex: tree.parentIndex[index]!,
    subtreeEnd: tree.subtreeEnd[index]!,
  };
  if (s >= 0) {
    const span = tree.spans[s]!;
    const key = tree.keys === undefined ? span.id : tree.keys[index]!;
    return { ...base, kind: 'span', key, span, event: span.begin };
  }
  const event = tree.events[index]!;
  const key = tree.keys === undefined ? event.uuid : tree.keys[index]!;
  return { ...base, kind: 'event', key, event };
}

/**
 * What {@link walkEventTree} keeps: a predicate over nodes, or event kinds
 * (inspect's `isinstance` filter), matched against a node's event — for span
 * nodes that is the begin event, so `'span_begin'` selects spans and `'step'`
 * legacy steps.
 *
 * @example
 * const filter: EventTreeFilter = ['model', 'tool'];
 */
export type EventTreeFilter = string | readonly string[] | ((node: EventTreeNode) => boolean);

/**
 * inspect's `event_tree_walk`: every node in pre-order, lazily, optionally
 * filtered, optionally only the subtree of node `within` (itself included).
 *
 * @example
 * import { walkEventTree } from './event-tree.js';
 * let tokens = 0;
 * for (const node of walkEventTree(tree, 'model')) tokens += eventTotalTokens(node.event);
 * const spans = [...walkEventTree(tree, (n) => n.kind === 'span')];
 */
export function* walkEventTree(
  tree: EventTree,
  filter?: EventTreeFilter,
  within?: number,
): Generator<EventTreeNode, void, undefined> {
  const [start, end] = range(tree, within);
  if (filter === undefined) {
    for (let i = start; i < end; i++) yield eventTreeNode(tree, i);
    return;
  }
  if (typeof filter === 'function') {
    for (let i = start; i < end; i++) {
      const node = eventTreeNode(tree, i);
      if (filter(node)) yield node;
    }
    return;
  }
  const kinds = typeof filter === 'string' ? [filter] : filter;
  // Test the event kind before building a node view: most nodes are skipped.
  for (let i = start; i < end; i++) {
    if (kinds.includes(tree.events[i]!.event)) yield eventTreeNode(tree, i);
  }
}

/**
 * inspect's `event_sequence`: the tree flattened back into events, each span
 * as its begin, then its children, then its end (only if it has one). For
 * well-formed input (no dropped ends) it returns the original list when the
 * spans were written in pre-order. Pass `within` (a node index) for one subtree.
 *
 * @example
 * const again = eventSequence(buildEventTree(stream.toArray())); // same events, tree order
 */
export function eventSequence(tree: EventTree, within?: number): Event[] {
  const [start, end] = range(tree, within);
  const out: Event[] = [];
  // Open spans whose end is still to be written: their node indexes.
  const open: number[] = [];
  const { events, spanIndex, subtreeEnd, spans } = tree;
  const closeUntil = (i: number) => {
    while (open.length > 0 && subtreeEnd[open[open.length - 1]!]! <= i) {
      const span = spans[spanIndex[open.pop()!]!]!;
      if (span.end !== null) out.push(span.end);
    }
  };
  for (let i = start; i < end; i++) {
    closeUntil(i);
    out.push(events[i]!);
    if (spanIndex[i]! >= 0) open.push(i);
  }
  closeUntil(Number.POSITIVE_INFINITY);
  return out;
}

function range(tree: EventTree, within: number | undefined): [number, number] {
  if (within === undefined) return [0, tree.length];
  if (!(within >= 0 && within < tree.length)) {
    throw new SkeinError('index_out_of_range', 'event tree: node', within, tree.length);
  }
  return [within, tree.subtreeEnd[within]!];
}
