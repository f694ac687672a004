/**
 * Filtering a span tree by name, kind or text, in two modes:
 * - **strict**: only the matching nodes, each under its nearest matching
 *   ancestor;
 * - **loose**: the matching nodes with their whole subtrees, under their
 *   ancestors, which stay as context and are marked `dim` when they do not
 *   match themselves.
 * Both are O(n) over the view and keep its order and folds.
 */
import type { Event } from '../events/types.js';
import { VIEW_TURN, VIEW_TURNS, ViewEmitter, type SpanTreeView } from './outline.js';

/**
 * A filter: a query (case-insensitive, matched against a node's name, kind
 * and short text — see {@link spanTreeNodeText}) or a predicate over view
 * nodes, and a mode.
 *
 * @example
 * const filter: SpanTreeFilter = { query: 'bash', mode: 'loose' };
 */
export interface SpanTreeFilter {
  readonly query: string | ((view: SpanTreeView, v: number) => boolean);
  /** Default `'loose'`. */
  readonly mode?: 'strict' | 'loose';
}

/** The short text of an event a filter matches: its tool, model, error, name. */
function eventText(event: Event): string {
  const e = event as {
    function?: unknown;
    model?: unknown;
    name?: unknown;
    error?: unknown;
    message?: unknown;
  };
  let text = event.event;
  for (const value of [e.function, e.model, e.name, e.message]) {
    if (typeof value === 'string') text += ` ${value}`;
  }
  const error = e.error;
  if (typeof error === 'string') text += ` ${error}`;
  else if (typeof error === 'object' && error !== null) {
    const message = (error as { message?: unknown }).message;
    if (typeof message === 'string') text += ` ${message}`;
  }
  return text;
}

/**
 * What a filter query is matched against for view node `v`: a span's name,
 * type and `span`; an event's kind, tool function, model, name and error
 * message; `turn` / `turns` for outline groups.
 *
 * @example
 * import { spanTreeNodeText } from './filter.js';
 * const view = buildSpanTreeView(tree);
 * spanTreeNodeText(view, 0); // 'solvers solver span'
 */
export function spanTreeNodeText(view: SpanTreeView, v: number): string {
  const type = view.type[v]!;
  if (type === VIEW_TURN) return 'turn';
  if (type === VIEW_TURNS) return 'turns';
  const tree = view.tree;
  const i = view.node[v]!;
  const s = tree.spanIndex[i]!;
  if (s >= 0) {
    const span = tree.spans[s]!;
    return `${span.name} ${span.type ?? ''} ${span.origin}`;
  }
  return eventText(tree.events[i]!);
}

/**
 * The view narrowed by `filter` (module comment). An empty query returns
 * `view` itself.
 *
 * @example
 * const view = buildSpanTreeView(tree);
 * const shown = filterSpanTreeView(view, { query: 'error', mode: 'strict' });
 */
export function filterSpanTreeView(view: SpanTreeView, filter: SpanTreeFilter): SpanTreeView {
  const { query } = filter;
  if (typeof query === 'string' && query.trim() === '') return view;
  const needle = typeof query === 'string' ? query.trim().toLowerCase() : '';
  const matches =
    typeof query === 'function'
      ? (v: number) => query(view, v)
      : (v: number) => spanTreeNodeText(view, v).toLowerCase().includes(needle);
  const n = view.length;
  const match = new Uint8Array(n);
  for (let v = 0; v < n; v++) match[v] = matches(v) ? 1 : 0;
  const { parent, depth, node, type, folded, count, ordinal } = view;
  const out = new ViewEmitter(Math.min(n, 1024));
  const copy = (v: number, d: number, dim: boolean) => {
    const w = out.emit(node[v]!, type[v]!, d, folded[v] === 1, dim);
    out.count[w] = count[v]!;
    out.ordinal[w] = ordinal[v]!;
  };
  if (filter.mode === 'strict') {
    // Depth in the new view: one below the nearest kept ancestor.
    const newDepth = new Int32Array(n);
    for (let v = 0; v < n; v++) {
      const p = parent[v]!;
      // The depth a kept child of `v` gets (or of `v`'s nearest kept ancestor).
      const base = p < 0 ? 0 : newDepth[p]!;
      if (match[v] === 1) {
        copy(v, base, false);
        newDepth[v] = base + 1;
      } else newDepth[v] = base;
    }
    return out.finish(view.tree);
  }
  // Loose: a node is kept when it is inside a match or has one below it.
  const below = new Uint8Array(n);
  for (let v = n - 1; v >= 0; v--) {
    if (match[v] === 1) below[v] = 1;
    const p = parent[v]!;
    if (below[v] === 1 && p >= 0) below[p] = 1;
  }
  const inside = new Uint8Array(n);
  for (let v = 0; v < n; v++) {
    const p = parent[v]!;
    inside[v] = match[v] === 1 || (p >= 0 && inside[p] === 1) ? 1 : 0;
    if (inside[v] === 1 || below[v] === 1) copy(v, depth[v]!, inside[v] === 0);
  }
  return out.finish(view.tree);
}
