/**
 * The replay player's headless state: play, pause, step, seek and
 * speed over a recorded run, with the timing rule of {@link replayStream}
 * (recorded gaps, capped at `maxGap`, scaled by `speed`), feeding an
 * `EventStream` that holds the run as of the playhead — so every view that
 * renders a stream (transcript, span tree, swimlane) shows the run "as of t"
 * with no replay-specific code — and writing the playhead into a shared
 * selection store.
 *
 * Two coordinate spaces, named apart (coordinate spaces named apart):
 * - **position**: playback milliseconds at speed 1 from the start, idle gaps
 *   capped (what the scrubber shows and `seek` takes);
 * - **time**: recorded epoch milliseconds (what the selection store's
 *   `playhead` holds, what a swimlane draws).
 */
import { SkeinError } from '../errors.js';
import { eventTime } from '../events/event-time.js';
import type { Event } from '../events/types.js';
import type { SelectionStore } from '../selection/selection-store.js';
import { EventStream } from './event-stream.js';
import { Listeners } from './listeners.js';

/**
 * When each event of a recorded run plays: {@link buildReplayTimeline}.
 *
 * @example
 * const timeline = buildReplayTimeline(stream.toArray());
 * timeline.offsets[10]; // ms after the start (speed 1) at which event 10 plays
 */
export interface ReplayTimeline {
  /** Number of events. */
  readonly length: number;
  /** Playback position (ms at speed 1, idle gaps capped) at which event `i` is due; non-decreasing. */
  readonly offsets: Float64Array;
  /**
   * Recorded time (epoch ms) the playhead has reached at event `i`: the
   * latest timestamp so far (an event out of order or without a time keeps
   * the one before). NaN before the first timed event.
   */
  readonly times: Float64Array;
  /** The last event's position: the length of the replay at speed 1. */
  readonly duration: number;
  /** The first timed event's time (epoch ms); NaN when no event has one. */
  readonly start: number;
  /**
   * Where each turn begins (a turn: a model call and the tool calls after
   * it, as in the span tree's outline): indexes of the first version of each
   * `model` event, ascending.
   */
  readonly turns: Int32Array;
}

/**
 * Options of {@link buildReplayTimeline}.
 *
 * @example
 * buildReplayTimeline(stream.toArray(), { maxGap: 2000 });
 */
export interface ReplayTimelineOptions {
  /** Longest gap between two events, recorded ms (as `replayStream`'s `maxGap`). Default 5000. */
  maxGap?: number;
}

/**
 * Computes when each event plays, by {@link replayStream}'s rule: the gap to
 * the previous event's time, capped at `maxGap`; an event out of order or
 * without a time waits for nothing. O(n).
 *
 * @example
 * const { offsets, duration } = buildReplayTimeline(stream.toArray(), { maxGap: 1000 });
 */
export function buildReplayTimeline(
  events: readonly Event[],
  options: ReplayTimelineOptions = {},
): ReplayTimeline {
  const maxGap = options.maxGap ?? 5000;
  if (!(maxGap >= 0))
    throw new SkeinError(
      'invalid_argument',
      'buildReplayTimeline',
      'maxGap',
      '0 or more',
      String(maxGap),
    );
  const n = events.length;
  const offsets = new Float64Array(n);
  const times = new Float64Array(n);
  const turns: number[] = [];
  const models = new Set<string>();
  let previous = Number.NaN;
  let offset = 0;
  for (let i = 0; i < n; i++) {
    const event = events[i]!;
    const t = eventTime(event);
    if (Number.isFinite(t)) {
      if (Number.isFinite(previous) && t > previous) offset += Math.min(t - previous, maxGap);
      previous = Number.isFinite(previous) ? Math.max(previous, t) : t;
    }
    offsets[i] = offset;
    times[i] = previous;
    if (event.event === 'model' && !models.has(event.uuid)) {
      models.add(event.uuid);
      turns.push(i);
    }
  }
  // Events before the first timed one sit at the run's start.
  let start = Number.NaN;
  for (let i = 0; i < n; i++) {
    if (Number.isFinite(times[i]!)) {
      start = times[i]!;
      break;
    }
  }
  for (let i = 0; i < n && Number.isNaN(times[i]!); i++) times[i] = start;
  return {
    length: n,
    offsets,
    times,
    duration: n === 0 ? 0 : offsets[n - 1]!,
    start,
    turns: Int32Array.from(turns),
  };
}

/**
 * How many events are due at or before playback `position` (the count of
 * offsets ≤ position). O(log n).
 *
 * @example
 * import { replayCountAt } from './replay-player.js';
 * declare const timeline: ReplayTimeline;
 * const shown = replayCountAt(timeline, 1500); // events the run shows 1.5 s in
 */
export function replayCountAt(timeline: ReplayTimeline, position: number): number {
  const { offsets } = timeline;
  let lo = 0;
  let hi = timeline.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (offsets[mid]! <= position) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The recorded time (epoch ms) at playback `position`: between two events
 * it moves linearly from one's time to the next's, so across a capped idle
 * gap it sweeps the whole gap in `maxGap`. NaN when no event has a time.
 *
 * @example
 * import { replayTimeAt } from './replay-player.js';
 * declare const timeline: ReplayTimeline;
 * replayTimeAt(timeline, 1500); // epoch ms shown as the playhead
 */
export function replayTimeAt(timeline: ReplayTimeline, position: number): number {
  const n = timeline.length;
  if (n === 0) return Number.NaN;
  const k = replayCountAt(timeline, position) - 1;
  if (k < 0) return timeline.times[0]!;
  if (k >= n - 1) return timeline.times[n - 1]!;
  const a = timeline.offsets[k]!;
  const b = timeline.offsets[k + 1]!;
  const ta = timeline.times[k]!;
  const tb = timeline.times[k + 1]!;
  if (!(b > a)) return ta;
  return ta + ((position - a) / (b - a)) * (tb - ta);
}

/**
 * The playback position at which the recorded `time` (epoch ms) is reached:
 * the inverse of {@link replayTimeAt} (the first position showing it).
 *
 * @example
 * import { replayPositionOf } from './replay-player.js';
 * const player = createReplayPlayer(stream.toArray());
 * player.seek(replayPositionOf(player.timeline, Date.parse('2026-01-01T00:05:00Z')));
 */
export function replayPositionOf(timeline: ReplayTimeline, time: number): number {
  const { times, offsets, length: n } = timeline;
  if (n === 0 || !Number.isFinite(time)) return 0;
  if (!(time > times[0]!)) return 0;
  if (time >= times[n - 1]!) return timeline.duration;
  // First event whose time reaches `time` (times never decrease).
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (times[mid]! < time) lo = mid + 1;
    else hi = mid;
  }
  const ta = times[lo - 1]!;
  const tb = times[lo]!;
  const a = offsets[lo - 1]!;
  const b = offsets[lo]!;
  return a + ((time - ta) / (tb - ta)) * (b - a);
}

/**
 * Where a replay player stands: {@link ReplayPlayer.getSnapshot}.
 *
 * @example
 * declare const player: ReplayPlayer;
 * const { status, position, duration, count, total } = player.getSnapshot();
 */
export interface ReplayPlayerSnapshot {
  /** `ended`: paused at the end (play starts over). */
  readonly status: 'paused' | 'playing' | 'ended';
  /** Playback ms at speed 1 from the start, idle gaps capped (the scrubber's axis). */
  readonly position: number;
  /** The whole replay's length on the same axis. */
  readonly duration: number;
  /** The playhead: recorded time, epoch ms (NaN when the run has no times). */
  readonly time: number;
  /** Recorded ms from the run's first event to the playhead (0 when untimed). */
  readonly elapsed: number;
  /** Events shown: the stream holds the first `count` events of the run. */
  readonly count: number;
  /** Events in the run. */
  readonly total: number;
  /** The last event shown, `null` before the first. */
  readonly current: Event | null;
  readonly speed: number;
  /**
   * The run as of the playhead. Appended to while playing forward; replaced
   * by a new stream when the player moves back (a log cannot be rewound),
   * so read it from the snapshot. Closed (complete) at the end.
   */
  readonly stream: EventStream;
}

/**
 * The clock and timer a player runs on: injectable so tests play hours in
 * no time.
 *
 * @example
 * let t = 0;
 * const timers: [() => void, number][] = [];
 * const clock: ReplayPlayerClock = { now: () => t, setTimeout: (f, ms) => timers.push([f, t + ms]), clearTimeout: () => {} };
 */
export interface ReplayPlayerClock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/**
 * Options of {@link createReplayPlayer}.
 *
 * @example
 * createReplayPlayer(stream.toArray(), { speed: 4, maxGap: 2000, frameMs: 50 });
 */
export interface ReplayPlayerOptions extends ReplayTimelineOptions {
  /** Playback rate. Default 1. */
  speed?: number;
  /**
   * Where it opens: `'start'` (default: the first instant's events shown),
   * `'end'` (the whole run) or a position.
   */
  initial?: 'start' | 'end' | number;
  /**
   * While playing, the playhead moves at least this often (ms of wall time)
   * between events, so a time display and a swimlane's playhead move
   * smoothly. Default 50.
   */
  frameMs?: number;
  /** Default: `Date.now` and `setTimeout`. */
  clock?: ReplayPlayerClock;
}

/**
 * A replay player: a small external store (`getSnapshot`/`subscribe`) with
 * transport controls. See {@link createReplayPlayer}.
 *
 * @example
 * const player = createReplayPlayer(stream.toArray());
 * player.play();
 */
export interface ReplayPlayer {
  readonly getSnapshot: () => ReplayPlayerSnapshot;
  readonly subscribe: (listener: () => void) => () => void;
  /** The run's timing (positions, times, turns). */
  readonly timeline: ReplayTimeline;
  /** Plays from the position (from the start when at the end). */
  play(): void;
  pause(): void;
  /** Plays when paused, pauses when playing. */
  toggle(): void;
  /** Moves to a position (clamped to `[0, duration]`); keeps playing if playing. */
  seek(position: number): void;
  /** Moves to where the recorded `time` (epoch ms) is reached. */
  seekTime(time: number): void;
  /** Pauses and shows one event more (`1`) or fewer (`-1`). */
  stepEvent(direction: 1 | -1): void;
  /**
   * Pauses and moves to the next turn's model call (`1`: shown) or back to
   * the start of the current or previous turn (`-1`); past the last turn,
   * to the end; before the first, to the start.
   */
  stepTurn(direction: 1 | -1): void;
  /** Changes the rate (a positive number); playback continues from where it is. */
  setSpeed(speed: number): void;
  /**
   * Links a selection store (the one store every view shares): the player writes its
   * playhead (recorded epoch ms) there on every move and, with `select`,
   * selects the last event shown; a playhead set by another view (a
   * swimlane click) seeks the player. Returns the function that unlinks it
   * (and clears the playhead).
   */
  attach(store: SelectionStore, options?: { select?: boolean }): () => void;
}

const systemClock: ReplayPlayerClock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as Parameters<typeof clearTimeout>[0]),
};

/**
 * Creates a player over a recorded run. Creating it has no side effects: its
 * timer runs only while playing, and it writes to a selection store only
 * once {@link ReplayPlayer.attach attached}.
 *
 * Playing forward appends to the snapshot's `stream`, so views keep their
 * state and only render what is new; moving back starts a new stream holding
 * the run up to the new position (O(events kept)).
 *
 * @example
 * const selection = createSelectionStore();
 * const player = createReplayPlayer(stream.toArray(), { speed: 2 });
 * const detach = player.attach(selection);
 * player.play();
 * // views read player.getSnapshot().stream and selection.getSnapshot().playhead
 */
export function createReplayPlayer(
  events: readonly Event[],
  options: ReplayPlayerOptions = {},
): ReplayPlayer {
  const timeline = buildReplayTimeline(events, options);
  const clock = options.clock ?? systemClock;
  const frameMs = Math.max(1, options.frameMs ?? 50);
  const n = timeline.length;
  // Told at once: a tick, a seek or a pause is seen in the same turn.
  const listeners = new Listeners();

  let speed = checkSpeed(options.speed ?? 1);
  let status: ReplayPlayerSnapshot['status'] = 'paused';
  let position = 0;
  let count = 0;
  let stream = new EventStream();
  // While playing: the wall time and position playback was anchored at.
  let anchorWall = 0;
  let anchorPosition = 0;
  let timer: unknown = null;
  let snapshot: ReplayPlayerSnapshot | null = null;

  const notify = () => {
    snapshot = null;
    listeners.notify();
  };

  /** Shows exactly the first `next` events: append, or start over when moving back. */
  const showCount = (next: number) => {
    if (next < count) {
      stream = new EventStream();
      count = 0;
    }
    for (; count < next; count++) stream.append(events[count]!);
    if (count === n && n > 0 && !stream.complete) stream.close();
  };

  const cancelTimer = () => {
    if (timer !== null) clock.clearTimeout(timer);
    timer = null;
  };

  const schedule = () => {
    cancelTimer();
    if (status !== 'playing') return;
    const due = count < n ? (timeline.offsets[count]! - position) / speed : Infinity;
    const wait = Math.max(0, Math.min(frameMs, due));
    timer = clock.setTimeout(tick, wait);
  };

  function tick() {
    timer = null;
    if (status !== 'playing') return;
    position = Math.min(timeline.duration, anchorPosition + (clock.now() - anchorWall) * speed);
    showCount(Math.max(count, replayCountAt(timeline, position)));
    if (count >= n) {
      position = timeline.duration;
      status = 'ended';
    }
    notify();
    schedule();
  }

  const anchor = () => {
    anchorWall = clock.now();
    anchorPosition = position;
  };

  const moveTo = (nextPosition: number, nextCount: number) => {
    position = Math.max(0, Math.min(timeline.duration, nextPosition));
    showCount(Math.max(0, Math.min(n, nextCount)));
    if (status === 'playing') {
      if (count >= n) status = 'ended';
      anchor();
      schedule();
    } else {
      status = count >= n && n > 0 ? 'ended' : 'paused';
    }
    notify();
  };

  const seek = (p: number) => {
    const clamped = Math.max(0, Math.min(timeline.duration, Number.isNaN(p) ? 0 : p));
    moveTo(clamped, replayCountAt(timeline, clamped));
  };

  const pause = () => {
    if (status !== 'playing') return;
    cancelTimer();
    // Stop where playback is now, not at the last tick.
    position = Math.min(timeline.duration, anchorPosition + (clock.now() - anchorWall) * speed);
    showCount(Math.max(count, replayCountAt(timeline, position)));
    status = count >= n ? 'ended' : 'paused';
    notify();
  };

  const initial = options.initial ?? 'start';
  const initialPosition = initial === 'start' ? 0 : initial === 'end' ? timeline.duration : initial;
  position = Math.max(0, Math.min(timeline.duration, initialPosition));
  showCount(replayCountAt(timeline, position));
  if (count >= n && n > 0) status = 'ended';

  const player: ReplayPlayer = {
    timeline,
    getSnapshot() {
      if (snapshot === null) {
        const time = n === 0 ? Number.NaN : replayTimeAt(timeline, position);
        snapshot = Object.freeze({
          status,
          position,
          duration: timeline.duration,
          time,
          elapsed:
            Number.isFinite(time) && Number.isFinite(timeline.start) ? time - timeline.start : 0,
          count,
          total: n,
          current: count > 0 ? events[count - 1]! : null,
          speed,
          stream,
        });
      }
      return snapshot;
    },
    subscribe: (listener) => listeners.subscribe(listener),
    play() {
      if (status === 'playing' || n === 0) return;
      if (count >= n) {
        position = 0;
        showCount(replayCountAt(timeline, 0));
      }
      status = 'playing';
      anchor();
      notify();
      schedule();
    },
    pause,
    toggle() {
      if (status === 'playing') pause();
      else player.play();
    },
    seek,
    seekTime(time) {
      seek(replayPositionOf(timeline, time));
    },
    stepEvent(direction) {
      pause();
      const next = Math.max(0, Math.min(n, count + direction));
      moveTo(next === 0 ? 0 : timeline.offsets[next - 1]!, next);
    },
    stepTurn(direction) {
      pause();
      const { turns } = timeline;
      let next: number;
      if (direction > 0) {
        // The first turn not yet shown: show through its model call.
        let k = 0;
        while (k < turns.length && turns[k]! < count) k++;
        next = k < turns.length ? turns[k]! + 1 : n;
      } else {
        // Back to the start of the turn shown last, or the one before it
        // when already there.
        let k = turns.length - 1;
        while (k >= 0 && turns[k]! + 1 >= count) k--;
        next = k >= 0 ? turns[k]! + 1 : 0;
      }
      moveTo(next === 0 ? 0 : timeline.offsets[next - 1]!, next);
    },
    setSpeed(next) {
      const checked = checkSpeed(next);
      if (checked === speed) return;
      if (status === 'playing') {
        position = Math.min(timeline.duration, anchorPosition + (clock.now() - anchorWall) * speed);
        anchor();
      }
      speed = checked;
      notify();
      schedule();
    },
    attach(store, attachOptions = {}) {
      const select = attachOptions.select ?? true;
      let written: number | null = null;
      let selected: string | null = null;
      const write = () => {
        const s = player.getSnapshot();
        written = Number.isFinite(s.time) ? s.time : null;
        store.setPlayhead(written);
        const uuid = s.current?.uuid ?? null;
        if (select && uuid !== selected) {
          selected = uuid;
          store.select(uuid);
        }
      };
      write();
      const stopPlayer = player.subscribe(write);
      const stopStore = store.subscribe(() => {
        const playhead = store.getSnapshot().playhead;
        // Another view moved the playhead (the store notifies synchronously,
        // so our own writes arrive here equal to `written`).
        if (playhead !== null && playhead !== written) player.seekTime(playhead);
      });
      return () => {
        stopPlayer();
        stopStore();
        if (store.getSnapshot().playhead === written) store.setPlayhead(null);
      };
    },
  };
  return player;
}

function checkSpeed(speed: number): number {
  if (!(speed > 0) || !Number.isFinite(speed))
    throw new SkeinError(
      'invalid_argument',
      'replay player',
      'speed',
      'a positive number',
      String(speed),
    );
  return speed;
}
