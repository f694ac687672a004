// The OpenTelemetry JS SDK as agents run it, for the OTLP tests: spans and
// log records made by its tracer and logger, and export requests made by
// its own OTLP serializers (@opentelemetry/otlp-transformer, what the OTLP
// exporters send). No request body in these tests is written by hand.
import { ROOT_CONTEXT, trace, type Context, type Span, type Tracer } from '@opentelemetry/api';
import type { Logger } from '@opentelemetry/api-logs';
import {
  JsonLogsSerializer,
  JsonTraceSerializer,
  ProtobufLogsSerializer,
  ProtobufTraceSerializer,
} from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  InMemoryLogRecordExporter,
  LoggerProvider,
  SimpleLogRecordProcessor,
  type ReadableLogRecord,
} from '@opentelemetry/sdk-logs';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';

export interface OtelSdk {
  tracer: Tracer;
  logger: Logger;
  /** The spans ended since the last call. */
  spans(): ReadableSpan[];
  /** The log records emitted since the last call. */
  logs(): Promise<ReadableLogRecord[]>;
  shutdown(): Promise<void>;
}

/** A tracer and a logger of one service, recording in memory. */
export function otelSdk(service = 'agent', attributes: Record<string, string> = {}): OtelSdk {
  const resource = resourceFromAttributes({ 'service.name': service, ...attributes });
  const spanExporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({
    resource,
    spanProcessors: [new SimpleSpanProcessor(spanExporter)],
  });
  const logExporter = new InMemoryLogRecordExporter();
  const loggerProvider = new LoggerProvider({
    resource,
    processors: [new SimpleLogRecordProcessor({ exporter: logExporter })],
  });
  return {
    tracer: tracerProvider.getTracer('test-agent', '1.0.0'),
    logger: loggerProvider.getLogger('test-agent'),
    spans() {
      const out = spanExporter.getFinishedSpans();
      spanExporter.reset();
      return out;
    },
    async logs() {
      await loggerProvider.forceFlush();
      const out = logExporter.getFinishedLogRecords();
      logExporter.reset();
      return out;
    },
    async shutdown() {
      await tracerProvider.shutdown();
      await loggerProvider.shutdown();
    },
  };
}

/** The context with `span` as parent. */
export function under(span: Span, parent: Context = ROOT_CONTEXT): Context {
  return trace.setSpan(parent, span);
}

const text = new TextDecoder();

/** The OTLP/JSON export request the SDK's JSON exporter sends for these spans, parsed. */
export function traceRequest(spans: ReadableSpan[]): Record<string, unknown> {
  return JSON.parse(text.decode(JsonTraceSerializer.serializeRequest(spans)!)) as Record<
    string,
    unknown
  >;
}

/** The OTLP/JSON logs export request for these records, parsed. */
export function logsRequest(records: ReadableLogRecord[]): Record<string, unknown> {
  return JSON.parse(text.decode(JsonLogsSerializer.serializeRequest(records)!)) as Record<
    string,
    unknown
  >;
}

/** The protobuf body the SDK's protobuf exporter sends. */
export function traceProtobuf(spans: ReadableSpan[]): Uint8Array {
  return ProtobufTraceSerializer.serializeRequest(spans)!;
}

export function logsProtobuf(records: ReadableLogRecord[]): Uint8Array {
  return ProtobufLogsSerializer.serializeRequest(records)!;
}

/** The JSON body the SDK's JSON exporter sends. */
export function traceJson(spans: ReadableSpan[]): Uint8Array {
  return JsonTraceSerializer.serializeRequest(spans)!;
}

/** A span's hex ids. */
export function idsOf(span: ReadableSpan): { traceId: string; spanId: string } {
  const c = span.spanContext();
  return { traceId: c.traceId, spanId: c.spanId };
}

/** A span's start as exact nanoseconds (decimal text), from the SDK's hrtime. */
export function startNanos(span: ReadableSpan): string {
  const [s, ns] = span.startTime;
  return (BigInt(s) * 1_000_000_000n + BigInt(ns)).toString();
}
