// The OpenTelemetry traces importer (issue 20): real captures from
// ../shared/fixtures (skipped with a notice when absent), the project's own
// fixtures in test/fixtures/otlp (every variant, run everywhere), the
// cross-dialect "order A-1187" test, and the edge cases of files in the wild.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  ImportError,
  deepFreeze,
  importAny,
  importOtlp,
  isOtlp,
  type Event,
  type ModelEvent,
  type SpanBeginEvent,
  type ToolEvent,
} from '../../src/index.js';
import { describeFixtures, readFixture } from '../conformance/fixtures.js';
import { checkImport } from './helpers/import-check.js';

const own = (name: string) =>
  new Uint8Array(readFileSync(new URL(`../fixtures/otlp/${name}`, import.meta.url)));

const of = <K extends string>(events: Event[], kind: K) =>
  events.filter((e) => e.event === kind) as unknown as (K extends 'model'
    ? ModelEvent
    : K extends 'tool'
      ? ToolEvent
      : SpanBeginEvent)[];

/** What must agree across dialects: each model call's messages and tool calls, in order. */
function projection(events: Event[]) {
  return of(events, 'model').map((m) => ({
    input: m.input.map((msg) => ({
      role: msg.role,
      text:
        typeof msg.content === 'string'
          ? msg.content
          : msg.content.map((c) => (c.type === 'text' ? c.text : c.type)).join(''),
    })),
    calls: m.output.choices.flatMap((c) =>
      (c.message.tool_calls ?? []).map((t) => ({
        id: t.id,
        function: t.function,
        arguments: t.arguments,
      })),
    ),
    stop: m.output.choices[0]?.stop_reason,
  }));
}

const REAL = [
  'otel-genai/genai-interlingua-openllmetry-workflow.otlp.json',
  'otel-genai/genai-interlingua-otel-genai-openai-v2-chat.otlp.json',
  'otel-genai/genai-interlingua-vercel-ai-sdk.otlp.json',
  'otel-genai/opentelemetry-proto-examples-trace.json',
  'openinference/genai-interlingua-openinference-openai.otlp.json',
];

describeFixtures('otlp: real captures', () => {
  for (const file of REAL) {
    it(file, async () => {
      const { dump, diagnostics } = await checkImport(readFixture(file), 'otlp', {
        filename: file,
      });
      expect(diagnostics.filter((d) => d.severity === 'warning')).toEqual([]);
      expect(dump).toMatchSnapshot();
    });
  }

  it('the four "order A-1187" dialects import to the same conversation', async () => {
    const files = REAL.filter((f) => f.includes('interlingua'));
    const projections = await Promise.all(
      files.map(async (f) => projection((await importAny(readFixture(f))).events)),
    );
    expect(projections[0]).toEqual([
      {
        input: [
          { role: 'system', text: 'You are a support agent. Use the tools you are given.' },
          { role: 'user', text: 'Where is order A-1187?' },
        ],
        calls: [
          { id: 'call_9RtYbK2mXqLp', function: 'lookup_order', arguments: { order_id: 'A-1187' } },
        ],
        stop: 'tool_calls',
      },
    ]);
    for (const p of projections.slice(1)) expect(p).toEqual(projections[0]);
  });

  it('the Vercel tool span is the model call it answers (tool id = call id)', async () => {
    const { events } = await importAny(
      readFixture('otel-genai/genai-interlingua-vercel-ai-sdk.otlp.json'),
    );
    const [tool] = of(events, 'tool');
    expect(tool!.id).toBe('call_9RtYbK2mXqLp');
    expect(tool!.metadata!['span_id']).toBe('aa01bb02cc03dd06');
  });

  it('usage under every spelling: OpenLLMetry, OpenInference, Vercel', async () => {
    const usage = async (f: string) => of((await importAny(readFixture(f))).events, 'model')[0]!;
    const tl = await usage('otel-genai/genai-interlingua-openllmetry-workflow.otlp.json');
    expect(tl.output.usage).toEqual({
      input_tokens: 412 - 256,
      output_tokens: 27,
      total_tokens: 439,
      input_tokens_cache_read: 256,
      reasoning_tokens: 8,
    });
    const oi = await usage('openinference/genai-interlingua-openinference-openai.otlp.json');
    expect(oi.output.usage).toEqual(tl.output.usage);
    const vc = await usage('otel-genai/genai-interlingua-vercel-ai-sdk.otlp.json');
    expect(vc.output.usage).toEqual({ input_tokens: 412, output_tokens: 27, total_tokens: 439 });
  });
});

describe('otlp: the project fixtures', () => {
  it('invoke_agent → chat → execute_tool, with a sub-agent under a tool', async () => {
    const { events, dump } = await checkImport(own('agent-chat-tool.otlp.json'), 'otlp', {
      filename: 'agent-chat-tool.otlp.json',
    });
    expect(dump).toMatchSnapshot();
    const spans = of(events, 'span_begin');
    const [agent, sub] = spans;
    expect(agent).toMatchObject({ id: '1000000000000001', type: 'agent', name: 'support_agent' });
    expect(sub).toMatchObject({ id: '1000000000000005', type: 'agent', parent_id: agent!.id });
    const tools = of(events, 'tool');
    expect(tools.map((t) => [t.id, t.function, t.span_id])).toEqual([
      ['call_1', 'lookup_order', agent!.id],
      ['call_2', 'refund_agent', agent!.id],
      ['call_3', 'issue_refund', sub!.id],
    ]);
    // The refund tool spawned the sub-agent; its arguments came from the model's call.
    expect(tools[1]!.agent_span_id).toBe(sub!.id);
    expect(tools[1]!.arguments).toEqual({ order_id: 'B-22' });
    expect(tools[2]).toMatchObject({
      failed: true,
      error: { type: 'unknown', message: 'payments API timed out' },
    });
    const models = of(events, 'model');
    expect(models.map((m) => m.metadata!['span_id'])).toEqual([
      '1000000000000002',
      '1000000000000006',
      '1000000000000008',
    ]);
    // System instructions, reasoning, usage with cache counts taken out of input.
    expect(models[0]!.input[0]).toEqual({ role: 'system', content: 'You are a support agent.' });
    expect(models[0]!.output.choices[0]!.message.content).toEqual([
      { type: 'reasoning', reasoning: 'Two lookups.' },
    ]);
    expect(models[0]!.output.usage).toEqual({
      input_tokens: 400 - 256 - 16,
      output_tokens: 30,
      total_tokens: 430,
      input_tokens_cache_read: 256,
      input_tokens_cache_write: 16,
    });
    // Content from the operation-details event.
    expect(models[1]!.input).toEqual([{ role: 'user', content: 'Refund order B-22' }]);
    // Tool-call responses become tool messages.
    expect(models[2]!.input.filter((m) => m.role === 'tool')).toEqual([
      { role: 'tool', content: '{"status":"in_transit"}', tool_call_id: 'call_1' },
      { role: 'tool', content: 'refund failed: timeout', tool_call_id: 'call_2' },
    ]);
    expect(models[2]!.output.completion).toMatch(/^A-1187 is in transit/);
    // Exact times: nanoseconds kept in the ISO string and in metadata.
    expect(agent!.timestamp).toBe('2026-05-28T20:26:40.000000123Z');
    expect(agent!.metadata!['end_time_unix_nano']).toBe('1780000009000000456');
    // A plain span event stays, as an info event in the span.
    expect(events.find((e) => e.event === 'info')).toMatchObject({
      source: 'otlp',
      data: { name: 'cache.miss', attributes: { 'cache.key': 'A-1187' } },
      span_id: agent!.id,
    });
  });

  it('a JSONL of exports with children first, a duplicate and base64 ids (*.json.txt)', async () => {
    const { events, dump, diagnostics } = await checkImport(
      own('exports-children-first.json.txt'),
      'otlp',
      { filename: 'exports-children-first.json.txt', allowDiagnostics: ['otlp_duplicate_span'] },
    );
    expect(dump).toMatchSnapshot();
    expect(diagnostics.map((d) => d.code)).toEqual(['otlp_duplicate_span']);
    const [root, http] = of(events, 'span_begin');
    expect(root).toMatchObject({ id: 'b7ad6b7169203331', parent_id: null });
    const [model] = of(events, 'model');
    // base64 ids read as hex; the legacy indexed attributes and token names.
    expect(model!.metadata).toMatchObject({
      span_id: '00f067aa0ba902b7',
      trace_id: '0af7651916cd43dd8448eb211c80319c',
    });
    expect(model!.span_id).toBe(root!.id);
    expect(model!.input).toEqual([{ role: 'user', content: 'What is 2+2?' }]);
    expect(model!.output).toMatchObject({
      completion: '4',
      usage: { input_tokens: 12, output_tokens: 1, total_tokens: 13 },
    });
    // The HTTP span under the model call sits in the model's skein span.
    expect(http).toMatchObject({ id: 'c0ffee0000000001', parent_id: root!.id });
  });

  it('hand-written spans without ids or end times: in file order, invented values flagged', async () => {
    const { events, dump, diagnostics } = await checkImport(
      own('hand-written-spans.json'),
      'otlp',
      { filename: 'hand-written-spans.json' },
    );
    expect(dump).toMatchSnapshot();
    expect(events.map((e) => e.event)).toEqual(['model', 'tool', 'model']);
    const tool = of(events, 'tool')[0]!;
    // No call id on the tool span: the first unanswered call of its name.
    expect(tool).toMatchObject({ id: 'toolu_01', function: 'ls', arguments: { path: '.' } });
    expect(tool.metadata!['skein_invented']).toEqual(['id', 'timestamp', 'end']);
    expect(diagnostics.filter((d) => d.code === 'value_invented')).toHaveLength(3);
    const times = events.map((e) => Date.parse(e.timestamp));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(of(events, 'model')[0]!.output.choices[0]!.stop_reason).toBe('tool_calls');
  });

  it('numeric 19-digit nanos and 64-bit ints lose no precision', async () => {
    const { events, dump } = await checkImport(own('numeric-nanos.otlp.json'), 'otlp', {
      filename: 'numeric-nanos.otlp.json',
    });
    expect(dump).toMatchSnapshot();
    const [begin] = of(events, 'span_begin');
    expect(begin!.timestamp).toBe('2018-12-13T14:51:00.123456789Z');
    expect(begin!.metadata).toMatchObject({
      span_id: 'eee19b7ec3c1b174',
      start_time_unix_nano: '1544712660123456789',
      end_time_unix_nano: '1544712661987654321',
      status: { code: 'ERROR', message: 'db down' },
      attributes: { 'big.counter': '9007199254740993123', 'http.response.status_code': 500 },
    });
    expect(events.at(-1)).toMatchObject({
      event: 'span_end',
      timestamp: '2018-12-13T14:51:01.987654321Z',
    });
  });

  it('OpenInference: AGENT, RETRIEVER, LLM with flattened messages, TOOL, CHAIN', async () => {
    const { events, dump } = await checkImport(own('openinference-agent.otlp.json'), 'otlp', {
      filename: 'openinference-agent.otlp.json',
    });
    expect(dump).toMatchSnapshot();
    expect(of(events, 'span_begin').map((s) => s.type)).toEqual(['agent', 'retriever', 'chain']);
    const [model] = of(events, 'model');
    expect(model!.input).toEqual([
      { role: 'system', content: 'Answer briefly.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Capital of France?' },
          { type: 'image', image: 'https://example.com/map.png' },
        ],
      },
    ]);
    expect(model!.config).toEqual({ temperature: 0 });
    expect(model!.output.usage).toMatchObject({ input_tokens: 42, input_tokens_cache_write: 8 });
    expect(of(events, 'tool')[0]).toMatchObject({
      id: 'call_geo',
      function: 'geo_lookup',
      arguments: { country: 'France' },
      result: 'Paris',
    });
    const chain = of(events, 'span_begin')[2]!;
    expect(chain.metadata!['status']).toEqual({ code: 'ERROR', message: 'formatter crashed' });
    const retriever = of(events, 'span_begin')[1]!;
    expect(retriever.metadata!['attributes']).toMatchObject({
      'retrieval.documents.0.document.id': 'doc-1',
    });
  });
});

describe('otlp: inputs in the wild', () => {
  const span = (over: Record<string, unknown>) => ({
    traceId: '0af7651916cd43dd8448eb211c80319c',
    spanId: 'b7ad6b7169203331',
    name: 'op',
    startTimeUnixNano: '1780000000000000000',
    endTimeUnixNano: '1780000001000000000',
    ...over,
  });

  it('a flat array of spans, and a parsed value that stays untouched (frozen)', async () => {
    const spans = deepFreeze([
      span({ spanId: '0000000000000002', parentSpanId: '0000000000000001', name: 'child' }),
      span({ spanId: '0000000000000001', name: 'parent' }),
    ]);
    expect(isOtlp(spans)).toBe(true);
    const { events } = importOtlp(spans);
    expect(events.map((e) => `${e.event}:${(e as SpanBeginEvent).id}`)).toEqual([
      'span_begin:0000000000000001',
      'span_begin:0000000000000002',
      'span_end:0000000000000002',
      'span_end:0000000000000001',
    ]);
  });

  it('an orphan stays at the root with a diagnostic; a parent cycle does not hang', () => {
    const orphan = importOtlp([span({ parentSpanId: 'ffffffffffffffff' })]);
    expect(orphan.events[0]).toMatchObject({ event: 'span_begin', parent_id: null });
    expect(orphan.diagnostics.map((d) => d.code)).toEqual(['otlp_orphan_span']);
    const cycle = importOtlp([
      span({ spanId: '0000000000000001', parentSpanId: '0000000000000002' }),
      span({ spanId: '0000000000000002', parentSpanId: '0000000000000001' }),
    ]);
    expect(cycle.events.filter((e) => e.event === 'span_begin')).toHaveLength(2);
    expect(cycle.diagnostics.map((d) => d.code)).toContain('otlp_parent_cycle');
  });

  it('keeps records that are not spans as info events, and __proto__ keys as data', () => {
    const { events, diagnostics } = importOtlp([
      span({ attributes: [{ key: '__proto__', value: { stringValue: 'x' } }] }),
      { resourceSpans: [{ scopeSpans: [{ spans: [42] }] }] },
    ]);
    expect(diagnostics.map((d) => d.code)).toContain('wrong_type');
    const begin = events.find((e) => e.event === 'span_begin')!;
    const attributes = begin.metadata!['attributes'] as Record<string, unknown>;
    expect(Object.getPrototypeOf(attributes)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(attributes, '__proto__')?.value).toBe('x');
    const other = importOtlp('{"resourceSpans":[]}\n{"hello":1}\n');
    expect(other.events).toMatchObject([{ event: 'info', source: 'otlp', data: { hello: 1 } }]);
    expect(other.diagnostics.map((d) => d.code)).toContain('otlp_not_a_span');
  });

  it('a flattened attribute key of 20,000 segments nests no deeper than the value limit', () => {
    // OpenInference flattens messages into dotted keys; the importer rebuilds
    // them as objects, one level per segment.
    const deep = `llm.input_messages.0.message.extra.${'0.a.'.repeat(10_000)}x`;
    const attr = (key: string, v: string) => ({ key, value: { stringValue: v } });
    const { events } = importOtlp([
      span({
        attributes: [
          attr('openinference.span.kind', 'LLM'),
          attr('llm.input_messages.0.message.role', 'user'),
          attr('llm.input_messages.0.message.content', 'hello'),
          attr(deep, 'leaf'),
        ],
      }),
    ]);
    const [model] = of(events, 'model');
    expect(model!.input[0]).toMatchObject({ role: 'user', content: 'hello' });
    expect(() => structuredClone(events)).not.toThrow();
  });

  it('invalid JSON is an ImportError', async () => {
    await expect(importAny('{"resourceSpans": [', { format: 'otlp' })).rejects.toBeInstanceOf(
      ImportError,
    );
  });
});
