// One meaning of "aborted" across importers (issue 19; the rule is written in
// src/core/events/outcome.ts, "Aborted"): a turn or task stopped before it
// finished — rolled back by the agent, or stopped by the user or client —
// keeps every event, and each of them (its span_begin and span_end too, and
// what is nested inside) carries `metadata.aborted: true`; nothing outside it
// does. Totals skip them.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  EventStream,
  eventCountedTokens,
  eventOutcome,
  importAcp,
  importAgex,
  importAny,
  importClaudeCode,
  importDefect,
  importOpenHands,
  streamImport,
  type Event,
  type FormatId,
  type SpanBeginEvent,
} from '../../src/index.js';
import { describeFixtures, fixturePath } from '../conformance/fixtures.js';

const fixture = (path: string) =>
  readFileSync(new URL(`../fixtures/${path}`, import.meta.url), 'utf8');
const lines = (...records: unknown[]) => records.map((r) => JSON.stringify(r)).join('\n');
const isAborted = (e: Event) => e.metadata?.['aborted'] === true;

/** The events of span `id`: its begin and end, and everything inside it or nested in it. */
function spanEvents(events: readonly Event[], id: string): Set<Event> {
  const inside = new Set([id]);
  const out = new Set<Event>();
  for (const e of events) {
    if (e.event === 'span_begin') {
      const b = e as SpanBeginEvent;
      if (b.id === id || (b.parent_id != null && inside.has(b.parent_id))) {
        inside.add(b.id);
        out.add(e);
      }
    } else if (
      e.event === 'span_end' ? inside.has((e as { id: string }).id) : inside.has(e.span_id ?? '')
    ) {
      out.add(e);
    }
  }
  return out;
}

/** The rule: exactly the events of the spans named `ids` are aborted, and each shows it. */
function expectAbortedExactly(events: readonly Event[], ids: readonly string[]): void {
  const expected = new Set<Event>();
  for (const id of ids) for (const e of spanEvents(events, id)) expected.add(e);
  for (const id of ids) {
    const kinds = [...spanEvents(events, id)].map((e) => e.event);
    expect(kinds[0], `span ${id} begins`).toBe('span_begin');
    expect(kinds.at(-1), `span ${id} ends`).toBe('span_end');
    expect(kinds.length, `span ${id} holds events`).toBeGreaterThan(2);
  }
  for (const e of events) {
    expect(isAborted(e), `${e.event} ${e.uuid}`).toBe(expected.has(e));
    if (expected.has(e)) {
      expect(eventOutcome(e).aborted).toBe(true);
      expect(eventCountedTokens(e)).toBe(0);
    }
  }
}

const turnId = (events: readonly Event[], name: string) =>
  (
    events.find(
      (e) => e.event === 'span_begin' && (e as SpanBeginEvent).name === name,
    ) as SpanBeginEvent
  ).id;

describe('ACP: a cancelled turn is aborted', () => {
  const prompt = (id: number, text: string) => ({
    jsonrpc: '2.0',
    id,
    method: 'session/prompt',
    params: { sessionId: 's', prompt: [{ type: 'text', text }] },
  });
  const chunk = (text: string) => ({
    jsonrpc: '2.0',
    method: 'session/update',
    params: {
      sessionId: 's',
      update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } },
    },
  });
  const tool = (status: string) => ({
    jsonrpc: '2.0',
    method: 'session/update',
    params: {
      sessionId: 's',
      update: { sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'ls', status },
    },
  });
  const cancel = { jsonrpc: '2.0', method: 'session/cancel', params: { sessionId: 's' } };
  const done = (id: number, stopReason: string) => ({ jsonrpc: '2.0', id, result: { stopReason } });

  it('the fixture: the turn answered `cancelled` (after session/cancel) and nothing else', () => {
    const { events } = importAcp(fixture('acp/session.jsonl'));
    const cancelled = events.filter(
      (e) => e.event === 'span_begin' && e.metadata?.['stop_reason'] === 'cancelled',
    );
    expect(cancelled).toHaveLength(1);
    expectAbortedExactly(events, [(cancelled[0] as SpanBeginEvent).id]);
    // The interrupt that stopped it is inside the turn, so marked with it.
    expect(events.filter((e) => e.event === 'interrupt').every(isAborted)).toBe(true);
  });

  it('stopReason "cancelled" marks the turn; a later turn is untouched', () => {
    const { events } = importAcp(
      lines(
        prompt(1, 'a'),
        chunk('x'),
        tool('in_progress'),
        done(1, 'cancelled'),
        prompt(2, 'b'),
        chunk('y'),
        done(2, 'end_turn'),
      ),
    );
    expectAbortedExactly(events, [turnId(events, 'turn 1')]);
  });

  it('a session/cancel in a turn that never got its response (client-side capture) marks it', () => {
    const { events } = importAcp(lines(prompt(1, 'a'), chunk('x'), cancel));
    expectAbortedExactly(events, [turnId(events, 'turn 1')]);
  });

  it('a cancel the agent finished before (it answered end_turn) is not an abort', () => {
    const { events } = importAcp(lines(prompt(1, 'a'), chunk('x'), cancel, done(1, 'end_turn')));
    expect(events.some(isAborted)).toBe(false);
    expect(events.filter((e) => e.event === 'interrupt')).toHaveLength(1);
  });
});

describeFixtures('ACP: the spec examples (shared fixtures)', () => {
  it('a cancel sent after the turn ended aborts nothing', () => {
    const text = readFileSync(fixturePath('acp/spec-v1-doc-examples/prompt-turn.jsonl'), 'utf8');
    const { events } = importAcp(text);
    expect(events.some(isAborted)).toBe(false);
    expect(events.find((e) => e.event === 'interrupt')).toMatchObject({
      interrupted: 'between_turns',
    });
  });
});

describe('defect: turn_aborted and a turn ended `cancelled` are aborted', () => {
  const turn = (end: Record<string, unknown>) => [
    { type: 'turn_started' },
    { type: 'assistant_text', content: { type: 'text', text: 'working' } },
    end,
  ];

  it('the fixture: the aborted turn only', () => {
    const { events } = importDefect(fixture('defect/events.jsonl'));
    const aborted = (
      events.filter((e) => e.event === 'span_begin' && isAborted(e)) as SpanBeginEvent[]
    ).map((b) => b.id);
    expect(aborted).toEqual(['turn-2']);
    expectAbortedExactly(events, aborted);
  });

  it('turn_ended with reason cancelled marks that turn, with the reason', () => {
    const { events } = importDefect(
      lines(
        ...turn({ type: 'turn_ended', reason: 'end_turn' }),
        ...turn({ type: 'turn_ended', reason: 'cancelled' }),
      ),
    );
    expectAbortedExactly(events, [turnId(events, 'turn 2')]);
    const begin = events.find((e) => e.event === 'span_begin' && isAborted(e))!;
    expect(begin.metadata).toMatchObject({ stop_reason: 'cancelled', abort_reason: 'cancelled' });
  });

  it('a turn_aborted after a turn ended cancelled applies to that turn, quietly', () => {
    const r = importDefect(
      lines(...turn({ type: 'turn_ended', reason: 'cancelled' }), { type: 'turn_aborted' }),
    );
    expectAbortedExactly(r.events, [turnId(r.events, 'turn 1')]);
    expect(r.diagnostics.map((d) => d.code)).not.toContain('defect_no_turn');
  });

  it('turn_aborted (rolled back) marks the whole turn, its end included', () => {
    const { events } = importDefect(
      lines(...turn({ type: 'turn_aborted', reason: 'rolled back' })),
    );
    expectAbortedExactly(events, [turnId(events, 'turn 1')]);
  });
});

describe('OpenHands: the turn the user stopped is aborted', () => {
  it('the fixture: every event of that turn, including those after the stop and its end', () => {
    const { events } = importOpenHands(fixture('openhands/trajectory-v0.json'));
    expectAbortedExactly(events, [turnId(events, 'turn 2')]);
  });
});

describe('agex: a cancelled task is aborted', () => {
  it('the fixture: the cancelled task (its model call, its unknown event, the interrupt) and nothing else', () => {
    const { events } = importAgex(fixture('agex/agex-ts.jsonl'));
    const forecast = turnId(events, 'forecast');
    expectAbortedExactly(events, [forecast]);
    const kinds = [...spanEvents(events, forecast)].map((e) => e.event);
    expect(kinds).toContain('model');
    expect(kinds).toContain('interrupt');
  });

  it('a sub-agent called from the cancelled task is aborted with it', () => {
    const t = (s: number) => `2026-03-02T10:00:0${s}.000Z`;
    const { events } = importAgex(
      lines(
        {
          event_type: 'TaskStartEvent',
          timestamp: t(0),
          full_namespace: 'main',
          task_name: 'outer',
          inputs: {},
        },
        {
          event_type: 'TaskStartEvent',
          timestamp: t(1),
          full_namespace: 'main/helper',
          task_name: 'inner',
          inputs: {},
        },
        { event_type: 'SuccessEvent', timestamp: t(2), full_namespace: 'main/helper', result: 1 },
        {
          event_type: 'CancelledEvent',
          timestamp: t(3),
          full_namespace: 'main',
          task_name: 'outer',
        },
        {
          event_type: 'TaskStartEvent',
          timestamp: t(4),
          full_namespace: 'main',
          task_name: 'next',
          inputs: {},
        },
        { event_type: 'SuccessEvent', timestamp: t(5), full_namespace: 'main', result: 2 },
      ),
    );
    const outer = turnId(events, 'outer');
    expectAbortedExactly(events, [outer]);
    const nested = [...spanEvents(events, outer)].filter((e) => e.event === 'span_begin');
    expect(nested.map((b) => (b as SpanBeginEvent).name)).toEqual(['outer', 'helper', 'inner']);
  });
});

describe('Claude Code: a turn the user interrupted is aborted', () => {
  let n = 0;
  const rec = (type: 'user' | 'assistant', message: Record<string, unknown>) => {
    n++;
    return {
      type,
      uuid: `u${n}`,
      parentUuid: n === 1 ? null : `u${n - 1}`,
      sessionId: 's',
      timestamp: `2026-02-01T09:00:${String(n).padStart(2, '0')}.000Z`,
      isSidechain: false,
      message,
    };
  };
  const user = (content: unknown) => rec('user', { role: 'user', content });
  const said = (id: string, text: string) =>
    rec('assistant', {
      id,
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [{ type: 'text', text }],
      usage: { input_tokens: 100, output_tokens: 10 },
    });

  it('the interrupt stays in the turn it stopped; that turn, and only it, is aborted', () => {
    n = 0;
    const { events } = importClaudeCode(
      lines(
        user('Refactor the parser'),
        said('m1', 'Starting…'),
        user([{ type: 'text', text: '[Request interrupted by user]' }]),
        user('Just fix the typo instead'),
        said('m2', 'Done.'),
        user('[Request interrupted by user for tool use]'),
        user('Thanks'),
        said('m3', 'You are welcome.'),
      ),
    );
    const turns = events.filter((e) => e.event === 'span_begin') as SpanBeginEvent[];
    expect(turns.map((t) => t.name)).toEqual(['turn 1', 'turn 2', 'turn 3']);
    expectAbortedExactly(events, [turnId(events, 'turn 1'), turnId(events, 'turn 2')]);
    const marker = events.find(
      (e) => e.event === 'message' && JSON.stringify(e).includes('for tool use'),
    )!;
    expect(marker.span_id).toBe(turnId(events, 'turn 2'));
    // Totals count the finished turn only.
    const total = events.reduce((sum, e) => sum + eventCountedTokens(e), 0);
    expect(total).toBe(110);
  });

  it('an interrupt text inside a longer prompt is a prompt', () => {
    n = 0;
    const { events } = importClaudeCode(
      lines(user('a'), said('m1', 'x'), user('Why did you write [Request interrupted by user]?')),
    );
    expect(events.some(isAborted)).toBe(false);
    expect(events.filter((e) => e.event === 'span_begin')).toHaveLength(2);
  });
});

describe('the marks stream: fed one line at a time, the latest events equal the whole file', () => {
  const cases: [string, string][] = [
    ['acp', fixture('acp/session.jsonl')],
    [
      'defect',
      lines(
        { type: 'turn_started' },
        { type: 'assistant_text', content: { type: 'text', text: 'a' } },
        { type: 'turn_ended', reason: 'cancelled' },
        { type: 'turn_started' },
        { type: 'assistant_text', content: { type: 'text', text: 'b' } },
        { type: 'turn_aborted' },
      ),
    ],
    ['agex', fixture('agex/agex-ts.jsonl')],
    [
      'claude-code',
      lines(
        ...[
          ['user', 'go'],
          ['assistant', 'working'],
          ['user', '[Request interrupted by user]'],
          ['user', 'again'],
        ].map(([type, text], i) => ({
          type,
          uuid: `c${i}`,
          parentUuid: i === 0 ? null : `c${i - 1}`,
          sessionId: 's',
          timestamp: `2026-02-01T09:00:0${i}.000Z`,
          message:
            type === 'user'
              ? { role: 'user', content: text }
              : { id: 'm', role: 'assistant', content: [{ type: 'text', text }] },
        })),
      ),
    ],
  ];
  for (const [format, text] of cases) {
    it(format, async () => {
      const whole = importAny(text).then((r) => r.events);
      const stream = new EventStream();
      const it = streamImport(
        (async function* () {
          for (const line of text.split('\n')) yield `${line}\n`;
        })(),
        { format: format as FormatId },
      );
      for await (const batch of it) for (const e of batch) stream.append(e);
      const events = await whole;
      expect(events.some(isAborted)).toBe(true);
      expect(stream.latest()).toEqual(events);
    });
  }
});
