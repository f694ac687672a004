/**
 * The span tree's keyboard as a pure function (keyboard first; WAI-ARIA APG
 * treegrid/treeview keyboard): the component translates a key press into a
 * {@link TreeKeyInput}, describes its rows through {@link TreeKeyRows} and
 * performs the returned action. Tested without a DOM.
 *
 * | key | action |
 * | --- | --- |
 * | ↓ / ↑ | next / previous row |
 * | → | collapsed node: expand; expanded node: first child |
 * | ← | expanded node: collapse; otherwise: parent |
 * | Home / End | first / last row |
 * | PageDown / PageUp | one viewport down / up (`rows.page`) |
 * | `*` | expand the focused node and all its siblings |
 * | Enter, Space | select the focused row |
 * | a printable character | type-ahead: the next row whose label starts with what was typed within 500 ms |
 *
 * In a right-to-left layout (`rtl`) ← and → swap.
 */

/**
 * A key press, as the map reads it.
 *
 * @example
 * declare const e: KeyboardEvent;
 * const rtl = getComputedStyle(e.target as Element).direction === 'rtl';
 * const input: TreeKeyInput = { key: e.key, ctrlKey: e.ctrlKey, rtl, time: e.timeStamp };
 */
export interface TreeKeyInput {
  /** `KeyboardEvent.key`. */
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
  /** A right-to-left layout: ← and → swap. */
  rtl?: boolean;
  /** When the key was pressed, ms (for type-ahead; any monotonic clock). */
  time?: number;
}

/**
 * The rows the keys move over, as the map needs them.
 *
 * @example
 * import { spanTreeNodeText } from './filter.js';
 * const view = buildSpanTreeView(tree);
 * const spanRows = spanTreeRows(view, { all: true, except: new Set() });
 * const v = (r: number) => spanRows.view[r]!; // the view node of row r
 * const rows: TreeKeyRows = {
 *   count: spanRows.length,
 *   focused: 0,
 *   parent: (r) => spanTreeRowOf(spanRows, view.parent[v(r)]!),
 *   hasChildren: (r) => view.childCount[v(r)]! > 0,
 *   expanded: (r) => spanRows.expanded[r] === 1,
 *   label: (r) => spanTreeNodeText(view, v(r)),
 *   page: (r, d) => Math.max(0, Math.min(spanRows.length - 1, r + 10 * d)),
 * };
 */
export interface TreeKeyRows {
  readonly count: number;
  /** The focused row (`-1`: none; the first key then focuses row 0). */
  readonly focused: number;
  /** The parent's row, or `-1` at the top level. */
  parent(row: number): number;
  hasChildren(row: number): boolean;
  expanded(row: number): boolean;
  /** The text type-ahead matches. */
  label(row: number): string;
  /** The row one page from `row` (see core `pageTarget`). */
  page(row: number, direction: 1 | -1): number;
}

/**
 * What a key does. `row` is always a row index of the rows described.
 *
 * @example
 * declare const action: TreeKeyAction;
 * declare function focusRow(row: number): void;
 * if (action.type === 'focus') focusRow(action.row);
 */
export type TreeKeyAction =
  | { readonly type: 'focus'; readonly row: number }
  | { readonly type: 'expand'; readonly row: number }
  | { readonly type: 'collapse'; readonly row: number }
  | { readonly type: 'expand-siblings'; readonly row: number }
  | { readonly type: 'select'; readonly row: number }
  | { readonly type: 'none' };

/**
 * Type-ahead state carried between key presses (start with
 * {@link TREE_TYPEAHEAD_START}).
 *
 * @example
 * let typeahead = TREE_TYPEAHEAD_START;
 */
export interface TreeTypeahead {
  readonly buffer: string;
  readonly time: number;
}

/**
 * The empty type-ahead state.
 *
 * @example
 * declare const rows: TreeKeyRows;
 * const { action, typeahead } = treeKeyAction({ key: 'b', time: 0 }, rows, TREE_TYPEAHEAD_START);
 */
export const TREE_TYPEAHEAD_START: TreeTypeahead = Object.freeze({
  buffer: '',
  time: Number.NEGATIVE_INFINITY,
});

/** Type-ahead keys further apart than this start a new search (ms). */
const TYPEAHEAD_MS = 500;
const NONE: TreeKeyAction = Object.freeze({ type: 'none' });

/**
 * The action of key press `input` on `rows`, and the type-ahead state after
 * it. `action.type === 'none'` means the key is not the tree's (let it
 * through: do not `preventDefault`).
 *
 * @example
 * declare const rows: TreeKeyRows;
 * let typeahead = TREE_TYPEAHEAD_START;
 * const { action, typeahead: next } = treeKeyAction({ key: 'ArrowRight' }, rows, typeahead);
 * typeahead = next;
 */
export function treeKeyAction(
  input: TreeKeyInput,
  rows: TreeKeyRows,
  typeahead: TreeTypeahead = TREE_TYPEAHEAD_START,
): { action: TreeKeyAction; typeahead: TreeTypeahead } {
  const result = (action: TreeKeyAction, t = typeahead) => ({ action, typeahead: t });
  const { count } = rows;
  if (count === 0 || input.ctrlKey === true || input.metaKey === true || input.altKey === true)
    return result(NONE);
  const at = rows.focused >= 0 && rows.focused < count ? rows.focused : -1;
  const focus = (row: number) =>
    result({ type: 'focus', row: Math.min(Math.max(row, 0), count - 1) });
  if (at < 0) {
    // Nothing focused yet: any navigation key lands on the first row.
    if (
      ['ArrowDown', 'ArrowUp', 'ArrowLeft', 'ArrowRight', 'Home', 'PageDown', 'PageUp'].includes(
        input.key,
      )
    )
      return focus(0);
    if (input.key === 'End') return focus(count - 1);
  }
  let key = input.key;
  if (input.rtl === true && (key === 'ArrowLeft' || key === 'ArrowRight'))
    key = key === 'ArrowLeft' ? 'ArrowRight' : 'ArrowLeft';
  switch (key) {
    case 'ArrowDown':
      return focus(at + 1);
    case 'ArrowUp':
      return focus(at - 1);
    case 'Home':
      return focus(0);
    case 'End':
      return focus(count - 1);
    case 'PageDown':
      return focus(rows.page(at, 1));
    case 'PageUp':
      return focus(rows.page(at, -1));
    case 'ArrowRight':
      if (!rows.hasChildren(at)) return result(NONE);
      if (!rows.expanded(at)) return result({ type: 'expand', row: at });
      return focus(at + 1);
    case 'ArrowLeft': {
      if (rows.hasChildren(at) && rows.expanded(at)) return result({ type: 'collapse', row: at });
      const p = rows.parent(at);
      return p >= 0 ? focus(p) : result(NONE);
    }
    case '*':
      return result({ type: 'expand-siblings', row: at });
    case 'Enter':
    case ' ':
      if (at < 0) return result(NONE);
      return result({ type: 'select', row: at });
    default:
      break;
  }
  if ([...key].length !== 1 || key === ' ') return result(NONE);
  // Type-ahead: keys within TYPEAHEAD_MS extend the search; a new search
  // starts after the focused row, an extended one at it.
  const time = input.time ?? 0;
  const extend = time - typeahead.time <= TYPEAHEAD_MS;
  const buffer = (extend ? typeahead.buffer : '') + key.toLowerCase();
  const next: TreeTypeahead = { buffer, time };
  const start = at < 0 ? 0 : extend && buffer.length > 1 ? at : at + 1;
  for (let k = 0; k < count; k++) {
    const r = (start + k) % count;
    if (rows.label(r).toLowerCase().startsWith(buffer))
      return result({ type: 'focus', row: r }, next);
  }
  return result(NONE, next);
}
