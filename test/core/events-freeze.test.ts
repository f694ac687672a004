import { cloneJson, cloneJsonSharingFrozen, ownKeys } from '../../src/core/events/freeze.js';
import { describe, expect, it } from 'vitest';
import { MAX_VALUE_DEPTH, VALUE_CUT_MARKER, deepFreeze } from '../../src/index.js';

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

  it('cuts nesting deeper than MAX_VALUE_DEPTH with a marker, without overflowing the stack', () => {
    let deep: Record<string, unknown> = {};
    const root = deep;
    for (let i = 0; i < 100_000; i++) {
      const next = {};
      deep.next = next;
      deep = next;
    }
    deepFreeze(root);
    let node: unknown = root;
    let levels = 0;
    while (typeof node === 'object' && node !== null) {
      expect(Object.isFrozen(node)).toBe(true);
      node = (node as Record<string, unknown>).next;
      levels++;
    }
    // Levels 0…MAX_VALUE_DEPTH kept, the next one cut.
    expect(levels).toBe(MAX_VALUE_DEPTH + 1);
    expect(node).toBe(VALUE_CUT_MARKER);
    expect(JSON.stringify(root).length).toBeGreaterThan(0);
    expect(() => structuredClone(root)).not.toThrow();
  });

  it('keeps a value exactly MAX_VALUE_DEPTH deep whole, and an own "__proto__" key as data', () => {
    // root (0) → arrays (1…998) → the object (999) → its array (1000): kept.
    const nested = (arrays: number) => {
      let value: unknown = JSON.parse('{"__proto__": [1]}');
      for (let i = 0; i < arrays; i++) value = [value];
      return value;
    };
    const root = { v: nested(MAX_VALUE_DEPTH - 2) };
    deepFreeze(root);
    let node: unknown = root.v;
    for (let i = 0; i < MAX_VALUE_DEPTH - 2; i++) node = (node as unknown[])[0];
    expect(Object.getPrototypeOf(node)).toBe(Object.prototype);
    expect((node as Record<string, unknown>)['__proto__']).toEqual([1]);
    // One level more: the own "__proto__" key itself is cut, and stays data.
    const deeper = { v: nested(MAX_VALUE_DEPTH - 1) };
    deepFreeze(deeper);
    node = deeper.v;
    for (let i = 0; i < MAX_VALUE_DEPTH - 1; i++) node = (node as unknown[])[0];
    expect(Object.isFrozen(node)).toBe(true);
    expect(Object.getOwnPropertyDescriptor(node, '__proto__')?.value).toBe(VALUE_CUT_MARKER);
    expect(Object.getPrototypeOf(node)).toBe(Object.prototype);
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

  it.each([199, 200, 201, 100_000])(
    'copies a %i-level nesting of arrays and objects without overflowing the stack',
    (depth) => {
      let value: unknown = { leaf: [1, { x: 2 }] };
      for (let i = 0; i < depth; i++) value = i % 2 ? [value, i] : { next: value, i };
      const copy = cloneJson(value);
      let a = value as Record<string, unknown>;
      let b = copy as Record<string, unknown>;
      let shared = 0; // levels where the copy is the original (plain checks: expect() walks deep values)
      for (let i = depth - 1; i >= 0; i--) {
        if (a === b || a[i % 2 ? 1 : 'i'] !== b[i % 2 ? 1 : 'i']) shared++;
        const key = i % 2 ? 0 : 'next';
        a = a[key] as Record<string, unknown>;
        b = b[key] as Record<string, unknown>;
      }
      expect(shared).toBe(0);
      expect(b).toEqual({ leaf: [1, { x: 2 }] });
      expect(b['leaf']).not.toBe(a['leaf']);
    },
  );

  it('keeps a JSON "__proto__" key as data at any depth, without touching prototypes', () => {
    let value: unknown = JSON.parse('{"__proto__": {"polluted": true}}');
    for (let i = 0; i < 500; i++) value = [value];
    let copy = cloneJson(value) as unknown;
    for (let i = 0; i < 500; i++) copy = (copy as unknown[])[0];
    expect(Object.keys(copy as object)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

describe('cloneJsonSharingFrozen', () => {
  it.each([3, 300])('shares frozen values and copies the rest, %i levels down', (depth) => {
    const frozen = deepFreeze({ f: [1] });
    let value: Record<string, unknown> = { frozen, open: { o: [2] } };
    for (let i = 0; i < depth; i++) value = { next: value };
    const bottom = (v: Record<string, unknown>) => {
      let shared = 0; // levels where the copy is the original (plain checks: expect() walks deep values)
      for (let i = 0; i < depth; i++) {
        if (v === value) shared++;
        v = v['next'] as Record<string, unknown>;
      }
      return { v, shared };
    };
    const copy = cloneJsonSharingFrozen(value);
    expect(JSON.stringify(copy)).toBe(JSON.stringify(value));
    const { v: b, shared } = bottom(copy);
    expect(shared).toBe(0);
    const a = bottom(value).v;
    expect(b['frozen']).toBe(frozen);
    expect(b['open']).not.toBe(a['open']);
    expect((b['open'] as { o: unknown[] }).o).not.toBe((a['open'] as { o: unknown[] }).o);
    // cloneJson copies frozen values too (a caller's may be frozen only at the top).
    expect(bottom(cloneJson(value)).v['frozen']).not.toBe(frozen);
  });
});

describe('deepFreeze: recursion and the stack fallback', () => {
  // Below a few hundred levels deepFreeze recurses, deeper it switches to an
  // explicit stack; both must freeze everything, once, whatever the shape.
  function chain(depth: number, leaf: object): Record<string, unknown> {
    let node: Record<string, unknown> = { leaf, list: [leaf, { leaf }] };
    for (let i = 0; i < depth; i++) node = { next: node, list: [i, { i }] };
    return node;
  }

  function everyObject(root: unknown, out: object[] = [], seen = new Set<object>()): object[] {
    const stack: unknown[] = [root];
    while (stack.length > 0) {
      const v = stack.pop();
      if (typeof v !== 'object' || v === null || seen.has(v) || ArrayBuffer.isView(v)) continue;
      seen.add(v);
      out.push(v);
      for (const child of Object.values(v)) stack.push(child);
    }
    return out;
  }

  it.each([1, 199, 200, 201, 1_000, 50_000])(
    'freezes every object of a %i-level tree with a shared leaf',
    (depth) => {
      const shared = { text: 'shared', parts: [{ a: 1 }] };
      const root = chain(depth, shared);
      deepFreeze(root);
      expect(everyObject(root).every((v) => Object.isFrozen(v))).toBe(true);
    },
  );

  it('terminates on a cycle below the recursion depth', () => {
    const bottom: Record<string, unknown> = {};
    const root = chain(500, bottom);
    bottom.back = root;
    bottom.self = bottom;
    deepFreeze(root);
    expect(Object.isFrozen(bottom)).toBe(true);
  });

  it('leaves typed arrays alone at any depth', () => {
    const bytes = new Uint8Array([1]);
    const root = chain(300, { bytes });
    deepFreeze(root);
    expect(Object.isFrozen(bytes)).toBe(false);
    expect(everyObject(root).every((v) => Object.isFrozen(v))).toBe(true);
  });
});

describe('ownKeys', () => {
  const wide = (n: number) => {
    const o: Record<string, number> = {};
    for (let i = 0; i < n; i++) o[`k${i}`] = i;
    return o;
  };

  it('lists a large frozen object once, and small or unfrozen ones each time', () => {
    const big = Object.freeze(wide(10_000));
    expect(ownKeys(big)).toEqual(Object.keys(big));
    expect(ownKeys(big)).toBe(ownKeys(big));
    const open = wide(10_000);
    expect(ownKeys(open)).toEqual(Object.keys(open));
    expect(ownKeys(open)).not.toBe(ownKeys(open));
    // Keys added to an unfrozen object show on the next listing.
    open['late'] = 1;
    expect(ownKeys(open).at(-1)).toBe('late');
    const small = Object.freeze(wide(3));
    expect(ownKeys(small)).toEqual(['k0', 'k1', 'k2']);
    expect(ownKeys(small)).not.toBe(ownKeys(small));
  });
});
