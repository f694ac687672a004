// Publishing an OTLP run registry to Redis Streams, past one machine: many
// agents export to one receiver, and each run is appended, event by event,
// to the Redis stream `<prefix><run id>` (the `skein/server/redis` format),
// so any number of web servers serve it with `createRedisSource`. The list
// of runs is kept in the hash `<prefix>runs` (field: run id, value: its
// info as JSON).
import type { OtlpRunRegistry } from '../../core/otlp-runs/types.js';
import { createRedisPublisher, type RedisCommandClient } from '../server/redis.js';

/**
 * Options of {@link publishOtlpRuns}.
 *
 * @example
 * import type { OtlpRedisOptions, RedisCommandClient } from 'skein/server/redis';
 * declare const client: RedisCommandClient;
 * const options: OtlpRedisOptions = { client, prefix: 'agents:' };
 */
export interface OtlpRedisOptions {
  client: RedisCommandClient;
  /** Key prefix. Default `skein:otlp:`. */
  prefix?: string;
  /** Trim each run's stream to about this many entries. Default: never. */
  maxLen?: number;
}

/**
 * What {@link publishOtlpRuns} returns: `close()` stops following and waits
 * for what is being written; `idle()` resolves when everything seen so far
 * is written.
 *
 * @example
 * import type { OtlpRedisPublication } from 'skein/server/redis';
 * declare const publication: OtlpRedisPublication;
 * await publication.idle();
 */
export interface OtlpRedisPublication {
  idle(): Promise<void>;
  close(): Promise<void>;
  /** The last Redis error (publishing goes on with the next change). */
  readonly error: Error | null;
}

/**
 * Appends every run of `registry` to Redis Streams as it grows (see the top
 * of this file). The order of a run's events is kept; a run merged into
 * another stops at the merge (the other holds everything).
 *
 * @example
 * import { createClient } from 'redis';
 * import { createOtlpRunRegistry } from 'skein';
 * import { publishOtlpRuns } from 'skein/server/redis';
 * const client = await createClient({ url: process.env.REDIS_URL }).connect();
 * const registry = createOtlpRunRegistry();
 * const publication = publishOtlpRuns(registry, { client });
 */
export function publishOtlpRuns(
  registry: OtlpRunRegistry,
  options: OtlpRedisOptions,
): OtlpRedisPublication {
  const prefix = options.prefix ?? 'skein:otlp:';
  const published = new Map<string, { count: number; version: number; chain: Promise<void> }>();
  let error: Error | null = null;
  let closed = false;
  let pending: Promise<void> = Promise.resolve();

  const publishers = new Map<string, ReturnType<typeof createRedisPublisher>>();
  const publisherOf = (id: string) => {
    let p = publishers.get(id);
    if (!p) {
      p = createRedisPublisher({
        client: options.client,
        key: `${prefix}${id}`,
        ...(options.maxLen !== undefined ? { maxLen: options.maxLen } : {}),
      });
      publishers.set(id, p);
    }
    return p;
  };

  const onChange = () => {
    if (closed) return;
    for (const info of registry.getSnapshot().runs) {
      let state = published.get(info.id);
      if (!state)
        published.set(info.id, (state = { count: 0, version: -1, chain: Promise.resolve() }));
      if (state.version === info.version) continue;
      state.version = info.version;
      const run = registry.get(info.id);
      if (!run) continue;
      const s = state;
      const json = JSON.stringify(info);
      s.chain = s.chain.then(async () => {
        try {
          const publisher = await publisherOf(info.id);
          const length = run.stream.length;
          for (let i = s.count; i < length; i++) await publisher.append(run.stream.at(i));
          s.count = Math.max(s.count, length);
          await options.client.sendCommand(['HSET', `${prefix}runs`, info.id, json]);
        } catch (e) {
          error = e as Error;
        }
      });
      pending = Promise.all([pending, s.chain]).then(() => {});
    }
  };
  const unsubscribe = registry.subscribe(onChange);
  onChange();

  return {
    idle: async () => {
      // New work may be queued while waiting: wait until nothing changes.
      for (;;) {
        const before = pending;
        await before;
        if (before === pending) return;
      }
    },
    async close() {
      closed = true;
      unsubscribe();
      await pending;
    },
    get error() {
      return error;
    },
  };
}
