import { describe, expect, it } from 'vitest';
import { cloneJson, deepFreeze } from '../../src/index.js';

describe('deepFreeze', () => {
  it('freezes every nested object and array and returns its argument', () => {
    const value = { a: [{ b: { c: [1] } }], d: 'x' };
    expect(deepFreeze(value)).toBe(value);
    expect(
      [value, value.a, value.a[0], value.a[0]?.b, value.a[0]?.b.c].every((v) => Object.isFrozen(v)),
    ).toBe(true);
  });

  it('passes primitives and null through', () => {
    expect(deepFreeze(3)).toBe(3);
    expect(deepFreeze(null)).toBe(null);
    expect(deepFreeze('s')).toBe('s');
  });

  it('terminates on cycles and shares frozen sub-trees', () => {
    const a: Record<string, unknown> = {};
    const b = { a };
    a.b = b;
    deepFreeze(a);
    expect(Object.isFrozen(b)).toBe(true);
  });

  it('skips typed arrays, which cannot be frozen', () => {
    const value = { bytes: new Uint8Array([1, 2]) };
    deepFreeze(value);
    expect(Object.isFrozen(value)).toBe(true);
    expect(Object.isFrozen(value.bytes)).toBe(false);
  });

  it('handles nesting deeper than the call stack', () => {
    let deep: Record<string, unknown> = {};
    const root = deep;
    for (let i = 0; i < 100_000; i++) {
      const next = {};
      deep.next = next;
      deep = next;
    }
    deepFreeze(root);
    expect(Object.isFrozen(deep)).toBe(true);
  });
});

describe('cloneJson', () => {
  it('copies objects and arrays deeply and shares nothing mutable', () => {
    const value = { a: [{ b: 1 }], s: 'x' };
    const copy = cloneJson(value);
    expect(copy).toEqual(value);
    expect(copy.a).not.toBe(value.a);
    expect(copy.a[0]).not.toBe(value.a[0]);
  });
});
