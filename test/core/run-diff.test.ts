// Run against run: the cases diffRuns must get right, each as a pair of small
// runs whose difference is known.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_DIFF_IGNORE,
  EventStream,
  createEventTreeFeed,
  createRunDiff,
  diffRuns,
  generateRun,
  generateRunVariant,
  importAny,
  isRunDiffDivergence,
  buildRunDiffView,
  renderRunDiffText,
  runDiffKeyAction,
  runDiffStepAxis,
  runStepText,
  type Event,
  type RunDiffResult,
  type RunDiffRow,
} from '../../src/index.js';
import { header } from './helpers/inspect-fixture.js';
import { run, type RunBuilder } from './helpers/run-builder.js';

/** `status label-a | label-b` per row, for readable expectations. */
function lines(diff: RunDiffResult): string[] {
  return diff.rows.map((r) => {
    const a = r.a === null ? '' : diff.a.steps[r.a]!.label;
    const b = r.b === null ? '' : diff.b.steps[r.b]!.label;
    return `${r.status} ${a} | ${b}`;
  });
}

function rowOf(diff: RunDiffResult, row: RunDiffRow) {
  return {
    a: row.a === null ? null : diff.a.steps[row.a]!,
    b: row.b === null ? null : diff.b.steps[row.b]!,
  };
}

/** A small agent: a task span with turns of a model call and tool calls. */
function agent(r: RunBuilder, body: (r: RunBuilder) => void) {
  r.span('solvers', 'solvers', (s) => s.span('react', 'agent', body));
}

describe('diffRuns: identical runs', () => {
  it('two runs of the same steps with other ids and times are all `same`', () => {
    const body = (r: RunBuilder) =>
      agent(r, (x) => {
        x.message('user', 'Fix the test');
        x.model('Looking.', { calls: ['bash'] });
        x.tool('bash', { cmd: 'ls' }, 'a b');
        x.log('noise');
        x.model('Done.');
      });
    const a = run('a', body);
    const b = run('b', body, Date.parse('2026-04-01T00:00:00Z'));
    const diff = diffRuns(a, b);
    expect(diff.identical).toBe(true);
    expect(diff.firstDivergence).toBeNull();
    expect(diff.counts).toEqual({ same: diff.rows.length, changed: 0, onlyA: 0, onlyB: 0 });
    // solvers, react, user message, turn, model, bash, turn, model: the log is not a step.
    expect(diff.a.steps.map((s) => s.kind)).toEqual([
      'span',
      'span',
      'message',
      'turn',
      'model',
      'tool',
      'turn',
      'model',
    ]);
    expect(JSON.parse(JSON.stringify(diff))).toEqual(diff);
  });
});

describe('diffRuns: the cases', () => {
  it('one extra tool retry: the failed attempt pairs, the retry is only in B', () => {
    const a = run('a', (r) =>
      agent(r, (x) => {
        x.model('Run the tests.', { calls: ['bash'] });
        x.tool('bash', { cmd: 'npm test' }, 'ok');
        x.model('All green.');
      }),
    );
    const b = run('b', (r) =>
      agent(r, (x) => {
        x.model('Run the tests.', { calls: ['bash'] });
        x.tool('bash', { cmd: 'npm test' }, '', { error: 'timed out' });
        x.model('Run the tests.', { calls: ['bash'] });
        x.tool('bash', { cmd: 'npm test' }, 'ok');
        x.model('All green.');
      }),
    );
    const diff = diffRuns(a, b);
    expect(lines(diff)).toEqual([
      'same solvers | solvers',
      'same react (agent) | react (agent)',
      'same turn 1 | turn 1',
      'same anthropic/claude-sonnet-4-5: Run the tests. | anthropic/claude-sonnet-4-5: Run the tests.',
      'changed bash {"cmd":"npm test"} | bash {"cmd":"npm test"}',
      'only-b  | turn 2',
      'only-b  | anthropic/claude-sonnet-4-5: Run the tests.',
      'only-b  | bash {"cmd":"npm test"}',
      'same turn 2 | turn 3',
      'same anthropic/claude-sonnet-4-5: All green. | anthropic/claude-sonnet-4-5: All green.',
    ]);
    const changed = diff.rows[4]!;
    expect(changed.fields).toEqual(['result', 'error', 'status']);
    expect(diff.firstDivergence).toMatchObject({ row: 4, context: [1, 2, 3] });
    expect(diff.firstDivergence!.path).toEqual(['solvers', 'react (agent)', 'turn 1']);
    expect(diff.totals.errors).toEqual({ a: 0, b: 1, delta: 1 });
    expect(diff.totals.tokens.delta).toBe(110);
  });

  it('a run that diverges at step k and never recovers', () => {
    const k = 4;
    const body = (variant: string) => (r: RunBuilder) =>
      agent(r, (x) => {
        for (let i = 0; i < 10; i++) {
          const cmd = i < k ? `step ${i}` : `${variant} ${i}`;
          x.model(i < k ? `Plan ${i}` : `${variant} plan ${i}`, { calls: ['bash'] });
          x.tool('bash', { cmd }, `out ${cmd}`);
        }
      });
    const diff = diffRuns(run('a', body('left')), run('b', body('right')));
    const first = diff.firstDivergence!;
    // Rows before it: solvers, react, then k turns of (turn, model, bash).
    expect(first.row).toBe(2 + 3 * k + 1);
    expect(diff.rows.slice(0, first.row).every((r) => !isRunDiffDivergence(r))).toBe(true);
    const at = rowOf(diff, diff.rows[first.row]!);
    expect(at.a?.label ?? at.b?.label).toContain(`plan ${k}`);
    // From there on, nothing is the same again.
    const after = diff.rows.slice(first.row);
    expect(after.filter((r) => r.status === 'same' && diff.a.steps[r.a!]!.kind !== 'turn')).toEqual(
      [],
    );
    expect(diff.counts.onlyA + diff.counts.changed).toBeGreaterThanOrEqual(2 * (10 - k));
  });

  it('two parallel tool calls finished in the other order are a match, not a change', () => {
    const a = run('a', (r) =>
      agent(r, (x) => {
        x.model('Look at both.', { calls: ['read', 'grep'] });
        x.tool('read', { path: 'a.ts' }, 'A', { ms: 100 });
        x.tool('grep', { q: 'todo' }, 'G', { ms: 900 });
        x.model('Both seen.');
      }),
    );
    const b = run('b', (r) =>
      agent(r, (x) => {
        x.model('Look at both.', { calls: ['read', 'grep'] });
        x.tool('grep', { q: 'todo' }, 'G', { ms: 100 });
        x.tool('read', { path: 'a.ts' }, 'A', { ms: 900 });
        x.model('Both seen.');
      }),
    );
    const diff = diffRuns(a, b);
    expect(diff.counts.changed + diff.counts.onlyA + diff.counts.onlyB).toBe(0);
    expect(diff.firstDivergence).toBeNull();
    const read = diff.rows.find((r) => diff.a.steps[r.a!]!.name === 'read')!;
    expect(diff.b.steps[read.b!]!.name).toBe('read');
    // Timing differences are deltas, not changes.
    expect(read.delta).toEqual({ durationMs: 800 });
  });

  it('a sub-agent on one side only', () => {
    const a = run('a', (r) =>
      agent(r, (x) => {
        x.model('List files.', { calls: ['bash'] });
        x.tool('bash', { cmd: 'ls' }, 'a b');
        x.model('Done.');
      }),
    );
    const b = run('b', (r) =>
      agent(r, (x) => {
        x.model('List files.', { calls: ['bash'] });
        x.tool('bash', { cmd: 'ls' }, 'a b');
        x.model('Ask an explorer.', { calls: ['explore'] });
        x.tool('explore', { q: 'where is utils' }, 'src/utils.ts', {
          inner: (t) =>
            t.span('explorer', 'agent', (e) => {
              e.model('Searching.', { calls: ['grep'] });
              e.tool('grep', { q: 'utils' }, 'src/utils.ts');
            }),
        });
        x.model('Done.');
      }),
    );
    const diff = diffRuns(a, b);
    expect(lines(diff).slice(5)).toEqual([
      'only-b  | turn 2',
      'only-b  | anthropic/claude-sonnet-4-5: Ask an explorer.',
      'only-b  | explore {"q":"where is utils"}',
      'only-b  | explorer (agent)',
      'only-b  | turn 3',
      'only-b  | anthropic/claude-sonnet-4-5: Searching.',
      'only-b  | grep {"q":"utils"}',
      'same turn 2 | turn 4',
      'same anthropic/claude-sonnet-4-5: Done. | anthropic/claude-sonnet-4-5: Done.',
    ]);
    expect(diff.counts).toEqual({ same: 7, changed: 0, onlyA: 0, onlyB: 7 });
    expect(diff.firstDivergence!.row).toBe(5);
    // The sub-agent's tokens are part of its tool call's.
    const explore = diff.b.steps.find((s) => s.name === 'explore')!;
    expect(explore.tokens).toBe(110);
  });

  it('a run cut short (aborted) against a finished one', () => {
    const finished = run('a', (r) => {
      agent(r, (x) => {
        x.model('One.', { calls: ['bash'] });
        x.tool('bash', { cmd: 'one' }, '1');
        x.model('Two.', { calls: ['bash'] });
        x.tool('bash', { cmd: 'two' }, '2');
        x.model('Three.');
      });
      r.span('scorers', 'scorers', (s) => s.score('C'));
    });
    const cut = run('b', (r) =>
      r.span('solvers', 'solvers', (s) =>
        s.open('react', 'agent', (x) => {
          x.model('One.', { calls: ['bash'] });
          x.tool('bash', { cmd: 'one' }, '1');
          x.span(
            'turn',
            null,
            (t) => {
              t.model('Two.', { calls: ['bash'] });
            },
            true,
          );
        }),
      ),
    );
    const diff = diffRuns(finished, cut);
    expect(lines(diff)).toEqual([
      'same solvers | solvers',
      'same react (agent) | react (agent)',
      'same turn 1 | turn 1',
      'same anthropic/claude-sonnet-4-5: One. | anthropic/claude-sonnet-4-5: One.',
      'same bash {"cmd":"one"} | bash {"cmd":"one"}',
      // B's aborted user turn is opened: the call inside it is A's turn 2.
      'only-b  | turn',
      'changed turn 2 | turn 2',
      'same anthropic/claude-sonnet-4-5: Two. | anthropic/claude-sonnet-4-5: Two.',
      'only-a bash {"cmd":"two"} | ',
      'only-a turn 3 | ',
      'only-a anthropic/claude-sonnet-4-5: Three. | ',
      'only-a scorers | ',
      'only-a score match: "C" | ',
    ]);
    expect(diff.rows[5]).toEqual({ status: 'only-b', a: null, b: 5, wrapper: true });
    // Where B stopped: the call A made next.
    const first = diff.firstDivergence!;
    expect(rowOf(diff, diff.rows[first.row]!).a!.label).toBe('bash {"cmd":"two"}');
    // B's aborted turn is marked.
    const aborted = diff.b.steps.filter((s) => s.aborted === true);
    expect(aborted.map((s) => s.kind)).toEqual(['span']);
    expect(diff.totals.scores).toEqual([{ name: 'match', a: 'C', b: null }]);
    expect(diff.b.steps.find((s) => s.name === 'react')!.status).toBe('running');
  });

  it('the same inspect sample, two epochs', async () => {
    const events = (epoch: number): Record<string, unknown>[] => {
      const tag = `e${epoch}`;
      const t = (s: number) => `2026-01-02T03:0${epoch}:${String(s).padStart(2, '0')}+00:00`;
      const pass = epoch === 1;
      return [
        {
          event: 'span_begin',
          uuid: `${tag}-0`,
          span_id: `${tag}-s`,
          id: `${tag}-s`,
          name: 'solvers',
          type: 'solvers',
          timestamp: t(0),
        },
        {
          event: 'sample_init',
          uuid: `${tag}-1`,
          span_id: `${tag}-s`,
          timestamp: t(1),
          sample: { input: 'Fix it', target: 'ok', id: 1 },
          state: {},
        },
        model(`${tag}-2`, `${tag}-s`, t(2), 'I will run the tests.', 'bash', { cmd: 'pytest' }),
        {
          event: 'tool',
          uuid: `${tag}-3`,
          span_id: `${tag}-s`,
          timestamp: t(3),
          completed: t(4),
          type: 'function',
          id: `${tag}-c1`,
          function: 'bash',
          arguments: { cmd: 'pytest' },
          result: '1 failed',
          events: [],
        },
        model(`${tag}-4`, `${tag}-s`, t(5), pass ? 'Fix the import.' : 'Delete the test.', 'bash', {
          cmd: pass ? 'sed -i s/a/b/ x.py' : 'rm test_x.py',
        }),
        {
          event: 'tool',
          uuid: `${tag}-5`,
          span_id: `${tag}-s`,
          timestamp: t(6),
          completed: t(7),
          type: 'function',
          id: `${tag}-c2`,
          function: 'bash',
          arguments: { cmd: pass ? 'sed -i s/a/b/ x.py' : 'rm test_x.py' },
          result: '',
          events: [],
        },
        {
          event: 'span_end',
          uuid: `${tag}-6`,
          span_id: `${tag}-s`,
          id: `${tag}-s`,
          timestamp: t(8),
        },
        {
          event: 'score',
          uuid: `${tag}-7`,
          timestamp: t(9),
          score: { value: pass ? 'C' : 'I' },
          scorer: 'match',
          intermediate: false,
        },
      ];
    };
    const sample = (epoch: number) => ({
      id: 1,
      epoch,
      input: 'Fix it',
      target: 'ok',
      messages: [],
      scores: { match: { value: epoch === 1 ? 'C' : 'I' } },
      events: events(epoch),
    });
    const log = new TextEncoder().encode(
      JSON.stringify({ ...header(), samples: [sample(1), sample(2)] }),
    );
    const one = await importAny(log, { filename: 'log.json', sample: 1, epoch: 1 });
    const two = await importAny(log, { filename: 'log.json', sample: 1, epoch: 2 });
    const diff = diffRuns(one.events, two.events);
    expect(lines(diff)).toEqual([
      'same solvers | solvers',
      'same sample_init | sample_init',
      'same turn 1 | turn 1',
      'same mock/model: I will run the tests. | mock/model: I will run the tests.',
      'same bash {"cmd":"pytest"} | bash {"cmd":"pytest"}',
      'changed turn 2 | turn 2',
      'changed mock/model: Fix the import. | mock/model: Delete the test.',
      'changed bash {"cmd":"sed -i s/a/b/ x.py"} | bash {"cmd":"rm test_x.py"}',
      'changed score match: "C" | score match: "I"',
    ]);
    expect(diff.rows[5]!.fields).toEqual(['steps']);
    expect(diff.rows[6]!.fields).toEqual(['output']);
    expect(diff.rows[7]!.fields).toEqual(['arguments']);
    expect(diff.firstDivergence!.row).toBe(6);
    expect(diff.totals.scores).toEqual([{ name: 'match', a: 'C', b: 'I' }]);
  });

  it('the same run from two formats (OpenTelemetry and inspect events)', async () => {
    const path = new URL('../fixtures/otlp/agent-chat-tool.otlp.json', import.meta.url);
    const otlp = await importAny(new Uint8Array(readFileSync(path)), { filename: 'x.otlp.json' });
    expect(otlp.format).toBe('otlp');
    const inspect = inspectTwin(otlp.events);
    const diff = diffRuns(inspect, otlp.events);
    // inspect's scaffold spans are wrappers; every step of the agent matches.
    expect(diff.counts.changed).toBe(0);
    expect(diff.counts.onlyB).toBe(0);
    expect(diff.rows.filter((r) => r.status === 'only-a').every((r) => r.wrapper === true)).toBe(
      true,
    );
    expect(
      diff.rows.filter((r) => r.wrapper === true).map((r) => diff.a.steps[r.a!]!.name),
    ).toEqual(['solvers', 'support']);
    expect(diff.firstDivergence).toBeNull();
    const kinds = diff.rows
      .filter((r) => r.status === 'same')
      .map((r) => diff.b.steps[r.b!]!.label);
    expect(kinds).toEqual([
      'support_agent (agent)',
      'turn 1',
      'gpt-4o-mini-2024-07-18',
      'lookup_order {"order_id":"A-1187"}',
      'refund_agent {"order_id":"B-22"}',
      'refund_agent (agent)',
      'turn 2',
      'gpt-4o-mini',
      'issue_refund {"order_id":"B-22"}',
      'turn 3',
      'gpt-4o-mini: A-1187 is in transit. The refund of B-22 failed; I have escalated it.',
    ]);
  });
});

/** A model event with one tool call, inspect-shaped. */
function model(uuid: string, span: string, t: string, text: string, fn: string, args: object) {
  return {
    event: 'model',
    uuid,
    span_id: span,
    timestamp: t,
    model: 'mock/model',
    input: [],
    tools: [],
    tool_choice: 'auto',
    config: {},
    output: {
      model: 'mock/model',
      choices: [
        {
          message: {
            role: 'assistant',
            content: text,
            tool_calls: [{ id: `${uuid}-call`, function: fn, arguments: args, type: 'function' }],
          },
          stop_reason: 'tool_calls',
        },
      ],
      completion: text,
    },
  };
}

/**
 * The OTLP run as inspect would have logged it: `solvers` and a solver span
 * around the agent, each tool call beside its tool span, the sub-agent
 * inside its tool's span, inspect's ids and times, no OTLP metadata.
 */
function inspectTwin(otlp: readonly Event[]): Event[] {
  const out: Record<string, unknown>[] = [];
  let n = 0;
  const at = (e: Event) => ({ uuid: `i-${n++}`, timestamp: e.timestamp });
  const strip = (e: Event) => {
    const {
      uuid: _u,
      span_id: _s,
      metadata: _m,
      timestamp: _t,
      ...rest
    } = e as unknown as Record<string, unknown>;
    return rest;
  };
  const begin = (id: string, name: string, type: string, parent: string | null, e: Event) =>
    out.push({
      event: 'span_begin',
      ...at(e),
      span_id: id,
      id,
      name,
      type,
      ...(parent ? { parent_id: parent } : {}),
    });
  const end = (id: string, e: Event) => out.push({ event: 'span_end', ...at(e), span_id: id, id });
  const [agentBegin, m1, lookup, , refund, subBegin, m2, issue, , subEnd, m3, agentEnd] = otlp;
  begin('S', 'solvers', 'solvers', null, agentBegin!);
  begin('V', 'support', 'solver', 'S', agentBegin!);
  begin('A', 'support_agent', 'agent', 'V', agentBegin!);
  out.push({ ...strip(m1!), ...at(m1!), span_id: 'A' });
  begin('T1', 'lookup_order', 'tool', 'A', lookup!);
  end('T1', lookup!);
  out.push({ ...strip(lookup!), ...at(lookup!), span_id: 'A' });
  begin('T2', 'refund_agent', 'tool', 'A', refund!);
  begin('R', 'refund_agent', 'agent', 'T2', subBegin!);
  out.push({ ...strip(m2!), ...at(m2!), span_id: 'R' });
  begin('T3', 'issue_refund', 'tool', 'R', issue!);
  end('T3', issue!);
  out.push({ ...strip(issue!), ...at(issue!), span_id: 'R' });
  end('R', subEnd!);
  end('T2', subEnd!);
  const { agent_span_id: _a, ...refundCall } = strip(refund!);
  out.push({ ...refundCall, ...at(refund!), span_id: 'A' });
  out.push({ ...strip(m3!), ...at(m3!), span_id: 'A' });
  end('A', agentEnd!);
  end('V', agentEnd!);
  end('S', agentEnd!);
  return out as unknown as Event[];
}

describe('diffRuns: options and bounds', () => {
  const pair = () => {
    const a = run('a', (r) =>
      agent(r, (x) => {
        x.model('Go.', { calls: ['bash'] });
        x.tool('bash', { cmd: 'date' }, 'Mon');
      }),
    );
    const b = run('b', (r) =>
      agent(r, (x) => {
        x.model('Go.', { calls: ['bash'] });
        x.tool('bash', { cmd: 'date' }, 'Tue');
      }),
    );
    return [a, b] as const;
  };

  it('ignores the fields it is told to', () => {
    const [a, b] = pair();
    expect(diffRuns(a, b).counts.changed).toBe(1);
    expect(diffRuns(a, b, { ignore: [...DEFAULT_DIFF_IGNORE, 'result'] }).identical).toBe(true);
    // A root path ignores that field only where the path leads.
    expect(diffRuns(a, b, { ignore: [...DEFAULT_DIFF_IGNORE, '$.result'] }).identical).toBe(true);
    expect(diffRuns(a, b, { ignore: [...DEFAULT_DIFF_IGNORE, '$.x.result'] }).counts.changed).toBe(
      1,
    );
  });

  it('a custom key decides which steps are the same step', () => {
    const [a] = pair();
    const c = run('c', (r) =>
      agent(r, (x) => {
        x.model('Go.', { calls: ['bash'] });
        x.tool('bash', { cmd: 'date -u' }, 'Mon');
      }),
    );
    // By default another command is another step of the same tool: changed.
    expect(
      diffRuns(a, c).rows.find(
        (r) => r.status === 'changed' && diffRuns(a, c).a.steps[r.a!]!.kind === 'tool',
      ),
    ).toBeDefined();
    const byTool = diffRuns(a, c, {
      key: (step) => (step.kind === 'tool' ? step.name : undefined),
    });
    const tool = byTool.rows.find((r) => byTool.a.steps[r.a!]?.kind === 'tool')!;
    expect(tool).toMatchObject({ status: 'changed', fields: ['arguments'] });
  });

  it('hides bookkeeping kinds by default and shows them when asked', () => {
    const a = run('a', (r) => agent(r, (x) => x.log('one')));
    const b = run('b', (r) => agent(r, (x) => x.log('two')));
    expect(diffRuns(a, b).identical).toBe(true);
    expect(diffRuns(a, b, { hide: [] }).counts.changed).toBe(1);
  });

  it('bad options are typed errors naming the option', () => {
    expect(() => diffRuns([], [], { maxEdits: 0 })).toThrow(/maxEdits/);
    expect(() => diffRuns([], [], { ignore: 'id' as never })).toThrow(/ignore/);
    expect(() => diffRuns([], {} as never)).toThrow(/"b" must be/);
  });

  it('totally different runs are aligned coarsely past the edit budget, and say so', () => {
    const a = generateRun({ seed: 5, events: 1500, pendingRate: 0 });
    const b = generateRun({ seed: 6, events: 1500, pendingRate: 0 });
    const exact = diffRuns(a, b);
    const coarse = diffRuns(a, b, { maxEdits: 2 });
    expect(coarse.alignment).toBe('coarse');
    expect(coarse.coarseSteps).toBeGreaterThan(0);
    expect(exact.coarseSteps).toBeLessThan(coarse.coarseSteps);
    for (const diff of [exact, coarse]) {
      // Every step is on exactly one row, in order.
      expect(diff.rows.filter((r) => r.a !== null).map((r) => r.a)).toEqual(
        diff.a.steps.map((s) => s.index),
      );
      expect(diff.rows.filter((r) => r.b !== null).length).toBe(diff.b.steps.length);
    }
  });

  it('nesting 20,000 spans deep costs no stack', () => {
    const deep = (prefix: string, cmd: string): Event[] => {
      const out: Record<string, unknown>[] = [];
      const t = '2026-03-01T10:00:00Z';
      const depth = 20_000;
      for (let d = 0; d < depth; d++) {
        const id = `${prefix}-s${d}`;
        out.push({
          event: 'span_begin',
          uuid: `${prefix}-b${d}`,
          timestamp: t,
          span_id: id,
          id,
          name: `s${d % 3}`,
          type: 'agent',
          ...(d > 0 ? { parent_id: `${prefix}-s${d - 1}` } : {}),
        });
      }
      out.push({
        event: 'tool',
        uuid: `${prefix}-t`,
        timestamp: t,
        span_id: `${prefix}-s${depth - 1}`,
        type: 'function',
        id: 'c',
        function: 'bash',
        arguments: { cmd },
        result: 'ok',
        events: [],
      });
      return out as unknown as Event[];
    };
    const diff = diffRuns(deep('a', 'ls'), deep('b', 'pwd'));
    expect(diff.rows.length).toBe(20_001);
    expect(diff.counts.changed).toBe(1);
    expect(diff.firstDivergence!.path.length).toBe(20_000);
  });

  it('a step’s arguments read the same after wide arguments were cut short', () => {
    const t = '2026-03-01T10:00:00Z';
    const wide = (n: number) => {
      const out: Record<string, string> = {};
      for (let i = 0; i < n; i++) out[`k${i}`] = 'v';
      return out;
    };
    const tool = (uuid: string, args: unknown) =>
      ({
        event: 'tool',
        uuid,
        timestamp: t,
        type: 'function',
        id: uuid,
        function: 'bash',
        arguments: args,
        result: 'ok',
        events: [],
      }) as unknown as Event;
    // Thousands of keys, cut at the signature's length: a text walk stopped
    // with most of the value still to write, then a small value.
    const runOf = (p: string) => [
      tool(`${p}1`, wide(6000)),
      tool(`${p}2`, { cmd: 'ls', opts: [1, { deep: true }] }),
      tool(`${p}3`, wide(1000)),
      tool(`${p}4`, { cmd: 'pwd' }),
    ];
    const diff = diffRuns(runOf('a'), runOf('b'));
    const text = (n: number) =>
      `{${Object.keys(wide(n))
        .sort()
        .map((k) => `"${k}":"v"`)
        .join(',')}`;
    const label = (s: string) => (s.length > 120 ? `${s.slice(0, 119)}…` : s);
    expect(diff.a.steps.map((s) => s.label)).toEqual([
      label(`bash ${text(6000)}`),
      'bash {"cmd":"ls","opts":[1,{"deep":true}]}',
      label(`bash ${text(1000)}`),
      'bash {"cmd":"pwd"}',
    ]);
    expect(diff.b.steps.map((s) => s.label)).toEqual(diff.a.steps.map((s) => s.label));
    expect(diff.identical).toBe(true);
  });
});

describe('renderRunDiffText', () => {
  it('marks the divergence, folds identical runs and states the deltas', () => {
    const body = (cmd: string) => (r: RunBuilder) =>
      agent(r, (x) => {
        for (let i = 0; i < 12; i++) {
          x.model(`Step ${i}`, { calls: ['bash'] });
          x.tool('bash', { cmd: i === 9 ? cmd : `echo ${i}` }, 'ok');
        }
      });
    const diff = diffRuns(run('a', body('make')), run('b', body('make -j8')));
    const text = renderRunDiffText(diff, { context: 1 });
    const out = text.split('\n');
    expect(out[0]).toMatch(/^--- a: 38 steps, 1\.3k tokens, /);
    expect(out[1]).toMatch(/^\+\+\+ b: 38 steps/);
    expect(text).toContain('@@ 36 same · 2 changed · 0 only in a · 0 only in b @@');
    expect(out[2]).toMatch(/^@@/); // no totals line: tokens and time are equal
    expect(text).toMatch(/ {2}… 28 identical steps\n/);
    const marker = out.findIndex((l) => l.startsWith('>>> first divergence'));
    expect(out[marker]).toBe('>>> first divergence (in solvers › react (agent) › turn 10)');
    expect(out[marker - 2]).toMatch(/^~ {5}turn 10 {2}\[steps · \d+% alike\]$/);
    expect(out[marker + 1]).toMatch(
      /^~ {7}bash \{"cmd":"make -j8"\} {2}\[arguments · \d+% alike\]$/,
    );
    expect(out[marker + 2]).toBe('          was: bash {"cmd":"make"}');
    expect(renderRunDiffText(diffRuns(run('a', body('x')), run('b', body('x'))))).toContain(
      'identical: 38 steps, all the same',
    );
    expect(renderRunDiffText(diff, { color: true })).toContain('\u001b[33m~');
  });
});

describe('createRunDiff: a live B', () => {
  it('follows a growing stream and equals diffRuns at every step', async () => {
    const a = generateRun({ seed: 8, events: 400, pendingRate: 0.2 });
    const b = generateRun({ seed: 8, events: 400, pendingRate: 0.2, model: 'openai/gpt-5.4' });
    const stream = new EventStream();
    // Held updates wait one task here, not five times the last update's cost.
    const live = createRunDiff(a, stream, { delay: (task) => void setTimeout(task, 0) });
    let heard = 0;
    const stop = live.subscribe(() => heard++);
    for (let at = 0; at < b.length; at += 67) {
      for (const e of b.slice(at, at + 67)) stream.append(e);
      const got = live.update();
      const want = diffRuns(a, b.slice(0, at + 67));
      expect(got.rows).toEqual(want.rows);
      expect(got.counts).toEqual(want.counts);
      expect(got.b.complete).toBe(false);
    }
    // Listeners hear of changes (coalesced, once per microtask at most).
    await new Promise((r) => setTimeout(r, 5));
    expect(heard).toBeGreaterThan(0);
    expect(heard).toBeLessThanOrEqual(9);
    stream.close();
    expect(live.update().b.complete).toBe(true);
    expect(live.getSnapshot()).toBe(live.update());
    stop();
    live.dispose();
  });
});

describe('createRunDiff: a large run read in slices', () => {
  it('spaces the updates while a run is read, but not the last one', async () => {
    const a = generateRun({ seed: 9, events: 3_000, pendingRate: 0 });
    const b = generateRunVariant(a, { rate: 0.05 });
    // The feed's slices run when the test says; held updates never do.
    const slices: (() => void)[] = [];
    const feed = createEventTreeFeed(b, {
      firstSlice: 500,
      sliceMs: 1,
      schedule: (task) => void slices.push(task),
    });
    const held: (() => void)[] = [];
    let clock = 0;
    // Every update "takes" 10 ms: past the 4 ms after which updates are spaced.
    const live = createRunDiff(a, feed, {
      now: () => (clock += 10),
      delay: (task) => void held.push(task),
    });
    let heard = 0;
    const stop = live.subscribe(() => heard++);
    await Promise.resolve();
    while (slices.length > 0) {
      slices.shift()!();
      await Promise.resolve();
    }
    expect(feed.getSnapshot().loading).toBe(false);
    // Updates were held back while the run was read…
    expect(held.length).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 0));
    // …but the last one was not: the diff is of the whole run.
    expect(heard).toBeGreaterThan(0);
    const got = live.getSnapshot();
    expect(got.b.complete).toBe(true);
    expect(got.rows).toEqual(diffRuns(a, b).rows);
    stop();
    live.dispose();
    feed.dispose();
  });
});

describe('createRunDiff: an update in slices (sliceMs)', () => {
  const a = generateRun({ seed: 9, events: 3_000, pendingRate: 0 });
  const b = generateRunVariant(a, { rate: 0.05 });

  it('spreads an update over tasks and tells listeners once, of the whole diff', async () => {
    const stream = new EventStream();
    const tasks: (() => void)[] = [];
    let clock = 0;
    // Each look at the clock "takes" 1 ms: a 4 ms slice pauses after a few steps of the job.
    const live = createRunDiff(a, stream, {
      now: () => (clock += 1),
      sliceMs: 4,
      schedule: (task) => void tasks.push(task),
    });
    const heard: RunDiffResult[] = [];
    const stop = live.subscribe(() => heard.push(live.getSnapshot()));
    for (const e of b) stream.append(e);
    stream.close();
    await Promise.resolve();
    // The first slice ran in the notification; the rest wait for their tasks.
    expect(tasks.length).toBe(1);
    expect(heard).toEqual([]);
    let ran = 0;
    while (tasks.length > 0) {
      tasks.shift()!();
      ran++;
      await Promise.resolve();
    }
    expect(ran).toBeGreaterThan(2);
    expect(heard.length).toBe(1);
    const want = diffRuns(a, b);
    expect(heard[0]!.rows).toEqual(want.rows);
    expect(heard[0]!.totals).toEqual(want.totals);
    expect(heard[0]!.b.complete).toBe(true);
    expect(live.getSnapshot()).toBe(heard[0]);
    stop();
    live.dispose();
  });

  it('finishes an update under way at once in update()', async () => {
    const stream = new EventStream();
    let clock = 0;
    const tasks: (() => void)[] = [];
    const live = createRunDiff(a, stream, {
      now: () => (clock += 1),
      sliceMs: 4,
      schedule: (task) => void tasks.push(task),
    });
    const stop = live.subscribe(() => {});
    for (const e of b.slice(0, 2_000)) stream.append(e);
    await Promise.resolve();
    expect(tasks.length).toBe(1);
    // The rest arrives while that update is under way: update() finishes it, then diffs the rest.
    for (const e of b.slice(2_000)) stream.append(e);
    expect(live.update().rows).toEqual(diffRuns(a, b).rows);
    stop();
    live.dispose();
  });

  it('checks sliceMs', () => {
    expect(() => createRunDiff(a, b, { sliceMs: 0 })).toThrow(/sliceMs/);
  });
});

describe('buildRunDiffView and the keyboard', () => {
  const body = (cmd: string) => (r: RunBuilder) =>
    agent(r, (x) => {
      for (let i = 0; i < 20; i++) {
        x.model(`Step ${i}`, { calls: ['bash'] });
        x.tool('bash', { cmd: i === 4 || i === 15 ? cmd : `echo ${i}` }, 'ok');
      }
    });
  const diff = diffRuns(run('a', body('make')), run('b', body('make -j8')));

  it('folds runs of identical rows around the differences, and opens a fold by key', () => {
    const view = buildRunDiffView(diff, { context: 1 });
    const shape = Array.from({ length: view.length }, (_, v) =>
      view.row[v]! < 0 ? `fold ${view.count[v]}` : diff.rows[view.row[v]!]!.status,
    );
    // solvers, react, turns 1-4 (12 rows) fold; 1 context row; turn 5 and its bash; …
    expect(shape).toEqual([
      'fold 13',
      'same',
      'changed',
      'same',
      'changed',
      'same',
      'fold 28',
      'same',
      'changed',
      'same',
      'changed',
      'same',
      'fold 11',
    ]);
    expect(view.displayOf(0)).toBe(0);
    expect(view.displayOf(15)).toBe(3);
    const opened = buildRunDiffView(diff, { context: 1, expanded: new Set([view.keyOf(6)]) });
    expect(opened.length).toBe(view.length + 27);
    expect(opened.keyOf(0)).toBe(view.keyOf(0));
    expect(view.keyOf(2)).toBe(
      `${diff.a.steps[diff.rows[view.row[2]!]!.a!]!.uuid}|${diff.b.steps[diff.rows[view.row[2]!]!.b!]!.uuid}`,
    );
    // The text report folds the same way.
    expect(renderRunDiffText(diff, { context: 1 })).toContain('… 28 identical steps');
  });

  it('n / p / f move between differences; Enter toggles; modified keys are left alone', () => {
    const view = buildRunDiffView(diff, { context: 1 });
    const page = (v: number, d: 1 | -1) => v + 5 * d;
    expect(runDiffKeyAction({ key: 'n' }, view, -1, page)).toEqual({ type: 'focus', row: 4 });
    expect(runDiffKeyAction({ key: 'n' }, view, 4, page)).toEqual({ type: 'focus', row: 10 });
    expect(runDiffKeyAction({ key: 'n' }, view, 10, page)).toEqual({ type: 'none' });
    expect(runDiffKeyAction({ key: 'p' }, view, 10, page)).toEqual({ type: 'focus', row: 4 });
    expect(runDiffKeyAction({ key: 'f' }, view, 11, page)).toEqual({ type: 'focus', row: 4 });
    expect(runDiffKeyAction({ key: 'ArrowDown' }, view, 4, page)).toEqual({
      type: 'focus',
      row: 5,
    });
    expect(runDiffKeyAction({ key: 'End' }, view, 4, page)).toEqual({ type: 'focus', row: 12 });
    expect(runDiffKeyAction({ key: 'PageDown' }, view, 4, page)).toEqual({ type: 'focus', row: 9 });
    expect(runDiffKeyAction({ key: 'Enter' }, view, 6, page)).toEqual({ type: 'toggle', row: 6 });
    expect(runDiffKeyAction({ key: 'n', ctrlKey: true }, view, 0, page)).toEqual({ type: 'none' });
  });

  it('runStepText is what a changed step compares, as text', () => {
    const [a] = [run('a', (r) => r.tool('bash', { cmd: 'ls <b>' }, '<script>x</script>'))];
    expect(runStepText(a[0]!)).toBe('{\n "cmd": "ls <b>"\n}\n→ <script>x</script>');
    const m = run('m', (r) => r.model('Hello there.', { calls: ['bash'] }))[0]!;
    expect(runStepText(m)).toBe('Hello there.\nbash({})');
    expect(runStepText(a[0]!, 10)).toHaveLength(10);
  });

  it('the step axis maps each run’s time onto the shared rows, monotonically', () => {
    const axis = runDiffStepAxis(diff, 'b');
    const rowOfStep = (s: number) => diff.rows.findIndex((r) => r.b === s);
    const bash = diff.b.steps.findIndex((s) => s.label === 'bash {"cmd":"make -j8"}');
    expect(axis.toRow(diff.b.steps[bash]!.start!)).toBe(rowOfStep(bash));
    expect(axis.toRow(axis.start - 1)).toBe(0);
    let prev = 0;
    for (let t = axis.start; t <= axis.end; t += 997) {
      const r = axis.toRow(t);
      expect(r).toBeGreaterThanOrEqual(prev);
      prev = r;
    }
    expect(axis.toRow(axis.end)).toBe(diff.rows.length - 1);
  });
});
