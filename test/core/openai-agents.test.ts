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
import { skeinTracingProcessor } from '../../src/core/import/openai-agents/processor.js';
import type { Event, ModelEvent, SpanBeginEvent, ToolEvent } from '../../src/core/events/types.js';

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
});
