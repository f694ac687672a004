// Conformance of the span tree on the shared inspect_ai fixtures: the timeline
// fixtures (research/inspect_ai.md §3.9) and the real logs (§5.2). The checks
// are inspect's own invariants (research §2): event_sequence round-trips
// event_tree for well-formed input, every event lands exactly once, spans nest
// as their parent_ids say, unclosed spans stay open; plus skein's promise that
// the incremental builder gives the same tree in any arrival order.
import { expect, it } from 'vitest';
import {
  buildEventTree,
  createEventTreeBuilder,
  eventSequence,
  importInspectLog,
  parseEvents,
  visibleRows,
  type Event,
  type EventTree,
  type SpanBeginEvent,
  type SpanEndEvent,
} from '../../src/index.js';
import { dumpTree } from '../core/helpers/tree-oracle.js';
import { describeFixtures, listFixtures, readFixture } from './fixtures.js';

const timelineFiles = listFixtures('inspect_ai/timeline-events', '.json');
const logFiles = listFixtures('inspect_ai/logs').filter(
  (f) => f.endsWith('.eval') || f.endsWith('.json'),
);

/** Checks one sample's events and returns the tree. */
function checkTree(events: readonly Event[]): EventTree {
  const tree = buildEventTree(events);
  const begins = events.filter((e): e is SpanBeginEvent => e.event === 'span_begin');
  const ends = events.filter((e): e is SpanEndEvent => e.event === 'span_end');
  // Real logs and the upstream fixtures are well-formed: nothing to repair.
  expect(tree.diagnostics).toEqual([]);
  // Every event exactly once; span_ends come back as their span's end.
  const seq = eventSequence(tree);
  expect(seq).toHaveLength(events.length);
  expect(new Set(seq)).toEqual(new Set(events));
  // Each span sits under its parent_id's span (or at the root) and keeps its end.
  const byId = new Map(tree.spans.filter((s) => s.origin === 'span').map((s) => [s.id, s]));
  expect(byId.size).toBe(begins.length);
  for (const b of begins) {
    const span = byId.get(b.id)!;
    const parent = tree.parentIndex[span.index]!;
    const parentSpan = parent === -1 ? null : tree.spans[tree.spanIndex[parent]!]!;
    expect(parentSpan?.id ?? null).toBe(b.parent_id && byId.has(b.parent_id) ? b.parent_id : null);
    expect(span.end).toBe(ends.find((e) => e.id === b.id) ?? null);
  }
  // Every non-span event sits in the span its span_id names (steps aside).
  for (let i = 0; i < tree.length; i++) {
    const e = tree.events[i]!;
    if (tree.spanIndex[i]! >= 0 || !e.span_id || !byId.has(e.span_id)) continue;
    let p = tree.parentIndex[i]!;
    while (p !== -1 && tree.spans[tree.spanIndex[p]!]!.origin === 'step') p = tree.parentIndex[p]!;
    expect(tree.spans[tree.spanIndex[p]!]!.id).toBe(e.span_id);
  }
  // The incremental builder agrees in file order and in reverse arrival order.
  const expected = dumpTree(tree);
  expect(dumpTree(createEventTreeBuilder({ events }).getSnapshot())).toEqual(expected);
  const reversed = createEventTreeBuilder({ events: [...events].reverse() }).getSnapshot();
  expect(dumpTree(reversed)).toEqual(dumpTree(buildEventTree([...events].reverse())));
  // Collapsing every span leaves exactly the roots.
  expect(visibleRows(tree, new Set(tree.spans.map((s) => s.id))).length).toBe(tree.rootCount);
  return tree;
}

describeFixtures('span tree: inspect_ai timeline fixtures', () => {
  it('finds the fixtures', () => expect(timelineFiles.length).toBeGreaterThan(0));
  it.each(timelineFiles)('%s', (file) => {
    const doc = JSON.parse(new TextDecoder().decode(readFixture(file))) as { events: unknown[] };
    const { events } = parseEvents(doc.events);
    checkTree(events);
  });
});

describeFixtures('span tree: inspect_ai logs', () => {
  it('finds the logs', () => expect(logFiles.length).toBeGreaterThan(0));
  it.each(logFiles)('%s', async (file) => {
    const log = await importInspectLog(readFixture(file));
    for (const s of log.samples) {
      const { events } = await log.sample(s.id, s.epoch);
      const tree = checkTree(events);
      // Legacy logs (before inspect 0.3.94) have only steps: each pair becomes a closed node.
      const steps = events.filter((e) => e.event === 'step');
      if (steps.length > 0) {
        const stepNodes = tree.spans.filter((sp) => sp.origin === 'step');
        expect(stepNodes).toHaveLength(steps.length / 2);
        for (const sp of stepNodes) expect(sp.end).not.toBeNull();
      }
    }
  });
});
