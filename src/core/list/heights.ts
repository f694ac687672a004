/**
 * Row heights for a virtualized list of any length (measured row
 * heights; no ceiling on the number of rows).
 *
 * A list of 1,000,000 rows whose heights are measured as they are drawn needs
 * three things fast: the offset of a row, the row at an offset, and a height
 * change. Keeping offsets in an array (as @tanstack/virtual-core's
 * measurement cache does) makes every measurement rewrite the offsets of all
 * rows after it: one object per row, O(n) per measured frame, which at 1M rows
 * was most of the transcript's mount and scroll time. Here heights live in a
 * Fenwick tree (binary indexed tree) over a `Float64Array`: building is O(n)
 * with no per-row objects, and each of the three operations is O(log n).
 */

import { ChunkedColumn, float64Chunk } from './chunked.js';

/**
 * Heights of `count` rows with prefix sums, from {@link createRowHeights}.
 *
 * @example
 * import { createRowHeights } from './heights.js';
 * declare const rows: readonly { kind: 'span' | 'event' }[];
 * declare const scrollTop: number;
 * const heights = createRowHeights(rows.length, (r) => (rows[r]!.kind === 'span' ? 36 : 72));
 * const first = heights.rowAt(scrollTop);
 * heights.set(first, 90); // its measured height
 */
export interface RowHeights {
  /** Number of rows. */
  readonly count: number;
  /** Sum of all heights, px. */
  readonly total: number;
  /** Height of row `r`, px. */
  size(r: number): number;
  /** Offset of row `r`'s top (the sum of the heights before it); `total` for `r >= count`. */
  start(r: number): number;
  /**
   * The row covering `offset`: the last row whose start is at or before it,
   * clamped to `[0, count - 1]` (`-1` when there are no rows). Zero-height
   * rows are skipped in favour of the next row with a height.
   */
  rowAt(offset: number): number;
  /**
   * Sets row `r`'s height (negative or non-finite → 0). Returns the change in
   * px (`0` when nothing changed).
   */
  set(r: number, size: number): number;
}

/**
 * Rows a new {@link RowHeights} takes from an earlier one: its first `keep`
 * rows, with their heights as they are now (measured or estimated).
 *
 * @example
 * declare const before: RowHeights;
 * const kept: KeptHeights = { heights: before, keep: 1000 };
 */
export interface KeptHeights {
  readonly heights: RowHeights;
  readonly keep: number;
}

/**
 * Creates the heights of `count` rows, row `r` starting at `sizeOf(r)`. O(n).
 * With `kept` (rows that did not change since `kept.heights` was made: a live
 * list grown at its end, see `rowsContinued`), rows before `kept.keep` take
 * their heights from there and `sizeOf` is called only for the rest:
 * O(kept rows / 4,096) (their chunks are shared, not copied: see
 * `ChunkedColumn`) plus O((count − keep) log count). The result is what a
 * full build from the same sizes gives (`total` up to float rounding when
 * heights are fractional). Setting a height in either afterwards does not
 * change the other.
 *
 * @example
 * import { createRowHeights } from './heights.js';
 * const heights = createRowHeights(3, () => 40);
 * heights.start(2); // 80
 * heights.rowAt(85); // 2
 * const grown = createRowHeights(5, () => 40, { heights, keep: 3 });
 * grown.total; // 200
 */
export function createRowHeights(
  count: number,
  sizeOf: (r: number) => number,
  kept?: KeptHeights,
): RowHeights {
  return new FenwickHeights(Math.max(0, Math.floor(count)), sizeOf, kept);
}

function clean(size: number): number {
  return Number.isFinite(size) && size > 0 ? size : 0;
}

class FenwickHeights implements RowHeights {
  readonly count: number;
  total = 0;
  /**
   * Heights, and the 1-based Fenwick tree (`#tree[i]` sums the `i & -i`
   * sizes ending at row `i - 1`), in chunks a continued list shares with the
   * heights it went on from (`kept`): a live list's next heights copy no
   * prefix. Measurements write through copy on write.
   */
  readonly #sizes: ChunkedColumn<Float64Array>;
  readonly #tree: ChunkedColumn<Float64Array>;
  /** Highest power of two ≤ count, for the descent in `rowAt`. */
  readonly #top: number;

  constructor(count: number, sizeOf: (r: number) => number, kept?: KeptHeights) {
    this.count = count;
    const from = kept?.heights;
    const keep =
      from instanceof FenwickHeights ? Math.max(0, Math.min(kept!.keep, from.count, count)) : 0;
    if (keep > 0) {
      const previous = from as FenwickHeights;
      this.#sizes = new ChunkedColumn(float64Chunk, count, previous.#sizes, keep);
      this.#tree = new ChunkedColumn(float64Chunk, count + 1, previous.#tree, keep + 1);
      this.#resume(previous, keep, sizeOf);
    } else {
      // Built in plain arrays (faster to fill), then chunked as they are.
      const sizes = new Float64Array(count);
      const tree = new Float64Array(count + 1);
      let total = 0;
      for (let r = 0; r < count; r++) {
        const s = clean(sizeOf(r));
        sizes[r] = s;
        tree[r + 1] = s;
        total += s;
      }
      // O(n) construction: push each node's sum into its parent once.
      for (let i = 1; i <= count; i++) {
        const parent = i + (i & -i);
        if (parent <= count) tree[parent]! += tree[i]!;
      }
      this.total = total;
      this.#sizes = ChunkedColumn.wrap(float64Chunk, sizes);
      this.#tree = ChunkedColumn.wrap(float64Chunk, tree);
    }
    let top = 1;
    while (top * 2 <= count) top *= 2;
    this.#top = count === 0 ? 0 : top;
  }

  /**
   * Takes rows `[0, keep)` from `from` and builds the rest: a node at or
   * below `keep` sums only kept rows, so it is shared; each later node adds
   * its children in the order the full build pushes them (ascending), so
   * every node is the same number a full build makes.
   */
  #resume(from: FenwickHeights, keep: number, sizeOf: (r: number) => number): void {
    const count = this.count;
    const sizes = this.#sizes;
    const tree = this.#tree;
    let total = from.start(keep);
    for (let i = keep + 1; i <= count; i++) {
      const s = clean(sizeOf(i - 1));
      sizes.set(i - 1, s);
      total += s;
      // Node i's children are i - step for each power of two below its low
      // bit: ascending, the order the full build pushes them in.
      let sum = s;
      for (let step = (i & -i) >> 1; step > 0; step >>= 1) sum += tree.get(i - step);
      tree.set(i, sum);
    }
    this.total = total;
  }

  size(r: number): number {
    return r >= 0 && r < this.count ? this.#sizes.get(r) : 0;
  }

  start(r: number): number {
    if (r <= 0) return 0;
    if (r >= this.count) return this.total;
    let sum = 0;
    for (let i = r; i > 0; i -= i & -i) sum += this.#tree.get(i);
    return sum;
  }

  rowAt(offset: number): number {
    if (this.count === 0) return -1;
    if (!(offset > 0)) return this.#firstSized(0);
    if (offset >= this.total) return this.#lastSized();
    // Descend: the largest prefix length whose sum is ≤ offset is the row.
    const tree = this.#tree;
    let pos = 0;
    let rest = offset;
    for (let step = this.#top; step > 0; step >>= 1) {
      const next = pos + step;
      if (next <= this.count) {
        const sum = tree.get(next);
        if (sum <= rest) {
          pos = next;
          rest -= sum;
        }
      }
    }
    return this.#firstSized(Math.min(pos, this.count - 1));
  }

  set(r: number, size: number): number {
    if (!(r >= 0 && r < this.count)) return 0;
    const s = clean(size);
    const delta = s - this.#sizes.get(r);
    if (delta === 0) return 0;
    this.#sizes.set(r, s);
    this.total += delta;
    for (let i = r + 1; i <= this.count; i += i & -i) this.#tree.add(i, delta);
    return delta;
  }

  /** `r`, or the next row with a height (the last row if none has one). */
  #firstSized(r: number): number {
    const sizes = this.#sizes;
    let k = r;
    while (k < this.count - 1 && sizes.get(k) === 0) k++;
    return k;
  }

  /** The last row with a height (the last row if none has one). */
  #lastSized(): number {
    const sizes = this.#sizes;
    for (let k = this.count - 1; k >= 0; k--) if (sizes.get(k) !== 0) return k;
    return this.count - 1;
  }
}
