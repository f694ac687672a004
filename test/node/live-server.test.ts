// skein/server's live handlers over real loopback sockets: protocol, resume,
// restarts, gzip, heartbeats, display values, slow clients, auth, CORS, Fetch
// and WebSocket variants (issue 21).
import { createSseParser } from '../../src/core/live/sse-parser.js';
import http from 'node:http';
import net from 'node:net';
import { createGunzip } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  connectEventStream,
  EventStream,
  eventStreamSource,
  type SequencedSource,
  type SseMessage,
} from '../../src/index.js';
import {
  createEventStreamFetchHandler,
  createEventStreamHandler,
  createEventStreamWebSocketHandler,
  type ConnectionCloseInfo,
  type EventStreamHandlerOptions,
} from '../../src/server.js';
import { jsonLines, liveEvents, RestartableServer, until } from './helpers/live.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function serve(
  input: Parameters<typeof createEventStreamHandler>[0],
  options: EventStreamHandlerOptions<http.IncomingMessage> = {},
) {
  const handler = createEventStreamHandler(input, options);
  const server = new RestartableServer(() => handler);
  const port = await server.start();
  cleanups.push(() => server.stop());
  return { handler, server, url: `http://127.0.0.1:${port}/events`, port };
}

/** Reads SSE messages from `url` until `stop(messages)` holds; raw, no client logic. */
async function readSse(
  url: string,
  headers: Record<string, string>,
  stop: (messages: SseMessage[]) => boolean,
): Promise<{ status: number; headers: Headers; messages: SseMessage[]; comments: number }> {
  const abort = new AbortController();
  const response = await fetch(url, { headers, signal: abort.signal });
  const messages: SseMessage[] = [];
  let comments = 0;
  if (response.body === null || !response.ok)
    return { status: response.status, headers: response.headers, messages, comments };
  const parse = createSseParser(
    (m) => messages.push(m),
    () => comments++,
  );
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  while (!stop(messages)) {
    const { done, value } = await reader.read();
    if (done) break;
    parse(decoder.decode(value, { stream: true }));
  }
  abort.abort();
  return { status: response.status, headers: response.headers, messages, comments };
}

describe('createEventStreamHandler (SSE)', () => {
  it('sends hello, the history with ids, live, then the tail; every version kept', async () => {
    const stream = EventStream.from(liveEvents(10));
    const { url, handler } = await serve(stream);
    const pending = readSse(url, {}, (m) => m.filter((x) => x.event === 'message').length >= 13);
    await until(() => handler.connections === 1, 'a connection');
    for (const e of liveEvents(3, 100)) stream.append(e);
    const { status, headers, messages } = await pending;
    expect(status).toBe(200);
    expect(headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(messages[0]!.event).toBe('hello');
    const hello = JSON.parse(messages[0]!.data);
    expect(hello).toEqual({ protocol: 1, streamId: handler.streamId, after: null, reset: false });
    const liveAt = messages.findIndex((m) => m.event === 'live');
    expect(liveAt).toBe(11); // hello + 10 history entries
    expect(JSON.parse(messages[liveAt]!.data)).toEqual({ seq: '10' });
    const entries = messages.filter((m) => m.event === 'message');
    expect(entries.map((m) => m.id)).toEqual(
      Array.from({ length: 13 }, (_, i) => `${handler.streamId}:${i + 1}`),
    );
    expect(entries.map((m) => m.data)).toEqual(jsonLines(stream));
    // liveEvents(10) holds a pending and a final version of uuid e3.
    expect(entries.filter((m) => JSON.parse(m.data).uuid === 'e3')).toHaveLength(2);
  });

  it('resumes after Last-Event-ID or ?from=, and starts over for another stream id', async () => {
    const stream = EventStream.from(liveEvents(20));
    const { url, handler } = await serve(stream);
    const id = (seq: number) => `${handler.streamId}:${seq}`;
    const byHeader = await readSse(url, { 'Last-Event-ID': id(15) }, (m) =>
      m.some((x) => x.event === 'live'),
    );
    expect(JSON.parse(byHeader.messages[0]!.data)).toMatchObject({ after: '15', reset: false });
    expect(byHeader.messages.filter((m) => m.event === 'message').map((m) => m.id)).toEqual(
      [16, 17, 18, 19, 20].map(id),
    );
    const byQuery = await readSse(`${url}?from=${encodeURIComponent(id(18))}`, {}, (m) =>
      m.some((x) => x.event === 'live'),
    );
    expect(byQuery.messages.filter((m) => m.event === 'message').map((m) => m.id)).toEqual(
      [19, 20].map(id),
    );
    for (const stale of ['another:5', `${handler.streamId}:999`, 'garbage']) {
      const r = await readSse(url, { 'Last-Event-ID': stale }, (m) =>
        m.some((x) => x.event === 'live'),
      );
      expect(JSON.parse(r.messages[0]!.data)).toMatchObject({ after: null, reset: true });
      expect(r.messages.filter((m) => m.event === 'message')).toHaveLength(20);
    }
  });

  it('starts over when a custom source refuses a position with a RangeError (the older contract)', async () => {
    const inner = eventStreamSource(EventStream.from(liveEvents(5)), { streamId: 'custom' });
    const source: SequencedSource = {
      streamId: 'custom',
      read(after, options) {
        if (after !== null && Number(after) > 5) throw new RangeError(`no ${after} here`);
        return inner.read(after, options);
      },
    };
    const { url } = await serve(source);
    const r = await readSse(url, { 'Last-Event-ID': 'custom:99' }, (m) =>
      m.some((x) => x.event === 'live'),
    );
    expect(JSON.parse(r.messages[0]!.data)).toMatchObject({ after: null, reset: true });
    expect(r.messages.filter((m) => m.event === 'message')).toHaveLength(5);
  });

  it('a client resyncs into a new stream when the server restarts with a new stream id', async () => {
    let stream = EventStream.from(liveEvents(50));
    const server = new RestartableServer(() => createEventStreamHandler(stream));
    const port = await server.start();
    cleanups.push(() => server.stop());
    const client = connectEventStream(`http://127.0.0.1:${port}/`, {
      retry: { firstDelayMs: 1, baseDelayMs: 1, maxDelayMs: 5 },
    });
    cleanups.push(() => client.close());
    await until(() => client.stream.length === 50, 'the first stream');
    const first = client.stream;
    await server.stop();
    stream = EventStream.from(liveEvents(30, 1000)); // a new run, a new random stream id
    await server.start();
    await until(
      () => client.stream !== first && client.status.getSnapshot().status === 'live',
      'the resync',
    );
    await until(() => client.stream.length === 30, 'the new history');
    expect(jsonLines(client.stream)).toEqual(jsonLines(stream));
    expect(first.length).toBe(50); // the old log is left as it was
    expect(client.status.getSnapshot()).toMatchObject({ resets: 1, stream: client.stream });
  });

  it('gzips when asked and flushes each batch (hello arrives before anything ends)', async () => {
    const stream = EventStream.from(liveEvents(5));
    const { port } = await serve(stream);
    const text = await new Promise<string>((resolve, reject) => {
      const req = http.get(
        { host: '127.0.0.1', port, path: '/', headers: { 'Accept-Encoding': 'gzip' } },
        (res) => {
          expect(res.headers['content-encoding']).toBe('gzip');
          let out = '';
          const gunzip = createGunzip();
          res.pipe(gunzip);
          gunzip.on('data', (chunk: Buffer) => {
            out += chunk.toString('utf8');
            // The stream never ends by itself: getting `live` proves the flush.
            if (out.includes('event: live')) {
              req.destroy();
              resolve(out);
            }
          });
          gunzip.on('error', reject);
        },
      );
      req.on('error', () => {});
    });
    expect(text.startsWith('retry: 1000\nevent: hello\n')).toBe(true);
    expect(text.match(/^id: /gm)).toHaveLength(5);
  });

  it('sends heartbeats when idle', async () => {
    const { url } = await serve(new EventStream(), { heartbeatMs: 30 });
    let comments = 0;
    const abort = new AbortController();
    const response = await fetch(url, { signal: abort.signal });
    const parse = createSseParser(
      () => {},
      () => comments++,
    );
    const reader = response.body!.getReader();
    while (comments < 2) parse(new TextDecoder().decode((await reader.read()).value));
    abort.abort();
    expect(comments).toBe(2);
  });

  it('sends values that are not events as display events, the same on every delivery', async () => {
    const values = [42n, new Map([['a', 1]]), 'plain text'];
    const custom: SequencedSource = {
      streamId: 'vals',
      read: async (after, { wait, signal }) => {
        const start = after === null ? 0 : Number(after);
        if (start >= values.length && wait)
          await new Promise<void>((resolve) => signal?.addEventListener('abort', () => resolve()));
        return values
          .slice(start)
          .map((value, i) => ({ seq: String(start + i + 1), value, time: 0 }));
      },
    };
    const { url } = await serve(custom);
    const read = () => readSse(url, {}, (m) => m.some((x) => x.event === 'live'));
    const [a, b] = [await read(), await read()];
    const records = a.messages.filter((m) => m.event === 'message').map((m) => JSON.parse(m.data));
    expect(records).toHaveLength(3);
    for (const r of records) {
      expect(r).toMatchObject({ event: 'display', timestamp: '1970-01-01T00:00:00.000Z' });
      expect(r.outputs[0].data['text/plain']).toEqual(expect.any(String));
    }
    expect(records[0].outputs[0].data['text/plain']).toBe('42n');
    expect(b.messages.map((m) => m.data)).toEqual(a.messages.map((m) => m.data));
    // …and a client appends them as events.
    const client = connectEventStream(url);
    cleanups.push(() => client.close());
    await until(() => client.stream.length === 3, 'the values');
    expect(client.stream.at(2)!.event).toBe('display');
  });

  it('closes a client that stops reading with slow_client, holding at most the bound', async () => {
    const stream = EventStream.from(liveEvents(2000));
    const closes: ConnectionCloseInfo[] = [];
    const { port } = await serve(stream, {
      maxBufferedBytes: 64 * 1024,
      slowClientTimeoutMs: 200,
      batchSize: 64,
      compression: false,
      onConnectionClose: (info) => closes.push(info),
    });
    // A raw socket that sends a request and never reads: the kernel buffers
    // fill, then the server's. Keep appending so there is always more to send.
    const socket = net.connect(port, '127.0.0.1');
    socket.pause();
    socket.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    cleanups.push(() => void socket.destroy());
    const feeder = setInterval(() => {
      for (const e of liveEvents(2000, stream.length * 3 + 5000)) stream.append(e);
    }, 20);
    cleanups.push(() => clearInterval(feeder));
    await until(() => closes.length === 1, 'the slow client to be closed', 30_000);
    expect(closes[0]!.reason).toBe('slow_client');
    // Bounded: the bound plus one batch (64 events of ~110 bytes), never the backlog.
    expect(closes[0]!.peakBufferedBytes).toBeLessThan(64 * 1024 + 64 * 200);
    expect(stream.length).toBeGreaterThan(20_000);
    // What the client reads, when it finally does, ends with the close reason.
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.resume();
    await until(() => socket.destroyed || text.includes('slow_client'), 'the rest');
  }, 40_000);

  it('refuses cleanly: 401 and 403 from authorize, 403 for a foreign origin, 405', async () => {
    const { url } = await serve(new EventStream(), {
      authorize: (req) => {
        const auth = req.headers.authorization;
        if (auth === undefined) return { status: 401, headers: { 'WWW-Authenticate': 'Bearer' } };
        return auth === 'Bearer good' || 403;
      },
    });
    const none = await fetch(url);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    expect(await none.text()).toBe('Unauthorized');
    const bad = await fetch(url, { headers: { Authorization: 'Bearer bad' } });
    expect([bad.status, await bad.text()]).toEqual([403, 'Forbidden']);
    const foreign = await fetch(url, {
      headers: { Authorization: 'Bearer good', Origin: 'https://evil.example' },
    });
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    expect((await fetch(url, { method: 'POST', body: 'x' })).status).toBe(405);
    const ok = await readSse(url, { Authorization: 'Bearer good' }, (m) => m.length > 0);
    expect(ok.status).toBe(200);
    // A client gets a final error for a refusal, not endless retries.
    const client = connectEventStream(url);
    await until(() => client.status.getSnapshot().status === 'closed', 'the refusal');
    expect(client.status.getSnapshot().error).toMatchObject({
      code: 'live_http_status',
      status: 401,
    });
  });

  it('opens CORS only to the configured origins, with preflight', async () => {
    const { url } = await serve(EventStream.from(liveEvents(1)), {
      cors: { origin: ['https://app.example'], credentials: true },
    });
    const pre = await fetch(url, {
      method: 'OPTIONS',
      headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'GET' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(pre.headers.get('access-control-allow-headers')).toContain('Last-Event-ID');
    const ok = await readSse(url, { Origin: 'https://app.example' }, (m) => m.length > 0);
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(ok.headers.get('access-control-allow-credentials')).toBe('true');
    const other = await fetch(url, { headers: { Origin: 'https://other.example' } });
    expect(other.status).toBe(403);
  });

  it('close() ends every connection with shutdown', async () => {
    const closes: ConnectionCloseInfo[] = [];
    const { url, handler } = await serve(EventStream.from(liveEvents(3)), {
      onConnectionClose: (i) => closes.push(i),
    });
    const reading = readSse(url, {}, (m) => m.some((x) => x.event === 'close'));
    await until(() => handler.connections === 1, 'the connection');
    await handler.close();
    const { messages } = await reading;
    expect(JSON.parse(messages.at(-1)!.data)).toEqual({ reason: 'shutdown' });
    expect(closes.map((c) => c.reason)).toEqual(['shutdown']);
  });
});

describe('createEventStreamFetchHandler', () => {
  it('serves the same protocol as a Response, resumes, refuses with 401', async () => {
    const stream = EventStream.from(liveEvents(8));
    const handler = createEventStreamFetchHandler(stream, {
      authorize: (request) => request.headers.get('authorization') === 'Bearer t' || 401,
    });
    expect((await handler(new Request('http://127.0.0.1/events'))).status).toBe(401);
    const abort = new AbortController();
    const response = await handler(
      new Request('http://127.0.0.1/events?from=' + encodeURIComponent(`${handler.streamId}:5`), {
        headers: { Authorization: 'Bearer t' },
        signal: abort.signal,
      }),
    );
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const messages: SseMessage[] = [];
    const parse = createSseParser((m) => messages.push(m));
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    while (!messages.some((m) => m.event === 'live'))
      parse(decoder.decode((await reader.read()).value, { stream: true }));
    abort.abort();
    await reader.cancel();
    expect(messages.filter((m) => m.event === 'message').map((m) => m.data)).toEqual(
      jsonLines(stream).slice(5),
    );
    await until(() => handler.connections === 0, 'the session to end');
  });

  it('feeds connectEventStream through an injected fetch', async () => {
    const stream = EventStream.from(liveEvents(300));
    const handler = createEventStreamFetchHandler(stream, { batchSize: 32 });
    const client = connectEventStream('http://127.0.0.1/events', {
      // A Fetch handler's Request → Response fits FetchLike with no cast.
      fetch: (url, init) => handler(new Request(url, init)),
    });
    cleanups.push(() => client.close());
    await until(() => client.status.getSnapshot().status === 'live', 'live');
    expect(jsonLines(client.stream)).toEqual(jsonLines(stream));
  });
});

describe('createEventStreamWebSocketHandler', () => {
  it('serves the same semantics over ws: history, live tail, resume after a drop', async () => {
    const stream = EventStream.from(liveEvents(500));
    const wsHandler = createEventStreamWebSocketHandler(stream, { batchSize: 50 });
    const server = new RestartableServer(() => (_req, res) => res.writeHead(404).end());
    const port = await server.start();
    server.server!.on('upgrade', wsHandler);
    cleanups.push(() => server.stop());
    const sockets: WebSocket[] = [];
    class TrackedWebSocket extends WebSocket {
      constructor(url: string) {
        super(url);
        sockets.push(this);
      }
    }
    const client = connectEventStream(`http://127.0.0.1:${port}/live`, {
      transport: 'websocket',
      WebSocket: TrackedWebSocket as never,
      retry: { firstDelayMs: 1 },
    });
    cleanups.push(() => client.close());
    await until(() => client.status.getSnapshot().status === 'live', 'live');
    for (const e of liveEvents(100, 5000)) stream.append(e);
    await until(() => client.stream.length === 600, 'the tail');
    sockets.at(-1)!.terminate(); // a drop
    for (const e of liveEvents(100, 9000)) stream.append(e);
    await until(() => client.stream.length === 700, 'the resumed tail');
    expect(sockets.length).toBe(2);
    expect(sockets[1]!.url).toContain(`from=${encodeURIComponent(`${wsHandler.streamId}:600`)}`);
    expect(jsonLines(client.stream)).toEqual(jsonLines(stream));
  });

  it('refuses the upgrade with a plain 401', async () => {
    const wsHandler = createEventStreamWebSocketHandler(new EventStream(), {
      authorize: () => 401,
    });
    const server = new RestartableServer(() => (_req, res) => res.writeHead(404).end());
    const port = await server.start();
    server.server!.on('upgrade', wsHandler);
    cleanups.push(() => server.stop());
    const status = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/`);
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('error', () => {});
    });
    expect(status).toBe(401);
  });

  /** Attaches `wsHandler` to a fresh server; its port. */
  async function upgradeServer(wsHandler: ReturnType<typeof createEventStreamWebSocketHandler>) {
    const server = new RestartableServer(() => (_req, res) => res.writeHead(404).end());
    const port = await server.start();
    server.server!.on('upgrade', wsHandler);
    cleanups.push(() => server.stop());
    return port;
  }

  /** The response to a refused upgrade: status and headers. */
  const refused = (port: number, headers: Record<string, string>) =>
    new Promise<http.IncomingMessage>((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/`, { headers });
      ws.on('unexpected-response', (_req, res) => resolve(res));
      ws.on('open', () => reject(new Error('upgraded')));
      ws.on('error', () => {});
    });

  it('checks CORS as the SSE handlers do: a foreign origin 403, an allowed one gets its headers on a 401', async () => {
    const closed = await upgradeServer(createEventStreamWebSocketHandler(new EventStream()));
    expect((await refused(closed, { Origin: 'https://evil.example' })).statusCode).toBe(403);
    const port = await upgradeServer(
      createEventStreamWebSocketHandler(new EventStream(), {
        cors: { origin: ['https://app.example'] },
        authorize: () => 401,
      }),
    );
    const res = await refused(port, { Origin: 'https://app.example' });
    expect(res.statusCode).toBe(401);
    expect(res.headers['access-control-allow-origin']).toBe('https://app.example');
  });

  it('counts its connections and ends them on close() with the reason shutdown', async () => {
    const ends: ConnectionCloseInfo[] = [];
    const wsHandler = createEventStreamWebSocketHandler(EventStream.from(liveEvents(3)), {
      onConnectionClose: (info) => ends.push(info),
    });
    const port = await upgradeServer(wsHandler);
    const codes: number[] = [];
    const frames: string[] = [];
    const sockets = [0, 1].map(() => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/`);
      ws.on('message', (data) => frames.push(String(data)));
      ws.on('close', (code) => codes.push(code));
      return ws;
    });
    cleanups.push(() => sockets.forEach((s) => s.terminate()));
    await until(() => wsHandler.connections === 2, 'two connections');
    await until(() => frames.filter((f) => f.includes('"live"')).length === 2, 'both live');
    await wsHandler.close();
    expect(wsHandler.connections).toBe(0);
    expect(ends.map((e) => e.reason)).toEqual(['shutdown', 'shutdown']);
    await until(() => codes.length === 2, 'both closed');
    expect(codes).toEqual([1001, 1001]);
  });
});
