/**
 * EventStream: the append-only, deep-frozen log every view reads from.
 *
 * It is cantus' `EventStream` contract (an append-only list with a text
 * `replay()`, https://github.com/schola-cantorum/cantus) made live: React subscribes through
 * `subscribe`/`getSnapshot` (`useSyncExternalStore`), and `latest()` is the
 * projection the views render — one entry per `uuid`, newest version — while
 * the log keeps every version of a re-emitted pending event (inspect_ai
 * re-sends a pending event under the same uuid until it completes).
 */
import { deepFreeze } from '../events/freeze.js';
import type { Event } from '../events/types.js';
import { SkeinError, SkeinTypeError } from '../errors.js';
import { Listeners } from './listeners.js';
import { replayEvents } from './replay.js';
import { StringIndex } from './string-index.js';

/**
 * What {@link EventStream.getSnapshot} returns: an immutable view of the stream
 * at one moment. A new object is made only when something was appended, so it
 * can be compared by reference (`useSyncExternalStore`).
 *
 * @example
 * const snap = stream.getSnapshot();
 * declare function render(events: readonly Event[]): void;
 * render(snap.latest); // rows, one per uuid
 */
export interface EventStreamSnapshot {
  /**
   * Number of events in the log (every version). The log is append-only, so
   * `stream.at(i)` for `i < length` is the same event this snapshot saw.
   */
  readonly length: number;
  /** {@link EventStream.latest} at this moment (frozen, one entry per uuid). */
  readonly latest: readonly Event[];
  /** `true` once the stream is complete ({@link EventStream.close}): no more events will come. */
  readonly complete: boolean;
}

/** A change listener. It receives nothing: read the state with `getSnapshot()`. */
export type EventStreamListener = () => void;

/**
 * The append-only log of canonical events.
 *
 * - `append` accepts only canonical events (see {@link EventStream.append}) and
 *   deep-freezes them: history cannot be patched.
 * - Listeners are notified once per microtask, however many events were
 *   appended in that tick.
 * - `latest()` supersedes pending versions by `uuid` incrementally.
 *
 * @example
 * const stream = EventStream.from(generateRun({ seed: 1, events: 500 }));
 * declare function draw(snapshot: EventStreamSnapshot): void;
 * const unsubscribe = stream.subscribe(() => draw(stream.getSnapshot()));
 * stream.append(events.info({ data: 'step done' }));
 * const text = stream.replay(); // plain-text transcript
 */
export class EventStream implements Iterable<Event> {
  /** Every appended version, in append order. Never shrinks, never rewritten. */
  readonly #log: Event[] = [];

  // --- the `latest()` projection, maintained lazily but incrementally --------
  // Appends only push to #log; the projection catches up from #projected on the
  // next read. Each event is visited once, so the work is O(1) amortized per
  // append, and a stream nobody projects pays nothing for it.
  #projected = 0;
  /**
   * uuid → position in #latestWork (StringIndex numbers keys in first-seen
   * order). Made on the first projection: a registry holds thousands of
   * streams nobody may read, and the index's tables are typed arrays.
   */
  #latestIndex: StringIndex | undefined;
  readonly #latestWork: Event[] = [];
  /** Frozen copy handed out by `latest()`; `null` once the projection changed. */
  #latestView: readonly Event[] | null = null;

  // --- live -------------------------------------------------------------------
  /** Made on the first `subscribe` (most streams of a registry have no listener). */
  #listeners: Listeners | undefined;
  #snapshot: EventStreamSnapshot | null = null;

  /**
   * A stream holding `events`, appended in order (each is checked and frozen).
   *
   * @example
   * const stream = EventStream.from(parseEvents(json).events);
   */
  static from(events: Iterable<Event>): EventStream {
    const stream = new EventStream();
    for (const event of events) stream.append(event);
    // A stream made from a finished list is complete: views open
    // it at its first event instead of following its end. Not sealed: code
    // that goes on appending to it (a loaded history continued live) makes it
    // live again, as before.
    stream.#complete = true;
    return stream;
  }

  #complete = false;
  /** Set by `close()`: appending throws. */
  #sealed = false;

  /**
   * `true` once the source has called {@link EventStream.close}: the run is
   * finished and no event will be appended. A view opens a complete stream
   * at its first event and follows the end of one that is not.
   * `EventStream.from(...)` is complete too, until something appends to it
   * (then it is live again, until `close()`).
   *
   * @example
   * declare function showLiveBadge(): void;
   * if (!stream.complete) showLiveBadge();
   */
  get complete(): boolean {
    return this.#complete;
  }

  /**
   * Marks the stream complete: the source has nothing more to append (the
   * run ended). Listeners are notified; a later `append` throws
   * (`stream_closed`). Calling it again does nothing.
   *
   * @example
   * declare const feed: AsyncIterable<Event>;
   * for await (const event of feed) stream.append(event);
   * stream.close();
   */
  close(): void {
    if (this.#sealed) return;
    this.#sealed = true;
    this.#complete = true;
    this.#changed();
  }

  /**
   * Appends one canonical event and returns it, deep-frozen.
   *
   * Canonical means: what `parseEvent` returns, or any plain object with the
   * same envelope — a non-empty string `event`, a non-empty string `uuid` and a
   * string `timestamp`, with `span_id` (if present) a string or null and
   * `pending` (if present) a boolean. Only the envelope is checked, so the
   * check stays O(1); run untrusted input through `parseEvent` first. Anything
   * else throws a `SkeinTypeError` (`not_an_event`) that names what it got: an
   * `instanceof TypeError` and an `instanceof SkeinError`.
   *
   * The event and everything reachable from it is frozen in place (objects that
   * are already frozen, such as sub-objects shared between events, are skipped).
   *
   * @example
   * stream.append({ event: 'info', uuid: 'a1', timestamp: '2026-01-01T00:00:00Z', data: 'hi' });
   */
  append(event: Event): Event {
    if (this.#sealed) throw new SkeinError('stream_closed', this.#log.length);
    this.#complete = false;
    const problem = checkEnvelope(event);
    if (problem !== null) throw new SkeinTypeError('not_an_event', problem);
    const frozen = event as Event;
    // Already-frozen events (from parseEvent) cost one check; shared frozen
    // sub-objects are skipped by deepFreeze.
    if (!Object.isFrozen(frozen)) deepFreeze(frozen);
    this.#log.push(frozen);
    this.#changed();
    return frozen;
  }

  /** Number of events in the log, counting every version of a re-emitted event. */
  get length(): number {
    return this.#log.length;
  }

  /**
   * The event at `index`; negative indexes count from the end (`at(-1)` is the
   * last appended). `undefined` when out of range, like `Array.prototype.at`.
   *
   * @example
   * const last = stream.at(-1);
   */
  at(index: number): Event | undefined {
    return this.#log.at(index);
  }

  /**
   * A new array with every event in the log (every version), in append order.
   *
   * @example
   * const json = JSON.stringify(stream.toArray());
   */
  toArray(): Event[] {
    return this.#log.slice();
  }

  /**
   * Iterates the log in append order. The end is fixed when iteration starts,
   * so appending from inside a `for…of` loop cannot make it run forever.
   *
   * @example
   * const count: Record<string, number> = {};
   * for (const event of stream) count[event.event] = (count[event.event] ?? 0) + 1;
   */
  *[Symbol.iterator](): Iterator<Event> {
    const log = this.#log;
    const end = log.length;
    for (let i = 0; i < end; i++) yield log[i]!;
  }

  /**
   * The projection views render: one entry per `uuid`, in the order each uuid
   * was first seen, holding its newest version. A re-emitted event replaces the
   * earlier version, except that a `pending` copy arriving after a final one is
   * ignored (the final version wins; live feeds can deliver a stale pending
   * copy late). Returns the same frozen array until something changes.
   *
   * The projection is built lazily and incrementally: the first read after
   * appends visits only the new events (one uuid-index lookup each, O(1)
   * amortized), so a stream nobody projects pays nothing for it. Producing a
   * new array after a change copies it once; it is cached until the next
   * change.
   *
   * @example
   * const rows = stream.latest(); // a model call in flight appears once, newest version
   */
  latest(): readonly Event[] {
    this.#project();
    if (this.#latestView === null) this.#latestView = Object.freeze(this.#latestWork.slice());
    return this.#latestView;
  }

  /**
   * Registers `listener`, called once per microtask in which events were
   * appended. Returns the function that unregisters it (calling it twice is
   * harmless). Bound (the same function each time it is read), so it can be
   * passed on its own, as `useSyncExternalStore(stream.subscribe,
   * stream.getSnapshot)` does.
   *
   * @example
   * declare function setRows(rows: readonly Event[]): void;
   * const unsubscribe = stream.subscribe(() => setRows(stream.getSnapshot().latest));
   */
  get subscribe(): (listener: EventStreamListener) => () => void {
    // Made when first read, as `getSnapshot`: most streams of a registry are never followed.
    return (this.#subscribe ??= (listener) =>
      (this.#listeners ??= new Listeners()).subscribe(listener));
  }

  #subscribe: ((listener: EventStreamListener) => () => void) | undefined;

  /**
   * The current state as an immutable snapshot; the same object until an event
   * is appended. Bound (the same function each time it is read), so it can be
   * passed as is to `useSyncExternalStore`.
   *
   * @example
   * import { useSyncExternalStore } from 'react';
   * const snap = useSyncExternalStore(stream.subscribe, stream.getSnapshot);
   */
  get getSnapshot(): () => EventStreamSnapshot {
    return (this.#getSnapshot ??= () => this.#snapshotNow());
  }

  #getSnapshot: (() => EventStreamSnapshot) | undefined;

  #snapshotNow(): EventStreamSnapshot {
    let snapshot = this.#snapshot;
    if (snapshot === null) {
      // O(1): `latest` is made on first read, not here. A subscriber that
      // reads only `length` on each notification (a live feed appending one
      // event per tick to a 1M-event stream) must not pay for a copy of the
      // projection each time.
      const length = this.#log.length;
      let latest: readonly Event[] | null = null;
      const latestAt = (n: number) => this.#latestAt(n);
      snapshot = Object.freeze({
        length,
        complete: this.#complete,
        get latest(): readonly Event[] {
          latest ??= latestAt(length);
          return latest;
        },
      });
      this.#snapshot = snapshot;
    }
    return snapshot;
  }

  /**
   * A plain-text transcript of the run: one line per entry of `latest()`,
   * indented by span depth, with the time offset from the first event, the kind
   * and a short summary. Prints nothing; the caller decides where it goes.
   *
   * @example
   * process.stdout.write(stream.replay());
   * // +0.000s  span_begin init (init)
   * // +0.001s    sample_init "Write a decoder for AIS messages."
   */
  replay(): string {
    return replayEvents(this.latest());
  }

  /**
   * `latest()` as it was when the log held `length` events. The current
   * projection when nothing was appended since (the usual case); otherwise
   * (a snapshot first read after later appends) a projection of that prefix,
   * by the same rules.
   */
  #latestAt(length: number): readonly Event[] {
    if (length === this.#log.length) return this.latest();
    const index = new StringIndex();
    const work: Event[] = [];
    for (let i = 0; i < length; i++) {
      const event = this.#log[i]!;
      const at = index.findOrAdd(event.uuid);
      if (at < 0) work.push(event);
      else if (event.pending !== true || work[at]!.pending === true) work[at] = event;
    }
    return Object.freeze(work);
  }

  #changed(): void {
    this.#snapshot = null;
    this.#listeners?.schedule();
  }

  #project(): void {
    const log = this.#log;
    const end = log.length;
    if (this.#projected === end) return;
    const index = (this.#latestIndex ??= new StringIndex());
    const work = this.#latestWork;
    let changed = false;
    for (let i = this.#projected; i < end; i++) {
      const event = log[i]!;
      const at = index.findOrAdd(event.uuid);
      if (at < 0) {
        work.push(event);
        changed = true;
      } else if (event.pending !== true || work[at]!.pending === true) {
        work[at] = event;
        changed = true;
      }
    }
    this.#projected = end;
    if (changed) this.#latestView = null;
  }
}

/** `null` if `value` has a canonical envelope, else a description of what it is. */
function checkEnvelope(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return describe(value);
  const v = value as Record<string, unknown>;
  const kind = v['event'];
  if (typeof kind !== 'string' || kind === '') return `an object without a string "event" field`;
  if (typeof v['uuid'] !== 'string' || v['uuid'] === '')
    return `a "${kind}" event without a string "uuid"`;
  if (typeof v['timestamp'] !== 'string') return `a "${kind}" event without a string "timestamp"`;
  const spanId = v['span_id'];
  if (spanId !== undefined && spanId !== null && typeof spanId !== 'string')
    return `a "${kind}" event whose "span_id" is ${describe(spanId)}`;
  const pending = v['pending'];
  if (pending !== undefined && typeof pending !== 'boolean')
    return `a "${kind}" event whose "pending" is ${describe(pending)}`;
  return null;
}

/** A short name for a non-event value, for error messages: `number 42`, `null`, `array(3)`. */
function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array (length ${value.length})`;
  switch (typeof value) {
    case 'string':
      return `string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
    case 'number':
    case 'boolean':
    case 'bigint':
      return `${typeof value} ${String(value)}`;
    case 'undefined':
      return 'undefined';
    case 'function':
      return 'a function';
    case 'symbol':
      return 'a symbol';
    default:
      return 'an object';
  }
}
