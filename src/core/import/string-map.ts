// A map from strings to values for importers' per-record indexes (a record's
// uuid, a tool call id, a response id: one entry a record, 100k a session).
// A `Map` of that size cost an importer more than any other structure it
// keeps: 8 % of a Claude Code import was its uuid map alone (measured by
// taking it out). Each miss walks a chain of entries whose keys are strings
// scattered over the heap, loaded only to compare their hashes, and its large
// backing store points at young keys the collector then visits on every
// scavenge. Here the hashes sit in a typed array next to the slots (a key is
// read only when its 32-bit hash matches), and the table holds entry numbers,
// not pointers, so the collector never walks it.

/** Slots to start with (a power of two); the table doubles past half full. */
const INITIAL_SLOTS = 1024;

/** Characters of a long key hashed from each end: its length covers the middle. */
const HASH_ENDS = 128;

/**
 * FNV-1a over the key's UTF-16 code units, and its length (all of a key up to
 * 256 code units, else the first and last 128).
 */
function hashOf(key: string): number {
  const len = key.length;
  let h = Math.imul(0x811c9dc5 ^ len, 16777619);
  if (len <= 2 * HASH_ENDS) {
    for (let i = 0; i < len; i++) h = Math.imul(h ^ key.charCodeAt(i), 16777619);
  } else {
    for (let i = 0; i < HASH_ENDS; i++) h = Math.imul(h ^ key.charCodeAt(i), 16777619);
    for (let i = len - HASH_ENDS; i < len; i++) h = Math.imul(h ^ key.charCodeAt(i), 16777619);
  }
  return h;
}

/**
 * A map from strings to values, as `Map<string, V>` for `get`, `has`, `set`
 * and `values` (insertion order; setting a key again keeps its place), plus
 * {@link StringMap.setIfAbsent} (one probe where a `Map` needs `get` then
 * `set`). No deletion: importers' indexes only grow.
 * @internal
 * @example
 * import { StringMap } from 'src/core/import/string-map.js';
 * const seen = new StringMap<number>();
 * seen.setIfAbsent('a1b2', 0); // undefined: added
 * seen.setIfAbsent('a1b2', 7); // 0: already there, kept
 * seen.get('a1b2'); // 0
 */
export class StringMap<V> {
  #mask = INITIAL_SLOTS - 1;
  /** Entry number + 1 of each slot; 0 when empty. */
  #slots = new Int32Array(INITIAL_SLOTS);
  /** The hash of each slot's key. */
  #hashes = new Int32Array(INITIAL_SLOTS);
  readonly #keys: string[] = [];
  readonly #values: V[] = [];

  /** How many keys are in the map. */
  get size(): number {
    return this.#keys.length;
  }

  /** The value of `key`, or undefined. */
  get(key: string): V | undefined {
    const entry = this.#find(key, hashOf(key));
    return entry < 0 ? undefined : this.#values[entry];
  }

  /** Whether `key` is in the map. */
  has(key: string): boolean {
    return this.#find(key, hashOf(key)) >= 0;
  }

  /** Sets `key` to `value` (in its place when it is there already). */
  set(key: string, value: V): this {
    const h = hashOf(key);
    const entry = this.#find(key, h);
    if (entry >= 0) this.#values[entry] = value;
    else this.#add(key, h, value);
    return this;
  }

  /**
   * The value of `key` when it is there (left as it is), else undefined once
   * `key` is set to `value`.
   */
  setIfAbsent(key: string, value: V): V | undefined {
    const h = hashOf(key);
    const entry = this.#find(key, h);
    if (entry >= 0) return this.#values[entry];
    this.#add(key, h, value);
    return undefined;
  }

  /** The values, in the order their keys were added. */
  values(): IterableIterator<V> {
    return this.#values.values();
  }

  /** The entry number of `key` (hash `h`), or -1. */
  #find(key: string, h: number): number {
    const slots = this.#slots;
    const hashes = this.#hashes;
    const mask = this.#mask;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const s = slots[i]!;
      if (s === 0) return -1;
      if (hashes[i] === h && this.#keys[s - 1] === key) return s - 1;
    }
  }

  #add(key: string, h: number, value: V): void {
    const entry = this.#keys.length;
    this.#keys.push(key);
    this.#values.push(value);
    if (2 * (entry + 1) > this.#slots.length) this.#grow();
    const slots = this.#slots;
    const mask = this.#mask;
    let i = h & mask;
    while (slots[i] !== 0) i = (i + 1) & mask;
    slots[i] = entry + 1;
    this.#hashes[i] = h;
  }

  /** Doubles the table, placing every entry again from its stored hash. */
  #grow(): void {
    const size = this.#slots.length * 2;
    const mask = size - 1;
    const slots = new Int32Array(size);
    const hashes = new Int32Array(size);
    const oldSlots = this.#slots;
    const oldHashes = this.#hashes;
    for (let j = 0; j < oldSlots.length; j++) {
      const s = oldSlots[j]!;
      if (s === 0) continue;
      const h = oldHashes[j]!;
      let i = h & mask;
      while (slots[i] !== 0) i = (i + 1) & mask;
      slots[i] = s;
      hashes[i] = h;
    }
    this.#slots = slots;
    this.#hashes = hashes;
    this.#mask = mask;
  }
}
