// connectEventStream's client logic with a scripted transport and fake
// timers: resume points, duplicates, reordering, gaps, restarts, the retry
// policy and the status store (issue 21). The real-socket tests are in
// test/node/live-*.test.ts.
import { compareSeq } from '../../src/core/live/sequence.js';
import { describe, expect, it } from 'vitest';
import {
  connectEventStream,
  EventStream,
  parseEventId,
  type LiveTransport,
  type LiveTransportHandlers,
} from '../../src/index.js';
import { LiveError } from '../../src/core/live/transports.js';
import type { Event } from '../../src/core/events/types.js';

const ev = (n: number, pending = false): Event => ({
  event: 'info',
  uuid: `u${n}`,
  timestamp: '2026-01-01T00:00:00Z',
  data: n,
  ...(pending ? { pending: true } : {}),
});

/** A transport whose connections the test drives by hand. */
function scripted() {
  const connections: {
    lastEventId: string | null;
    h: LiveTransportHandlers;
    closed: boolean;
  }[] = [];
  const transport: LiveTransport = ({ lastEventId }, h) => {
    const c = { lastEventId, h, closed: false };
    connections.push(c);
    return { close: () => void (c.closed = true) };
  };
  return { transport, connections, last: () => connections.at(-1)! };
}

/** Fake timers: `run()` fires everything due, in time order. */
function fakeTimers() {
  let now = 0;
  let nextId = 1;
  const timers = new Map<number, { at: number; cb: () => void }>();
  return {
    setTimeout: (cb: () => void, ms: number) => {
      const id = nextId++;
      timers.set(id, { at: now + ms, cb });
      return id;
    },
    clearTimeout: (id: unknown) => void timers.delete(id as number),
    /** Delays of the pending timers. */
    pending: () => [...timers.values()].map((t) => t.at - now),
    advance(ms: number) {
      const end = now + ms;
      for (;;) {
        const due = [...timers.entries()]
          .filter(([, t]) => t.at <= end)
          .sort((a, b) => a[1].at - b[1].at)[0];
        if (due === undefined) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].cb();
      }
      now = end;
    },
  };
}

const hello = (streamId: string, after: string | null = null, reset = false) => ({
  protocol: 1,
  streamId,
  after,
  reset,
});

describe('connectEventStream', () => {
  it('appends entries in order, keeps every version, drops duplicates by sequence', () => {
    const s = scripted();
    const t = fakeTimers();
    const c = connectEventStream('http://x/', { transport: s.transport, ...t });
    const h = s.last().h;
    h.open();
    h.message('hello', hello('S'), null);
    h.message('event', ev(1, true), 'S:1');
    h.message('event', ev(1), 'S:2'); // same uuid, final version: kept
    h.message('event', ev(1), 'S:2'); // the same entry again: dropped
    h.message('event', ev(2), 'S:1'); // old: dropped
    h.message('event', ev(2), 'S:3');
    h.message('live', { seq: '3' }, null);
    expect(c.stream.toArray()).toEqual([ev(1, true), ev(1), ev(2)]);
    expect(c.status.getSnapshot()).toMatchObject({
      status: 'live',
      streamId: 'S',
      lastEventId: 'S:3',
      duplicates: 2,
    });
  });

  it('a gap in a dense sequence reconnects after the last good entry', () => {
    const s = scripted();
    const t = fakeTimers();
    const c = connectEventStream('http://x/', { transport: s.transport, random: () => 0.5, ...t });
    const first = s.last();
    first.h.message('hello', hello('S'), null);
    first.h.message('event', ev(1), 'S:1');
    first.h.message('event', ev(3), 'S:3'); // 2 is missing
    expect(first.closed).toBe(true);
    expect(c.status.getSnapshot()).toMatchObject({ status: 'reconnecting', attempt: 0 });
    expect((c.status.getSnapshot().error as LiveError).code).toBe('live_gap');
    // Late messages of the dropped connection are ignored.
    first.h.message('event', ev(4), 'S:4');
    t.advance(250);
    const second = s.last();
    expect(second).not.toBe(first);
    expect(second.lastEventId).toBe('S:1');
    second.h.message('hello', hello('S', '1'), null);
    second.h.message('event', ev(2), 'S:2');
    second.h.message('event', ev(3), 'S:3');
    expect(c.stream.toArray()).toEqual([ev(1), ev(2), ev(3)]);
  });

  it('Redis-style ids are ordered numerically and not gap-checked', () => {
    expect(compareSeq('1718000000000-10', '1718000000000-9')).toBeGreaterThan(0);
    expect(compareSeq('10', '9')).toBeGreaterThan(0);
    expect(compareSeq('007', '7')).toBe(0);
    expect(compareSeq('99999999999999999999', '100000000000000000000')).toBeLessThan(0);
    expect(parseEventId('abc:1718000000000-0')).toEqual({
      streamId: 'abc',
      seq: '1718000000000-0',
    });
    expect(parseEventId('12')).toEqual({ streamId: null, seq: '12' });
    expect(parseEventId('abc:x')).toBeNull();
    const s = scripted();
    const c = connectEventStream('http://x/', { transport: s.transport, ...fakeTimers() });
    const h = s.last().h;
    h.message('hello', hello('R'), null);
    h.message('event', ev(1), 'R:1718000000000-9');
    h.message('event', ev(2), 'R:1718000000000-10');
    h.message('event', ev(3), 'R:1718000000005-0');
    h.message('event', ev(2), 'R:1718000000000-10');
    expect(c.stream.length).toBe(3);
    expect(s.connections).toHaveLength(1);
  });

  it('a new stream id starts a new EventStream; the old one is left as it was', () => {
    const s = scripted();
    const t = fakeTimers();
    const c = connectEventStream('http://x/', { transport: s.transport, ...t });
    s.last().h.message('hello', hello('A'), null);
    s.last().h.message('event', ev(1), 'A:1');
    const old = c.stream;
    s.last().h.end(new LiveError('live_connection_lost', 'gone'));
    t.advance(1000);
    expect(s.last().lastEventId).toBe('A:1');
    s.last().h.message('hello', hello('B', null, true), null);
    s.last().h.message('event', ev(9), 'B:1');
    expect(c.stream).not.toBe(old);
    expect(old.toArray()).toEqual([ev(1)]);
    expect(c.stream.toArray()).toEqual([ev(9)]);
    expect(c.status.getSnapshot()).toMatchObject({ resets: 1, streamId: 'B', stream: c.stream });
  });

  it('retries at once after a serving connection drops, backs off over failed attempts', () => {
    const s = scripted();
    const t = fakeTimers();
    connectEventStream('http://x/', {
      transport: s.transport,
      random: () => 0.9999999,
      retry: { firstDelayMs: 250, baseDelayMs: 500, maxDelayMs: 4000 },
      ...t,
    });
    s.last().h.message('hello', hello('S'), null);
    s.last().h.end(new LiveError('live_connection_lost', 'x'));
    // The first retry: within 250 ms (jittered).
    const first = t.pending().filter((d) => d < 45_000);
    expect(first).toHaveLength(1);
    expect(first[0]).toBeLessThanOrEqual(250);
    const delays: number[] = [];
    for (let i = 0; i < 6; i++) {
      t.advance(first[0]! + 1);
      // This attempt fails before any hello.
      s.last().h.end(new LiveError('live_connection_lost', 'refused'));
      delays.push(Math.round(t.pending().filter((d) => d < 45_000)[0]!));
      t.advance(delays.at(-1)!);
    }
    // 500, 1000, 2000, 4000, then capped (× jitter 0.5..1, here ~1).
    expect(delays).toEqual([500, 1000, 2000, 4000, 4000, 4000]);
    // A success resets the count: the next drop retries at once again.
    s.last().h.message('hello', hello('S'), null);
    s.last().h.end(new LiveError('live_connection_lost', 'x'));
    expect(t.pending().filter((d) => d < 45_000)[0]).toBeLessThanOrEqual(250);
  });

  it('an HTTP refusal is final; close() is final; status notifies subscribers', async () => {
    const s = scripted();
    const t = fakeTimers();
    const c = connectEventStream('http://x/', { transport: s.transport, ...t });
    const seen: string[] = [];
    c.status.subscribe(() => seen.push(c.status.getSnapshot().status));
    s.last().h.end(new LiveError('live_http_status', 403, ''), true);
    await Promise.resolve();
    expect(c.status.getSnapshot()).toMatchObject({ status: 'closed' });
    expect(c.status.getSnapshot().error).toMatchObject({ status: 403 });
    expect(t.pending()).toEqual([]);
    expect(seen).toEqual(['closed']);

    const d = connectEventStream('http://x/', { transport: s.transport, ...t });
    const conn = s.last();
    d.close();
    expect(conn.closed).toBe(true);
    expect(d.status.getSnapshot().status).toBe('closed');
    conn.h.message('event', ev(1), 'S:1');
    expect(d.stream.length).toBe(0);
  });

  it('reconnects when nothing arrives for idleTimeoutMs', () => {
    const s = scripted();
    const t = fakeTimers();
    connectEventStream('http://x/', { transport: s.transport, idleTimeoutMs: 1000, ...t });
    s.last().h.message('hello', hello('S'), null);
    t.advance(900);
    s.last().h.activity();
    t.advance(900);
    expect(s.connections).toHaveLength(1);
    t.advance(200);
    expect(s.connections[0]!.closed).toBe(true);
    t.advance(300);
    expect(s.connections).toHaveLength(2);
  });

  it('resumes from a given lastEventId into a given stream', () => {
    const s = scripted();
    const stream = EventStream.from([ev(1)]);
    const c = connectEventStream('http://x/', {
      transport: s.transport,
      stream,
      lastEventId: 'S:1',
      ...fakeTimers(),
    });
    expect(s.last().lastEventId).toBe('S:1');
    s.last().h.message('hello', hello('S', '1'), null);
    s.last().h.message('event', ev(2), 'S:2');
    expect(c.stream).toBe(stream);
    expect(stream.length).toBe(2);
  });
});
