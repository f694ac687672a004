// The hostile-shape corpus through every core layer (helpers/hostile-pipeline.ts),
// about half of the formats here and the rest in fuzz-hostile-2.test.ts
// (`HOSTILE_SECOND_FILE`: chosen by CPU cost), so that the full sizes run two
// files at a time. `npm test` runs the small sizes (seed 1);
// `npm run fuzz:hostile` the full ones (a new seed each run, printed on failure).
// A failure prints the command that replays it.
import { describe, expect, it } from 'vitest';
import {
  EventStream,
  describeEvent,
  displayOf,
  importAny,
  mimeStream,
  type Event,
} from '../../src/index.js';
import { HOSTILE_FORMATS, HOSTILE_SHAPES, hostileCase } from '../../src/core/generate/hostile.js';
import { toJsonSafe } from '../../src/core/display/mime-stream.js';
import {
  HOSTILE_RUN_FULL,
  HOSTILE_SEED,
  HOSTILE_SIZES,
  hostilePairs,
  prototypeSnapshot,
} from './helpers/hostile.js';
import { HOSTILE_SECOND_FILE, describeHostileFormats } from './helpers/hostile-pipeline.js';

/** The formats of this file: all but fuzz-hostile-2's. */
const FIRST_HALF = HOSTILE_FORMATS.filter((f) => !HOSTILE_SECOND_FILE.includes(f));

describeHostileFormats(FIRST_HALF, 'test/core/fuzz-hostile.test.ts');

describe(`the hostile corpus as a whole (seed ${HOSTILE_SEED})`, () => {
  const pairs = hostilePairs(HOSTILE_FORMATS, HOSTILE_SHAPES);

  it('has a case for every format and every shape', () => {
    // Each format expresses most shapes; each shape is expressed by some format.
    const formats = new Set(pairs.map(([f]) => f));
    const shapes = new Set(pairs.map(([, s]) => s));
    if (pairs.length < (HOSTILE_FORMATS.length * HOSTILE_SHAPES.length) / 2) return; // filtered run
    expect([...formats].sort()).toEqual([...HOSTILE_FORMATS].sort());
    expect([...shapes].sort()).toEqual([...HOSTILE_SHAPES].sort());
  });

  it('reports a value cut for depth once, with its count, and keeps the rest', async () => {
    const c = hostileCase('skein', 'deep-value', HOSTILE_SIZES, HOSTILE_SEED)!;
    const { events, diagnostics } = await importAny(c.input, { filename: c.filename });
    const cuts = diagnostics.filter((d) => d.code === 'value_too_deep');
    expect(cuts).toHaveLength(1);
    // Two values were cut (the message's content and the tool's result and
    // arguments): counted in the one diagnostic.
    expect(cuts[0]!.message).toMatch(/^3 values were nested more than 1000 levels deep/);
    const tool = events.find((e) => e.event === 'tool') as Event & { result: unknown };
    let depth = 0;
    let v: unknown = tool.result;
    while (typeof v === 'object' && v !== null) {
      v = Array.isArray(v) ? v[0] : (v as Record<string, unknown>)['d'];
      depth++;
    }
    expect(depth).toBe(1000);
    expect(v).toMatch(/^\[value_too_deep/);
    expect(JSON.stringify(events).length).toBeGreaterThan(0);
  });
});

describe('hostile values handed to the display layer directly (not imported)', () => {
  // What an agent framework passes to mimeStream or <Display value>: raw
  // JavaScript values, neither frozen nor cut. 100,000 levels: cheap to build.
  const deep = () => {
    let v: unknown = 'HOSTILE-LEAF';
    for (let i = 0; i < 100_000; i++) v = i % 2 ? [v] : { d: v };
    return v;
  };
  const cyclic = () => {
    const a: Record<string, unknown> = { name: 'a' };
    a['self'] = a;
    a['list'] = [a, { back: a }];
    return a;
  };
  const wide = () => {
    const o: Record<string, number> = {};
    for (let i = 0; i < HOSTILE_SIZES.keys; i++) o[`k${i}`] = i;
    return o;
  };
  const values: [string, () => unknown][] = [
    ['100,000 levels', deep],
    ['a cycle', cyclic],
    [`${HOSTILE_SIZES.keys} keys`, wide],
    [
      '__proto__ keys',
      () =>
        JSON.parse('{"__proto__": {"polluted": 1}, "constructor": {"prototype": {"polluted": 1}}}'),
    ],
  ];

  it.each(values)(
    '%s: displayOf, mimeStream, toJsonSafe, describeEvent, EventStream.append',
    (_, make) => {
      const before = prototypeSnapshot();
      const bundle = displayOf(make());
      expect(JSON.stringify(bundle).length).toBeGreaterThan(0);
      const records = [...mimeStream([make()])];
      expect(() => JSON.stringify(records)).not.toThrow();
      expect(() => structuredClone(toJsonSafe(make()))).not.toThrow();
      const event = { event: 'info', uuid: 'raw', timestamp: '2026-01-01T00:00:00Z', data: make() };
      void describeEvent(event as never).searchText;
      const stream = new EventStream();
      const kept = stream.append(event as never);
      // Appended: frozen, and (deep) cut, so it serializes like any event.
      expect(Object.isFrozen(kept)).toBe(true);
      if (make !== cyclic) expect(() => structuredClone(kept)).not.toThrow();
      expect(prototypeSnapshot()).toBe(before);
      expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    },
    // A million keys is walked by each layer in turn (every layer lists them):
    // seconds at full size on a loaded machine.
    HOSTILE_RUN_FULL ? 600_000 : undefined,
  );
});
