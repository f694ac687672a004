// AG-UI: the mapping (runs, steps, streamed messages and tool calls, state,
// snapshots, outcomes, subagents), recorded runs (JSON Lines and the SSE
// `@ag-ui/encoder` writes) through the front door, and the live adapter's
// growing message. Every input is validated by `@ag-ui/core`'s schemas.
import { agUiFormat } from '../../src/core/import/ag-ui/ag-ui.js';
import type { BaseEvent, Event as AgCoreEvent } from '@ag-ui/core';
import { EventEncoder } from '@ag-ui/encoder';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  EventStream,
  buildEventTree,
  detectFormat,
  eventStatus,
  fromAgUi,
  importAgUi,
  isAbortedEvent,
  isAgUi,
  streamImport,
  type AgUiEvent,
  type Event,
  type MessageEvent,
  type ToolEvent,
} from '../../src/index.js';
import { agUiRun, validAgUi } from './helpers/ag-ui-runs.js';
import { checkImport } from './helpers/import-check.js';

const T0 = 1767225600000;
const jsonl = (events: readonly object[]) => events.map((e) => JSON.stringify(e)).join('\n');
const sse = (events: readonly object[]) => {
  const enc = new EventEncoder();
  return events.map((e) => enc.encode(e as BaseEvent)).join('');
};
const field = (e: Event | undefined, key: string): unknown =>
  e ? (e as unknown as Record<string, unknown>)[key] : undefined;
const ag = (e: Event | undefined): Record<string, unknown> =>
  (e?.metadata?.['ag_ui'] ?? {}) as Record<string, unknown>;
const byKind = (events: readonly Event[], kind: string) => events.filter((e) => e.event === kind);
const spans = (events: readonly Event[], type: string) =>
  byKind(events, 'span_begin').filter((e) => field(e, 'type') === type);
const message = (events: readonly Event[], id: string) =>
  events.find((e) => e.event === 'message' && field(e, 'message_id') === id) as
    MessageEvent | undefined;
const tool = (events: readonly Event[], id: string) =>
  events.find((e) => e.event === 'tool' && field(e, 'id') === id) as ToolEvent | undefined;

async function collect(it: AsyncGenerator<Event[], unknown>): Promise<readonly Event[]> {
  const stream = new EventStream();
  for await (const batch of it) for (const e of batch) stream.append(e);
  return stream.latest();
}

describe('AG-UI types', () => {
  it('every @ag-ui/core event is an AgUiEvent (checked by the compiler), and the run builder validates', () => {
    expectTypeOf<AgCoreEvent>().toExtend<AgUiEvent>();
    expect(() => validAgUi([{ type: 'RUN_STARTED', threadId: 't' }])).toThrow();
  });
});

describe('AG-UI importer', () => {
  const run = agUiRun({ start: T0, tokens: 5, tools: 2 });

  it('a run: span with outcome and usage, input message, step, reasoning, answer, tools, state, activity, chunks, info', async () => {
    const r = await checkImport(jsonl(run), 'ag-ui', { filename: 'run.jsonl' });
    await expect(r.dump).toMatchFileSnapshot('__snapshots__/ag-ui/run.txt');
    const ev = r.events;
    const [turn] = spans(ev, 'turn');
    expect(field(turn, 'id')).toBe('run:run-1');
    expect(ag(turn)).toMatchObject({
      run_id: 'run-1',
      thread_id: 'thread-1',
      outcome: 'success',
      result: { answer: 'sunny' },
      usage: [{ model: 'gpt-5.4', inputTokens: 120 }],
    });
    expect(turn!.timestamp).toBe(new Date(T0 + 7).toISOString());
    // The input's user message, inside the run, dated by RUN_STARTED.
    const user = message(ev, 'run-1-user')!;
    expect([user.role, user.content, user.span_id, user.source]).toEqual([
      'user',
      'How is the weather in Oslo?',
      'run:run-1',
      'input',
    ]);
    const [step] = spans(ev, 'step');
    expect([field(step, 'name'), field(step, 'parent_id')]).toEqual(['plan', 'run:run-1']);
    expect(message(ev, 'run-1-thought')!.content).toEqual([
      { type: 'reasoning', reasoning: 'The user wants weather; call the tool.' },
    ]);
    // One event for the streamed answer, whole, in the step.
    const answers = byKind(ev, 'message').filter((m) => field(m, 'message_id') === 'run-1-answer');
    expect(answers).toHaveLength(1);
    expect(answers[0]!.span_id).toBe(field(step, 'id'));
    expect(field(answers[0], 'content')).toBe('word0 word1 word2 word3 word4 ');
    const call = tool(ev, 'run-1-call-1')!;
    expect([call.function, call.arguments, call.result, call.message_id]).toEqual([
      'weather',
      { city: 'Oslo', day: 1 },
      'Sunny, 21°C',
      'run-1-call-1-result',
    ]);
    expect(call.completed).toBeDefined();
    expect(ag(call)['parent_message_id']).toBe('run-1-answer');
    // State: the snapshot as additions, each patch with what it replaced.
    const states = byKind(ev, 'state').map((s) => field(s, 'changes'));
    expect(states[0]).toEqual([
      { op: 'add', path: '/city', value: 'Oslo' },
      { op: 'add', path: '/calls', value: 0 },
      { op: 'add', path: '/log', value: [] },
    ]);
    expect(states[2]).toEqual([
      { op: 'replace', path: '/calls', value: 2, replaced: 1 },
      { op: 'add', path: '/log/-', value: 'run-1-call-1' },
    ]);
    // The activity, patched in place: one info event.
    const activities = byKind(ev, 'info').filter(
      (i) => (field(i, 'data') as { type?: string }).type === 'ACTIVITY',
    );
    expect(activities).toHaveLength(1);
    expect(field(activities[0], 'data')).toMatchObject({
      activityType: 'PLAN',
      content: { done: 2 },
    });
    // Chunks: the text message and the tool call they build.
    expect(message(ev, 'run-1-summary')!.content).toBe('In short: sunny.');
    expect(tool(ev, 'run-1-notify')!.arguments).toEqual({ to: 'user' });
    // CUSTOM and RAW kept whole.
    const kept = byKind(ev, 'info').map((i) => (field(i, 'data') as { type: string }).type);
    expect(kept).toEqual(expect.arrayContaining(['CUSTOM', 'RAW']));
    // The messages snapshot added nothing already streamed.
    expect(byKind(ev, 'message')).toHaveLength(4);
    expect(byKind(ev, 'tool')).toHaveLength(3);
    expect(ev.every((e) => e.pending !== true)).toBe(true);
  });

  it('the SSE text @ag-ui/encoder writes imports as the JSON Lines do, and is detected', async () => {
    const text = sse(run);
    expect(detectFormat(text).format).toBe('ag-ui');
    expect(isAgUi(text)).toBe(true);
    expect(importAgUi(text).events).toEqual(importAgUi(jsonl(run)).events);
    expect(importAgUi(run).events).toEqual(importAgUi(jsonl(run)).events);
  });

  it('streamImport reads JSON Lines and SSE while they arrive, ending as the whole import', async () => {
    const whole = importAgUi(jsonl(run)).events;
    const pieces = (text: string) =>
      (async function* () {
        for (let i = 0; i < text.length; i += 97)
          yield new TextEncoder().encode(text.slice(i, i + 97));
      })();
    expect(await collect(streamImport(pieces(jsonl(run))))).toEqual(whole);
    expect(await collect(streamImport(pieces(sse(run))))).toEqual(whole);
  });

  it('runs nest by parentRunId; a later input answers a tool call left open', () => {
    const first = validAgUi([
      { type: 'RUN_STARTED', threadId: 't', runId: 'a' },
      { type: 'TOOL_CALL_START', toolCallId: 'ask', toolCallName: 'confirm' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'ask', delta: '{"q":"ok?"}' },
      { type: 'TOOL_CALL_END', toolCallId: 'ask' },
      {
        type: 'RUN_FINISHED',
        threadId: 't',
        runId: 'a',
        outcome: { type: 'success', pendingToolCallIds: ['ask'] },
      },
    ]);
    const second = validAgUi([
      {
        type: 'RUN_STARTED',
        threadId: 't',
        runId: 'b',
        parentRunId: 'a',
        input: {
          threadId: 't',
          runId: 'b',
          messages: [{ id: 'ans', role: 'tool', toolCallId: 'ask', content: 'yes' }],
          tools: [],
          context: [],
        },
      },
      { type: 'RUN_FINISHED', threadId: 't', runId: 'b' },
    ]);
    const { events } = importAgUi(jsonl([...first, ...second]));
    const [child] = spans(events, 'agent');
    expect([field(child, 'id'), field(child, 'parent_id')]).toEqual(['run:b', 'run:a']);
    // The span tree puts run b inside run a.
    const tree = buildEventTree(events);
    const node = tree.events.findIndex(
      (e) => e.event === 'span_begin' && field(e, 'id') === 'run:b',
    );
    expect(field(tree.events[tree.parentIndex[node]!], 'id')).toBe('run:a');
    const call = tool(events, 'ask')!;
    expect([call.arguments, call.result, call.message_id]).toEqual([{ q: 'ok?' }, 'yes', 'ans']);
    expect(ag(spans(events, 'turn')[0])['pending_tool_call_ids']).toEqual(['ask']);
  });

  it('outcomes: an interrupt is no error, cancelled marks the run aborted, RUN_ERROR fails it', () => {
    const interrupted = importAgUi(agUiRun({ outcome: 'interrupt' })).events;
    const [turn] = spans(interrupted, 'turn');
    expect(ag(turn)).toMatchObject({
      outcome: 'interrupt',
      interrupts: [{ id: 'approve-1', toolCallId: 'run-1-notify' }],
    });
    expect(interrupted.filter((e) => eventStatus(e) === 'error')).toEqual([]);
    expect(interrupted.some(isAbortedEvent)).toBe(false);

    const cancelled = importAgUi(agUiRun({ outcome: 'cancelled' })).events;
    expect(cancelled.every(isAbortedEvent)).toBe(true);
    expect(spans(cancelled, 'turn')[0]!.metadata?.['abort_reason']).toBe('cancelled');

    const failed = importAgUi(agUiRun({ outcome: 'error' })).events;
    const errors = byKind(failed, 'error');
    expect(errors.map((e) => [field(e, 'error'), ag(e)['code'], e.span_id])).toEqual([
      [
        { message: 'The model provider failed', traceback: '', traceback_ansi: '' },
        'provider_error',
        'run:run-1',
      ],
    ]);
    expect(ag(spans(failed, 'turn')[0])['outcome']).toBe('error');
  });

  it('a messages snapshot wins over what streamed, and adds what never streamed', () => {
    const { events } = importAgUi(
      validAgUi([
        { type: 'RUN_STARTED', threadId: 't', runId: 'r' },
        { type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'assistant' },
        { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'Partial ans' },
        {
          type: 'MESSAGES_SNAPSHOT',
          messages: [
            { id: 'sys', role: 'system', content: 'Be brief.' },
            { id: 'm', role: 'assistant', content: 'Partial answer, completed.' },
            { id: 'think', role: 'reasoning', content: 'hmm' },
          ],
        },
        { type: 'RUN_FINISHED', threadId: 't', runId: 'r' },
      ]),
    );
    expect(
      byKind(events, 'message').map((m) => [
        field(m, 'message_id'),
        field(m, 'role'),
        field(m, 'content'),
      ]),
    ).toEqual([
      ['m', 'assistant', 'Partial answer, completed.'],
      ['sys', 'system', 'Be brief.'],
      ['think', 'assistant', [{ type: 'reasoning', reasoning: 'hmm' }]],
    ]);
  });

  it('subagents: a span under the tool call that spawned it, holding what they produced', () => {
    const { events } = importAgUi(
      validAgUi([
        { type: 'RUN_STARTED', threadId: 't', runId: 'r' },
        { type: 'TOOL_CALL_START', toolCallId: 'task', toolCallName: 'research' },
        {
          type: 'SUBAGENT_STARTED',
          subagentRunId: 's1',
          name: 'researcher',
          parentToolCallId: 'task',
        },
        { type: 'TEXT_MESSAGE_CHUNK', messageId: 'sm', delta: 'found it', subagentRunId: 's1' },
        { type: 'SUBAGENT_FINISHED', subagentRunId: 's1', outcome: { type: 'success' } },
        { type: 'SUBAGENT_STARTED', subagentRunId: 's2', name: 'checker' },
        { type: 'SUBAGENT_ERROR', subagentRunId: 's2', message: 'no source' },
        { type: 'RUN_FINISHED', threadId: 't', runId: 'r' },
      ]),
    );
    const agents = spans(events, 'agent');
    expect(
      agents.map((a) => [
        field(a, 'id'),
        field(a, 'name'),
        field(a, 'parent_id'),
        ag(a)['outcome'],
      ]),
    ).toEqual([
      ['subagent:s1', 'researcher', 'run:r', 'success'],
      ['subagent:s2', 'checker', 'run:r', 'error'],
    ]);
    expect(message(events, 'sm')!.span_id).toBe('subagent:s1');
    expect([tool(events, 'task')!.agent, tool(events, 'task')!.agent_span_id]).toEqual([
      'researcher',
      'subagent:s1',
    ]);
    expect(byKind(events, 'error').map((e) => e.span_id)).toEqual(['subagent:s2']);
  });

  it('a subagent started after events named it, and a finish naming another run, are reported and kept', () => {
    const r = importAgUi(
      jsonl([
        { type: 'RUN_STARTED', threadId: 't', runId: 'r' },
        { type: 'TEXT_MESSAGE_CHUNK', messageId: 'early', delta: 'hi', subagentRunId: 's1' },
        { type: 'SUBAGENT_STARTED', subagentRunId: 's1', name: 'researcher', description: 'd' },
        { type: 'SUBAGENT_FINISHED', subagentRunId: 's1' },
        { type: 'RUN_FINISHED', threadId: 't', runId: 'elsewhere' },
      ]),
    );
    const codes = r.diagnostics.map((d) => d.code);
    expect(codes).toEqual(expect.arrayContaining(['ag_ui_late_start', 'ag_ui_other_run']));
    // The late start's fields are kept whole, as an info event.
    const infos = byKind(r.events, 'info').map((i) => field(i, 'data'));
    expect(infos).toContainEqual(
      expect.objectContaining({ type: 'SUBAGENT_STARTED', name: 'researcher', description: 'd' }),
    );
    // The run still ends (one at a time in a stream), with its outcome.
    const run = spans(r.events, 'turn')[0];
    expect(ag(run)['outcome']).toBe('success');
    expect(byKind(r.events, 'span_end').map((e) => field(e, 'id'))).toContain('run:r');
    expect(message(r.events, 'early')!.span_id).toBe('subagent:s1');
  });

  it('deprecated THINKING events are reasoning; unknown events and bad records are kept with diagnostics', () => {
    const r = importAgUi(
      jsonl([
        { type: 'RUN_STARTED', threadId: 't', runId: 'r' },
        { type: 'THINKING_START', title: 'plan' },
        { type: 'THINKING_TEXT_MESSAGE_START' },
        { type: 'THINKING_TEXT_MESSAGE_CONTENT', delta: 'first, ' },
        { type: 'THINKING_TEXT_MESSAGE_CONTENT', delta: 'look' },
        { type: 'THINKING_TEXT_MESSAGE_END' },
        { type: 'THINKING_END' },
        { type: 'FUTURE_EVENT', payload: 1 },
        [1, 2],
        { type: 'STATE_DELTA', delta: [{ op: 'remove', path: '/missing' }] },
        { type: 'TOOL_CALL_START', toolCallId: 'c', toolCallName: 'f' },
        { type: 'TOOL_CALL_ARGS', toolCallId: 'c', delta: '{"a":' },
        { type: 'TOOL_CALL_END', toolCallId: 'c' },
        { type: 'RUN_FINISHED', threadId: 't', runId: 'r' },
      ]),
    );
    expect(message(r.events, 'thinking-1')!.content).toEqual([
      { type: 'reasoning', reasoning: 'first, look' },
    ]);
    expect(r.diagnostics.map((d) => d.code)).toEqual(
      expect.arrayContaining([
        'ag_ui_unknown_event',
        'ag_ui_not_an_event',
        'ag_ui_bad_patch',
        'ag_ui_bad_arguments',
      ]),
    );
    const infos = byKind(r.events, 'info').map((i) => field(i, 'data'));
    expect(infos).toEqual(
      expect.arrayContaining([{ type: 'FUTURE_EVENT', payload: 1 }, { value: [1, 2] }]),
    );
    expect(field(byKind(r.events, 'state')[0], 'changes')).toEqual([
      { op: 'remove', path: '/missing' },
    ]);
    expect(ag(tool(r.events, 'c'))['arguments_text']).toBe('{"a":');
  });

  it('patches keep a "__proto__" member as data, added, replaced or removed', () => {
    const { events } = importAgUi(
      [
        '{"type":"ACTIVITY_SNAPSHOT","messageId":"a","activityType":"x","content":{"__proto__":{"p":1},"k":1}}',
        '{"type":"ACTIVITY_DELTA","messageId":"a","activityType":"x","patch":[{"op":"add","path":"/n","value":{"m":1}},{"op":"replace","path":"/__proto__","value":{"p":2}}]}',
        '{"type":"ACTIVITY_DELTA","messageId":"a","activityType":"x","patch":[{"op":"remove","path":"/k"},{"op":"add","path":"/n/__proto__","value":3}]}',
      ].join('\n'),
    );
    const content = (field(byKind(events, 'info')[0], 'data') as Record<string, unknown>)[
      'content'
    ] as Record<string, Record<string, unknown>>;
    expect(Object.keys(content)).toEqual(['__proto__', 'n']);
    expect(Object.getOwnPropertyDescriptor(content, '__proto__')!.value).toEqual({ p: 2 });
    expect(Object.getPrototypeOf(content)).toBe(Object.prototype);
    expect(Object.keys(content['n']!)).toEqual(['m', '__proto__']);
    expect(Object.getPrototypeOf(content['n'])).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)['p']).toBeUndefined();
  });

  it('undated events get an invented time after the last real one, flagged', () => {
    const { events } = importAgUi(
      validAgUi([
        { type: 'RUN_STARTED', threadId: 't', runId: 'r', timestamp: T0 },
        { type: 'TEXT_MESSAGE_START', messageId: 'm' },
        { type: 'RUN_FINISHED', threadId: 't', runId: 'r', timestamp: T0 + 50 },
      ]),
    );
    const m = message(events, 'm')!;
    expect(m.timestamp).toBe(new Date(T0 + 1).toISOString());
    expect(m.metadata?.['skein_invented']).toEqual(['timestamp']);
    expect(spans(events, 'turn')[0]!.metadata?.['skein_invented']).toBeUndefined();
  });
});

describe('fromAgUi (live)', () => {
  it('re-emits one message as it grows, pending until its end, one version per flush', () => {
    const flushes: (() => void)[] = [];
    const adapter = fromAgUi({ schedule: (f) => flushes.push(f), now: () => T0 });
    const events = validAgUi([
      { type: 'RUN_STARTED', threadId: 't', runId: 'r' },
      { type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'assistant' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'Hel' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'lo' },
    ]);
    for (const e of events) adapter.push(e as AgUiEvent);
    expect(flushes).toHaveLength(1); // one flush scheduled for the burst
    flushes.shift()!();
    const first = adapter.stream.toArray();
    expect(first.map((e) => [e.event, e.pending === true])).toEqual([
      ['span_begin', true],
      ['message', true],
    ]);
    expect(field(first[1], 'content')).toBe('Hello');
    // Arrival times, kept strictly increasing: the run at `now`, the message 1 ms on.
    expect(first.map((e) => e.timestamp)).toEqual([
      new Date(T0).toISOString(),
      new Date(T0 + 1).toISOString(),
    ]);
    for (let k = 0; k < 50; k++)
      adapter.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: '!' });
    flushes.shift()!();
    const grown = adapter.stream.toArray().slice(first.length);
    expect(grown).toHaveLength(1); // 50 tokens, one version
    expect([grown[0]!.uuid, grown[0]!.pending]).toEqual([first[1]!.uuid, true]);
    adapter.push({ type: 'TEXT_MESSAGE_END', messageId: 'm' });
    adapter.end();
    const latest = adapter.stream.latest();
    expect(latest.find((e) => e.uuid === first[1]!.uuid)!.pending).toBeUndefined();
    expect(adapter.stream.complete).toBe(true);
    expect(() => adapter.push({ type: 'RAW', event: 1 })).toThrow(/push after end/);
  });

  it('never freezes the caller’s objects, and consumes an async source to its end', async () => {
    const snapshot = { type: 'STATE_SNAPSHOT', snapshot: { nested: { a: 1 } } } as const;
    const adapter = fromAgUi();
    await adapter.consume(
      (async function* () {
        yield* agUiRun();
        yield snapshot;
      })(),
    );
    expect(Object.isFrozen(snapshot.snapshot.nested)).toBe(false);
    // The same events as the recording's import (live times aside: arrival).
    const strip = (events: readonly Event[]) => events.map((e) => [e.uuid, e.event, e.span_id]);
    expect(strip(adapter.stream.latest())).toEqual(
      strip(importAgUi([...agUiRun(), snapshot]).events),
    );
  });

  it('agUiFormat.incremental is the importer fromAgUi and importAgUi share', () => {
    const imp = agUiFormat.incremental({});
    agUiRun().forEach((e, i) => imp.push(e, `$[${i}]`));
    expect(imp.end()).toEqual(importAgUi(agUiRun()).events);
  });
});
