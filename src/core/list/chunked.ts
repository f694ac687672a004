/**
 * A numeric column that shares its unchanged prefix with the column it went
 * on from. Internal.
 *
 * Live views derive prefix sums and heights per tree node or row, and each
 * snapshot of a live tree changes only its end: the first `keep` entries are
 * the previous snapshot's. Copying them into a fresh typed array made every
 * batch O(n) (at 1M events, tens of MB allocated and copied per snapshot,
 * and the allocations brought on full GCs of the whole heap). Here entries
 * live in chunks of {@link CHUNK} entries: a column that goes on from
 * another takes the other's chunks below `keep` as they are (one pointer per
 * chunk) and writes only from `keep` on. A chunk is written only by the
 * column that owns it; a write to a chunk shared with another column copies
 * it first (copy on write), and a column that hands its chunks to a later
 * one gives up owning them. So every column keeps reading what it was given,
 * whichever of them is written later: a measured row height set in the
 * newest heights does not show in the ones before, nor the other way round.
 *
 * Cost of going on from a column: O(n / CHUNK) pointer copies, plus the
 * chunks written. Reads cost a shift, a mask and one more load than a plain
 * typed array.
 */

const BITS = 12;
/** Entries per chunk (4,096: 32 kB of `Float64Array`). */
export const CHUNK = 1 << BITS;
const MASK = CHUNK - 1;

type Numbers = Float64Array | Float32Array | Int32Array;

/**
 * A fixed-length column of numbers in shared, copy-on-write chunks. `T` is
 * the chunk type (`Float64Array`, `Float32Array` or `Int32Array`); entries
 * start at 0.
 */
export class ChunkedColumn<T extends Numbers> {
  readonly length: number;
  readonly #make: (n: number) => T;
  readonly #chunks: (T | undefined)[];
  /** Per chunk: 1 when this column may write it in place. */
  readonly #owned: Uint8Array;

  /**
   * A column of `length` zeros, or one whose first `keep` entries are
   * `from`'s (the rest are 0 until written). `make(n)` makes a chunk.
   */
  constructor(make: (n: number) => T, length: number, from?: ChunkedColumn<T>, keep = 0) {
    this.length = length;
    this.#make = make;
    const count = (length + MASK) >>> BITS;
    this.#chunks = new Array<T | undefined>(count).fill(undefined);
    this.#owned = new Uint8Array(count);
    const k = from === undefined ? 0 : Math.max(0, Math.min(keep, from.length, length));
    if (k > 0) {
      const shared = (k + MASK) >>> BITS;
      const theirs = from!.#chunks;
      for (let c = 0; c < shared; c++) this.#chunks[c] = theirs[c];
      // Both now read these chunks: neither may write them in place.
      from!.#owned.fill(0, 0, shared);
      // Entries from `keep` on start at 0 here too (in the last chunk shared).
      if ((k & MASK) !== 0) this.#own(shared - 1).fill(0, k & MASK);
    }
  }

  /**
   * A column over `array` as it is (its chunks are views of it; no copy):
   * for a full build into a plain typed array, which is faster to fill.
   * The column owns `array` from then on.
   */
  static wrap<T extends Numbers>(make: (n: number) => T, array: T): ChunkedColumn<T> {
    const column = new ChunkedColumn(make, array.length);
    for (let c = 0; c < column.#chunks.length; c++) {
      column.#chunks[c] = array.subarray(c << BITS, (c + 1) << BITS) as T;
      column.#owned[c] = 1;
    }
    return column;
  }

  get(i: number): number {
    const chunk = this.#chunks[i >>> BITS];
    return chunk === undefined ? 0 : chunk[i & MASK]!;
  }

  set(i: number, value: number): void {
    this.#own(i >>> BITS)[i & MASK] = value;
  }

  /**
   * Writes `values` into entries `[offset, offset + values.length)`, a chunk
   * at a time: a run of entries is faster to fill in a plain typed array
   * and copy in than to {@link set} one by one.
   */
  setAll(offset: number, values: ArrayLike<number> & { subarray(a: number, b: number): T }): void {
    const end = offset + values.length;
    for (let i = offset; i < end;) {
      const c = i >>> BITS;
      const stop = Math.min(end, (c + 1) << BITS);
      this.#own(c).set(values.subarray(i - offset, stop - offset), i & MASK);
      i = stop;
    }
  }

  /** Adds `delta` to entry `i`. */
  add(i: number, delta: number): void {
    const chunk = this.#own(i >>> BITS);
    chunk[i & MASK] = chunk[i & MASK]! + delta;
  }

  /** Chunk `c`, made or copied first unless this column owns it. */
  #own(c: number): T {
    const chunk = this.#chunks[c];
    if (this.#owned[c] === 1) return chunk!;
    const mine = this.#make(CHUNK);
    if (chunk !== undefined) (mine as Numbers).set(chunk);
    this.#chunks[c] = mine;
    this.#owned[c] = 1;
    return mine;
  }
}

/** A chunk of `Float64Array` (for {@link ChunkedColumn}). */
export const float64Chunk = (n: number): Float64Array => new Float64Array(n);
/** A chunk of `Float32Array` (for {@link ChunkedColumn}). */
export const float32Chunk = (n: number): Float32Array => new Float32Array(n);
/** A chunk of `Int32Array` (for {@link ChunkedColumn}). */
export const int32Chunk = (n: number): Int32Array => new Int32Array(n);
