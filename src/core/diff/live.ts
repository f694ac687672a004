/**
 * `createRunDiff`: a run diff that follows live runs. A small external store
 * (`subscribe`/`getSnapshot`) over two sources; when one grows, the diff catches up.
 *
 * What an update redoes: the growing run's span tree is extended by an
 * incremental builder (`createEventTreeBuilder`), not rebuilt; the run that
 * did not change keeps its steps; in the one that did, steps of events seen
 * before are taken from a cache keyed by the event itself (a frozen version:
 * a new version is a new object) instead of being described and normalised
 * again; and the alignment keeps every level whose steps did not change
 * (`engine.ts`'s level memo), so only the levels on the path to the new
 * steps — the open turn, its agent, their spans — are aligned again. The
 * result is the one `diffRuns` gives for the same events (tested).
 *
 * Updates are coalesced (one per microtask), and spaced like the tree feed's
 * live snapshots: after an update that took `c` ms (past 4 ms), the next
 * waits until 5 × `c` has passed, so following a large run spends at most a
 * sixth of the time on the diff. The update once both runs are finished and
 * read is not held back. With `sliceMs`, an update runs in slices, a task
 * each (the diff is a job that pauses every thousand or so steps and rows:
 * `diffJob`), and listeners hear of it once it is whole.
 */
import { SkeinError } from '../errors.js';
import type { Event } from '../events/types.js';
import { EventStream } from '../stream/event-stream.js';
import { Listeners } from '../stream/listeners.js';
import type { EventTree } from '../tree/event-tree.js';
import type { EventTreeFeed } from '../tree/feed.js';
import { createEventTreeBuilder, type EventTreeBuilder } from '../tree/incremental.js';
import {
  diffJob,
  resolveDiffOptions,
  snapshotOf,
  treeOfEvents,
  type DiffCache,
  type RunSnapshot,
} from './diff-runs.js';
import { finish } from './steps.js';
import type { RunDiffResult, RunDiffOptions, RunDiffSource } from './types.js';

/** Updates cheaper than this (ms) run at every change. */
const LIVE_MIN_COST_MS = 4;
/** After an update that cost `c` ms, the next waits until `LIVE_RATIO × c` has passed. */
const LIVE_RATIO = 5;

/**
 * Options of {@link createRunDiff}: those of `diffRuns`, and the clock and
 * timer live updates are spaced with.
 *
 * @example
 * declare const a: Event[], b: EventStream;
 * createRunDiff(a, b, { ignore: [...DEFAULT_DIFF_IGNORE, 'seed'], now: () => performance.now() });
 */
export interface CreateRunDiffOptions extends RunDiffOptions {
  /** A clock in ms (default `Date.now`). */
  now?: () => number;
  /** Runs `task` after `ms` (default `setTimeout`). */
  delay?: (task: () => void, ms: number) => void;
  /**
   * Budget of one slice of an update, in ms (default: none, an update runs
   * whole). With it, an update that listeners are to hear of runs in slices
   * of about this long, each its own task (`schedule`), and they hear of it
   * once it is whole: the diff of two 100k-step runs (seconds) never holds
   * a page for more than a slice. `update()`, and `getSnapshot()` without
   * listeners, still finish it at once.
   */
  sliceMs?: number;
  /** Runs the next slice of an update (default `setTimeout(task, 0)`). */
  schedule?: (task: () => void) => void;
}

/**
 * A live run diff: `getSnapshot()` is the diff of the runs as they are now
 * (the same object until one of them changes), `subscribe` tells when it
 * changed, `update()` catches up at once.
 *
 * @example
 * declare function show(...values: unknown[]): void;
 * declare const finished: Event[];
 * const live = createRunDiff(finished, stream);
 * const stop = live.subscribe(() => show(live.getSnapshot().counts));
 */
export interface RunDiffStore {
  /**
   * The current diff. Without listeners it catches up on each read; with
   * them it is the diff they were last told of (updates are spaced). Bound,
   * for `useSyncExternalStore`.
   */
  readonly getSnapshot: () => RunDiffResult;
  /**
   * Calls `listener` when the diff changed (at most once per microtask).
   * The sources are followed while there is a listener. Bound.
   */
  readonly subscribe: (listener: () => void) => () => void;
  /** Catches up with both sources now and returns the diff. */
  update(): RunDiffResult;
  /** Stops following the sources. The last diff stays readable. */
  dispose(): void;
}

/** One side: where its tree comes from, and whether it changed since the last diff. */
interface Side {
  /** The tree as it is now (catches up a stream's new events first). */
  snapshot(): RunSnapshot;
  /** Whether the source changed since `snapshot()` was last called. */
  dirty(): boolean;
  /** Follows the source: `changed` runs after it changes; returns the unfollow. */
  follow(changed: () => void): () => void;
  /** Whether the source is finished and all read: it will not change again. */
  done(): boolean;
}

function streamSide(stream: EventStream): Side {
  const builder: EventTreeBuilder = createEventTreeBuilder();
  let cursor = 0;
  let complete: boolean | null = null;
  return {
    dirty: () => cursor !== stream.length || complete !== stream.complete,
    snapshot() {
      // Every version, in order: the builder keeps the latest per uuid.
      for (const end = stream.length; cursor < end; cursor++) builder.append(stream.at(cursor)!);
      complete = stream.complete;
      return { tree: builder.getSnapshot(), complete };
    },
    follow: (changed) => stream.subscribe(changed),
    done: () => stream.complete,
  };
}

function feedSide(feed: EventTreeFeed): Side {
  let seen: unknown = null;
  return {
    dirty: () => feed.getSnapshot() !== seen,
    snapshot() {
      seen = feed.getSnapshot();
      return snapshotOf('createRunDiff', 'source', feed);
    },
    follow: (changed) => feed.subscribe(changed),
    done() {
      const s = feed.getSnapshot();
      return s.complete && !s.loading;
    },
  };
}

function arraySide(events: readonly Event[]): Side {
  let tree: EventTree | null = null;
  return {
    dirty: () => tree === null,
    snapshot: () => ({ tree: (tree ??= treeOfEvents(events)), complete: true }),
    follow: () => () => {},
    done: () => true,
  };
}

function sideOf(name: string, source: RunDiffSource): Side {
  if (source instanceof EventStream) return streamSide(source);
  if (Array.isArray(source)) return arraySide(source as readonly Event[]);
  const s = source as EventTreeFeed;
  if (
    s !== null &&
    typeof s === 'object' &&
    typeof s.getSnapshot === 'function' &&
    typeof s.subscribe === 'function'
  )
    return feedSide(s);
  throw new SkeinError(
    'invalid_argument',
    'createRunDiff',
    name,
    'an array of events, an EventStream or an event-tree feed',
    source === null ? 'null' : typeof source,
  );
}

/**
 * Creates a live run diff of `a` and `b` (arrays, `EventStream`s or
 * event-tree feeds): the same result as {@link diffRuns}, kept up to date as
 * a live run grows, without redoing what did not change (module comment).
 *
 * @example
 * declare function show(...values: unknown[]): void;
 * const finished = generateRun({ seed: 1, events: 2_000 });
 * const stream = new EventStream(); // run B, arriving live
 * const live = createRunDiff(finished, stream);
 * const stop = live.subscribe(() => {
 *   const { counts, firstDivergence } = live.getSnapshot();
 *   show(counts, firstDivergence?.row);
 * });
 */
export function createRunDiff(
  a: RunDiffSource,
  b: RunDiffSource,
  options: CreateRunDiffOptions = {},
): RunDiffStore {
  const resolved = resolveDiffOptions('createRunDiff', options);
  const now = options.now ?? Date.now;
  const delay = options.delay ?? ((task: () => void, ms: number) => void setTimeout(task, ms));
  const sliceMs = options.sliceMs;
  if (sliceMs !== undefined && !(sliceMs > 0))
    throw new SkeinError(
      'invalid_argument',
      'createRunDiff',
      'sliceMs',
      'a number of ms > 0',
      String(sliceMs),
    );
  const schedule = options.schedule ?? ((task: () => void) => void setTimeout(task, 0));
  const cache: DiffCache = {
    intern: { ids: new Map(), texts: [], hashes: [] },
    leaves: new WeakMap(),
    memo: { levels: new Map(), rows: new Map() },
  };
  let current: RunDiffResult | null = null;
  let disposed = false;
  let lastCost = 0;
  let lastEnd = 0;
  let held = false;

  // The update under way (sliced: `sliceMs`), what its slices cost so
  // far, and whether its next slice is queued.
  let job: Generator<void, RunDiffResult> | null = null;
  let jobCost = 0;
  let sliceQueued = false;
  // A finished update that listeners hear of in the next task.
  let owed = false;

  /**
   * Runs the update under way, or begins one if a source changed, until it
   * is done (`true`: `current` is new) or `now()` passes `deadline`.
   */
  const advance = (deadline: number): boolean => {
    if (job === null && current !== null && !sideA.dirty() && !sideB.dirty()) return false;
    const start = now();
    if (job === null) {
      job = diffJob(sideA.snapshot(), sideB.snapshot(), resolved, cache);
      jobCost = 0;
    }
    let result: RunDiffResult;
    if (deadline === Number.POSITIVE_INFINITY) result = finish(job);
    else {
      for (;;) {
        const r = job.next();
        if (r.done === true) {
          result = r.value;
          break;
        }
        if (now() >= deadline) {
          jobCost += now() - start;
          return false;
        }
      }
    }
    job = null;
    current = result;
    lastEnd = now();
    lastCost = jobCost + (lastEnd - start);
    return true;
  };
  /** Catches up at once: the update under way, then a new one if a source changed since. */
  const compute = (): void => {
    if (job !== null) advance(Number.POSITIVE_INFINITY);
    advance(Number.POSITIVE_INFINITY);
  };
  /**
   * One slice of the update (`sliceMs`); the next is queued while it is not
   * done. `false` when listeners are to wait: the update is not done, or it
   * ended a long slice (they hear of it in a task of its own: their work on
   * a new diff, a render of its rows, is not added to the slice's).
   */
  const slice = (): boolean => {
    if (owed) {
      owed = false;
      if (sideA.dirty() || sideB.dirty()) changed();
      return true;
    }
    const start = now();
    const done = advance(start + sliceMs!);
    if (job === null && (!done || now() - start < sliceMs! / 2)) {
      // What changed while it ran (the notice of it went to this update).
      if (done && (sideA.dirty() || sideB.dirty())) changed();
      return true;
    }
    if (job === null) owed = true;
    if (!sliceQueued) {
      sliceQueued = true;
      schedule(() => {
        sliceQueued = false;
        if (!disposed) listeners.schedule();
      });
    }
    return false;
  };
  // A due notification recomputes first and is skipped when the diff is the
  // one listeners last heard of (a read in between may have caught up).
  let told: RunDiffResult | null = null;
  const listeners = new Listeners(() => {
    if (disposed) return false;
    if (sliceMs === undefined) compute();
    else if (!slice()) return false;
    if (current === told) return false;
    told = current;
    return true;
  });
  const changed = () => {
    if (disposed) return;
    // Both runs finished and read (a large run's last slice): the last
    // update runs at once, even past one held back. Spacing would only
    // leave the diff behind its runs for five times the previous update's
    // cost, seconds at 100k.
    const last = sideA.done() && sideB.done();
    if (held && !last) return;
    const wait = last || lastCost < LIVE_MIN_COST_MS ? 0 : lastEnd + LIVE_RATIO * lastCost - now();
    if (wait <= 0) {
      listeners.schedule();
      return;
    }
    held = true;
    delay(() => {
      held = false;
      if (!disposed) listeners.schedule();
    }, wait);
  };
  const sideA = sideOf('a', a);
  const sideB = sideOf('b', b);
  // The sources are followed while someone listens (nothing starts in a
  // render that creates the store: a feed then pulls nothing).
  let subscribers = 0;
  let unfollow: (() => void) | null = null;

  const getSnapshot = (): RunDiffResult => {
    // Listened to: the diff listeners were told of (updates are spaced).
    // Not listened to: caught up on each read.
    if (current === null || (subscribers === 0 && (sideA.dirty() || sideB.dirty()))) compute();
    return current!;
  };
  return {
    getSnapshot,
    subscribe(listener) {
      const leave = listeners.subscribe(listener);
      if (subscribers++ === 0 && !disposed) {
        const stopA = sideA.follow(changed);
        const stopB = sideB.follow(changed);
        unfollow = () => {
          stopA();
          stopB();
        };
        // What changed while nobody listened.
        if (current === null || sideA.dirty() || sideB.dirty()) changed();
      }
      let left = false;
      return () => {
        if (left) return;
        left = true;
        leave();
        if (--subscribers === 0) {
          unfollow?.();
          unfollow = null;
        }
      };
    },
    update() {
      compute();
      return current!;
    },
    dispose() {
      if (disposed) return;
      disposed = true;
      job = null;
      unfollow?.();
      unfollow = null;
    },
  };
}
