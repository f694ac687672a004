// The span tree as plain text (`skein tree`): the same view
// (`buildSpanTreeView`) and the same row facts (`rowFacts`) as <SpanTree>,
// fully expanded, drawn with box-drawing guides and right-hand columns for
// status, duration and tokens.
import { MAX_INDENT } from '../indent.js';
import type { Event } from '../events/types.js';
import { buildEventTree } from './event-tree.js';
import { buildSpanTreeView, type SpanTreeViewOptions } from './outline.js';
import { formatDuration, formatTokens } from '../format.js';
import { rowFacts, runExtent } from './row-facts.js';

/**
 * Options of {@link renderSpanTreeText}.
 *
 * @example
 * const options: SpanTreeTextOptions = { mode: 'events', width: 100 };
 */
export interface SpanTreeTextOptions {
  /** What the tree shows (`buildSpanTreeView`): `'spans'` (default), `'events'` or `'outline'`. */
  mode?: SpanTreeViewOptions['mode'];
  /** Longest line, in characters; names are cut with `…` to fit. Default 120. */
  width?: number;
  /** The clock for a running span's elapsed time (epoch ms). Default: the run's last time. */
  now?: number;
}

const STATUS: Record<string, string> = {
  ok: '',
  error: 'ERROR',
  running: 'running',
  cancelled: 'cancelled',
};

function cut(text: string, max: number): string {
  if (text.length <= max) return text; // code points ≤ UTF-16 units
  const chars = codePoints(text, max + 1);
  if (chars.length <= max) return text;
  return max <= 1 ? '…'.slice(0, max) : `${chars.slice(0, max - 1).join('')}…`;
}

/** The first `limit` code points of `text` (never the whole of a 50 MB name). */
function codePoints(text: string, limit: number): string[] {
  const out: string[] = [];
  for (const ch of text) {
    if (out.length === limit) break;
    out.push(ch);
  }
  return out;
}

/** `text`'s length in code points, counted up to `limit`. */
function textWidth(text: string, limit: number): number {
  return text.length <= limit ? [...text].length : codePoints(text, limit).length;
}

/**
 * The span tree of `events` as text, one line per node, fully expanded:
 * guides (`├─`, `└─`, `│`), the node's name and detail, then its status (when
 * not ok, with the failures inside a span), duration and tokens in aligned
 * columns. An empty input gives `''`.
 *
 * @example
 * renderSpanTreeText(stream.latest(), { mode: 'outline', width: 100 });
 * // 'solvers · solvers         12.3 s  1.2k\n├─ model mock/model   …'
 */
export function renderSpanTreeText(
  events: readonly Event[],
  options: SpanTreeTextOptions = {},
): string {
  const tree = buildEventTree(events);
  const view = buildSpanTreeView(tree, { mode: options.mode ?? 'spans' });
  if (view.length === 0) return '';
  const width = Math.max(40, options.width ?? 120);
  const extent = runExtent(tree);
  const now = options.now ?? extent.end;

  // Guides: for each open ancestor, whether more siblings follow it.
  const more: boolean[] = [];
  const rows: { label: string; status: string; duration: string; tokens: string }[] = [];
  for (let v = 0; v < view.length; v++) {
    const depth = view.depth[v]!;
    const last = view.posInSet[v]! === siblingCount(view, v);
    more.length = depth;
    let guide = '';
    // Guides for the nearest MAX_INDENT ancestors; deeper rows start with their depth.
    const from = Math.max(1, depth - MAX_INDENT);
    if (from > 1) guide += `⋯${depth} `;
    for (let d = from; d < depth; d++) guide += more[d] ? '│  ' : '   ';
    if (depth > 0) guide += last ? '└─ ' : '├─ ';
    more[depth] = !last;
    const f = rowFacts(view, v, extent, now);
    const name = f.detail !== '' ? `${f.name} · ${f.detail}` : f.name;
    let status = STATUS[f.status] ?? f.status;
    if (f.errors > 0 && f.events > 0) status = `${status || 'ok'}, ${f.errors} failed`;
    rows.push({
      label: guide + name,
      status,
      duration: formatDuration(f.durationMs),
      tokens: f.tokens > 0 ? `${formatTokens(f.tokens)} tok` : '',
    });
  }
  const col = (key: 'status' | 'duration' | 'tokens') =>
    rows.reduce((w, r) => Math.max(w, textWidth(r[key], 1000)), 0);
  const ws = col('status');
  const wd = col('duration');
  const wt = col('tokens');
  const right = (ws ? ws + 2 : 0) + (wd ? wd + 2 : 0) + (wt ? wt + 2 : 0);
  const labelMax = Math.max(10, width - right);
  const wl = Math.min(
    labelMax,
    rows.reduce((w, r) => Math.max(w, textWidth(r.label, labelMax)), 0),
  );
  const lines = rows.map((r) => {
    const label = cut(r.label, wl);
    let line = label + ' '.repeat(wl - textWidth(label, wl));
    if (ws) line += `  ${r.status.padEnd(ws)}`;
    if (wd) line += `  ${r.duration.padStart(wd)}`;
    if (wt) line += `  ${r.tokens.padStart(wt)}`;
    return line.trimEnd();
  });
  return `${lines.join('\n')}\n`;
}

/** The number of siblings of view node `v` (its parent's child count, or the root count). */
function siblingCount(view: ReturnType<typeof buildSpanTreeView>, v: number): number {
  const p = view.parent[v]!;
  return p < 0 ? view.rootCount : view.childCount[p]!;
}
