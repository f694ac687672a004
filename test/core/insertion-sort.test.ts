import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { insertionSort } from '../../src/core/insertion-sort.js';

const byNumber = (a: number, b: number) => a - b;

describe('insertionSort', () => {
  it('sorts the first n items in place and leaves the rest', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -50, max: 50 })), fc.nat(), (xs, k) => {
        const n = xs.length === 0 ? 0 : k % (xs.length + 1);
        const list = xs.slice();
        expect(insertionSort(list, n, byNumber)).toBe(true);
        expect(list.slice(0, n)).toEqual(xs.slice(0, n).sort(byNumber));
        expect(list.slice(n)).toEqual(xs.slice(n));
      }),
    );
  });

  it('past its budget of moves it stops, false, with the same items in some order', () => {
    const reversed = Array.from({ length: 100 }, (_, i) => 100 - i);
    const list = reversed.slice();
    expect(insertionSort(list, list.length, byNumber, 10)).toBe(false);
    expect(list.slice().sort(byNumber)).toEqual(reversed.slice().sort(byNumber));
    expect(list).not.toEqual(reversed.slice().sort(byNumber));
    // A nearly sorted list stays within a budget linear in its length.
    const nearly = Array.from({ length: 1000 }, (_, i) => i + (i % 2 ? -1 : 1));
    expect(insertionSort(nearly, nearly.length, byNumber, 2 * nearly.length)).toBe(true);
    expect(nearly).toEqual(Array.from({ length: 1000 }, (_, i) => i));
  });
});
