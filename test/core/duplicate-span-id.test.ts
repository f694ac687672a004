// A span id begun twice: one rule, inspect_ai's (`_tree.py`), in every view.
// The last begin wins the node (its name, type and parent_id) and the node
// is shown once per begin, under that begin's parent, each copy holding
// every event of the id. The span tree, its views and the timeline must show
// the same copies; keys tell the copies apart; totals count each event once.
// See src/core/tree/event-tree.ts and README "Duplicate span ids".
import { isExpanded } from '../../src/core/selection/selection-store.js';
import { describe, expect, it } from 'vitest';
import {
  buildEventTree,
  buildSpanTreeView,
  buildTranscriptRows,
  createEventTreeBuilder,
  createSelectionStore,
  createTranscriptFind,
  filterSpanTreeView,
  eventTreeIndexOf,
  eventTreeNodeKey,
  sectionCounts,
  spanSummary,
  spanTreeRows,
  spanTreeViewIndexOf,
  spanTreeViewKey,
  visibleRows,
  type Event,
  type EventTree,
  type TimelineSpan,
} from '../../src/index.js';
import { buildTimeline } from '../../src/core/timeline/index.js';
import { layoutSwimlane } from '../../src/core/swimlane/index.js';
import { clock, parse, shape, spans, wire } from './helpers/timeline-wire.js';

const SEP = '\u241f';

/** A run whose agent span "a" is begun twice (a retried agent reusing its id). */
function run(): Event[] {
  const w = wire(clock());
  return parse([
    w.begin('a', 'first', 'agent'),
    w.model('m1', 'a'),
    w.end('a'),
    w.begin('a', 'second', 'agent', null, { uuid: 'sb-a-again' }),
    w.model('m2', 'a'),
    { ...w.end('a'), uuid: 'se-a-again' },
  ]);
}

/**
 * The same id begun under two different parent agents, "p" and "q", with
 * a nested agent "b" inside it: the copies sit under different parents.
 */
function twoParents(): Event[] {
  const w = wire(clock());
  return parse([
    w.begin('p', 'planner', 'agent'),
    w.begin('a', 'worker', 'agent', 'p'),
    w.model('m1', 'a'),
    w.begin('b', 'helper', 'agent', 'a'),
    w.model('m2', 'b'),
    w.end('b'),
    w.end('a'),
    w.end('p'),
    w.begin('q', 'reviewer', 'agent'),
    w.begin('a', 'worker-retry', 'agent', 'q', { uuid: 'sb-a-again' }),
    w.model('m3', 'a'),
    { ...w.end('a'), uuid: 'se-a-again' },
    w.end('q'),
  ]);
}

/** Each node as `kind name` (spans) or `kind uuid`, indented by depth. */
function outline(tree: EventTree): string[] {
  const out: string[] = [];
  for (let i = 0; i < tree.length; i++) {
    const s = tree.spanIndex[i]!;
    const e = tree.events[i]!;
    const label =
      s >= 0 ? `span ${tree.spans[s]!.id} ${tree.spans[s]!.name}` : `${e.event} ${e.uuid}`;
    out.push(`${'  '.repeat(tree.depth[i]!)}${label}`);
  }
  return out;
}

/** Agent spans of the tree as `parent > name: model uuids inside`, in pre-order. */
function treeAgents(tree: EventTree): string[] {
  const out: string[] = [];
  for (const span of tree.spans) {
    if (span.type !== 'agent') continue;
    let parent = 'main';
    for (let p = tree.parentIndex[span.index]!; p >= 0; p = tree.parentIndex[p]!) {
      const s = tree.spans[tree.spanIndex[p]!]!;
      if (s.type === 'agent') {
        parent = s.name;
        break;
      }
    }
    const models: string[] = [];
    for (let i = span.index + 1; i < tree.subtreeEnd[span.index]!; i++) {
      if (tree.events[i]!.event === 'model') models.push(tree.events[i]!.uuid);
    }
    out.push(`${parent} > ${span.name}: ${models.join(' ')}`);
  }
  return out;
}

/** The same from the timeline (names are lower-cased there, as inspect does). */
function timelineAgents(root: TimelineSpan): string[] {
  const out: string[] = [];
  const models = (s: TimelineSpan): string[] =>
    s.content.flatMap((c) =>
      c.type === 'event' ? (c.event.event === 'model' ? [c.event.uuid] : []) : models(c),
    );
  const walk = (s: TimelineSpan) => {
    for (const c of spans(s)) {
      out.push(`${s.name} > ${c.name}: ${models(c).join(' ')}`);
      walk(c);
    }
  };
  walk(root);
  return out;
}

describe('a span id begun twice: inspect’s rule in the tree', () => {
  it('shows the span once per begin, named by the last begin, each copy holding every event', () => {
    const tree = buildEventTree(run());
    expect(outline(tree)).toEqual([
      'span a second',
      '  model m1',
      '  model m2',
      'span a second',
      '  model m1',
      '  model m2',
    ]);
    // Both copies are the last begin, and end with the last end (inspect overwrites `end`).
    expect(tree.spans.map((s) => [s.begin.uuid, s.end?.uuid])).toEqual([
      ['sb-a-again', 'se-a-again'],
      ['sb-a-again', 'se-a-again'],
    ]);
    expect(tree.diagnostics.map((d) => [d.code, d.path])).toEqual([
      ['span_duplicate_id', '$[3]'],
      ['span_end_duplicate', '$[5]'],
    ]);
  });

  it('gives the copies unique keys: the first copy plain, the later one suffixed', () => {
    const tree = buildEventTree(run());
    const keys = Array.from({ length: tree.length }, (_, i) => eventTreeNodeKey(tree, i));
    expect(keys).toEqual(['a', 'm1', 'm2', `a${SEP}2`, `m1${SEP}2`, `m2${SEP}2`]);
    // The node index finds each copy by its key, and an event by uuid in the first copy.
    keys.forEach((key, i) => expect(eventTreeIndexOf(tree, key)).toBe(i));
    expect(eventTreeIndexOf(tree, 'm2')).toBe(2);
    expect(eventTreeIndexOf(tree, 'sb-a-again')).toBe(0);
  });

  it('agrees with the timeline: same copies, names, parents and events in each copy', () => {
    for (const events of [run(), twoParents()]) {
      const tree = buildEventTree(events);
      const t = buildTimeline(events);
      expect(treeAgents(tree).map((s) => s.toLowerCase())).toEqual(timelineAgents(t.root));
    }
    expect(treeAgents(buildEventTree(twoParents()))).toEqual([
      'main > planner: m1 m2 m3',
      'planner > worker-retry: m1 m2 m3',
      'worker-retry > helper: m2',
      'main > reviewer: m1 m2 m3',
      'reviewer > worker-retry: m1 m2 m3',
      'worker-retry > helper: m2',
    ]);
    // The timeline as inspect builds it: the same node twice, so equal copies.
    const t = buildTimeline(run());
    const copies = spans(t.root);
    expect(copies).toHaveLength(2);
    expect(copies[0]).toEqual(copies[1]);
    expect(shape(t.root.content)).toEqual(['[a: m1 m2]', '[a: m1 m2]']);
    expect(layoutSwimlane(t).rows.map((r) => `${r.depth} ${r.label}`)).toEqual([
      '0 main',
      '1 second 1',
      '1 second 2',
    ]);
  });

  it('shows the copies in the span tree and the transcript, each row with its own key', () => {
    const tree = buildEventTree(twoParents());
    const view = buildSpanTreeView(tree, { mode: 'spans' });
    const names = Array.from({ length: view.length }, (_, v) => {
      const i = view.node[v]!;
      return tree.spans[tree.spanIndex[i]!]!.name;
    });
    expect(names).toEqual([
      'planner',
      'worker-retry',
      'helper',
      'reviewer',
      'worker-retry',
      'helper',
    ]);
    const viewKeys = Array.from({ length: view.length }, (_, v) => spanTreeViewKey(view, v));
    expect(new Set(viewKeys).size).toBe(view.length);
    viewKeys.forEach((key, v) => expect(spanTreeViewIndexOf(view, key)).toBe(v));
    const rows = buildTranscriptRows(tree, { hiddenKinds: new Set() });
    const rowKeys = Array.from(rows.node, (i) => eventTreeNodeKey(tree, i));
    expect(rowKeys).toHaveLength(tree.length);
    expect(new Set(rowKeys).size).toBe(rowKeys.length);
  });

  it('finds and filters in every copy, each match its own node', async () => {
    const tree = buildEventTree(run());
    const find = createTranscriptFind();
    find.search('please solve', tree);
    await new Promise<void>((done) => {
      if (find.getSnapshot().done) return done();
      const stop = find.subscribe(() => {
        if (find.getSnapshot().done) {
          stop();
          done();
        }
      });
    });
    const { matches, count } = find.getSnapshot();
    expect(matches.slice(0, count).map((i) => eventTreeNodeKey(tree, i))).toEqual([
      'm1',
      'm2',
      `m1${SEP}2`,
      `m2${SEP}2`,
    ]);
    const view = buildSpanTreeView(tree, { mode: 'events' });
    const shown = filterSpanTreeView(view, { query: 'second', mode: 'strict' });
    expect(Array.from({ length: shown.length }, (_, v) => spanTreeViewKey(shown, v))).toEqual([
      'a',
      `a${SEP}2`,
    ]);
  });

  it('selects, collapses and expands each copy on its own', () => {
    const tree = buildEventTree(run());
    const second = eventTreeIndexOf(tree, `a${SEP}2`);
    expect(second).toBe(3);
    // Collapsing the second copy hides only its rows (transcript and tree rows).
    const collapsed = new Set([`a${SEP}2`]);
    expect(Array.from(buildTranscriptRows(tree, { collapsed }).node)).toEqual([0, 1, 2, 3]);
    expect(Array.from(visibleRows(tree, collapsed).node)).toEqual([0, 1, 2, 3]);
    expect(Array.from(buildTranscriptRows(tree, { collapsed: new Set(['a']) }).node)).toEqual([
      0, 3, 4, 5,
    ]);
    // The span tree: expanding one copy opens it alone.
    const view = buildSpanTreeView(tree, { mode: 'events' });
    const store = createSelectionStore();
    store.collapseAll();
    store.toggle(`a${SEP}2`, true);
    const expansion = store.getSnapshot().expanded;
    expect(isExpanded(expansion, 'a')).toBe(false);
    expect(isExpanded(expansion, `a${SEP}2`)).toBe(true);
    const open = spanTreeRows(view, expansion);
    expect(Array.from(open.view, (v) => spanTreeViewKey(view, v))).toEqual([
      'a',
      `a${SEP}2`,
      `m1${SEP}2`,
      `m2${SEP}2`,
    ]);
    // Selecting a copy selects that copy: its key resolves to it alone.
    store.select(`m1${SEP}2`);
    expect(eventTreeIndexOf(tree, store.getSnapshot().selected!)).toBe(4);
  });

  it('counts each event once in totals, while each copy shows what it holds', () => {
    const tree = buildEventTree(twoParents());
    // m1, m2, m3: 15 tokens each (10 in + 5 out).
    const all = { tokens: 0, events: 0 };
    for (let i = 0; i < tree.length; i = tree.subtreeEnd[i]!) {
      const s = spanSummary(tree, i);
      all.tokens += s.tokens;
      all.events += s.events + 1;
    }
    // Roots: planner (plain, holding the first copy) and reviewer (holding the later one).
    expect(all.tokens).toBe(3 * 15);
    // p, a (its last begin), m1, b, m2, m3, q: each node event once.
    expect(all.events).toBe(7);
    const p = spanSummary(tree, eventTreeIndexOf(tree, 'p'));
    const q = spanSummary(tree, eventTreeIndexOf(tree, 'q'));
    expect(p.tokens).toBe(45);
    expect(q.tokens).toBe(0);
    // A copy's own summary is its plain twin's.
    const a1 = spanSummary(tree, eventTreeIndexOf(tree, 'a'));
    const a2 = spanSummary(tree, eventTreeIndexOf(tree, `a${SEP}1.2`));
    expect(a2).toEqual(a1);
    expect(a1).toMatchObject({ tokens: 45, events: 4 });
    // Section counts are rows: what opening the section shows, copies included.
    const count = sectionCounts(tree, new Set());
    expect(count(eventTreeIndexOf(tree, 'q')).shown).toBe(5);
  });

  it('builds live as in one go when the duplicate begin arrives late (the node renames)', () => {
    const events = twoParents();
    const builder = createEventTreeBuilder();
    for (let k = 0; k < events.length; k++) {
      builder.append(events[k]!);
      const tree = builder.getSnapshot();
      const batch = buildEventTree(events.slice(0, k + 1));
      expect(outline(tree)).toEqual(outline(batch));
      expect(Array.from({ length: tree.length }, (_, i) => eventTreeNodeKey(tree, i))).toEqual(
        Array.from({ length: batch.length }, (_, i) => eventTreeNodeKey(batch, i)),
      );
      expect(tree.diagnostics).toEqual(batch.diagnostics);
    }
    // Before the second begin, the one node was named by the first.
    const before = buildEventTree(events.slice(0, 9));
    expect(before.spans.find((s) => s.id === 'a')!.name).toBe('worker');
    expect(
      buildEventTree(events)
        .spans.filter((s) => s.id === 'a')
        .map((s) => s.name),
    ).toEqual(['worker-retry', 'worker-retry']);
  });
});
