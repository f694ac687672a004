// jsonEqual: the iterative JSON equality importers reconcile with (the live
// OTLP importer compares each re-imported event with the version it handed out).
import { describe, expect, it } from 'vitest';
import { jsonEqual } from '../../src/core/import/json-equal.js';

/** `[[[…leaf…]]]`, `depth` arrays deep, built without recursion. */
function nested(depth: number, leaf: unknown): unknown {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = i % 2 === 0 ? [v] : { k: v };
  return v;
}

describe('jsonEqual', () => {
  it('compares values, arrays and objects by content', () => {
    expect(
      jsonEqual({ a: [1, 'x', null], b: { c: true } }, { b: { c: true }, a: [1, 'x', null] }),
    ).toBe(true);
    expect(jsonEqual({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
    expect(jsonEqual({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(jsonEqual([1], { 0: 1 })).toBe(false);
    expect(jsonEqual(Number.NaN, Number.NaN)).toBe(true);
  });

  it('walks a value nested 50,000 levels without overflowing the stack', () => {
    expect(jsonEqual(nested(50_000, 'leaf'), nested(50_000, 'leaf'))).toBe(true);
    expect(jsonEqual(nested(50_000, 'leaf'), nested(50_000, 'other'))).toBe(false);
  });

  it('counts values past its node budget as different (never walks without bound)', () => {
    expect(jsonEqual(nested(150_000, 'leaf'), nested(150_000, 'leaf'))).toBe(false);
  });
});
