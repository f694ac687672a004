/**
 * The agent runs the OTLP benches send: made by the OpenTelemetry JS SDK's
 * tracer, as an instrumented agent makes them, and cut into the batches its
 * `BatchSpanProcessor` exports.
 */
import { ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';

/** Runs × spans per run, as the bench rows name it (`5000x10`). */
export interface RunShape {
  runs: number;
  /** 1 + 3k: a root, then k steps of a model call, a tool and the tool's HTTP call. */
  spansPerRun: number;
  /**
   * Each agent process's runs are the traces of one conversation
   * (`gen_ai.conversation.id`): a long session that grows a trace at a time.
   */
  conversations?: boolean;
}

export const shapeLabel = (s: RunShape): string =>
  `${s.runs}x${s.spansPerRun}${s.conversations ? '-conversations' : ''}`;

/**
 * `runs` agent runs (a trace each) of `spansPerRun` spans: an `invoke_agent`
 * root and `(spansPerRun - 1) / 3` steps of a chat call asking for a tool,
 * the tool, and the tool's HTTP call.
 */
export function agentSpans(
  runs: number,
  spansPerRun = 10,
  service = 'bench-agent',
  conversation?: string,
): ReadableSpan[] {
  const steps = Math.max(0, Math.floor((spansPerRun - 1) / 3));
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': service }),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const tracer = provider.getTracer('bench');
  for (let r = 0; r < runs; r++) {
    const root = tracer.startSpan('invoke_agent support', {
      attributes: {
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.agent.name': 'support',
        ...(conversation ? { 'gen_ai.conversation.id': conversation } : {}),
      },
    });
    const ctx = trace.setSpan(ROOT_CONTEXT, root);
    for (let step = 0; step < steps; step++) {
      tracer
        .startSpan(
          'chat gpt-4o-mini',
          {
            attributes: {
              'gen_ai.operation.name': 'chat',
              'gen_ai.provider.name': 'openai',
              'gen_ai.request.model': 'gpt-4o-mini',
              'gen_ai.usage.input_tokens': 400 + step,
              'gen_ai.usage.output_tokens': 27,
              'gen_ai.input.messages': JSON.stringify([
                {
                  role: 'user',
                  parts: [{ type: 'text', content: `Where is order A-${r}-${step}?` }],
                },
              ]),
              'gen_ai.output.messages': JSON.stringify([
                {
                  role: 'assistant',
                  parts: [
                    {
                      type: 'tool_call',
                      id: `c${r}_${step}`,
                      name: 'lookup',
                      arguments: { id: r },
                    },
                  ],
                },
              ]),
            },
          },
          ctx,
        )
        .end();
      const tool = tracer.startSpan(
        'execute_tool lookup',
        {
          attributes: {
            'gen_ai.operation.name': 'execute_tool',
            'gen_ai.tool.call.id': `c${r}_${step}`,
            'gen_ai.tool.call.result': '{"status":"in_transit"}',
          },
        },
        ctx,
      );
      tracer
        .startSpan(
          'GET /orders',
          { attributes: { 'http.request.method': 'GET' } },
          trace.setSpan(ctx, tool),
        )
        .end();
      tool.end();
    }
    root.end();
  }
  return exporter.getFinishedSpans();
}

/** Batches of 512, as the SDK's BatchSpanProcessor sends them. */
export function batches(spans: ReadableSpan[], size = 512): ReadableSpan[][] {
  const out: ReadableSpan[][] = [];
  for (let i = 0; i < spans.length; i += size) out.push(spans.slice(i, i + size));
  return out;
}
