// Past 600 lines: the builder, its uuid index and its state are one mechanism (what arrived, where it went, what changed since the last snapshot).
/**
 * The incremental span tree builder: events arrive one at a time, in whatever
 * order a live feed delivers them, and the tree is always the one
 * {@link buildEventTree} would build from the events seen so far.
 *
 * "The events seen so far" is what the views show: one entry per `uuid`, in
 * the order each uuid first arrived, holding its newest version — exactly
 * `EventStream.latest()`, including its rule that a `pending` copy arriving
 * after a final one is ignored (inspect_ai re-sends a pending event under the
 * same uuid until it completes).
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
 * - Until some uuid arrives twice, no uuid is looked up: each event takes the
 *   next slot and is placed, and its uuid's hash is recorded. Before a
 *   snapshot, `size` or a notification, the uuids placed since the last check
 *   go into the uuid index together (in table order, when they are most of
 *   it). The first repeat found there makes the builder deduplicate all it
 *   holds, in arrival order, once (O(n)), and from then on look each uuid up
 *   as it arrives. A log read from a file never repeats a uuid, and a live
 *   feed re-sends its first pending event early. Measured at 1M events, with
 *   the sampled hashes below: the incremental build ~15 % faster than looking
 *   every uuid up as it arrives and hashing it whole (paired runs).
 *
 * Cost: `append` is O(1) amortized (a span_begin also walks its ancestor
 * chain once, O(depth), to detect a cycle). It queues; the queue is processed
 * a chunk at a time (every 512 appends, and before a snapshot, `size` or a
 * notification), so listeners hear only of appends that changed the tree.
 * Checking k unchecked uuids costs O(k), or O(n) when they are at least half
 * of all n (so at most once per doubling). `getSnapshot()` flattens in O(n)
 * after a change and returns the same tree until the next one.
 */
import type { Event, SpanBeginEvent, SpanEndEvent, StepEvent } from '../events/types.js';
import type { EventTree } from './event-tree.js';
import { Listeners } from '../stream/listeners.js';
import { Placement, hashKey, keyOf } from './links.js';

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
 * An incremental span tree: a small external store (`subscribe`/`getSnapshot`).
 *
 * @example
 * const builder = createEventTreeBuilder();
 * import { useSyncExternalStore } from 'react';
 * declare function newEvents(): Event[]; // the events appended since the last call
 * const stop = stream.subscribe(() => {
 *   for (const e of newEvents()) builder.append(e);
 * });
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
 * for (const e of stream.latest()) builder.append(e);
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
    // What the flush processed is news for the next snapshot too.
    if (this.#state.flush()) this.#snapshot = null;
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

/** Events processed per chunk: their objects and uuids stay in cache between the passes. */
const QUEUE = 512;

/** log2 of the table entries {@link UuidIndex}'s bulk build fills at a time (4 kB). */
const REGION_BITS = 10;

/**
 * A uuid's hash from its length and eight of its characters, the first two
 * and the last six, where {@link hashKey} reads all of them: hashing was the
 * largest cost of the builder's own after the batch placement (a uuid is
 * 22–36 characters, and `charCodeAt` costs ~1.5 ns each). Random ids
 * (inspect's shortuuids, UUIDs, OpenTelemetry ids) differ in any eight
 * characters, and counters usually end an id; ids that differ only
 * elsewhere make {@link UuidIndex} go back to whole hashes. Ids shorter than
 * 16 characters are hashed whole.
 */
export function sampledKey(key: unknown): number {
  if (typeof key !== 'string') return 0;
  const n = key.length;
  if (n < 16) return hashKey(key);
  let h = Math.imul(0x811c9dc5 ^ n ^ (key.charCodeAt(0) | (key.charCodeAt(1) << 16)), 0x01000193);
  h = Math.imul(h ^ (key.charCodeAt(n - 6) | (key.charCodeAt(n - 5) << 16)), 0x01000193);
  h = Math.imul(h ^ (key.charCodeAt(n - 4) | (key.charCodeAt(n - 3) << 16)), 0x01000193);
  h = Math.imul(h ^ (key.charCodeAt(n - 2) | (key.charCodeAt(n - 1) << 16)), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  return h ^ (h >>> 13);
}

/**
 * uuid → slot, as open addressing in one `Int32Array`: an entry is 0 (empty)
 * or `slot + 1` in the bucket bits (the low bits, `mask`) and the hash's
 * other bits above them, which the bucket position does not already say. As
 * slots stay below half the capacity, `slot + 1` always fits in the bucket
 * bits; the hash bits above act as a tag (11 bits at 1M uuids), so a probe
 * reads a slot's uuid only when they match (about one probe in 2,000 besides
 * real matches).
 *
 * Two ways in:
 * - {@link findOrAdd}, one uuid at a time. A lookup reads one table line, a
 *   likely cache miss at 1M uuids (8 MB), so a chunk's lines are read ahead
 *   ({@link touch}) before its lookups.
 * - {@link addRange}, for slots whose hashes were recorded without a lookup
 *   (see `BuilderState`): when they are most of the index, it fills a new
 *   table in table order, one 4 kB region at a time, where adding them one
 *   by one read and wrote a random line each.
 *
 * Hashes are {@link sampledKey}s until probing shows that the samples
 * collide: more than 8 probe steps per insert on average, past a first 4,096
 * (a good hash averages below 2.5 at a load factor of 1/2). The index then
 * hashes every uuid whole, once, and for good; the cost of the clustering
 * before that is bounded by the work done so far.
 *
 * Earlier versions: (slot, hash) pairs in one 16 MB table (one miss per
 * append, ~40 % of the builder's time); then 1-byte tags beside an array of
 * slots (two lines per append, both needed: the read-ahead of either alone
 * was slower). A `Map` with 1M uuid keys cost more than the whole rest of the
 * build (its rehashes read every key string again, and its tables are
 * GC-scanned).
 */
export class UuidIndex {
  constructor(whole = false) {
    this.#whole = whole;
  }

  #table = new Int32Array(2048);
  #mask = 2047;
  /** Per slot: its uuid's hash, for growing without re-reading uuids. */
  #hashes = new Int32Array(1024);
  #size = 0;
  /** Whether uuids are hashed whole ({@link hashKey}) rather than sampled. */
  #whole = false;
  /** Probe steps and inserts counted while hashes are sampled. */
  #steps = 0;
  #inserts = 0;
  /** Kept so that the reads ahead are not optimized away. */
  // eslint-disable-next-line no-unused-private-class-members -- written only, on purpose
  #touched = 0;

  /** Whether uuids are hashed whole: sampled hashes clustered. */
  get whole(): boolean {
    return this.#whole;
  }

  /** Number of uuids registered. */
  get size(): number {
    return this.#size;
  }

  /** `uuid`'s hash, the way this index hashes now. */
  hash(uuid: unknown): number {
    return this.#whole ? hashKey(uuid) : sampledKey(uuid);
  }

  /**
   * Writes the hashes of `events[0, count)`'s uuids into `out`, the way this
   * index hashes now.
   */
  hashAll(events: readonly (Event | undefined)[], count: number, out: Int32Array): void {
    if (this.#whole) for (let k = 0; k < count; k++) out[k] = hashKey(events[k]!.uuid);
    else for (let k = 0; k < count; k++) out[k] = sampledKey(events[k]!.uuid);
  }

  /**
   * Reads the table lines that looking up `hashes[0, count)` will touch
   * first, in a loop of its own: each is a likely cache miss, and independent
   * reads overlap, where the lookups, one after another, waited for each.
   */
  touch(hashes: Int32Array, count: number): void {
    const table = this.#table;
    const mask = this.#mask;
    let sum = 0;
    for (let k = 0; k < count; k++) sum = (sum + table[hashes[k]! & mask]!) | 0;
    this.#touched = sum;
  }

  /**
   * The slot holding `uuid` (whose hash is `hash`), or -1 after registering
   * it as `slot` (the next one). When the hashes just turned out to cluster,
   * every uuid is hashed whole again before it returns, so the caller must
   * hash the uuids it still holds again ({@link whole} changed).
   */
  findOrAdd(uuid: string, hash: number, slot: number, slots: readonly Event[]): number {
    const table = this.#table;
    const mask = this.#mask;
    const high = hash & ~mask;
    let p = hash & mask;
    let steps = 0;
    for (let entry = table[p]!; entry !== 0; p = (p + 1) & mask, entry = table[p]!) {
      steps++;
      if ((entry & ~mask) === high) {
        const s = (entry & mask) - 1;
        if (slots[s]!.uuid === uuid) return s;
      }
    }
    this.setHash(slot, hash);
    // Keep the load factor at most 1/2 (so `slot + 1` fits in the bucket
    // bits); grow 4× at a time, so the tables left for the GC add up to a
    // third of the final one, not all of it.
    if (2 * ++this.#size > mask + 1) this.#rehash(4 * (mask + 1));
    else table[p] = high | (slot + 1);
    if (this.#clustered(steps)) this.#hashWhole(slot, slots, uuid);
    return -1;
  }

  /** Records `hash` as the hash of `slot`'s uuid. */
  setHash(slot: number, hash: number): void {
    if (slot >= this.#hashes.length) {
      const hashes = new Int32Array(this.#hashes.length * 4);
      hashes.set(this.#hashes);
      this.#hashes = hashes;
    }
    this.#hashes[slot] = hash;
  }

  /** The hash recorded for `slot`. */
  hashOf(slot: number): number {
    return this.#hashes[slot]!;
  }

  /**
   * Registers slots `[from, to)` (`from` is {@link size}), whose hashes are
   * recorded; returns whether one of their uuids is already registered or
   * repeats among them, after which the index is left half-built.
   */
  addRange(from: number, to: number, slots: readonly Event[]): boolean {
    if (2 * (to - from) >= to) return this.#build(to, slots);
    for (let chunk = from; chunk < to; chunk += QUEUE) {
      const end = Math.min(to, chunk + QUEUE);
      this.touch(this.#hashes.subarray(chunk, end), end - chunk);
      for (let s = chunk; s < end; s++) {
        const whole = this.#whole;
        if (this.findOrAdd(slots[s]!.uuid, this.#hashes[s]!, s, slots) !== -1) return true;
        // Gone over to whole hashes: the rest of the range was hashed from samples.
        if (this.#whole !== whole) {
          for (let k = s + 1; k < to; k++) this.#hashes[k] = hashKey(slots[k]!.uuid);
        }
      }
    }
    return false;
  }

  /**
   * {@link addRange} for slots `[0, count)` at once: the slots are sorted by
   * the 4 kB table region their hash starts in (by counting), then added
   * region by region, so the table's writes stay in cache.
   */
  #build(count: number, slots: readonly Event[]): boolean {
    let capacity = this.#table.length;
    while (2 * count > capacity) capacity *= 2;
    const table = new Int32Array(capacity);
    const mask = capacity - 1;
    const hashes = this.#hashes;
    const regions = capacity >>> REGION_BITS;
    const starts = new Int32Array(regions + 1);
    for (let s = 0; s < count; s++) {
      const r = ((hashes[s]! & mask) >>> REGION_BITS) + 1;
      starts[r] = starts[r]! + 1;
    }
    for (let r = 0; r < regions; r++) starts[r + 1] = starts[r + 1]! + starts[r]!;
    const bySlot = new Int32Array(count);
    const byHash = new Int32Array(count);
    for (let s = 0; s < count; s++) {
      const hash = hashes[s]!;
      const r = (hash & mask) >>> REGION_BITS;
      const at = starts[r]!;
      starts[r] = at + 1;
      bySlot[at] = s;
      byHash[at] = hash;
    }
    this.#table = table;
    this.#mask = mask;
    this.#size = count;
    for (let k = 0; k < count; k++) {
      const hash = byHash[k]!;
      const s = bySlot[k]!;
      const high = hash & ~mask;
      let p = hash & mask;
      let steps = 0;
      for (let entry = table[p]!; entry !== 0; p = (p + 1) & mask, entry = table[p]!) {
        steps++;
        if ((entry & ~mask) === high && slots[(entry & mask) - 1]!.uuid === slots[s]!.uuid) {
          return true;
        }
      }
      table[p] = high | (s + 1);
      if (this.#clustered(steps)) {
        this.#hashWhole(count, slots);
        return this.#build(count, slots);
      }
    }
    return false;
  }

  /** Counts an insert that probed `steps` entries; whether sampled hashes must go. */
  #clustered(steps: number): boolean {
    if (this.#whole) return false;
    this.#steps += steps;
    this.#inserts++;
    return this.#steps > 8 * this.#inserts + 4096;
  }

  /**
   * Hashes uuids whole from now on: those of slots `[0, count)` again (and
   * `next`'s, as slot `count`, when given: a slot being registered, not in
   * `slots` yet), and refills the table with the registered ones (slots
   * `[0, size)`, all distinct).
   */
  #hashWhole(count: number, slots: readonly Event[], next?: string): void {
    this.#whole = true;
    const hashes = this.#hashes;
    for (let s = 0; s < count; s++) hashes[s] = hashKey(slots[s]!.uuid);
    if (next !== undefined) hashes[count] = hashKey(next);
    this.#rehash(this.#table.length);
  }

  #rehash(capacity: number): void {
    const table = new Int32Array(capacity);
    const mask = capacity - 1;
    const hashes = this.#hashes;
    const n = this.#size;
    const regions = capacity >>> REGION_BITS;
    if (regions < 2 || n < 4096) {
      for (let s = 0; s < n; s++) {
        const hash = hashes[s]!;
        let p = hash & mask;
        while (table[p] !== 0) p = (p + 1) & mask;
        table[p] = (hash & ~mask) | (s + 1);
      }
    } else {
      // As `#build`: the slots in the order of the table region their hash
      // starts in (a counting sort), so the writes stay in cache. At 300k
      // uuids, in the table's order of slots, each write was a cache miss
      // (a 108 ms task of the viewer's load on a loaded machine).
      const starts = new Int32Array(regions + 1);
      for (let s = 0; s < n; s++) {
        const r = ((hashes[s]! & mask) >>> REGION_BITS) + 1;
        starts[r] = starts[r]! + 1;
      }
      for (let r = 0; r < regions; r++) starts[r + 1] = starts[r + 1]! + starts[r]!;
      const order = new Int32Array(n);
      for (let s = 0; s < n; s++) {
        const r = (hashes[s]! & mask) >>> REGION_BITS;
        const at = starts[r]!;
        starts[r] = at + 1;
        order[at] = s;
      }
      for (let k = 0; k < n; k++) {
        const s = order[k]!;
        const hash = hashes[s]!;
        let p = hash & mask;
        while (table[p] !== 0) p = (p + 1) & mask;
        table[p] = (hash & ~mask) | (s + 1);
      }
    }
    this.#table = table;
    this.#mask = mask;
  }
}

/**
 * Reads a uuid's length and last character (0 if it is not a string:
 * malformed input), so that both ends of the string are in cache: one of 22
 * characters often spans two cache lines, and {@link sampledKey} reads both
 * ends (reading only the length: 2 % slower in paired runs).
 */
function touchEnds(uuid: unknown): number {
  return typeof uuid === 'string' && uuid.length !== 0 ? uuid.charCodeAt(uuid.length - 1) : 0;
}

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
  #slotOf = new UuidIndex();
  /**
   * Until the first uuid seen twice, events are placed without looking their
   * uuids up, and `[verified, size)` have not been checked yet (see
   * {@link flush}). After it, every append looks its uuid up first.
   */
  #online = false;
  #verified = 0;
  #placement = this.#newPlacement(1024);
  #needsRebuild = false;

  #newPlacement(capacity: number): Placement {
    const placement = new Placement(capacity, capacity >> 3, 4);
    placement.resumable = true;
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
    if (this.#queued === QUEUE) this.#changed = this.#process() || this.#changed;
  }

  /** Whether a chunk flushed by `append` changed something not reported yet. */
  #changed = false;

  /** Kept so that the reads ahead are not optimized away. */
  // eslint-disable-next-line no-unused-private-class-members -- written only, on purpose
  #touched = 0;

  /**
   * Processes the queue and checks the uuids placed unchecked; returns
   * whether anything changed since the last call.
   */
  flush(): boolean {
    const changed = this.#process();
    if (this.#online || this.#verified === this.size) return changed;
    if (!this.#slotOf.addRange(this.#verified, this.size, this.#slots)) {
      this.#verified = this.size;
      return changed;
    }
    return this.#dedupe();
  }

  /**
   * Goes online after a uuid came twice: adds every event placed so far
   * again, in arrival order, deduplicating them; the next snapshot places
   * them again. Returns whether the result differs from the last checked
   * state (it does not when every unchecked event was ignored: the same
   * object again, or a stale pending copy).
   */
  #dedupe(): boolean {
    const placed = this.#slots;
    const count = this.size;
    const verified = this.#verified;
    const index = this.#slotOf;
    this.#online = true;
    this.#needsRebuild = true;
    this.#slots = new Array<Event>(placed.length);
    const again = (this.#slotOf = new UuidIndex(index.whole));
    this.size = 0;
    let changed = false;
    for (let slot = 0; slot < count; slot++) {
      const event = placed[slot]!;
      const hash = again.whole === index.whole ? index.hashOf(slot) : again.hash(event.uuid);
      // The verified prefix is distinct: each of its events takes a new slot.
      changed = (this.#add(event, hash) && slot >= verified) || changed;
    }
    return changed;
  }

  /** Processes the queue; returns whether anything changed since the last {@link flush}. */
  #process(): boolean {
    const queue = this.#queue;
    const count = this.#queued;
    let changed = this.#changed;
    this.#changed = false;
    if (count === 0) return changed;
    this.#queued = 0;
    const hashes = this.#queueHashes;
    const index = this.#slotOf;
    // Each uuid string, then each table line, is a likely cache miss: read
    // them in loops that do nothing else, where many misses overlap, before
    // the loops that need them (hashing is a long chain of multiplies per
    // uuid, and each lookup waited for its own miss). Measured: the lookups
    // went from ~150 ms to ~40 ms per million appends.
    let touched = 0;
    for (let k = 0; k < count; k++) touched += touchEnds(queue[k]!.uuid);
    this.#touched = touched;
    index.hashAll(queue, count, hashes);
    if (!this.#online) {
      for (let k = 0; k < count; k++) {
        const event = queue[k]!;
        queue[k] = undefined;
        this.#place(event, hashes[k]!);
      }
      return true;
    }
    index.touch(hashes, count);
    const whole = index.whole;
    for (let k = 0; k < count; k++) {
      const event = queue[k]!;
      queue[k] = undefined;
      // The index may have gone over to whole hashes on the way.
      const hash = index.whole === whole ? hashes[k]! : index.hash(event.uuid);
      changed = this.#add(event, hash) || changed;
    }
    return changed;
  }

  /** Adds one event whose uuid hashes to `hash`; returns whether anything changed. */
  #add(event: Event, hash: number): boolean {
    const uuid = event.uuid;
    const slots = this.#slots;
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
    this.#place(event, hash);
    return true;
  }

  /** Gives `event` the next slot, and places it unless a rebuild is due. */
  #place(event: Event, hash: number): void {
    let slots = this.#slots;
    const slot = this.size++;
    if (slot === slots.length) {
      const bigger = new Array<Event>(4 * slot);
      for (let k = 0; k < slot; k++) bigger[k] = slots[k]!;
      this.#slots = slots = bigger;
      this.#placement.setEvents(slots);
    }
    slots[slot] = event;
    if (!this.#online) this.#slotOf.setHash(slot, hash);
    if (!this.#needsRebuild) this.#placement.place(slot, event);
  }

  tree(): EventTree {
    if (this.#needsRebuild) {
      this.#needsRebuild = false;
      const slots = this.#slots;
      const placement = (this.#placement = this.#newPlacement(this.size));
      for (let slot = 0; slot < this.size; slot++) placement.place(slot, slots[slot]!);
    }
    const placement = this.#placement;
    return placement.flatten(this.#slots, placement.pendingDiagnostics());
  }
}
