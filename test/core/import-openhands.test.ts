import { openHandsFormat } from '../../src/core/import/openhands/openhands.js';
import { readJsonLines } from '../../src/core/import/lines.js';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  EventStream,
  ImportContext,
  detectFormat,
  importOpenHands,
  isOpenHands,
  type Event,
  type MessageEvent,
  type ModelEvent,
  type ToolEvent,
} from '../../src/index.js';
import { describeFixtures, fixturePath } from '../conformance/fixtures.js';
import { checkImport } from './helpers/import-check.js';

const own = (name: string) =>
  readFileSync(new URL(`../fixtures/openhands/${name}`, import.meta.url), 'utf8');
const v0 = own('trajectory-v0.json');
const v1 = own('events-v1.jsonl');
const wrapped = own('wrapped.jsonl');
const delegateV1 = own('delegate-v1.jsonl');

const of = <E extends Event>(events: readonly Event[], kind: string) =>
  events.filter((e) => e.event === kind) as E[];
const oh = (e: Event) => e.metadata?.['openhands'] as Record<string, unknown> | undefined;
const spans = (events: readonly Event[]) =>
  of<Event & { id: string; name: string; type: string; parent_id?: string | null }>(
    events,
    'span_begin',
  );

describe('OpenHands V0 trajectories', () => {
  it('imports a trajectory: turns, model calls, paired tools, a delegate, the answer', async () => {
    const r = await checkImport(v0, 'openhands', { filename: 'trajectory.json' });
    expect(r.dump).toMatchSnapshot();
    expect(spans(r.events).map((s) => [s.type, s.name])).toEqual([
      ['turn', 'turn 1'],
      ['agent', 'BrowsingAgent'],
      ['turn', 'turn 2'],
    ]);
  });

  it('pairs observations with their actions by cause; tool ids are the tool_call_id', () => {
    const tools = of<ToolEvent>(importOpenHands(v0).events, 'tool');
    const byId = new Map(tools.map((t) => [t.id, t]));
    expect(byId.get('call_run1')).toMatchObject({
      function: 'execute_bash',
      arguments: { command: 'pytest -q' },
      result: 'F.\nFAILED test_utils.py::test_add - assert 3 == 4',
      completed: '2026-03-02T10:00:07.000000Z',
    });
    // The null observation for the read (cause 8) does not complete it; the read observation does.
    expect(byId.get('call_read1')!.result).toBe('def add(a, b):\n    return a - b\n');
    expect(byId.get('call_edit1')).toMatchObject({ failed: true, error: { type: 'unknown' } });
    expect(byId.get('call_lint')!.pending).toBe(true);
    // An action without a tool call id gets an invented, flagged one.
    const browse = tools.find((t) => t.function === 'browse')!;
    expect(browse.id).toBe('openhands-#15');
    expect(browse.metadata?.['skein_invented']).toEqual(['id']);
  });

  it('one model event per response, with usage (cache taken out of input) and cost from llm_metrics', () => {
    const models = of<ModelEvent>(importOpenHands(v0).events, 'model');
    expect(models.map((m) => m.call_id)).toEqual([
      'chatcmpl-1',
      'chatcmpl-2',
      'chatcmpl-3',
      'chatcmpl-4',
      'chatcmpl-5',
    ]);
    const first = models[0]!;
    expect(first.output.choices[0]!.message.tool_calls?.map((c) => c.id)).toEqual([
      'call_run1',
      'call_read1',
    ]);
    expect(first.output.choices[0]!.stop_reason).toBe('tool_calls');
    expect(first.output.usage).toEqual({
      input_tokens: 200,
      output_tokens: 80,
      total_tokens: 1280,
      input_tokens_cache_read: 1000,
      total_cost: 0.012,
    });
    expect(models[1]!.output.usage?.total_cost).toBe(0.008);
  });

  it('a delegate is an agent span under its tool call, closed by the delegate observation', () => {
    const { events } = importOpenHands(v0);
    const agent = spans(events).find((s) => s.type === 'agent')!;
    const tool = of<ToolEvent>(events, 'tool').find((t) => t.id === 'call_deleg')!;
    expect(tool.agent_span_id).toBe(agent.id);
    expect(tool.agent).toBe('BrowsingAgent');
    expect(agent.parent_id).toBe(tool.span_id);
    const inside = events.filter((e) => e.span_id === agent.id).map((e) => e.event);
    expect(inside).toEqual(['span_begin', 'message', 'tool', 'message', 'span_end']);
    expect(tool.result).toContain('add() returns a + b');
  });

  it('finish is the answer: an assistant message; the user stopping the agent marks the turn aborted', () => {
    const { events } = importOpenHands(v0);
    const answers = of<MessageEvent>(events, 'message').filter((m) => m.source === 'finish');
    expect(answers.map((m) => m.content)).toEqual([
      'add() returns a + b',
      'Fixed add() in utils.py; all tests pass.',
    ]);
    expect(oh(answers[1]!)?.['tool_call_id']).toBe('call_fin');
    const turn2 = spans(events).find((s) => s.name === 'turn 2')!;
    const aborted = events.filter((e) => e.metadata?.['aborted'] === true);
    expect(aborted.length).toBeGreaterThan(3);
    expect(aborted.every((e) => e.span_id === turn2.id)).toBe(true);
    expect(aborted[0]).toBe(events.find((e) => e.uuid === turn2.uuid));
  });

  it('keeps recalls, state changes and null observations as info events, and unmapped fields in metadata', () => {
    const r = importOpenHands(v0);
    const infos = of<Event & { data: Record<string, unknown> }>(r.events, 'info');
    expect(infos.map((i) => i.data['action'] ?? i.data['observation'])).toEqual([
      'recall',
      'recall',
      'agent_state_changed',
      'null',
      'agent_state_changed',
      'agent_state_changed',
    ]);
    const run = of<ToolEvent>(r.events, 'tool').find((t) => t.id === 'call_run1')!;
    expect(oh(run)).toMatchObject({
      id: 7,
      timeout: 120,
      message: 'Running command: pytest -q',
      observation: { success: false, extras: { metadata: { exit_code: 1 } } },
    });
    expect(r.diagnostics.map((d) => d.code).sort()).toEqual([
      'openhands_tools_unanswered',
      'timestamp_no_offset',
      'value_invented',
    ]);
  });

  it('reads the same trajectory as JSON Lines and inside { "history": [...] }', () => {
    const records = JSON.parse(v0) as unknown[];
    const whole = importOpenHands(v0).events;
    const lines = importOpenHands(records.map((r) => JSON.stringify(r)).join('\n')).events;
    expect(lines).toEqual(whole);
    const container = importOpenHands({ instance_id: 'demo-1', history: records });
    expect(container.events.filter((e) => e.event !== 'info').length).toBe(
      whole.filter((e) => e.event !== 'info').length,
    );
    expect(detectFormat({ instance_id: 'demo-1', history: records }).format).toBe('openhands');
  });

  it('streams: one line at a time gives, in latest(), the whole-file import', () => {
    const text = (JSON.parse(v0) as unknown[]).map((r) => JSON.stringify(r)).join('\n');
    const imp = openHandsFormat.incremental({});
    const stream = new EventStream();
    for (const { value, path } of readJsonLines(text, new ImportContext())) {
      imp.push(value, path);
      for (const e of imp.drain()) stream.append(e);
    }
    for (const e of imp.end()) stream.append(e);
    expect(stream.length).toBeGreaterThan(stream.latest().length);
    expect(stream.latest()).toEqual(importOpenHands(text).events);
  });
});

describe('OpenHands V1 SDK events', () => {
  it('imports V1 events: actions grouped by response, observations by tool_call_id', async () => {
    const r = await checkImport(v1, 'openhands', { filename: 'events.jsonl' });
    expect(r.dump).toMatchSnapshot();
    const models = of<ModelEvent>(r.events, 'model');
    expect(models[0]!.output.choices[0]!.message.tool_calls?.map((c) => c.id)).toEqual([
      'toolu_ls',
      'toolu_view',
    ]);
    expect(models[0]!.output.choices[0]!.message.content).toEqual([
      { type: 'reasoning', reasoning: 'The user wants two things.' },
      { type: 'text', text: "I'll list the files and read the README." },
    ]);
    const byId = new Map(of<ToolEvent>(r.events, 'tool').map((t) => [t.id, t]));
    expect(byId.get('toolu_ls')).toMatchObject({
      result: 'README.md\nsrc\n',
      arguments: { command: 'ls' },
    });
    expect(byId.get('toolu_rm')).toMatchObject({ failed: true, error: { type: 'approval' } });
    expect(byId.get('toolu_cat')).toMatchObject({
      failed: true,
      error: { message: 'Tool terminal timed out' },
    });
    expect(byId.get('toolu_git')!.pending).toBe(true);
    expect(of(r.events, 'compaction')).toHaveLength(1);
  });

  it('keeps an observation whose action is not in the file, with a diagnostic', () => {
    const r = importOpenHands(v1);
    const tool = of<ToolEvent>(r.events, 'tool').find((t) => t.id === 'toolu_gone')!;
    expect(tool).toMatchObject({ function: 'terminal', result: 'done\n' });
    expect(tool.pending).toBeUndefined();
    expect(r.diagnostics.find((d) => d.code === 'openhands_observation_unpaired')?.path).toBe(
      '$[7]',
    );
  });

  it('keeps unknown kinds and state updates as info events', () => {
    const infos = of<Event & { data: Record<string, unknown> }>(importOpenHands(v1).events, 'info');
    expect(infos.map((i) => i.data['kind'])).toEqual([
      'ConversationStateUpdateEvent',
      'HookExecutionEvent',
      'ObservationEvent',
      'ConversationStateUpdateEvent',
    ]);
  });

  it('streams V1 JSON Lines like the whole file', () => {
    const imp = openHandsFormat.incremental({});
    const stream = new EventStream();
    for (const { value, path } of readJsonLines(v1, new ImportContext())) {
      imp.push(value, path);
      for (const e of imp.drain()) stream.append(e);
    }
    for (const e of imp.end()) stream.append(e);
    expect(stream.latest()).toEqual(importOpenHands(v1).events);
  });
});

describe('OpenHands V1 delegation (task and delegate tools)', () => {
  const meta = (e: Event) => oh(e) ?? {};

  it('puts each sub-agent in an agent span under the call that spawned it', async () => {
    const r = await checkImport(delegateV1, 'openhands', { filename: 'events.jsonl' });
    expect(r.dump).toMatchSnapshot();
    const tools = new Map(of<ToolEvent>(r.events, 'tool').map((t) => [t.id, t]));
    const agents = spans(r.events).filter((s) => s.type === 'agent');
    expect(agents.map((s) => s.name)).toEqual([
      'code-explorer',
      'bash-runner',
      'lodging',
      'activities',
      'general-purpose',
    ]);
    const task = tools.get('toolu_task1')!;
    expect(task).toMatchObject({ agent: 'code-explorer', agent_span_id: agents[0]!.id });
    expect(task.result).toContain('add() returns a - b');
    expect(agents[0]!.parent_id).toBe(task.span_id);
    expect(meta(agents[0]!)).toMatchObject({
      subagent_type: 'code-explorer',
      description: 'Find the failing test',
      task_id: 'task_00000001',
      status: 'completed',
    });
    // The span holds the task the sub-agent was sent; its own events are in another file.
    const inside = r.events.filter((e) => e.span_id === agents[0]!.id);
    expect(inside.map((e) => e.event)).toEqual(['span_begin', 'message', 'span_end']);
    expect(inside[1]).toMatchObject({ role: 'user', content: expect.stringContaining('pytest') });
    // The parent's own events stay in the turn.
    const turn = spans(r.events).find((s) => s.type === 'turn')!;
    expect(of(r.events, 'model').every((m) => m.span_id === turn.id)).toBe(true);
  });

  it('delegate: one span per sub-agent, typed by the earlier spawn; spawn alone opens none', () => {
    const { events } = importOpenHands(delegateV1);
    const tools = new Map(of<ToolEvent>(events, 'tool').map((t) => [t.id, t]));
    expect(tools.get('toolu_spawn')!.agent_span_id).toBeUndefined();
    const deleg = tools.get('toolu_deleg')!;
    const under = spans(events).filter((s) => s.parent_id === deleg.span_id && s.type === 'agent');
    const mine = under.filter((s) => ['lodging', 'activities'].includes(s.name));
    expect(mine.map((s) => [s.name, meta(s)['agent_type']])).toEqual([
      ['lodging', 'researcher'],
      ['activities', 'default'],
    ]);
    expect(deleg).toMatchObject({ agent: 'lodging, activities', agent_span_id: mine[0]!.id });
    // Both end with the delegate observation (parallel sub-agents).
    const ends = of<Event & { id: string }>(events, 'span_end').filter((e) =>
      mine.some((s) => s.id === e.id),
    );
    expect(ends.map((e) => e.timestamp)).toEqual([deleg.completed, deleg.completed]);
  });

  it('a background task runs until task_output reports it finished; an unanswered one until the log ends', () => {
    const r = importOpenHands(delegateV1);
    const agents = spans(r.events).filter((s) => s.type === 'agent');
    const endOf = (id: string) =>
      of<Event & { id: string }>(r.events, 'span_end').find((e) => e.id === id)!;
    const bg = agents.find((s) => s.name === 'bash-runner')!;
    const output = of<ToolEvent>(r.events, 'tool').find((t) => t.id === 'toolu_out')!;
    expect(endOf(bg.id).timestamp).toBe(output.completed);
    expect(meta(bg)).toMatchObject({ task_id: 'task_00000002', status: 'completed' });
    const last = agents.find((s) => s.name === 'general-purpose')!;
    expect(endOf(last.id)).toBeDefined();
    expect(
      r.diagnostics.find((d) => d.code === 'openhands_delegate_unfinished')?.message,
    ).toContain('general-purpose');
  });

  it('streams like the whole file', () => {
    const imp = openHandsFormat.incremental({});
    const stream = new EventStream();
    for (const { value, path } of readJsonLines(delegateV1, new ImportContext())) {
      imp.push(value, path);
      for (const e of imp.drain()) stream.append(e);
    }
    for (const e of imp.end()) stream.append(e);
    expect(stream.latest()).toEqual(importOpenHands(delegateV1).events);
  });
});

describe('OpenHands wrapped events', () => {
  it('unwraps {event_type, event_id, source, timestamp, raw}; raw as JSON text too', async () => {
    const r = await checkImport(wrapped, 'openhands', {
      filename: 'wrapped.jsonl',
      allowDiagnostics: ['openhands_not_an_event'],
    });
    expect(r.dump).toMatchSnapshot();
    const user = of<MessageEvent>(r.events, 'message').find((m) => m.role === 'user')!;
    expect(user.timestamp).toBe('2026-03-03T09:30:01Z');
    expect(oh(user)?.['wrapper']).toMatchObject({ event_type: 'MessageEvent' });
    expect(of<MessageEvent>(r.events, 'message').map((m) => m.content)).toContain(
      'Listed and read.',
    );
    expect(r.diagnostics.map((d) => [d.code, d.path])).toEqual([
      ['openhands_not_an_event', '$[8].raw'],
    ]);
  });
});

describe('OpenHands odd input', () => {
  it('keeps records that are no events, reports duplicate ids, never pollutes prototypes', () => {
    const text = [
      '{"id": 1, "timestamp": "2026-01-01T00:00:00Z", "source": "user", "action": "message", "args": {"content": "hi"}}',
      '{"id": 1, "timestamp": "2026-01-01T00:00:01Z", "source": "agent", "action": "message", "args": {"content": "hello"}, "__proto__": {"polluted": true}}',
      '42',
      '{"id": 5, "source": "agent", "action": "run", "args": "not an object"}',
    ].join('\n');
    const r = importOpenHands(text);
    expect(r.diagnostics.map((d) => d.code).sort()).toEqual([
      'openhands_duplicate_id',
      'openhands_not_an_event',
      'openhands_tools_unanswered',
      'value_invented',
      'value_invented',
      'wrong_type',
    ]);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(new Set(r.events.map((e) => e.uuid)).size).toBe(r.events.length);
    const tool = of<ToolEvent>(r.events, 'tool')[0]!;
    expect(tool.timestamp).toBe('2026-01-01T00:00:01Z');
    expect(tool.metadata?.['skein_invented']).toEqual(['timestamp', 'id']);
  });

  it('does not take other formats for OpenHands', () => {
    expect(isOpenHands('{"event":"info","timestamp":"2026-01-01T00:00:00Z"}\n')).toBe(false);
    expect(isOpenHands('{"type":"user","sessionId":"s","uuid":"u","message":{}}\n')).toBe(false);
    expect(isOpenHands(v0)).toBe(true);
  });
});

describeFixtures('OpenHands: real trajectories (../shared/fixtures/openhands)', () => {
  for (const name of ['openhands-traj-basic.json', 'openhands-traj-basic_interactions.json']) {
    it(`imports ${name}`, async () => {
      const text = readFileSync(fixturePath('openhands', name), 'utf8');
      const r = await checkImport(text, 'openhands', { filename: name });
      expect(r.events.length).toBeGreaterThan(0);
      expect(r.diagnostics.filter((d) => d.severity !== 'info')).toEqual([]);
      expect(r.dump).toMatchSnapshot();
    });
  }
});
