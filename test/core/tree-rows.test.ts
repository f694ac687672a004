import { rowOfNode } from '../../src/core/tree/visible-rows.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildEventTree,
  deepFreeze,
  eventTreeNodeKey,
  generateRun,
  visibleRow,
  visibleRows,
  type EventTree,
  type VisibleRows,
} from '../../src/index.js';
import { begin, end, info, malformedRun, step } from './helpers/tree-oracle.js';

/** Rows as `key depth parent end pos/size children expanded` strings. */
function dumpRows(tree: EventTree, rows: VisibleRows): string[] {
  return Array.from({ length: rows.length }, (_, r) => {
    const row = visibleRow(tree, rows, r);
    const flags = `${row.hasChildren ? 'c' : '-'}${row.expanded ? 'e' : '-'}`;
    return `${row.key} d${row.depth} p${row.parentIndex} e${row.subtreeEnd} ${row.posInSet}/${row.setSize} ${flags}`;
  });
}

/** The same rows, the slow way: filter hidden nodes, then count siblings. */
function naiveRows(tree: EventTree, collapsed: ReadonlySet<string>): string[] {
  const key = (i: number) => eventTreeNodeKey(tree, i);
  const parent = (i: number) => tree.parentIndex[i]!;
  const hidden = (i: number): boolean => {
    for (let p = parent(i); p !== -1; p = parent(p)) if (collapsed.has(key(p))) return true;
    return false;
  };
  const visible = Array.from({ length: tree.length }, (_, i) => i).filter((i) => !hidden(i));
  const rowOf = new Map(visible.map((i, r) => [i, r]));
  const all = Array.from({ length: tree.length }, (_, i) => i);
  return visible.map((i, r) => {
    const siblings = all.filter((j) => parent(j) === parent(i));
    const children = all.some((j) => parent(j) === i);
    const lastInside = visible.filter((j) => j >= i && j < tree.subtreeEnd[i]!).length;
    const flags = `${children ? 'c' : '-'}${children && !collapsed.has(key(i)) ? 'e' : '-'}`;
    const p = parent(i) === -1 ? -1 : rowOf.get(parent(i))!;
    return `${key(i)} d${tree.depth[i]} p${p} e${r + lastInside} ${siblings.indexOf(i) + 1}/${siblings.length} ${flags}`;
  });
}

const tree = buildEventTree([
  begin('b1', 'A'),
  info('e1', 'A'),
  begin('b2', 'B', 'A'),
  info('e2', 'B'),
  info('e3', 'B'),
  end('x2', 'B'),
  begin('b3', 'C', 'A'),
  end('x1', 'A'),
  info('e4'),
]);

describe('visibleRows', () => {
  it('shows every node when nothing is collapsed', () =>
    expect(dumpRows(tree, visibleRows(tree, new Set()))).toEqual([
      'A d0 p-1 e6 1/2 ce',
      'e1 d1 p0 e2 1/3 --',
      'B d1 p0 e5 2/3 ce',
      'e2 d2 p2 e4 1/2 --',
      'e3 d2 p2 e5 2/2 --',
      'C d1 p0 e6 3/3 --',
      'e4 d0 p-1 e7 2/2 --',
    ]));

  it('jumps over a collapsed subtree and keeps sibling positions', () =>
    expect(dumpRows(tree, visibleRows(tree, new Set(['B'])))).toEqual([
      'A d0 p-1 e4 1/2 ce',
      'e1 d1 p0 e2 1/3 --',
      'B d1 p0 e3 2/3 c-',
      'C d1 p0 e4 3/3 --',
      'e4 d0 p-1 e5 2/2 --',
    ]));

  it('hides nested collapsed subtrees under a collapsed ancestor', () =>
    expect(dumpRows(tree, visibleRows(tree, new Set(['A', 'B'])))).toEqual([
      'A d0 p-1 e1 1/2 c-',
      'e4 d0 p-1 e2 2/2 --',
    ]));

  it('ignores collapsed keys of leaves, empty spans and unknown ids', () =>
    expect(dumpRows(tree, visibleRows(tree, new Set(['e1', 'C', 'nope'])))).toEqual(
      dumpRows(tree, visibleRows(tree, new Set())),
    ));

  it('collapses legacy steps by their begin uuid', () => {
    const t = buildEventTree([step('s1', 'begin', 'init'), info('e1'), step('s2', 'end', 'init')]);
    expect(visibleRows(t, new Set(['s1'])).length).toBe(1);
  });

  it('gives an empty list for an empty tree', () =>
    expect(visibleRows(buildEventTree([]), new Set()).length).toBe(0));

  it('never mutates the tree, the events or the collapsed set (frozen)', () => {
    const events = deepFreeze(generateRun({ seed: 2, events: 300 }));
    const t = buildEventTree(events);
    const collapsed = Object.freeze(new Set([t.spans[1]!.id]));
    expect(() => visibleRows(t, collapsed)).not.toThrow();
  });

  it('matches the naive rows for any tree and any collapsed set (property)', () =>
    fc.assert(
      fc.property(
        malformedRun,
        fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'm0', 'm3', 'm5')),
        (events, keys) => {
          const t = buildEventTree(events);
          const collapsed = new Set(keys);
          expect(dumpRows(t, visibleRows(t, collapsed))).toEqual(naiveRows(t, collapsed));
        },
      ),
      { numRuns: 400 },
    ));

  it('matches the naive rows on a generated run with a few spans collapsed', () => {
    const t = buildEventTree(generateRun({ seed: 8, events: 1500 }));
    const collapsed = new Set(t.spans.filter((_, s) => s % 7 === 3).map((s) => s.id));
    expect(dumpRows(t, visibleRows(t, collapsed))).toEqual(naiveRows(t, collapsed));
  });
});

describe('rowOfNode and visibleRow', () => {
  it('finds the row of a visible node and -1 for a hidden one', () => {
    const rows = visibleRows(tree, new Set(['B']));
    expect(rowOfNode(rows, 0)).toBe(0);
    expect(rowOfNode(rows, 5)).toBe(3);
    expect(rowOfNode(rows, 3)).toBe(-1);
  });

  it('describes a row with its event and span', () => {
    const row = visibleRow(tree, visibleRows(tree, new Set()), 2);
    expect(row).toMatchObject({ index: 2, key: 'B', span: { name: 'B', childCount: 2 } });
    expect(row.event.uuid).toBe('b2');
    expect(() => visibleRow(tree, visibleRows(tree, new Set()), 99)).toThrow(
      expect.objectContaining({
        code: 'index_out_of_range',
        message: 'visibleRow: row 99 is outside [0, 7)',
      }),
    );
  });
});
