import { claudeCodeFormat } from '../../src/core/import/claude-code/claude-code.js';
import { readJsonLines } from '../../src/core/import/lines.js';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  EventStream,
  ImportContext,
  detectFormat,
  importClaudeCode,
  type Event,
  type ModelEvent,
  type ToolEvent,
} from '../../src/index.js';
import { describeFixtures, fixturePath } from '../conformance/fixtures.js';
import { checkImport } from './helpers/import-check.js';
import { streamedAsWhole } from './helpers/import-fuzz.js';

const own = (name: string) =>
  readFileSync(new URL(`../fixtures/claude-code/${name}`, import.meta.url), 'utf8');
const session = own('session.jsonl');

const of = <E extends Event>(events: readonly Event[], kind: string) =>
  events.filter((e) => e.event === kind) as E[];
const cc = (e: Event) => e.metadata?.['claude_code'] as Record<string, unknown> | undefined;

describe('Claude Code sessions', () => {
  it('imports a session: turns, merged responses, paired tools, a sub-agent, compaction', async () => {
    const r = await checkImport(session, 'claude-code', { filename: 'sess-1.jsonl' });
    expect(r.dump).toMatchSnapshot();
    const spans = of<Event & { name: string; type: string }>(r.events, 'span_begin');
    expect(spans.map((s) => [s.type, s.name])).toEqual([
      ['turn', 'turn 1'],
      ['agent', 'explorer'],
      ['turn', 'turn 2'],
      ['turn', 'turn 3'],
    ]);
    expect(of(r.events, 'compaction')).toHaveLength(1);
  });

  it('merges the records of one API response (same message.id) into one model event', () => {
    const models = of<ModelEvent>(importClaudeCode(session).events, 'model');
    const first = models[0]!;
    expect(first.uuid).toBe('a1');
    const content = first.output.choices[0]!.message.content as { type: string }[];
    expect(content.map((c) => c.type)).toEqual(['reasoning', 'text']);
    expect(first.output.choices[0]!.message.tool_calls?.map((c) => c.id)).toEqual(['toolu_1']);
    expect(first.output.usage).toMatchObject({
      input_tokens: 120,
      output_tokens: 40,
      total_tokens: 1210,
    });
    expect(first.output.choices[0]!.stop_reason).toBe('tool_use');
  });

  it('pairs tool_use with tool_result by id, keeps toolUseResult, marks errors, leaves unanswered calls open', () => {
    const tools = of<ToolEvent>(importClaudeCode(session).events, 'tool');
    const byId = new Map(tools.map((t) => [t.id, t]));
    expect(byId.get('toolu_1')).toMatchObject({
      function: 'Bash',
      result: '1 failing: utils.test.ts',
      failed: true,
      completed: '2026-02-01T09:00:03.000Z',
    });
    expect(byId.get('toolu_1')!.metadata?.['tool_use_result']).toEqual({
      stdout: '1 failing',
      stderr: '',
      interrupted: false,
    });
    expect(byId.get('toolu_3')!.pending).toBe(true);
    expect(byId.get('toolu_2')!.pending).toBeUndefined();
  });

  it('nests the sidechain under the Task call that spawned it', () => {
    const { events } = importClaudeCode(session);
    const agent = events.find(
      (e) => e.event === 'span_begin' && (e as { type?: string }).type === 'agent',
    ) as Event & {
      id: string;
    };
    const task = of<ToolEvent>(events, 'tool').find((t) => t.id === 'toolu_task')!;
    expect(task.agent_span_id).toBe(agent.id);
    expect((agent as { parent_id?: string }).parent_id).toBe(task.span_id);
    const inside = events.filter((e) => e.span_id === agent.id && e.event !== 'span_end');
    expect(inside.map((e) => e.event)).toEqual(['span_begin', 'model', 'model', 'tool']);
  });

  it('keeps a rewound branch and marks it; the branch the session ended on is not marked', () => {
    const { events } = importClaudeCode(session);
    const rewound = events.filter((e) => cc(e)?.['branch'] === 'rewound');
    expect(rewound.map((e) => e.uuid)).toEqual(['a5']);
  });

  it('keeps progress, permission-mode and last-prompt records quietly; a progress record beside the chain is no rewind', () => {
    // Claude Code 2.x: a `progress` record (a hook or a running tool) hangs off
    // the record it reports on, and the conversation goes on from that record:
    // a fork with nobody going back. `permission-mode`/`last-prompt` carry no uuid.
    const lines = session.trimEnd().split('\n');
    const at = lines.findIndex((l) => l.includes('"uuid": "u3"'));
    const progress = {
      type: 'progress',
      uuid: 'p1',
      parentUuid: 'at1',
      sessionId: 'sess-1',
      timestamp: '2026-02-01T09:00:11.900Z',
      isSidechain: false,
      data: { type: 'hook_progress', hookEvent: 'PostToolUse' },
      toolUseID: 'toolu_x',
      parentToolUseID: 'toolu_x',
    };
    lines.splice(at, 0, JSON.stringify(progress));
    lines.push(
      JSON.stringify({
        type: 'permission-mode',
        permissionMode: 'acceptEdits',
        sessionId: 'sess-1',
      }),
      JSON.stringify({ type: 'last-prompt', lastPrompt: 'fix it', sessionId: 'sess-1' }),
    );
    const r = importClaudeCode(lines.join('\n'));
    const infos = of<Event & { data: Record<string, unknown> }>(r.events, 'info');
    expect(infos.map((i) => i.data['type'])).toEqual(
      expect.arrayContaining(['progress', 'permission-mode', 'last-prompt']),
    );
    expect(r.diagnostics.filter((d) => d.severity === 'warning')).toEqual([]);
    const rewound = r.events.filter((e) => cc(e)?.['branch'] === 'rewound');
    expect(rewound.map((e) => e.uuid)).toEqual(['a5']);
  });

  it('keeps record types the docs do not list as info events, quietly', () => {
    const r = importClaudeCode(session);
    const infos = of<Event & { data: Record<string, unknown> }>(r.events, 'info');
    expect(infos.map((i) => i.data['type'])).toEqual([
      'file-history-snapshot',
      'queue-operation',
      'system',
      'attachment',
      'summary',
    ]);
    expect(r.diagnostics.map((d) => d.code).sort()).toEqual([
      'claude_code_tools_unanswered',
      'value_invented',
    ]);
  });

  it('folds sub-agent files in under their Task call (newer versions)', () => {
    const r = importClaudeCode(own('with-subagent.jsonl'), {
      subagents: { f00d: own('agent-f00d.jsonl') },
    });
    const agent = r.events.find(
      (e) => e.event === 'span_begin' && (e as { type?: string }).type === 'agent',
    ) as Event & {
      id: string;
      name: string;
    };
    expect(agent.name).toBe('researcher');
    expect(r.events.filter((e) => e.span_id === agent.id).map((e) => e.event)).toEqual([
      'span_begin',
      'message',
      'model',
      'span_end',
    ]);
  });

  it('reads a sub-agent file opened on its own as a normal run', async () => {
    const r = await checkImport(own('agent-f00d.jsonl'), 'claude-code');
    expect(r.events.map((e) => e.event)).toEqual(['message', 'model']);
  });

  it('streams: one line at a time gives, in latest(), the whole-file import', () => {
    const imp = claudeCodeFormat.incremental({ baseTime: '2026-02-01T08:59:59.936Z' });
    const stream = new EventStream();
    for (const { value, path } of readJsonLines(session, new ImportContext())) {
      imp.push(value, path);
      for (const e of imp.drain()) stream.append(e);
    }
    for (const e of imp.end()) stream.append(e);
    expect(stream.length).toBeGreaterThan(stream.latest().length);
    expect(stream.latest()).toEqual(importClaudeCode(session).events);
  });

  it('streams a response whose records another record interrupts, and a sub-agent after its result', () => {
    // Records of one API response (message.id m1) with a progress record
    // between them, drained after every line: the response was closed and
    // sealed by the drain before its later records arrived.
    const t = (s: number) => `2026-02-01T09:00:${String(s).padStart(2, '0')}.000Z`;
    const assistant = (uuid: string, parent: string, s: number, block: object) => ({
      type: 'assistant',
      uuid,
      parentUuid: parent,
      timestamp: t(s),
      message: { id: 'm1', role: 'assistant', model: 'claude', content: [block] },
    });
    const lines: object[] = [
      {
        type: 'user',
        uuid: 'u1',
        parentUuid: null,
        timestamp: t(0),
        message: { role: 'user', content: 'go' },
      },
      assistant('a1', 'u1', 1, { type: 'text', text: 'one ' }),
      { type: 'progress', uuid: 'p1', parentUuid: 'a1', timestamp: t(2), data: { step: 1 } },
      assistant('a2', 'p1', 3, { type: 'text', text: 'two ' }),
      { type: 'progress', uuid: 'p2', parentUuid: 'a2', timestamp: t(4), data: { step: 2 } },
      assistant('a3', 'p2', 5, {
        type: 'tool_use',
        id: 'call-1',
        name: 'Task',
        input: { description: 'explore' },
      }),
      assistant('a4', 'a3', 6, { type: 'text', text: 'three' }),
      {
        type: 'user',
        uuid: 'u2',
        parentUuid: 'a4',
        timestamp: t(8),
        message: {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'call-1', content: 'done' }],
        },
        toolUseResult: { agentId: 'ag1' },
      },
      // The sub-agent's records, after the call's result (a sidechain written late).
      {
        type: 'user',
        uuid: 's1',
        parentUuid: null,
        isSidechain: true,
        agentId: 'ag1',
        timestamp: t(7),
        message: { role: 'user', content: 'explore' },
      },
    ];
    // The call's result once more (a resumed session repeats it).
    lines.push({ ...lines[7]!, uuid: 'u3', parentUuid: 'u2', timestamp: t(9) });
    const text = lines.map((l) => JSON.stringify(l)).join('\n');
    // Throws where the streamed events differ from the whole-file import's.
    streamedAsWhole(claudeCodeFormat, importClaudeCode)(text);
    const whole = importClaudeCode(text).events;
    const [model] = of<ModelEvent>(whole, 'model');
    expect(model!.output.completion).toBe('one two three');
    expect(of<ToolEvent>(whole, 'tool')[0]!.agent).toBe('explore');
  });
});

describeFixtures('Claude Code: real sessions (../shared/fixtures/claude-code)', () => {
  const files = [
    'claude-code-log-sidechain_integrated.jsonl',
    'claude-code-log-representative_messages.jsonl',
    'claude-code-log-edge_cases.jsonl',
    'claude-code-log-todowrite_examples.jsonl',
  ];
  for (const name of files) {
    it(`imports ${name}`, async () => {
      const text = readFileSync(fixturePath('claude-code', name), 'utf8');
      const r = await checkImport(text, 'claude-code', {
        filename: name,
        allowDiagnostics: ['claude_code_not_a_record', 'claude_code_bad_message'],
      });
      expect(r.events.length).toBeGreaterThan(0);
      expect(r.dump).toMatchSnapshot();
    });
  }

  it('does not take other JSONL for a session', () => {
    expect(detectFormat('{"event":"info","timestamp":"2026-01-01T00:00:00Z"}\n').format).not.toBe(
      'claude-code',
    );
  });
});
