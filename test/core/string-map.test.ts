// The importers' string-keyed index (src/core/import/string-map.ts) must
// answer as a `Map<string, V>` does, whatever the keys: colliding hashes,
// long keys that differ only in the middle, `__proto__`, tables that grew.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StringMap } from '../../src/core/import/string-map.js';

interface Op {
  op: 'get' | 'has' | 'set' | 'setIfAbsent';
  key: string;
  v: number;
}

/** Runs `ops` on a StringMap and a Map; every answer and the final values must agree. */
function agree(ops: Op[]): void {
  const mine = new StringMap<number>();
  const map = new Map<string, number>();
  for (const o of ops) {
    if (o.op === 'get') expect(mine.get(o.key)).toBe(map.get(o.key));
    else if (o.op === 'has') expect(mine.has(o.key)).toBe(map.has(o.key));
    else if (o.op === 'set') {
      mine.set(o.key, o.v);
      map.set(o.key, o.v);
    } else {
      const before = map.get(o.key);
      expect(mine.setIfAbsent(o.key, o.v)).toBe(before);
      if (before === undefined) map.set(o.key, o.v);
    }
    expect(mine.size).toBe(map.size);
  }
  expect([...mine.values()]).toEqual([...map.values()]);
}

describe('StringMap', () => {
  it('answers as a Map does for any sequence of operations', () => {
    // Few distinct keys (so keys repeat), some long, some empty.
    const key = fc.oneof(
      fc.string({ maxLength: 3 }),
      fc.constantFrom('', '__proto__', 'constructor', 'a'.repeat(300)),
      fc.nat(3000).map((n) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`),
    );
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({ op: fc.constantFrom('get' as const, 'has' as const), key, v: fc.constant(0) }),
      fc.record({ op: fc.constantFrom('set' as const, 'setIfAbsent' as const), key, v: fc.nat() }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 3000 }), (ops) => agree(ops)),
      { numRuns: 60 },
    );
  });

  it('keeps every key through growth, in insertion order', () => {
    const m = new StringMap<number>();
    const n = 50_000; // the table starts at 1,024 slots
    for (let i = 0; i < n; i++) expect(m.setIfAbsent(`uuid-${i}`, i)).toBeUndefined();
    expect(m.size).toBe(n);
    for (let i = 0; i < n; i += 997) expect(m.get(`uuid-${i}`)).toBe(i);
    expect(m.get('uuid-50000')).toBeUndefined();
    expect(m.setIfAbsent('uuid-7', -1)).toBe(7);
    m.set('uuid-7', 70);
    const values = [...m.values()];
    expect(values.length).toBe(n);
    expect(values[7]).toBe(70); // a key set again keeps its place
    expect(values[n - 1]).toBe(n - 1);
  });

  it('tells apart long keys whose hashed ends are the same', () => {
    // Keys over 256 code units hash their first and last 128 and their
    // length: these all hash alike, and must still be different keys.
    const m = new StringMap<number>();
    const head = 'h'.repeat(200);
    const tail = 't'.repeat(200);
    for (let i = 0; i < 500; i++) m.set(`${head}${String(i).padStart(4, '0')}${tail}`, i);
    expect(m.size).toBe(500);
    for (let i = 0; i < 500; i++)
      expect(m.get(`${head}${String(i).padStart(4, '0')}${tail}`)).toBe(i);
    expect(m.has(`${head}9999${tail}`)).toBe(false);
  });

  it('keeps `__proto__` and other Object.prototype names as plain keys', () => {
    const m = new StringMap<string>();
    expect(m.get('__proto__')).toBeUndefined();
    expect(m.has('toString')).toBe(false);
    m.set('__proto__', 'p');
    m.set('toString', 't');
    expect(m.get('__proto__')).toBe('p');
    expect(m.get('toString')).toBe('t');
    expect(({} as Record<string, unknown>)['p']).toBeUndefined();
  });
});
