/**
 * The rows a list view shows: the tree's pre-order minus everything below a
 * collapsed node, in one linear pass that jumps over collapsed subtrees
 * (flat arrays, not nested objects; jaeger-ui `generateRowStates`, React Aria `TreeCollection`).
 * Every row carries what an APG treegrid row needs (keyboard first): `aria-level`
 * is `depth + 1`, `aria-posinset` is `posInSet`, `aria-setsize` is `setSize`,
 * `aria-expanded` follows `hasChildren`/`expanded`.
 */
import { SkeinError } from '../errors.js';
import type { Event } from '../events/types.js';
import { eventTreeNodeKey, type EventTree, type EventTreeSpan } from './event-tree.js';

/**
 * Visible rows as columns (row `r` shows tree node `node[r]`). Row-space
 * fields: `parentIndex` is the parent's row (`-1` at the root) and
 * `subtreeEnd` the exclusive end of the row's visible subtree. `posInSet`
 * (1-based) and `setSize` count siblings, which collapsing never hides.
 * `hasChildren` and `expanded` are `1`/`0`.
 *
 * @example
 * declare function setRowCount(count: number): void;
 * const collapsed = new Set(['span-agent-1']);
 * const rows = visibleRows(tree, collapsed);
 * setRowCount(rows.length);
 */
export interface VisibleRows {
  readonly length: number;
  readonly node: ArrayLike<number>;
  readonly depth: ArrayLike<number>;
  readonly parentIndex: ArrayLike<number>;
  readonly subtreeEnd: ArrayLike<number>;
  readonly posInSet: ArrayLike<number>;
  readonly setSize: ArrayLike<number>;
  readonly hasChildren: ArrayLike<number>;
  readonly expanded: ArrayLike<number>;
}

/**
 * One visible row as an object, from {@link visibleRow}.
 *
 * @example
 * declare const rows: VisibleRows;
 * const row = visibleRow(tree, rows, 0);
 * <div role="row" aria-level={row.depth + 1} aria-posinset={row.posInSet} aria-setsize={row.setSize} />;
 */
export interface VisibleRow {
  /** The row's position in the list. */
  readonly row: number;
  /** The tree node it shows. */
  readonly index: number;
  /** The node's stable key (`eventTreeNodeKey`: span id, step begin uuid or event uuid). */
  readonly key: string;
  readonly depth: number;
  readonly parentIndex: number;
  readonly subtreeEnd: number;
  readonly posInSet: number;
  readonly setSize: number;
  readonly hasChildren: boolean;
  readonly expanded: boolean;
  /** The node's event (a span's begin event). */
  readonly event: Event;
  /** The span or step, for a span node; otherwise `null`. */
  readonly span: EventTreeSpan | null;
}

/**
 * Flattens `tree` into visible rows, hiding the descendants of every node
 * whose key (span id, or a step's begin uuid) is in `collapsed`. One linear
 * pass over the visible rows plus one over the spans; never mutates its input.
 *
 * @example
 * const rows = visibleRows(tree, new Set(['span-agent-1']));
 * declare function draw(row: VisibleRow): void;
 * for (let r = 0; r < rows.length; r++) draw(visibleRow(tree, rows, r));
 */
export function visibleRows(tree: EventTree, collapsed: ReadonlySet<string>): VisibleRows {
  const { depth, parentIndex, subtreeEnd, spanIndex, spans } = tree;
  const n = tree.length;

  // Count first (over spans only) so each column is allocated once, exactly.
  let count = n;
  if (collapsed.size > 0) {
    let skipUntil = 0;
    for (const span of spans) {
      const i = span.index;
      if (i < skipUntil || !collapsed.has(eventTreeNodeKey(tree, i))) continue;
      const end = subtreeEnd[i]!;
      count -= end - i - 1;
      skipUntil = end;
    }
  }

  const rowNode = new Int32Array(count);
  const rowDepth = new Int32Array(count);
  const rowParent = new Int32Array(count);
  const rowEnd = new Int32Array(count);
  const posInSet = new Int32Array(count);
  const setSize = new Int32Array(count);
  const hasChildren = new Uint8Array(count);
  const expanded = new Uint8Array(count);
  // Rows of the expanded ancestors of the current row, outermost first.
  const open: number[] = [];
  // posInSet so far at each depth.
  const position: number[] = [];
  let previousDepth = -1;
  let r = 0;
  let i = 0;
  while (i < n) {
    const d = depth[i]!;
    while (open.length > 0 && rowDepth[open[open.length - 1]!]! >= d) rowEnd[open.pop()!] = r;
    // Going one level down starts a new sibling list; otherwise it continues.
    const pos = d > previousDepth ? 1 : position[d]! + 1;
    position[d] = pos;
    previousDepth = d;
    const p = parentIndex[i]!;
    rowNode[r] = i;
    rowDepth[r] = d;
    rowParent[r] = open.length > 0 ? open[open.length - 1]! : -1;
    posInSet[r] = pos;
    setSize[r] = p === -1 ? tree.rootCount : spans[spanIndex[p]!]!.childCount;
    const end = subtreeEnd[i]!;
    if (end > i + 1) {
      hasChildren[r] = 1;
      if (collapsed.size > 0 && collapsed.has(eventTreeNodeKey(tree, i))) {
        rowEnd[r] = r + 1;
        r++;
        i = end;
        continue;
      }
      expanded[r] = 1;
      open.push(r);
    } else {
      rowEnd[r] = r + 1;
    }
    r++;
    i++;
  }
  while (open.length > 0) rowEnd[open.pop()!] = r;
  return Object.freeze({
    length: count,
    node: rowNode,
    depth: rowDepth,
    parentIndex: rowParent,
    subtreeEnd: rowEnd,
    posInSet,
    setSize,
    hasChildren,
    expanded,
  });
}

/**
 * An object view of row `r` (O(1); build only the rows on screen).
 *
 * @example
 * const rows = visibleRows(tree, new Set());
 * const { key, depth, expanded, span } = visibleRow(tree, rows, 0);
 */
export function visibleRow(tree: EventTree, rows: VisibleRows, r: number): VisibleRow {
  if (!(r >= 0 && r < rows.length))
    throw new SkeinError('index_out_of_range', 'visibleRow: row', r, rows.length);
  const index = rows.node[r]!;
  const s = tree.spanIndex[index]!;
  const span = s >= 0 ? tree.spans[s]! : null;
  const event = tree.events[index]!;
  return {
    row: r,
    index,
    key: eventTreeNodeKey(tree, index),
    depth: rows.depth[r]!,
    parentIndex: rows.parentIndex[r]!,
    subtreeEnd: rows.subtreeEnd[r]!,
    posInSet: rows.posInSet[r]!,
    setSize: rows.setSize[r]!,
    hasChildren: rows.hasChildren[r] === 1,
    expanded: rows.expanded[r] === 1,
    event,
    span,
  };
}

/**
 * The row showing tree node `index`, or `-1` when it is hidden under a
 * collapsed ancestor. O(log rows): rows keep pre-order, so `node` is sorted.
 *
 * @example
 * import { rowOfNode } from './visible-rows.js';
 * declare const rows: VisibleRows;
 * declare const selectedUuid: string;
 * declare function reveal(row: number): void;
 * const r = rowOfNode(rows, eventTreeIndexOf(tree, selectedUuid));
 * if (r >= 0) reveal(r);
 */
export function rowOfNode(rows: Pick<VisibleRows, 'length' | 'node'>, index: number): number {
  let lo = 0;
  let hi = rows.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = rows.node[mid]!;
    if (v === index) return mid;
    if (v < index) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}
