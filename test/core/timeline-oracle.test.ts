// Differential tests (STYLE §14): the optimised `buildTimeline` (single-pass
// tree build with placeholders) and span metrics (one column pass per span)
// against the versions they replaced, kept verbatim as oracles in
// test/core/helpers/timeline-oracle-*.ts. Same timeline, same metrics, on
// generated runs and on random, often malformed, event lists.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Event } from '../../src/core/events/index.js';
import { generateRun } from '../../src/core/generate/generate-run.js';
import {
  buildTimeline,
  spanEndTime,
  spanIdleTime,
  spanStartTime,
  spanTotalTokens,
} from '../../src/core/timeline/index.js';
import type { Timeline, TimelineSpan } from '../../src/core/timeline/index.js';
import * as oracle from './helpers/timeline-oracle-build.js';
import * as oracleMetrics from './helpers/timeline-oracle-metrics.js';
import { parse, type Wire } from './helpers/timeline-wire.js';

/** Every span, pre-order: content spans, then branches. */
function allSpans(root: TimelineSpan): TimelineSpan[] {
  const out: TimelineSpan[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const span = stack.pop()!;
    out.push(span);
    for (let i = span.branches.length - 1; i >= 0; i--) stack.push(span.branches[i]!);
    for (let i = span.content.length - 1; i >= 0; i--) {
      const item = span.content[i]!;
      if (item.type === 'span') stack.push(item);
    }
  }
  return out;
}

type Metrics = typeof oracleMetrics;

/** All metrics of all spans, with and without branches. */
function metricsOf(timeline: Timeline, m: Pick<Metrics, keyof Metrics>): number[] {
  const out: number[] = [];
  for (const span of allSpans(timeline.root)) {
    for (const includeBranches of [true, false]) {
      const o = { includeBranches };
      out.push(
        m.spanStartTime(span, o),
        m.spanEndTime(span, o),
        m.spanTotalTokens(span, o),
        m.spanIdleTime(span, o),
      );
    }
  }
  return out;
}

const current = { spanStartTime, spanEndTime, spanTotalTokens, spanIdleTime } as Metrics;

function checkSame(events: readonly Event[]): void {
  for (const keepOrphans of [true, false]) {
    const expected = oracle.buildTimeline(events, { keepOrphans });
    const actual = buildTimeline(events, { keepOrphans });
    expect(actual).toEqual(expected);
    const want = metricsOf(expected, oracleMetrics);
    // The new metrics on the new timeline, and on the oracle's own.
    expect(metricsOf(actual, current)).toEqual(want);
    expect(metricsOf(expected, current)).toEqual(want);
    // Asking a subtree first, then the root, gives the same figures.
    const fresh = buildTimeline(events, { keepOrphans });
    const spans = allSpans(fresh.root);
    for (let i = spans.length - 1; i >= 0; i -= 3) spanIdleTime(spans[i]!);
    expect(metricsOf(fresh, current)).toEqual(want);
  }
}

describe('buildTimeline and metrics match the oracle on generated runs', () => {
  const cases: [string, Parameters<typeof generateRun>[0]][] = [
    ['a small run', { seed: 1, events: 500 }],
    ['a default run', { seed: 11, events: 5_000 }],
    ['many agents, deep', { seed: 21, events: 6_000, agents: 200, depth: 4, parallelism: 4 }],
    ['errors and pending events', { seed: 5, events: 4_000, errorRate: 0.2, pendingRate: 0.2 }],
    ['compactions', { seed: 7, events: 4_000, compactAfter: 20 }],
  ];
  for (const [name, options] of cases) {
    it(name, () => checkSame(generateRun(options)));
  }
});

// ---------------------------------------------------------------------------
// Random event lists: a small program over a handful of span ids, so ids are
// reused (begun twice), referenced before their begin, never begun, made
// their own or each other's parents; timestamps jump by seconds or by hours.
// ---------------------------------------------------------------------------

const IDS = ['a', 'b', 'c', 'd', 'solvers', 'init', 'scorers', 'agent-call1'];
const TYPES = ['agent', 'solver', 'tool', 'branch', 'custom', null, 'init', 'scorers'];
const PROMPTS = ['You are A.', 'You are B.', undefined];

const op = fc.record({
  kind: fc.constantFrom('begin', 'end', 'info', 'model', 'tool', 'branch', 'close'),
  id: fc.nat(IDS.length - 1),
  other: fc.nat(IDS.length + 1),
  type: fc.nat(TYPES.length - 1),
  flag: fc.boolean(),
  prompt: fc.nat(PROMPTS.length - 1),
  dt: fc.constantFrom(0, 1, 2, 5, 400, 3_600, -30),
});

interface Op {
  kind: string;
  id: number;
  other: number;
  type: number;
  flag: boolean;
  prompt: number;
  dt: number;
  /** Begin a fresh span id instead of one of `IDS`. */
  unique?: boolean;
}

function run(ops: readonly Op[]): Wire[] {
  const out: Wire[] = [];
  const open: string[] = [];
  let t = 0;
  let n = 0;
  const ts = () => new Date(Date.UTC(2026, 0, 1) + t * 1000).toISOString();
  for (const o of ops) {
    t += o.dt;
    const uuid = `u${n++}`;
    // Mostly the innermost open span; sometimes any id, or none.
    const here = o.other < IDS.length && !o.flag ? IDS[o.other]! : (open[open.length - 1] ?? null);
    switch (o.kind) {
      case 'begin': {
        const id = o.unique ? `s${n}` : IDS[o.id]!;
        const parent =
          o.other === IDS.length ? null : o.flag ? (open[open.length - 1] ?? null) : here;
        const name = o.type % 3 === 0 ? id : o.type % 3 === 1 ? 'x' : '';
        out.push({
          event: 'span_begin',
          uuid,
          id,
          span_id: id,
          name,
          type: TYPES[o.type],
          parent_id: parent,
          timestamp: ts(),
          ...(o.flag ? { metadata: { description: `d-${id}` } } : {}),
        });
        open.push(id);
        break;
      }
      case 'end':
      case 'close': {
        const id = o.kind === 'close' ? open.pop() : IDS[o.id]!;
        if (id !== undefined)
          out.push({ event: 'span_end', uuid, id, span_id: id, timestamp: ts() });
        break;
      }
      case 'info':
        out.push({ event: 'info', uuid, span_id: here, data: uuid, timestamp: ts() });
        break;
      case 'branch':
        out.push({ event: 'branch', uuid, span_id: here, from_anchor: 'x', timestamp: ts() });
        break;
      case 'tool':
        out.push({
          event: 'tool',
          uuid,
          span_id: here,
          id: `call${o.other}`,
          function: 'bash',
          arguments: {},
          result: o.flag ? 'done' : '',
          events: [],
          timestamp: ts(),
          ...(o.flag
            ? { completed: new Date(Date.UTC(2026, 0, 1) + (t + o.dt) * 1000).toISOString() }
            : {}),
          ...(o.type < 3 ? { agent_span_id: IDS[o.id] } : {}),
        });
        break;
      default: {
        const system = PROMPTS[o.prompt];
        const input: Wire[] = [];
        if (system !== undefined) input.push({ role: 'system', content: system });
        input.push({ role: 'user', content: o.type === 0 ? 'hi' : 'Please solve the task.' });
        if (o.type === 1) input.push({ role: 'tool', tool_call_id: 'call1', content: 'answer' });
        out.push({
          event: 'model',
          uuid,
          span_id: here,
          model: 'm',
          input,
          tools: [],
          tool_choice: 'auto',
          config: o.type === 0 ? { max_tokens: 1 } : {},
          output: {
            model: 'm',
            choices: [
              {
                message: {
                  role: 'assistant',
                  content: 'ok',
                  ...(o.flag
                    ? { tool_calls: [{ id: `tc-${uuid}`, function: 'bash', arguments: {} }] }
                    : {}),
                },
                stop_reason: o.flag ? 'tool_calls' : 'stop',
              },
            ],
            usage: {
              input_tokens: o.id + 1,
              output_tokens: o.other,
              input_tokens_cache_read: o.type,
            },
          },
          timestamp: ts(),
          ...(o.dt > 0
            ? { completed: new Date(Date.UTC(2026, 0, 1) + (t + o.dt) * 1000).toISOString() }
            : {}),
        });
      }
    }
  }
  return out;
}

describe('buildTimeline and metrics match the oracle on random event lists', () => {
  it('any program of begins, ends, events, branches and time jumps', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => checkSame(parse(run(ops)))),
      { numRuns: 400 },
    );
  });

  it('well nested programs (the single-pass fast path)', () => {
    const nested = fc.array(op, { maxLength: 80 }).map((ops) =>
      // Begins only under the innermost open span, ends only close it,
      // events only in it: what inspect writes.
      ops.map((o): Op => ({
        ...o,
        kind: o.kind === 'end' ? 'close' : o.kind,
        flag: o.kind === 'begin' ? true : o.flag,
        other: IDS.length + 1,
        unique: o.kind === 'begin' && o.type !== 0,
      })),
    );
    fc.assert(
      fc.property(nested, (ops) => checkSame(parse(run(ops)))),
      { numRuns: 300 },
    );
  });
});
