/**
 * The rows a span tree draws: a {@link SpanTreeView} minus the subtrees of
 * collapsed nodes, in one linear pass that jumps over them (flat arrays, not nested objects), and
 * the expansion edits the tree's commands need (expand to a node, expand a
 * node's siblings).
 */
import { isExpanded, withExpanded, type Expansion } from '../selection/selection-store.js';
import { markRowsContinued } from '../list/carry.js';
import { spanTreeViewKey, viewContinues, type SpanTreeView } from './outline.js';

/**
 * Visible rows: row `r` shows view node `view[r]`; `expanded[r]` is 1 when
 * the node has children and shows them. `aria-level` is
 * `view.depth[v] + 1`, `aria-posinset` `view.posInSet[v]`, `aria-setsize`
 * the parent's `childCount` (or `view.rootCount`).
 *
 * @example
 * declare const view: SpanTreeView;
 * declare const expansion: Expansion;
 * const rows = spanTreeRows(view, expansion);
 * rows.length; // rows to virtualize
 */
export interface SpanTreeRows {
  readonly length: number;
  readonly view: Int32Array;
  readonly expanded: Uint8Array;
}

/**
 * Flattens `view` under `expansion`. O(visible rows + collapsed nodes); a
 * key is built only for nodes with children, and not at all when
 * `expansion` lists no exceptions.
 *
 * @example
 * const view = buildSpanTreeView(tree);
 * const rows = spanTreeRows(view, { all: true, except: new Set() });
 */
export function spanTreeRows(view: SpanTreeView, expansion: Expansion): SpanTreeRows {
  let built = rowsCache.get(view);
  const hit = built?.find((b) => b.expansion === expansion);
  if (hit !== undefined) return hit.rows;
  // A live view that went on from an earlier one: go on from that
  // view's rows under the same expansion (the same object).
  const c = viewContinues(view);
  const old =
    c === undefined ? undefined : rowsCache.get(c.previous)?.find((b) => b.expansion === expansion);
  const rows =
    old !== undefined && c!.keep > 0
      ? flattenRows(view, expansion, c!.keep - 1, old.rows)
      : flattenRows(view, expansion, 0, null);
  if (built === undefined) rowsCache.set(view, (built = []));
  if (built.length >= 4) built.shift();
  built.push({ expansion, rows });
  return rows;
}

const rowsCache = new WeakMap<SpanTreeView, { expansion: Expansion; rows: SpanTreeRows }[]>();

/**
 * The rows of `view` from view node `start` on, after the rows of `before`
 * (rows of an earlier view that kept every node up to `start`) that show
 * nodes before it; from scratch when `before` is `null`.
 */
function flattenRows(
  view: SpanTreeView,
  expansion: Expansion,
  start: number,
  before: SpanTreeRows | null,
): SpanTreeRows {
  const n = view.length;
  const { childCount, subtreeEnd, folded } = view;
  const plain = expansion.except.size === 0;
  const isOpen = (v: number) => {
    const f = folded[v] === 1;
    return plain ? !f && expansion.all : isExpanded(expansion, spanTreeViewKey(view, v), f);
  };
  let r = 0;
  let v = start;
  let keep = 0;
  if (before !== null) {
    // Rows keep view order: those of nodes before `start` come first.
    for (let hi = before.length; keep < hi;) {
      const mid = (keep + hi) >>> 1;
      if (before.view[mid]! < start) keep = mid + 1;
      else hi = mid;
    }
    // Go on after the outermost closed ancestor of `start`, if any.
    for (let p = view.parent[start]!; p !== -1; p = view.parent[p]!) {
      if (!isOpen(p)) v = subtreeEnd[p]!;
    }
    r = keep;
  }
  const rowView = new Int32Array(keep + n - v);
  const expanded = new Uint8Array(keep + n - v);
  if (before !== null) {
    rowView.set(before.view.subarray(0, keep));
    expanded.set(before.expanded.subarray(0, keep));
  }
  while (v < n) {
    rowView[r] = v;
    if (childCount[v]! > 0) {
      const f = folded[v] === 1;
      const open = plain ? !f && expansion.all : isExpanded(expansion, spanTreeViewKey(view, v), f);
      if (!open) {
        r++;
        v = subtreeEnd[v]!;
        continue;
      }
      expanded[r] = 1;
    }
    r++;
    v++;
  }
  const rows: SpanTreeRows = Object.freeze({
    length: r,
    view: rowView.subarray(0, r),
    expanded: expanded.subarray(0, r),
  });
  if (before !== null) markRowsContinued(rows, before, keep);
  return rows;
}

/**
 * The row showing view node `v`, or `-1` when it is under a collapsed node.
 * O(log rows): rows keep the view's order.
 *
 * @example
 * declare const rows: SpanTreeRows;
 * declare const v: number; // a view node
 * const r = spanTreeRowOf(rows, v); // its row, or -1 when a collapsed ancestor hides it
 */
export function spanTreeRowOf(rows: SpanTreeRows, v: number): number {
  let lo = 0;
  let hi = rows.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const x = rows.view[mid]!;
    if (x === v) return mid;
    if (x < v) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/**
 * `expansion` with every ancestor of view node `v` expanded ("expand to
 * selection"), so `v` has a row. Returns `expansion` when nothing changes.
 *
 * @example
 * declare const store: SelectionStore;
 * declare const view: SpanTreeView;
 * declare const v: number;
 * store.setExpanded(expandToViewNode(view, store.getSnapshot().expanded, v));
 */
export function expandToViewNode(view: SpanTreeView, expansion: Expansion, v: number): Expansion {
  let next = expansion;
  for (let p = v >= 0 && v < view.length ? view.parent[v]! : -1; p >= 0; p = view.parent[p]!)
    next = withExpanded(next, spanTreeViewKey(view, p), true, view.folded[p] === 1);
  return next;
}

/**
 * `expansion` with view node `v` and all its siblings that have children
 * expanded (the treegrid's `*` key).
 *
 * @example
 * declare const store: SelectionStore;
 * declare const view: SpanTreeView;
 * declare const v: number;
 * store.setExpanded(expandSiblings(view, store.getSnapshot().expanded, v));
 */
export function expandSiblings(view: SpanTreeView, expansion: Expansion, v: number): Expansion {
  if (!(v >= 0 && v < view.length)) return expansion;
  const p = view.parent[v]!;
  const end = p < 0 ? view.length : view.subtreeEnd[p]!;
  let next = expansion;
  for (let s = p + 1; s < end; s = view.subtreeEnd[s]!) {
    if (view.childCount[s]! > 0)
      next = withExpanded(next, spanTreeViewKey(view, s), true, view.folded[s] === 1);
  }
  return next;
}
