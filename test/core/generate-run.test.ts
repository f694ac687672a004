import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseEvent } from '../../src/core/events/parse.js';
import type { Event, ModelEvent, SpanBeginEvent, ToolEvent } from '../../src/core/events/types.js';
import { generateRun } from '../../src/core/generate/generate-run.js';
import { EventStream } from '../../src/core/stream/event-stream.js';

type Loose = Event & Record<string, unknown>;

const medium = generateRun({ seed: 7, events: 2_000 });

function count(events: readonly Event[], kind: string): number {
  return events.filter((e) => e.event === kind).length;
}

/** Checks span structure in file order; returns the problems found. */
function spanProblems(events: readonly Event[], allowUnclosed = false): string[] {
  const problems: string[] = [];
  const open = new Set<string>();
  const begun = new Set<string>();
  events.forEach((e, i) => {
    const x = e as Loose;
    if (e.event === 'span_begin') {
      const id = x['id'] as string;
      if (begun.has(id)) problems.push(`#${i} span ${id} begins twice`);
      if (x['span_id'] !== id) problems.push(`#${i} span_begin span_id ≠ id`);
      const parent = x['parent_id'] as string | undefined;
      if (parent !== undefined && !open.has(parent))
        problems.push(`#${i} parent ${parent} is not open`);
      begun.add(id);
      open.add(id);
    } else if (e.event === 'span_end') {
      const id = x['id'] as string;
      if (!open.delete(id)) problems.push(`#${i} span_end ${id} without an open begin`);
    } else if (e.span_id != null && !open.has(e.span_id)) {
      problems.push(`#${i} ${e.event} in span ${e.span_id}, which is not open`);
    }
  });
  if (!allowUnclosed && open.size > 0) problems.push(`${open.size} spans never end`);
  return problems;
}

describe('determinism', () => {
  it('gives identical JSON for the same options', () => {
    const options = { seed: 11, events: 1_500, agents: 5, parallelism: 3 };
    expect(JSON.stringify(generateRun(options))).toBe(JSON.stringify(generateRun(options)));
  });
  it('gives a different run for a different seed', () => {
    expect(JSON.stringify(generateRun({ seed: 1, events: 300 }))).not.toBe(
      JSON.stringify(generateRun({ seed: 2, events: 300 })),
    );
  });
  it('uses the fixed start time, not the clock', () => {
    expect(generateRun({ seed: 1, events: 10 })[0]!.timestamp).toBe('2026-06-10T18:23:50+00:00');
    expect(
      generateRun({ seed: 1, events: 10, startTime: '2025-01-02T03:04:05Z' })[0]!.timestamp,
    ).toBe('2025-01-02T03:04:05+00:00');
  });
});

describe('exact event counts', () => {
  for (const n of [10, 11, 14, 19, 59, 60, 61, 149, 150, 1_000, 12_345]) {
    it(`produces exactly ${n} events`, () =>
      expect(generateRun({ seed: n, events: n })).toHaveLength(n));
  }
  it('honours the count for any size and option mix (property)', () => {
    fc.assert(
      fc.property(
        fc.record({
          seed: fc.integer(),
          events: fc.integer({ min: 10, max: 3_000 }),
          agents: fc.nat(20),
          depth: fc.nat(4),
          parallelism: fc.integer({ min: 1, max: 6 }),
          errorRate: fc.double({ min: 0, max: 1, noNaN: true }),
          pendingRate: fc.double({ min: 0, max: 1, noNaN: true }),
          inProgress: fc.boolean(),
        }),
        (options) => {
          const events = generateRun(options);
          expect(events).toHaveLength(options.events);
          expect(spanProblems(events, options.inProgress)).toEqual([]);
        },
      ),
      { numRuns: 60 },
    );
  });
  it('rejects fewer than 10 events', () =>
    expect(() => generateRun({ events: 9 })).toThrow(
      'generateRun: "events" must be an integer of at least 10, got 9',
    ));
  it('rejects a non-integer count', () =>
    expect(() => generateRun({ events: 100.5 })).toThrow(
      expect.objectContaining({ name: 'SkeinError', code: 'invalid_argument' }),
    ));
  it('rejects a seed that is not finite and a start that is not a time', () => {
    expect(() => generateRun({ seed: NaN })).toThrow(
      expect.objectContaining({ name: 'SkeinError', code: 'invalid_argument' }),
    );
    expect(() => generateRun({ startTime: 'noon' })).toThrow(
      'generateRun: "startTime" must be an ISO 8601 time, got "noon"',
    );
  });
});

describe('a medium run shows every feature', () => {
  const kinds = [
    'sample_init',
    'span_begin',
    'span_end',
    'model',
    'tool',
    'sandbox',
    'error',
    'compaction',
    'anchor',
    'branch',
    'score',
    'info',
    'logger',
    'store',
    'state',
  ];
  for (const kind of kinds)
    it(`has ${kind} events`, () => expect(count(medium, kind)).toBeGreaterThan(0));

  const spanTypes = ['init', 'solvers', 'solver', 'agent', 'tool', 'branch', 'scorers', 'scorer'];
  for (const type of spanTypes) {
    it(`has ${type} spans`, () =>
      expect(
        medium.some((e) => e.event === 'span_begin' && (e as SpanBeginEvent).type === type),
      ).toBe(true));
  }

  const models = medium.filter((e): e is ModelEvent => e.event === 'model' && e.pending !== true);
  it('has model calls with markdown text, reasoning and tool calls', () => {
    const parts = models.flatMap((m) => {
      const content = m.output.choices[0]?.message.content;
      return Array.isArray(content) ? content : [];
    });
    expect(parts.some((p) => p.type === 'reasoning')).toBe(true);
    expect(parts.some((p) => p.type === 'text' && /```|\n- |\| --- \|/.test(p.text))).toBe(true);
    expect(models.some((m) => (m.output.choices[0]?.message.tool_calls?.length ?? 0) > 1)).toBe(
      true,
    );
  });
  it('gives every completed model call usage with cache tokens, a completion time and working_start', () => {
    for (const m of models.filter((m) => m.error == null)) {
      const u = m.output.usage!;
      expect(u.total_tokens).toBe(
        u.input_tokens! +
          u.output_tokens! +
          u.input_tokens_cache_read! +
          u.input_tokens_cache_write!,
      );
      expect(typeof m.completed).toBe('string');
      expect(typeof m.working_start).toBe('number');
    }
    expect(models.some((m) => (m.output.usage?.input_tokens_cache_read ?? 0) > 0)).toBe(true);
  });
  it('has failed model calls with ANSI tracebacks', () => {
    const failed = models.filter((m) => m.error != null);
    expect(failed.length).toBeGreaterThan(0);
    for (const m of failed) {
      expect(m.traceback).toMatch(/^Traceback/);
      expect(m.traceback_ansi).toContain('\u001b[');
    }
  });
  it('has failed tool calls and a crashed sub-agent whose error event carries an ANSI traceback', () => {
    expect(medium.some((e) => e.event === 'tool' && (e as ToolEvent).error != null)).toBe(true);
    const error = medium.find((e) => e.event === 'error') as Loose;
    expect((error['error'] as { traceback_ansi: string }).traceback_ansi).toContain('\u001b[');
  });
  it('has a score with an explanation', () => {
    const score = medium.find((e) => e.event === 'score') as Loose;
    expect((score['score'] as { explanation: string }).explanation).toMatch(/GRADE/);
  });
});

describe('structure as inspect writes it', () => {
  it('balances every span (and every event sits in an open span)', () =>
    expect(spanProblems(medium)).toEqual([]));

  it('opens with init/sample_init and ends with the scorers phase', () => {
    expect(medium.slice(0, 3).map((e) => e.event)).toEqual([
      'span_begin',
      'sample_init',
      'span_end',
    ]);
    expect((medium[0] as SpanBeginEvent).name).toBe('init');
    expect(medium.at(-1)!.event).toBe('span_end');
    const scorers = medium.find(
      (e) => e.event === 'span_begin' && (e as SpanBeginEvent).name === 'scorers',
    );
    expect(scorers).toBeDefined();
  });

  it('lists each ToolEvent right after its tool span begins, outside it and stamped earlier', () => {
    medium.forEach((e, i) => {
      if (e.event !== 'tool' || e.pending === true) return;
      const tool = e as ToolEvent;
      const finalIsLater = medium.slice(0, i).some((p) => p.uuid === e.uuid);
      if (finalIsLater) return; // the final copy of a streamed call comes at its end
      const begin = medium[i - 1] as SpanBeginEvent;
      expect(begin.event).toBe('span_begin');
      expect(begin.type).toBe('tool');
      expect(begin.name).toBe(tool.function);
      expect(tool.span_id).toBe(begin.parent_id);
      expect(Date.parse(tool.timestamp)).toBeLessThanOrEqual(Date.parse(begin.timestamp));
    });
  });

  it('links agent tool calls to their agent span inside the tool span', () => {
    const spans = new Map<string, SpanBeginEvent>();
    for (const e of medium)
      if (e.event === 'span_begin') spans.set((e as SpanBeginEvent).id, e as SpanBeginEvent);
    const calls = medium.filter(
      (e): e is ToolEvent => e.event === 'tool' && (e as ToolEvent).agent != null,
    );
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) {
      const agent = spans.get(call.agent_span_id!)!;
      expect(agent.type).toBe('agent');
      expect(agent.name).toBe(call.agent);
      expect(spans.get(agent.parent_id!)!.type).toBe('tool');
    }
  });

  it('emits branches as anchor, then a branch span whose first event is branch(from_anchor)', () => {
    const i = medium.findIndex((e) => e.event === 'anchor');
    const anchor = medium[i] as Loose;
    const span = medium[i + 1] as SpanBeginEvent;
    const branch = medium[i + 2] as Loose;
    expect(span.type).toBe('branch');
    expect(branch['event']).toBe('branch');
    expect(branch['span_id']).toBe(span.id);
    expect(branch['from_anchor']).toBe(anchor['anchor_id']);
  });

  it('runs parallel agents with overlapping time spans', () => {
    const run = generateRun({ seed: 3, events: 3_000, agents: 8, parallelism: 4, depth: 1 });
    const begin = new Map<string, number>();
    const intervals: [number, number][] = [];
    for (const e of run) {
      const x = e as Loose;
      if (e.event === 'span_begin' && x['type'] === 'agent')
        begin.set(x['id'] as string, Date.parse(e.timestamp));
      if (e.event === 'span_end' && begin.has(x['id'] as string)) {
        intervals.push([begin.get(x['id'] as string)!, Date.parse(e.timestamp)]);
      }
    }
    const overlapping = intervals.some(([s1, e1], i) =>
      intervals.some(([s2, e2], j) => i !== j && s1 < s2 && s2 < e1 && e1 < e2),
    );
    expect(overlapping).toBe(true);
  });

  it('has no sub-agents with depth 0', () => {
    const run = generateRun({ seed: 5, events: 1_000, depth: 0 });
    expect(
      run.filter((e) => e.event === 'span_begin' && (e as SpanBeginEvent).type === 'agent'),
    ).toHaveLength(1);
  });
});

describe('pending events', () => {
  it('re-emits every pending event later under the same uuid, final and completed', () => {
    const pending = medium.filter((e) => e.pending === true);
    expect(pending.length).toBeGreaterThan(0);
    expect(pending.some((e) => e.event === 'model')).toBe(true);
    expect(pending.some((e) => e.event === 'tool')).toBe(true);
    for (const p of pending) {
      const i = medium.indexOf(p);
      const final = medium.slice(i + 1).find((e) => e.uuid === p.uuid) as Loose | undefined;
      expect(final?.pending).toBeUndefined();
      expect(typeof final?.['completed']).toBe('string');
    }
  });
  it('collapses to one entry per uuid in EventStream.latest()', () => {
    const stream = EventStream.from(structuredClone(medium));
    const uuids = new Set(medium.map((e) => e.uuid));
    expect(stream.latest()).toHaveLength(uuids.size);
    expect(stream.latest().some((e) => e.pending === true)).toBe(false);
    expect(stream.replay().split('\n')).toHaveLength(uuids.size);
  });
  it('gives a finished-log shape with pendingRate 0', () =>
    expect(
      generateRun({ seed: 7, events: 2_000, pendingRate: 0 }).some((e) => e.pending === true),
    ).toBe(false));
  it('leaves spans open and calls pending when cut mid-run (inProgress)', () => {
    const live = generateRun({ seed: 4, events: 800, inProgress: true, pendingRate: 0.5 });
    expect(live).toHaveLength(800);
    expect(spanProblems(live, true)).toEqual([]);
    expect(spanProblems(live).at(-1)).toMatch(/spans never end/);
  });
});

describe('canonical', () => {
  it('every generated event parses with parseEvent, with no repairs', () => {
    for (const seed of [1, 2]) {
      const events = generateRun({
        seed,
        events: 3_000,
        agents: 6,
        parallelism: 3,
        errorRate: 0.2,
        pendingRate: 0.3,
      });
      for (const event of structuredClone(events)) {
        const { diagnostics } = parseEvent(event);
        expect(diagnostics).toEqual([]);
      }
    }
  });
  it('has unique uuids apart from pending re-emissions, and 22-character ids', () => {
    const finals = medium.filter((e) => e.pending !== true);
    expect(new Set(finals.map((e) => e.uuid)).size).toBe(finals.length);
    for (const e of medium) expect(e.uuid).toMatch(/^[2-9A-HJ-NP-Za-km-z]{22}$/);
  });
  it('appends to an EventStream (which freezes it) without error', () => {
    const stream = EventStream.from(generateRun({ seed: 9, events: 5_000 }));
    expect(stream.length).toBe(5_000);
    expect(Object.isFrozen(stream.at(-1))).toBe(true);
  });
});
