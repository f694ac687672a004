// skeinTracingProcessor on the real OpenAI Agents SDK: real agents, tools, a
// handoff and guardrails run by the SDK's runner, their model calls answered by
// the SDK's own OpenAI models over an `openai` client whose `fetch` is a
// script (no network). Every span the processor sees is the SDK's.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { z } from 'zod';
import {
  Agent,
  BatchTraceProcessor,
  InputGuardrailTripwireTriggered,
  OpenAIChatCompletionsModel,
  OpenAIResponsesModel,
  run,
  setTraceProcessors,
  setTracingDisabled,
  tool,
  withCustomSpan,
  withTrace,
} from '@openai/agents';
import { EventStream } from '../../src/core/stream/event-stream.js';
import { detectFormat, importAny } from '../../src/core/import/index.js';
import { checkImport } from './helpers/import-check.js';
import { skeinTracingProcessor } from '../../src/core/import/openai-agents/processor.js';
import type { Event, ModelEvent, SpanBeginEvent, ToolEvent } from '../../src/core/events/types.js';
import { VALUE_CUT_MARKER } from '../../src/core/events/freeze.js';

/** An `openai` client whose requests are answered, in order, by `bodies` (recorded in `requests`). */
function scriptedClient(bodies: object[]): { client: OpenAI; requests: unknown[] } {
  const requests: unknown[] = [];
  const client = new OpenAI({
    apiKey: 'sk-test',
    baseURL: 'http://127.0.0.1:9/v1',
    maxRetries: 0,
    fetch: async (_url: unknown, init?: { body?: unknown }) => {
      const request = JSON.parse(String(init?.body)) as Record<string, unknown>;
      requests.push(request);
      const body = bodies.shift();
      if (body === undefined) return new Response('{"error":"no more"}', { status: 500 });
      // The API echoes the request's instructions and tools in its answer.
      const echo = { instructions: request['instructions'] ?? null, tools: request['tools'] ?? [] };
      return new Response(JSON.stringify({ ...echo, ...body }), {
        headers: { 'content-type': 'application/json' },
      });
    },
  });
  return { client, requests };
}

let n = 0;
/** A Responses API answer (https://platform.openai.com/docs/api-reference/responses/object). */
function response(output: object[], usage = { input: 20, output: 5 }): object {
  n++;
  return {
    id: `resp_${n}`,
    object: 'response',
    created_at: 1767225600 + n,
    model: 'gpt-test',
    status: 'completed',
    output,
    usage: {
      input_tokens: usage.input,
      output_tokens: usage.output,
      total_tokens: usage.input + usage.output,
      input_tokens_details: { cached_tokens: 4 },
      output_tokens_details: { reasoning_tokens: 0 },
    },
  };
}
const call = (name: string, args: object, id: string): object => ({
  type: 'function_call',
  id: `fc_${id}`,
  call_id: id,
  name,
  arguments: JSON.stringify(args),
  status: 'completed',
});
const say = (text: string): object => ({
  type: 'message',
  id: `msg_${++n}`,
  role: 'assistant',
  status: 'completed',
  content: [{ type: 'output_text', text, annotations: [] }],
});

const begins = (events: readonly Event[]): SpanBeginEvent[] =>
  events.filter((e): e is SpanBeginEvent => e.event === 'span_begin');
const models = (events: readonly Event[]): ModelEvent[] =>
  events.filter((e): e is ModelEvent => e.event === 'model');
const tools = (events: readonly Event[]): ToolEvent[] =>
  events.filter((e): e is ToolEvent => e.event === 'tool');

beforeEach(() => setTracingDisabled(false));
afterEach(() => {
  setTraceProcessors([]);
  setTracingDisabled(true);
});

describe('skeinTracingProcessor on @openai/agents', () => {
  it('maps a run with a guardrail, a handoff and a function tool, live', async () => {
    const { client, requests } = scriptedClient([
      response([call('transfer_to_Math', {}, 'call_handoff')]),
      response([call('add', { a: 2, b: 3 }, 'call_add')], { input: 30, output: 8 }),
      response([say('2 + 3 = 5')], { input: 40, output: 6 }),
    ]);
    const model = new OpenAIResponsesModel(client, 'gpt-test');
    const stream = new EventStream();
    const processor = skeinTracingProcessor(stream);
    setTraceProcessors([processor]);

    let seenDuringTool: readonly Event[] = [];
    const add = tool({
      name: 'add',
      description: 'Adds two numbers',
      parameters: z.object({ a: z.number(), b: z.number() }),
      execute: async ({ a, b }) => {
        // Let the processor's scheduled flush run: the view is live.
        await new Promise((resolve) => setTimeout(resolve, 0));
        seenDuringTool = stream.latest();
        return String(a + b);
      },
    });
    const math = new Agent({ name: 'Math', instructions: 'Do arithmetic.', model, tools: [add] });
    const triage = new Agent({
      name: 'Triage',
      instructions: 'Route the question.',
      model,
      handoffs: [math],
      inputGuardrails: [
        {
          name: 'no_secrets',
          execute: async () => ({ tripwireTriggered: false, outputInfo: { ok: true } }),
        },
      ],
    });

    const result = await run(triage, 'What is 2 + 3?');
    expect(result.finalOutput).toBe('2 + 3 = 5');
    expect(requests).toHaveLength(3);
    await new Promise((resolve) => setTimeout(resolve, 0));

    // While the tool ran, the stream already held the run so far: the open
    // agent span, the model call that asked for the tool, and the tool itself
    // pending under the model's call id.
    const during = seenDuringTool;
    const runningTool = tools(during).find((t) => t.function === 'add');
    expect(runningTool).toMatchObject({ id: 'call_add', pending: true });
    expect(begins(during).find((b) => b.name === 'Math')?.pending).toBe(true);
    expect(models(during).at(-1)?.output.choices[0]?.message.tool_calls?.[0]).toMatchObject({
      id: 'call_add',
      function: 'add',
      arguments: { a: 2, b: 3 },
    });

    const events = stream.latest();
    expect(events.every((e) => !e.pending)).toBe(true);
    const spans = begins(events);
    const trace = spans.find((b) => b.type === 'trace')!;
    expect(trace).toMatchObject({ name: 'Agent workflow', parent_id: null });
    const triageSpan = spans.find((b) => b.type === 'agent' && b.name === 'Triage')!;
    const mathSpan = spans.find((b) => b.type === 'agent' && b.name === 'Math')!;
    expect(triageSpan.metadata).toMatchObject({ handoffs: ['Math'] });
    expect(mathSpan.metadata).toMatchObject({ tools: ['add'] });
    // Every span ends, after it begins.
    for (const b of spans) {
      const end = events.find((e) => e.event === 'span_end' && e.span_id === b.id);
      expect(end, b.name).toBeDefined();
      expect(Date.parse(end!.timestamp)).toBeGreaterThanOrEqual(Date.parse(b.timestamp));
    }
    const guardrail = spans.find((b) => b.type === 'guardrail')!;
    expect(guardrail).toMatchObject({ name: 'no_secrets', metadata: { triggered: false } });

    // Three model calls, with the request, the answer and the usage the SDK saw.
    const calls = models(events);
    expect(calls).toHaveLength(3);
    expect(calls[0]!.input).toEqual([
      { role: 'system', content: 'Route the question.' },
      { role: 'user', content: 'What is 2 + 3?' },
    ]);
    expect(calls[1]!.output.usage).toEqual({
      input_tokens: 30,
      output_tokens: 8,
      total_tokens: 38,
      input_tokens_cache_read: 4,
    });
    expect(calls[2]!.output.completion).toBe('2 + 3 = 5');
    expect(calls[2]!.input.at(-1)).toMatchObject({
      role: 'tool',
      content: '5',
      tool_call_id: 'call_add',
    });
    expect(calls.map((c) => c.model)).toEqual(['gpt-test', 'gpt-test', 'gpt-test']);
    expect(calls[0]!.tools.map((t) => t.name)).toEqual(['transfer_to_Math']);

    // The handoff is the model's transfer call, leading to the Math agent's span.
    const [handoff, addTool] = tools(events);
    expect(handoff).toMatchObject({
      id: 'call_handoff',
      function: 'transfer_to_Math',
      agent: 'Math',
      agent_span_id: mathSpan.id,
    });
    expect(addTool).toMatchObject({
      id: 'call_add',
      function: 'add',
      arguments: { a: 2, b: 3 },
      result: '5',
    });
    expect(addTool!.metadata?.['skein_invented']).toBeUndefined();
    // Model and tool events sit in the span of the agent (or turn) that made them.
    const inMath = new Set<string>([mathSpan.id]);
    for (const b of spans) if (b.parent_id && inMath.has(b.parent_id)) inMath.add(b.id);
    expect(inMath.has(addTool!.span_id!)).toBe(true);
    expect(processor.diagnostics()).toEqual([]);
  });

  it('shows a tripped guardrail and the error it ends the agent with', async () => {
    const { client } = scriptedClient([response([say('never shown')])]);
    const stream = new EventStream();
    const processor = skeinTracingProcessor(stream);
    setTraceProcessors([processor]);
    const agent = new Agent({
      name: 'Guarded',
      model: new OpenAIResponsesModel(client, 'gpt-test'),
      inputGuardrails: [
        {
          name: 'no_secrets',
          runInParallel: false,
          execute: async () => ({ tripwireTriggered: true, outputInfo: { found: 'password' } }),
        },
      ],
    });
    await expect(run(agent, 'my password is hunter2')).rejects.toBeInstanceOf(
      InputGuardrailTripwireTriggered,
    );
    await processor.forceFlush();
    const events = stream.latest();
    const guardrail = begins(events).find((b) => b.type === 'guardrail')!;
    expect(guardrail.metadata).toMatchObject({ triggered: true });
    const info = events.find((e) => e.event === 'info' && e.span_id === guardrail.id);
    expect(info).toMatchObject({
      source: 'guardrail',
      data: 'Guardrail "no_secrets" triggered its tripwire',
    });
    const agentSpan = begins(events).find((b) => b.type === 'agent')!;
    const error = events.find((e) => e.event === 'error' && e.span_id === agentSpan.id);
    // The SDK's last word on the agent span (its runner overwrites the
    // tripwire's error with the run's).
    expect(error).toMatchObject({ error: { message: 'Error in agent run' } });
    // The run stopped, and every span it opened is closed.
    // (The SDK never ends a failed run's trace: its task span's error does.)
    expect(events.every((e) => !e.pending)).toBe(true);
    const ends = new Set(events.filter((e) => e.event === 'span_end').map((e) => e.span_id));
    for (const b of begins(events)) expect(ends.has(b.id), b.name).toBe(true);
  });

  it('maps Chat Completions generations, an agent used as a tool and custom spans, one stream per trace', async () => {
    // Chat Completions (https://platform.openai.com/docs/api-reference/chat/object).
    const completion = (message: object, finish: string): object => ({
      id: `chatcmpl_${++n}`,
      object: 'chat.completion',
      created: 1767225600,
      model: 'gpt-chat',
      choices: [{ index: 0, message, finish_reason: finish }],
      usage: { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 },
    });
    const toolCall = (id: string, name: string, args: object) => ({
      role: 'assistant',
      content: null,
      tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }],
    });
    const { client } = scriptedClient([
      completion(toolCall('call_ask', 'ask_expert', { input: 'Is 7 prime?' }), 'tool_calls'),
      completion(toolCall('call_check', 'check', { n: 7 }), 'tool_calls'),
      completion({ role: 'assistant', content: 'Yes, 7 is prime.' }, 'stop'),
      completion({ role: 'assistant', content: 'The expert says yes.' }, 'stop'),
    ]);
    const model = new OpenAIChatCompletionsModel(client, 'gpt-chat');
    const check = tool({
      name: 'check',
      description: 'Checks a number',
      parameters: z.object({ n: z.number() }),
      execute: async ({ n: x }) =>
        withCustomSpan(async () => (x === 7 ? 'prime' : 'composite'), {
          data: { name: 'sieve', data: { limit: 100 } },
        }),
    });
    const expert = new Agent({ name: 'Expert', model, tools: [check] });
    const lead = new Agent({
      name: 'Lead',
      model,
      tools: [expert.asTool({ toolName: 'ask_expert', toolDescription: 'Ask the expert' })],
    });
    const streams = new Map<string, EventStream>();
    const processor = skeinTracingProcessor((trace) => {
      const stream = new EventStream();
      streams.set(trace.traceId, stream);
      return stream;
    });
    setTraceProcessors([processor]);
    await withTrace('prime check', () => run(lead, 'Is 7 prime?'));

    expect(streams.size).toBe(1);
    const [stream] = [...streams.values()];
    expect(stream!.complete).toBe(true); // the trace's end closed its stream
    const events = stream!.latest();
    expect(begins(events)[0]).toMatchObject({ type: 'trace', name: 'prime check' });
    const calls = models(events);
    expect(calls).toHaveLength(4);
    expect(calls[0]!.model).toBe('gpt-chat');
    expect(calls[0]!.input).toEqual([{ role: 'user', content: 'Is 7 prime?' }]);
    expect(calls[0]!.output.choices[0]).toMatchObject({
      stop_reason: 'tool_calls',
      message: { tool_calls: [{ id: 'call_ask', function: 'ask_expert' }] },
    });
    expect(calls[0]!.output.usage).toEqual({
      input_tokens: 12,
      output_tokens: 3,
      total_tokens: 15,
    });
    expect(calls[2]!.output.completion).toBe('Yes, 7 is prime.');

    const expertSpan = begins(events).find((b) => b.type === 'agent' && b.name === 'Expert')!;
    const [ask, checkTool] = tools(events);
    // The agent the tool ran is its sub-agent.
    expect(ask).toMatchObject({
      id: 'call_ask',
      function: 'ask_expert',
      agent_span_id: expertSpan.id,
      result: 'Yes, 7 is prime.',
    });
    expect(checkTool).toMatchObject({ id: 'call_check', arguments: { n: 7 }, result: 'prime' });
    const custom = begins(events).find((b) => b.type === 'custom')!;
    expect(custom.name).toBe('sieve');
    expect(events.find((e) => e.event === 'info' && e.span_id === custom.id)).toMatchObject({
      data: { limit: 100 },
    });
    expect(processor.diagnostics()).toEqual([]);
  });

  it("gives the same run from the SDK's own exporter, imported", async () => {
    const answers = [response([call('add', { a: 1, b: 1 }, 'call_1')]), response([say('2')])];
    const ids = answers.map((a) => (a as { id: string }).id);
    const { client } = scriptedClient(answers);
    const add = tool({
      name: 'add',
      description: 'Adds',
      parameters: z.object({ a: z.number(), b: z.number() }),
      execute: async ({ a, b }) => String(a + b),
    });
    const agent = new Agent({
      name: 'Adder',
      model: new OpenAIResponsesModel(client, 'gpt-test'),
      tools: [add],
    });
    const lines: string[] = [];
    const exporter = new BatchTraceProcessor({
      export: async (items) => {
        for (const item of items) lines.push(JSON.stringify(item.toJSON()));
      },
    });
    const stream = new EventStream();
    setTraceProcessors([skeinTracingProcessor(stream), exporter]);
    await run(agent, '1 + 1?');
    await exporter.forceFlush();
    await new Promise((resolve) => setTimeout(resolve, 0));

    const text = lines.join('\n') + '\n';
    expect(detectFormat(text).format).toBe('openai-agents');
    const imported = await checkImport(text, 'openai-agents', { filename: 'trace.jsonl' });
    expect(imported.diagnostics.filter((d) => d.severity === 'warning')).toEqual([]);
    // The same structure, ids and tool calls; an export has no model messages
    // (the SDK leaves a response span's `_input`/`_response` out of it), so
    // no tool-call ids either: a tool's id is its span's, flagged as invented.
    const shape = (events: readonly Event[]) =>
      events.map((e) =>
        e.event === 'span_begin'
          ? [e.event, e.uuid, (e as SpanBeginEvent).name, (e as SpanBeginEvent).parent_id]
          : e.event === 'tool'
            ? [
                e.event,
                e.uuid,
                e.span_id,
                (e as ToolEvent).function,
                (e as ToolEvent).arguments,
                (e as ToolEvent).result,
              ]
            : [e.event, e.uuid, e.span_id],
      );
    expect(shape(imported.events)).toEqual(shape(stream.latest()));
    const [importedTool] = tools(imported.events);
    expect(importedTool!.id).toBe(importedTool!.metadata?.['span_id']);
    expect(importedTool!.metadata?.['skein_invented']).toEqual(['id']);
    expect(tools(stream.latest())[0]!.id).toBe('call_1');
    expect(models(imported.events).map((m) => m.call_id)).toEqual(ids);
  });
});

describe('importOpenAiAgentsTrace', () => {
  // The Python SDK's exporter writes `span.export()` with the same fields,
  // microsecond times with an offset, and a generation's output as the
  // messages themselves (no Python runtime here: written from its
  // `span_data.py`, `traces.py`).
  const py = [
    {
      object: 'trace',
      id: 'trace_py',
      workflow_name: 'py workflow',
      group_id: 'g1',
      metadata: null,
    },
    {
      object: 'trace.span',
      id: 'span_gen',
      trace_id: 'trace_py',
      parent_id: 'span_agent',
      started_at: '2026-01-01T10:00:00.100000+00:00',
      ended_at: '2026-01-01T10:00:01.000000+00:00',
      span_data: {
        type: 'generation',
        input: [{ role: 'user', content: 'weather in Paris?' }],
        output: [
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_w',
                type: 'function',
                function: { name: 'weather', arguments: '{"city":"Paris"}' },
              },
            ],
          },
        ],
        model: 'gpt-4o',
        model_config: { temperature: 0.2 },
        usage: { input_tokens: 11, output_tokens: 7 },
      },
      error: null,
    },
    {
      object: 'trace.span',
      id: 'span_fn',
      trace_id: 'trace_py',
      parent_id: 'span_agent',
      started_at: '2026-01-01T10:00:01.100000+00:00',
      ended_at: '2026-01-01T10:00:01.200000+00:00',
      span_data: {
        type: 'function',
        name: 'weather',
        input: '{"city":"Paris"}',
        output: 'sunny',
        mcp_data: null,
      },
      error: { message: 'slow', data: { ms: 100 } },
    },
    {
      object: 'trace.span',
      id: 'span_agent',
      trace_id: 'trace_py',
      parent_id: null,
      started_at: '2026-01-01T10:00:00.000000+00:00',
      ended_at: '2026-01-01T10:00:02.000000+00:00',
      span_data: {
        type: 'agent',
        name: 'Weather',
        handoffs: [],
        tools: ['weather'],
        output_type: 'str',
      },
      error: null,
    },
  ];

  it('reads the Python SDK export, children before parents', async () => {
    const r = await checkImport(JSON.stringify(py), 'openai-agents', { filename: 'trace.json' });
    expect(r.dump).toContain('model gpt-4o');
    const [model] = models(r.events);
    expect(model).toMatchObject({
      model: 'gpt-4o',
      config: { temperature: 0.2 },
      span_id: 'span_agent',
      output: { usage: { input_tokens: 11, output_tokens: 7, total_tokens: 18 } },
    });
    const [weather] = tools(r.events);
    expect(weather).toMatchObject({
      id: 'call_w',
      function: 'weather',
      arguments: { city: 'Paris' },
      result: 'sunny',
      error: { message: 'slow' },
      span_id: 'span_agent',
    });
    // Parents first, and the trace spans its spans.
    expect(begins(r.events).map((b) => b.name)).toEqual(['py workflow', 'Weather']);
    expect(r.events[0]!.timestamp).toBe('2026-01-01T10:00:00.000000+00:00');
    expect(r.events.at(-1)).toMatchObject({
      event: 'span_end',
      timestamp: '2026-01-01T10:00:02.000000+00:00',
    });
    // The same as JSON Lines and as the ingest body.
    const lines = py.map((x) => JSON.stringify(x)).join('\n');
    expect((await importAny(lines)).events).toEqual(r.events);
    expect((await importAny({ data: py })).events).toEqual(r.events);
  });

  it('keeps what it cannot read as diagnostics', async () => {
    const r = await importAny([...py, { object: 'trace.span', id: 'x' }, 42], {
      format: 'openai-agents',
    });
    expect(r.diagnostics.map((d) => [d.code, d.path])).toEqual([
      ['openai_agents_not_a_record', '$[4]'],
      ['openai_agents_not_a_record', '$[5]'],
    ]);
    const orphan = await importAny([{ ...py[2]!, parent_id: 'span_gone' }], {
      format: 'openai-agents',
    });
    expect(orphan.diagnostics.map((d) => d.code)).toContain('openai_agents_orphan_span');
    expect(tools(orphan.events)[0]!.span_id).toBe('trace_py');
  });

  it('a chain 10,000 spans deep (children first) and a 10,000-span parent cycle', async () => {
    const n = 10_000;
    const t0 = Date.parse('2026-01-01T00:00:00Z');
    const at = (ms: number) => new Date(t0 + ms).toISOString();
    const span = (i: number, parent: string | null, start: number, end: number) =>
      JSON.stringify({
        object: 'trace.span',
        id: `span_${i}`,
        trace_id: 'trace_1',
        parent_id: parent,
        started_at: at(start),
        ended_at: at(end),
        span_data: { type: 'custom', name: `s${i}`, data: {} },
      });
    const trace = JSON.stringify({ object: 'trace', id: 'trace_1', workflow_name: 'deep' });
    // As the SDK writes them: each span when it ends, the innermost first.
    const deep = [trace];
    for (let i = n - 1; i >= 0; i--) deep.push(span(i, i ? `span_${i - 1}` : null, i, 2 * n - i));
    const r = await importAny(deep.join('\n'));
    expect(r.diagnostics).toEqual([]);
    const opened = begins(r.events);
    expect(opened).toHaveLength(n + 1);
    const parentOf = new Map(opened.map((b) => [b.id, b.parent_id]));
    let depth = 0;
    for (let id: string | null | undefined = `span_${n - 1}`; id; id = parentOf.get(id)) depth++;
    expect(depth).toBe(n + 1); // every span, then the trace
    // Ends innermost first, each after everything inside it.
    const ends = r.events
      .filter((e) => e.event === 'span_end')
      .map((e) => (e as { id: string }).id);
    expect(ends.slice(0, 3)).toEqual([`span_${n - 1}`, `span_${n - 2}`, `span_${n - 3}`]);

    const cycle = [trace];
    for (let i = 0; i < n; i++) cycle.push(span(i, `span_${(i + 1) % n}`, i, n + i));
    const c = await importAny(cycle.join('\n'));
    expect(begins(c.events)).toHaveLength(n + 1);
    expect(c.events.filter((e) => e.event === 'span_end')).toHaveLength(n + 1);
    expect(c.diagnostics.map((d) => d.code)).toContain('openai_agents_orphan_span');
  });

  it('a function output nested 10,000 deep: its text cut at the depth limit, and reported', async () => {
    // JSON.stringify overflows the stack on it: the result was a placeholder, unreported.
    let output: unknown = 'leaf';
    for (let i = 0; i < 10_000; i++) output = i % 2 ? [output] : { d: output };
    const r = await importAny(
      [py[0]!, { ...py[2]!, parent_id: null, span_data: { type: 'function', name: 'f', output } }],
      { format: 'openai-agents' },
    );
    const result = tools(r.events)[0]!.result as string;
    expect(result.startsWith('[{"d":[{"d":')).toBe(true);
    expect(result).toContain(VALUE_CUT_MARKER);
    expect(r.diagnostics.map((d) => d.code)).toContain('value_too_deep');
  });

  it('a tool output in a generation’s messages and a span error’s data nested 10,000 deep: cut and reported', async () => {
    // Both went through a JSON text that gave a placeholder, unreported.
    let deep: unknown = 'leaf';
    for (let i = 0; i < 10_000; i++) deep = i % 2 ? [deep] : { d: deep };
    const generation = {
      ...py[2]!,
      parent_id: null,
      span_data: {
        type: 'generation',
        model: 'm',
        input: [{ type: 'function_call_result', call_id: 'c1', name: 'f', output: { top: deep } }],
      },
    };
    const failing = {
      ...py[2]!,
      id: 'span_failing',
      parent_id: null,
      span_data: { type: 'custom', name: 'boom', data: {} },
      error: { message: 'failed', data: { detail: deep } },
    };
    for (const span of [generation, failing]) {
      const r = await importAny([py[0]!, span], { format: 'openai-agents' });
      expect(r.diagnostics.map((d) => d.code)).toContain('value_too_deep');
      const text =
        span === generation
          ? (models(r.events)[0]!.input.find((m) => m.role === 'tool')!.content as string)
          : (r.events.find((e) => e.event === 'error') as { error: { traceback: string } }).error
              .traceback;
      expect(text).toContain(VALUE_CUT_MARKER);
      expect(
        text
          .replace(/\s/g, '')
          .startsWith(span === generation ? '{"top":[{"d":' : '{"detail":[{"d":'),
      ).toBe(true);
    }
  });
});

describe('skeinTracingProcessor: what it copies', () => {
  // Span data as a JS program may hold it (the SDK passes the user's values
  // through): the processor's copy must be what the JSON export of the span
  // holds, whatever JSON does to each value.
  const odd = (): Record<string, unknown> => ({
    type: 'custom',
    name: 'odd',
    data: {
      when: new Date(Date.UTC(2026, 0, 1)),
      gone: undefined,
      fn: () => 1,
      nan: Number.NaN,
      negativeZero: -0,
      list: [1, undefined, () => 2, Number.POSITIVE_INFINITY, { deep: [null, true, 'x'] }],
      own: { toJSON: () => 'as JSON' },
      plain: { a: 1, nested: { b: [2, 3] } },
      ...JSON.parse('{"__proto__": {"p": 1}}'),
    },
  });

  const eventsOf = (data: Record<string, unknown>): unknown => {
    const stream = new EventStream();
    const processor = skeinTracingProcessor(stream, { schedule: () => {}, now: () => 0 });
    const span = {
      spanId: 'span_odd',
      traceId: 'trace_odd',
      parentId: null,
      startedAt: '2026-01-01T00:00:00.000Z',
      endedAt: '2026-01-01T00:00:01.000Z' as string | null,
      error: null,
      spanData: data as { type: string },
    };
    void processor.onTraceStart({ traceId: 'trace_odd', name: 'odd' });
    void processor.onSpanStart(span);
    void processor.onSpanEnd(span);
    void processor.onTraceEnd({ traceId: 'trace_odd', name: 'odd' });
    return stream.toArray();
  };

  // Plain data, with what JSON drops (undefined members) and keeps as data
  // (an own "__proto__" key).
  const plain = (): Record<string, unknown> => ({
    type: 'custom',
    name: 'plain',
    data: {
      gone: undefined,
      list: [1, { x: undefined, y: 'kept' }, [[]]],
      plain: { a: 1, nested: { b: [2, 3] } },
      ...JSON.parse('{"__proto__": {"p": 1}}'),
    },
  });

  it.each([
    ['odd', odd, '"own":"as JSON"'],
    ['plain', plain, '"__proto__":{"p":1}'],
  ] as const)(
    'copies %s span data as its JSON export holds it, and never shares it',
    (_, make, shown) => {
      const data = make();
      const events = eventsOf(data);
      expect(events).toEqual(
        eventsOf(JSON.parse(JSON.stringify(make())) as Record<string, unknown>),
      );
      const custom = (events as Event[]).find(
        (e) => e.event === 'span_begin' && e.id === 'span_odd',
      );
      expect(JSON.stringify(custom)).toContain(shown);
      expect(JSON.stringify(custom)).not.toContain('"gone"');
      expect(Object.isFrozen(data['data'])).toBe(false);
      (data['data'] as Record<string, Record<string, number>>)['plain']!['a'] = 2;
      expect(JSON.stringify(events)).not.toContain('"a":2');
    },
  );
});
