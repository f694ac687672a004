import { walkEventTree } from '../../src/core/tree/event-tree.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildEventTree,
  deepFreeze,
  eventSequence,
  eventTreeNode,
  eventTreeNodeKey,
  generateRun,
  type Event,
} from '../../src/index.js';
import {
  begin,
  dumpTree,
  end,
  info,
  malformedRun,
  oracleDump,
  step,
  wellFormedRun,
} from './helpers/tree-oracle.js';

const dump = (events: Event[]) => dumpTree(buildEventTree(events));

describe('buildEventTree: inspect_ai event_tree rules', () => {
  it('nests events under their span_id and spans under their parent_id, in file order', () =>
    expect(
      dump([
        begin('b1', 'A'),
        info('e1', 'A'),
        begin('b2', 'B', 'A'),
        info('e2', 'B'),
        end('x2', 'B'),
        info('e3', 'A'),
        end('x1', 'A'),
      ]),
    ).toEqual([
      'span A b1 end=x1 (3) -1/5',
      '  info e1 0/2',
      '  span B b2 end=x2 (1) 0/4',
      '    info e2 2/4',
      '  info e3 0/5',
    ]));

  it('attaches an event to a span whose begin comes later in the file (the pre-pass)', () =>
    expect(dump([info('e1', 'A'), begin('b1', 'A')])).toEqual([
      'span A b1 open (1) -1/2',
      '  info e1 0/2',
    ]));

  it('puts null, missing, empty and unknown span ids at the root', () =>
    expect(dump([info('e1', null), info('e2'), info('e3', ''), info('e4', 'nope')])).toEqual([
      'info e1 -1/1',
      'info e2 -1/2',
      'info e3 -1/3',
      'info e4 -1/4',
    ]));

  it('makes a span with an unknown or empty parent_id a root', () =>
    expect(dump([begin('b1', 'A', 'ghost'), begin('b2', 'B', '')])).toEqual([
      'span A b1 open (0) -1/1',
      'span B b2 open (0) -1/2',
    ]));

  it('keeps unclosed spans without an end', () =>
    expect(buildEventTree([begin('b1', 'A'), info('e1', 'A')]).spans[0]!.end).toBeNull());

  it('places events after a span_end that still carry its id inside the span', () =>
    expect(dump([begin('b1', 'A'), end('x1', 'A'), info('e1', 'A')])).toEqual([
      'span A b1 end=x1 (1) -1/2',
      '  info e1 0/2',
    ]));

  it('drops a span_end whose span never began, with a diagnostic', () => {
    const tree = buildEventTree([info('e1'), end('x1', 'ghost')]);
    expect(dumpTree(tree)).toEqual(['info e1 -1/1', '! $[1] span_end_unknown']);
    expect(tree.diagnostics[0]).toMatchObject({
      severity: 'warning',
      message: expect.stringContaining('ghost'),
    });
  });

  it('lists a tool span before its own ToolEvent (no timestamp sort, research §1.6)', () =>
    expect(
      dump([
        begin('b1', 'G'),
        begin('b2', 'T', 'G'),
        info('tool', 'G'),
        info('sb', 'T'),
        end('x2', 'T'),
      ]),
    ).toEqual([
      'span G b1 open (2) -1/4',
      '  span T b2 end=x2 (1) 0/3',
      '    info sb 1/3',
      '  info tool 0/4',
    ]));

  it('keeps the type and name of a span and reads an absent type as null', () => {
    const b = { ...begin('b1', 'A'), name: 'generate', type: undefined };
    expect(buildEventTree([b]).spans[0]).toMatchObject({
      name: 'generate',
      type: null,
      parentId: null,
      origin: 'span',
    });
  });
});

describe("buildEventTree: duplicate span ids (inspect's rule, with keys for the copies)", () => {
  it("shows a span once per begin, under that begin's parent, named by the last begin, each copy holding every event", () =>
    expect(
      dump([
        begin('b1', 'A'),
        info('e1', 'A'),
        begin('b2', 'P'),
        begin('b3', 'A', 'P'),
        info('e2', 'A'),
      ]),
    ).toEqual([
      'span A b3 open (2) -1/3',
      '  info e1 0/2',
      '  info e2 0/3',
      'span P b2 open (1) -1/7',
      '  span A b3 open (2) 3/7 #A\u241f1.2',
      '    info e1 4/6 #e1\u241f1.2',
      '    info e2 4/7 #e2\u241f1.2',
      '! $[3] span_duplicate_id',
    ]));

  it('keeps the last span_end of a span, as inspect, and flags the later one', () =>
    expect(dump([begin('b1', 'A'), end('x1', 'A'), end('x2', 'A')])).toEqual([
      'span A b1 end=x2 (0) -1/1',
      '! $[2] span_end_duplicate',
    ]));

  it('leaves out a begin that would show a span inside itself', () =>
    expect(dump([begin('b1', 'A'), begin('b2', 'B', 'A'), begin('b3', 'A', 'B')])).toEqual([
      'span A b3 open (1) -1/2',
      '  span B b2 open (0) 0/2',
      '! $[2] span_copy_cycle',
      '! $[2] span_duplicate_id',
    ]));

  it('numbers nested copies by the begins on their way down, and keeps them unique', () => {
    const tree = buildEventTree([
      begin('b1', 'A'),
      begin('b2', 'B', 'A'),
      info('e1', 'B'),
      begin('b3', 'B', 'A'),
      begin('b4', 'A'),
    ]);
    const keys = Array.from({ length: tree.length }, (_, i) => eventTreeNodeKey(tree, i));
    const sep = '\u241f';
    expect(keys).toEqual([
      'A',
      'B',
      'e1',
      `B${sep}1.2`,
      `e1${sep}1.2`,
      `A${sep}2`,
      `B${sep}2.1`,
      `e1${sep}2.1`,
      `B${sep}2.2`,
      `e1${sep}2.2`,
    ]);
    // Each node of a later copy points at its plain twin.
    expect(Array.from(tree.twin!)).toEqual([-1, -1, -1, 1, 2, 0, 1, 2, 1, 2]);
  });

  it('shows later copies without contents past the node cap (copies of copies grow exponentially)', () => {
    // 12 nested ids, each begun twice: 2^12 copies of the innermost event
    // unguarded; the cap (4 × events + 100k) is not reached, so all are shown.
    const events: Event[] = [];
    for (let d = 0; d < 12; d++) events.push(begin(`b${d}`, `S${d}`, d === 0 ? null : `S${d - 1}`));
    for (let d = 0; d < 12; d++) events.push(begin(`c${d}`, `S${d}`, d === 0 ? null : `S${d - 1}`));
    events.push(info('e', 'S11'));
    const small = buildEventTree(events);
    expect(small.events.filter((e) => e.uuid === 'e')).toHaveLength(2 ** 12);
    // 20 levels would be 2^20 copies: capped, with a diagnostic, and bounded.
    const deep: Event[] = [];
    for (let d = 0; d < 20; d++) deep.push(begin(`b${d}`, `S${d}`, d === 0 ? null : `S${d - 1}`));
    for (let d = 0; d < 20; d++) deep.push(begin(`c${d}`, `S${d}`, d === 0 ? null : `S${d - 1}`));
    deep.push(info('e', 'S19'));
    const capped = buildEventTree(deep);
    expect(capped.length).toBeLessThan(4 * deep.length + 100_000 + 2 * deep.length);
    expect(capped.diagnostics.map((d) => d.code)).toContain('span_copies_capped');
    // The plain tree is whole: every event has its plain node.
    const plain = new Set<string>();
    for (let i = 0; i < capped.length; i++)
      if (capped.twin![i]! < 0) plain.add(capped.events[i]!.uuid);
    expect(plain.has('e')).toBe(true);
  });
  it('caps copies once they have walked many begins left out as cycles (k begins of one id inside itself)', () => {
    // 4,000 begins of S, every other one a child of S: each of the 2,000
    // root copies would walk 2,000 begins it leaves out as cycles (4M steps,
    // 16 billion at the hostile corpus' 100,000), yet show few nodes.
    const events: Event[] = [];
    for (let i = 0; i < 4000; i++) events.push(begin(`b${i}`, 'S', i % 2 ? 'S' : null));
    events.push(info('e', 'S'));
    const tree = buildEventTree(events);
    expect(tree.diagnostics.map((d) => d.code)).toContain('span_copies_capped');
    expect(tree.diagnostics.map((d) => d.code)).toContain('span_copy_cycle');
    // Copies before the cap show their contents; the ones after, none.
    const copiesOfE = tree.events.filter((e) => e.uuid === 'e').length;
    expect(copiesOfE).toBeGreaterThan(1);
    expect(copiesOfE).toBeLessThan(2000);
    // Every root begin still has its node, and the plain tree is whole.
    expect(tree.rootCount).toBe(2000);
    let plainE = 0;
    for (let i = 0; i < tree.length; i++)
      if (tree.twin![i]! < 0 && tree.events[i]!.uuid === 'e') plainE++;
    expect(plainE).toBe(1);
  });
});

describe('buildEventTree: the rules inspect does not have', () => {
  it('makes a self-parent span a root', () =>
    expect(dump([begin('b1', 'A', 'A'), info('e1', 'A')])).toEqual([
      'span A b1 open (1) -1/2',
      '  info e1 0/2',
      '! $[0] span_parent_cycle',
    ]));

  it('cuts a parent cycle at the member that begins last', () =>
    expect(dump([begin('b1', 'A', 'C'), begin('b2', 'B', 'A'), begin('b3', 'C', 'B')])).toEqual([
      'span C b3 open (1) -1/3',
      '  span A b1 open (1) 0/3',
      '    span B b2 open (0) 1/3',
      '! $[2] span_parent_cycle',
    ]));

  it('finds a cycle closed through a span placed in a step of a span not begun yet', () =>
    // fast-check counterexample (seed 737926532): `A` goes into the open step of
    // `C` before `C` begins, so its parent link was never set and `B` closed
    // the cycle unseen: no node was reachable from the root.
    expect(
      dump([
        step('s1', 'begin', 'x', 'C'),
        begin('b1', 'A', 'C'),
        begin('b2', 'C', 'B'),
        begin('b3', 'B', 'A'),
      ]),
    ).toEqual([
      'span B b3 open (1) -1/4',
      '  span C b2 open (1) 0/4',
      '    step s1 s1 open (1) 1/4',
      '      span A b1 open (0) 2/4',
      '! $[3] span_parent_cycle',
    ]));

  it('terminates on a long cycle and on deep nesting (no recursion)', () => {
    const n = 20_000;
    const events = Array.from({ length: n }, (_, i) => begin(`b${i}`, `s${i}`, `s${(i + 1) % n}`));
    const tree = buildEventTree(events);
    expect(tree.rootCount).toBe(1);
    expect(tree.depth[tree.length - 1]).toBe(n - 1);
    expect(eventSequence(tree)).toHaveLength(n);
  });
});

describe('buildEventTree: legacy step events', () => {
  it('makes a step begin/end pair a node holding the events between them', () =>
    expect(
      dump([step('s1', 'begin', 'init'), info('e1'), step('s2', 'end', 'init'), info('e2')]),
    ).toEqual(['step s1 s1 end=s2 (1) -1/2', '  info e1 0/2', 'info e2 -1/3']));

  it('nests steps by begin/end order', () =>
    expect(
      dump([
        step('s1', 'begin', 'solvers'),
        step('s2', 'begin', 'generate'),
        info('e1'),
        step('s3', 'end', 'generate'),
        step('s4', 'end', 'solvers'),
      ]),
    ).toEqual(['step s1 s1 end=s4 (1) -1/3', '  step s2 s2 end=s3 (1) 0/3', '    info e1 1/3']));

  it('keeps separate step stacks per span', () =>
    expect(
      dump([
        begin('b1', 'A'),
        begin('b2', 'B'),
        step('s1', 'begin', 'x', 'A'),
        info('e1', 'B'),
        info('e2', 'A'),
        step('s2', 'end', 'x', 'A'),
      ]),
    ).toEqual([
      'span A b1 open (1) -1/3',
      '  step s1 s1 end=s2 (1) 0/3',
      '    info e2 1/3',
      'span B b2 open (1) -1/5',
      '  info e1 3/5',
    ]));

  it('leaves inner steps open when an outer step of another name ends', () =>
    expect(
      dump([
        step('s1', 'begin', 'outer'),
        step('s2', 'begin', 'inner'),
        step('s3', 'end', 'outer'),
        info('e1'),
      ]),
    ).toEqual([
      'step s1 s1 end=s3 (1) -1/2',
      '  step s2 s2 open (0) 0/2',
      'info e1 -1/3',
      '! $[1] step_unclosed',
    ]));

  it('keeps a step end with no open step as a plain leaf', () =>
    expect(dump([step('s1', 'end', 'init')])).toEqual([
      'step s1 -1/1',
      '! $[0] step_end_unmatched',
    ]));
});

/** A span_begin's or span_end's `id`. */
function spanIdOf(e: Event): string {
  return (e as Event & { id: string }).id;
}

describe('buildEventTree: purity and shape', () => {
  it('never mutates its input (deep-frozen events and array)', () => {
    const events = deepFreeze(generateRun({ seed: 5, events: 400 }));
    expect(() => buildEventTree(events)).not.toThrow();
    const malformed = deepFreeze([
      begin('b1', 'A', 'A'),
      end('x', 'zz'),
      step('s', 'begin', 'q'),
      begin('b2', 'A'),
    ]);
    expect(() => buildEventTree(malformed)).not.toThrow();
  });

  it('returns a frozen tree with frozen spans', () => {
    const tree = buildEventTree([begin('b1', 'A'), end('x1', 'A')]);
    expect(Object.isFrozen(tree)).toBe(true);
    expect(Object.isFrozen(tree.spans)).toBe(true);
    expect(Object.isFrozen(tree.spans[0])).toBe(true);
  });

  it('builds an empty tree from no events', () =>
    expect(buildEventTree([])).toMatchObject({ length: 0, rootCount: 0, spans: [] }));

  it('matches the nested oracle on well-formed runs', () =>
    fc.assert(
      fc.property(wellFormedRun, (events) => {
        expect(dump(events)).toEqual(oracleDump(events));
      }),
    ));

  it('matches the nested oracle on malformed runs', () =>
    fc.assert(
      fc.property(malformedRun, (events) => {
        expect(dump(events)).toEqual(oracleDump(events));
      }),
      { numRuns: 500 },
    ));

  it('matches the nested oracle on generated runs', () => {
    for (const seed of [1, 2, 3]) {
      const events = generateRun({ seed, events: 3000, pendingRate: 0 });
      expect(dump(events)).toEqual(oracleDump(events));
    }
  });

  it('keeps subtreeEnd, parentIndex and depth consistent', () =>
    fc.assert(
      fc.property(malformedRun, (events) => {
        const t = buildEventTree(events);
        for (let i = 0; i < t.length; i++) {
          const p = t.parentIndex[i]!;
          expect(t.subtreeEnd[i]).toBeGreaterThan(i);
          if (p === -1) expect(t.depth[i]).toBe(0);
          else {
            expect(t.depth[i]).toBe(t.depth[p]! + 1);
            expect(t.subtreeEnd[i]).toBeLessThanOrEqual(t.subtreeEnd[p]!);
          }
        }
      }),
    ));
});

describe('eventSequence', () => {
  it('round-trips a well-formed run written in pre-order', () =>
    fc.assert(
      fc.property(wellFormedRun, (events) => {
        const tree = buildEventTree(events);
        const seq = eventSequence(tree);
        // The tool pattern (a ToolEvent listed after its tool span's begin) is
        // reordered by design; everything else comes back as written.
        if (!events.some((e) => e.event === 'tool')) expect(seq).toEqual(events);
        expect(new Set(seq)).toEqual(new Set(events));
        expect(seq).toHaveLength(events.length);
      }),
    ));

  it('yields every event of a malformed run but what inspect drops, and each once in the plain tree', () =>
    fc.assert(
      fc.property(malformedRun, (events) => {
        const tree = buildEventTree(events);
        // inspect drops unknown ends, all but the last end of a span, and
        // all but the last begin of an id (it names the node's copies).
        const lastBegin = new Map<string, Event>();
        const lastEnd = new Map<string, Event>();
        for (const e of events) if (e.event === 'span_begin') lastBegin.set(spanIdOf(e), e);
        for (const e of events)
          if (e.event === 'span_end' && lastBegin.has(spanIdOf(e))) lastEnd.set(spanIdOf(e), e);
        const kept = events.filter((e) =>
          e.event === 'span_begin'
            ? lastBegin.get(spanIdOf(e)) === e
            : e.event === 'span_end'
              ? lastEnd.get(spanIdOf(e)) === e
              : true,
        );
        expect(new Set(eventSequence(tree))).toEqual(new Set(kept));
        const plain: Event[] = [];
        for (let i = 0; i < tree.length; i++)
          if (tree.twin === undefined || tree.twin[i]! < 0) plain.push(tree.events[i]!);
        expect(new Set(plain).size).toBe(plain.length);
      }),
    ));

  it('omits the end of an unclosed span and yields one subtree with `within`', () => {
    const tree = buildEventTree([
      begin('b1', 'A'),
      begin('b2', 'B', 'A'),
      info('e1', 'B'),
      end('x2', 'B'),
      info('e2'),
    ]);
    expect(eventSequence(tree).map((e) => e.uuid)).toEqual(['b1', 'b2', 'e1', 'x2', 'e2']);
    expect(eventSequence(tree, 1).map((e) => e.uuid)).toEqual(['b2', 'e1', 'x2']);
    expect(() => eventSequence(tree, 9)).toThrow(
      expect.objectContaining({ name: 'SkeinError', code: 'index_out_of_range' }),
    );
  });
});

describe('walkEventTree and node views', () => {
  const tree = buildEventTree([
    begin('b1', 'A'),
    info('e1', 'A'),
    info('m1', 'A', { event: 'model' } as Partial<Event>),
    step('s1', 'begin', 'x'),
    info('e2'),
  ]);

  it('walks every node in pre-order', () =>
    expect([...walkEventTree(tree)].map((n) => n.key)).toEqual(['A', 'e1', 'm1', 's1', 'e2']));

  it('filters by event kind, by several kinds and by predicate', () => {
    expect([...walkEventTree(tree, 'model')].map((n) => n.key)).toEqual(['m1']);
    expect([...walkEventTree(tree, ['span_begin', 'step'])].map((n) => n.key)).toEqual(['A', 's1']);
    expect([...walkEventTree(tree, (n) => n.kind === 'span')].map((n) => n.key)).toEqual([
      'A',
      's1',
    ]);
  });

  it('walks one subtree with `within`', () =>
    expect([...walkEventTree(tree, undefined, 0)].map((n) => n.key)).toEqual(['A', 'e1', 'm1']));

  it('gives span and event node views with stable keys', () => {
    expect(eventTreeNode(tree, 0)).toMatchObject({
      kind: 'span',
      key: 'A',
      depth: 0,
      parentIndex: -1,
      subtreeEnd: 3,
    });
    expect(eventTreeNode(tree, 1)).toMatchObject({
      kind: 'event',
      key: 'e1',
      depth: 1,
      parentIndex: 0,
    });
    expect(eventTreeNodeKey(tree, 3)).toBe('s1');
    expect(() => eventTreeNode(tree, 5)).toThrow(
      expect.objectContaining({
        code: 'index_out_of_range',
        details: ['eventTreeNode: index', 5, 5],
      }),
    );
  });
});
