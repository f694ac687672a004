import { describe, expect, it } from 'vitest';
import {
  TREE_TYPEAHEAD_START,
  treeKeyAction,
  type TreeKeyInput,
  type TreeKeyRows,
} from '../../src/index.js';

/**
 * Rows of a small tree:
 *   0 agent        (expanded)
 *   1   bash
 *   2   browse     (collapsed, has children)
 *   3 scoring      (expanded)
 *   4   scorer
 */
function rows(focused: number, count = 5): TreeKeyRows {
  const parent = [-1, 0, 0, -1, 3];
  const children = [true, false, true, true, false];
  const expanded = [true, false, false, true, false];
  const labels = ['agent', 'bash', 'browse', 'scoring', 'scorer'];
  return {
    count,
    focused,
    parent: (r) => parent[r]!,
    hasChildren: (r) => children[r]!,
    expanded: (r) => expanded[r]!,
    label: (r) => labels[r]!,
    page: (r, d) => Math.min(Math.max(r + 3 * d, 0), count - 1),
  };
}
const act = (key: string, focused: number, extra: Partial<TreeKeyInput> = {}) =>
  treeKeyAction({ key, ...extra }, rows(focused)).action;

describe('treeKeyAction', () => {
  it.each([
    ['ArrowDown', 0, { type: 'focus', row: 1 }],
    ['ArrowDown', 4, { type: 'focus', row: 4 }],
    ['ArrowUp', 1, { type: 'focus', row: 0 }],
    ['ArrowUp', 0, { type: 'focus', row: 0 }],
    ['Home', 3, { type: 'focus', row: 0 }],
    ['End', 1, { type: 'focus', row: 4 }],
    ['PageDown', 0, { type: 'focus', row: 3 }],
    ['PageUp', 4, { type: 'focus', row: 1 }],
    // Right: expand a collapsed node, go into an expanded one, nothing on a leaf.
    ['ArrowRight', 2, { type: 'expand', row: 2 }],
    ['ArrowRight', 0, { type: 'focus', row: 1 }],
    ['ArrowRight', 1, { type: 'none' }],
    // Left: collapse an expanded node, go to the parent otherwise.
    ['ArrowLeft', 0, { type: 'collapse', row: 0 }],
    ['ArrowLeft', 2, { type: 'focus', row: 0 }],
    ['ArrowLeft', 4, { type: 'focus', row: 3 }],
    ['*', 1, { type: 'expand-siblings', row: 1 }],
    ['Enter', 2, { type: 'select', row: 2 }],
    [' ', 2, { type: 'select', row: 2 }],
    ['Tab', 2, { type: 'none' }],
    ['F5', 2, { type: 'none' }],
  ] as const)('%s on row %i', (key, focused, expected) => {
    expect(act(key, focused)).toEqual(expected);
  });

  it('swaps Left and Right in a right-to-left layout', () => {
    expect(act('ArrowLeft', 2, { rtl: true })).toEqual({ type: 'expand', row: 2 });
    expect(act('ArrowRight', 0, { rtl: true })).toEqual({ type: 'collapse', row: 0 });
    expect(act('ArrowRight', 4, { rtl: true })).toEqual({ type: 'focus', row: 3 });
  });

  it('leaves modified keys to the browser', () => {
    expect(act('ArrowDown', 0, { ctrlKey: true })).toEqual({ type: 'none' });
    expect(act('a', 0, { metaKey: true })).toEqual({ type: 'none' });
  });

  it('focuses the first row when nothing is focused', () => {
    expect(act('ArrowDown', -1)).toEqual({ type: 'focus', row: 0 });
    expect(act('End', -1)).toEqual({ type: 'focus', row: 4 });
    expect(act('Enter', -1)).toEqual({ type: 'none' });
    expect(treeKeyAction({ key: 'ArrowDown' }, rows(0, 0)).action).toEqual({ type: 'none' });
  });

  it('type-ahead: next match after the focused row, wrapping; typed runs extend', () => {
    let t = TREE_TYPEAHEAD_START;
    let r = treeKeyAction({ key: 'b', time: 1000 }, rows(0), t);
    expect(r.action).toEqual({ type: 'focus', row: 1 });
    t = r.typeahead;
    // 'br' within 500 ms: searched from the focused row, finds browse.
    r = treeKeyAction({ key: 'r', time: 1200 }, rows(1), t);
    expect(r.action).toEqual({ type: 'focus', row: 2 });
    expect(r.typeahead.buffer).toBe('br');
    // Later than 500 ms: a new search for 'b' after browse wraps to bash.
    r = treeKeyAction({ key: 'B', time: 2000 }, rows(2), r.typeahead);
    expect(r.action).toEqual({ type: 'focus', row: 1 });
    // 's' twice quickly is 'ss', which matches nothing.
    r = treeKeyAction({ key: 's', time: 3000 }, rows(0), TREE_TYPEAHEAD_START);
    expect(r.action).toEqual({ type: 'focus', row: 3 });
    r = treeKeyAction({ key: 's', time: 3100 }, rows(3), r.typeahead);
    expect(r.action).toEqual({ type: 'none' });
  });
});
