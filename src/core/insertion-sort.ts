// Sorting lists that are nearly in order already (times of parallel agents a
// few ms apart, the few spans due at once): an insertion sort does them in
// about one pass, and allocates nothing, where `Array.prototype.sort` copies
// the list. Shared by the swimlane's start order and the OpenAI Agents replay.

/**
 * Sorts the first `n` items of `list` in place by `compare`, by insertion,
 * and returns true; after `budget` moves (a list far from sorted) it stops
 * and returns false, leaving those items in some order (a permutation of
 * them) for the caller to sort another way.
 *
 * @example
 * import { insertionSort } from 'src/core/insertion-sort.js';
 * const list = [3, 1, 2, 9];
 * insertionSort(list, 3, (a, b) => a - b); // true; list is [1, 2, 3, 9]
 */
export function insertionSort<T>(
  list: T[],
  n: number,
  compare: (a: T, b: T) => number,
  budget = Infinity,
): boolean {
  for (let i = 1; i < n; i++) {
    const value = list[i]!;
    let j = i - 1;
    while (j >= 0 && compare(list[j]!, value) > 0) {
      list[j + 1] = list[j]!;
      j--;
      if (--budget < 0) {
        list[j + 1] = value;
        return false;
      }
    }
    list[j + 1] = value;
  }
  return true;
}
