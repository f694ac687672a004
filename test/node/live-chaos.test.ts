// Issue 21's loss test: a 100k-event feed over a real loopback server, with
// 1,000+ random client disconnects (cut mid-message by a proxy) and 20 server
// restarts; the client must end with exactly the server's log.
import { afterEach, describe, expect, it } from 'vitest';
import { connectEventStream, EventStream, type SequencedSource } from '../../src/index.js';
import { createEventStreamHandler } from '../../src/server.js';
import { eventStreamSource } from '../../src/core/live/source.js';
import {
  FaultProxy,
  jsonLines,
  liveEvents,
  prng,
  RestartableServer,
  until,
} from './helpers/live.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('live feed under faults', () => {
  it('loses and duplicates nothing over 1,000 disconnects and 20 server restarts (100k events)', async () => {
    const random = prng(21);
    const all = liveEvents(100_000);
    const stream = new EventStream();
    // The log outlives the server process, as a file or Redis would: restarts
    // keep the stream id, so clients resume.
    const source = eventStreamSource(stream, { streamId: 'chaos' });
    const server = new RestartableServer(() =>
      createEventStreamHandler(source, { compression: false, batchSize: 256 }),
    );
    await server.start();
    cleanups.push(() => server.stop());
    // Cut after 200 B .. 20 kB from the server: ~100 events of ~110 bytes
    // per connection on average, so over 1,000 cuts in the feed.
    const proxy = new FaultProxy(
      () => server.port,
      () => 200 + random() * 20_000,
    );
    const url = await proxy.start();
    cleanups.push(() => proxy.stop());

    const client = connectEventStream(url, {
      retry: { firstDelayMs: 2, baseDelayMs: 2, maxDelayMs: 20 },
      random,
    });
    cleanups.push(() => client.close());

    // Produce in 2,000 steps of 50; restart the server every 100 steps.
    let restarts = 0;
    for (let step = 0; step < 2000; step++) {
      for (let i = step * 50; i < (step + 1) * 50; i++) stream.append(all[i]!);
      if (step % 100 === 50) {
        await server.stop();
        await new Promise((r) => setTimeout(r, random() * 20));
        await server.start();
        restarts++;
      }
      await new Promise((r) => setImmediate(r));
    }
    await until(
      () => client.stream.length >= all.length && client.status.getSnapshot().status === 'live',
      'the client to catch up',
      // Generous: under the whole suite on 2 cores the catch-up took over 40 s.
      150_000,
    );

    expect(restarts).toBe(20);
    expect(proxy.cuts).toBeGreaterThanOrEqual(1000);
    const snap = client.status.getSnapshot();
    expect(snap.resets).toBe(0);
    expect(client.stream.length).toBe(all.length);
    // Exactly the server's log, in order, every version (pending and final).
    expect(jsonLines(client.stream)).toEqual(jsonLines(stream));
  }, 180_000);

  it('ends equal to the server when the source delivers duplicates, reorders and skips', async () => {
    const random = prng(7);
    const stream = EventStream.from(liveEvents(20_000));
    const honest = eventStreamSource(stream, { streamId: 'flaky' });
    // A misbehaving source: some reads start a few entries early (duplicates),
    // swap two neighbours (out of order) or drop one (a gap).
    let faults = 0;
    const flaky: SequencedSource = {
      streamId: honest.streamId,
      async read(after, options) {
        const start = after === null ? 0 : Math.max(0, Number(after) - Math.floor(random() * 5));
        const entries = [...(await honest.read(start === 0 ? null : String(start), options))];
        const roll = random();
        if (entries.length > 3 && roll < 0.1) {
          [entries[1], entries[2]] = [entries[2]!, entries[1]!];
          faults++;
        } else if (entries.length > 3 && roll < 0.2) {
          entries.splice(1, 1);
          faults++;
        }
        return entries;
      },
    };
    const server = new RestartableServer(() =>
      createEventStreamHandler(flaky, { compression: false, batchSize: 64 }),
    );
    const port = await server.start();
    cleanups.push(() => server.stop());
    const client = connectEventStream(`http://127.0.0.1:${port}/`, {
      retry: { firstDelayMs: 1, baseDelayMs: 1, maxDelayMs: 10 },
    });
    cleanups.push(() => client.close());
    await until(
      () => client.stream.length >= stream.length && client.status.getSnapshot().status === 'live',
      'the client to catch up',
    );
    expect(faults).toBeGreaterThan(20);
    expect(jsonLines(client.stream)).toEqual(jsonLines(stream));
    expect(client.status.getSnapshot().duplicates).toBeGreaterThan(0);
  }, 60_000);
});
