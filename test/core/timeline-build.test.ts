// buildTimeline, one case per rule of inspect_ai's timeline_build
// (research/inspect_ai.md §3.2–3.5), on small hand-built event lists.
import { describe, expect, it } from 'vitest';
import { buildTimeline } from '../../src/core/timeline/index.js';
import { clock, parse, shape, spans, uuids, wire } from './helpers/timeline-wire.js';

describe('phases (§3.2)', () => {
  it('an empty list gives an empty root "main" with id "root"', () => {
    const t = buildTimeline([]);
    expect(t.name).toBe('Default');
    expect(t.description).toBe('');
    expect(t.root).toMatchObject({
      id: 'root',
      name: 'main',
      spanType: null,
      content: [],
      branches: [],
    });
  });

  it('without phase spans the root is an agent "main" holding everything', () => {
    const w = wire(clock());
    const t = buildTimeline(parse([w.model('m1', null), w.tool('t1', null), w.info('i1', null)]));
    expect(t.root).toMatchObject({ id: 'main', name: 'main', spanType: 'agent' });
    expect(uuids(t.root)).toEqual(['m1', 't1', 'i1']);
  });

  it('init and scorers are flattened (nested markers included) around the renamed solvers root', () => {
    const w = wire(clock());
    const events = parse([
      w.begin('init', 'init', 'init'),
      w.begin('setup', 'setup', 'custom', 'init'),
      w.info('i1', 'setup'),
      w.end('setup'),
      w.end('init'),
      w.begin('solvers', 'solvers', 'solvers'),
      w.model('m1', 'solvers'),
      w.end('solvers'),
      w.begin('scorers', 'scorers', 'scorers'),
      w.info('s1', 'scorers'),
      w.end('scorers'),
    ]);
    const t = buildTimeline(events, { name: 'Mine', description: 'd' });
    expect(t.name).toBe('Mine');
    expect(t.root).toMatchObject({ id: 'solvers', name: 'main', spanType: 'agent' });
    expect(shape(t.root.content)).toEqual(['[init: sb-setup i1 se-setup]', 'm1', '[scorers: s1]']);
    expect(t.init).toBe(t.root.content[0]);
    expect(t.init).toMatchObject({ name: 'init', spanType: 'init' });
    expect(t.scorers).toMatchObject({ name: 'scoring', spanType: 'scorers' });
  });

  it('phases without a solvers span give a root "main" with id "root" and no type', () => {
    const w = wire(clock());
    const t = buildTimeline(
      parse([w.begin('init', 'init', 'init'), w.info('i1', 'init'), w.end('init')]),
    );
    expect(t.root).toMatchObject({ id: 'root', name: 'main', spanType: null });
    expect(shape(t.root.content)).toEqual(['[init: i1]']);
  });

  it('phases are found by name, and the last one wins', () => {
    const w = wire(clock());
    const events = parse([
      w.begin('s1', 'solvers', 'x'),
      w.info('a', 's1'),
      w.end('s1'),
      w.begin('s2', 'solvers', 'x'),
      w.info('b', 's2'),
      w.end('s2'),
    ]);
    const t = buildTimeline(events, { keepOrphans: false });
    expect(t.root.id).toBe('s2');
    expect(uuids(t.root)).toEqual(['b']);
  });

  it('keeps root-level orphans by default, merged by start time; keepOrphans: false drops them', () => {
    const w = wire(clock());
    const events = parse([
      w.begin('solvers', 'solvers', 'solvers'),
      w.info('a', 'solvers'),
      w.end('solvers'),
      w.info('limit', null),
      w.begin('scorers', 'scorers', 'scorers'),
      w.info('s', 'scorers'),
      w.end('scorers'),
    ]);
    expect(shape(buildTimeline(events).root.content)).toEqual(['a', 'limit', '[scorers: s]']);
    expect(shape(buildTimeline(events, { keepOrphans: false }).root.content)).toEqual([
      'a',
      '[scorers: s]',
    ]);
  });
});

describe('agent classification and unrolling (§3.3)', () => {
  it('an agent span is a child span; a plain solver span is unrolled with its begin/end markers', () => {
    const w = wire(clock());
    const events = parse([
      w.begin('solvers', 'solvers', 'solvers'),
      w.begin('gen', 'generate', 'solver', 'solvers'),
      w.model('m1', 'gen'),
      w.end('gen'),
      w.end('solvers'),
    ]);
    const t = buildTimeline(events);
    expect(t.root.id).toBe('solvers');
    expect(uuids(t.root)).toEqual(['sb-gen', 'm1', 'se-gen']);
  });

  it('a solver wrapping an agent at any depth is an agent', () => {
    const w = wire(clock());
    const events = parse([
      w.begin('solvers', 'solvers', 'solvers'),
      w.model('m0', 'solvers'),
      w.begin('wrap', 'as_solver', 'solver', 'solvers'),
      w.begin('mid', 'mid', 'custom', 'wrap'),
      w.begin('ag', 'Worker', 'agent', 'mid'),
      w.model('m1', 'ag'),
      w.end('ag'),
      w.end('mid'),
      w.end('wrap'),
      w.end('solvers'),
    ]);
    const t = buildTimeline(events);
    // One agent among the solvers' children: it becomes the root.
    expect(t.root.id).toBe('wrap');
    expect(shape(t.root.content)).toEqual(['m0', 'sb-mid', '[ag: m1]', 'se-mid']);
    expect(spans(t.root)[0]!.name).toBe('worker'); // names are lower-cased
  });

  it('a tool span that ran a model is a tool-spawned agent; one without is unrolled', () => {
    const w = wire(clock());
    const events = parse([
      w.model('m0', null, { calls: true }),
      w.begin('t1', 'bridge', 'tool'),
      w.model('m1', 't1'),
      w.end('t1'),
      w.begin('t2', 'bash', 'tool'),
      w.info('i2', 't2'),
      w.end('t2'),
    ]);
    const t = buildTimeline(events);
    expect(shape(t.root.content)).toEqual(['m0', '[t1: m1]', 'sb-t2', 'i2', 'se-t2']);
    expect(spans(t.root)[0]).toMatchObject({ spanType: 'agent', toolInvoked: false });
  });

  it('a tool span wrapping an explicit agent is unrolled and the agent is marked tool-invoked', () => {
    const w = wire(clock());
    const events = parse([
      w.begin('h', 'handoff', 'handoff'),
      w.begin('t', 'transfer', 'tool', 'h'),
      w.begin('a', 'helper', 'agent', 't'),
      w.model('m1', 'a'),
      w.end('a'),
      w.end('t'),
      w.end('h'),
    ]);
    const t = buildTimeline(events);
    expect(shape(t.root.content)).toEqual(['sb-h', 'sb-t', '[a: m1]', 'se-t', 'se-h']);
    expect(spans(t.root)[0]).toMatchObject({ toolInvoked: true, utility: false });
  });

  it('empty nested agent spans are skipped; an empty single root agent is kept', () => {
    const w = wire(clock());
    const events = parse([
      w.begin('solvers', 'solvers', 'solvers'),
      w.begin('a', 'outer', 'agent', 'solvers'),
      w.begin('e', 'empty', 'agent', 'a'),
      w.end('e'),
      w.info('i', 'a'),
      w.end('a'),
      w.end('solvers'),
    ]);
    expect(shape(buildTimeline(events).root.content)).toEqual(['i']);
    const lone = parse([
      w.begin('solvers', 'solvers', 'solvers'),
      w.begin('x', 'x', 'agent', 'solvers'),
      w.end('x'),
      w.end('solvers'),
    ]);
    expect(buildTimeline(lone).root).toMatchObject({ id: 'x', name: 'main', content: [] });
  });

  it('unwraps solver spans that wrap exactly one agent, and prepends the other items (quirk)', () => {
    const w = wire(clock());
    const events = parse([
      w.begin('solvers', 'solvers', 'solvers'),
      w.begin('s', 'as_solver', 'solver', 'solvers'),
      w.begin('a', 'agent', 'agent', 's', { metadata: { description: 'Does things' } }),
      w.model('m1', 'a'),
      w.end('a'),
      w.end('s'),
      w.info('late', 'solvers'),
      w.end('solvers'),
    ]);
    const t = buildTimeline(events);
    expect(t.root).toMatchObject({ id: 'a', name: 'main', description: 'Does things' });
    expect(uuids(t.root)).toEqual(['late', 'm1']);
  });

  it('several agents: root "root", other items inserted at position 0 one by one (order reversed)', () => {
    const w = wire(clock());
    const events = parse([
      w.begin('solvers', 'solvers', 'solvers'),
      w.info('x', 'solvers'),
      w.begin('a1', 'one', 'agent', 'solvers'),
      w.model('m1', 'a1'),
      w.end('a1'),
      w.begin('c', 'custom', 'custom', 'solvers'),
      w.info('y', 'c'),
      w.end('c'),
      w.begin('a2', 'two', 'agent', 'solvers'),
      w.model('m2', 'a2'),
      w.end('a2'),
      w.end('solvers'),
    ]);
    const t = buildTimeline(events);
    expect(t.root).toMatchObject({ id: 'root', name: 'main', spanType: 'agent' });
    expect(shape(t.root.content)).toEqual(['sb-c', 'y', 'se-c', 'x', '[a1: m1]', '[a2: m2]']);
  });

  it('a ToolEvent with `agent` and legacy nested events becomes a tool-invoked agent span', () => {
    const w = wire(clock());
    const nested = [
      w.model('n1', null),
      w.tool('n2', null, { agent: 'inner', result: 'deep', events: [w.model('n3', null)] }),
    ];
    const events = parse([
      w.tool('t1', null, { agent: 'Researcher', result: 'found', events: nested }),
      w.tool('t2', null, { agent: 'x' }),
    ]);
    const t = buildTimeline(events);
    expect(shape(t.root.content)).toEqual([
      '[tool-agent-call-t1: n1 [tool-agent-call-n2: n3]]',
      't2',
    ]);
    expect(spans(t.root)[0]).toMatchObject({
      name: 'researcher',
      spanType: 'agent',
      toolInvoked: true,
      agentResult: 'found',
    });
  });
});

describe('branches (§3.3 child processor)', () => {
  it('a branch span with a BranchEvent goes to `branches`; one without is dissolved without markers', () => {
    const w = wire(clock());
    const events = parse([
      w.begin('a', 'agent', 'agent'),
      w.model('m1', 'a'),
      w.begin('b1', 'Attempt', 'branch', 'a'),
      w.branch('be1', 'b1', 'anchor-1'),
      w.model('m2', 'b1'),
      w.end('b1'),
      w.begin('b2', '', 'branch', 'a'),
      w.branch('be2', 'b2', 'anchor-1'),
      w.end('b2'),
      w.begin('b3', 'plain', 'branch', 'a'),
      w.info('i3', 'b3'),
      w.end('b3'),
      w.model('m3', 'a'),
      w.end('a'),
    ]);
    const agent = spans(buildTimeline(events).root)[0]!;
    expect(uuids(agent)).toEqual(['m1', 'i3', 'm3']);
    expect(
      agent.branches.map((b) => [b.id, b.name, b.spanType, b.branchedFrom, uuids(b).join(' ')]),
    ).toEqual([
      ['b1', 'attempt', 'branch', 'anchor-1', 'be1 m2'],
      ['b2', 'branch', 'branch', 'anchor-1', 'be2'],
    ]);
  });

  it('an empty branch is dropped', () => {
    const w = wire(clock());
    const events = parse([
      w.begin('a', 'agent', 'agent'),
      w.model('m1', 'a'),
      w.begin('b', 'b', 'branch', 'a'),
      w.end('b'),
      w.end('a'),
    ]);
    expect(spans(buildTimeline(events).root)[0]!.branches).toEqual([]);
  });
});

describe('utility events and utility agents (§3.5 passes 1–2)', () => {
  it('wraps a warm-up call even without a tool-calling loop', () => {
    const w = wire(clock());
    const events = parse([
      w.model('warm', null, { maxTokens: 1, user: 'hi' }),
      w.model('m1', null),
    ]);
    const t = buildTimeline(events);
    expect(shape(t.root.content)).toEqual(['[utility-warm: warm]', 'm1']);
    expect(spans(t.root)[0]).toMatchObject({ name: 'utility', spanType: 'agent', utility: true });
  });

  it('a two-word user message is not a warm-up', () => {
    const w = wire(clock());
    const events = parse([w.model('m0', null, { maxTokens: 1, user: 'hi there' })]);
    expect(shape(buildTimeline(events).root.content)).toEqual(['m0']);
  });

  it('wraps foreign-prompt calls without tool calls only when a tool-calling call sets the primary prompt', () => {
    const w = wire(clock());
    const withLoop = parse([
      w.model('m1', null, { system: 'main', calls: true }),
      w.model('x', null, { system: 'summarize' }),
      w.model('same', null, { system: 'main' }),
    ]);
    expect(shape(buildTimeline(withLoop).root.content)).toEqual(['m1', '[utility-x: x]', 'same']);
    const noLoop = parse([
      w.model('m1', null, { system: 'main' }),
      w.model('x', null, { system: 'other' }),
    ]);
    expect(shape(buildTimeline(noLoop).root.content)).toEqual(['m1', 'x']);
  });

  it('ignores the x-anthropic-billing-header first line when comparing prompts', () => {
    const w = wire(clock());
    const events = parse([
      w.model('m1', null, {
        system: 'x-anthropic-billing-header: cch=1\nYou are main.',
        calls: true,
      }),
      w.model('m2', null, {
        system: [
          { type: 'text', text: 'x-anthropic-billing-header: cch=2' },
          { type: 'text', text: 'You are main.' },
        ],
      }),
    ]);
    expect(shape(buildTimeline(events).root.content)).toEqual(['m1', 'm2']);
  });

  const child = (
    w: ReturnType<typeof wire>,
    parentCalls: boolean,
    childEvents: Record<string, unknown>[],
    extra = {},
  ) => [
    w.begin('p', 'parent', 'agent'),
    w.model('pm', 'p', { system: 'parent prompt', calls: parentCalls }),
    w.begin('c', 'child', 'agent', 'p', extra),
    ...childEvents,
    w.end('c'),
    w.end('p'),
  ];

  it('a single-turn child with a different prompt under a looping parent is utility', () => {
    const w = wire(clock());
    const t = buildTimeline(
      parse(child(w, true, [w.model('cm', 'c', { system: 'child prompt' })])),
    );
    expect(spans(spans(t.root)[0]!)[0]!.utility).toBe(true);
  });

  it('two model calls with a tool call between them is still single-turn', () => {
    const w = wire(clock());
    const t = buildTimeline(
      parse(
        child(w, true, [
          w.model('c1', 'c', { system: 'child prompt', calls: true }),
          w.tool('ct', 'c'),
          w.model('c2', 'c', { system: 'child prompt' }),
        ]),
      ),
    );
    expect(spans(spans(t.root)[0]!)[0]!.utility).toBe(true);
  });

  it('is not utility: no loop in the parent, same prompt, multi-turn, tool-invoked, no prompt', () => {
    const cases = [
      (w: ReturnType<typeof wire>) =>
        child(w, false, [w.model('cm', 'c', { system: 'child prompt' })]),
      (w: ReturnType<typeof wire>) =>
        child(w, true, [w.model('cm', 'c', { system: 'parent prompt' })]),
      (w: ReturnType<typeof wire>) =>
        child(w, true, [
          w.model('c1', 'c', { system: 'q' }),
          w.model('c2', 'c', { system: 'q' }),
          w.model('c3', 'c', { system: 'q' }),
        ]),
      (w: ReturnType<typeof wire>) =>
        child(w, true, [w.model('cm', 'c', { system: 'x-anthropic-billing-header: only' })]),
    ];
    for (const make of cases) {
      const t = buildTimeline(parse(make(wire(clock()))));
      expect(spans(spans(t.root)[0]!)[0]!.utility).toBe(false);
    }
    // Tool-invoked: the child sits directly in an unrolled tool span.
    const w = wire(clock());
    const events = parse([
      w.begin('p', 'parent', 'agent'),
      w.model('pm', 'p', { system: 'parent prompt', calls: true }),
      w.begin('t', 'task', 'tool', 'p'),
      w.begin('c', 'child', 'agent', 't'),
      w.model('cm', 'c', { system: 'child prompt' }),
      w.end('c'),
      w.end('t'),
      w.end('p'),
    ]);
    const c = spans(spans(buildTimeline(events).root)[0]!)[0]!;
    expect(c).toMatchObject({ id: 'c', toolInvoked: true, utility: false });
  });

  it('a grandchild inherits the prompt and loop flag through a span without model calls', () => {
    const w = wire(clock());
    const events = parse([
      w.begin('p', 'parent', 'agent'),
      w.model('pm', 'p', { system: 'parent prompt', calls: true }),
      w.begin('mid', 'mid', 'agent', 'p'),
      w.info('i', 'mid'),
      w.begin('g', 'grandchild', 'agent', 'mid'),
      w.model('gm', 'g', { system: 'other' }),
      w.end('g'),
      w.end('mid'),
      w.end('p'),
    ]);
    const mid = spans(spans(buildTimeline(events).root)[0]!)[0]!;
    expect(mid.utility).toBe(false);
    expect(spans(mid)[0]!.utility).toBe(true);
  });
});

describe('agent results (§3.5 pass 3)', () => {
  it('flow 1: a sibling ToolEvent whose agent_span_id is the span', () => {
    const w = wire(clock());
    const events = parse([
      w.begin('a', 'sub', 'agent'),
      w.model('m', 'a'),
      w.end('a'),
      w.tool('t', null, {
        agent_span_id: 'a',
        result: [
          { type: 'text', text: 'one' },
          { type: 'text', text: 'two' },
        ],
      }),
    ]);
    expect(spans(buildTimeline(events).root)[0]!.agentResult).toBe('one\ntwo');
  });

  it('flow 2: an `agent-<call id>` span takes the matching tool message of a later model call', () => {
    const w = wire(clock());
    const events = parse([
      w.model('m0', null, { toolMessages: [{ id: 'call9', content: 'too early' }] }),
      w.begin('agent-call9', 'sub', 'agent'),
      w.model('m1', 'agent-call9'),
      w.end('agent-call9'),
      w.model('m2', null, { toolMessages: [{ id: 'other', content: 'no' }] }),
      w.model('m3', null, { toolMessages: [{ id: 'call9', content: 'the answer' }] }),
    ]);
    expect(spans(buildTimeline(events).root)[0]!.agentResult).toBe('the answer');
  });
});

describe('robustness', () => {
  it('never mutates its input', () => {
    const w = wire(clock());
    const events = Object.freeze(
      parse([w.begin('a', 'agent', 'agent'), w.model('m', 'a'), w.end('a')]),
    );
    expect(() => buildTimeline(events)).not.toThrow();
  });

  it('builds 500-deep and 20,000-deep nesting without recursion', () => {
    for (const depth of [500, 20_000]) {
      const w = wire(clock());
      const list = [];
      for (let i = 0; i < depth; i++)
        list.push(w.begin(`s${i}`, `agent${i}`, 'agent', i === 0 ? null : `s${i - 1}`));
      list.push(w.model('leaf', `s${depth - 1}`));
      const t = buildTimeline(parse(list));
      let span = t.root;
      let levels = 0;
      while (spans(span).length > 0) {
        span = spans(span)[0]!;
        levels++;
      }
      expect(levels).toBe(depth);
      expect(uuids(span)).toEqual(['leaf']);
    }
  });

  it('cuts a parent cycle instead of hanging', () => {
    const w = wire(clock());
    const events = parse([
      w.begin('a', 'a', 'agent', 'b'),
      w.begin('b', 'b', 'agent', 'a'),
      w.model('m', 'b'),
    ]);
    const t = buildTimeline(events);
    expect(JSON.stringify(shape(t.root.content))).toContain('m');
  });
});
