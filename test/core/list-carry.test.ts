import { rowScrollTop, scrollSpace } from '../../src/core/list/scroll-space.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alignOffset, carrySizes, firstWindow } from '../../src/index.js';
import { carryChunkedSizes } from '../../src/core/list/carry.js';
import { ChunkedColumn, float32Chunk } from '../../src/core/list/chunked.js';

const keyed = (keys: readonly string[], sizes: readonly number[]) => ({
  sizes: Float32Array.from(sizes),
  keyOf: (i: number) => keys[i]!,
});

describe('carrySizes', () => {
  it('moves measured sizes to their keys after insertions', () => {
    const before = keyed(['a', 'b', 'c', 'd'], [40, 0, 90, 12]);
    const after = ['x', 'a', 'b', 'y', 'c', 'd', 'z'];
    expect([...carrySizes(before, after.length, (i) => after[i]!)]).toEqual([
      0, 40, 0, 0, 90, 12, 0,
    ]);
  });

  it('starts unmeasured without a before, and drops keys it cannot find', () => {
    expect([...carrySizes(null, 3, () => 'k')]).toEqual([0, 0, 0]);
    // Restructured (same items, another order): not along the forward walk,
    // so dropped — those rows are measured again when drawn.
    const before = keyed(['a', 'b', 'c'], [1, 2, 3]);
    const after = ['c', 'a', 'b'];
    expect([...carrySizes(before, after.length, (i) => after[i]!)]).toEqual([0, 0, 0]);
  });

  it('equals a lookup by key for any insertions (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 200 }), { minLength: 0, maxLength: 60 }),
        fc.array(fc.nat(), { maxLength: 40 }),
        (sizes, inserts) => {
          const keys = sizes.map((_, i) => `k${i}`);
          const after = [...keys];
          inserts.forEach((at, n) => after.splice(at % (after.length + 1), 0, `new${n}`));
          const out = carrySizes(keyed(keys, sizes), after.length, (i) => after[i]!);
          const oracle = new Map(keys.map((k, i) => [k, sizes[i]!]));
          expect([...out]).toEqual(after.map((k) => oracle.get(k) ?? 0));
        },
      ),
    );
  });
});

describe('carryChunkedSizes', () => {
  it('equals carrySizes from the first insertion on, sharing the items before it (property)', () => {
    fc.assert(
      fc.property(
        // Past two 4,096-item chunks, mostly unmeasured (as drawn rows are).
        fc.integer({ min: 0, max: 9000 }),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 200 })), { maxLength: 60 }),
        fc.array(fc.nat(), { maxLength: 40 }),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 300 })), { maxLength: 20 }),
        (n, measured, inserts, later) => {
          const keys = Array.from({ length: n }, (_, i) => `k${i}`);
          const sizes = new Array<number>(n).fill(0);
          for (const [at, size] of measured) if (n > 0) sizes[at % n] = size;
          const after = [...keys];
          let first = n;
          inserts.forEach((at, k) => {
            const p = at % (after.length + 1);
            after.splice(p, 0, `new${k}`);
            first = Math.min(first, p);
          });
          const old = new ChunkedColumn(float32Chunk, n);
          sizes.forEach((s, i) => s !== 0 && old.set(i, s));
          const keyOf = (i: number) => after[i]!;
          const out = carryChunkedSizes(
            { sizes: old, keyOf: (i) => keys[i]! },
            first,
            after.length,
            keyOf,
          );
          const expected = [...carrySizes(keyed(keys, sizes), after.length, keyOf)];
          const read = (c: ChunkedColumn<Float32Array>) =>
            Array.from({ length: c.length }, (_, i) => c.get(i));
          expect(read(out)).toEqual(expected);
          // Sizes measured later in either stay in it.
          for (const [at, size] of later) {
            if (at % 2 === 0 && n > 0) {
              old.set(at % n, size);
              sizes[at % n] = size;
            } else if (after.length > 0) {
              out.set(at % after.length, size);
              expected[at % after.length] = size;
            }
          }
          expect(read(out)).toEqual(expected);
          expect(read(old)).toEqual(sizes);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('firstWindow', () => {
  it('draws the first rows, or the last ones at the end', () => {
    expect(firstWindow(1000, false)).toEqual([0, 29]);
    expect(firstWindow(1000, true)).toEqual([970, 999]);
    expect(firstWindow(10, true)).toEqual([0, 9]);
    expect(firstWindow(0, false)).toEqual([0, -1]);
    expect(firstWindow(100, false, 5)).toEqual([0, 4]);
  });
});

describe('alignOffset', () => {
  it('places a row at the start, centre or end, or leaves it where it is', () => {
    expect(alignOffset(1000, 40, 0, 400, 'start')).toBe(0);
    expect(alignOffset(1000, 40, 0, 400, 'center')).toBe(180);
    expect(alignOffset(1000, 40, 0, 400, 'end')).toBe(360);
    // auto: in view stays; above goes to the top; below to the bottom.
    expect(alignOffset(100, 40, 0, 400, 'auto')).toBe(100);
    expect(alignOffset(100, 40, 500, 400, 'auto')).toBe(0);
    expect(alignOffset(1000, 40, 0, 400, 'auto')).toBe(360);
    // A row taller than the viewport starts at the top.
    expect(alignOffset(1000, 900, 0, 400, 'center')).toBe(0);
  });
});

describe('rowScrollTop', () => {
  it('parks a row far outside the view when given the space', () => {
    const space = scrollSpace(40_000_000, 400);
    expect(rowScrollTop(5_000, 4_000, 100, space)).toBe(1_100);
    expect(rowScrollTop(30_000_000, 4_000, 100, space)).toBe(-1e6);
    expect(rowScrollTop(0, 4_000, 100, space)).toBe(-1e6);
    // Without a space it is plain arithmetic.
    expect(rowScrollTop(30_000_000, 4_000, 100)).toBe(30_000_000 - 3_900);
  });
});
