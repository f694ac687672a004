// Event describers (issue 5, "Core"): one per canonical kind, the generic one
// for unknown kinds, and the registry that replaces and extends them.
import { KNOWN_EVENT_FIELDS } from '../../src/core/events/parse.js';
import { describe, expect, it } from 'vitest';
import {
  KNOWN_EVENT_KINDS,
  createDescriberRegistry,
  describeEvent,
  generateRun,
  parseEvent,
} from '../../src/index.js';
import { wireSamples } from './event-samples.js';
import type {
  DisplayMetadata,
  Event,
  EventDisplay,
  KnownEvent,
  MimeBundle,
  ModelEvent,
  ToolEvent,
} from '../../src/index.js';

const T0 = '2026-06-10T18:24:10Z';
const T0_MS = Date.parse(T0);
const env = { uuid: 'u1', timestamp: T0, span_id: 's1' };

/** `label: mime+mime` per body: a compact, readable view of the bodies. */
const bodies = (d: EventDisplay) =>
  d.bodies.map(
    (b) =>
      `${(b.metadata?.skein as DisplayMetadata | undefined)?.label ?? ''}: ${Object.keys(b.data).join('+')}`,
  );
const bodyByLabel = (d: EventDisplay, label: string): MimeBundle | undefined =>
  d.bodies.find((b) => (b.metadata?.skein as DisplayMetadata | undefined)?.label === label);
const row = (d: EventDisplay) => [d.title, d.subtitle, d.status];

const ANSI_TRACE =
  '\u001b[31mTraceback (most recent call last)\u001b[0m\n  File "x.py", line 1\nValueError: bad';

const model = (over: Partial<ModelEvent> = {}): ModelEvent => ({
  ...env,
  event: 'model',
  model: 'openai/gpt-5.4',
  input: [
    { role: 'system', content: 'You are a coding agent.' },
    { role: 'user', content: 'List files.' },
    {
      role: 'assistant',
      content: 'Running ls.',
      tool_calls: [{ id: 'c0', function: 'bash', arguments: { cmd: 'ls' } }],
    },
    { role: 'tool', content: 'a.txt\nb.txt', tool_call_id: 'c0', function: 'bash' },
    { role: 'user', content: 'Now count them.' },
  ],
  tools: [],
  tool_choice: 'auto',
  config: {},
  output: {
    model: 'gpt-5.4',
    completion: 'There are two files.',
    choices: [
      {
        message: {
          role: 'assistant',
          content: [
            { type: 'reasoning', reasoning: 'Count the lines.' },
            { type: 'text', text: 'There are two files.' },
          ],
          tool_calls: [{ id: 'c1', function: 'python', arguments: { code: 'print(2)' } }],
        },
        stop_reason: 'tool_calls',
      },
    ],
    usage: {
      input_tokens: 97,
      output_tokens: 263,
      total_tokens: 16488,
      input_tokens_cache_read: 16128,
    },
  },
  completed: '2026-06-10T18:24:12Z',
  ...over,
});

const tool = (over: Partial<ToolEvent> = {}): ToolEvent => ({
  ...env,
  event: 'tool',
  type: 'function',
  id: 'c1',
  function: 'bash',
  arguments: { cmd: 'ls -la' },
  result: 'a.txt',
  events: [],
  completed: '2026-06-10T18:24:11.500Z',
  ...over,
});

describe('describeEvent: model', () => {
  const d = describeEvent(model());

  it('title, subtitle, status', () =>
    expect(row(d)).toEqual(['openai/gpt-5.4', 'There are two files.', 'ok']));

  it('shows only the input messages after the last assistant message', () =>
    expect(bodies(d).slice(0, 2)).toEqual(['tool: bash: text/plain', 'user: text/markdown']));

  it('then output reasoning, text, tool calls and usage', () =>
    expect(bodies(d).slice(2)).toEqual([
      'Reasoning: text/markdown',
      'assistant: text/markdown',
      'Tool call: python: text/markdown+text/plain',
      'Usage: text/plain',
    ]));

  it('reasoning starts collapsed', () =>
    expect((bodyByLabel(d, 'Reasoning')?.metadata?.skein as DisplayMetadata).collapsed).toBe(true));

  it('a code argument is fenced in its language', () =>
    expect(bodyByLabel(d, 'Tool call: python')?.data['text/markdown']).toBe(
      '```python\nprint(2)\n```',
    ));

  it('usage', () => {
    expect(d.tokens).toEqual({ input: 97, output: 263, total: 16488, cacheRead: 16128 });
    expect(bodyByLabel(d, 'Usage')?.data['text/plain']).toBe(
      'input 97 · cache read 16,128 · output 263 · total 16,488',
    );
  });

  it('times from timestamp and completed', () => {
    expect(d.startTime).toBe(T0_MS);
    expect(d.endTime).toBe(T0_MS + 2000);
  });

  it('search text covers the model, new input, output, reasoning and tool calls', () => {
    for (const s of [
      'openai/gpt-5.4',
      'Now count them.',
      'a.txt',
      'There are two files.',
      'Count the lines.',
      'python',
      'print(2)',
    ]) {
      expect(d.searchText).toContain(s);
    }
    expect(d.searchText).not.toContain('You are a coding agent.');
  });

  it('the first call shows every input message', () => {
    const first = describeEvent(
      model({
        input: [
          { role: 'system', content: 'sys' },
          { role: 'user', content: 'hi' },
        ],
      }),
    );
    expect(bodies(first).slice(0, 2)).toEqual(['system: text/markdown', 'user: text/markdown']);
  });

  it('a pending call is running', () =>
    expect(describeEvent(model({ pending: true })).status).toBe('running'));

  it('an error is an error with its ANSI traceback', () => {
    const e = describeEvent(
      model({ error: 'RateLimitError: 429', traceback: 'plain', traceback_ansi: ANSI_TRACE }),
    );
    expect(row(e)).toEqual(['openai/gpt-5.4', 'RateLimitError: 429', 'error']);
    expect(bodyByLabel(e, 'Error')?.data['text/plain']).toBe(ANSI_TRACE);
  });

  it.each(['Cancelled by operator', 'Cancelled by limit', 'Cancelled by system'])(
    '"%s" is a cancellation, not an error',
    (error) => {
      const e = describeEvent(model({ error }));
      expect(e.status).toBe('cancelled');
      expect(bodyByLabel(e, 'Error')).toBeUndefined();
    },
  );

  it('a role is part of the title', () =>
    expect(describeEvent(model({ role: 'grader' })).title).toBe('openai/gpt-5.4 (grader)'));

  it('without output text the subtitle lists the tool calls', () => {
    const m = model();
    const out = {
      ...m.output,
      choices: [
        {
          message: {
            role: 'assistant' as const,
            content: '',
            tool_calls: [{ id: 'c', function: 'bash', arguments: { cmd: 'ls' } }],
          },
        },
      ],
    };
    expect(describeEvent(model({ output: out })).subtitle).toBe('bash(ls)');
  });

  it('images in content: data URIs as image bundles, URLs as markdown', () => {
    const e = describeEvent(
      model({
        input: [
          {
            role: 'user',
            content: [
              { type: 'image', image: 'data:image/png;base64,iVBORw0KGgo=' },
              { type: 'image', image: 'https://example.com/a.png' },
            ],
          },
        ],
      }),
    );
    expect(e.bodies[0]?.data['image/png']).toBe('iVBORw0KGgo=');
    expect(e.bodies[1]?.data['text/markdown']).toBe('![image](<https://example.com/a.png>)');
  });

  it('redacted reasoning shows its summary, never the blob', () => {
    const m = model();
    const out = {
      ...m.output,
      choices: [
        {
          message: {
            role: 'assistant' as const,
            content: [
              {
                type: 'reasoning' as const,
                reasoning: 'ENCRYPTED',
                redacted: true,
                summary: 'thought',
              },
            ],
          },
        },
      ],
    };
    const e = describeEvent(model({ output: out }));
    expect(bodyByLabel(e, 'Reasoning')?.data).toEqual({ 'text/plain': 'thought' });
    expect(e.searchText).not.toContain('ENCRYPTED');
  });
});

describe('describeEvent: tool', () => {
  it('pairs the call with its result', () => {
    const d = describeEvent(tool());
    expect(row(d)).toEqual(['bash', 'ls -la', 'ok']);
    expect(bodies(d)).toEqual(['Call: text/markdown+text/plain', 'Result: text/plain']);
    expect(bodyByLabel(d, 'Result')?.data['text/plain']).toBe('a.txt');
    expect(d.endTime).toBe(T0_MS + 1500);
  });

  it('and with its error', () => {
    const d = describeEvent(
      tool({ result: '', error: { type: 'timeout', message: 'Command timed out after 180s' } }),
    );
    expect(row(d)).toEqual(['bash', 'Command timed out after 180s', 'error']);
    expect(bodyByLabel(d, 'Error')?.data['text/plain']).toBe(
      'timeout: Command timed out after 180s',
    );
    expect(d.searchText).toContain('Command timed out');
  });

  it('a cancelled call is cancelled', () =>
    expect(
      describeEvent(tool({ error: { type: 'cancelled', message: 'x' }, failed: true })).status,
    ).toBe('cancelled'));

  it('failed without an error is an error', () =>
    expect(describeEvent(tool({ failed: true })).status).toBe('error'));

  it('a pending call is running', () =>
    expect(describeEvent(tool({ pending: true })).status).toBe('running'));

  it('a view keeps a multi-line argument verbatim', () => {
    const d = describeEvent(
      tool({
        arguments: { cmd: 'cd /x\nls' },
        view: { format: 'markdown', content: '```bash\n{{cmd}}\n```' },
      }),
    );
    expect(d.bodies[0]?.data['text/markdown']).toBe('```bash\ncd /x\nls\n```');
  });

  it('a tool view fills its placeholders', () => {
    const d = describeEvent(
      tool({ view: { format: 'markdown', content: '```bash\n{{cmd}}\n```', title: 'shell' } }),
    );
    expect(bodyByLabel(d, 'Call: shell')?.data['text/markdown']).toBe('```bash\nls -la\n```');
  });

  it('structured arguments as JSON', () => {
    const d = describeEvent(tool({ function: 'edit', arguments: { path: 'a.py', line: 3 } }));
    expect(d.subtitle).toBe('path=a.py, line=3');
    expect(d.bodies[0]?.data['application/json']).toEqual({ path: 'a.py', line: 3 });
  });

  it('content results become content bodies', () => {
    const d = describeEvent(
      tool({
        result: [
          { type: 'text', text: '# Title' },
          { type: 'image', image: 'data:image/jpeg;base64,/9j/' },
        ],
      }),
    );
    expect(bodies(d).slice(1)).toEqual(['Result: text/markdown', 'Image: image/jpeg+text/plain']);
  });

  it('truncated output says so', () => {
    const d = describeEvent(tool({ truncated: [500000, 16384] }));
    expect((bodyByLabel(d, 'Result')?.metadata?.skein as DisplayMetadata).note).toBe(
      'output truncated from 500000 to 16384 bytes',
    );
  });

  it('an agent handoff is titled by the agent', () =>
    expect(describeEvent(tool({ agent: 'researcher' })).title).toBe('researcher (agent)'));
});

describe('describeEvent: every other kind', () => {
  const cases: [string, KnownEvent, [string, string, string], string[]][] = [
    [
      'sample_init',
      {
        ...env,
        event: 'sample_init',
        sample: { input: 'Decode AIS.\nMore.', target: 'ok', id: 7 },
        state: { messages: [] },
      },
      ['sample 7', 'Decode AIS.', 'ok'],
      ['Input: text/markdown', 'Target: text/plain', 'State: application/json+text/plain'],
    ],
    [
      'sample_limit',
      {
        ...env,
        event: 'sample_limit',
        type: 'token',
        message: 'Token limit exceeded',
        limit: 100000,
      },
      ['token limit', 'Token limit exceeded (limit 100,000)', 'cancelled'],
      ['Limit: text/plain'],
    ],
    [
      'sandbox exec',
      {
        ...env,
        event: 'sandbox',
        action: 'exec',
        cmd: 'ls',
        result: 2,
        output: 'ls: no such file',
      },
      // A non-zero exit is information, not a failed step (events/outcome.ts).
      ['sandbox exec', 'ls · exit 2', 'ok'],
      ['Command: text/markdown+text/plain', 'Output (exit 2): text/plain'],
    ],
    [
      'sandbox read_file',
      { ...env, event: 'sandbox', action: 'read_file', file: '/a.txt', output: 'hello' },
      ['sandbox read_file', '/a.txt', 'ok'],
      ['Output: text/plain'],
    ],
    [
      'state',
      {
        ...env,
        event: 'state',
        changes: [{ op: 'replace', path: '/output/model', value: 'b', replaced: 'a' }],
      },
      ['state', '1 change: /output/model', 'ok'],
      ['Changes: text/plain', 'Patch: application/json+text/plain'],
    ],
    [
      'store',
      {
        ...env,
        event: 'store',
        changes: [
          { op: 'add', path: '/port', value: 3001 },
          { op: 'remove', path: '/x' },
        ],
      },
      ['store', '2 changes: /port, /x', 'ok'],
      ['Changes: text/plain', 'Patch: application/json+text/plain'],
    ],
    [
      'anchor',
      { ...env, event: 'anchor', anchor_id: 'a1', source: 'react' },
      ['anchor', 'a1 · react', 'ok'],
      [],
    ],
    [
      'approval',
      {
        ...env,
        event: 'approval',
        message: 'Run it?',
        call: { id: 'c', function: 'bash', arguments: { cmd: 'rm -rf /' } },
        approver: 'human',
        decision: 'reject',
        explanation: 'Too risky',
      },
      ['approval: reject', 'human · bash(rm -rf /)', 'cancelled'],
      ['Message: text/markdown', 'Call: text/markdown+text/plain', 'Explanation: text/markdown'],
    ],
    [
      'branch',
      { ...env, event: 'branch', from_anchor: 'a1' },
      ['branch', 'from anchor a1', 'ok'],
      [],
    ],
    [
      'checkpoint',
      {
        ...env,
        event: 'checkpoint',
        checkpoint_id: 3,
        trigger: 'token',
        turn: 2,
        created_at: T0,
        duration_ms: 3598,
        size_bytes: 245385,
      },
      ['checkpoint 3', 'token · turn 2 · 245 kB · 3.6 s', 'ok'],
      ['Checkpoint: application/json+text/plain'],
    ],
    [
      'compaction',
      {
        ...env,
        event: 'compaction',
        type: 'summary',
        tokens_before: 180000,
        tokens_after: 12000,
        source: 'inspect',
      },
      ['compaction: summary', '180,000 → 12,000 tokens · inspect', 'ok'],
      [],
    ],
    [
      'input',
      {
        ...env,
        event: 'input',
        message: 'Continue?',
        input: 'no',
        input_ansi: '\u001b[1mno\u001b[0m',
        outcome: 'declined',
      },
      ['input', 'no', 'cancelled'],
      ['Prompt: text/markdown', 'Input: text/plain'],
    ],
    [
      'interrupt',
      {
        ...env,
        event: 'interrupt',
        source: 'user_cancel',
        interrupted: 'generate',
        interrupted_model_event_id: 'm1',
      },
      ['interrupt', 'user_cancel during generate', 'cancelled'],
      [],
    ],
    [
      'score',
      {
        ...env,
        event: 'score',
        score: { value: 'C', answer: '4', explanation: 'Correct.' },
        target: '4',
        intermediate: false,
        scorer: 'match',
      },
      ['score: match', 'C · answer: 4', 'ok'],
      [
        'Value: text/plain',
        'Answer: text/plain',
        'Explanation: text/markdown',
        'Target: text/plain',
      ],
    ],
    [
      'score (dict, intermediate)',
      { ...env, event: 'score', score: { value: { accuracy: 1 } }, intermediate: true },
      ['score', '{"accuracy":1} (intermediate)', 'ok'],
      ['Value: application/json+text/plain'],
    ],
    [
      'score_edit',
      {
        ...env,
        event: 'score_edit',
        score_name: 'qa',
        edit: {
          value: 'I',
          answer: 'UNCHANGED',
          explanation: 'UNCHANGED',
          metadata: 'UNCHANGED',
          provenance: { author: 'rev', reason: 'typo' },
        },
      },
      ['score edit: qa', 'value → I', 'ok'],
      ['Value: text/plain', 'Provenance: text/plain'],
    ],
    [
      'error',
      {
        ...env,
        event: 'error',
        error: {
          message: 'ValueError: bad\nmore',
          traceback: 'Traceback…',
          traceback_ansi: ANSI_TRACE,
        },
      },
      ['error', 'ValueError: bad', 'error'],
      ['Traceback: text/plain'],
    ],
    [
      'logger',
      {
        ...env,
        event: 'logger',
        message: {
          name: 'httpx',
          level: 'warning',
          message: 'slow\nresponse',
          created: 1,
          filename: 'a.py',
          lineno: 3,
        },
      },
      ['log warning', 'slow', 'ok'],
      ['httpx · a.py:3: text/plain'],
    ],
    [
      'logger error',
      { ...env, event: 'logger', message: { level: 'error', message: 'failed', created: 1 } },
      // A record about an error, not a failed step: the title says its level.
      ['log error', 'failed', 'ok'],
      ['Message: text/plain'],
    ],
    [
      'info (markdown)',
      { ...env, event: 'info', source: 'agent', data: '**Plan**: 4 steps' },
      // Markdown reads as clean text in the summary (issue 16).
      ['info: agent', 'Plan: 4 steps', 'ok'],
      ['Info: text/markdown'],
    ],
    [
      'info (JSON)',
      { ...env, event: 'info', data: { steps: [1, 2] } },
      ['info', '{steps: number[]}', 'ok'],
      ['Info: application/json+text/plain'],
    ],
    [
      'span_begin',
      { ...env, event: 'span_begin', id: 's2', name: 'researcher', type: 'agent' },
      ['researcher', 'agent', 'ok'],
      [],
    ],
    ['span_end', { ...env, event: 'span_end', id: 's2' }, ['span end', 's2', 'ok'], []],
    [
      'step',
      { ...env, event: 'step', action: 'begin', type: 'solver', name: 'generate' },
      ['generate', 'solver · begin', 'ok'],
      [],
    ],
    [
      'subtask',
      {
        ...env,
        event: 'subtask',
        name: 'research',
        type: 'subtask',
        input: { q: 'x' },
        result: 'done',
        events: [],
      },
      ['research', 'subtask', 'ok'],
      ['Input: application/json+text/plain', 'Result: text/plain'],
    ],
    [
      'message',
      {
        ...env,
        event: 'message',
        role: 'assistant',
        content: 'Hello **there**',
        message_id: 'm1',
        model: 'claude',
      },
      ['assistant (claude)', 'Hello there', 'ok'],
      ['assistant: text/markdown'],
    ],
    [
      'message (tool result)',
      {
        ...env,
        event: 'message',
        role: 'tool',
        content: 'ok',
        message_id: 'm2',
        tool_call_id: 'c1',
      },
      ['tool', 'ok', 'ok'],
      ['tool result: text/plain'],
    ],
    [
      'display',
      {
        ...env,
        event: 'display',
        display_id: 'plot',
        outputs: [
          { data: { 'image/png': 'iVBO', 'text/plain': '<Figure>' } },
          { data: { 'text/plain': ['a', 'b'] } },
        ],
      },
      ['display: plot', '<Figure>', 'ok'],
      [': image/png+text/plain', ': text/plain'],
    ],
  ];

  it.each(cases)('%s', (_name, event, expectedRow, expectedBodies) => {
    const d = describeEvent(event);
    expect(row(d)).toEqual(expectedRow);
    expect(bodies(d)).toEqual(expectedBodies);
    expect(d.kind).toBe(event.event);
    expect(d.uuid).toBe('u1');
    expect(d.startTime).toBe(T0_MS);
  });

  it('a sandbox command with backticks gets a longer fence', () => {
    const d = describeEvent({ ...env, event: 'sandbox', action: 'exec', cmd: 'echo ```' });
    expect(d.bodies[0]?.data['text/markdown']).toBe('````bash\necho ```\n````');
  });

  it('a huge field of an unknown event is previewed, not serialized whole', () => {
    const huge = {
      event: 'blob',
      uuid: 'u1',
      timestamp: T0,
      rows: Array.from({ length: 100_000 }, (_, i) => ({ i })),
    } as Event;
    const d = describeEvent(huge);
    const line = String(d.bodies[0]?.data['text/plain'])
      .split('\n')
      .find((l) => l.startsWith('rows: '));
    expect(line).toMatch(/^rows: \[\{"i":0\},\{"i":1\}.*…$/);
    expect(line!.length).toBeLessThanOrEqual(206);
  });

  it('errors keep their ANSI traceback', () => {
    const d = describeEvent({
      ...env,
      event: 'error',
      error: { message: 'bad', traceback: 't', traceback_ansi: ANSI_TRACE },
    });
    expect(d.bodies[0]?.data['text/plain']).toBe(ANSI_TRACE);
  });

  it('display joins multiline outputs', () => {
    const d = describeEvent({
      ...env,
      event: 'display',
      outputs: [{ data: { 'text/plain': ['a', 'b'] } }],
    });
    expect(d.bodies[0]?.data['text/plain']).toBe('ab');
  });

  it('a checkpoint is an instant (its duration is the snapshot cost, in the subtitle)', () => {
    const d = describeEvent({
      ...env,
      event: 'checkpoint',
      checkpoint_id: 1,
      trigger: 't',
      turn: 1,
      created_at: T0,
      duration_ms: 500,
      size_bytes: 1,
    });
    expect(d.endTime).toBeUndefined();
    expect(d.subtitle).toContain('500 ms');
  });

  it('state changes list each operation', () => {
    const d = describeEvent({
      ...env,
      event: 'state',
      changes: [
        { op: 'replace', path: '/m', value: 'b', replaced: 'a' },
        { op: 'add', path: '/n', value: { x: 1 } },
        { op: 'remove', path: '/o' },
        { op: 'move', path: '/p', from: '/q' },
      ],
    });
    expect(d.bodies[0]?.data['text/plain']).toBe(
      '~ /m: a → b\n+ /n: {"x":1}\n- /o\nmove /p from /q',
    );
  });

  it('metadata becomes a collapsed body and is searchable', () => {
    const d = describeEvent({
      ...env,
      event: 'anchor',
      anchor_id: 'a',
      metadata: { note: 'findme' },
    });
    expect(bodies(d)).toEqual(['Metadata: application/json+text/plain']);
    expect(d.searchText).toContain('findme');
  });
});

describe('describeEvent: fields a known kind does not know', () => {
  const other = (d: EventDisplay) => bodyByLabel(d, 'Other fields');

  it.each([
    ['model', () => model({ future_field: 'needle-model' } as Partial<ModelEvent>)],
    ['tool', () => tool({ future_field: { deep: 'needle-tool' } } as Partial<ToolEvent>)],
    ['info', () => ({ ...env, event: 'info', data: 'x', future_field: ['needle-info'] }) as Event],
  ])('%s: an extra field is shown and searchable', (kind, make) => {
    const event = make();
    const d = describeEvent(event);
    expect(d.kind).toBe(kind);
    const b = other(d);
    expect(b?.data['application/json']).toEqual({
      future_field: (event as unknown as Record<string, unknown>).future_field,
    });
    expect(d.searchText).toContain(`needle-${kind}`);
    expect(d.searchText).toContain('future_field');
  });

  it('a parsed event keeps its extra field visible', () => {
    const { event } = parseEvent({ ...wireSamples.info, zeta: 'needle-parsed' });
    const d = describeEvent(event);
    expect(other(d)?.data['application/json']).toEqual({ zeta: 'needle-parsed' });
    expect(d.searchText).toContain('needle-parsed');
  });

  it('the known sets are the envelope plus each kind’s own fields', () => {
    expect(Object.keys(KNOWN_EVENT_FIELDS).sort()).toEqual([...KNOWN_EVENT_KINDS].sort());
    for (const kind of KNOWN_EVENT_KINDS) {
      for (const f of ['event', 'uuid', 'timestamp', 'span_id', 'metadata'])
        expect(KNOWN_EVENT_FIELDS[kind].has(f)).toBe(true);
    }
    expect(KNOWN_EVENT_FIELDS.info.has('data')).toBe(true);
  });

  it('no event of a generated run or the wire samples has other fields', () => {
    const events: unknown[] = [
      ...generateRun({ events: 3000, seed: 11, pendingRate: 0.2 }),
      ...KNOWN_EVENT_KINDS.map((kind) => wireSamples[kind]),
      ...KNOWN_EVENT_KINDS.map((kind) => parseEvent(wireSamples[kind]).event),
    ];
    for (const event of events) {
      const d = describeEvent(event as Event);
      expect(other(d), JSON.stringify(event).slice(0, 200)).toBeUndefined();
    }
  });
});

describe('describeEvent: every kind in a generated run and in the wire samples', () => {
  const run = generateRun({ events: 3000, seed: 11, pendingRate: 0.2 });

  it('describes every event of a generated run without falling back', () => {
    for (const event of run) {
      const d = describeEvent(event);
      expect(d.kind).toBe(event.event);
      expect(
        d.bodies.some(
          (b) => (b.metadata?.skein as DisplayMetadata | undefined)?.label === 'Describer error',
        ),
      ).toBe(false);
      expect(Number.isFinite(d.startTime)).toBe(true);
      expect(d.title.length).toBeGreaterThan(0);
    }
  });

  it('a failing model call in the run carries its ANSI traceback', () => {
    const failed = run.find(
      (e): e is ModelEvent =>
        e.event === 'model' && typeof e.error === 'string' && !!e.traceback_ansi,
    );
    expect(failed).toBeDefined();
    const d = describeEvent(failed!);
    expect(d.status).toBe('error');
    expect(d.bodies.at(-1)?.data['text/plain']).toBe(failed!.traceback_ansi);
  });

  it('every known kind has its own describer', () => {
    const registry = createDescriberRegistry();
    expect(registry.kinds().sort()).toEqual([...KNOWN_EVENT_KINDS].sort());
  });

  it('a parsed wire sample of each kind describes with its own describer', () => {
    for (const kind of KNOWN_EVENT_KINDS) {
      const { event } = parseEvent(wireSamples[kind]);
      const d = describeEvent(event);
      expect(d.kind).toBe(kind);
      expect(
        d.bodies.some(
          (b) => (b.metadata?.skein as DisplayMetadata | undefined)?.label === 'Describer error',
        ),
      ).toBe(false);
    }
  });
});

describe('describeEvent: unknown kinds (generic)', () => {
  const future = {
    ...env,
    event: 'future_kind',
    payload: 1,
    label: 'hello',
    nested: { deep: ['x', 'needle'] },
  } as Event;
  const d = describeEvent(future);

  it('title is the kind, subtitle the scalar fields', () =>
    expect(row(d)).toEqual(['future_kind', 'payload: 1 · label: hello', 'ok']));

  it('shows every field', () => {
    expect(bodies(d)).toEqual(['Fields: application/json+text/plain']);
    const { event: _, ...fields } = future as Record<string, unknown>;
    expect(d.bodies[0]?.data['application/json']).toEqual(fields);
    expect(d.bodies[0]?.data['text/plain']).toBe(
      'uuid: u1\ntimestamp: 2026-06-10T18:24:10Z\nspan_id: s1\npayload: 1\nlabel: hello\nnested: {"deep":["x","needle"]}',
    );
  });

  it('searches nested strings', () => expect(d.searchText).toContain('needle'));

  it('an error field makes it an error; pending makes it running', () => {
    expect(describeEvent({ ...env, event: 'x', error: 'boom' } as Event).status).toBe('error');
    expect(describeEvent({ ...env, event: 'x', pending: true } as Event).status).toBe('running');
  });

  it('an unknown kind is an instant, whatever `completed` says (the timeline rule)', () =>
    expect(
      describeEvent({ ...env, event: 'x', completed: '2026-06-10T18:24:11Z' } as Event).endTime,
    ).toBeUndefined());
});

describe('describeEvent: search text bounds', () => {
  it('is cut at maxSearchText and says how much was cut', () => {
    const big = 'x'.repeat(5000);
    const d = describeEvent(tool({ result: big }), { maxSearchText: 1000 });
    expect(d.searchText.length).toBe(1000);
    expect(d.searchTextTruncated).toBeGreaterThanOrEqual(4000);
  });

  it('nothing cut → 0', () => expect(describeEvent(tool()).searchTextTruncated).toBe(0));

  it('title and subtitle come first, so the bound never drops them', () => {
    const d = describeEvent(tool({ arguments: { cmd: 'grep needle' }, result: 'r'.repeat(500) }), {
      maxSearchText: 30,
    });
    expect(d.searchText.startsWith('bash\ngrep needle\n')).toBe(true);
    expect(d.searchText).toHaveLength(30);
  });

  it('a huge nested value: bounded search text, the cut reported, reads linear in its size', () => {
    const items = Array.from({ length: 200_000 }, (_, i) => ({
      op: 'add' as const,
      path: `/k${i}`,
      value: `v${i}`,
    }));
    // Count element reads rather than time the call (a timed assertion fails
    // on a loaded machine). The bodies list every change (nothing is hidden),
    // so each element is read a few times; the search text stops at its bound.
    let reads = 0;
    const changes = new Proxy(items, {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    const d = describeEvent({ ...env, event: 'store', changes }, { maxSearchText: 1000 });
    expect(d.searchText.length).toBe(1000);
    expect(d.searchTextTruncated).toBeGreaterThan(0);
    expect(reads).toBeGreaterThanOrEqual(items.length);
    expect(reads).toBeLessThanOrEqual(4 * items.length);
  });

  it('the default bound is 20,000 characters', () => {
    const d = describeEvent(tool({ result: 'y'.repeat(50_000) }));
    expect(d.searchText.length).toBe(20_000);
    // Kept plus cut covers the whole result (and the short texts before it).
    expect(d.searchText.length + d.searchTextTruncated).toBeGreaterThan(50_000);
    expect(d.searchText.length + d.searchTextTruncated).toBeLessThan(50_100);
  });
});

describe('describer registry', () => {
  it('register replaces a kind; the returned function restores it', () => {
    const registry = createDescriberRegistry();
    const restore = registry.register('tool', (event, ctx) => ({
      ...ctx.base(event),
      title: 'custom',
    }));
    expect(describeEvent(tool(), { registry }).title).toBe('custom');
    restore();
    expect(describeEvent(tool(), { registry }).title).toBe('bash');
  });

  it('register adds a new kind', () => {
    const registry = createDescriberRegistry();
    registry.register('future_kind', (event, ctx) => ({ ...ctx.generic(event), title: 'Future!' }));
    expect(registry.has('future_kind')).toBe(true);
    expect(registry.describe({ ...env, event: 'future_kind' } as Event).title).toBe('Future!');
  });

  it('the default registry is not touched by another registry', () => {
    createDescriberRegistry().register('tool', (event, ctx) => ({
      ...ctx.base(event),
      title: 'nope',
    }));
    expect(describeEvent(tool()).title).toBe('bash');
  });

  it('a throwing describer falls back to the generic one and says why', () => {
    const registry = createDescriberRegistry();
    registry.register('tool', () => {
      throw new Error('broken');
    });
    const d = describeEvent(tool(), { registry });
    expect(d.title).toBe('tool');
    expect(bodyByLabel(d, 'Describer error')?.data['text/plain']).toBe(
      'describer for "tool" failed: Error: broken',
    );
  });

  it('a built-in describer given a malformed event falls back instead of throwing', () => {
    const broken = { ...env, event: 'model', output: 42, input: 'nope' } as unknown as Event;
    expect(() => describeEvent(broken)).not.toThrow();
    expect(describeEvent(broken).kind).toBe('model');
  });

  it('a user describer’s search text is held to the bound', () => {
    const registry = createDescriberRegistry();
    registry.register('tool', (event, ctx) => ({
      ...ctx.base(event),
      searchText: 'z'.repeat(300),
    }));
    const d = describeEvent(tool(), { registry, maxSearchText: 100 });
    expect(d.searchText).toHaveLength(100);
    expect(d.searchTextTruncated).toBe(200);
  });
});
