// getSnapshot() is O(1) per change (issue 21): `latest` is made on first
// read. A snapshot read late must still show the projection of its moment.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EventStream, type Event } from '../../src/index.js';
import { latestOracle } from './helpers/latest-oracle.js';

const ev = (uuid: string, pending: boolean): Event =>
  ({
    event: 'model',
    uuid,
    timestamp: '2026-01-01T00:00:00Z',
    ...(pending ? { pending } : {}),
  }) as Event;

describe('EventStream snapshots', () => {
  it('a snapshot read after later appends shows the projection as of its length', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c', 'd'), fc.boolean()), { maxLength: 40 }),
        fc.array(fc.nat(40), { maxLength: 6 }),
        (ops, reads) => {
          const stream = new EventStream();
          const snaps: { length: number; latest: readonly Event[] }[] = [];
          ops.forEach(([uuid, pending], i) => {
            stream.append(ev(uuid, pending));
            if (reads.includes(i)) snaps.push(stream.getSnapshot());
          });
          const log = stream.toArray();
          for (const snap of snaps) {
            expect(snap.latest).toEqual(latestOracle(log.slice(0, snap.length)));
            expect(Object.isFrozen(snap.latest)).toBe(true);
            expect(snap.latest).toBe(snap.latest); // made once
          }
          expect(stream.getSnapshot().latest).toBe(stream.latest());
        },
      ),
    );
  });
});
