// The OTLP/HTTP receiver with the clients agents run: the OpenTelemetry JS
// SDK's OTLP exporters (protobuf and JSON, traces and logs, gzip or not),
// the Vercel AI SDK's telemetry in a tool-calling loop, and OpenInference /
// OpenLLMetry attribute sets from their published convention packages, all
// sending to the receiver on 127.0.0.1. The runs' events are compared with
// what the SDK did; a connected `connectEventStream` client follows a run.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { context, SpanStatusCode, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPLogExporter as JsonLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { OTLPLogExporter as ProtoLogExporter } from '@opentelemetry/exporter-logs-otlp-proto';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import type { ExportResult } from '@opentelemetry/core';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  SimpleSpanProcessor,
  type ReadableSpan,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';
import {
  OpenInferenceSpanKind,
  SemanticConventions as OI,
} from '@arizeai/openinference-semantic-conventions';
import { SpanAttributes as TL, TraceloopSpanKindValues } from '@traceloop/ai-semantic-conventions';
import { generateText, stepCountIs, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  connectEventStream,
  createOtlpRunRegistry,
  type Event,
  type OtlpRunRegistry,
} from '../../src/index.js';
import {
  createOtlpHandler,
  createOtlpRunsHandler,
  type OtlpHandler,
  type OtlpRunsHandler,
} from '../../src/server.js';
import { idsOf, otelSdk, startNanos, under } from '../helpers/otel-sdk.js';

interface Receiver {
  url: string;
  registry: OtlpRunRegistry;
  otlp: OtlpHandler;
  runs: OtlpRunsHandler;
  stop(): Promise<void>;
}

async function receiver(): Promise<Receiver> {
  const registry = createOtlpRunRegistry();
  const otlp = createOtlpHandler(registry);
  const runs = createOtlpRunsHandler(registry, { live: { compression: false } });
  const server = http.createServer((req, res) =>
    (runs.handles(req.url ?? '/') ? runs : otlp)(req, res),
  );
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    registry,
    otlp,
    runs,
    async stop() {
      await runs.close();
      await otlp.close();
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}

function exportSpans(exporter: SpanExporter, spans: ReadableSpan[]): Promise<ExportResult> {
  return new Promise((resolve) => exporter.export(spans, resolve));
}

const byUuid = (events: readonly Event[]) => {
  const m = new Map<string, Event>();
  for (const e of events) m.set(e.uuid, e);
  return [...m.values()];
};

let rx: Receiver;
beforeAll(async () => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  rx = await receiver();
});
afterAll(async () => {
  await rx.stop();
  context.disable();
});
afterEach(() => rx.registry.flush());

/** The agent run of the registry tests: invoke_agent → chat (a tool call) → execute_tool. */
function agentSpans(tracer: Tracer, status?: 'error') {
  const root = tracer.startSpan('invoke_agent support', {
    attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'support' },
  });
  const chat = tracer.startSpan(
    'chat gpt-4o',
    {
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.request.model': 'gpt-4o',
        'gen_ai.usage.input_tokens': 120,
        'gen_ai.usage.output_tokens': 9,
        'gen_ai.input.messages': JSON.stringify([
          { role: 'user', parts: [{ type: 'text', content: 'Where is order 7?' }] },
        ]),
        'gen_ai.output.messages': JSON.stringify([
          {
            role: 'assistant',
            parts: [{ type: 'tool_call', id: 'call_7', name: 'lookup', arguments: { id: 7 } }],
          },
        ]),
      },
    },
    under(root),
  );
  chat.end();
  const exec = tracer.startSpan(
    'execute_tool lookup',
    {
      attributes: {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.call.id': 'call_7',
        'gen_ai.tool.call.result': 'in transit',
      },
    },
    under(root),
  );
  if (status === 'error') exec.setStatus({ code: SpanStatusCode.ERROR, message: 'lookup failed' });
  exec.end();
  root.end();
  return { root, chat, exec };
}

describe('the OTLP exporters of the OpenTelemetry JS SDK', () => {
  for (const [name, make] of [
    ['protobuf', () => new ProtoTraceExporter({ url: `${rx.url}/v1/traces` })],
    [
      'protobuf, gzip',
      () => new ProtoTraceExporter({ url: `${rx.url}/v1/traces`, compression: 'gzip' as never }),
    ],
    ['JSON', () => new JsonTraceExporter({ url: `${rx.url}/v1/traces` })],
    [
      'JSON, gzip',
      () => new JsonTraceExporter({ url: `${rx.url}/v1/traces`, compression: 'gzip' as never }),
    ],
  ] as const) {
    it(`export traces (${name}) that become a run with the SDK's spans, ids and exact times`, async () => {
      const sdk = otelSdk('support-agent');
      const { root, chat } = agentSpans(sdk.tracer, 'error');
      const spans = sdk.spans();
      const exporter = make();
      const result = await exportSpans(exporter, spans);
      expect(result.code, String(result.error)).toBe(0);
      rx.registry.flush();
      const id = `trace:${idsOf(root as never).traceId}`;
      const run = rx.registry.get(id)!;
      expect(run.info).toMatchObject({
        spans: 3,
        errors: 1,
        service: 'support-agent',
        name: 'invoke_agent support',
      });
      rx.registry.end(id);
      const events = run.stream.latest();
      expect(events.map((e) => e.event)).toEqual(['span_begin', 'model', 'tool', 'span_end']);
      const model = events[1] as Extract<Event, { event: 'model' }>;
      const chatSpan = spans.find((s) => s.name === 'chat gpt-4o')!;
      expect(model.metadata).toMatchObject({
        span_id: idsOf(chat as never).spanId,
        trace_id: idsOf(chat as never).traceId,
        start_time_unix_nano: startNanos(chatSpan),
      });
      expect(model.input).toEqual([{ role: 'user', content: 'Where is order 7?' }]);
      expect(model.output.usage).toMatchObject({ input_tokens: 120, output_tokens: 9 });
      expect(events[2]).toMatchObject({
        event: 'tool',
        id: 'call_7',
        function: 'lookup',
        arguments: { id: 7 },
        result: 'in transit',
        failed: true,
        error: { message: 'lookup failed' },
      });
      // Nesting: the model and tool calls sit in the agent's span.
      expect(events[1]!.span_id).toBe((events[0] as { id: string }).id);
      await exporter.shutdown();
    });
  }

  for (const [name, make] of [
    ['protobuf', () => new ProtoLogExporter({ url: `${rx.url}/v1/logs` })],
    ['JSON', () => new JsonLogExporter({ url: `${rx.url}/v1/logs` })],
  ] as const) {
    it(`export logs (${name}): GenAI events join their span, Claude Code events their session`, async () => {
      const sdk = otelSdk('claude-code', { 'session.id': `sess-${name}` });
      const chat = sdk.tracer.startSpan('chat claude', {
        attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'claude' },
      });
      sdk.logger.emit({
        eventName: 'gen_ai.user.message',
        body: { content: 'hi' },
        context: under(chat),
      });
      sdk.logger.emit({
        eventName: 'gen_ai.choice',
        body: { index: 0, finish_reason: 'stop', message: { content: 'hello!' } },
        context: under(chat),
      });
      sdk.logger.emit({
        body: 'claude_code.api_request',
        attributes: {
          'event.name': 'api_request',
          model: 'claude-x',
          input_tokens: '10',
          output_tokens: '2',
          duration_ms: '900',
        },
      });
      chat.end();
      const exporter = make();
      const records = await sdk.logs();
      const result = await new Promise<ExportResult>((done) => exporter.export(records, done));
      expect(result.code, String(result.error)).toBe(0);
      // The logs came first; the span joins them (the resource names the session).
      await exportSpans(new ProtoTraceExporter({ url: `${rx.url}/v1/traces` }), sdk.spans());
      rx.registry.flush();
      const id = `session:sess-${name}`;
      const run = rx.registry.get(id)!;
      expect(run.info).toMatchObject({ kind: 'session', spans: 1, logs: 3 });
      rx.registry.end(id);
      const events = run.stream.latest();
      const models = events.filter((e) => e.event === 'model') as Extract<
        Event,
        { event: 'model' }
      >[];
      expect(models).toHaveLength(2);
      const chatModel = models.find((m) => m.model === 'claude')!;
      expect(chatModel.input).toEqual([{ role: 'user', content: 'hi' }]);
      expect(chatModel.output.choices[0]!.message.content).toBe('hello!');
      const request = models.find((m) => m.model === 'claude-x')!;
      expect(request.output.usage).toMatchObject({ input_tokens: 10, output_tokens: 2 });
      expect(request.working_time).toBe(0.9);
      await exporter.shutdown();
    });
  }
});

describe('the Vercel AI SDK with experimental_telemetry', () => {
  it('runs a tool-calling loop whose run shows its model calls, tool calls, usage, errors and nesting', async () => {
    const exporter = new ProtoTraceExporter({ url: `${rx.url}/v1/traces` });
    const provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ 'service.name': 'ai-sdk-agent' }),
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    const tracer = provider.getTracer('ai');
    const usage = (input: number, output: number) => ({
      inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: output, text: output, reasoning: undefined },
    });
    const model = new MockLanguageModelV3({
      modelId: 'mock-model',
      doGenerate: [
        {
          content: [
            {
              type: 'tool-call',
              toolCallId: 'tc-1',
              toolName: 'weather',
              input: '{"city":"Paris"}',
            },
            { type: 'tool-call', toolCallId: 'tc-2', toolName: 'forecast', input: '{"days":3}' },
          ],
          finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
          usage: usage(30, 12),
          warnings: [],
        },
        {
          content: [{ type: 'text', text: 'It is sunny in Paris.' }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage: usage(55, 7),
          warnings: [],
        },
      ],
    });
    const result = await generateText({
      model,
      prompt: 'What is the weather in Paris?',
      tools: {
        weather: tool({
          description: 'The weather in a city',
          inputSchema: z.object({ city: z.string() }),
          execute: async ({ city }) => ({ city, sky: 'sunny', celsius: 21 }),
        }),
        forecast: tool({
          description: 'A forecast',
          inputSchema: z.object({ days: z.number() }),
          execute: async ({ days }): Promise<{ days: number }> => {
            throw new Error(`forecast service down (${days} days)`);
          },
        }),
      },
      stopWhen: stepCountIs(3),
      experimental_telemetry: { isEnabled: true, tracer, functionId: 'weather-agent' },
    });
    expect(result.text).toBe('It is sunny in Paris.');
    await provider.forceFlush();
    rx.registry.flush();
    const info = rx.registry.getSnapshot().runs.find((r) => r.service === 'ai-sdk-agent')!;
    expect(info).toMatchObject({ name: 'ai.generateText', held: 0 });
    rx.registry.end(info.id);
    const events = byUuid(rx.registry.get(info.id)!.stream.toArray());
    const root = events.find(
      (e) => e.event === 'span_begin' && (e as { name: string }).name === 'ai.generateText',
    )!;
    const rootId = (root as { id: string }).id;
    const models = events.filter((e) => e.event === 'model') as Extract<
      Event,
      { event: 'model' }
    >[];
    const tools = events.filter((e) => e.event === 'tool') as Extract<Event, { event: 'tool' }>[];
    // Two model calls, as the SDK made, with their usage and what they said.
    expect(models).toHaveLength(2);
    expect(models.map((m) => m.model)).toEqual(['mock-model', 'mock-model']);
    expect(models.map((m) => m.output.usage?.input_tokens)).toEqual([30, 55]);
    expect(models.map((m) => m.output.usage?.output_tokens)).toEqual([12, 7]);
    expect(
      models[0]!.output.choices[0]!.message.tool_calls?.map((c) => [c.id, c.function, c.arguments]),
    ).toEqual([
      ['tc-1', 'weather', { city: 'Paris' }],
      ['tc-2', 'forecast', { days: 3 }],
    ]);
    expect(models[1]!.output.completion).toBe('It is sunny in Paris.');
    expect(models[0]!.input.at(-1)).toMatchObject({ role: 'user' });
    // The tool calls: arguments, the result, and the failure.
    const weather = tools.find((t) => t.id === 'tc-1')!;
    expect(weather).toMatchObject({ function: 'weather', arguments: { city: 'Paris' } });
    expect(JSON.parse(weather.result as string)).toEqual({
      city: 'Paris',
      sky: 'sunny',
      celsius: 21,
    });
    const forecast = tools.find((t) => t.id === 'tc-2')!;
    expect(forecast).toMatchObject({ function: 'forecast', failed: true });
    expect(forecast.error?.message).toMatch(/forecast service down/);
    // Nesting: every call is inside the generateText span (its doGenerate steps too).
    for (const e of [...models, ...tools]) {
      let at: string | null | undefined = e.span_id;
      const chain: string[] = [];
      while (at && at !== rootId) {
        chain.push(at);
        const parent = events.find(
          (x) => x.event === 'span_begin' && (x as { id: string }).id === at,
        );
        at = (parent as { parent_id?: string | null } | undefined)?.parent_id;
        if (chain.length > 10) break;
      }
      expect(at, `${e.event} ${e.uuid}`).toBe(rootId);
    }
    // In order: the first model call, then its tools, then the second.
    const order = events
      .filter((e) => e.event === 'model' || e.event === 'tool')
      .map((e) => e.uuid);
    expect(order.indexOf(models[0]!.uuid)).toBeLessThan(order.indexOf(weather.uuid));
    expect(order.indexOf(weather.uuid)).toBeLessThan(order.indexOf(models[1]!.uuid));
    await provider.shutdown();
  });
});

describe('OpenInference and OpenLLMetry attribute sets', () => {
  it('map to model and tool events through the receiver', async () => {
    const sdk = otelSdk('oi-agent');
    const agent = sdk.tracer.startSpan('agent', {
      attributes: {
        [OI.OPENINFERENCE_SPAN_KIND]: OpenInferenceSpanKind.AGENT,
        [OI.SESSION_ID]: 'oi-session',
      },
    });
    sdk.tracer
      .startSpan(
        'llm',
        {
          attributes: {
            [OI.OPENINFERENCE_SPAN_KIND]: OpenInferenceSpanKind.LLM,
            [OI.LLM_MODEL_NAME]: 'gpt-4.1',
            [`${OI.LLM_INPUT_MESSAGES}.0.${OI.MESSAGE_ROLE}`]: 'user',
            [`${OI.LLM_INPUT_MESSAGES}.0.${OI.MESSAGE_CONTENT}`]: 'Add 2 and 3',
            [`${OI.LLM_OUTPUT_MESSAGES}.0.${OI.MESSAGE_ROLE}`]: 'assistant',
            [`${OI.LLM_OUTPUT_MESSAGES}.0.${OI.MESSAGE_TOOL_CALLS}.0.${OI.TOOL_CALL_ID}`]: 'add-1',
            [`${OI.LLM_OUTPUT_MESSAGES}.0.${OI.MESSAGE_TOOL_CALLS}.0.${OI.TOOL_CALL_FUNCTION_NAME}`]:
              'add',
            [`${OI.LLM_OUTPUT_MESSAGES}.0.${OI.MESSAGE_TOOL_CALLS}.0.${OI.TOOL_CALL_FUNCTION_ARGUMENTS_JSON}`]:
              '{"a":2,"b":3}',
            [OI.LLM_TOKEN_COUNT_PROMPT]: 40,
            [OI.LLM_TOKEN_COUNT_COMPLETION]: 6,
          },
        },
        under(agent),
      )
      .end();
    sdk.tracer
      .startSpan(
        'add',
        {
          attributes: {
            [OI.OPENINFERENCE_SPAN_KIND]: OpenInferenceSpanKind.TOOL,
            [OI.TOOL_NAME]: 'add',
            [OI.TOOL_CALL_ID]: 'add-1',
            [OI.OUTPUT_VALUE]: '5',
          },
        },
        under(agent),
      )
      .end();
    agent.end();
    const workflow = sdk.tracer.startSpan('checkout.workflow', {
      attributes: {
        [TL.TRACELOOP_SPAN_KIND]: TraceloopSpanKindValues.WORKFLOW,
        [TL.TRACELOOP_WORKFLOW_NAME]: 'checkout',
        [TL.TRACELOOP_ENTITY_NAME]: 'checkout',
      },
    });
    sdk.tracer
      .startSpan(
        'charge.tool',
        {
          attributes: {
            [TL.TRACELOOP_SPAN_KIND]: TraceloopSpanKindValues.TOOL,
            [TL.TRACELOOP_ENTITY_NAME]: 'charge',
            [TL.TRACELOOP_ENTITY_INPUT]: JSON.stringify({ amount: 12 }),
            [TL.TRACELOOP_ENTITY_OUTPUT]: JSON.stringify({ ok: true }),
          },
        },
        under(workflow),
      )
      .end();
    workflow.end();
    await exportSpans(new ProtoTraceExporter({ url: `${rx.url}/v1/traces` }), sdk.spans());
    rx.registry.flush();
    rx.registry.end('session:oi-session');
    const oi = rx.registry.get('session:oi-session')!.stream.latest();
    const model = oi.find((e) => e.event === 'model') as Extract<Event, { event: 'model' }>;
    expect(model).toMatchObject({ model: 'gpt-4.1' });
    expect(model.input).toEqual([{ role: 'user', content: 'Add 2 and 3' }]);
    expect(model.output.usage).toMatchObject({ input_tokens: 40, output_tokens: 6 });
    expect(oi.find((e) => e.event === 'tool')).toMatchObject({
      id: 'add-1',
      function: 'add',
      arguments: { a: 2, b: 3 },
      result: '5',
    });
    const tl = rx.registry.getSnapshot().runs.find((r) => r.name === 'checkout.workflow')!;
    rx.registry.end(tl.id);
    const tlEvents = rx.registry.get(tl.id)!.stream.latest();
    expect(tlEvents[0]).toMatchObject({ event: 'span_begin', type: 'workflow', name: 'checkout' });
    expect(tlEvents.find((e) => e.event === 'tool')).toMatchObject({
      function: 'charge',
      arguments: { amount: 12 },
      result: JSON.stringify({ ok: true }),
    });
  });
});

describe('a run followed live', () => {
  it('reaches a connectEventStream client as its spans arrive, through the runs API', async () => {
    const sdk = otelSdk('live-agent');
    const exporter = new ProtoTraceExporter({ url: `${rx.url}/v1/traces` });
    // The first span of the trace opens the run.
    const root = sdk.tracer.startSpan('invoke_agent live');
    const first = sdk.tracer.startSpan('step 1', {}, under(root));
    first.end();
    root.end();
    const spans = sdk.spans();
    await exportSpans(exporter, spans);
    rx.registry.flush();
    const id = `trace:${idsOf(root as never).traceId}`;
    const list = (await (await fetch(`${rx.url}/api/runs`)).json()) as {
      runs: { id: string; url: string }[];
    };
    const entry = list.runs.find((r) => r.id === id)!;
    expect(entry.url).toBe(`/api/runs/${encodeURIComponent(id)}/events`);
    const client = connectEventStream(`${rx.url}${entry.url}`);
    try {
      await until(() => client.stream.latest().some((e) => e.event === 'span_begin'));
      // More of the same trace, later: it reaches the client too.
      const late = sdk.tracer.startSpan('step 2', {}, under(root));
      late.end();
      await exportSpans(exporter, sdk.spans());
      await until(() =>
        client.stream
          .latest()
          .some((e) => e.event === 'span_begin' && (e as { name: string }).name === 'step 2'),
      );
      expect(client.stream.latest().filter((e) => e.event === 'span_begin')).toHaveLength(3);
    } finally {
      client.close();
      await exporter.shutdown();
    }
  });
});

async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const t0 = Date.now();
  while (!check()) {
    if (Date.now() - t0 > ms) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}
