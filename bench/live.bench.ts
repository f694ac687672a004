/**
 * Live feeds (issue 21), over real loopback sockets:
 * - `node.live.sse.throughput.<n>`: events/s from an SSE server to a
 *   `connectEventStream` client (fetch transport, gzip as negotiated), for a
 *   history of n events, parsed and appended on the client;
 * - `node.live.sse.catch-up.<n>`: ms from connect to `live` for that history,
 *   against JSON.parse of the same events' JSON (the client cannot beat it);
 * - `node.live.sse.resume.<n>`: ms from reconnect to `live` for a client that
 *   holds n − 1,000 of n events (what a dropped client pays to catch up);
 * - `node.live.append.1m`: 10k appends, each in its own microtask with a
 *   subscriber reading the snapshot, to a 1M-event stream, against the same
 *   appends to a 10k-event stream (O(1) per append: the ratio stays ~1).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { connectEventStream, EventStream, type Event } from '../src/index.js';
import { createEventStreamHandler } from '../src/server.js';
import { defineBench } from './node.js';

function events(count: number, offset = 0): Event[] {
  const out: Event[] = [];
  const t0 = Date.UTC(2026, 0, 1);
  for (let k = offset; k < offset + count; k++)
    out.push({
      event: 'info',
      uuid: `e${k}`,
      timestamp: new Date(t0 + k).toISOString(),
      data: `line ${k}`,
    } as Event);
  return out;
}

async function listen(stream: EventStream) {
  const handler = createEventStreamHandler(stream);
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    url,
    streamId: handler.streamId,
    stop: async () => {
      await handler.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** ms from connect to `live`, and the client's length then. */
async function catchUp(url: string, options: Parameters<typeof connectEventStream>[1] = {}) {
  const t0 = performance.now();
  const client = connectEventStream(url, options);
  await new Promise<void>((resolve, reject) => {
    const unsubscribe = client.status.subscribe(() => {
      const s = client.status.getSnapshot();
      if (s.status === 'live') {
        unsubscribe();
        resolve();
      } else if (s.status === 'closed') reject(s.error ?? new Error('closed'));
    });
  });
  const ms = performance.now() - t0;
  const length = client.stream.length;
  client.close();
  return { ms, length };
}

export default defineBench({
  name: 'node.live',
  async run(ctx) {
    const n = ctx.size(100_000, 20_000);
    const label = ctx.label(n);
    const history = events(n);
    const server = await listen(EventStream.from(history));
    try {
      const full = await ctx.time(
        async () => {
          const r = await catchUp(server.url);
          if (r.length !== n) throw new Error(`caught up with ${r.length} of ${n}`);
        },
        { repeat: 5, warmup: 1 },
      );
      const json = `[${history.map((e) => JSON.stringify(e)).join(',')}]`;
      const parse = await ctx.jsonParse(json, `node.live.sse.${label}`);
      ctx.record({
        name: `node.live.sse.throughput.${label}`,
        value: Math.round(n / (full.median / 1000)),
        unit: 'events/s',
        n,
      });
      ctx.record(
        { name: `node.live.sse.catch-up.${label}`, value: full.median, unit: 'ms', n },
        parse,
      );

      // A client that holds all but the last 1,000 events reconnects.
      const held = n - 1000;
      const resume = await ctx.time(
        async () => {
          const stream = EventStream.from(history.slice(0, held));
          const r = await catchUp(server.url, {
            stream,
            lastEventId: `${server.streamId}:${held}`,
          });
          if (r.length !== n) throw new Error(`resumed to ${r.length} of ${n}`);
        },
        { repeat: 9, warmup: 1 },
      );
      ctx.record({ name: `node.live.sse.resume.${label}`, value: resume.median, unit: 'ms', n });
    } finally {
      await server.stop();
    }

    // Appends one by one, each in its own microtask turn, with a subscriber.
    // The streams are built before timing (and the runner collects garbage
    // before each sample), so a sample times only the appends.
    const appender = (base: number) => {
      const stream = EventStream.from(events(base));
      let seen = 0;
      stream.subscribe(() => (seen = stream.getSnapshot().length));
      return async () => {
        const more = events(10_000, stream.length);
        const t0 = performance.now();
        for (const e of more) {
          stream.append(e);
          await Promise.resolve();
        }
        const ms = performance.now() - t0;
        if (seen !== stream.length) throw new Error('a notification was lost');
        return ms;
      };
    };
    const big = ctx.size(1_000_000, 200_000);
    const small = await ctx.time(appender(10_000), { repeat: 7, warmup: 2 });
    const smallMetric = {
      name: 'node.live.append.10k',
      value: small.median,
      unit: 'ms' as const,
      n: 10_000,
    };
    ctx.record(smallMetric);
    const large = await ctx.time(appender(big), { repeat: 7, warmup: 2 });
    ctx.record(
      {
        name: `node.live.append.${ctx.label(big)}`,
        value: large.median,
        unit: 'ms',
        n: big,
        target: '≈ 1× (O(1) per append)',
      },
      smallMetric,
    );
  },
});
