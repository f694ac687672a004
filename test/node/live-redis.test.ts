// skein/server/redis against a real redis-server started on a free loopback
// port (never skipped: where redis-server cannot start, the suite fails and
// says how to install it, as for Chromium): two
// producers, two web servers over one Redis stream, a client moved between
// servers mid-feed; nothing lost, nothing twice.
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectEventStream } from '../../src/index.js';
import { createEventStreamHandler } from '../../src/server.js';
import { createRedisPublisher, createRedisSource } from '../../src/server-redis.js';
import {
  FaultProxy,
  jsonLines,
  liveEvents,
  prng,
  RestartableServer,
  until,
} from './helpers/live.js';
import { startRedisServer, type RedisServer } from './helpers/redis-server.js';

const redis: RedisServer | null = await startRedisServer();

describe('Redis Streams source', () => {
  const cleanups: (() => Promise<unknown> | void)[] = [];
  let client: ReturnType<typeof createClient>;
  beforeAll(async () => {
    if (redis === null)
      throw new Error(
        'redis-server could not start: install it (apt-get install -y redis-server) or set REDIS_SERVER to its path',
      );
    client = createClient({ url: redis!.url });
    await client.connect();
  });
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
    client?.destroy();
    await redis?.stop();
  });

  it('serves one stream from two servers to clients that move between them, without loss', async () => {
    const key = 'run:moving';
    const events = liveEvents(4000);
    const [p1, p2] = [
      await createRedisPublisher({ client, key }),
      await createRedisPublisher({ client, key }),
    ];
    expect(p1.streamId).toBe(p2.streamId);
    // Two web servers, each with its own source (as on two machines).
    const servers: RestartableServer[] = [];
    for (let i = 0; i < 2; i++) {
      const source = await createRedisSource({ client, key, blockMs: 200 });
      cleanups.push(() => source.close());
      const server = new RestartableServer(() =>
        createEventStreamHandler(source, { compression: false, batchSize: 100 }),
      );
      await server.start();
      cleanups.push(() => server.stop());
      servers.push(server);
    }
    // A proxy that sends each new connection to the other server, and cuts
    // connections after a few kB: the client keeps switching servers.
    const random = prng(5);
    let turn = 0;
    const proxy = new FaultProxy(
      () => servers[turn++ % 2]!.port,
      () => 500 + random() * 8000,
    );
    const url = await proxy.start();
    cleanups.push(() => proxy.stop());
    const live = connectEventStream(url, {
      retry: { firstDelayMs: 2, baseDelayMs: 2, maxDelayMs: 20 },
    });
    cleanups.push(() => live.close());

    // Two producers interleave their appends (each keeps its own order).
    await Promise.all(
      [p1, p2].map(async (p, which) => {
        for (let i = which; i < events.length; i += 2) {
          await p.append(events[i]);
          if (i % 200 === which) await new Promise((r) => setTimeout(r, 5));
        }
      }),
    );
    const all = await client.sendCommand(['XRANGE', key, '-', '+']);
    const stored = (all as unknown as [string, string[]][]).map(([, fields]) => fields[1]!);
    expect(stored).toHaveLength(events.length);
    await until(() => live.stream.length >= events.length, 'the client to catch up', 30_000);
    expect(proxy.cuts).toBeGreaterThan(10);
    expect(jsonLines(live.stream)).toEqual(stored.map((t) => JSON.stringify(JSON.parse(t))));
    expect(live.status.getSnapshot().streamId).toBe(p1.streamId);
  }, 60_000);

  it('replays after an id, waits for the next XADD, and rejects ids that are not ids', async () => {
    const key = 'run:read';
    const publish = await createRedisPublisher({ client, key });
    const source = await createRedisSource({ client, key, blockMs: 100 });
    cleanups.push(() => source.close());
    const ids = [];
    for (const e of liveEvents(5)) ids.push(await publish.append(e));
    const after2 = await source.read(ids[1]!, { limit: 10, wait: false });
    expect(after2.map((e) => e.seq)).toEqual(ids.slice(2));
    const waiting = source.read(ids[4]!, { limit: 10, wait: true });
    await new Promise((r) => setTimeout(r, 150)); // past one BLOCK timeout
    const id6 = await publish.append(new Map([['x', 1]]));
    const [next] = await waiting;
    expect(next!.seq).toBe(id6);
    expect(next!.value).toMatchObject({ event: 'display' });
    await expect(source.read('nope', { limit: 1, wait: false })).rejects.toMatchObject({
      code: 'live_bad_position',
      message: 'Cannot read after "nope": not a Redis entry id',
    });
    const abort = new AbortController();
    const parked = source.read(id6, { limit: 1, wait: true, signal: abort.signal });
    abort.abort();
    expect(await parked).toEqual([]);
  });
});
