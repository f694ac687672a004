/**
 * `skein/server/redis` — Redis Streams as a live source for `skein/server`
 * (needs the optional peer dependency `redis`, or any client with
 * `sendCommand`).
 * @packageDocumentation
 */
export { createRedisPublisher, createRedisSource } from './node/server/redis.js';
export type {
  RedisCommandClient,
  RedisPublisherOptions,
  RedisSource,
  RedisSourceOptions,
} from './node/server/redis.js';
export { publishOtlpRuns } from './node/otlp/redis-runs.js';
export type { OtlpRedisOptions, OtlpRedisPublication } from './node/otlp/redis-runs.js';
