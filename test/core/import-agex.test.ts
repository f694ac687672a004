import { agexFormat } from '../../src/core/import/agex/agex.js';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  EventStream,
  ImportError,
  detectFormat,
  generateRun,
  importAgex,
  importAny,
  isAgex,
  mimeStream,
  streamImport,
  toMimeStream,
  type DisplayEvent,
  type Event,
  type MessageEvent,
  type ModelEvent,
  type SpanBeginEvent,
} from '../../src/index.js';
import { checkImport } from './helpers/import-check.js';

const dir = 'test/fixtures/agex';
const read = (name: string) => readFileSync(`${dir}/${name}`, 'utf8');
const byKind = <E extends Event>(events: Event[], kind: string) =>
  events.filter((e) => e.event === kind) as E[];
const spanNamed = (events: Event[], name: string, nth = 0) =>
  events.filter((e): e is SpanBeginEvent => e.event === 'span_begin' && e.name === name)[nth]!;

async function* chunked(text: string, size: number) {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

describe('agex importer: project fixtures', () => {
  it.each([
    ['agex-ts.jsonl', ['unknown_event_kind']],
    ['python-events.jsonl', ['agex_task_unclosed']],
    ['mime-stream.json', []],
  ] as const)('%s imports as agex, canonical, with a stable dump', async (name, allowed) => {
    const result = await checkImport(read(name), 'agex', {
      filename: name,
      allowDiagnostics: allowed,
    });
    await expect(result.dump).toMatchFileSnapshot(`__snapshots__/agex-${name}.txt`);
  });
});

describe('agex importer: mapping (agex-ts union)', () => {
  const { events, diagnostics } = importAgex(read('agex-ts.jsonl'));

  it('opens an agent span and one task span per taskStart, each closed by its outcome', () => {
    const agent = spanNamed(events, 'analyst');
    expect(agent.type).toBe('agent');
    expect(agent.parent_id).toBeNull();
    const tasks = byKind<SpanBeginEvent>(events, 'span_begin').filter((s) => s.type === 'task');
    expect(tasks.map((t) => t.name)).toEqual(['summarize_sales', 'compare_regions', 'forecast']);
    for (const t of tasks) {
      expect(t.parent_id).toBe(agent.id);
      const end = events.findIndex((e) => e.event === 'span_end' && e.span_id === t.id);
      expect(end, `end of ${t.name}`).toBeGreaterThan(events.indexOf(t));
    }
    expect(tasks[0]!.metadata).toMatchObject({ inputs: { quarter: 'Q1', region: 'EMEA' } });
    // The outcome event sits inside its task, just before the end.
    const success = events.find((e) => e.metadata?.['agex_event'] === 'success')!;
    expect(success).toMatchObject({ event: 'info', span_id: tasks[0]!.id });
    expect((success as { data?: unknown }).data).toEqual({ total: 4040, best_month: 'Mar' });
    expect(events.find((e) => e.event === 'interrupt')).toMatchObject({
      span_id: tasks[2]!.id,
      metadata: { iterations_completed: 1, task_name: 'forecast' },
    });
    expect(events.find((e) => e.metadata?.['agex_event'] === 'clarify')).toMatchObject({
      event: 'message',
      role: 'assistant',
      content: 'Which regions should I compare?',
    });
  });

  it('merges token chunks into one message per emission index, never one per chunk', () => {
    const messages = byKind<MessageEvent>(events, 'message').filter((m) => m.role === 'assistant');
    const streamed = messages.filter((m) => m.metadata?.['emission_index'] !== undefined);
    expect(streamed).toHaveLength(3);
    expect(streamed[0]!.content).toEqual([
      { type: 'text', text: 'Load the sales table', internal: { agex_chunk: 'title' } },
    ]);
    expect(streamed[1]!.content).toEqual([
      { type: 'reasoning', reasoning: 'The table is in sales.csv; group by month.' },
    ]);
    expect(streamed[2]!.metadata?.['emission']).toMatchObject({ type: 'ts' });
    // Chunks carry no time: invented after the last real one, in order, and flagged.
    const times = streamed.map((m) => Date.parse(m.timestamp));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(times[0]).toBeGreaterThan(Date.parse('2026-03-02T10:00:00.000Z'));
    for (const m of streamed) expect(m.metadata?.['skein_invented']).toEqual(['timestamp']);
  });

  it('maps an action to a model event with reasoning, text, code as tool calls and usage', () => {
    const model = byKind<ModelEvent>(events, 'model')[0]!;
    expect(model.model).toBe('analyst');
    const message = model.output.choices[0]!.message;
    expect(message.content).toEqual([
      { type: 'reasoning', reasoning: 'The table is in sales.csv; group by month.' },
      { type: 'text', text: 'Load the sales table' },
    ]);
    expect(message.tool_calls!.map((c) => [c.id, c.function])).toEqual([
      ['em-1', 'ts'],
      [`${model.uuid}-1`, 'terminal'],
    ]);
    expect(message.tool_calls![1]!.arguments).toEqual({ command: 'wc -l sales.csv' });
    expect(model.output.usage).toEqual({
      input_tokens: 1834,
      output_tokens: 212,
      total_tokens: 2046,
    });
    expect(model.metadata).toMatchObject({ agex: { commitHash: 'c0ffee1' } });
    expect(model.metadata?.['skein_invented']).toEqual(['id']);
  });

  it('turns output parts into display bundles (text, image, error)', () => {
    const display = byKind<DisplayEvent>(events, 'display')[0]!;
    expect(display.outputs.map((o) => Object.keys(o.data))).toEqual([
      ['text/plain'],
      ['image/png', 'text/plain'],
      ['text/plain'],
    ]);
    expect(display.outputs[1]!.data['text/plain']).toBe('sales trend');
    expect(display.outputs[2]!.data['text/plain']).toBe('Warning: 3 rows had no month');
    expect(display.metadata).toEqual({ agex: { emissionId: 'em-1' } });
  });

  it('keeps an unknown kind as an info event with the raw record', () => {
    const unknown = events.find(
      (e) => e.event === 'info' && (e as { data?: { type?: string } }).data?.type === 'futureKind',
    );
    expect(unknown).toMatchObject({ source: 'agex', data: { payload: { x: 1 } } });
    expect(diagnostics.filter((d) => d.code === 'unknown_event_kind')).toHaveLength(1);
  });

  it('maps recoverable errors, files, system notes and chapters', () => {
    expect(events.find((e) => e.event === 'error')).toMatchObject({
      error: { message: 'TypeError: groupBy is not a function' },
      metadata: { recoverable: true },
    });
    expect(events.find((e) => e.metadata?.['agex_event'] === 'file')).toMatchObject({
      data: { source: 'agent', added: ['trend.png'], modified: [], removed: [] },
    });
    expect(events.find((e) => e.event === 'message' && e.role === 'system')).toMatchObject({
      content: 'Context is 80% full.',
    });
    expect(events.find((e) => e.event === 'compaction')).toMatchObject({
      source: 'agex',
      metadata: { name: 'Loading data', slug: 'loading-data', event_refs: ['e1', 'e2', 'e3'] },
    });
  });
});

describe('agex importer: mapping (Python class names, namespaces)', () => {
  const { events, diagnostics } = importAgex(read('python-events.jsonl'));

  it('nests each sub-agent under the task of the agent that called it', () => {
    const research = spanNamed(events, 'research');
    const workerA = spanNamed(events, 'worker_a');
    const search = spanNamed(events, 'search');
    const helper = spanNamed(events, 'helper');
    expect(workerA).toMatchObject({ type: 'agent', parent_id: research.id });
    expect(search.parent_id).toBe(workerA.id);
    expect(helper).toMatchObject({ type: 'agent', parent_id: search.id });
    expect(spanNamed(events, 'lookup').parent_id).toBe(helper.id);
    // The helper's span ends with the task that called it.
    const endHelper = events.findIndex((e) => e.event === 'span_end' && e.id === helper.id);
    const endSearch = events.findIndex((e) => e.event === 'span_end' && e.id === search.id);
    expect(endHelper).toBeGreaterThan(0);
    expect(endHelper).toBeLessThan(endSearch);
  });

  it('opens a new task span for a second call of the same sub-agent', () => {
    const workerB = spanNamed(events, 'worker_b');
    const writes = events.filter(
      (e): e is SpanBeginEvent => e.event === 'span_begin' && e.name === 'write',
    );
    expect(writes).toHaveLength(2);
    for (const w of writes) expect(w.parent_id).toBe(workerB.id);
  });

  it('closes a task with ClarifyEvent and with CancelledEvent, by class name', () => {
    const ns = { agent_name: 'planner', full_namespace: 'planner' };
    const at = (s: number) => ({ timestamp: `2026-03-02T11:00:0${s}.000000Z` });
    const text = [
      { event_type: 'TaskStartEvent', ...at(0), ...ns, task_name: 'plan', message: 'Plan it.' },
      { event_type: 'ClarifyEvent', ...at(1), ...ns, message: 'Which city?' },
      { event_type: 'TaskStartEvent', ...at(2), ...ns, task_name: 'retry', message: 'Again.' },
      {
        event_type: 'CancelledEvent',
        ...at(3),
        ...ns,
        task_name: 'retry',
        iterations_completed: 2,
      },
    ]
      .map((r) => JSON.stringify(r))
      .join('\n');
    const r = importAgex(text);
    expect(r.diagnostics.filter((d) => d.code === 'agex_task_unclosed')).toEqual([]);
    const plan = spanNamed(r.events, 'plan');
    const retry = spanNamed(r.events, 'retry');
    expect(r.events.find((e) => e.metadata?.['agex_event'] === 'clarify')).toMatchObject({
      event: 'message',
      role: 'assistant',
      content: 'Which city?',
      span_id: plan.id,
    });
    expect(r.events.find((e) => e.event === 'interrupt')).toMatchObject({
      span_id: retry.id,
      metadata: { iterations_completed: 2, task_name: 'retry' },
    });
    const ended = (id: string) =>
      r.events.find((e) => e.event === 'span_end' && e.id === id)?.timestamp;
    expect(ended(plan.id)).toBe('2026-03-02T11:00:01.000000Z');
    expect(ended(retry.id)).toBe('2026-03-02T11:00:03.000000Z');
  });

  it('closes tasks left open at the end with an invented end and a diagnostic', () => {
    const unclosed = diagnostics.filter((d) => d.code === 'agex_task_unclosed');
    expect(unclosed.map((d) => d.path)).toEqual(['$[0]', '$[14]']);
    const ends = events.filter(
      (e) => e.event === 'span_end' && (e.metadata?.['skein_invented'] as string[])?.[0] === 'end',
    );
    expect(ends).toHaveLength(2);
    // Nothing ends before what it contains: the last span ends are at the last time seen.
    expect(events.at(-1)).toMatchObject({
      event: 'span_end',
      timestamp: '2026-03-02T11:00:09.000000Z',
    });
  });

  it('reads mime_stream bundles among the parts, and naive times as UTC with a diagnostic', () => {
    const display = byKind<DisplayEvent>(events, 'display')[0]!;
    expect(display.outputs[0]!.data).toEqual({ 'text/plain': 'Tides are caused by the Moon.' });
    expect(display.outputs[1]!.data['text/html']).toContain('Spring tides');
    expect(display.outputs[2]!.data['image/png']).toMatch(/^iVBOR/);
    expect(diagnostics.find((d) => d.code === 'timestamp_no_offset')?.path).toBe('$[9].timestamp');
    expect(spanNamed(events, 'write').timestamp).toBe('2026-03-02T11:00:06.100000Z');
    expect(
      events.find((e) => e.event === 'span_begin' && e.name === 'research')!.metadata,
    ).toMatchObject({
      agex: { source: 'main', full_detail_tokens: 120, low_detail_tokens: 40 },
    });
  });

  it('maps ErrorEvent with an error object and FailEvent to error events', () => {
    const errors = byKind<Event & { error: { message: string } }>(events, 'error');
    expect(errors.map((e) => e.error.message)).toEqual([
      'ValueError: notes too short',
      'Could not write a summary from these notes.',
    ]);
  });
});

describe('agex importer: failures', () => {
  it('warns about an outcome with no open task and keeps the event', () => {
    const { events, diagnostics } = importAgex(
      '{"type":"systemNote","timestamp":"2026-01-01T00:00:00Z","agentName":"a","message":"hi"}\n' +
        '{"type":"success","timestamp":"2026-01-01T00:00:01Z","agentName":"a","result":1}\n',
    );
    expect(events.map((e) => e.event)).toEqual(['span_begin', 'message', 'info', 'span_end']);
    expect(diagnostics[0]).toMatchObject({ code: 'agex_unmatched_outcome', path: '$[1]' });
  });

  it('invents a time for a bad or missing timestamp, never going backwards', () => {
    const { events, diagnostics } = importAgex(
      [
        '{"type":"taskStart","timestamp":"2026-01-01T00:00:05Z","agentName":"a","taskName":"t","inputs":{}}',
        '{"type":"systemNote","timestamp":"yesterday","agentName":"a","message":"x"}',
        '{"type":"systemNote","agentName":"a","message":"y"}',
        '{"type":"success","timestamp":1767225610,"agentName":"a","result":1}',
      ].join('\n'),
    );
    const times = events.map((e) => Date.parse(e.timestamp));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(events.find((e) => e.event === 'info')!.timestamp).toBe('2026-01-01T00:00:10.000Z');
    expect(diagnostics.map((d) => d.code)).toEqual(['invalid_timestamp', 'value_invented']);
  });

  it('keeps records that are not objects, with a diagnostic', () => {
    const { events, diagnostics } = importAgex([
      { type: 'taskStart', agentName: 'a', taskName: 't', timestamp: '2026-01-01T00:00:00Z' },
      42,
    ]);
    expect(events.some((e) => e.event === 'info' && (e as { data?: unknown }).data === 42)).toBe(
      true,
    );
    expect(diagnostics.map((d) => d.code)).toContain('wrong_type');
  });

  it('throws an ImportError for input that is no format at all', async () => {
    await expect(importAny('{"type": "taskStart", ')).rejects.toBeInstanceOf(ImportError);
  });
});

describe('agex importer: detection', () => {
  it('detects the three shapes, and not skein events, cantus streams or other tags', () => {
    expect(isAgex(read('agex-ts.jsonl'))).toBe(true);
    expect(isAgex(read('python-events.jsonl'))).toBe(true);
    expect(isAgex(read('mime-stream.json'))).toBe(true);
    const skein = generateRun({ seed: 1, events: 20, pendingRate: 0 })
      .map((e) => JSON.stringify(e))
      .join('\n');
    expect(isAgex(skein)).toBe(false);
    expect(detectFormat(skein).format).toBe('skein');
    expect(
      isAgex('{"events":[{"CallSkillAction":{"thought":"t","skill_name":"s","args":{}}}]}'),
    ).toBe(false);
    // A bare `{"type":"error"}` is too generic to claim.
    expect(isAgex('{"type":"error","message":"x"}\n')).toBe(false);
    expect(isAgex('{"type":"error","agentName":"a","errorName":"E","errorMessage":"x"}\n')).toBe(
      true,
    );
  });
});

describe('agex importer: streaming', () => {
  it.each(['agex-ts.jsonl', 'python-events.jsonl'])(
    '%s one line at a time gives, in latest(), the whole-file events',
    (name) => {
      const text = read(name);
      const whole = importAgex(text).events;
      const stream = new EventStream();
      const imp = agexFormat.incremental({});
      text.split('\n').forEach((line, i) => {
        if (line.trim() === '') return;
        imp.push(JSON.parse(line), `$[${i}]`);
        for (const e of imp.drain()) stream.append(e);
      });
      for (const e of imp.end()) stream.append(e);
      expect(stream.latest()).toEqual(whole);
      // Open chunk messages went out as pending copies first.
      if (name === 'agex-ts.jsonl') expect(stream.length).toBeGreaterThan(whole.length);
    },
  );

  it('streamImport of chunks detects agex and equals importAny', async () => {
    const text = read('agex-ts.jsonl');
    const stream = new EventStream();
    const it = streamImport(chunked(text, 37));
    let next = await it.next();
    while (!next.done) {
      for (const e of next.value) stream.append(e);
      next = await it.next();
    }
    expect(next.value.format).toBe('agex');
    expect(stream.latest()).toEqual((await importAny(text)).events);
  });
});

describe('toMimeStream', () => {
  const jsonl = (records: unknown[]) => records.map((r) => JSON.stringify(r)).join('\n');

  it('round-trips generated runs: import(export(x)) equals x (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer({ min: 10, max: 400 }),
        fc.constantFrom(0, 0.3),
        fc.constantFrom('jsonl', 'json') as fc.Arbitrary<'jsonl' | 'json'>,
        async (seed, n, pendingRate, encoding) => {
          // EventStream.from freezes and stamps, as an import does.
          const run = EventStream.from(generateRun({ seed, events: n, pendingRate })).toArray();
          const records = toMimeStream(run);
          const text = encoding === 'jsonl' ? jsonl(records) : JSON.stringify(records);
          const viaAny = await importAny(text);
          expect(viaAny.events).toEqual(run);
          expect(viaAny.diagnostics).toEqual([]);
          expect(importAgex(text).events).toEqual(run);
        },
      ),
      { numRuns: 20, seed: 19 },
    );
  }, 120_000);

  it('round-trips display events and keeps raw values of a mime stream as displays', () => {
    const run: Event[] = EventStream.from([
      {
        event: 'display',
        uuid: 'd1',
        timestamp: '2026-01-01T00:00:00Z',
        outputs: [{ data: { 'text/markdown': '**x**' }, metadata: { width: 3 } }],
        display_id: 'plot',
      },
    ]).toArray();
    expect(importAgex(jsonl(toMimeStream(run))).events).toEqual(run);
    // A live mime stream mixes events and raw values; each value becomes a display.
    const records = [...mimeStream([run[0], { rows: [1, 2, 3] }, 'done'])];
    const { events } = importAgex(jsonl(records));
    expect(events[0]).toEqual(run[0]);
    expect(events.slice(1).map((e) => (e as DisplayEvent).outputs[0]!.data['text/plain'])).toEqual([
      (records[1] as { data: Record<string, unknown> }).data['text/plain'],
      'done',
    ]);
  });
});
