import { VIEW_NODE } from '../../src/core/tree/outline.js';
import { isExpanded } from '../../src/core/selection/selection-store.js';
import { describe, expect, it } from 'vitest';
import {
  buildEventTree,
  buildSpanTreeView,
  createEventTreeFeed,
  eventTreeIndexOf,
  expandSiblings,
  expandToViewNode,
  filterSpanTreeView,
  generateRun,
  spanTreeRowOf,
  spanTreeRows,
  spanTreeViewIndexOf,
  spanTreeViewKey,
  spanTreeViewNodeOf,
  type Event,
  type SpanTreeView,
} from '../../src/index.js';
import { begin, end, info } from './helpers/tree-oracle.js';

const T = '2026-06-10T18:23:50Z';
const model = (uuid: string, span: string): Event =>
  ({
    event: 'model',
    uuid,
    timestamp: T,
    span_id: span,
    model: 'gpt',
    input: [],
    tools: [],
    tool_choice: 'auto',
    config: {},
    output: { model: 'gpt', choices: [] },
  }) as unknown as Event;
const tool = (uuid: string, span: string, fn = 'bash'): Event =>
  ({
    event: 'tool',
    uuid,
    timestamp: T,
    span_id: span,
    id: uuid,
    function: fn,
    arguments: {},
  }) as unknown as Event;

/** Each view node as `  key` indented by depth, with `+` for folded and `~` for dim. */
function dump(view: SpanTreeView): string[] {
  return Array.from(
    { length: view.length },
    (_, v) =>
      `${'  '.repeat(view.depth[v]!)}${spanTreeViewKey(view, v)}${view.folded[v] ? ' +' : ''}${view.dim[v] ? ' ~' : ''} ${view.posInSet[v]}`,
  );
}

const events: Event[] = [
  begin('b-main', 'main'),
  model('m1', 'main'),
  tool('t1', 'main'),
  tool('t2', 'main'),
  info('i1', 'main'),
  model('m2', 'main'),
  tool('t3', 'main', 'python'),
  begin('b-sub', 'sub', 'main', 'researcher'),
  model('m3', 'sub'),
  end('x-sub', 'sub'),
  model('m4', 'main'),
  end('x-main', 'main'),
  begin('b-score', 'scorers'),
  info('i2', 'scorers'),
  end('x-score', 'scorers'),
];
const tree = buildEventTree(events);

describe('buildSpanTreeView', () => {
  it('spans mode shows spans only, with positions among siblings', () => {
    expect(dump(buildSpanTreeView(tree))).toEqual(['main 1', '  sub 1', 'scorers 2']);
  });

  it('events mode shows every node', () => {
    const view = buildSpanTreeView(tree, { mode: 'events' });
    expect(view.length).toBe(tree.length);
    expect(dump(view).slice(0, 3)).toEqual(['main 1', '  m1 1', '  t1 2']);
  });

  it('outline: turns, "N turns", scoring folds, hidden kinds left out', () => {
    expect(dump(buildSpanTreeView(tree, { mode: 'outline' }))).toEqual([
      'main 1',
      '  turns:m1 + 1',
      '    turn:m1 + 1',
      '      m1 1',
      '      t1 2',
      '      t2 3',
      '    turn:m2 + 2',
      '      m2 1',
      '      t3 2',
      '  sub 2',
      '    turn:m3 + 1',
      '      m3 1',
      '  turn:m4 + 3',
      '    m4 1',
      'scorers + 2',
    ]);
    const view = buildSpanTreeView(tree, { mode: 'outline' });
    const group = spanTreeViewIndexOf(view, 'turns:m1');
    expect(view.count[group]).toBe(2);
    expect(view.ordinal[group]).toBe(1);
    expect(view.ordinal[spanTreeViewIndexOf(view, 'turn:m4')]).toBe(4);
  });

  it('handles 500-level nesting', () => {
    const deep: Event[] = [];
    for (let d = 0; d < 500; d++)
      deep.push(begin(`b${d}`, `s${d}`, d === 0 ? undefined : `s${d - 1}`));
    deep.push(model('m', 's499'));
    const t = buildEventTree(deep);
    for (const mode of ['spans', 'events', 'outline'] as const) {
      const view = buildSpanTreeView(t, { mode });
      expect(view.depth[499]).toBe(499);
      expect(spanTreeRows(view, { all: true, except: new Set() }).length).toBe(
        // outline: 500 spans and the folded turn of the model call
        mode === 'spans' ? 500 : 501,
      );
    }
  });

  it('maps keys and tree nodes onto view nodes', () => {
    const view = buildSpanTreeView(tree);
    expect(spanTreeViewIndexOf(view, 'sub')).toBe(1);
    expect(spanTreeViewIndexOf(view, 'sub', 1)).toBe(1);
    expect(spanTreeViewIndexOf(view, 'nope')).toBe(-1);
    // An event inside `sub` is shown by `sub` in spans mode.
    expect(spanTreeViewNodeOf(view, eventTreeIndexOf(tree, 'm3'))).toBe(1);
    expect(spanTreeViewNodeOf(view, eventTreeIndexOf(tree, 'main'))).toBe(0);
    expect(spanTreeViewNodeOf(view, eventTreeIndexOf(tree, 'i2'))).toBe(2);
  });
});

describe('eventTreeIndexOf', () => {
  it('finds spans by id and by begin uuid, events by uuid', () => {
    expect(eventTreeIndexOf(tree, 'main')).toBe(0);
    expect(eventTreeIndexOf(tree, 'b-main')).toBe(0);
    expect(tree.events[eventTreeIndexOf(tree, 't3')]!.uuid).toBe('t3');
    expect(eventTreeIndexOf(tree, 'missing')).toBe(-1);
    expect(eventTreeIndexOf(tree, 'main', 0)).toBe(0);
  });
});

describe('filterSpanTreeView', () => {
  const view = buildSpanTreeView(tree, { mode: 'events' });

  it('strict keeps only matches, under their nearest matching ancestor', () => {
    expect(dump(filterSpanTreeView(view, { query: 'PYTHON', mode: 'strict' }))).toEqual(['t3 1']);
    expect(dump(filterSpanTreeView(view, { query: 'main', mode: 'strict' }))).toEqual(['main 1']);
    const models = filterSpanTreeView(view, {
      query: (v, i) => v.tree.events[v.node[i]!]!.event === 'model',
      mode: 'strict',
    });
    expect(dump(models)).toEqual(['m1 1', 'm2 2', 'm3 3', 'm4 4']);
  });

  it('loose keeps matches with subtrees and dims non-matching ancestors', () => {
    expect(dump(filterSpanTreeView(view, { query: 'researcher' }))).toEqual([
      'main ~ 1',
      '  sub 1',
      '    m3 1',
    ]);
  });

  it('an empty query is the view itself', () => {
    expect(filterSpanTreeView(view, { query: '  ' })).toBe(view);
  });
});

describe('spanTreeRows', () => {
  const view = buildSpanTreeView(tree, { mode: 'events' });
  const all = { all: true, except: new Set<string>() };

  it('hides collapsed subtrees and marks expanded rows', () => {
    expect(spanTreeRows(view, all).length).toBe(view.length);
    const rows = spanTreeRows(view, { all: true, except: new Set(['main']) });
    expect(Array.from(rows.view, (v) => spanTreeViewKey(view, v))).toEqual([
      'main',
      'scorers',
      'i2',
    ]);
    expect(Array.from(rows.expanded)).toEqual([0, 1, 0]);
    expect(spanTreeRows(view, { all: false, except: new Set() }).length).toBe(2);
  });

  it('finds rows of view nodes, -1 when hidden', () => {
    const rows = spanTreeRows(view, { all: false, except: new Set(['main']) });
    const sub = spanTreeViewIndexOf(view, 'sub');
    expect(spanTreeRowOf(rows, sub)).toBeGreaterThan(0);
    expect(spanTreeRowOf(rows, spanTreeViewIndexOf(view, 'm3'))).toBe(-1);
  });

  it('expands to a node and expands siblings', () => {
    const none = { all: false, except: new Set<string>() };
    const m3 = spanTreeViewIndexOf(view, 'm3');
    const to = expandToViewNode(view, none, m3);
    expect(spanTreeRowOf(spanTreeRows(view, to), m3)).toBeGreaterThan(0);
    expect(isExpanded(to, 'scorers')).toBe(false);
    const sib = expandSiblings(view, none, 0);
    expect(isExpanded(sib, 'main') && isExpanded(sib, 'scorers')).toBe(true);
    expect(isExpanded(sib, 'sub')).toBe(false);
  });

  it('flattens the spans of a generated run', () => {
    const big = buildEventTree(generateRun({ seed: 1, events: 100_000 }));
    const spans = buildSpanTreeView(big);
    expect(spans.length).toBe(big.spans.length);
    const rows = spanTreeRows(spans, { all: true, except: new Set() });
    expect(rows.length).toBe(spans.length);
    expect(rows.view.every((v, r) => v === r)).toBe(true);
    expect(spans.type.every((t) => t === VIEW_NODE)).toBe(true);
  });
});

describe('createEventTreeFeed', () => {
  it('is the transcript feed', () => {
    const feed = createEventTreeFeed(events, { firstSlice: 5 });
    expect(feed.getSnapshot().tree.length).toBeGreaterThan(0);
    expect(feed.getSnapshot().loading).toBe(true);
  });
});
