/**
 * A string → dense-number index for the `latest()` projection of
 * `EventStream`: the n-th distinct key added gets number n.
 *
 * A `Map<string, number>` costs about 1 µs per new key once it holds a
 * million uuids (growing and rehashing a table on the JS heap that the GC
 * then walks). This is an open-addressing table in typed arrays: each key's
 * hash is computed once (FNV-1a over its UTF-16 code units) and kept, so
 * growing never rehashes a string, and the GC never scans the table.
 */

const EMPTY = -1;
// Slots; a power of two. Small: a registry holds thousands of streams of a
// few dozen events each, and the table doubles as it fills.
const INITIAL_CAPACITY = 32;

/** FNV-1a over the UTF-16 code units, then murmur3's finalizer to spread the low bits the mask keeps. */
function hashString(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h | 0;
}

/**
 * Numbers distinct strings densely, in the order they were first added.
 *
 * @example
 * import { StringIndex } from 'src/core/stream/string-index.js';
 * const index = new StringIndex();
 * index.findOrAdd('a'); // -1 (added as 0)
 * index.findOrAdd('b'); // -1 (added as 1)
 * index.findOrAdd('a'); // 0
 */
export class StringIndex {
  /** Key of each number. */
  readonly #keys: string[] = [];
  /** Hash of each number's key. */
  #hashes = new Int32Array(INITIAL_CAPACITY / 2);
  /** Slot → number, or {@link EMPTY}. Linear probing, at most half full. */
  #slots = new Int32Array(INITIAL_CAPACITY).fill(EMPTY);
  #mask = INITIAL_CAPACITY - 1;

  /** Number of distinct keys added. */
  get size(): number {
    return this.#keys.length;
  }

  /**
   * The number of `key` if it was added before; otherwise adds it as number
   * {@link size} (before the call) and returns -1. One probe sequence either way.
   *
   * @example
   * import { StringIndex } from 'src/core/stream/string-index.js';
   * const index = new StringIndex();
   * const rows: Event[] = [];
   * if (index.findOrAdd(event.uuid) < 0) rows.push(event);
   */
  findOrAdd(key: string): number {
    const hash = hashString(key);
    const slots = this.#slots;
    const hashes = this.#hashes;
    const keys = this.#keys;
    const mask = this.#mask;
    let slot = hash & mask;
    for (;;) {
      const n = slots[slot]!;
      if (n === EMPTY) break;
      if (hashes[n] === hash && keys[n] === key) return n;
      slot = (slot + 1) & mask;
    }
    const n = keys.length;
    keys.push(key);
    if (n === hashes.length) {
      const grown = new Int32Array(hashes.length * 2);
      grown.set(hashes);
      this.#hashes = grown;
    }
    this.#hashes[n] = hash;
    slots[slot] = n;
    if (keys.length * 2 > slots.length) this.#grow();
    return -1;
  }

  /**
   * The number of `key`, or -1 when it was never added.
   *
   * @example
   * import { StringIndex } from 'src/core/stream/string-index.js';
   * const index = new StringIndex();
   * index.findOrAdd('a');
   * index.find('a'); // 0
   */
  find(key: string): number {
    const hash = hashString(key);
    const mask = this.#mask;
    let slot = hash & mask;
    for (;;) {
      const n = this.#slots[slot]!;
      if (n === EMPTY) return -1;
      if (this.#hashes[n] === hash && this.#keys[n] === key) return n;
      slot = (slot + 1) & mask;
    }
  }

  /** Doubles the slot table and re-inserts every number by its stored hash. */
  #grow(): void {
    const capacity = this.#slots.length * 2;
    const slots = new Int32Array(capacity).fill(EMPTY);
    const mask = capacity - 1;
    const hashes = this.#hashes;
    const count = this.#keys.length;
    for (let n = 0; n < count; n++) {
      let slot = hashes[n]! & mask;
      while (slots[slot] !== EMPTY) slot = (slot + 1) & mask;
      slots[slot] = n;
    }
    this.#slots = slots;
    this.#mask = mask;
  }
}
