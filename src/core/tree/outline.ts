/**
 * What a span tree shows: the nodes of an {@link EventTree} as
 * its own flat pre-order "view" — spans only, every event, or inspect's
 * outline — which `filterSpanTreeView` narrows and `spanTreeRows` flattens
 * under an expansion state. Pure, O(n) per build, typed-array columns.
 *
 * ## Outline mode (inspect's `TranscriptOutline`, inspect's viewer)
 * - Logger, info, state, store, approval, input and sandbox events are left
 *   out.
 * - Among the children of one span, a model event and the tool events that
 *   follow it form one **turn**; two or more turns in a row fold into one
 *   "N turns" node (its children are the turns). A single turn stays a turn.
 *   Turns are numbered from 1 in run order.
 * - Scoring spans (named `scorers`/`scoring`, or of type `scorers`) fold.
 * - Folded nodes (turn groups, turns, scoring) stay collapsed until they are
 *   expanded by id: "expand all" does not open them (`Expansion`).
 */
import { runNested } from '../nested.js';
import { eventTreeNodeKey, type EventTree } from './event-tree.js';
import { changedSince } from './links.js';

/** A view node showing one tree node. */
export const VIEW_NODE = 0;
/** A turn: a model event and the tool events after it (its children). */
export const VIEW_TURN = 1;
/** Consecutive turns folded into one "N turns" node (its children are the turns). */
export const VIEW_TURNS = 2;

/**
 * A span tree's nodes as flat pre-order columns (flat arrays, not nested objects). View node `v`
 * shows tree node `node[v]` (for a turn, its model event; for a turn group,
 * its first turn's model event), is of `type[v]` (`VIEW_NODE`, `VIEW_TURN`,
 * `VIEW_TURNS`), sits at `depth[v]` under `parent[v]` (`-1` at the root) and
 * owns `[v, subtreeEnd[v])`. `posInSet` is 1-based among its siblings,
 * `childCount` counts direct children. `count` is a turn's number of events
 * or a group's number of turns; `ordinal` a turn's (or a group's first
 * turn's) number. `folded` marks nodes collapsed by default; `dim` nodes a
 * loose filter shows only as context.
 *
 * @example
 * const view = buildSpanTreeView(tree, { mode: 'outline' });
 * declare function print(line: string): void;
 * for (let v = 0; v < view.length; v++) print(spanTreeViewKey(view, v));
 */
export interface SpanTreeView {
  readonly tree: EventTree;
  readonly length: number;
  readonly node: Int32Array;
  readonly type: Uint8Array;
  readonly depth: Int32Array;
  readonly parent: Int32Array;
  readonly subtreeEnd: Int32Array;
  readonly posInSet: Int32Array;
  readonly childCount: Int32Array;
  readonly count: Int32Array;
  readonly ordinal: Int32Array;
  readonly folded: Uint8Array;
  readonly dim: Uint8Array;
  /** Number of top-level nodes. */
  readonly rootCount: number;
}

/**
 * Options of {@link buildSpanTreeView}.
 *
 * @example
 * buildSpanTreeView(tree, { mode: 'events' });
 */
export interface SpanTreeViewOptions {
  /**
   * `'spans'` (default): span and step nodes only; `'events'`: every node;
   * `'outline'`: inspect's outline (module comment).
   */
  mode?: 'spans' | 'events' | 'outline';
}

/** Event kinds the outline leaves out (inspect's outline). */
const OUTLINE_HIDDEN: ReadonlySet<string> = new Set([
  'logger',
  'info',
  'state',
  'store',
  'approval',
  'input',
  'sandbox',
]);

/** Grows typed columns while a view is emitted in pre-order. Internal. */
export class ViewEmitter {
  length = 0;
  node: Int32Array;
  type: Uint8Array;
  depth: Int32Array;
  parent: Int32Array;
  subtreeEnd: Int32Array;
  posInSet: Int32Array;
  childCount: Int32Array;
  count: Int32Array;
  ordinal: Int32Array;
  folded: Uint8Array;
  dim: Uint8Array;
  rootCount = 0;
  /** Open nodes, outermost first. */
  readonly #open: number[] = [];

  constructor(capacity: number) {
    const c = Math.max(16, capacity);
    this.node = new Int32Array(c);
    this.type = new Uint8Array(c);
    this.depth = new Int32Array(c);
    this.parent = new Int32Array(c);
    this.subtreeEnd = new Int32Array(c);
    this.posInSet = new Int32Array(c);
    this.childCount = new Int32Array(c);
    this.count = new Int32Array(c);
    this.ordinal = new Int32Array(c);
    this.folded = new Uint8Array(c);
    this.dim = new Uint8Array(c);
  }

  #grow(): void {
    const c = this.node.length * 2;
    const grow = <T extends Int32Array | Uint8Array>(a: T): T => {
      const b = new (a.constructor as new (n: number) => T)(c);
      b.set(a);
      return b;
    };
    this.node = grow(this.node);
    this.type = grow(this.type);
    this.depth = grow(this.depth);
    this.parent = grow(this.parent);
    this.subtreeEnd = grow(this.subtreeEnd);
    this.posInSet = grow(this.posInSet);
    this.childCount = grow(this.childCount);
    this.count = grow(this.count);
    this.ordinal = grow(this.ordinal);
    this.folded = grow(this.folded);
    this.dim = grow(this.dim);
  }

  /** Appends a node at `depth` (0 = root; at most one deeper than the last). */
  emit(node: number, type: number, depth: number, folded: boolean, dim = false): number {
    const open = this.#open;
    while (open.length > depth) this.subtreeEnd[open.pop()!] = this.length;
    if (this.length === this.node.length) this.#grow();
    const v = this.length++;
    const p = open.length > 0 ? open[open.length - 1]! : -1;
    this.node[v] = node;
    this.type[v] = type;
    this.depth[v] = open.length;
    this.parent[v] = p;
    this.folded[v] = folded ? 1 : 0;
    this.dim[v] = dim ? 1 : 0;
    this.posInSet[v] = p === -1 ? ++this.rootCount : ++this.childCount[p]!;
    open.push(v);
    return v;
  }

  /**
   * Starts from the first `k` nodes of `prev` (a view of an earlier snapshot
   * whose nodes before them did not change): copies them and reopens the
   * nodes still open after node `k - 1` (it and its ancestors), with the
   * children they had so far.
   */
  resume(prev: SpanTreeView, k: number): void {
    while (this.node.length < k) this.#grow();
    this.node.set(prev.node.subarray(0, k));
    this.type.set(prev.type.subarray(0, k));
    this.depth.set(prev.depth.subarray(0, k));
    this.parent.set(prev.parent.subarray(0, k));
    this.subtreeEnd.set(prev.subtreeEnd.subarray(0, k));
    this.posInSet.set(prev.posInSet.subarray(0, k));
    this.childCount.set(prev.childCount.subarray(0, k));
    this.count.set(prev.count.subarray(0, k));
    this.ordinal.set(prev.ordinal.subarray(0, k));
    this.folded.set(prev.folded.subarray(0, k));
    this.dim.set(prev.dim.subarray(0, k));
    this.length = k;
    const open = this.#open;
    if (k === 0) return;
    // Node k - 1 has no children yet (they would come after it); each of its
    // ancestors has as many as the position of the one on this chain.
    let child = k - 1;
    this.childCount[child] = 0;
    const chain = [child];
    for (let p = prev.parent[child]!; p !== -1; child = p, p = prev.parent[p]!) {
      this.childCount[p] = prev.posInSet[child]!;
      chain.push(p);
    }
    this.rootCount = prev.posInSet[child]!;
    for (let c = chain.length - 1; c >= 0; c--) open.push(chain[c]!);
  }

  finish(tree: EventTree): SpanTreeView {
    const open = this.#open;
    while (open.length > 0) this.subtreeEnd[open.pop()!] = this.length;
    const n = this.length;
    return Object.freeze({
      tree,
      length: n,
      node: this.node.subarray(0, n),
      type: this.type.subarray(0, n),
      depth: this.depth.subarray(0, n),
      parent: this.parent.subarray(0, n),
      subtreeEnd: this.subtreeEnd.subarray(0, n),
      posInSet: this.posInSet.subarray(0, n),
      childCount: this.childCount.subarray(0, n),
      count: this.count.subarray(0, n),
      ordinal: this.ordinal.subarray(0, n),
      folded: this.folded.subarray(0, n),
      dim: this.dim.subarray(0, n),
      rootCount: this.rootCount,
    });
  }
}

/**
 * Builds the view of `tree` a span tree shows (module comment). O(n); never
 * mutates `tree`.
 *
 * @example
 * const feed = createEventTreeFeed(stream);
 * const store = createSelectionStore();
 * const view = buildSpanTreeView(feed.getSnapshot().tree);
 * const rows = spanTreeRows(view, store.getSnapshot().expanded);
 */
export function buildSpanTreeView(
  tree: EventTree,
  options: SpanTreeViewOptions = {},
): SpanTreeView {
  const mode = options.mode ?? 'spans';
  if (mode === 'outline') return buildOutline(tree);
  let views = viewCache.get(tree);
  const hit = views?.[mode];
  if (hit !== undefined) return hit;
  // A live snapshot goes on from the view of the last snapshot it was built
  // for (however many came between, `changedSince`): in these
  // modes view nodes follow tree order, so the view nodes of tree nodes
  // before the first change are copied and the rest emitted.
  const since = changedSince(tree, (before) => viewCache.get(before)?.[mode] !== undefined);
  const prev = since === undefined ? undefined : viewCache.get(since.base)![mode]!;
  const spans = mode === 'spans';
  const out = new ViewEmitter(spans ? tree.spans.length : tree.length);
  let k = 0;
  if (prev !== undefined) {
    const from = since!.from;
    for (let hi = prev.length; k < hi;) {
      const mid = (k + hi) >>> 1;
      if (prev.node[mid]! < from) k = mid + 1;
      else hi = mid;
    }
    out.resume(prev, k);
  }
  const depth = tree.depth;
  if (spans) {
    // A span's parent is always a span, so tree depth is view depth; view
    // node `v` is span `v`.
    const list = tree.spans;
    for (let s = k; s < list.length; s++) {
      const i = list[s]!.index;
      out.emit(i, VIEW_NODE, depth[i]!, false);
    }
  } else {
    for (let i = k; i < tree.length; i++) out.emit(i, VIEW_NODE, depth[i]!, false);
  }
  const view = out.finish(tree);
  if (views === undefined) viewCache.set(tree, (views = {}));
  views[mode] = view;
  if (prev !== undefined) viewContinued.set(view, { previous: new WeakRef(prev), keep: k });
  return view;
}

/** Views that went on from an earlier view: it (weakly) and the nodes kept from it. */
const viewContinued = new WeakMap<
  SpanTreeView,
  { previous: WeakRef<SpanTreeView>; keep: number }
>();

/**
 * The view `view` went on from and how many of its first nodes it kept
 * (their columns unchanged except `childCount` and `subtreeEnd` of node
 * `keep - 1` and its ancestors), or `undefined`. Internal (`spanTreeRows`).
 */
export function viewContinues(
  view: SpanTreeView,
): { previous: SpanTreeView; keep: number } | undefined {
  const c = viewContinued.get(view);
  const previous = c?.previous.deref();
  return previous === undefined ? undefined : { previous, keep: c!.keep };
}

/** The spans and events views of a tree, built once (a feed's views share them). */
const viewCache = new WeakMap<EventTree, { spans?: SpanTreeView; events?: SpanTreeView }>();

function isScoring(tree: EventTree, i: number): boolean {
  const s = tree.spanIndex[i]!;
  if (s < 0) return false;
  const span = tree.spans[s]!;
  const name = span.name.toLowerCase();
  return name === 'scorers' || name === 'scoring' || span.type === 'scorers';
}

function buildOutline(tree: EventTree): SpanTreeView {
  const out = new ViewEmitter(tree.length);
  const { events, spanIndex, subtreeEnd } = tree;
  let turnNumber = 0;
  // The children of one parent, in order, with hidden kinds left out.
  const childrenOf = (start: number, end: number): number[] => {
    const list: number[] = [];
    for (let c = start; c < end; c = subtreeEnd[c]!) {
      if (spanIndex[c]! < 0 && OUTLINE_HIDDEN.has(events[c]!.event)) continue;
      list.push(c);
    }
    return list;
  };
  // A `runNested` step: a span's children are a yielded call, so depth is
  // bounded by memory, not by the call stack.
  const visit = function* (
    start: number,
    end: number,
    depth: number,
  ): Generator<[number, number, number], void, void> {
    const kids = childrenOf(start, end);
    let k = 0;
    while (k < kids.length) {
      const c = kids[k]!;
      if (spanIndex[c]! >= 0) {
        out.emit(c, VIEW_NODE, depth, isScoring(tree, c));
        yield [c + 1, subtreeEnd[c]!, depth + 1];
        k++;
        continue;
      }
      if (events[c]!.event !== 'model') {
        out.emit(c, VIEW_NODE, depth, false);
        k++;
        continue;
      }
      // A run of turns: each a model event and the tool events after it.
      const turns: [number, number][] = [];
      while (k < kids.length && spanIndex[kids[k]!]! < 0 && events[kids[k]!]!.event === 'model') {
        const from = k++;
        while (k < kids.length && spanIndex[kids[k]!]! < 0 && events[kids[k]!]!.event === 'tool')
          k++;
        turns.push([from, k]);
      }
      let d = depth;
      if (turns.length > 1) {
        const g = out.emit(c, VIEW_TURNS, depth, true);
        out.count[g] = turns.length;
        out.ordinal[g] = turnNumber + 1;
        d = depth + 1;
      }
      for (const [from, to] of turns) {
        const t = out.emit(kids[from]!, VIEW_TURN, d, true);
        out.count[t] = to - from;
        out.ordinal[t] = ++turnNumber;
        for (let m = from; m < to; m++) out.emit(kids[m]!, VIEW_NODE, d + 1, false);
      }
    }
  };
  runNested(visit, 0, tree.length, 0);
  return out.finish(tree);
}

/**
 * The stable key of view node `v`: the tree node's key (span id, step begin
 * uuid or event uuid) for a node, `turn:<model uuid>` for a turn and
 * `turns:<first model uuid>` for a turn group.
 *
 * @example
 * declare const store: SelectionStore;
 * declare const view: SpanTreeView;
 * declare const v: number; // the clicked view node
 * store.select(spanTreeViewKey(view, v));
 */
export function spanTreeViewKey(view: SpanTreeView, v: number): string {
  const tree = view.tree;
  const i = view.node[v]!;
  const type = view.type[v]!;
  if (type === VIEW_TURN) return `turn:${eventTreeNodeKey(tree, i)}`;
  if (type === VIEW_TURNS) return `turns:${eventTreeNodeKey(tree, i)}`;
  return eventTreeNodeKey(tree, i);
}

const keyIndexCache = new WeakMap<SpanTreeView, Map<string, number>>();

/**
 * The view node with key `key`, or `-1`; `hint` (a guess) is checked first.
 * A key of a tree node the view does not show (an event inside a span, in
 * `'spans'` mode) is not found: map it with {@link spanTreeViewNodeOf}. The
 * first miss builds an index over the view (O(n)), later lookups are O(1).
 *
 * @example
 * declare const store: SelectionStore;
 * declare const view: SpanTreeView;
 * const v = spanTreeViewIndexOf(view, store.getSnapshot().selected ?? '');
 */
export function spanTreeViewIndexOf(view: SpanTreeView, key: string, hint = -1): number {
  if (hint >= 0 && hint < view.length && spanTreeViewKey(view, hint) === key) return hint;
  let index = keyIndexCache.get(view);
  if (index === undefined) {
    index = new Map();
    for (let v = 0; v < view.length; v++) index.set(spanTreeViewKey(view, v), v);
    keyIndexCache.set(view, index);
  }
  return index.get(key) ?? -1;
}

/**
 * The view node that shows tree node `i`: the node itself when the view
 * has it, else its nearest shown ancestor (an event's span in `'spans'`
 * mode); `-1` when none is shown. O(log n + depth).
 *
 * @example
 * declare const view: SpanTreeView;
 * declare const selectedUuid: string;
 * const v = spanTreeViewNodeOf(view, eventTreeIndexOf(tree, selectedUuid));
 */
export function spanTreeViewNodeOf(view: SpanTreeView, i: number): number {
  const tree = view.tree;
  for (let at = i; at >= 0; at = tree.parentIndex[at]!) {
    // View nodes of type VIEW_NODE keep tree order: binary search the node
    // column for `at` (groups share their first member's index; skip them).
    let lo = 0;
    let hi = view.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const x = view.node[mid]!;
      if (x < at) lo = mid + 1;
      else hi = mid - 1;
    }
    for (let v = lo; v < view.length && view.node[v] === at; v++)
      if (view.type[v] === VIEW_NODE) return v;
  }
  return -1;
}
