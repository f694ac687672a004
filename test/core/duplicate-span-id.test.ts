// The one place where skein's span tree and its timeline read a run
// differently on purpose: a span id begun twice. The timeline follows
// inspect_ai's `event_tree` exactly (the last begin wins the node, which is
// appended once per begin: the same subtree twice), because timeline parity
// with inspect depends on it; the span tree keeps the first begin and makes
// later begins leaves with a `span_duplicate_id` diagnostic, because its rows
// (selection, find, the node index) need one node per key. See
// src/core/tree/event-tree.ts and README "Duplicate span ids".
import { describe, expect, it } from 'vitest';
import {
  buildEventTree,
  buildSpanTreeView,
  createEventTreeBuilder,
  eventTreeNodeKey,
  type Event,
  type EventTree,
} from '../../src/core/index.js';
import { buildTimeline } from '../../src/core/timeline/index.js';
import { layoutSwimlane } from '../../src/core/swimlane/index.js';
import { clock, parse, shape, spans, wire } from './helpers/timeline-wire.js';

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

/** Each node as `kind uuid` (spans as `span id name`), indented by depth. */
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

describe('a span id begun twice', () => {
  it('span tree: the first begin is the node and holds every event of the id; the later begin is a leaf', () => {
    const tree = buildEventTree(run());
    expect(outline(tree)).toEqual([
      'span a first',
      '  model m1',
      '  model m2',
      'span_begin sb-a-again',
    ]);
    expect(tree.spans).toHaveLength(1);
    // The first end pairs with the first begin; the second is dropped.
    expect(tree.spans[0]!.end?.uuid).toBe('se-a');
    expect(tree.diagnostics.map((d) => d.code)).toEqual([
      'span_duplicate_id',
      'span_end_duplicate',
    ]);
    // Node keys stay unique: what selection, find and the node index rely on.
    const keys = Array.from({ length: tree.length }, (_, i) => eventTreeNodeKey(tree, i));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('span tree: the incremental builder (every live view) and the span-tree view agree', () => {
    const events = run();
    const live = createEventTreeBuilder();
    for (const e of events) live.append(e);
    const tree = live.getSnapshot();
    expect(outline(tree)).toEqual(outline(buildEventTree(events)));
    expect(tree.diagnostics.map((d) => d.code)).toContain('span_duplicate_id');
    // Spans mode: one row for the span.
    const view = buildSpanTreeView(tree, { mode: 'spans' });
    expect(view.length).toBe(1);
    expect(tree.spans[tree.spanIndex[view.node[0]!]!]!.name).toBe('first');
  });

  it('timeline: as inspect, the last begin wins the node and it appears once per begin', () => {
    const t = buildTimeline(run());
    const copies = spans(t.root);
    expect(copies).toHaveLength(2);
    // The same node twice (inspect appends one node per begin): equal copies.
    expect(copies[0]).toEqual(copies[1]);
    expect(copies[0]).toMatchObject({ id: 'a', name: 'second' });
    // Each copy holds every event of the id.
    expect(shape(t.root.content)).toEqual(['[a: m1 m2]', '[a: m1 m2]']);
    // So the swimlane draws it twice, where the span tree has one row.
    expect(layoutSwimlane(t).rows.map((r) => `${r.depth} ${r.label}`)).toEqual([
      '0 main',
      '1 second 1',
      '1 second 2',
    ]);
  });
});
