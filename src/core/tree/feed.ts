/**
 * The event-tree feed (shared by every view): takes
 * events from an `EventStream`, an array or an (async) iterable into an incremental span tree, without ever
 * freezing the page. A 1M-event run is ingested in time slices: the first
 * slice is taken at once so the first rows paint immediately, then the rest
 * follows in the background; snapshots are published each time the tree has
 * doubled (each costs a flatten, O(n), so the total stays O(n)) and, once
 * the backlog is done, after every live change.
 *
 * One feed can back several views of one stream (`<Transcript feed>`,
 * `<SpanTree feed>`): the tree is built once and every view reads the same
 * snapshots.
 *
 * A feed is lazy: creating one (in a render, which may run twice or be
 * thrown away) pulls nothing from an iterable and schedules nothing; that
 * starts with the first subscriber (after commit). A source that throws ends
 * the feed with `failed` and its `error`, never as if it were complete.
 */
import type { Event } from '../events/types.js';
import { EventStream } from '../stream/event-stream.js';
import { Listeners } from '../stream/listeners.js';
import type { EventTree } from './event-tree.js';
import { createEventTreeBuilder } from './incremental.js';

/**
 * Where a feed's events come from.
 *
 * @example
 * const source: EventTreeSource = stream; // or events, or an async generator
 */
export type EventTreeSource =
  EventStream | readonly Event[] | Iterable<Event> | AsyncIterable<Event>;

/**
 * Options of {@link createEventTreeFeed}.
 *
 * @example
 * createEventTreeFeed(stream, { sliceMs: 8, schedule: (task) => setTimeout(task, 0) });
 */
export interface EventTreeFeedOptions {
  /**
   * Runs the next slice later (default `setTimeout(task, 0)`; the first
   * background slice waits until a frame after the first paint where there
   * are frames, so it never delays the first rows).
   */
  schedule?: (task: () => void) => void;
  /** A clock in ms (default `Date.now`). */
  now?: () => number;
  /** Budget of one background slice in ms (default 8). */
  sliceMs?: number;
  /** Runs a task after `ms` (default `setTimeout`): live snapshots held back (below). */
  delay?: (task: () => void, ms: number) => void;
  /**
   * Events taken synchronously at first: on the first read for an array or
   * a stream, so the first render has rows; on the first subscribe for an
   * iterable (default 500: enough to fill a viewport, small enough to paint
   * at once).
   */
  firstSlice?: number;
}

/**
 * A feed's state. `tree` is the span tree of everything taken so far.
 *
 * @example
 * const feed = createEventTreeFeed(stream);
 * const { tree, loading } = feed.getSnapshot();
 */
export interface EventTreeFeedSnapshot {
  readonly tree: EventTree;
  /** Events (versions) taken in so far. */
  readonly taken: number;
  /** `true` while a backlog is still being taken in. */
  readonly loading: boolean;
  /** `true` when the source threw: the tree holds what came before. */
  readonly failed: boolean;
  /** What the source threw (`undefined` unless `failed`). */
  readonly error: unknown;
  /**
   * `true` when the source is finished: an array or a sync iterable (a
   * finished list, read in slices) always; an async iterable once it is done;
   * an `EventStream` while `stream.complete` (made with `EventStream.from`, or
   * after its source called `close()`). A view opens a complete source at its
   * first event and follows the end of one that is not.
   */
  readonly complete: boolean;
}

/**
 * A feed: a small external store over a growing span tree (`subscribe`/`getSnapshot`).
 *
 * @example
 * import { useMemo } from 'react';
 * const feed = useMemo(() => createEventTreeFeed(stream), [stream]);
 * const { tree } = useStoreSelector(feed, (s) => s);
 */
export interface EventTreeFeed {
  readonly getSnapshot: () => EventTreeFeedSnapshot;
  readonly subscribe: (listener: () => void) => () => void;
  /**
   * Stops for good: no more slices, an iterator is `return()`ed, a stream is
   * left. Done by itself when the last subscriber leaves an iterable's feed
   * (and stays gone past the current task); a stream or array feed only
   * pauses then, and catches up when subscribed again.
   */
  dispose(): void;
}

/** Live snapshots cheaper than this (ms) are published at every change. */
const LIVE_MIN_COST_MS = 4;
/** A live snapshot that cost `c` ms is followed by the next after `LIVE_RATIO × c` ms. */
const LIVE_RATIO = 5;

/**
 * Creates a feed over `source`. An `EventStream` is followed live (every
 * version is appended, so pending events update in place); an array or a
 * sync iterable is taken once; an async iterable is taken as it yields.
 *
 * @example
 * const feed = createEventTreeFeed(generateRun({ seed: 1, events: 1_000_000 }));
 * feed.getSnapshot().tree.length; // the first 500 events' nodes; the rest once subscribed
 */
export function createEventTreeFeed(
  source: EventTreeSource,
  options: EventTreeFeedOptions = {},
): EventTreeFeed {
  const schedule = options.schedule ?? ((task: () => void) => void setTimeout(task, 0));
  const scheduleFirst = options.schedule ?? afterPaint;
  let firstKick = true;
  const now = options.now ?? Date.now;
  const sliceMs = options.sliceMs ?? 8;
  const delay = options.delay ?? ((task: () => void, ms: number) => void setTimeout(task, ms));
  const firstSlice = options.firstSlice ?? 500;
  const builder = createEventTreeBuilder();

  // Told at once when a snapshot is published (a live one past
  // LIVE_MIN_COST_MS in a task of its own, below).
  const listeners = new Listeners();
  let disposed = false;
  // Started by the first subscriber: nothing is pulled or scheduled before.
  let started = false;
  let taken = 0;
  let publishedAt = 0;
  let snapshot: EventTreeFeedSnapshot | null = null;
  let failed = false;
  let error: unknown = undefined;
  let detach = () => {};
  let scheduled = false;

  const freeze = (loading: boolean): EventTreeFeedSnapshot =>
    Object.freeze({
      tree: builder.getSnapshot(),
      taken,
      loading,
      failed,
      error,
      complete: isComplete(),
    });
  // Bumped by every publish: a live snapshot's deferred notice (below) is
  // dropped when another snapshot was published (and announced) since.
  let published = 0;
  const publish = (loading: boolean) => {
    published++;
    publishedAt = taken;
    snapshot = freeze(loading);
    listeners.notify();
  };
  const fail = (cause: unknown) => {
    if (failed) return;
    failed = true;
    error = cause;
  };

  // `next()` gives the next available event or `undefined` when there is
  // none for now.
  let next: () => Event | undefined = () => undefined;
  // An async source still running counts as loading even with nothing buffered.
  let sourceOpen = () => false;
  // Whether the source is finished (see `EventTreeFeedSnapshot.complete`).
  let isComplete = () => true;
  // Starts pulling from the source (on the first subscribe).
  let open = () => {};
  // Stops pulling for good (`return()` of an iterator).
  let stopSource = () => {};
  // Only reading an array or a stream is free of side effects: their first
  // slice may be taken before anyone subscribes, so the first render has rows.
  let pure = false;

  const pump = (budgetMs: number, maxEvents: number) => {
    const deadline = now() + budgetMs;
    let count = 0;
    let event = count < maxEvents ? next() : undefined;
    while (event !== undefined) {
      builder.append(event);
      taken++;
      count++;
      if (count >= maxEvents || ((count & 255) === 0 && now() >= deadline)) break;
      event = next();
    }
    return count;
  };

  // Background slices run only while someone listens.
  const active = () => !disposed && listeners.size > 0;
  const kick = () => {
    if (scheduled || !active()) return;
    scheduled = true;
    if (firstKick) {
      firstKick = false;
      scheduleFirst(backlog);
    } else schedule(backlog);
  };

  const backlog = () => {
    scheduled = false;
    if (!active()) return;
    pump(sliceMs, Number.POSITIVE_INFINITY);
    const more = hasMore();
    // The end of a live burst: published as live changes are.
    if (!more && settleLive !== null && snapshot !== null && !snapshot.loading) {
      settleLive();
      return;
    }
    // Doubling keeps the flattens O(n) in total; at the end, always publish.
    if (!more || taken >= publishedAt * 2) publish(more || sourceOpen());
    if (more) kick();
  };

  // A stream followed live: publishes what a burst's last slice took.
  let settleLive: (() => void) | null = null;

  let peeked: Event | undefined;
  const hasMore = () => {
    if (peeked !== undefined) return true;
    peeked = next();
    return peeked !== undefined;
  };
  const take = (inner: () => Event | undefined) => () => {
    if (peeked !== undefined) {
      const event = peeked;
      peeked = undefined;
      return event;
    }
    return inner();
  };

  // A stream is followed only while someone listens; on (re)subscribing the
  // feed catches up from where it stopped.
  let attach = () => {};
  if (source instanceof EventStream) {
    pure = true;
    let cursor = 0;
    next = take(() => (cursor < source.length ? source.at(cursor++) : undefined));
    isComplete = () => source.complete;
    // Live snapshots of a large run: each costs a flatten, O(n). After one
    // that took `cost` ms (at least LIVE_MIN_COST_MS; below that, every
    // change is published at once), the next waits until LIVE_RATIO × cost
    // has passed, so following a 1M-event run spends at most a fifth of the
    // time on snapshots instead of all of it. Events are still taken at once.
    let liveCost = 0;
    let liveEnd = 0;
    let liveHeld = false;
    const publishLive = () => {
      const start = now();
      published++;
      const token = published;
      publishedAt = taken;
      snapshot = freeze(false);
      const built = now();
      liveEnd = built;
      liveCost = built - start;
      // Past LIVE_MIN_COST_MS, listeners hear of it in a task of their own,
      // so the flatten above and what the views do with the snapshot (React
      // re-renders at once, in a microtask of the notifying task) are two
      // tasks, not one twice as long (at 300k events each takes
      // tens of milliseconds). The cost that spaces live snapshots then
      // counts that render too, up to the task after it.
      if (liveCost < LIVE_MIN_COST_MS) {
        listeners.notify();
        liveEnd = now();
        liveCost = liveEnd - start;
        return;
      }
      schedule(() => {
        if (token !== published || !active()) return;
        const told = now();
        listeners.notify();
        schedule(() => {
          if (token !== published) return;
          liveEnd = now();
          liveCost = built - start + (liveEnd - told);
        });
      });
    };
    const onStream = (attaching = false) => {
      if (!active() || scheduled) return;
      // Live: take what arrived now; a big burst continues in slices.
      pump(sliceMs, Number.POSITIVE_INFINITY);
      if (hasMore()) {
        // Following live, a burst is not a backlog: its snapshot comes when
        // it is all taken, held back like any other (`settleLive`, from the
        // last slice), not once now and once at its end.
        if (snapshot === null || snapshot.loading) publish(true);
        kick();
        return;
      }
      settle(attaching);
    };
    settleLive = () => settle(false);
    const settle = (attaching: boolean) => {
      // Nothing new since the last snapshot (events taken while a snapshot
      // was held count, even if its listener left before it ran).
      if (taken === publishedAt && snapshot !== null && snapshot.complete !== isComplete()) {
        // Only the stream's completeness changed (`close()`).
        publish(false);
        return;
      }
      if (taken === publishedAt || (liveHeld && !attaching)) return;
      // A listener (re)attaching sees everything taken at once.
      const wait =
        attaching || liveCost < LIVE_MIN_COST_MS ? 0 : liveEnd + LIVE_RATIO * liveCost - now();
      if (wait <= 0) {
        publishLive();
        return;
      }
      liveHeld = true;
      delay(() => {
        liveHeld = false;
        if (!active()) return;
        pump(sliceMs, Number.POSITIVE_INFINITY);
        if (hasMore()) kick();
        else publishLive();
      }, wait);
    };
    attach = () => {
      detach = source.subscribe(() => onStream());
      onStream(true);
    };
  } else if (isAsyncIterable(source)) {
    const buffer: Event[] = [];
    let head = 0;
    let done = false;
    let iterator: AsyncIterator<Event> | null = null;
    next = take(() => (head < buffer.length ? buffer[head++] : undefined));
    sourceOpen = () => !done;
    isComplete = () => done && !failed;
    stopSource = () => {
      done = true;
      const it = iterator;
      iterator = null;
      // A throwing or rejecting `return()` must not escape.
      if (it !== null)
        Promise.resolve()
          .then(() => it.return?.())
          .catch(() => {});
    };
    open = () => {
      let it: AsyncIterator<Event> | null = null;
      void (async () => {
        try {
          it = source[Symbol.asyncIterator]();
          iterator = it;
          for (;;) {
            const step = await it.next();
            if (disposed) return;
            if (step.done === true) break;
            buffer.push(step.value);
            kick();
          }
        } catch (cause) {
          // A failing source ends the feed with its error: it must not
          // look complete.
          if (!disposed) fail(cause);
        } finally {
          done = true;
          if (iterator === it) iterator = null;
          if (!disposed) {
            if (active()) kick();
            else snapshot = freeze(hasMore());
          }
        }
      })();
    };
  } else if (Array.isArray(source)) {
    pure = true;
    let cursor = 0;
    const events = source as readonly Event[];
    next = take(() => (cursor < events.length ? events[cursor++] : undefined));
  } else {
    let iterator: Iterator<Event> | null = null;
    let done = false;
    open = () => {
      try {
        iterator = (source as Iterable<Event>)[Symbol.iterator]();
      } catch (cause) {
        done = true;
        fail(cause);
      }
    };
    stopSource = () => {
      const it = iterator;
      iterator = null;
      if (done || it === null) return;
      done = true;
      try {
        it.return?.();
      } catch {
        // Nothing more to take either way.
      }
    };
    next = take(() => {
      if (done || iterator === null) return undefined;
      try {
        const step = iterator.next();
        if (step.done === true) {
          done = true;
          return undefined;
        }
        return step.value;
      } catch (cause) {
        done = true;
        fail(cause);
        return undefined;
      }
    });
  }

  // The first slice: for an array or a stream on the first read; for an
  // iterable on the first subscribe (pulling is a side effect, and a render
  // may be thrown away or run twice).
  const takeFirstSlice = () => {
    pump(Number.POSITIVE_INFINITY, firstSlice);
    publishedAt = taken;
    snapshot = freeze(hasMore() || sourceOpen());
  };
  const start = () => {
    started = true;
    open();
    if (!pure || snapshot === null) takeFirstSlice();
    if (hasMore()) kick();
  };

  // Releases the source for good when the last listener has been gone for a
  // moment: React unsubscribes and resubscribes at once (StrictMode, a moved
  // component), which must not end an iterator.
  let releaseQueued = false;
  const queueRelease = () => {
    if (releaseQueued || pure) return;
    releaseQueued = true;
    void Promise.resolve().then(() => {
      releaseQueued = false;
      if (listeners.size === 0 && !disposed) dispose();
    });
  };
  const dispose = () => {
    if (disposed) return;
    disposed = true;
    detach();
    detach = () => {};
    stopSource();
    if (snapshot !== null && snapshot.loading) snapshot = freeze(false);
  };

  return {
    getSnapshot() {
      if (snapshot === null) {
        if (pure) takeFirstSlice();
        else snapshot = freeze(true);
      }
      return snapshot!;
    },
    subscribe(listener) {
      const first = listeners.size === 0;
      const leave = listeners.subscribe(listener);
      if (first && !disposed) {
        if (!started) start();
        // A stream catches up in `attach`; anything else resumes its slices.
        else if (!(source instanceof EventStream) && hasMore()) kick();
        attach();
      }
      return () => {
        const before = listeners.size;
        leave();
        if (before > 0 && listeners.size === 0) {
          detach();
          detach = () => {};
          queueRelease();
        }
      };
    },
    dispose,
  };
}

function isAsyncIterable(value: unknown): value is AsyncIterable<Event> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function'
  );
}

/**
 * Runs `task` once the first rows are on screen: a task queued from the
 * second animation frame after the call, or after 200 ms where frames do not
 * come (a hidden tab) or do not exist (Node). The first background slice
 * must not land between the first render and its paint, nor right behind
 * that paint: queued from the first frame's callback (registered at mount,
 * before anyone else's), the slice — 8 ms, then a snapshot and a re-render
 * with many more rows — ran ahead of whatever else waited for that paint
 * (in `browser.spantree.mount.50k`, in 12 of 12 mounts; medians of 12
 * alternating mounts in four runs on a loaded machine: 66–179 ms with it,
 * 37–103 ms without). One frame later costs a large run ~16 ms of its load
 * time.
 */
function afterPaint(task: () => void): void {
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    task();
  };
  const raf = (globalThis as { requestAnimationFrame?: (cb: () => void) => unknown })
    .requestAnimationFrame;
  if (typeof raf === 'function') {
    raf(() => raf(() => void setTimeout(run, 0)));
    void setTimeout(run, 200);
  } else void setTimeout(run, 0);
}
