// An OTLP run registry published to Redis Streams (`publishOtlpRuns`): each
// run's events in order in `skein:otlp:<run id>`, served by another "web
// server" through `createRedisSource` — a real redis-server on a free
// loopback port, as in live-redis.test.ts.
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOtlpRunRegistry } from '../../src/index.js';
import { createRedisSource, publishOtlpRuns } from '../../src/server-redis.js';
import { otelSdk, traceRequest, under } from '../helpers/otel-sdk.js';
import { startRedisServer, type RedisServer } from './helpers/redis-server.js';

const redis: RedisServer | null = await startRedisServer();

describe('publishOtlpRuns', () => {
  let client: ReturnType<typeof createClient>;
  beforeAll(async () => {
    if (redis === null)
      throw new Error(
        'redis-server could not start: install it (apt-get install -y redis-server) or set REDIS_SERVER to its path',
      );
    client = createClient({ url: redis.url });
    await client.connect();
  });
  afterAll(async () => {
    client?.destroy();
    await redis?.stop();
  });

  it('appends each run to its Redis stream in order, and lists the runs', async () => {
    const registry = createOtlpRunRegistry();
    const publication = publishOtlpRuns(registry, { client, prefix: 'test:' });
    const sdk = otelSdk('redis-agent');
    const root = sdk.tracer.startSpan('invoke_agent r');
    for (let i = 0; i < 5; i++)
      sdk.tracer
        .startSpan(`chat ${i}`, { attributes: { 'gen_ai.operation.name': 'chat' } }, under(root))
        .end();
    root.end();
    registry.ingestTraces(traceRequest(sdk.spans()));
    registry.flush();
    const [info] = registry.getSnapshot().runs;
    registry.end(info!.id);
    await new Promise((r) => setTimeout(r, 10));
    await publication.idle();
    expect(publication.error).toBeNull();
    const local = registry.get(info!.id)!.stream.toArray();
    const source = await createRedisSource({ client, key: `test:${info!.id}` });
    const entries = await source.read(null, { limit: 1000, wait: false });
    expect(entries.map((e) => (e.value as { uuid: string }).uuid)).toEqual(
      local.map((e) => e.uuid),
    );
    const listed = JSON.parse((await client.hGet('test:runs', info!.id))!) as { spans: number };
    expect(listed.spans).toBe(6);
    await source.close();
    await publication.close();
    registry.close();
  });
});
