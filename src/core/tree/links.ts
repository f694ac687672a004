// Past 600 lines: one class, Placement, whose private columns both the forward pass and the flatten read on the 1M-event hot path.
/**
 * Internal machinery shared by the batch builder (`event-tree.ts`) and the
 * incremental builder (`incremental.ts`): {@link Placement}, which decides
 * where each event goes in one forward pass, and the one pass that turns its
 * child lists into the flat, pre-order {@link EventTree}.
 *
 * Not exported from the package. A pre-pass over every `span_begin` with its
 * indexes in `Map`s costs ~7× one pass over the events at 1M events (the
 * budget is ≤ 3×), almost all of it cache misses on span-id hash lookups and
 * full GCs triggered by large allocations. So both builders share the incremental builder's single
 * forward pass (an event whose span has not begun yet waits at the root and
 * moves in when it does — the same tree, test/core/tree-reference.test.ts
 * checks it against a reference builder), with:
 * - one `Map` lookup per span event and per change of `span_id` between
 *   consecutive events, never one per event;
 * - per-slot state cut to two `Int32Array`s (`kind`, `next`) and per-span
 *   state in arrays sized by the number of spans, all storing `slot + 1` so
 *   that a fresh (zeroed) array means "none" and nothing is `fill`ed;
 * - the root list as an array, so only root items that moved need marking.
 */
import type { Event, SpanBeginEvent, SpanEndEvent, StepEvent } from '../events/types.js';
import type { EventTree, EventTreeChange, EventTreeSpan } from './event-tree.js';
import { cachedKindCode, treeKindCodes } from './kinds.js';
import { recordLineage } from './lineage.js';
import { finishDiagnostics, type PendingDiagnostic } from './pending-diagnostics.js';
import { hashKey, keyOf } from './span-keys.js';

export { OTHER_KIND, kindCode, treeKinds } from './kinds.js';
export { changedSince, previousEventTree } from './lineage.js';
export { finishDiagnostics } from './pending-diagnostics.js';
export type { PendingDiagnostic } from './pending-diagnostics.js';
export { hashKey, keyOf } from './span-keys.js';

/** `kind[slot]` of a slot that is not a node (a span_end or step end that became an end, a dropped span_end). */
const NOT_NODE = 0;
/**
 * `kind[slot]` of a leaf. A container (span or step node) `c` has `kind = c + 2`;
 * a later `span_begin` of container `c`'s id (a copy of its node, see
 * `event-tree.ts`) has `kind = -(c + 1)`.
 */
const LEAF = 1;

/**
 * Separates a node's own key from the path of begins that lead to a copy
 * (`"a␟1.2"`): U+241F (SYMBOL FOR UNIT SEPARATOR) is not in inspect's ids
 * (22 alphanumerics) nor in any importer's, so a copy's key cannot be a real
 * id or uuid.
 */
export const COPY_KEY_SEPARATOR = '\u241f';

/** A span's place in `spans` until its object is made (never published). */
const NO_SPAN = null as unknown as EventTreeSpan;

/** `containerOrigin[c]`. */
const SPAN = 0;
const STEP = 1;

/** Entries of the recent-span cache (a power of two). */
const RECENT = 64;

/**
 * A recent-span cache entry for `key` (non-empty): two characters and the
 * length, which tell inspect's random 22-character ids apart and also
 * sequential ids (`span-1`, `span-2`). Keys that collide only share an entry.
 */
function recentSlot(key: string): number {
  return (key.charCodeAt(0) * 31 + key.charCodeAt(key.length - 1) * 7 + key.length) & (RECENT - 1);
}

function grow(a: Int32Array, capacity: number): Int32Array {
  const b = new Int32Array(capacity);
  b.set(a);
  return b;
}

/**
 * Where every slot (input position) goes, decided in one forward pass with the
 * placement rules of `event-tree.ts` (module comment there), in whatever order
 * slots arrive as long as each arrives once: `place(slot, event)` in
 * increasing slot order. O(1) amortized per slot (a `span_begin` that closes a
 * parent cycle walks its ancestor chain once).
 *
 * Containers (span and step nodes) are numbered in order of arrival; their
 * child lists are singly linked through `next` (slot + 1, 0 = end).
 */
export class Placement {
  /** Per slot: {@link NOT_NODE}, {@link LEAF}, or container + 2. */
  kind: Int32Array;
  /** Per slot: the event's kind code ({@link kindCode}). */
  kindCodes: Uint8Array;
  /** Per slot: the next sibling's slot + 1 (0 = last). Unused for root items. */
  next: Int32Array;

  /** Per container: its node's slot. */
  containerSlot: Int32Array;
  containerOrigin: Uint8Array;
  /** Per container: first / last child slot + 1. */
  firstChild: Int32Array;
  lastChild: Int32Array;
  /** Per container: the slot + 1 of the span_end / step end that closed it. */
  endSlot: Int32Array;
  /** Per span container: its parent span container + 1 (0: a root, waiting, or cut). */
  spanParent: Int32Array;
  /** Per span container: 1 when a parent cycle was cut there. */
  cut: Uint8Array;
  containerCount = 0;

  /** Top-level slots in order; those in `moved` have since moved into a span. */
  roots: Int32Array;
  rootLength = 0;
  readonly moved = new Set<number>();

  /**
   * Span id → container of its node (the first begin), as open addressing
   * with one byte per bucket: a 7-bit tag from the hash's high bits (0 =
   * empty) in `#spanTags`, the container in `#spanBuckets`. A probe scans tags
   * only (200k spans: 512 kB, in cache) and reads a container and its key
   * only when a tag matches. A `Map` here was half the build: with fresh (not
   * interned) string keys, V8 reads the hash of every colliding key string
   * and re-reads all of them when the table grows, each a cache miss on a
   * string far away in the heap; a table of (container, hash) pairs still
   * cost one miss per lookup.
   */
  #spanTags = new Uint8Array(64);
  #spanBuckets = new Int32Array(64);
  #spanMask = 63;
  #spanCount = 0;
  /**
   * The spans looked up last, direct-mapped by a cheap key of two characters
   * and the length ({@link recentSlot}): an event's span, a begin's parent
   * and an end's span were nearly always named a few events before (parallel
   * agents interleave, so one "last key" missed half the time). A hit costs a
   * string comparison instead of hashing the id and probing the table.
   * Known spans never change container, so entries never go stale (steps,
   * which nest by order, are checked before it).
   */
  readonly #recentKey: (string | undefined)[] = new Array<string | undefined>(RECENT).fill(
    undefined,
  );
  readonly #recentContainer = new Int32Array(RECENT);
  /**
   * Per container: its span id (steps: the begin's uuid) and that id's hash
   * (steps: unused). The arrays of strings start at the expected span count
   * and grow by a store at their length (containers are numbered in order).
   */
  readonly #spanKey: string[];
  #spanHash: Int32Array;
  /**
   * Per container: the begin's `name`, `type` and parent key, read while the
   * begin is in cache, so that making the span objects touches no event.
   */
  readonly #names: unknown[];
  readonly #types: unknown[];
  readonly #parents: (string | null)[];
  /** Growth factor of the typed arrays (the incremental builder uses 4: less garbage to collect). */
  readonly #growth: number;
  /** Span id → root-level slots that belong in it once it begins. */
  readonly waiting = new Map<string, number[]>();
  /** Span id → span_end slots that arrived before the begin. */
  readonly waitingEnds = new Map<string, number[]>();
  /**
   * Parent span id → span containers placed inside a step (not waiting at the
   * root) whose parent span has not begun: their `spanParent` is set when it
   * does, so a cycle closed later through them is still found.
   */
  readonly #orphanSpans = new Map<string, number[]>();
  /** Open legacy steps (containers), per span id; `null` is the root. */
  readonly rootSteps: number[] = [];
  readonly stepStacks = new Map<string, number[]>();
  /** Whether any step began: the step rules are skipped until one does. */
  hasSteps = false;

  // --- resuming the flatten -----------------------------------------
  // A live tree is flattened again after every batch. Everything before the
  // first pre-order position a batch can have changed is copied from the
  // last flatten (typed-array copies), and the walk resumes there: a batch
  // that lands at the end of the tree (a live run grows its newest spans)
  // costs O(batch + depth) of walking instead of O(n).
  /**
   * Set by the incremental builder: flattens keep what resuming needs (the
   * batch build flattens once and does not pay for it).
   */
  resumable = false;
  /** The last flatten's tree and kind codes (resumable only). */
  #last: { tree: EventTree; kinds: Uint8Array } | null = null;
  /** Containers and slots that existed at the last flatten. */
  #flatContainers = 0;
  #flatSlots = 0;
  /** Slots placed so far (`place` is called in increasing slot order). */
  #slotsPlaced = 0;
  /** The first pre-order position of the last flatten that may have changed since. */
  #dirty = Number.POSITIVE_INFINITY;
  /** Containers of the last flatten whose end or begin changed since (their span objects). */
  #touched: number[] = [];
  /** Slots of the last flatten replaced by a new version since (same structure). */
  #replacedSlots: number[] = [];
  /** Per node of the last flatten: its slot, 1-based position among its siblings, spans before it, and (roots) the root cursor after it. */
  #slotOfNode: Int32Array = new Int32Array(0);
  #ordinal: Int32Array = new Int32Array(0);
  #spansBefore: Int32Array = new Int32Array(0);
  #rootPosAfter: Int32Array = new Int32Array(0);
  /** The last flatten's spans, not frozen: the next one goes on from its prefix. */
  #spansWork: EventTreeSpan[] = [];
  /** Per slot: its node index in the last flatten. */
  #nodeOfSlot: Int32Array = new Int32Array(0);

  /** Container `c` of the last flatten gets a child at its end: its old subtree end. */
  #dirtyChild(c: number): void {
    if (this.#last === null || c >= this.#flatContainers) return;
    const at = this.#last.tree.subtreeEnd[this.#nodeOfSlot[this.containerSlot[c]!]!]!;
    if (at < this.#dirty) this.#dirty = at;
  }

  /** Container `c`'s span object may change (its end was set, or its begin replaced). */
  #touch(c: number): void {
    if (this.#last !== null && c < this.#flatContainers) this.#touched.push(c);
  }

  /** Per container: the span object of the last flatten. */
  readonly #spanObjects: (EventTreeSpan | undefined)[] = [];

  /** Diagnostics that no later event can take back. */
  readonly diagnostics: PendingDiagnostic[] = [];

  // --- span ids begun more than once (inspect's copies; event-tree.ts) --------
  /** Per container begun again: its later begins' slots, in order. */
  readonly #copySlots = new Map<number, number[]>();
  /** Per later begin's slot: its ordinal among its id's begins (2, 3, …). */
  readonly #copyOrdinal = new Map<number, number>();
  nodeCount = 0;

  /**
   * A small placement kept for the life of the module (made by the first
   * one), so that the hidden classes of placements outlive any one build.
   * V8 holds the maps that adding fields creates only weakly: when the last
   * instance is collected, they go, every function compiled against them is
   * deoptimized (`--trace-deopt`: "weak objects"), and the next build makes
   * new ones. After a few such rounds the field accesses of the hot loops
   * turned polymorphic, then megamorphic: in one process, 1M builds each
   * followed by a full GC went from ~300 ms to 400–750 ms from the sixth on,
   * and stayed there. A module-level constant does not do: once bundled, a
   * top-level variable that nothing reads is dead after the module has run.
   */
  static #kept: Placement | null | undefined;

  /** `slots`: expected slot count (grows past it); `containers`: expected span count. */
  constructor(slots: number, containers = slots >> 3, growth = 2) {
    this.#growth = growth;
    const n = Math.max(16, slots);
    const c = Math.max(16, containers);
    this.kind = new Int32Array(n);
    this.kindCodes = new Uint8Array(n);
    this.next = new Int32Array(n);
    this.containerSlot = new Int32Array(c);
    this.containerOrigin = new Uint8Array(c);
    this.firstChild = new Int32Array(c);
    this.lastChild = new Int32Array(c);
    this.endSlot = new Int32Array(c);
    this.spanParent = new Int32Array(c);
    this.cut = new Uint8Array(c);
    this.#spanHash = new Int32Array(c);
    this.#spanKey = new Array<string>(c);
    this.#names = new Array<unknown>(c);
    this.#types = new Array<unknown>(c);
    this.#parents = new Array<string | null>(c);
    this.roots = new Int32Array(16);
    if (Placement.#kept === undefined) {
      Placement.#kept = null;
      Placement.#kept = new Placement(0, 0, growth);
    }
  }

  /** The container of span `key` (hash `hash`), or -1. */
  #span(key: string, hash: number): number {
    const tags = this.#spanTags;
    const mask = this.#spanMask;
    const tag = 0x80 | (hash >>> 25);
    let p = hash & mask;
    for (let t = tags[p]!; t !== 0; p = (p + 1) & mask, t = tags[p]!) {
      if (t === tag) {
        const c = this.#spanBuckets[p]!;
        if (this.#spanHash[c] === hash && this.#spanKey[c] === key) return c;
      }
    }
    this.#spanFree = p;
    return -1;
  }

  /**
   * The empty bucket where the last {@link #span} lookup that found nothing
   * stopped: where that key goes if it is added before the table changes.
   */
  #spanFree = 0;

  /** The container of span `key`, or -1: the recent-span cache, then the table. */
  #lookup(key: string): number {
    const r = recentSlot(key);
    if (this.#recentKey[r] === key) return this.#recentContainer[r]!;
    const c = this.#span(key, hashKey(key));
    if (c !== -1) {
      this.#recentKey[r] = key;
      this.#recentContainer[r] = c;
    }
    return c;
  }

  /**
   * Registers container `c` as span `key`, right after a {@link #span}
   * lookup of `key` found nothing (its bucket is {@link #spanFree}).
   */
  #addSpan(key: string, hash: number, c: number): void {
    this.#spanKey[c] = key;
    this.#spanHash[c] = hash;
    if (typeof key === 'string' && key !== '') {
      const r = recentSlot(key);
      this.#recentKey[r] = key;
      this.#recentContainer[r] = c;
    }
    // Load factor at most 1/2. Doubling, not 4×: the tags are what every
    // probe reads, and at 200k spans they take 512 kB instead of 1 MB, which
    // a core's L2 cache can hold (four paired runs at 1M events: build about
    // 3 %, incremental about 5 % faster; a rehash reads no key strings, so
    // the extra one costs little).
    if (2 * ++this.#spanCount > this.#spanMask + 1) {
      const capacity = 2 * (this.#spanMask + 1);
      this.#spanTags = new Uint8Array(capacity);
      this.#spanBuckets = new Int32Array(capacity);
      this.#spanMask = capacity - 1;
      // Every container up to `c` that is a span is in the table.
      for (let k = 0; k <= c; k++) {
        if (this.containerOrigin[k] === SPAN) this.#insertSpan(k, this.#spanHash[k]!);
      }
    } else {
      this.#spanTags[this.#spanFree] = 0x80 | (hash >>> 25);
      this.#spanBuckets[this.#spanFree] = c;
    }
  }

  #insertSpan(c: number, hash: number): void {
    const tags = this.#spanTags;
    const mask = this.#spanMask;
    let p = hash & mask;
    while (tags[p] !== 0) p = (p + 1) & mask;
    tags[p] = 0x80 | (hash >>> 25);
    this.#spanBuckets[p] = c;
  }

  /** Places `event` at `slot` (the next slot, in increasing order). */
  place(slot: number, event: Event): void {
    if (slot >= this.kind.length) this.#growSlots(slot);
    this.#slotsPlaced = slot + 1;
    const kind = event.event;
    this.kindCodes[slot] = cachedKindCode(kind);
    if (kind === 'span_begin') {
      this.#placeBegin(slot, event as SpanBeginEvent);
    } else if (kind === 'span_end') {
      this.#placeEnd(slot, (event as SpanEndEvent).id);
    } else if (kind === 'step') {
      this.#placeStep(slot, event as StepEvent);
    } else {
      this.kind[slot] = LEAF;
      this.nodeCount++;
      const key = keyOf(event.span_id);
      if (!this.hasSteps) {
        if (key === null) {
          this.#appendRoot(slot);
          return;
        }
        const c = this.#lookup(key);
        if (c !== -1) {
          this.#appendChild(c, slot);
          return;
        }
      }
      this.#put(slot, key);
    }
  }

  /** Appends the slots to the diagnostics of `span_end`s still waiting for their begin. */
  pendingDiagnostics(): PendingDiagnostic[] {
    const pending = this.diagnostics.slice();
    for (const [id, ends] of this.waitingEnds) {
      for (const slot of ends) pending.push({ slot, code: 'span_end_unknown', args: [id] });
    }
    return pending;
  }

  #growSlots(slot: number): void {
    let c = this.kind.length * this.#growth;
    while (c <= slot) c *= 2;
    this.kind = grow(this.kind, c);
    this.next = grow(this.next, c);
    const codes = new Uint8Array(c);
    codes.set(this.kindCodes);
    this.kindCodes = codes;
  }

  #newContainer(slot: number, origin: number): number {
    const c = this.containerCount++;
    if (c >= this.containerSlot.length) {
      const cap = this.containerSlot.length * this.#growth;
      this.containerSlot = grow(this.containerSlot, cap);
      const origins = new Uint8Array(cap);
      origins.set(this.containerOrigin);
      this.containerOrigin = origins;
      this.firstChild = grow(this.firstChild, cap);
      this.lastChild = grow(this.lastChild, cap);
      this.endSlot = grow(this.endSlot, cap);
      this.spanParent = grow(this.spanParent, cap);
      const cut = new Uint8Array(cap);
      cut.set(this.cut);
      this.cut = cut;
      this.#spanHash = grow(this.#spanHash, cap);
    }
    this.containerSlot[c] = slot;
    this.containerOrigin[c] = origin;
    this.kind[slot] = c + 2;
    return c;
  }

  #appendChild(container: number, slot: number): void {
    if (this.#last !== null) this.#dirtyChild(container);
    const last = this.lastChild[container]!;
    if (last === 0) this.firstChild[container] = slot + 1;
    else this.next[last - 1] = slot + 1;
    this.next[slot] = 0;
    this.lastChild[container] = slot + 1;
  }

  #appendRoot(slot: number): void {
    if (this.#last !== null && this.#last.tree.length < this.#dirty)
      this.#dirty = this.#last.tree.length;
    if (this.rootLength === this.roots.length) this.roots = grow(this.roots, this.roots.length * 2);
    this.roots[this.rootLength++] = slot;
  }

  #stepsOf(key: string | null): number[] | undefined {
    return key === null ? this.rootSteps : this.stepStacks.get(key);
  }

  /**
   * Links `slot` under key `key` (a `span_id`, or a `parent_id` for a
   * span_begin): the innermost open step of that key, else the span, else the
   * root — waiting for the span if the key names one not begun yet. Returns
   * the span container it went into, or -1 (root or step).
   */
  #put(slot: number, key: string | null): number {
    if (this.hasSteps) {
      const stack = this.#stepsOf(key);
      if (stack !== undefined && stack.length > 0) {
        this.#appendChild(stack[stack.length - 1]!, slot);
        return -1;
      }
    }
    if (key === null) {
      this.#appendRoot(slot);
      return -1;
    }
    const container = this.#lookup(key);
    if (container !== -1) {
      this.#appendChild(container, slot);
      return container;
    }
    this.#appendRoot(slot);
    const waiting = this.waiting.get(key);
    if (waiting === undefined) this.waiting.set(key, [slot]);
    else waiting.push(slot);
    return -1;
  }

  #placeEnd(slot: number, id: string): void {
    this.kind[slot] = NOT_NODE;
    const c = typeof id === 'string' && id !== '' ? this.#lookup(id) : this.#span(id, hashKey(id));
    if (c === -1) {
      const ends = this.waitingEnds.get(id);
      if (ends === undefined) this.waitingEnds.set(id, [slot]);
      else ends.push(slot);
    } else {
      // inspect overwrites `end`: the last end wins (event-tree.ts).
      if (this.endSlot[c] !== 0) {
        this.diagnostics.push({ slot, code: 'span_end_duplicate', args: [id] });
      }
      this.endSlot[c] = slot + 1;
      this.#touch(c);
    }
  }

  #placeStep(slot: number, step: StepEvent): void {
    const key = keyOf(step.span_id);
    if (step.action === 'end') {
      const stack = this.#stepsOf(key);
      const at = stack === undefined ? -1 : this.#findOpenStep(stack, step);
      if (at === -1) {
        this.kind[slot] = LEAF;
        this.nodeCount++;
        this.diagnostics.push({ slot, code: 'step_end_unmatched', args: [step.name] });
        this.#put(slot, key);
      } else {
        this.kind[slot] = NOT_NODE;
        this.#closeSteps(stack!, at, slot, step);
      }
      return;
    }
    this.hasSteps = true;
    this.nodeCount++;
    const c = this.#newContainer(slot, STEP);
    // Steps have no id of their own; the begin event's uuid is stable and unique.
    this.#spanKey[c] = step.uuid;
    this.#describe(c, step, null);
    this.#put(slot, key);
    let stack = this.#stepsOf(key);
    if (stack === undefined) this.stepStacks.set(key!, (stack = []));
    stack.push(c);
  }

  /** Index in `stack` of the innermost open step named like `end`, or -1. */
  #findOpenStep(stack: readonly number[], end: StepEvent): number {
    for (let k = stack.length - 1; k >= 0; k--) {
      if (this.#stepName(stack[k]!) === end.name) return k;
    }
    return -1;
  }

  #stepName(container: number): string {
    return this.#events![this.containerSlot[container]!]!.name as string;
  }

  /** Closes `stack[at]` with the end at `endSlot`; steps above it stay unclosed. */
  #closeSteps(stack: number[], at: number, endSlot: number, end: StepEvent): void {
    const outer = end.name;
    for (let k = stack.length - 1; k > at; k--) {
      const c = stack[k]!;
      this.diagnostics.push({
        slot: this.containerSlot[c]!,
        code: 'step_unclosed',
        args: [this.#stepName(c), outer],
      });
    }
    this.endSlot[stack[at]!] = endSlot + 1;
    this.#touch(stack[at]!);
    stack.length = at;
  }

  /**
   * The events by slot, for reading step names and cycle members' parents
   * (both rare). Set by the owner before placing.
   */
  #events: ArrayLike<Event & { name?: unknown; parent_id?: unknown }> | null = null;
  setEvents(events: ArrayLike<Event>): void {
    this.#events = events;
  }

  /** Keeps what the span object of container `c` shows of its begin event. */
  #describe(c: number, begin: SpanBeginEvent | StepEvent, parentKey: string | null): void {
    this.#names[c] = begin.name;
    this.#types[c] = begin.type ?? null;
    this.#parents[c] = parentKey;
  }

  /**
   * `slot` holds `event` now, a new version placed the same way (incremental
   * builder): a span or step node shows its new name and type.
   */
  replaced(slot: number, event: Event): void {
    if (this.#last !== null && slot < this.#flatSlots) {
      if (this.kind[slot] !== NOT_NODE) this.#replacedSlots.push(slot);
      else if (event.event === 'span_end') {
        // A new version of an end: the span it closed (if any) shows it.
        const id = (event as SpanEndEvent).id;
        const c = this.#span(id, hashKey(id));
        if (c !== -1 && this.endSlot[c] === slot + 1) this.#touch(c);
      } else this.#dirty = 0; // a step's end (rare): flatten it all
    }
    const k = this.kind[slot]!;
    const c = k < 0 ? -k - 1 : k - 2;
    // Only the last begin of an id names its node.
    if (c >= 0 && this.#beginSlot(c) === slot) {
      this.#describe(c, event as SpanBeginEvent | StepEvent, this.#parents[c]!);
    }
  }

  /** The slot of the begin that names container `c`: its id's last begin. */
  #beginSlot(c: number): number {
    const copies = this.#copySlots.size === 0 ? undefined : this.#copySlots.get(c);
    return copies === undefined ? this.containerSlot[c]! : copies[copies.length - 1]!;
  }

  #placeBegin(slot: number, begin: SpanBeginEvent): void {
    const id = begin.id;
    const parentKey = keyOf(begin.parent_id);
    this.nodeCount++;
    const hash = hashKey(id);
    const again = this.#span(id, hash);
    if (again !== -1) {
      // inspect's rule (event-tree.ts): the node is shown again here, under
      // this begin's parent, and the last begin names every copy.
      this.kind[slot] = -(again + 1);
      this.diagnostics.push({ slot, code: 'span_duplicate_id', args: [id] });
      let copies = this.#copySlots.get(again);
      if (copies === undefined) this.#copySlots.set(again, (copies = []));
      copies.push(slot);
      this.#copyOrdinal.set(slot, copies.length + 1);
      this.#describe(again, begin, parentKey);
      this.#touch(again);
      this.#put(slot, parentKey);
      return;
    }
    const c = this.#newContainer(slot, SPAN);
    this.#addSpan(id, hash, c);
    this.#describe(c, begin, parentKey);
    if (this.#closesCycle(id, parentKey)) {
      this.cut[c] = 1;
      this.diagnostics.push({
        slot,
        code: 'span_parent_cycle',
        args: [id, begin.parent_id ?? ''],
      });
      this.#appendRoot(slot);
    } else {
      const inStep = this.hasSteps && (this.#stepsOf(parentKey)?.length ?? 0) > 0;
      let parent = this.#put(slot, parentKey);
      // Placed in a step: the span parent (for cycle walks) is still the span.
      if (parent === -1 && parentKey !== null && this.hasSteps) {
        parent = this.#span(parentKey, hashKey(parentKey));
        if (parent === -1 && inStep) {
          const orphans = this.#orphanSpans.get(parentKey);
          if (orphans === undefined) this.#orphanSpans.set(parentKey, [c]);
          else orphans.push(c);
        }
      }
      if (parent !== -1) this.spanParent[c] = parent + 1;
    }
    if (this.#orphanSpans.size > 0) {
      const orphans = this.#orphanSpans.get(id);
      if (orphans !== undefined) {
        this.#orphanSpans.delete(id);
        for (const k of orphans) this.spanParent[k] = c + 1;
      }
    }
    // What arrived before this begin and belongs in it moves in now, in order.
    if (this.waiting.size > 0) {
      const waiting = this.waiting.get(id);
      if (waiting !== undefined) {
        this.waiting.delete(id);
        for (const child of waiting) {
          this.moved.add(child);
          // It leaves its place at the root of the last flatten.
          if (this.#last !== null && child < this.#flatSlots) {
            const at = this.#nodeOfSlot[child]!;
            if (at < this.#dirty) this.#dirty = at;
          }
          this.#appendChild(c, child);
          const k = this.kind[child]! - 2;
          if (k >= 0 && this.containerOrigin[k] === SPAN) this.spanParent[k] = c + 1;
        }
      }
    }
    if (this.waitingEnds.size > 0) {
      const ends = this.waitingEnds.get(id);
      if (ends !== undefined) {
        this.waitingEnds.delete(id);
        this.endSlot[c] = ends[ends.length - 1]! + 1;
        for (let k = 1; k < ends.length; k++) {
          this.diagnostics.push({ slot: ends[k]!, code: 'span_end_duplicate', args: [id] });
        }
      }
    }
  }

  /**
   * Whether span `id`, arriving now under `parentKey`, closes a parent cycle:
   * it names itself, or its parent's chain of spans ends at a span whose
   * `parent_id` is `id` (a span still waiting for `id`).
   */
  #closesCycle(id: string, parentKey: string | null): boolean {
    if (parentKey === null) return false;
    if (parentKey === id) return true;
    // Without steps, the top of such a chain waits at the root for `id`; when
    // nothing waits for `id`, no walk is needed (the usual case).
    if (!this.hasSteps && (this.waiting.size === 0 || !this.waiting.has(id))) return false;
    let cur = this.#span(parentKey, hashKey(parentKey));
    if (cur === -1) return false;
    for (let up = this.spanParent[cur]!; up !== 0; up = this.spanParent[cur]!) cur = up - 1;
    if (this.cut[cur] === 1) return false;
    const top = this.#events![this.containerSlot[cur]!]! as SpanBeginEvent;
    return keyOf(top.parent_id) === id;
  }

  /**
   * Flattens the child lists into the pre-order columns of an
   * {@link EventTree} in one iterative depth-first pass (no recursion: a
   * 500-deep run must not overflow the stack).
   */
  flatten(events: ArrayLike<Event>, pending: readonly PendingDiagnostic[]): EventTree {
    if (this.#copySlots.size > 0) return this.#flattenCopies(events, pending);
    const diagnostics = finishDiagnostics(pending);
    const { kind, next, containerSlot, containerOrigin, firstChild, endSlot, roots, moved } = this;
    const codes = this.kindCodes;
    const nodeCount = this.nodeCount;
    const nodeKinds = new Uint8Array(nodeCount);
    // Span objects of the last flatten, reused when nothing about them
    // changed (a live tree is flattened again for every batch).
    const reuse = this.#spanObjects;
    const keys = this.#spanKey;
    const names = this.#names;
    const types = this.#types;
    const parents = this.#parents;
    const span = (origin: number, i: number, slotOf: number, end: number, count: number) => {
      const k = kind[slotOf]! - 2;
      const prev = reuse[k];
      if (
        prev !== undefined &&
        prev.index === i &&
        prev.childCount === count &&
        prev.begin === events[slotOf] &&
        prev.end === (end === 0 ? null : events[end - 1])
      ) {
        return prev;
      }
      const made = Object.freeze({
        origin: origin === SPAN ? ('span' as const) : ('step' as const),
        index: i,
        id: keys[k]!,
        parentId: parents[k]!,
        name: names[k] as string,
        type: types[k] as string | null,
        begin: events[slotOf] as SpanBeginEvent | StepEvent,
        end: end === 0 ? null : (events[end - 1] as SpanEndEvent | StepEvent),
        childCount: count,
      });
      reuse[k] = made;
      return made;
    };
    const rootLength = this.rootLength;
    const depth = new Int32Array(nodeCount);
    const parentIndex = new Int32Array(nodeCount);
    const subtreeEnd = new Int32Array(nodeCount);
    const spanIndex = new Int32Array(nodeCount);
    // What resuming needs, per node (kept only when resumable).
    const resumable = this.resumable;
    if (resumable && this.#slotOfNode.length < nodeCount) this.#growNodeColumns(nodeCount);
    if (resumable && this.#nodeOfSlot.length < this.#slotsPlaced) {
      this.#nodeOfSlot = grow(
        this.#nodeOfSlot,
        Math.max(this.#slotsPlaced, 2 * this.#nodeOfSlot.length),
      );
    }
    const slotOfNode = this.#slotOfNode;
    const ordinal = this.#ordinal;
    const spansBefore = this.#spansBefore;
    const rootPosAfter = this.#rootPosAfter;
    const nodeOfSlot = this.#nodeOfSlot;
    // Open containers: their container, node index and child count so far.
    const stackContainer: number[] = [];
    const stackNode: number[] = [];
    const stackChildren: number[] = [];
    const checkMoved = moved.size > 0;
    let rootPos = 0;
    const nextRoot = (): number => {
      while (rootPos < rootLength) {
        const s = roots[rootPos++]!;
        if (!checkMoved || !moved.has(s)) return s;
      }
      return -1;
    };
    let nodeEvents: Event[];
    // Nodes from `base` on are written to `tail[i - base]` (see below).
    let base = 0;
    let spans: EventTreeSpan[];
    let spanCount = 0;
    let index = 0;
    let parent = -1;
    let level = 0;
    let children = 0;
    let slot: number;
    // Resume at node `r`: the last node of the last flatten before the first
    // position that may have changed (it is re-emitted, with its subtree).
    const last = this.#last;
    const r =
      last === null || last.tree.length === 0 ? -1 : Math.min(this.#dirty, last.tree.length) - 1;
    if (r < 0) {
      // Filled in order from empty, so the arrays stay packed (`new
      // Array(n)` of a large n is a slow dictionary, and slicing one is too).
      nodeEvents = [];
      spans = [];
      slot = nextRoot();
    } else {
      const prev = last!.tree;
      depth.set((prev.depth as Int32Array).subarray(0, r));
      parentIndex.set((prev.parentIndex as Int32Array).subarray(0, r));
      subtreeEnd.set((prev.subtreeEnd as Int32Array).subarray(0, r));
      spanIndex.set((prev.spanIndex as Int32Array).subarray(0, r));
      nodeKinds.set(last!.kinds.subarray(0, r));
      // The walk writes the nodes from `r` on into `tail`; one copy joins
      // them to the prefix below (slicing the prefix, then appending to it,
      // copied it twice).
      nodeEvents = [];
      base = r;
      spanCount = spansBefore[r]!;
      spans = this.#spansWork;
      spans.length = spanCount;
      // The walk's state just before it emitted `r`: its ancestors open.
      const chain: number[] = [];
      for (let a = prev.parentIndex[r]!; a !== -1; a = prev.parentIndex[a]!) chain.push(a);
      for (let d = chain.length - 1; d >= 0; d--) {
        const a = chain[d]!;
        stackContainer.push(kind[slotOfNode[a]!]! - 2);
        stackNode.push(a);
        stackChildren.push(ordinal[a]!);
      }
      const top = chain.length > 0 ? chain[chain.length - 1]! : r;
      rootPos = rootPosAfter[top]!;
      index = r;
      parent = prev.parentIndex[r]!;
      level = prev.depth[r]!;
      children = ordinal[r]! - 1;
      slot = slotOfNode[r]!;
    }
    for (;;) {
      while (slot !== -1) {
        const i = index++;
        nodeEvents[i - base] = events[slot]!;
        nodeKinds[i] = codes[slot]!;
        depth[i] = level;
        parentIndex[i] = parent;
        children++;
        if (resumable) {
          slotOfNode[i] = slot;
          ordinal[i] = children;
          spansBefore[i] = spanCount;
          if (level === 0) rootPosAfter[i] = rootPos;
          nodeOfSlot[slot] = i;
        }
        const k = kind[slot]! - 2;
        if (k >= 0) {
          spanIndex[i] = spanCount;
          // Its object is made when its subtree ends; hold its place.
          spans[spanCount++] = NO_SPAN;
          const first = firstChild[k]!;
          if (first !== 0) {
            stackContainer.push(k);
            stackNode.push(i);
            stackChildren.push(children);
            children = 0;
            parent = i;
            level++;
            slot = first - 1;
            continue;
          }
          spans[spanIndex[i]!] = span(containerOrigin[k]!, i, slot, endSlot[k]!, 0);
        } else {
          spanIndex[i] = -1;
        }
        subtreeEnd[i] = i + 1;
        slot = level === 0 ? nextRoot() : next[slot]! - 1;
      }
      if (stackContainer.length === 0) break;
      const k = stackContainer.pop()!;
      const j = stackNode.pop()!;
      subtreeEnd[j] = index;
      const s = containerSlot[k]!;
      spans[spanIndex[j]!] = span(containerOrigin[k]!, j, s, endSlot[k]!, children);
      children = stackChildren.pop()!;
      parent = parentIndex[j]!;
      level--;
      slot = level === 0 ? nextRoot() : next[s]! - 1;
    }
    const rootCount = children;
    if (index !== nodeCount || spanCount !== this.containerCount) {
      // Unreachable while placement keeps its invariants (every node slot is
      // linked exactly once, no cycles); fail loudly rather than return junk.
      throw new Error(`event tree: flattened ${index} nodes, expected ${nodeCount}`);
    }
    if (r >= 0) {
      const tail = nodeEvents;
      nodeEvents = (last!.tree.events as Event[]).concat(tail);
      nodeEvents.length = nodeCount;
      for (let k = 0; k < tail.length; k++) nodeEvents[r + k] = tail[k]!;
    }
    // Nodes before `r` whose event or span object changed (the change's `updated`).
    let updated: number[] = [];
    if (r > 0) {
      // Before `r`, only the event of a replaced slot and the span object of
      // a span that ended (or whose begin was replaced) can differ.
      for (const s of this.#replacedSlots) {
        const j = nodeOfSlot[s]!;
        if (j >= r) continue;
        nodeEvents[j] = events[s]!;
        updated.push(j);
        const k = kind[s]! - 2;
        if (k >= 0) this.#touched.push(k);
      }
      for (const k of this.#touched) {
        const s = containerSlot[k]!;
        const j = nodeOfSlot[s]!;
        if (j >= r) continue;
        const at = spanIndex[j]!;
        spans[at] = span(containerOrigin[k]!, j, s, endSlot[k]!, spans[at]!.childCount);
        updated.push(j);
      }
      if (updated.length > 1) updated = [...new Set(updated)].sort((a, b) => a - b);
    }
    // A resumed flatten says what it kept: views derived from the
    // last tree go on from `r` too. A first flatten (or one from scratch
    // after a rebuild) has nothing to compare with.
    const change: EventTreeChange | undefined =
      last === null
        ? undefined
        : Object.freeze({
            from: Math.max(0, r),
            updated: Object.freeze(updated),
            previousLength: last.tree.length,
          });
    const tree: EventTree = Object.freeze({
      length: nodeCount,
      events: nodeEvents,
      depth,
      parentIndex,
      subtreeEnd,
      spanIndex,
      spans: Object.freeze(resumable ? spans.slice() : spans),
      rootCount,
      diagnostics,
      ...(change === undefined ? {} : { change }),
    });
    treeKindCodes.set(tree, nodeKinds);
    recordLineage(tree, last === null ? null : last.tree);
    if (resumable) {
      this.#spansWork = spans;
      this.#last = { tree, kinds: nodeKinds };
      this.#flatContainers = this.containerCount;
      this.#flatSlots = this.#slotsPlaced;
      this.#dirty = Number.POSITIVE_INFINITY;
      this.#touched = [];
      this.#replacedSlots = [];
    }
    return tree;
  }

  /**
   * {@link flatten} for a tree with copies (a span id begun more than once;
   * rare): the same walk, where every begin of an id, first or later, shows
   * the id's node with all its children, so the subtree appears once per
   * begin (inspect's `_tree.py`, see `event-tree.ts`). Node count is known
   * only at the end, so it builds plain arrays; and it never resumes: a
   * snapshot with copies has no `change`, and views derive it from scratch.
   *
   * Keys: a node reached only through first begins (its *plain* node; every
   * slot has exactly one, the tree without copies) keeps its plain key; any
   * other gets `key + COPY_KEY_SEPARATOR + path`, where `path` lists the
   * ordinal of the begin (1 = first) of every span and step on the way down
   * to it. Read bottom-up, the ordinals name each begin, so the path is
   * unique, and it does not change as a live run grows (ordinals are by
   * arrival). `twin[i]` is the plain node of a non-plain node (`-1` for a
   * plain one): sums count plain nodes only (`treeSums`, rows.ts).
   *
   * Two guards inspect does not have: a begin that would show a span inside
   * itself (a later begin whose parent is inside the span) is left out
   * (`span_copy_cycle`), and once the tree is past 4 × its slots + 100k nodes
   * (copies of copies grow exponentially with nesting), or past ten times as
   * many begins left out as cycles, non-plain copies are shown without
   * children (`span_copies_capped`).
   */
  #flattenCopies(events: ArrayLike<Event>, pending: readonly PendingDiagnostic[]): EventTree {
    const { kind, next, firstChild, endSlot, containerSlot, containerOrigin, roots, moved } = this;
    const codes = this.kindCodes;
    const keys = this.#spanKey;
    const copyOrdinal = this.#copyOrdinal;
    const limit = 4 * this.nodeCount + 100_000;
    // Resuming needs one node per slot: start over from here on.
    this.#last = null;
    const nodeEvents: Event[] = [];
    const depth: number[] = [];
    const parentIndex: number[] = [];
    const subtreeEnd: number[] = [];
    const spanIndex: number[] = [];
    const nodeKinds: number[] = [];
    const nodeKeys: string[] = [];
    const twin: number[] = [];
    const spans: EventTreeSpan[] = [];
    const plainNode = new Int32Array(this.#slotsPlaced).fill(-1);
    const onStack = new Uint8Array(this.containerCount);
    const extra: PendingDiagnostic[] = [];
    const cycleSlots = new Set<number>();
    // Begins left out as cycles have a limit too (ten times the nodes': a
    // skip is cheap): each copy walks them, and a span begun k times inside
    // itself makes every copy walk k of them (k² steps, no node to show).
    let skipped = 0;
    let capped = false;
    const spanOf = (c: number, i: number, count: number): EventTreeSpan => {
      const end = endSlot[c]!;
      return Object.freeze({
        origin: containerOrigin[c] === SPAN ? ('span' as const) : ('step' as const),
        index: i,
        id: keys[c]!,
        parentId: this.#parents[c]!,
        name: this.#names[c] as string,
        type: this.#types[c] as string | null,
        begin: events[this.#beginSlot(c)] as SpanBeginEvent | StepEvent,
        end: end === 0 ? null : (events[end - 1] as SpanEndEvent | StepEvent),
        childCount: count,
      });
    };
    // Open containers: container, node, child count, next child slot + 1, path, plain.
    const stackC: number[] = [];
    const stackNode: number[] = [];
    const stackCount: number[] = [];
    const stackNext: number[] = [];
    const stackPath: string[] = [];
    const stackPlain: boolean[] = [];
    let rootPos = 0;
    let rootCount = 0;
    const rootLength = this.rootLength;
    for (;;) {
      let slot: number;
      const top = stackC.length - 1;
      if (top >= 0) {
        const n = stackNext[top]!;
        if (n === 0) {
          const c = stackC.pop()!;
          const j = stackNode.pop()!;
          onStack[c] = 0;
          subtreeEnd[j] = nodeEvents.length;
          spans[spanIndex[j]!] = spanOf(c, j, stackCount.pop()!);
          stackNext.pop();
          stackPath.pop();
          stackPlain.pop();
          continue;
        }
        slot = n - 1;
        stackNext[top] = next[slot]!;
      } else {
        slot = -1;
        while (rootPos < rootLength) {
          const s = roots[rootPos++]!;
          if (moved.size === 0 || !moved.has(s)) {
            slot = s;
            break;
          }
        }
        if (slot === -1) break;
      }
      const k = kind[slot]!;
      const c = k >= 2 ? k - 2 : k < 0 ? -k - 1 : -1;
      if (c >= 0 && onStack[c] === 1) {
        skipped++;
        if (!cycleSlots.has(slot)) {
          cycleSlots.add(slot);
          extra.push({ slot, code: 'span_copy_cycle', args: [keys[c]!] });
        }
        continue;
      }
      const parentPath = top >= 0 ? stackPath[top]! : '';
      const parentPlain = top >= 0 ? stackPlain[top]! : true;
      const ordinal = k < 0 ? copyOrdinal.get(slot)! : 1;
      const path =
        c < 0 ? parentPath : parentPath === '' ? String(ordinal) : `${parentPath}.${ordinal}`;
      const plain = parentPlain && ordinal === 1;
      const i = nodeEvents.length;
      const own = c >= 0 ? keys[c]! : events[slot]!.uuid;
      nodeKeys[i] = plain ? own : `${own}${COPY_KEY_SEPARATOR}${path}`;
      if (plain) {
        plainNode[slot] = i;
        twin[i] = -1;
      } else {
        // Resolved below, once every plain node has its index.
        twin[i] = c >= 0 ? containerSlot[c]! : slot;
      }
      depth[i] = stackC.length;
      parentIndex[i] = top >= 0 ? stackNode[top]! : -1;
      nodeKinds[i] = codes[slot]!;
      if (top >= 0) stackCount[top]!++;
      else rootCount++;
      if (c < 0) {
        nodeEvents[i] = events[slot]!;
        spanIndex[i] = -1;
        subtreeEnd[i] = i + 1;
        continue;
      }
      nodeEvents[i] = events[this.#beginSlot(c)]!;
      spanIndex[i] = spans.length;
      spans.push(NO_SPAN);
      const first = firstChild[c]!;
      let open = first !== 0;
      if (open && !plain && (i >= limit || skipped >= 10 * limit)) {
        open = false;
        capped = true;
      }
      if (!open) {
        subtreeEnd[i] = i + 1;
        spans[spanIndex[i]!] = spanOf(c, i, 0);
        continue;
      }
      onStack[c] = 1;
      stackC.push(c);
      stackNode.push(i);
      stackCount.push(0);
      stackNext.push(first);
      stackPath.push(path);
      stackPlain.push(plain);
    }
    const length = nodeEvents.length;
    for (let i = 0; i < length; i++) if (twin[i]! >= 0) twin[i] = plainNode[twin[i]!]!;
    if (capped) extra.push({ slot: 0, code: 'span_copies_capped', args: [String(limit)] });
    const tree: EventTree = Object.freeze({
      length,
      events: nodeEvents,
      depth: Int32Array.from(depth),
      parentIndex: Int32Array.from(parentIndex),
      subtreeEnd: Int32Array.from(subtreeEnd),
      spanIndex: Int32Array.from(spanIndex),
      spans: Object.freeze(spans),
      rootCount,
      diagnostics: finishDiagnostics(pending.concat(extra)),
      keys: Object.freeze(nodeKeys),
      twin: Int32Array.from(twin),
    });
    treeKindCodes.set(tree, Uint8Array.from(nodeKinds));
    return tree;
  }

  #growNodeColumns(count: number): void {
    const c = Math.max(count, 2 * this.#slotOfNode.length, 16);
    this.#slotOfNode = grow(this.#slotOfNode, c);
    this.#ordinal = grow(this.#ordinal, c);
    this.#spansBefore = grow(this.#spansBefore, c);
    this.#rootPosAfter = grow(this.#rootPosAfter, c);
  }
}
