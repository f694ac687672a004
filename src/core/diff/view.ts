/**
 * What a run diff shows, as data: the rows with runs of identical steps
 * folded (`buildRunDiffView`, shared by the text report and `<RunDiff>`),
 * the keyboard map of the two-column view (`runDiffKeyAction`), the text a
 * changed step's word-level diff compares (`runStepText`) and the shared
 * step axis both runs' swimlanes are drawn on (`runDiffStepAxis`). Pure.
 */
import type { Content, Event } from '../events/types.js';
import { isRunDiffDivergence } from './diff-runs.js';
import type { RunDiff } from './types.js';

/**
 * Options of {@link buildRunDiffView}.
 *
 * @example
 * declare const diff: RunDiff;
 * buildRunDiffView(diff, { context: 3, expanded: new Set(['fold:u12']) });
 */
export interface RunDiffViewOptions {
  /** Identical rows kept on each side of a difference (default 2). */
  context?: number;
  /** Folds opened (their keys, {@link RunDiffView.foldKey}). */
  expanded?: ReadonlySet<string>;
  /** Shortest run of identical rows folded (default 4; shorter runs are shown). */
  minFold?: number;
}

/**
 * The rows a run diff shows: display row `v` is diff row `row[v]`, or,
 * when `row[v]` is `-1`, a fold standing for `count[v]` identical rows from
 * diff row `start[v]` on.
 *
 * @example
 * declare function show(...values: unknown[]): void;
 * declare const diff: RunDiff;
 * const view = buildRunDiffView(diff);
 * for (let v = 0; v < view.length; v++)
 *   show(view.row[v]! < 0 ? `… ${view.count[v]} identical steps` : diff.rows[view.row[v]!]!.status);
 */
export interface RunDiffView {
  readonly diff: RunDiff;
  readonly length: number;
  readonly row: Int32Array;
  readonly start: Int32Array;
  readonly count: Int32Array;
  /** Display row of diff row `r` (a folded row: its fold's). */
  displayOf(r: number): number;
  /** Stable key of display row `v`: its steps' uuids, or `fold:` + its first step's. */
  keyOf(v: number): string;
}

/**
 * The key of diff row `r`: `a-uuid|b-uuid` (either empty), stable while a
 * live run grows.
 *
 * @example
 * declare const diff: RunDiff;
 * runDiffRowKey(diff, 0); // 'e1|f1'
 */
export function runDiffRowKey(diff: RunDiff, r: number): string {
  const row = diff.rows[r]!;
  const a = row.a === null ? '' : diff.a.steps[row.a]!.uuid;
  const b = row.b === null ? '' : diff.b.steps[row.b]!.uuid;
  return `${a}|${b}`;
}

/**
 * The rows of `diff` to show: every row that differs and `context` rows on
 * each side of it; runs of at least `minFold` other identical rows fold
 * into one row, unless their key is in `expanded`. O(rows).
 *
 * @example
 * declare const a: Event[], b: Event[];
 * const view = buildRunDiffView(diffRuns(a, b), { context: 1 });
 * view.length; // rows to draw, folds included
 */
export function buildRunDiffView(diff: RunDiff, options: RunDiffViewOptions = {}): RunDiffView {
  const context = Math.max(0, Math.floor(options.context ?? 2));
  const minFold = Math.max(1, Math.floor(options.minFold ?? 4));
  const expanded = options.expanded;
  const rows = diff.rows;
  const n = rows.length;
  // Distance to the nearest differing row, capped: kept when ≤ context.
  const keep = new Uint8Array(n);
  let last = Number.NEGATIVE_INFINITY;
  for (let r = 0; r < n; r++) {
    if (rows[r]!.status !== 'same') last = r;
    if (r - last <= context) keep[r] = 1;
  }
  last = Number.POSITIVE_INFINITY;
  for (let r = n - 1; r >= 0; r--) {
    if (rows[r]!.status !== 'same') last = r;
    if (last - r <= context) keep[r] = 1;
  }
  const row = new Int32Array(n + 1);
  const start = new Int32Array(n + 1);
  const count = new Int32Array(n + 1);
  const displayRow = new Int32Array(n);
  let v = 0;
  for (let r = 0; r < n;) {
    if (keep[r] === 1) {
      displayRow[r] = v;
      row[v] = r;
      start[v] = r;
      count[v++] = 1;
      r++;
      continue;
    }
    let end = r;
    while (end < n && keep[end] === 0) end++;
    const folded =
      end - r >= minFold && !(expanded !== undefined && expanded.has(foldKey(diff, r)));
    if (folded) {
      for (let k = r; k < end; k++) displayRow[k] = v;
      row[v] = -1;
      start[v] = r;
      count[v++] = end - r;
    } else {
      for (let k = r; k < end; k++) {
        displayRow[k] = v;
        row[v] = k;
        start[v] = k;
        count[v++] = 1;
      }
    }
    r = end;
  }
  return {
    diff,
    length: v,
    row: row.subarray(0, v),
    start: start.subarray(0, v),
    count: count.subarray(0, v),
    displayOf: (r) => displayRow[r] ?? -1,
    keyOf: (d) => (row[d]! < 0 ? foldKey(diff, start[d]!) : runDiffRowKey(diff, row[d]!)),
  };
}

function foldKey(diff: RunDiff, r: number): string {
  return `fold:${runDiffRowKey(diff, r)}`;
}

/**
 * What a key does in `<RunDiff>`: move the focus (arrows, Home/End,
 * PageUp/PageDown, `n`/`p` next and previous difference, `f` the first
 * divergence), or toggle the focused row (Enter or Space: open a fold, show
 * or hide a changed row's word diff).
 *
 * @example
 * declare function show(...values: unknown[]): void;
 * declare const view: RunDiffView;
 * const action = runDiffKeyAction({ key: 'n' }, view, 0, (v, d) => v + 10 * d);
 * if (action.type === 'focus') show('go to', action.row);
 */
export type RunDiffKeyAction =
  | { readonly type: 'focus'; readonly row: number }
  | { readonly type: 'toggle'; readonly row: number }
  | { readonly type: 'none' };

/**
 * The action of `key` on `view` with display row `focused` focused (`-1`:
 * none yet); `page(v, direction)` is the row a page away (the list engine's).
 * Modified keys (Ctrl, Meta, Alt) are left to the page.
 *
 * @example
 * declare const view: RunDiffView;
 * runDiffKeyAction({ key: 'f' }, view, 12, (v) => v); // { type: 'focus', row: <first divergence> }
 */
export function runDiffKeyAction(
  input: { key: string; ctrlKey?: boolean; metaKey?: boolean; altKey?: boolean },
  view: RunDiffView,
  focused: number,
  page: (v: number, direction: 1 | -1) => number,
): RunDiffKeyAction {
  const n = view.length;
  if (n === 0 || input.ctrlKey === true || input.metaKey === true || input.altKey === true)
    return { type: 'none' };
  const at = focused >= 0 && focused < n ? focused : -1;
  const focus = (row: number): RunDiffKeyAction =>
    row >= 0 && row < n && row !== at ? { type: 'focus', row } : { type: 'none' };
  const differs = (v: number) =>
    view.row[v]! >= 0 && isRunDiffDivergence(view.diff.rows[view.row[v]!]!);
  switch (input.key) {
    case 'ArrowDown':
      return focus(at < 0 ? 0 : Math.min(n - 1, at + 1));
    case 'ArrowUp':
      return focus(at < 0 ? 0 : Math.max(0, at - 1));
    case 'Home':
      return focus(0);
    case 'End':
      return focus(n - 1);
    case 'PageDown':
      return focus(page(Math.max(0, at), 1));
    case 'PageUp':
      return focus(page(Math.max(0, at), -1));
    case 'n':
      for (let v = at + 1; v < n; v++) if (differs(v)) return focus(v);
      return { type: 'none' };
    case 'p':
      for (let v = at - 1; v >= 0; v--) if (differs(v)) return focus(v);
      return { type: 'none' };
    case 'f': {
      const first = view.diff.firstDivergence;
      return first === null ? { type: 'none' } : focus(view.displayOf(first.row));
    }
    case 'Enter':
    case ' ':
      return at >= 0 ? { type: 'toggle', row: at } : { type: 'none' };
    default:
      return { type: 'none' };
  }
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const part of content as Content[]) {
    if (part === null || typeof part !== 'object') continue;
    if (part.type === 'text') parts.push(str(part.text));
    else if (part.type === 'reasoning') parts.push(str(part.reasoning));
  }
  return parts.join('\n');
}

/** JSON of `value`, or its string; never throws. */
function json(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value, null, 1) ?? '';
  } catch {
    return String(value);
  }
}

/**
 * The text of a step a word-level diff compares, at most `max` characters:
 * a tool call's arguments and result (and error), a model call's answer and
 * the calls it asked for (and error), a message's text, an error's message,
 * a score's value and explanation, a span's name and type; other kinds as
 * JSON without their envelope. Text, never markup: draw it as text.
 *
 * @example
 * runStepText(toolEvent); // '{\n "cmd": "ls"\n}\n→ a.txt b.txt'
 */
export function runStepText(event: Event, max = 4000): string {
  const e = event as unknown as Record<string, unknown>;
  let text: string;
  switch (event.event) {
    case 'tool': {
      const error = e['error'] as { message?: unknown } | null | undefined;
      const result = e['result'];
      text = `${json(e['arguments'])}\n→ ${typeof result === 'string' ? result : json(result)}`;
      if (error !== undefined && error !== null) text += `\n✕ ${str(error.message)}`;
      break;
    }
    case 'model': {
      const output = e['output'] as
        | {
            completion?: unknown;
            choices?: {
              message?: {
                content?: unknown;
                tool_calls?: { function?: unknown; arguments?: unknown }[] | null;
              };
            }[];
          }
        | undefined;
      const message = output?.choices?.[0]?.message;
      text = str(output?.completion) || contentText(message?.content);
      for (const call of message?.tool_calls ?? []) {
        text += `\n${str(call?.function)}(${json(call?.arguments)})`;
      }
      if (typeof e['error'] === 'string' && e['error'] !== '') text += `\n✕ ${e['error']}`;
      break;
    }
    case 'message':
      text = contentText(e['content']);
      break;
    case 'error':
      text = str((e['error'] as { message?: unknown } | null)?.message);
      break;
    case 'score': {
      const score = e['score'] as {
        value?: unknown;
        answer?: unknown;
        explanation?: unknown;
      } | null;
      text = [json(score?.value), str(score?.answer), str(score?.explanation)]
        .filter((t) => t !== '')
        .join('\n');
      break;
    }
    case 'span_begin':
      text = `${str(e['name'])} ${str(e['type'])}`.trim();
      break;
    default: {
      const { uuid: _u, span_id: _s, timestamp: _t, event: _e, ...rest } = e;
      text = json(rest);
    }
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * A run's time mapped onto the shared step axis of a diff: `toRow(t)` is
 * the diff row at which that run's steps reach time `t` (epoch ms), from
 * the start times of its steps and the rows they are on; a monotone step
 * function, so one run's swimlane (laid out in time, core `layoutSwimlane`)
 * can be drawn on the same axis as the other's.
 *
 * @example
 * declare const diff: RunDiff;
 * const axis = runDiffStepAxis(diff, 'a');
 * axis.toRow(Date.parse('2026-06-10T18:24:00Z')); // a row index in [0, diff.rows.length)
 */
export function runDiffStepAxis(
  diff: RunDiff,
  side: 'a' | 'b',
): { toRow(t: number): number; start: number; end: number } {
  const steps = side === 'a' ? diff.a.steps : diff.b.steps;
  const times: number[] = [];
  const at: number[] = [];
  const rows = diff.rows;
  for (let r = 0; r < rows.length; r++) {
    const s = side === 'a' ? rows[r]!.a : rows[r]!.b;
    const t = s === null ? null : steps[s]!.start;
    if (t === null) continue;
    times.push(t);
    at.push(r);
  }
  const order = times.map((_, i) => i).sort((x, y) => times[x]! - times[y]! || at[x]! - at[y]!);
  const ts = new Float64Array(order.length);
  const rs = new Float64Array(order.length);
  let most = 0;
  for (let k = 0; k < order.length; k++) {
    const i = order[k]!;
    ts[k] = times[i]!;
    // Monotone: never a row before one an earlier time reached.
    most = Math.max(most, at[i]!);
    rs[k] = most;
  }
  const start = ts.length > 0 ? ts[0]! : 0;
  const end = ts.length > 0 ? ts[ts.length - 1]! : 0;
  return {
    start,
    end,
    toRow(t: number): number {
      if (ts.length === 0 || !(t >= start)) return 0;
      let lo = 0;
      let hi = ts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >>> 1;
        if (ts[mid]! <= t) lo = mid;
        else hi = mid - 1;
      }
      return rs[lo]!;
    },
  };
}
