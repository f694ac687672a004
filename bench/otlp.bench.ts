/**
 * The OTLP receiver (issue 32), over real loopback sockets with the
 * OpenTelemetry JS SDK's protobuf exporter (`@opentelemetry/exporter-trace-otlp-proto`):
 * - `node.otlp.ingest.<n>`: ms to take n spans (agent runs of 10 spans: a
 *   trace each) from the exporter into live runs, every run imported, as a
 *   ratio to decoding the same protobuf bodies alone in this run (the
 *   floor: a receiver must at least decode); `node.otlp.ingest.spans-per-s`
 *   the rate. The exporter serializes in this process, as a real agent
 *   would in its own: its share is measured alone (`…serialize`) and taken
 *   out of the receiver's rate (`…receiver-spans-per-s`).
 * - `node.otlp.latency.p95`: ms from an exporter's `export()` to the span's
 *   event in a connected `connectEventStream` client following its run,
 *   while the ingest above runs beside it.
 * - `node.otlp.memory.*`: heap per ended run and per span held after n
 *   spans, and per span waiting for a parent.
 * - `node.otlp.soak.*`: a one-hour agent fleet compressed: 30 agents each
 *   running a 10-span task every 10 s (108,000 spans, 10,800 runs) sent as
 *   fast as the receiver takes them into a registry that keeps 500 runs;
 *   the heap after each sixth of the hour, and its growth from the second
 *   sixth to the last (steady: the registry evicts what it does not keep).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import { connectEventStream, createOtlpRunRegistry, type OtlpRunRegistry } from '../src/index.js';
import { createOtlpHandler, createOtlpRunsHandler } from '../src/server.js';
import { decodeProtobuf } from '../src/node/otlp/decode.js';
import { quantile } from './harness.js';
import { defineBench } from './node.js';

/** `runs` agent runs of ten spans each, made by the SDK's tracer (a trace each). */
function agentSpans(runs: number, service = 'bench-agent', conversation?: string): ReadableSpan[] {
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
    for (let step = 0; step < 3; step++) {
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
function batches(spans: ReadableSpan[], size = 512): ReadableSpan[][] {
  const out: ReadableSpan[][] = [];
  for (let i = 0; i < spans.length; i += size) out.push(spans.slice(i, i + size));
  return out;
}

async function receiver(registry: OtlpRunRegistry) {
  const otlp = createOtlpHandler(registry);
  const runs = createOtlpRunsHandler(registry, { live: { compression: false } });
  const server = http.createServer((req, res) =>
    (runs.handles(req.url ?? '/') ? runs : otlp)(req, res),
  );
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    async stop() {
      await runs.close();
      await otlp.close();
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}

function send(exporter: OTLPTraceExporter, spans: ReadableSpan[]): Promise<void> {
  return new Promise((resolve, reject) =>
    exporter.export(spans, (r) =>
      r.code === 0 ? resolve() : reject(r.error ?? new Error('export failed')),
    ),
  );
}

/** Exports every batch, two exporters side by side (two agent processes), one batch in flight each. */
async function exportAll(url: string, parts: ReadableSpan[][]): Promise<void> {
  const exporters = [0, 1].map(
    () => new OTLPTraceExporter({ url: `${url}/v1/traces`, timeoutMillis: 60_000 }),
  );
  await Promise.all(
    exporters.map(async (exporter, k) => {
      for (let i = k; i < parts.length; i += exporters.length) await send(exporter, parts[i]!);
    }),
  );
  await Promise.all(exporters.map((e) => e.shutdown()));
}

/** Waits until every run of the registry is imported (nothing pending). */
async function imported(registry: OtlpRunRegistry, spans: number): Promise<void> {
  for (;;) {
    const snap = registry.getSnapshot();
    let taken = 0;
    for (const r of snap.runs) taken += r.spans;
    if (taken >= spans && !registry.busy) {
      registry.flush();
      return;
    }
    await new Promise((r) => setTimeout(r, 1));
  }
}

export default defineBench({
  name: 'node.otlp',
  async run(ctx) {
    const runs = ctx.size(5_000, 1_000);
    const spans = agentSpans(runs);
    const n = spans.length;
    const label = ctx.label(n);
    const parts = batches(spans);
    // As the receiver gets them: Node Buffers (protobufjs reads their strings natively).
    const bodies = parts.map((p) => Buffer.from(ProtobufTraceSerializer.serializeRequest(p)!));

    // The floor: decoding the same bodies alone.
    const decode = await ctx.time(
      () => {
        let k = 0;
        for (const b of bodies) k += decodeProtobuf('traces', b).items;
        if (k !== n) throw new Error(`decoded ${k} of ${n}`);
      },
      { repeat: 5, warmup: 1 },
    );
    const decodeMetric = {
      name: `node.otlp.decode.${label}`,
      value: decode.median,
      unit: 'ms' as const,
      n,
    };
    ctx.record(decodeMetric);
    const serialize = await ctx.time(() => {
      for (const p of parts) ProtobufTraceSerializer.serializeRequest(p);
    });
    ctx.record({ name: `node.otlp.serialize.${label}`, value: serialize.median, unit: 'ms', n });

    // Ingest: exporter → loopback → receiver → runs, every run imported.
    const ingest = await ctx.time(
      async () => {
        const registry = createOtlpRunRegistry({ maxRuns: runs + 10, maxBytes: 2 ** 31 });
        const rx = await receiver(registry);
        try {
          await exportAll(rx.url, parts);
          await imported(registry, n);
          if (registry.getSnapshot().runs.length !== runs) throw new Error('runs lost');
        } finally {
          registry.close();
          await rx.stop();
        }
      },
      { repeat: 5, warmup: 1 },
    );
    ctx.record(
      {
        name: `node.otlp.ingest.${label}`,
        value: ingest.median,
        unit: 'ms',
        n,
        target: '≤ 2× decode',
      },
      decodeMetric,
    );
    ctx.record({
      name: 'node.otlp.ingest.spans-per-s',
      value: Math.round(n / (ingest.median / 1000)),
      unit: 'spans/s',
      n,
      target: '≥ 50,000',
    });
    ctx.record({
      name: 'node.otlp.ingest.receiver-spans-per-s',
      value: Math.round(n / ((ingest.median - serialize.median) / 1000)),
      unit: 'spans/s',
      n,
    });

    // Latency: a probe run followed by a live client while the ingest runs beside it.
    {
      const registry = createOtlpRunRegistry({ maxRuns: runs * 4, maxBytes: 2 ** 31 });
      const rx = await receiver(registry);
      const probeExporter = new OTLPTraceExporter({ url: `${rx.url}/v1/traces` });
      const probeSpans = new InMemorySpanExporter();
      const probeTracer = new BasicTracerProvider({
        resource: resourceFromAttributes({ 'service.name': 'probe' }),
        spanProcessors: [new SimpleSpanProcessor(probeSpans)],
      }).getTracer('probe');
      // One span per probe, in one conversation: one run the client follows.
      const probe = (i: number) => {
        probeTracer
          .startSpan(`probe ${i}`, { attributes: { 'gen_ai.conversation.id': 'probe-run' } })
          .end();
        const out = probeSpans.getFinishedSpans();
        probeSpans.reset();
        return out;
      };
      await send(probeExporter, probe(0));
      await imported(registry, 1);
      const client = connectEventStream(
        `${rx.url}/api/runs/${encodeURIComponent('conversation:probe-run')}/events`,
      );
      const arrived = new Map<string, number>();
      client.stream.subscribe(() => {
        const now = performance.now();
        for (const e of client.stream.latest())
          if (e.event === 'span_begin' && !arrived.has((e as { name: string }).name))
            arrived.set((e as { name: string }).name, now);
      });
      const sent = new Map<string, number>();
      const load = exportAll(rx.url, parts);
      let loading = true;
      void load.finally(() => (loading = false));
      let i = 1;
      while (loading || i < 30) {
        const spans1 = probe(i);
        sent.set(`probe ${i}`, performance.now());
        await send(probeExporter, spans1);
        i++;
        await new Promise((r) => setTimeout(r, 20));
      }
      await load;
      const t0 = performance.now();
      while (arrived.size < i - 1 && performance.now() - t0 < 10_000)
        await new Promise((r) => setTimeout(r, 5));
      const latencies = [...sent].map(
        ([name, at]) => (arrived.get(name) ?? Number.POSITIVE_INFINITY) - at,
      );
      ctx.record({
        name: 'node.otlp.latency.p95',
        value: Math.round(quantile(latencies, 0.95) * 10) / 10,
        unit: 'ms',
        n: latencies.length,
        target: '≤ 100',
      });
      ctx.record({
        name: 'node.otlp.latency.p50',
        value: Math.round(quantile(latencies, 0.5) * 10) / 10,
        unit: 'ms',
        n: latencies.length,
      });
      client.close();
      await probeExporter.shutdown();
      registry.close();
      await rx.stop();
    }

    // Memory: runs ended and held in the registry (no socket in between).
    {
      const requests = bodies.map((b) => decodeProtobuf('traces', b).request);
      const before = ctx.heapUsedMB();
      const registry = createOtlpRunRegistry({ maxRuns: runs + 10, maxBytes: 2 ** 31 });
      for (let k = 0; k < requests.length; k++)
        registry.ingestTraces(requests[k], bodies[k]!.length);
      registry.flush();
      for (const r of registry.getSnapshot().runs) registry.end(r.id);
      requests.length = 0;
      const after = ctx.heapUsedMB();
      ctx.record({
        name: `node.otlp.memory.per-run.${label}`,
        value: Math.round((((after - before) * 1024 * 1024) / runs / 1024) * 10) / 10,
        unit: 'kB',
        n: runs,
      });
      ctx.record({
        name: `node.otlp.memory.per-span.${label}`,
        value: Math.round((((after - before) * 1024 * 1024) / n / 1024) * 100) / 100,
        unit: 'kB',
        n,
      });
      registry.close();
      // Spans waiting for their parent: every child, no root.
      const orphans = createOtlpRunRegistry({ maxRuns: runs + 10, maxHeld: n, maxBytes: 2 ** 31 });
      const children = spans.filter((s) => s.parentSpanContext !== undefined);
      const childBodies = batches(children).map(
        (p) => decodeProtobuf('traces', ProtobufTraceSerializer.serializeRequest(p)!).request,
      );
      const base = ctx.heapUsedMB();
      for (const r of childBodies) orphans.ingestTraces(r);
      orphans.flush();
      childBodies.length = 0;
      const held = orphans.getSnapshot().runs.reduce((k, r) => k + r.held, 0);
      const grown = ctx.heapUsedMB() - base;
      ctx.record({
        name: `node.otlp.memory.per-held-span.${label}`,
        value: Math.round(((grown * 1024 * 1024) / Math.max(1, held) / 1024) * 100) / 100,
        unit: 'kB',
        n: held,
      });
      orphans.close();
    }

    // Soak: one hour of a 30-agent fleet, compressed (see the top).
    {
      const sixths = 6;
      const perSixth = ctx.size(1_800, 300); // runs per sixth of the hour (30 agents × 60 tasks)
      const registry = createOtlpRunRegistry({ maxRuns: 500, maxBytes: 64 * 1024 * 1024 });
      const rx = await receiver(registry);
      const heap: number[] = [];
      const t0 = performance.now();
      for (let k = 0; k < sixths; k++) {
        const sixth = agentSpans(perSixth, `fleet-${k % 30}`);
        await exportAll(rx.url, batches(sixth));
        await imported(registry, 0);
        heap.push(ctx.heapUsedMB());
      }
      const seconds = (performance.now() - t0) / 1000;
      registry.close();
      await rx.stop();
      ctx.record({
        name: 'node.otlp.soak.heap-start',
        value: Math.round(heap[1]! * 10) / 10,
        unit: 'MB',
        n: perSixth * 2 * 10,
      });
      ctx.record({
        name: 'node.otlp.soak.heap-end',
        value: Math.round(heap.at(-1)! * 10) / 10,
        unit: 'MB',
        n: perSixth * sixths * 10,
      });
      ctx.record({
        name: 'node.otlp.soak.growth',
        value: Math.round((heap.at(-1)! - heap[1]!) * 10) / 10,
        unit: 'MB',
        n: perSixth * sixths * 10,
        target: `≈ 0 (${Math.round(seconds)} s for ${perSixth * sixths} runs)`,
      });
    }
  },
});
