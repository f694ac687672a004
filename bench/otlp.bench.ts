/**
 * The OTLP receiver (issue 32), over real loopback sockets with the
 * OpenTelemetry JS SDK's protobuf exporter (`@opentelemetry/exporter-trace-otlp-proto`)
 * running in two agent processes of their own (otlp-exporter-child.ts), as
 * deployed: serializing and sending is the agents' work, not the receiver's.
 * - `node.otlp.ingest.<runs>x<spans per run>`: ms from the agents' first
 *   export to every span in a run of the registry and every run imported,
 *   as a ratio to decoding the same protobuf bodies alone (the floor: a
 *   receiver must at least decode), each sample paired with a decode right
 *   before it; `…receiver-cpu.<shape>` the receiver process's CPU time (all
 *   its threads: HTTP, decode, registry, import, GC) as a ratio to the
 *   decode's CPU time; `…spans-per-s.<shape>` the rate (wall clock),
 *   `…receiver-spans-per-s.<shape>` per second of the receiver's CPU,
 *   `…agents-cpu.<shape>` the exporters' CPU time. Three shapes: 5,000 runs of
 *   10 spans (every run pays its fixed costs for ten spans: adverse), 50
 *   runs of 1,000 spans (a run's spans over several requests), and 100
 *   traces of 499 spans as two conversations (two long sessions, each
 *   growing a trace at a time: a live importer that re-read the run
 *   per request would be quadratic here).
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
import { fork, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
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
import { defineBench, type NodeBenchContext } from './node.js';
import { agentSpans, batches, shapeLabel, type RunShape } from './otlp-agent.js';

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

/** Agent processes (otlp-exporter-child.ts), each exporting its share of the runs. */
async function startAgents(shape: RunShape, count = 2) {
  const children: ChildProcess[] = [];
  const bodies: Uint8Array[] = [];
  const next = (child: ChildProcess) =>
    new Promise<Record<string, unknown>>((ok, fail) => {
      child.once('message', (m) => {
        const answer = m as Record<string, unknown>;
        if (typeof answer['error'] === 'string') fail(new Error(answer['error']));
        else ok(answer);
      });
    });
  for (let k = 0; k < count; k++) {
    const runs = Math.floor(shape.runs / count) + (k < shape.runs % count ? 1 : 0);
    const child = fork(
      fileURLToPath(new URL('./otlp-exporter-child.ts', import.meta.url)),
      [
        String(runs),
        String(shape.spansPerRun),
        `agent-${k}`,
        shape.conversations ? `conversation-${k}` : '',
      ],
      {
        execArgv: ['--import', 'tsx'],
        serialization: 'advanced',
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      },
    );
    children.push(child);
  }
  for (const child of children) {
    const answer = await next(child);
    // As the receiver gets them: Node Buffers (protobufjs reads their strings natively).
    for (const b of answer['bodies'] as Uint8Array[])
      bodies.push(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
  }
  return {
    bodies,
    /** Every agent exports all its batches to `url`; resolves with their CPU ms. */
    async exportTo(url: string): Promise<number> {
      const answers = children.map(next);
      for (const child of children) child.send({ url });
      let cpuMs = 0;
      for (const a of await Promise.all(answers)) cpuMs += a['cpuMs'] as number;
      return cpuMs;
    },
    stop(): Promise<void> {
      return Promise.all(
        children.map(
          (child) =>
            new Promise<void>((ok) => {
              child.once('exit', () => ok());
              child.send('exit');
            }),
        ),
      ).then(() => undefined);
    },
  };
}

const cpuMsSince = (start: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};

/**
 * `node.otlp.ingest.<shape>…`: the agents export every run to a receiver
 * in this process; each sample is paired with the decode floor measured
 * right before it (the machine's speed drifts).
 */
async function measureIngest(ctx: NodeBenchContext, shape: RunShape): Promise<void> {
  const label = shapeLabel(shape);
  const agents = await startAgents(shape);
  const { bodies } = agents;
  const decodeAll = () => {
    let k = 0;
    for (const b of bodies) k += decodeProtobuf('traces', b).items;
    return k;
  };
  const n = decodeAll();
  if (n !== shape.runs * shape.spansPerRun) throw new Error(`${n} spans for ${label}`);
  const ingestOnce = async () => {
    const registry = createOtlpRunRegistry({ maxRuns: shape.runs + 10, maxBytes: 2 ** 31 });
    const runs = shape.conversations ? 2 : shape.runs; // one conversation per agent
    const rx = await receiver(registry);
    try {
      const exporterMs = await agents.exportTo(rx.url);
      // Every export was answered, so every span is in the registry; the
      // imports still due run now.
      registry.flush();
      const snap = registry.getSnapshot();
      let taken = 0;
      for (const r of snap.runs) taken += r.spans;
      if (snap.runs.length !== runs || taken !== n)
        throw new Error(`${snap.runs.length} runs, ${taken} spans of ${label}`);
      return exporterMs;
    } finally {
      registry.close();
      await rx.stop();
    }
  };
  const wall: number[] = [];
  const cpu: number[] = [];
  const decodeWall: number[] = [];
  const decodeCpu: number[] = [];
  const exporterCpu: number[] = [];
  // 3 samples under --quick, with no full GC before each, as the Node
  // context's own timings.
  const repeat = ctx.quick ? 3 : 5;
  const collect = () => {
    if (!ctx.quick) ctx.heapUsedMB(); // a full GC
  };
  for (let i = -1; i < repeat; i++) {
    collect();
    let c0 = process.cpuUsage();
    let t0 = performance.now();
    if (decodeAll() !== n) throw new Error('decode lost spans');
    const dWall = performance.now() - t0;
    const dCpu = cpuMsSince(c0);
    collect();
    c0 = process.cpuUsage();
    t0 = performance.now();
    const eCpu = await ingestOnce();
    if (i < 0) continue; // warm-up
    wall.push(performance.now() - t0);
    cpu.push(cpuMsSince(c0));
    decodeWall.push(dWall);
    decodeCpu.push(dCpu);
    exporterCpu.push(eCpu);
  }
  await agents.stop();
  const med = (xs: number[]) => quantile(xs, 0.5);
  const decodeMetric = {
    name: `node.otlp.decode.${label}`,
    value: med(decodeWall),
    unit: 'ms' as const,
    n,
  };
  const decodeCpuMetric = {
    name: `node.otlp.decode-cpu.${label}`,
    value: med(decodeCpu),
    unit: 'ms' as const,
    n,
  };
  ctx.record(decodeMetric);
  ctx.record(decodeCpuMetric);
  ctx.record({ name: `node.otlp.ingest.${label}`, value: med(wall), unit: 'ms', n }, decodeMetric);
  ctx.record(
    {
      name: `node.otlp.ingest.receiver-cpu.${label}`,
      value: med(cpu),
      unit: 'ms',
      n,
      target: '≤ 2× decode',
    },
    decodeCpuMetric,
  );
  ctx.record({
    name: `node.otlp.ingest.spans-per-s.${label}`,
    value: Math.round(n / (med(wall) / 1000)),
    unit: 'spans/s',
    n,
    target: '≥ 50,000',
  });
  ctx.record({
    name: `node.otlp.ingest.receiver-spans-per-s.${label}`,
    value: Math.round(n / (med(cpu) / 1000)),
    unit: 'spans/s',
    n,
  });
  ctx.record({
    name: `node.otlp.ingest.agents-cpu.${label}`,
    value: med(exporterCpu),
    unit: 'ms',
    n,
  });
}

export default defineBench({
  name: 'node.otlp',
  async run(ctx) {
    const runs = ctx.size(5_000, 1_000);
    // Many short runs (every run pays its fixed costs for ten spans: the
    // adverse shape) and a few long ones (a long agent session).
    await measureIngest(ctx, { runs, spansPerRun: 10 });
    await measureIngest(ctx, { runs: ctx.size(50, 10), spansPerRun: 1_000 });
    await measureIngest(ctx, { runs: ctx.size(100, 20), spansPerRun: 499, conversations: true });

    const spans = agentSpans(runs);
    const n = spans.length;
    const label = ctx.label(n);
    const parts = batches(spans);
    const bodies = parts.map((p) => Buffer.from(ProtobufTraceSerializer.serializeRequest(p)!));

    // Latency: a probe run followed by a live client while the agents' ingest runs beside it.
    {
      const agents = await startAgents({ runs, spansPerRun: 10 });
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
      const load = agents.exportTo(rx.url);
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
      await agents.stop();
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
        const sixth = agentSpans(perSixth, 10, `fleet-${k % 30}`);
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
