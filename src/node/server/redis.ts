/**
 * Redis Streams as a live source (`skein/server/redis`): agent
 * workers on many machines `XADD` to one stream, and any number of web
 * servers serve it without loss. The Redis entry id is the sequence
 * (`1718000000000-0`), `XRANGE` replays history, and one `XREAD BLOCK` per
 * source follows the tail for all of its waiting connections.
 *
 * The client is `redis` (node-redis v4/v5, an optional peer dependency), used
 * only through `sendCommand`, so this module imports nothing from it; any
 * client with that method works.
 */
import { randomUUID } from 'node:crypto';
import { SkeinError } from '../../core/errors.js';
import { isCanonicalEvent, toJsonSafe } from '../../core/display/mime-stream.js';
import { isSeq } from '../../core/live/sequence.js';
import type { SequencedEntry, SequencedSource, SourceReadOptions } from '../../core/live/source.js';
import { entryJson } from '../../core/live/wire.js';

/**
 * The part of a Redis client skein uses: node-redis's `sendCommand` (raw
 * RESP2 replies).
 *
 * @example
 * import { createClient } from 'redis';
 * import type { RedisCommandClient } from 'skein/server/redis';
 * const client: RedisCommandClient = await createClient({ url: process.env.REDIS_URL }).connect();
 */
export interface RedisCommandClient {
  sendCommand(args: string[]): Promise<unknown>;
  /** A new client with the same options (node-redis), for the blocking follower. */
  duplicate?(): RedisCommandClient & { connect(): Promise<unknown> };
  /** Closes a duplicated client (node-redis v4 `quit`, v5 `close`/`destroy`). */
  quit?(): Promise<unknown>;
  close?(): Promise<unknown>;
}

/**
 * Options of {@link createRedisSource}.
 *
 * @example
 * import { createRedisSource, type RedisCommandClient } from 'skein/server/redis';
 * declare const client: RedisCommandClient;
 * await createRedisSource({ client, key: 'run:42' });
 */
export interface RedisSourceOptions {
  client: RedisCommandClient;
  /** The Redis stream key. */
  key: string;
  /**
   * A connection for `XREAD BLOCK` (it blocks the connection it runs on).
   * Default: `client.duplicate()`, connected here and closed by `close()`.
   */
  blockingClient?: RedisCommandClient;
  /** How long one `XREAD BLOCK` waits before it is sent again, ms. Default 5000. */
  blockMs?: number;
}

/**
 * A {@link SequencedSource} over a Redis stream, with `close()` to stop
 * following (and close the duplicated connection).
 *
 * @example
 * import http from 'node:http';
 * import { createEventStreamHandler } from 'skein/server';
 * import { createRedisSource, type RedisCommandClient } from 'skein/server/redis';
 * declare const client: RedisCommandClient;
 * const source = await createRedisSource({ client, key: 'run:42' });
 * http.createServer(createEventStreamHandler(source)).listen(8080);
 */
export interface RedisSource extends SequencedSource {
  close(): Promise<void>;
}

/** The key holding a stream's skein stream id, beside the stream. */
const idKey = (key: string) => `${key}:skein-stream-id`;

/**
 * The stream id of a Redis stream, created on first use (`SET NX`) so every
 * producer and server agrees on it. Delete the stream and this key together
 * to start a run over; clients then see a new id and resync.
 */
async function streamIdOf(client: RedisCommandClient, key: string): Promise<string> {
  const fresh = randomUUID().replace(/-/g, '').slice(0, 16);
  await client.sendCommand(['SET', idKey(key), fresh, 'NX']);
  const id = await client.sendCommand(['GET', idKey(key)]);
  return typeof id === 'string' ? id : fresh;
}

type RawEntry = [string, string[]];

function toEntries(raw: unknown): SequencedEntry[] {
  if (!Array.isArray(raw)) return [];
  const out: SequencedEntry[] = [];
  for (const item of raw as RawEntry[]) {
    const [id, fields] = item;
    let text: string | undefined;
    for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i] === 'v') text = fields[i + 1];
    let value: unknown = null;
    try {
      value = text === undefined ? null : JSON.parse(text);
    } catch {
      value = text;
    }
    out.push({ seq: id, value, time: Number(id.split('-')[0]) });
  }
  return out;
}

/**
 * A live source over the Redis stream `key`: `read(after)` is `XRANGE key
 * (after + COUNT limit`; a waiting read parks until the source's one
 * `XREAD BLOCK` follower sees a newer entry. Entries are those written by
 * {@link createRedisPublisher} (field `v`, JSON). Needs Redis ≥ 6.2
 * (exclusive ranges).
 *
 * @example
 * import http from 'node:http';
 * import { createClient } from 'redis';
 * import { createEventStreamHandler } from 'skein/server';
 * import { createRedisSource } from 'skein/server/redis';
 *
 * const client = await createClient({ url: process.env.REDIS_URL }).connect();
 * const source = await createRedisSource({ client, key: 'run:42' });
 * http.createServer(createEventStreamHandler(source)).listen(8080, '127.0.0.1');
 */
export async function createRedisSource(options: RedisSourceOptions): Promise<RedisSource> {
  const { client, key } = options;
  const blockMs = options.blockMs ?? 5000;
  const streamId = await streamIdOf(client, key);
  let blocking = options.blockingClient ?? null;
  let ownBlocking = false;
  let closed = false;
  const waiters = new Set<() => void>();
  let tail = '0-0'; // follow entries after this id
  let following: Promise<void> | null = null;

  const follow = async () => {
    if (blocking === null) {
      if (client.duplicate === undefined) throw new SkeinError('redis_no_blocking_client');
      const dup = client.duplicate();
      await dup.connect();
      blocking = dup;
      ownBlocking = true;
    }
    while (waiters.size > 0 && !closed) {
      const reply = await blocking.sendCommand([
        'XREAD',
        'COUNT',
        '1',
        'BLOCK',
        String(blockMs),
        'STREAMS',
        key,
        tail,
      ]);
      if (!Array.isArray(reply) || reply.length === 0) continue;
      const entries = toEntries((reply[0] as [string, unknown])[1]);
      if (entries.length > 0) tail = entries[entries.length - 1]!.seq;
      for (const wake of [...waiters]) wake();
    }
  };

  const waitForNewer = (after: string | null, signal: SourceReadOptions['signal']) =>
    new Promise<void>((resolve, reject) => {
      // Nothing follows `after` now, so following from it misses nothing.
      if (after !== null && compareIds(after, tail) > 0) tail = after;
      const wake = () => {
        waiters.delete(wake);
        signal?.removeEventListener('abort', wake);
        resolve();
      };
      waiters.add(wake);
      signal?.addEventListener('abort', wake, { once: true });
      following ??= follow()
        .catch((error: unknown) => {
          for (const w of [...waiters]) waiters.delete(w);
          reject(error);
        })
        .finally(() => {
          following = null;
        });
    });

  return {
    streamId,
    async read(after, { limit, wait, signal }) {
      if (after !== null && !isSeq(after))
        throw new SkeinError('live_bad_position', after, 'not a Redis entry id');
      const start = after === null ? '-' : `(${after}`;
      const count = String(Math.max(1, limit));
      for (;;) {
        const raw = await client.sendCommand(['XRANGE', key, start, '+', 'COUNT', count]);
        const entries = toEntries(raw);
        if (entries.length > 0 || !wait || signal?.aborted === true || closed) return entries;
        await waitForNewer(after, signal);
        if (isAborted(signal) || closed) return [];
      }
    },
    async close() {
      closed = true;
      for (const wake of [...waiters]) wake();
      if (ownBlocking && blocking !== null) {
        const b = blocking;
        blocking = null;
        // An XREAD BLOCK in flight ends with the connection.
        await (b.close?.() ?? b.quit?.())?.catch(() => {});
      }
    },
  };
}

/** Read through a function: TypeScript would keep `aborted` narrowed across an await. */
function isAborted(signal: SourceReadOptions['signal']): boolean {
  return signal?.aborted === true;
}

/** Compares Redis ids `ms-n` numerically. */
function compareIds(a: string, b: string): number {
  const [am = '0', an = '0'] = a.split('-');
  const [bm = '0', bn = '0'] = b.split('-');
  return am.length - bm.length || (am < bm ? -1 : am > bm ? 1 : 0) || Number(an) - Number(bn);
}

/**
 * Options of {@link createRedisPublisher}.
 *
 * @example
 * import { createRedisPublisher, type RedisCommandClient } from 'skein/server/redis';
 * declare const client: RedisCommandClient;
 * await createRedisPublisher({ client, key: 'run:42', maxLen: 1_000_000 });
 */
export interface RedisPublisherOptions {
  client: RedisCommandClient;
  key: string;
  /** Trim the stream to about this many entries (`MAXLEN ~`). Default: never trim. */
  maxLen?: number;
}

/**
 * A producer for a Redis stream served by {@link createRedisSource}: each
 * `append` is one `XADD` and resolves with the entry id. Canonical events are
 * stored as their JSON; any other value as a `display` event (its portable
 * `display_data` form), so every server shows it alike.
 *
 * @example
 * import { createRedisPublisher, type RedisCommandClient } from 'skein/server/redis';
 * declare const client: RedisCommandClient;
 * const publish = await createRedisPublisher({ client, key: 'run:42' });
 * await publish.append(event);
 */
export async function createRedisPublisher(
  options: RedisPublisherOptions,
): Promise<{ streamId: string; append(value: unknown): Promise<string> }> {
  const { client, key } = options;
  const streamId = await streamIdOf(client, key);
  const trim = options.maxLen === undefined ? [] : ['MAXLEN', '~', String(options.maxLen)];
  return {
    streamId,
    async append(value) {
      const json = isCanonicalEvent(value)
        ? safeJson(value)
        : entryJson({ seq: randomUUID(), value, time: Date.now() }, streamId);
      const id = await client.sendCommand(['XADD', key, ...trim, '*', 'v', json]);
      return String(id);
    },
  };
}

function safeJson(value: unknown): string {
  try {
    const text = JSON.stringify(value);
    if (text !== undefined) return text;
  } catch {
    // bigint or a cycle
  }
  return JSON.stringify(toJsonSafe(value));
}
