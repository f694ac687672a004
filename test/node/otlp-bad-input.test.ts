// The OTLP/HTTP receiver against bad and hostile input: every body starts as
// what the OpenTelemetry JS SDK's exporters send (their serializers), then
// is cut, mangled, inflated or repeated. Each case gets the status the
// OTLP/HTTP spec gives it, and no accepted span is ever lost. Also: the
// Fetch form, the host, CORS and auth checks, and `skein serve --otlp`.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOtlpRunRegistry, EventStream, type OtlpRunRegistry } from '../../src/index.js';
import { createOtlpFetchHandler } from '../../src/server-fetch.js';
import {
  createOtlpHandler,
  createOtlpRunsHandler,
  HOST_REFUSED,
  runCli,
  type OtlpHandler,
} from '../../src/server.js';
import { decodeExportResponse, decodeStatus } from '../../src/node/otlp/decode.js';
import { otelSdk, traceJson, traceProtobuf, under } from '../helpers/otel-sdk.js';

const PROTO = { 'Content-Type': 'application/x-protobuf' };

/** A real export of n spans in one trace (a root and its children). */
function spansOf(n: number, service = 'agent') {
  const sdk = otelSdk(service);
  const root = sdk.tracer.startSpan('invoke_agent big');
  for (let i = 1; i < n; i++)
    sdk.tracer
      .startSpan('chat m', { attributes: { 'gen_ai.operation.name': 'chat', i } }, under(root))
      .end();
  root.end();
  return sdk.spans();
}

interface Server {
  url: string;
  registry: OtlpRunRegistry;
  handler: OtlpHandler;
  stop(): Promise<void>;
}

async function serve(
  options: Parameters<typeof createOtlpHandler>[1] = {},
  registry = createOtlpRunRegistry(),
): Promise<Server> {
  const handler = createOtlpHandler(registry, options);
  const server = http.createServer(handler);
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    registry,
    handler,
    async stop() {
      await handler.close();
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}

const post = (url: string, body: Uint8Array | string, headers: Record<string, string> = PROTO) =>
  fetch(url, { method: 'POST', body: body as BodyInit, headers });
const bytes = async (r: Response) => new Uint8Array(await r.arrayBuffer());

/**
 * A POST on a connection of its own: building a large body blocks the event
 * loop for seconds, long enough for the server to close an idle keep-alive
 * connection that `fetch` would then reuse before it saw it closed.
 */
function postAlone(url: string, body: Uint8Array): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', agent: false, headers: PROTO }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A request with headers `fetch` will not send (`Host`), on a connection of its own. */
function raw(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: Uint8Array } = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: options.method ?? 'GET', agent: false, headers: options.headers ?? {} },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

let s: Server;
beforeAll(async () => {
  s = await serve({ maxBodyBytes: 24 * 1024 * 1024, maxDecompressedBytes: 24 * 1024 * 1024 });
});
afterAll(() => s.stop());

describe('bad input', () => {
  it('malformed and truncated protobuf: 400 with a google.rpc.Status, nothing taken', async () => {
    const body = traceProtobuf(spansOf(20));
    const before = s.registry.getSnapshot().runs.length;
    for (const bad of [
      body.slice(0, body.length - 7),
      body.slice(0, 40),
      new Uint8Array([0x0a, 0xff, 0xff, 0xff, 0x0f]),
    ]) {
      const r = await post(`${s.url}/v1/traces`, bad);
      expect(r.status).toBe(400);
      expect(r.headers.get('content-type')).toBe('application/x-protobuf');
      const status = decodeStatus(await bytes(r));
      expect(status.code).toBe(3);
      expect(status.message).toMatch(/Could not decode the protobuf body/);
    }
    const json = traceJson(spansOf(3));
    const r = await post(`${s.url}/v1/traces`, json.slice(0, 50), {
      'Content-Type': 'application/json',
    });
    expect(r.status).toBe(400);
    expect(await r.json()).toMatchObject({ code: 3, message: expect.stringMatching(/JSON/) });
    expect(s.registry.getSnapshot().runs.length).toBe(before);
  });

  it('truncated gzip: 400', async () => {
    const gz = gzipSync(traceProtobuf(spansOf(30)));
    const r = await post(`${s.url}/v1/traces`, gz.subarray(0, gz.length - 10), {
      ...PROTO,
      'Content-Encoding': 'gzip',
    });
    expect(r.status).toBe(400);
    expect(decodeStatus(await bytes(r)).message).toMatch(/inflate/);
  });

  it('a gzip bomb: refused with 413 while inflating', async () => {
    // 64 MiB of zeros in 64 kB: eight times the receiver's cap.
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024), { level: 9 });
    expect(bomb.length).toBeLessThan(100_000);
    const heap = process.memoryUsage().arrayBuffers;
    const r = await post(`${s.url}/v1/traces`, bomb, { ...PROTO, 'Content-Encoding': 'gzip' });
    expect(r.status).toBe(413);
    expect(decodeStatus(await bytes(r)).message).toMatch(/inflated/);
    // It stopped near the cap instead of inflating all 64 MiB.
    expect(process.memoryUsage().arrayBuffers - heap).toBeLessThan(48 * 1024 * 1024);
  });

  it('a wrong content type or encoding: 415', async () => {
    const body = traceProtobuf(spansOf(2));
    expect((await post(`${s.url}/v1/traces`, body, { 'Content-Type': 'text/plain' })).status).toBe(
      415,
    );
    expect(
      (await post(`${s.url}/v1/traces`, body, { ...PROTO, 'Content-Encoding': 'br' })).status,
    ).toBe(415);
  });

  it('a body past the cap: 413, by its Content-Length or as it arrives', async () => {
    const small = await serve({ maxBodyBytes: 4 * 1024 * 1024 });
    const big = new Uint8Array(5 * 1024 * 1024);
    expect((await post(`${small.url}/v1/traces`, big)).status).toBe(413);
    // Chunked, no length given: cut as it arrives.
    const r = await fetch(`${small.url}/v1/traces`, {
      method: 'POST',
      headers: PROTO,
      body: new ReadableStream({
        start(c) {
          for (let i = 0; i < 6; i++) c.enqueue(new Uint8Array(1024 * 1024));
          c.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(r.status).toBe(413);
    await small.stop();
  });

  it('100,000 spans in one request: all accepted, one run, nothing lost', async () => {
    const spans = spansOf(100_000);
    const body = traceProtobuf(spans);
    const r = await postAlone(`${s.url}/v1/traces`, body);
    expect(r.status).toBe(200);
    expect(r.body.length).toBe(0); // a full success: an empty response
    s.registry.flush();
    const run = s.registry
      .getSnapshot()
      .runs.find((x) => x.name === 'invoke_agent big' && x.spans === 100_000)!;
    expect(run).toBeDefined();
    s.registry.end(run.id);
    const events = s.registry.get(run.id)!.stream.latest();
    expect(events.filter((e) => e.event === 'model')).toHaveLength(99_999);
  }, 120_000);

  it('exporter retries: the same body twice keeps each span once', async () => {
    const spans = spansOf(10, 'retrying');
    const body = traceProtobuf(spans);
    expect((await post(`${s.url}/v1/traces`, body)).status).toBe(200);
    expect(
      (await post(`${s.url}/v1/traces`, gzipSync(body), { ...PROTO, 'Content-Encoding': 'gzip' }))
        .status,
    ).toBe(200);
    s.registry.flush();
    const run = s.registry.getSnapshot().runs.find((x) => x.service === 'retrying')!;
    expect(run).toMatchObject({ spans: 10, duplicates: 10 });
  });

  it('partial success: spans without ids are rejected and counted in the response', async () => {
    const sdk = otelSdk('partial');
    sdk.tracer.startSpan('ok').end();
    // The SDK writes a span with an invalid (all-zero) id as empty bytes.
    const bad = sdk.tracer.startSpan('no id');
    (bad.spanContext() as { spanId: string }).spanId = '';
    bad.end();
    const r = await post(`${s.url}/v1/traces`, traceProtobuf(sdk.spans()));
    expect(r.status).toBe(200);
    expect(decodeExportResponse('traces', await bytes(r))).toEqual({
      rejected: 1,
      errorMessage: expect.stringMatching(/without a trace id or a span id/),
    });
  });

  it('a client that leaves mid-body: nothing taken, and the receiver goes on', async () => {
    const body = traceProtobuf(spansOf(50, 'leaver'));
    const port = Number(new URL(s.url).port);
    await new Promise<void>((done) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(
          `POST /v1/traces HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-protobuf\r\nContent-Length: ${body.length}\r\n\r\n`,
        );
        socket.write(body.subarray(0, body.length >> 1));
        setTimeout(() => {
          socket.destroy();
          done();
        }, 50);
      });
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(s.registry.getSnapshot().runs.some((r) => r.service === 'leaver')).toBe(false);
    expect((await post(`${s.url}/v1/traces`, body)).status).toBe(200);
    s.registry.flush();
    expect(s.registry.getSnapshot().runs.find((r) => r.service === 'leaver')!.spans).toBe(50);
  });

  it('a target that cannot keep up: 429 with Retry-After; shutting down: 503', async () => {
    const behind = await serve(
      {},
      createOtlpRunRegistry({ maxPendingBytes: 1, importDelayMs: 500 }),
    );
    try {
      const body = traceProtobuf(spansOf(5));
      expect((await post(`${behind.url}/v1/traces`, body)).status).toBe(200);
      // The import waits 500 ms: the receiver is behind until then.
      const r = await post(`${behind.url}/v1/traces`, body);
      expect(r.status).toBe(429);
      expect(r.headers.get('retry-after')).toBe('1');
      expect(decodeStatus(await bytes(r)).code).toBe(8);
      behind.registry.close();
      const closed = await post(`${behind.url}/v1/traces`, body);
      expect(closed.status).toBe(503);
      expect(closed.headers.get('retry-after')).toBe('5');
    } finally {
      await behind.stop();
    }
  });

  it('the exporter retries a 429 until the spans are in', async () => {
    const registry = createOtlpRunRegistry({ maxPendingBytes: 1, importDelayMs: 300 });
    const behind = await serve({}, registry);
    try {
      const sdk = otelSdk('patient');
      sdk.tracer.startSpan('one').end();
      const first = sdk.spans();
      sdk.tracer.startSpan('two').end();
      const second = sdk.spans();
      const exporter = new OTLPTraceExporter({ url: `${behind.url}/v1/traces` });
      await new Promise((done) => exporter.export(first, done));
      // The second is refused with 429 until the first is imported, then retried.
      let refused = 0;
      behind.handler.registry.subscribe(() => {});
      const server429 = (await post(`${behind.url}/v1/traces`, traceProtobuf(second))).status;
      if (server429 === 429) refused++;
      const result = await new Promise<{ code: number }>((done) => exporter.export(second, done));
      expect(refused).toBe(1);
      expect(result.code).toBe(0);
      registry.flush();
      expect(registry.getSnapshot().runs.filter((r) => r.service === 'patient')).toHaveLength(2);
      await exporter.shutdown();
    } finally {
      await behind.stop();
    }
  }, 30_000);
});

describe('request checks', () => {
  it('answers loopback names and IP addresses only unless told (421 before reading), and 404/405 elsewhere', async () => {
    const body = traceProtobuf(spansOf(1, 'hosts'));
    const postAs = (url: string, host: string) =>
      raw(`${url}/v1/traces`, { method: 'POST', headers: { ...PROTO, Host: host }, body });
    const refused = await postAs(s.url, 'evil.example:4318');
    expect(refused.status).toBe(421);
    expect(refused.body.toString()).toBe(HOST_REFUSED.body);
    expect((await postAs(s.url, 'localhost:4318')).status).toBe(200);
    // An IP address is answered, as by every skein server: a rebinding page can only send a name.
    expect((await postAs(s.url, '192.168.1.20:4318')).status).toBe(200);
    const named = await serve({ allowedHosts: ['otel.internal'] });
    try {
      expect((await postAs(named.url, 'otel.internal:4318')).status).toBe(200);
      expect((await postAs(named.url, 'otel.internal.evil.example')).status).toBe(421);
    } finally {
      await named.stop();
    }
    expect((await post(`${s.url}/v1/metrics`, body)).status).toBe(404);
    const get = await fetch(`${s.url}/v1/traces`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST, OPTIONS');
  });

  it('requests past maxConnections get 503 with Retry-After and a google.rpc.Status, and are served once one ends', async () => {
    const capped = await serve({ maxConnections: 1 });
    try {
      const body = traceProtobuf(spansOf(2, 'capped'));
      // A client that sent its headers and half its body holds the one slot.
      const holder = http.request(`${capped.url}/v1/traces`, {
        method: 'POST',
        agent: false,
        headers: { ...PROTO, 'Content-Length': String(body.length) },
      });
      const held = new Promise<number>((done) => holder.on('response', (r) => done(r.statusCode!)));
      holder.write(body.subarray(0, 10));
      const t0 = Date.now();
      while (capped.handler.inFlight === 0) {
        if (Date.now() - t0 > 5000) throw new Error('the holder never arrived');
        await new Promise((r) => setTimeout(r, 10));
      }
      const busy = await raw(`${capped.url}/v1/traces`, { method: 'POST', headers: PROTO, body });
      expect(busy.status).toBe(503);
      expect(busy.headers['retry-after']).toBe('5');
      expect(decodeStatus(new Uint8Array(busy.body))).toMatchObject({
        code: 14,
        message: expect.stringMatching(/Too many connections \(this server serves 1 at once\)/),
      });
      holder.end(body.subarray(10));
      expect(await held).toBe(200);
      expect(
        (await raw(`${capped.url}/v1/traces`, { method: 'POST', headers: PROTO, body })).status,
      ).toBe(200);
      capped.registry.flush();
      expect(capped.registry.getSnapshot().runs[0]).toMatchObject({ spans: 2, duplicates: 2 });
    } finally {
      await capped.stop();
    }
  });

  it('the runs API answers the same Host names as the receiver, its live streams too, and caps its connections', async () => {
    const registry = createOtlpRunRegistry();
    const otlp = createOtlpHandler(registry, { allowedHosts: ['otel.internal'] });
    const runs = createOtlpRunsHandler(registry, {
      allowedHosts: ['otel.internal'],
      maxConnections: 2,
      live: { compression: false },
    });
    const server = http.createServer((req, res) =>
      (runs.handles(req.url ?? '/') ? runs : otlp)(req, res),
    );
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const watchers: http.ClientRequest[] = [];
    try {
      const body = traceProtobuf(spansOf(2, 'named'));
      const host = { Host: 'otel.internal' };
      expect(
        (await raw(`${url}/v1/traces`, { method: 'POST', headers: { ...PROTO, ...host }, body }))
          .status,
      ).toBe(200);
      registry.flush();
      expect((await raw(`${url}/api/runs`, { headers: { Host: 'evil.example' } })).status).toBe(
        421,
      );
      const list = await raw(`${url}/api/runs`, { headers: host });
      expect(list.status).toBe(200);
      const run = (JSON.parse(list.body.toString()) as { runs: { url: string }[] }).runs[0]!;
      // The run's live stream (another handler inside) answers the allowed name as well.
      const live = await new Promise<{ status: number; text: string }>((done, fail) => {
        const req = http.get(`${url}${run.url}`, { agent: false, headers: host }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => {
            text += c;
            if (text.includes('event: live')) {
              req.destroy();
              done({ status: res.statusCode!, text });
            }
          });
        });
        req.on('error', fail);
      });
      expect(live.status).toBe(200);
      expect(live.text).toContain('event: live');
      // Two watch streams hold both slots; a third request is refused.
      for (let i = 0; i < 2; i++) {
        await new Promise<void>((ok) => {
          const req = http.get(`${url}/api/runs/watch`, { agent: false, headers: host }, (res) =>
            res.once('data', () => ok()),
          );
          watchers.push(req);
        });
      }
      const busy = await raw(`${url}/api/runs`, { headers: host });
      expect(busy.status).toBe(503);
      expect(busy.headers['retry-after']).toBe('5');
      watchers.pop()!.destroy();
      const t0 = Date.now();
      let again = busy.status;
      while (again === 503 && Date.now() - t0 < 5000)
        again = (await raw(`${url}/api/runs`, { headers: host })).status;
      expect(again).toBe(200);
    } finally {
      for (const w of watchers) w.destroy();
      await otlp.close();
      await runs.close();
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
    }
  });

  it('CORS is closed by default and opens for the origins given; auth refuses', async () => {
    const body = traceProtobuf(spansOf(1));
    expect(
      (await post(`${s.url}/v1/traces`, body, { ...PROTO, Origin: 'https://app.example' })).status,
    ).toBe(403);
    const open = await serve({
      cors: { origin: 'https://app.example' },
      authorize: (req) => req.headers.authorization === 'Bearer t0k' || 401,
    });
    try {
      const pre = await fetch(`${open.url}/v1/traces`, {
        method: 'OPTIONS',
        headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'POST' },
      });
      expect(pre.status).toBe(204);
      expect(pre.headers.get('access-control-allow-origin')).toBe('https://app.example');
      expect(pre.headers.get('access-control-allow-methods')).toContain('POST');
      expect(
        (await post(`${open.url}/v1/traces`, body, { ...PROTO, Origin: 'https://app.example' }))
          .status,
      ).toBe(401);
      const ok = await post(`${open.url}/v1/traces`, body, {
        ...PROTO,
        Origin: 'https://app.example',
        Authorization: 'Bearer t0k',
      });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('access-control-allow-origin')).toBe('https://app.example');
    } finally {
      await open.stop();
    }
  });
});

describe('createOtlpFetchHandler', () => {
  it('takes the same exports and refuses the same bad input, into one stream when given one', async () => {
    const stream = new EventStream();
    const handler = createOtlpFetchHandler(stream, { maxDecompressedBytes: 1024 * 1024 });
    const body = traceProtobuf(spansOf(4));
    const request = (b: Uint8Array, headers: Record<string, string> = PROTO) =>
      new Request('http://localhost:4318/v1/traces', {
        method: 'POST',
        body: b as BodyInit,
        headers,
      });
    expect((await handler(request(body))).status).toBe(200);
    expect(
      (await handler(request(gzipSync(body), { ...PROTO, 'Content-Encoding': 'gzip' }))).status,
    ).toBe(200);
    const bomb = gzipSync(Buffer.alloc(16 * 1024 * 1024));
    expect((await handler(request(bomb, { ...PROTO, 'Content-Encoding': 'gzip' }))).status).toBe(
      413,
    );
    expect((await handler(request(body.slice(0, 30)))).status).toBe(400);
    expect((await handler(request(body, { 'Content-Type': 'text/plain' }))).status).toBe(415);
    handler.registry.flush();
    expect(handler.registry.getSnapshot().runs[0]).toMatchObject({
      id: 'all',
      spans: 4,
      duplicates: 4,
    });
    expect(stream.latest().filter((e) => e.event === 'model')).toHaveLength(3);
    const foreign = new Request('http://evil.example/v1/traces', {
      method: 'POST',
      body: body as BodyInit,
      headers: PROTO,
    });
    expect((await handler(foreign)).status).toBe(421);
    const capped = createOtlpFetchHandler(new EventStream(), { maxConnections: 1 });
    const [first, second] = await Promise.all([capped(request(body)), capped(request(body))]);
    expect([first.status, second.status].sort()).toEqual([200, 503]);
    expect((await capped(request(body))).status).toBe(200);
    handler.close();
    expect((await handler(request(body))).status).toBe(503);
  });
});

describe('skein serve --otlp', () => {
  it('receives exports on the port it prints, answers --allowed-host names, lists the runs; Ctrl-C stops it', async () => {
    const out: string[] = [];
    const stop = new AbortController();
    const done = runCli(['serve', '--otlp', '--port', '0', '--allowed-host', 'otel.internal'], {
      stdout: (t) => void out.push(t),
      stderr: (t) => void out.push(t),
      signal: stop.signal,
    });
    const t0 = Date.now();
    while (!out.join('').includes('OTEL_EXPORTER_OTLP_ENDPOINT=')) {
      if (Date.now() - t0 > 10_000) throw new Error(out.join(''));
      await new Promise((r) => setTimeout(r, 20));
    }
    const base = /OTEL_EXPORTER_OTLP_ENDPOINT=(\S+)/.exec(out.join(''))![1]!;
    const exporter = new OTLPTraceExporter({ url: `${base}/v1/traces` });
    const result = await new Promise<{ code: number }>((d) =>
      exporter.export(spansOf(3, 'cli-agent'), d),
    );
    expect(result.code).toBe(0);
    let runs: { service: string; spans: number }[] = [];
    while (!runs.some((r) => r.service === 'cli-agent')) {
      runs = ((await (await fetch(`${base}/api/runs`)).json()) as { runs: typeof runs }).runs;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(runs.find((r) => r.service === 'cli-agent')!.spans).toBe(3);
    // --allowed-host names the receiver and the runs API answer, as for serve and view.
    expect((await raw(`${base}/api/runs`, { headers: { Host: 'otel.internal' } })).status).toBe(
      200,
    );
    expect((await raw(`${base}/api/runs`, { headers: { Host: 'evil.example' } })).status).toBe(421);
    const body = traceProtobuf(spansOf(1, 'named'));
    for (const [host, status] of [
      ['otel.internal:4318', 200],
      ['evil.example', 421],
    ] as const)
      expect(
        (
          await raw(`${base}/v1/traces`, {
            method: 'POST',
            headers: { ...PROTO, Host: host },
            body,
          })
        ).status,
      ).toBe(status);
    await exporter.shutdown();
    stop.abort();
    expect(await done).toBe(0);
  });
});
