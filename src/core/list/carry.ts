/**
 * Measured row heights that survive a rebuilt list (the list
 * engine). A list drawn over a growing sequence of items (a live event tree)
 * keeps what it measured per item, not per row, so collapsing, filtering and
 * appending keep the heights; when the sequence is rebuilt the sizes move to
 * the items' new places.
 */
import { ChunkedColumn, float32Chunk } from './chunked.js';

/**
 * Sizes measured per item (`0`: not measured) and how to name each item.
 *
 * @example
 * declare const ids: readonly string[];
 * const measured: KeyedSizes = { sizes: new Float32Array(ids.length), keyOf: (i) => ids[i]! };
 */
export interface KeyedSizes {
  readonly sizes: Float32Array;
  /** A stable key of item `i` (e.g. an event's uuid). */
  readonly keyOf: (i: number) => string;
}

/**
 * The sizes of `before` moved onto a sequence of `length` items named by
 * `keyOf`. A live sequence grows by insertions (events appended to any open
 * span), which only move items later, by at most the number added, keeping
 * their order: one forward walk finds each measured item again,
 * O(measured + added). An item not found there (the sequence was
 * restructured) starts unmeasured (`0`) and is measured again when drawn.
 *
 * @example
 * const before = { sizes: Float32Array.of(40, 0, 90), keyOf: (i: number) => ['a', 'b', 'c'][i]! };
 * const after = ['a', 'x', 'b', 'c'];
 * carrySizes(before, after.length, (i) => after[i]!); // Float32Array [40, 0, 0, 90]
 */
export function carrySizes(
  before: KeyedSizes | null,
  length: number,
  keyOf: (i: number) => string,
): Float32Array {
  const sizes = new Float32Array(Math.max(0, length));
  if (before === null) return sizes;
  const old = before.sizes;
  const added = Math.max(0, length - old.length);
  let shift = 0;
  for (let i = 0; i < old.length; i++) {
    if (old[i] === 0) continue;
    const key = before.keyOf(i);
    const limit = Math.min(length - 1, i + added);
    let j = i + shift;
    while (j <= limit && keyOf(j) !== key) j++;
    if (j > limit) continue;
    sizes[j] = old[i]!;
    shift = j - i;
  }
  return sizes;
}

/**
 * {@link carrySizes} into a {@link ChunkedColumn} (internal; the
 * transcript's sizes per tree node): items before `from` kept
 * their place (a live tree's `change.from`), so their chunks are shared with
 * `before` and only the items from `from` on are walked:
 * O(length / 4,096 + items from `from` on). `from` 0 (or no `before`) walks
 * them all, as `carrySizes` does.
 */
export function carryChunkedSizes(
  before: {
    readonly sizes: ChunkedColumn<Float32Array>;
    readonly keyOf: (i: number) => string;
  } | null,
  from: number,
  length: number,
  keyOf: (i: number) => string,
): ChunkedColumn<Float32Array> {
  const n = Math.max(0, length);
  if (before === null) return new ChunkedColumn(float32Chunk, n);
  const old = before.sizes;
  const start = Math.max(0, Math.min(from, old.length, n));
  const sizes = new ChunkedColumn(float32Chunk, n, old, start);
  const added = Math.max(0, n - old.length);
  let shift = 0;
  for (let i = start; i < old.length; i++) {
    const size = old.get(i);
    if (size === 0) continue;
    const key = before.keyOf(i);
    const limit = Math.min(n - 1, i + added);
    let j = i + shift;
    while (j <= limit && keyOf(j) !== key) j++;
    if (j > limit) continue;
    sizes.set(j, size);
    shift = j - i;
  }
  return sizes;
}

/** Per rows object: the rows it continues and how many leading rows they share. */
const continued = new WeakMap<object, { previous: WeakRef<object>; keep: number }>();

/**
 * Records that `rows` begins with the first `keep` rows of `previous`,
 * unchanged (a live list rebuilt after a batch that landed at its end).
 * Called by whoever builds `rows` (`buildTranscriptRows`, `spanTreeRows`).
 *
 * @example
 * import { markRowsContinued, rowsContinued } from './carry.js';
 * declare const before: object;
 * declare const after: object;
 * markRowsContinued(after, before, 120);
 * rowsContinued(after, before); // 120
 */
export function markRowsContinued(rows: object, previous: object, keep: number): void {
  continued.set(rows, { previous: new WeakRef(previous), keep });
}

/**
 * How many leading rows `rows` shares unchanged with `previous`: what
 * {@link markRowsContinued} recorded, or `0` when nothing was (a list keeps
 * the heights of those rows instead of asking for them again).
 *
 * @example
 * import { rowsContinued } from './carry.js';
 * declare const before: object;
 * declare const after: object;
 * const keep = rowsContinued(after, before); // 0 unless recorded
 */
export function rowsContinued(rows: object, previous: object): number {
  const c = continued.get(rows);
  return c !== undefined && c.previous.deref() === previous ? c.keep : 0;
}
