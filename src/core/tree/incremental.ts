/**
 * The incremental span tree builder: events arrive one at a time, in whatever
 * order a live feed delivers them, and the tree is always the one
 * {@link buildEventTree} would build from the events seen so far (issue 4).
 *
 * "The events seen so far" is what the views show: one entry per `uuid`, in
 * the order each uuid first arrived, holding its newest version — exactly
 * `EventStream.latest()`, including its rule that a `pending` copy arriving
 * after a final one is ignored (research/inspect_ai.md §1.7: pending events
 * are re-sent under the same uuid until they complete).
 *
 * How it stays equal to the batch build without knowing the future:
 * - An event (or span, or step) whose span is not known yet sits at the root,
 *   where the batch build of the same prefix puts it, on a waiting list for
 *   that span id. When the `span_begin` arrives, the waiting items move into
 *   the new span in arrival order. Each item moves at most once.
 * - A `span_end` for an unknown span waits the same way; until its begin
 *   arrives it is reported as `span_end_unknown`, as the batch build would.
 * - A parent cycle can only close when its last member arrives; that member
 *   is the one the batch build cuts (the cycle member that comes last).
 * - A re-emitted event that keeps its structure (kind, `span_id`, span `id`
 *   and `parent_id`, step `action` and `name`) replaces the old version in
 *   place. One that changes its structure — never seen in inspect's feeds —
 *   makes the next snapshot rebuild the links from scratch (O(n), once).
 *
 * Cost: `append` is O(1) amortized (a span_begin also walks its ancestor
 * chain once, O(depth), to detect a cycle). It queues; the queue is processed
 * a chunk at a time (every 512 appends, and before a snapshot, `size` or a
 * notification), so listeners hear only of appends that changed the tree.
 * `getSnapshot()` flattens in O(n) after a change and returns the same tree
 * until the next one.
 */
import type { Event, SpanBeginEvent, SpanEndEvent, StepEvent } from '../events/types.js';
import type { EventTree } from './event-tree.js';
import { Listeners } from '../stream/listeners.js';
import { Placement, finishDiagnostics, hashKey, keyOf } from './links.js';

/**
 * Options of {@link createEventTreeBuilder}.
 *
 * @example
 * const builder = createEventTreeBuilder({ events: stream.toArray() });
 */
export interface EventTreeBuilderOptions {
  /** Events to append first, in order. */
  events?: Iterable<Event>;
}

/**
 * An incremental span tree: a small external store (STYLE §3).
 *
 * @example
 * const builder = createEventTreeBuilder();
 * const stop = stream.subscribe(() => { for (const e of newEvents()) builder.append(e); });
 * const tree = useSyncExternalStore(builder.subscribe, builder.getSnapshot);
 */
export interface EventTreeBuilder {
  /**
   * Adds one event (or a new version of one already seen, by `uuid`).
   * O(1) amortized. Never mutates the event.
   */
  append(event: Event): void;
  /** Appends each event in order. */
  appendAll(events: Iterable<Event>): void;
  /**
   * The current tree: the same object until something changes, so it can go
   * straight to `useSyncExternalStore`. Bound.
   */
  readonly getSnapshot: () => EventTree;
  /**
   * Calls `listener` once per microtask in which the tree changed. Returns the
   * unsubscribe function. Bound.
   */
  readonly subscribe: (listener: () => void) => () => void;
  /** Distinct uuids seen (the input length of the equivalent batch build). */
  readonly size: number;
}

/**
 * Creates an incremental span tree builder whose snapshot always equals
 * `buildEventTree` of the latest version of each uuid seen, in first-arrival
 * order — whatever order events arrive in (children before their span, late
 * `span_end`s, pending events re-emitted under the same uuid).
 *
 * @example
 * const builder = createEventTreeBuilder();
 * for (const e of feed) builder.append(e);
 * const tree = builder.getSnapshot(); // same as buildEventTree(stream.latest())
 */
export function createEventTreeBuilder(options: EventTreeBuilderOptions = {}): EventTreeBuilder {
  const builder = new Builder();
  if (options.events !== undefined) builder.appendAll(options.events);
  return builder;
}

/**
 * {@link EventTreeBuilder} as a class: `append` is one function on the
 * prototype (an object literal made fresh closures per builder, and a feed
 * loop compiled against one builder's `append` was deoptimized when that
 * builder was collected).
 */
class Builder implements EventTreeBuilder {
  /**
   * A builder kept for the life of the module, so that the hidden classes of
   * builders, their states and uuid indexes outlive any one builder: see
   * `Placement`'s `#kept` (links.ts).
   */
  static #kept: Builder | null | undefined;

  readonly #state = new BuilderState();
  #snapshot: EventTree | null = null;
  // Appends are processed lazily: when a notification is due, tell listeners
  // only if the tree changed.
  readonly #listeners = new Listeners(() => {
    if (this.#state.flush()) {
      this.#snapshot = null;
      return true;
    }
    return this.#snapshot === null;
  });

  constructor() {
    if (Builder.#kept === undefined) {
      Builder.#kept = null;
      Builder.#kept = new Builder();
    }
  }

  append(event: Event): void {
    this.#state.append(event);
    this.#listeners.schedule();
  }

  appendAll(events: Iterable<Event>): void {
    for (const event of events) this.#state.append(event);
    this.#listeners.schedule();
  }

  readonly getSnapshot = (): EventTree => {
    if (this.#state.flush() || this.#snapshot === null) this.#snapshot = this.#state.tree();
    return this.#snapshot;
  };

  readonly subscribe = (listener: () => void): (() => void) => this.#listeners.subscribe(listener);

  get size(): number {
    this.#state.flush();
    return this.#state.size;
  }
}

/** Whether two versions of one event would be placed the same way. */
function sameStructure(a: Event, b: Event): boolean {
  if (a.event !== b.event || keyOf(a.span_id) !== keyOf(b.span_id)) return false;
  switch (a.event) {
    case 'span_begin':
      return (
        (a as SpanBeginEvent).id === (b as SpanBeginEvent).id &&
        keyOf((a as SpanBeginEvent).parent_id) === keyOf((b as SpanBeginEvent).parent_id)
      );
    case 'span_end':
      return (a as SpanEndEvent).id === (b as SpanEndEvent).id;
    case 'step':
      return (
        (a as StepEvent).action === (b as StepEvent).action &&
        (a as StepEvent).name === (b as StepEvent).name
      );
    default:
      return true;
  }
}

/**
 * uuid → slot, as open addressing in one `Int32Array`: an entry is 0 (empty)
 * or `slot + 1` in the bucket bits (the low bits, `mask`) and the hash's
 * other bits above them, which the bucket position does not already say. As
 * slots stay below half the capacity, `slot + 1` always fits in the bucket
 * bits; the hash bits above act as a tag (11 bits at 1M uuids), so a probe
 * reads a slot's uuid only when they match (about one probe in 2,000 besides
 * real matches). A lookup reads one table line, which is a likely cache miss
 * at 1M uuids (8 MB), so a chunk's lines are read ahead
 * ({@link UuidIndex.touch}) before its lookups.
 *
 * Earlier versions: (slot, hash) pairs in one 16 MB table (one miss per
 * append, ~40 % of the builder's time); then 1-byte tags beside an array of
 * slots (two lines per append, both needed: the read-ahead of either alone
 * was slower). A `Map` with 1M uuid keys cost more than the whole rest of the
 * build (its rehashes read every key string again, and its tables are
 * GC-scanned).
 */
class UuidIndex {
  #table = new Int32Array(2048);
  #mask = 2047;
  /** Per slot: its uuid's full hash, for growing without re-reading uuids. */
  #hashes = new Int32Array(1024);
  #size = 0;

  /**
   * Reads the table lines that looking up `hashes[0, count)` will touch
   * first, in a loop of its own: each is a likely cache miss, and independent
   * reads overlap, where the lookups, one after another, waited for each.
   */
  touch(hashes: Int32Array, count: number): number {
    const table = this.#table;
    const mask = this.#mask;
    let sum = 0;
    for (let k = 0; k < count; k++) sum = (sum + table[hashes[k]! & mask]!) | 0;
    return sum;
  }

  /**
   * The slot holding `uuid`, or -1 after registering it as `slot` (the next
   * one).
   */
  findOrAdd(uuid: string, hash: number, slot: number, slots: readonly Event[]): number {
    const table = this.#table;
    const mask = this.#mask;
    const high = hash & ~mask;
    let p = hash & mask;
    for (let entry = table[p]!; entry !== 0; p = (p + 1) & mask, entry = table[p]!) {
      if ((entry & ~mask) === high) {
        const s = (entry & mask) - 1;
        if (slots[s]!.uuid === uuid) return s;
      }
    }
    if (slot >= this.#hashes.length) {
      const hashes = new Int32Array(this.#hashes.length * 4);
      hashes.set(this.#hashes);
      this.#hashes = hashes;
    }
    this.#hashes[slot] = hash;
    // Keep the load factor at most 1/2 (so `slot + 1` fits in the bucket
    // bits); grow 4× at a time, so the tables left for the GC add up to a
    // third of the final one, not all of it.
    if (2 * ++this.#size > mask + 1) this.#rehash(4 * (mask + 1));
    else table[p] = high | (slot + 1);
    return -1;
  }

  #rehash(capacity: number): void {
    const table = new Int32Array(capacity);
    const mask = capacity - 1;
    const hashes = this.#hashes;
    for (let s = 0; s < this.#size; s++) {
      const hash = hashes[s]!;
      let p = hash & mask;
      while (table[p] !== 0) p = (p + 1) & mask;
      table[p] = (hash & ~mask) | (s + 1);
    }
    this.#table = table;
    this.#mask = mask;
  }
}

/** A uuid's length (0 if it is not a string: malformed input). */
function lengthOf(uuid: unknown): number {
  return typeof uuid === 'string' ? uuid.length : 0;
}

/** Events processed per chunk: their objects and uuids stay in cache between the passes. */
const QUEUE = 512;

class BuilderState {
  /**
   * Latest version per uuid, in first-arrival order (the batch input), in
   * `[0, size)`. Grown 4× at a time by hand: `push` to 1M allocated ~30 MB of
   * copies, and every large allocation brings the next full GC (of all the
   * live events) closer. Copies add up to a third of the final length (at
   * the price of up to 4× the room needed right after growing); doubling
   * copied as much as the final length, and measured 2–8 % slower at 1M.
   */
  #slots: Event[] = new Array<Event>(1024);
  size = 0;
  readonly #slotOf = new UuidIndex();
  #placement = this.#newPlacement(1024);
  #needsRebuild = false;

  #newPlacement(capacity: number): Placement {
    const placement = new Placement(capacity, capacity >> 3, 4);
    placement.setEvents(this.#slots);
    return placement;
  }

  /**
   * Events appended and not processed yet. `append` only queues: processing
   * a chunk at a time lets the uuid hashing run as its own tight loop, where
   * the CPU overlaps the cache misses on many events' uuid strings (one
   * event at a time, each miss stalled the rest of the work: the hashing
   * cost more than the whole placement).
   */
  #queue: (Event | undefined)[] = new Array<Event | undefined>(QUEUE);
  #queued = 0;
  readonly #queueHashes = new Int32Array(QUEUE);

  /** Queues `event`; O(1). Work happens in {@link flush}, at most a chunk later. */
  append(event: Event): void {
    this.#queue[this.#queued++] = event;
    if (this.#queued === QUEUE) this.#changed = this.flush() || this.#changed;
  }

  /** Whether a chunk flushed by `append` changed something not reported yet. */
  #changed = false;

  /** Kept so that the reads ahead are not optimized away. */
  // eslint-disable-next-line no-unused-private-class-members -- written only, on purpose
  #touched = 0;

  /** Processes the queue; returns whether anything changed since the last call. */
  flush(): boolean {
    const queue = this.#queue;
    const count = this.#queued;
    let changed = this.#changed;
    this.#changed = false;
    if (count === 0) return changed;
    this.#queued = 0;
    const hashes = this.#queueHashes;
    // Each uuid string, then each table line, is a likely cache miss: read
    // them in loops that do nothing else, where many misses overlap, before
    // the loops that need them (hashing is a long chain of multiplies per
    // uuid, and each lookup waited for its own miss). Measured: the lookups
    // went from ~150 ms to ~40 ms per million appends.
    let touched = 0;
    for (let k = 0; k < count; k++) touched += lengthOf(queue[k]!.uuid);
    for (let k = 0; k < count; k++) hashes[k] = hashKey(queue[k]!.uuid);
    this.#touched = (touched + this.#slotOf.touch(hashes, count)) | 0;
    for (let k = 0; k < count; k++) {
      const event = queue[k]!;
      queue[k] = undefined;
      changed = this.#add(event, hashes[k]!) || changed;
    }
    return changed;
  }

  /** Adds one event whose uuid hashes to `hash`; returns whether anything changed. */
  #add(event: Event, hash: number): boolean {
    const uuid = event.uuid;
    let slots = this.#slots;
    const at = this.#slotOf.findOrAdd(uuid, hash, this.size, slots);
    if (at !== -1) {
      const old = slots[at]!;
      // EventStream.latest(): a stale pending copy never replaces a final one.
      if (old === event || (event.pending === true && old.pending !== true)) return false;
      slots[at] = event;
      if (!sameStructure(old, event)) this.#needsRebuild = true;
      else if (!this.#needsRebuild) this.#placement.replaced(at, event);
      return true;
    }
    const slot = this.size++;
    if (slot === slots.length) {
      const bigger = new Array<Event>(4 * slot);
      for (let k = 0; k < slot; k++) bigger[k] = slots[k]!;
      this.#slots = slots = bigger;
      this.#placement.setEvents(slots);
    }
    slots[slot] = event;
    if (!this.#needsRebuild) this.#placement.place(slot, event);
    return true;
  }

  tree(): EventTree {
    if (this.#needsRebuild) {
      this.#needsRebuild = false;
      const slots = this.#slots;
      const placement = (this.#placement = this.#newPlacement(this.size));
      for (let slot = 0; slot < this.size; slot++) placement.place(slot, slots[slot]!);
    }
    const placement = this.#placement;
    return placement.flatten(this.#slots, finishDiagnostics(placement.pendingDiagnostics()));
  }
}
