/**
 * An instrumented agent in its own process, for `node.otlp.ingest`: the
 * exporter's serializing and sending is the agent's work, not the
 * receiver's. Started with `fork(…, [runs, spansPerRun, service, conversation?], {
 * execArgv: ['--import', 'tsx'], serialization: 'advanced' })`:
 *
 * - makes its runs with the SDK's tracer (otlp-agent.ts) and sends
 *   `{ bodies }`: the protobuf bodies its exporter will send (for the
 *   decode floor);
 * - `{ url }`: exports every batch with `OTLPTraceExporter` (protobuf), one
 *   request in flight as the `BatchSpanProcessor` sends, then answers
 *   `{ done, cpuMs }` (this process's CPU time for the export);
 * - `'exit'`: exits.
 */
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { agentSpans, batches } from './otlp-agent.js';

const [runs, spansPerRun, service, conversation] = process.argv.slice(2);
const parts = batches(
  agentSpans(Number(runs), Number(spansPerRun), service, conversation || undefined),
);

function send(exporter: OTLPTraceExporter, spans: ReadableSpan[]): Promise<void> {
  return new Promise((resolve, reject) =>
    exporter.export(spans, (r) =>
      r.code === 0 ? resolve() : reject(r.error ?? new Error('export failed')),
    ),
  );
}

process.on('message', (message: unknown) => {
  if (message === 'exit') process.exit(0);
  const url = (message as { url?: string }).url;
  if (url === undefined) return;
  void (async () => {
    const cpu = process.cpuUsage();
    const exporter = new OTLPTraceExporter({ url: `${url}/v1/traces`, timeoutMillis: 60_000 });
    for (const p of parts) await send(exporter, p);
    await exporter.shutdown();
    const used = process.cpuUsage(cpu);
    process.send!({ done: true, cpuMs: (used.user + used.system) / 1000 });
  })().catch((error: unknown) => process.send!({ error: String(error) }));
});

process.send!({
  bodies: parts.map((p) => ProtobufTraceSerializer.serializeRequest(p)!),
});
