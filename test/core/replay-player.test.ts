import {
  replayCountAt,
  replayPositionOf,
  replayTimeAt,
} from '../../src/core/stream/replay-player.js';
import { describe, expect, it } from 'vitest';
import {
  buildReplayTimeline,
  createReplayPlayer,
  createSelectionStore,
  generateRun,
  replayStream,
  type Event,
  type ReplayPlayerClock,
} from '../../src/index.js';

const T0 = Date.UTC(2026, 0, 1);
const at = (uuid: string, ms: number, kind = 'info'): Event =>
  ({ event: kind, uuid, timestamp: new Date(T0 + ms).toISOString() }) as Event;

/** A fake clock whose timers fire only when `advance` moves time past them. */
function fakeClock() {
  let now = 0;
  let timers: { at: number; fn: () => void; id: number }[] = [];
  let nextId = 1;
  const clock: ReplayPlayerClock = {
    now: () => now,
    setTimeout(fn, ms) {
      const id = nextId++;
      timers.push({ at: now + ms, fn, id });
      return id;
    },
    clearTimeout(id) {
      timers = timers.filter((t) => t.id !== id);
    },
  };
  const advance = (ms: number) => {
    const end = now + ms;
    for (;;) {
      timers.sort((a, b) => a.at - b.at);
      const next = timers[0];
      if (next === undefined || next.at > end) break;
      timers.shift();
      now = Math.max(now, next.at);
      next.fn();
    }
    now = end;
  };
  return { clock, advance, pending: () => timers.length };
}

// a b (100 ms) c (400) — a minute idle — d (60 400) e (60 500)
const run = [at('a', 0), at('b', 100), at('c', 400), at('d', 60_400), at('e', 60_500)];

describe('buildReplayTimeline', () => {
  it('places events by recorded gaps, idle gaps capped (replayStream rule)', () => {
    const t = buildReplayTimeline(run);
    expect([...t.offsets]).toEqual([0, 100, 400, 5400, 5500]);
    expect(t.duration).toBe(5500);
    expect(t.start).toBe(T0);
    expect([...buildReplayTimeline(run, { maxGap: 1000 }).offsets]).toEqual([
      0, 100, 400, 1400, 1500,
    ]);
  });

  it('agrees with replayStream on when every event plays', async () => {
    const events = generateRun({ seed: 7, events: 400 });
    const timeline = buildReplayTimeline(events, { maxGap: 3000 });
    let now = 0;
    const clock = { now: () => now, sleep: async (ms: number) => void (now += ms) };
    const seen: number[] = [];
    for await (const _ of replayStream(events, { maxGap: 3000, clock })) seen.push(now);
    expect(seen).toHaveLength(events.length);
    seen.forEach((t, i) => expect(t).toBeCloseTo(timeline.offsets[i]!, 6));
  });

  it('out-of-order and untimed events wait for nothing and keep the latest time', () => {
    const odd = [
      { ...at('x', 0), timestamp: 'nope' } as Event,
      at('a', 0),
      at('b', 500),
      at('c', 200),
      at('d', 700),
    ];
    const t = buildReplayTimeline(odd);
    expect([...t.offsets]).toEqual([0, 0, 500, 500, 700]);
    expect([...t.times].map((x) => x - T0)).toEqual([0, 0, 500, 500, 700]);
  });

  it('turns start at the first version of each model event', () => {
    const events = [
      at('s', 0, 'span_begin'),
      at('m1', 10, 'model'),
      at('m1', 20, 'model'), // its final version
      at('t1', 30, 'tool'),
      at('m2', 40, 'model'),
    ];
    expect([...buildReplayTimeline(events).turns]).toEqual([1, 4]);
  });

  it('maps positions to recorded times and back, sweeping capped gaps', () => {
    const t = buildReplayTimeline(run);
    expect(replayCountAt(t, 0)).toBe(1);
    expect(replayCountAt(t, 399)).toBe(2);
    expect(replayCountAt(t, 5500)).toBe(5);
    expect(replayTimeAt(t, 250) - T0).toBe(250);
    // Halfway through the capped minute: half the minute.
    expect(replayTimeAt(t, 2900) - T0).toBe(400 + 30_000);
    expect(replayPositionOf(t, T0 + 30_400)).toBe(2900);
    expect(replayPositionOf(t, T0 - 5)).toBe(0);
    expect(replayPositionOf(t, T0 + 1e9)).toBe(5500);
    for (const p of [0, 50, 100, 1234, 5400, 5450, 5500])
      expect(replayPositionOf(t, replayTimeAt(t, p))).toBeCloseTo(p, 6);
  });

  it('an empty run has no duration and no time', () => {
    const t = buildReplayTimeline([]);
    expect(t.duration).toBe(0);
    expect(replayTimeAt(t, 10)).toBeNaN();
    expect(replayPositionOf(t, T0)).toBe(0);
  });
});

describe('createReplayPlayer', () => {
  it('opens at the start with the first instant shown, paused, no timer running', () => {
    const { clock, pending } = fakeClock();
    const player = createReplayPlayer(run, { clock });
    const s = player.getSnapshot();
    expect(s).toMatchObject({ status: 'paused', position: 0, count: 1, total: 5, speed: 1 });
    expect(s.stream.toArray().map((e) => e.uuid)).toEqual(['a']);
    expect(s.current?.uuid).toBe('a');
    expect(pending()).toBe(0);
    expect(player.getSnapshot()).toBe(s);
  });

  it('plays with the recorded timing and ends at the end, the stream closed', () => {
    const { clock, advance } = fakeClock();
    const player = createReplayPlayer(run, { clock, frameMs: 1000 });
    const stream = player.getSnapshot().stream;
    player.play();
    expect(player.getSnapshot().status).toBe('playing');
    advance(99);
    expect(player.getSnapshot().count).toBe(1);
    advance(1);
    expect(player.getSnapshot().count).toBe(2);
    advance(300);
    expect(player.getSnapshot().count).toBe(3);
    advance(4999);
    expect(player.getSnapshot().count).toBe(3);
    advance(101);
    const end = player.getSnapshot();
    expect(end).toMatchObject({ status: 'ended', count: 5, position: 5500 });
    // Forward play appended to the same stream.
    expect(end.stream).toBe(stream);
    expect(stream.complete).toBe(true);
    expect(stream.toArray().map((e) => e.uuid)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(end.time - T0).toBe(60_500);
  });

  it('moves the playhead between events at least every frameMs', () => {
    const { clock, advance } = fakeClock();
    const player = createReplayPlayer(run, { clock, frameMs: 50 });
    const positions: number[] = [];
    player.subscribe(() => positions.push(player.getSnapshot().position));
    player.play();
    advance(400);
    expect(positions.filter((p) => p > 0 && p < 100).length).toBeGreaterThanOrEqual(1);
    expect(positions.filter((p) => p > 100 && p < 400).length).toBeGreaterThanOrEqual(5);
    expect(player.getSnapshot().position).toBe(400);
  });

  it('speed scales playback; changing it mid-play continues from where it is', () => {
    const { clock, advance } = fakeClock();
    const player = createReplayPlayer(run, { clock, speed: 4 });
    player.play();
    advance(25);
    expect(player.getSnapshot().count).toBe(2);
    advance(25); // position 200
    player.setSpeed(1);
    expect(player.getSnapshot()).toMatchObject({ speed: 1, position: 200 });
    advance(199);
    expect(player.getSnapshot().count).toBe(2);
    advance(1);
    expect(player.getSnapshot().count).toBe(3);
    expect(() => player.setSpeed(0)).toThrow(
      expect.objectContaining({
        code: 'invalid_argument',
        details: ['replay player', 'speed', 'a positive number', '0'],
      }),
    );
  });

  it('pause stops where playback is; play at the end starts over', () => {
    const { clock, advance, pending } = fakeClock();
    const player = createReplayPlayer(run, { clock });
    player.play();
    advance(130);
    player.pause();
    expect(player.getSnapshot()).toMatchObject({ status: 'paused', position: 130, count: 2 });
    expect(pending()).toBe(0);
    advance(10_000);
    expect(player.getSnapshot().position).toBe(130);
    player.seek(Number.NaN);
    expect(player.getSnapshot()).toMatchObject({ status: 'paused', count: 1, position: 0 });
    player.seek(Infinity);
    expect(player.getSnapshot()).toMatchObject({ status: 'ended', count: 5, position: 5500 });
    player.toggle();
    expect(player.getSnapshot()).toMatchObject({ status: 'playing', count: 1, position: 0 });
  });

  it('seeking back starts a new stream with the run up to there; forward appends', () => {
    const { clock } = fakeClock();
    const player = createReplayPlayer(run, { clock, initial: 'end' });
    const full = player.getSnapshot().stream;
    expect(full.length).toBe(5);
    player.seek(150);
    const back = player.getSnapshot();
    expect(back.stream).not.toBe(full);
    expect(back.stream.toArray().map((e) => e.uuid)).toEqual(['a', 'b']);
    expect(back.stream.complete).toBe(false);
    player.seek(5400);
    expect(player.getSnapshot().stream).toBe(back.stream);
    expect(back.stream.length).toBe(4);
    player.seekTime(T0 + 100);
    expect(player.getSnapshot()).toMatchObject({ position: 100, count: 2 });
  });

  it('steps one event at a time, through events that share a time', () => {
    const { clock } = fakeClock();
    const same = [at('a', 0), at('b', 0), at('c', 0), at('d', 10)];
    const player = createReplayPlayer(same, { clock });
    expect(player.getSnapshot().count).toBe(3);
    player.stepEvent(-1);
    expect(player.getSnapshot()).toMatchObject({ count: 2, position: 0 });
    player.stepEvent(-1);
    player.stepEvent(-1);
    player.stepEvent(-1);
    expect(player.getSnapshot()).toMatchObject({ count: 0, current: null });
    player.stepEvent(1);
    expect(player.getSnapshot().current?.uuid).toBe('a');
    player.stepEvent(1);
    player.stepEvent(1);
    player.stepEvent(1);
    expect(player.getSnapshot()).toMatchObject({ count: 4, position: 10, status: 'ended' });
    player.stepEvent(1);
    expect(player.getSnapshot().count).toBe(4);
  });

  it('steps by turn: to the next model call, back to the turn start', () => {
    const { clock } = fakeClock();
    const events = [
      at('s', 0, 'span_begin'),
      at('m1', 10, 'model'),
      at('t1', 20, 'tool'),
      at('m2', 30, 'model'),
      at('m2', 35, 'model'),
      at('t2', 40, 'tool'),
      at('x', 50, 'span_end'),
    ];
    const player = createReplayPlayer(events, { clock });
    const current = () => {
      const s = player.getSnapshot();
      return `${s.count}:${s.current?.uuid ?? '-'}`;
    };
    player.stepTurn(1);
    expect(current()).toBe('2:m1');
    player.stepTurn(1);
    expect(current()).toBe('4:m2');
    player.stepTurn(1);
    expect(current()).toBe('7:x');
    player.stepTurn(-1);
    expect(current()).toBe('4:m2');
    player.stepTurn(-1);
    expect(current()).toBe('2:m1');
    player.stepTurn(-1);
    expect(current()).toBe('0:-');
  });

  it('steps pause a playing player', () => {
    const { clock, advance, pending } = fakeClock();
    const player = createReplayPlayer(run, { clock });
    player.play();
    advance(120);
    player.stepEvent(1);
    expect(player.getSnapshot()).toMatchObject({ status: 'paused', count: 3, position: 400 });
    expect(pending()).toBe(0);
  });

  it('attached, it writes the playhead and selection; another view’s playhead seeks it', () => {
    const { clock, advance } = fakeClock();
    const store = createSelectionStore();
    const player = createReplayPlayer(run, { clock });
    const detach = player.attach(store);
    expect(store.getSnapshot()).toMatchObject({ playhead: T0, selected: 'a' });
    player.play();
    advance(250);
    expect(store.getSnapshot()).toMatchObject({ playhead: T0 + 250, selected: 'b' });
    player.pause();
    // A swimlane click sets the playhead to recorded time 60 400.
    store.setPlayhead(T0 + 60_400);
    expect(player.getSnapshot()).toMatchObject({ position: 5400, count: 4 });
    expect(store.getSnapshot()).toMatchObject({ playhead: T0 + 60_400, selected: 'd' });
    // A selection made by the user elsewhere is left alone until the player moves.
    store.select('b');
    expect(player.getSnapshot().count).toBe(4);
    detach();
    expect(store.getSnapshot().playhead).toBeNull();
    player.seek(0);
    expect(store.getSnapshot().selected).toBe('b');
  });

  it('attach with select: false leaves the selection to the user', () => {
    const store = createSelectionStore({ selected: 'keep' });
    const player = createReplayPlayer(run, { clock: fakeClock().clock });
    player.attach(store, { select: false });
    player.seek(5500);
    expect(store.getSnapshot()).toMatchObject({ selected: 'keep', playhead: T0 + 60_500 });
  });

  it('an empty run plays nothing', () => {
    const { clock, pending } = fakeClock();
    const player = createReplayPlayer([], { clock });
    player.play();
    expect(player.getSnapshot()).toMatchObject({ status: 'paused', count: 0, total: 0 });
    expect(player.getSnapshot().time).toBeNaN();
    expect(pending()).toBe(0);
  });
});
