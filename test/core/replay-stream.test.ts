import { describe, expect, it } from 'vitest';
import { EventStream, eventStreamSource, replayStream, type Event } from '../../src/index.js';

const at = (uuid: string, ms: number): Event =>
  ({ event: 'info', uuid, timestamp: new Date(Date.UTC(2026, 0, 1) + ms).toISOString() }) as Event;

/** A fake clock that records when (in its time) each event came out. */
async function play(events: Event[], options: Parameters<typeof replayStream>[1] = {}) {
  let now = 1000;
  const clock = { now: () => now, sleep: async (ms: number) => void (now += ms) };
  const out: [string, number][] = [];
  for await (const e of replayStream(events, { ...options, clock })) out.push([e.uuid, now - 1000]);
  return out;
}

describe('replayStream', () => {
  const run = [at('a', 0), at('b', 100), at('c', 400), at('d', 60_400), at('e', 60_500)];

  it('plays with the recorded gaps, idle gaps capped by maxGap', async () => {
    expect(await play(run)).toEqual([
      ['a', 0],
      ['b', 100],
      ['c', 400],
      ['d', 5400], // a minute of idle time cut to the default 5 s
      ['e', 5500],
    ]);
    expect((await play(run, { maxGap: 1000 })).map(([, t]) => t)).toEqual([
      0, 100, 400, 1400, 1500,
    ]);
  });

  it('scales by speed', async () => {
    expect((await play(run, { speed: 4, maxGap: Infinity })).map(([, t]) => t)).toEqual([
      0, 25, 100, 15_100, 15_125,
    ]);
  });

  it('from: earlier events come at once, timing starts there; to: stops after', async () => {
    expect(await play(run, { from: 300, to: 60_400 })).toEqual([
      ['a', 0],
      ['b', 0],
      ['c', 100],
      ['d', 5100],
    ]);
    expect(await play(run, { from: '2026-01-01T00:01:00.400Z' })).toEqual([
      ['a', 0],
      ['b', 0],
      ['c', 0],
      ['d', 0],
      ['e', 100],
    ]);
  });

  it('waits for nothing on events out of order or without a time', async () => {
    const odd = [
      at('a', 0),
      at('b', 500),
      at('c', 200),
      { ...at('d', 0), timestamp: 'x' } as Event,
      at('e', 700),
    ];
    expect(await play(odd)).toEqual([
      ['a', 0],
      ['b', 500],
      ['c', 500],
      ['d', 500],
      ['e', 700],
    ]);
  });

  it('schedules against the start, so a late timer does not add up', async () => {
    let now = 0;
    // Every sleep overshoots by 30 ms.
    const clock = { now: () => now, sleep: async (ms: number) => void (now += ms + 30) };
    const times: number[] = [];
    const events = Array.from({ length: 10 }, (_, i) => at(`e${i}`, i * 100));
    for await (const _ of replayStream(events, { clock })) times.push(now);
    expect(times.at(-1)).toBe(930); // 900 + one overshoot, not 900 + 9 × 30
  });

  it('rejects a bad speed', async () => {
    await expect(play(run, { speed: 0 })).rejects.toThrow(
      'replayStream: "speed" must be a positive number, got 0',
    );
    await expect(play(run, { maxGap: -1 })).rejects.toMatchObject({ code: 'invalid_argument' });
    await expect(play(run, { from: 'soon' })).rejects.toThrow(
      'replayStream: "from" must be ms from the first event or an ISO 8601 time, got "soon"',
    );
  });
});

describe('eventStreamSource', () => {
  const ev = (n: number): Event => ({
    event: 'info',
    uuid: `u${n}`,
    timestamp: '2026-01-01T00:00:00Z',
  });

  it('reads after a sequence, waits for the next append, rejects positions it never had', async () => {
    const stream = EventStream.from([ev(1), ev(2), ev(3)]);
    const source = eventStreamSource(stream);
    expect(eventStreamSource(stream)).toBe(source); // one stream id per stream
    expect((await source.read(null, { limit: 2, wait: false })).map((e) => e.seq)).toEqual([
      '1',
      '2',
    ]);
    expect((await source.read('2', { limit: 10, wait: false })).map((e) => e.value)).toEqual([
      ev(3),
    ]);
    expect(await source.read('3', { limit: 10, wait: false })).toEqual([]);
    const waiting = source.read('3', { limit: 10, wait: true });
    stream.append(ev(4));
    expect((await waiting).map((e) => e.seq)).toEqual(['4']);
    await expect(source.read('9', { limit: 1, wait: false })).rejects.toThrow(
      'Cannot read after "9": beyond the head of the stream (4)',
    );
    await expect(source.read('x', { limit: 1, wait: false })).rejects.toMatchObject({
      code: 'live_bad_position',
    });
    const abort = new AbortController();
    const aborted = source.read('4', { limit: 1, wait: true, signal: abort.signal });
    abort.abort();
    expect(await aborted).toEqual([]);
    expect(eventStreamSource(stream, { streamId: 'fixed' }).streamId).toBe('fixed');
    expect(() => eventStreamSource(stream, { streamId: 'a:b' })).toThrow(
      expect.objectContaining({ name: 'SkeinError', code: 'invalid_argument' }),
    );
  });
});
