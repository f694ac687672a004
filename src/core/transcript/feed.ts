/**
 * The transcript's feed (issue 6): takes events from an `EventStream`, an
 * array or an (async) iterable into an incremental span tree, without ever
 * freezing the page. A 1M-event run is ingested in time slices: the first
 * slice is taken at once so the first rows paint immediately, then the rest
 * follows in the background; snapshots are published each time the tree has
 * doubled (each costs a flatten, O(n), so the total stays O(n)) and, once
 * the backlog is done, after every live change.
 */
import type { Event } from '../events/types.js';
import { EventStream } from '../stream/event-stream.js';
import type { EventTree } from '../tree/event-tree.js';
import { createEventTreeBuilder } from '../tree/incremental.js';

/**
 * Where a transcript's events come from.
 *
 * @example
 * const source: TranscriptSource = stream; // or events, or an async generator
 */
export type TranscriptSource =
  EventStream | readonly Event[] | Iterable<Event> | AsyncIterable<Event>;

/**
 * Options of {@link createTranscriptFeed}.
 *
 * @example
 * createTranscriptFeed(stream, { sliceMs: 8, schedule: (task) => setTimeout(task, 0) });
 */
export interface TranscriptFeedOptions {
  /** Runs the next slice later (default `setTimeout(task, 0)`). */
  schedule?: (task: () => void) => void;
  /** A clock in ms (default `Date.now`). */
  now?: () => number;
  /** Budget of one background slice in ms (default 8). */
  sliceMs?: number;
  /**
   * Events taken synchronously on creation, so the first render has rows
   * (default 500: enough to fill a viewport, small enough to paint at once).
   */
  firstSlice?: number;
}

/**
 * A feed's state. `tree` is the span tree of everything taken so far.
 *
 * @example
 * const { tree, loading } = feed.getSnapshot();
 */
export interface TranscriptFeedSnapshot {
  readonly tree: EventTree;
  /** Events (versions) taken in so far. */
  readonly taken: number;
  /** `true` while a backlog is still being taken in. */
  readonly loading: boolean;
}

/**
 * A feed: a small external store over a growing span tree (STYLE §3).
 *
 * @example
 * const feed = createTranscriptFeed(stream);
 * const { tree } = useStoreSelector(feed, (s) => s);
 * useEffect(() => () => feed.dispose(), [feed]);
 */
export interface TranscriptFeed {
  readonly getSnapshot: () => TranscriptFeedSnapshot;
  readonly subscribe: (listener: () => void) => () => void;
  /** Stops listening to the source. */
  dispose(): void;
}

/**
 * Creates a feed over `source`. An `EventStream` is followed live (every
 * version is appended, so pending events update in place); an array or a
 * sync iterable is taken once; an async iterable is taken as it yields.
 *
 * @example
 * const feed = createTranscriptFeed(generateRun({ seed: 1, events: 1_000_000 }));
 * feed.getSnapshot().tree.length; // the first 500 events' nodes; the rest follows
 */
export function createTranscriptFeed(
  source: TranscriptSource,
  options: TranscriptFeedOptions = {},
): TranscriptFeed {
  const schedule = options.schedule ?? ((task: () => void) => void setTimeout(task, 0));
  const now = options.now ?? Date.now;
  const sliceMs = options.sliceMs ?? 8;
  const firstSlice = options.firstSlice ?? 500;
  const builder = createEventTreeBuilder();

  let listeners: readonly (() => void)[] = [];
  let disposed = false;
  let taken = 0;
  let publishedAt = 0;
  let snapshot: TranscriptFeedSnapshot;
  let stopSource = () => {};
  let detach = () => {};
  let scheduled = false;

  const publish = (loading: boolean) => {
    publishedAt = taken;
    snapshot = Object.freeze({ tree: builder.getSnapshot(), taken, loading });
    for (const listener of listeners) listener();
  };

  // `next()` gives the next available event or `undefined` when there is
  // none for now.
  let next: () => Event | undefined = () => undefined;
  // An async source still running counts as loading even with nothing buffered.
  let sourceOpen = () => false;

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

  const backlog = () => {
    scheduled = false;
    if (disposed) return;
    pump(sliceMs, Number.POSITIVE_INFINITY);
    const more = hasMore();
    // Doubling keeps the flattens O(n) in total; at the end, always publish.
    if (!more || taken >= publishedAt * 2) publish(more || sourceOpen());
    if (more) {
      scheduled = true;
      schedule(backlog);
    }
  };

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

  // A stream is followed only while someone listens (React subscribes and
  // unsubscribes as it mounts, so no explicit dispose is needed); on
  // (re)subscribing the feed catches up from where it stopped.
  let attach = () => {};
  if (source instanceof EventStream) {
    let cursor = 0;
    next = take(() => (cursor < source.length ? source.at(cursor++) : undefined));
    const onStream = () => {
      if (disposed || scheduled) return;
      // Live: take what arrived now; a big burst continues in slices.
      if (pump(sliceMs, Number.POSITIVE_INFINITY) === 0 && !hasMore()) return;
      const more = hasMore();
      publish(more);
      if (more) {
        scheduled = true;
        schedule(backlog);
      }
    };
    attach = () => {
      detach = source.subscribe(onStream);
      onStream();
    };
  } else if (isAsyncIterable(source)) {
    const buffer: Event[] = [];
    let head = 0;
    let done = false;
    next = take(() => (head < buffer.length ? buffer[head++] : undefined));
    sourceOpen = () => !done;
    const iterator = source[Symbol.asyncIterator]();
    stopSource = () => void iterator.return?.();
    void (async () => {
      try {
        for (;;) {
          const step = await iterator.next();
          if (disposed) return;
          if (step.done === true) break;
          buffer.push(step.value);
          if (!scheduled) {
            scheduled = true;
            schedule(backlog);
          }
        }
      } finally {
        done = true;
        if (!disposed && !scheduled) {
          scheduled = true;
          schedule(backlog);
        }
      }
    })();
  } else {
    const iterator = (source as Iterable<Event>)[Symbol.iterator]();
    let done = false;
    next = take(() => {
      if (done) return undefined;
      const step = iterator.next();
      if (step.done === true) {
        done = true;
        return undefined;
      }
      return step.value;
    });
  }

  pump(Number.POSITIVE_INFINITY, firstSlice);
  const more = hasMore();
  publishedAt = taken;
  snapshot = Object.freeze({ tree: builder.getSnapshot(), taken, loading: more || sourceOpen() });
  if (more) {
    scheduled = true;
    schedule(backlog);
  }

  return {
    getSnapshot: () => snapshot,
    subscribe(listener) {
      const entry = () => listener();
      const first = listeners.length === 0;
      listeners = [...listeners, entry];
      if (first && !disposed) attach();
      return () => {
        listeners = listeners.filter((l) => l !== entry);
        if (listeners.length === 0) {
          detach();
          detach = () => {};
        }
      };
    },
    dispose() {
      disposed = true;
      detach();
      stopSource();
    },
  };
}

function isAsyncIterable(value: unknown): value is AsyncIterable<Event> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function'
  );
}
