import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Event } from '../../src/core/events/types.js';
import { generateRun } from '../../src/core/generate/generate-run.js';
import { EventStream } from '../../src/core/stream/event-stream.js';
import { StringIndex } from '../../src/core/stream/string-index.js';
import { latestOracle } from './helpers/latest-oracle.js';

const T0 = '2026-06-10T18:23:50Z';

function info(uuid: string, pending?: boolean): Event {
  const event: Record<string, unknown> = { event: 'info', uuid, timestamp: T0, data: uuid };
  if (pending !== undefined) event.pending = pending;
  return event as unknown as Event;
}

describe('StringIndex', () => {
  it('numbers distinct keys densely in first-seen order', () => {
    const index = new StringIndex();
    expect(['a', 'b', 'a', 'c', 'b'].map((k) => index.findOrAdd(k))).toEqual([-1, -1, 0, -1, 1]);
    expect(index.size).toBe(3);
    expect([index.find('a'), index.find('b'), index.find('c'), index.find('d')]).toEqual([
      0, 1, 2, -1,
    ]);
  });

  it('keeps every key through many growths (100k keys, near-identical strings)', () => {
    const index = new StringIndex();
    const keys = Array.from({ length: 100_000 }, (_, i) => `evt-${i}`);
    const added = keys.filter((key) => index.findOrAdd(key) === -1).length;
    expect(added).toBe(keys.length);
    expect(keys.every((key, i) => index.find(key) === i)).toBe(true);
    expect(index.findOrAdd('evt-99999')).toBe(99_999);
    expect(index.find('evt-100000')).toBe(-1);
  });

  it('tells apart keys that differ only in non-ASCII code units, and equal strings built apart', () => {
    const index = new StringIndex();
    index.findOrAdd('é');
    index.findOrAdd('e\u0301');
    index.findOrAdd('😀');
    expect(index.find(['e', '\u0301'].join(''))).toBe(1);
    expect(index.find(String.fromCodePoint(0x1f600))).toBe(2);
    expect(index.find('\ud83d')).toBe(-1);
  });

  it('agrees with a Map on random key sequences', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ minLength: 1, maxLength: 4 }), { maxLength: 400 }),
        (keys) => {
          const index = new StringIndex();
          const map = new Map<string, number>();
          for (const key of keys) {
            const expected = map.get(key) ?? -1;
            if (expected < 0) map.set(key, map.size);
            expect(index.findOrAdd(key)).toBe(expected);
          }
          expect(index.size).toBe(map.size);
        },
      ),
    );
  });
});

describe('latest(): differential against the Map-indexed projection', () => {
  it('a generated run with pending copies, read once at the end and after every 997 appends', () => {
    const events = generateRun({ seed: 17, events: 20_000, pendingRate: 0.3 });
    const once = EventStream.from(events);
    expect(once.latest()).toEqual(latestOracle(events));
    const stepwise = new EventStream();
    for (let i = 0; i < events.length; i++) {
      stepwise.append(events[i]!);
      if (i % 997 === 0) expect(stepwise.latest()).toEqual(latestOracle(stepwise.toArray()));
    }
    expect(stepwise.latest()).toEqual(once.latest());
  });

  it('random streams of re-emitted, pending and final versions, read at random points', () => {
    const step = fc.record({
      uuid: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'),
      pending: fc.constantFrom(undefined, true, false),
      read: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        const stream = new EventStream();
        for (const { uuid, pending, read } of steps) {
          stream.append(info(uuid, pending));
          if (read) expect(stream.latest()).toEqual(latestOracle(stream.toArray()));
        }
        const latest = stream.latest();
        const oracle = latestOracle(stream.toArray());
        expect(latest.length).toBe(oracle.length);
        // Same objects, not only equal ones: the projection holds the appended versions.
        for (let i = 0; i < oracle.length; i++) expect(latest[i]).toBe(oracle[i]);
      }),
    );
  });
});
