import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildEventTree,
  createEventTreeBuilder,
  generateRun,
  type Event,
} from '../../src/index.js';
import { Prng } from '../../src/core/generate/prng.js';
import { UuidIndex, sampledKey } from '../../src/core/tree/incremental.js';
import { hashKey } from '../../src/core/tree/links.js';
import {
  begin,
  dumpTree,
  end,
  info,
  latestVersions,
  liveFeed,
  malformedRun,
  wellFormedRun,
} from './helpers/tree-oracle.js';

// The incremental builder places events without looking their uuids up until
// one repeats, checks them in bulk before a snapshot, and hashes uuids of 16
// characters or more from a sample (incremental.ts). These tests aim at those
// paths: repeats found in bulk or one by one, samples that collide, and the
// fallback to whole hashes.

/**
 * `uuid` lengthened so that every id of up to 12 characters has the same
 * length, first two and last six characters: their sampled hashes are all
 * equal, so every lookup compares strings.
 */
const colliding = (uuid: string) => `ev${uuid.padStart(12, '_')}000000`;

/** The same events under {@link colliding} uuids. */
const withCollidingUuids = (arrivals: readonly Event[]): Event[] =>
  arrivals.map((e) => ({ ...e, uuid: colliding(e.uuid) }) as Event);

/** A 22-character random id from `rng` (inspect's shortuuid alphabet). */
function shortUuid(rng: Prng): string {
  const alphabet = '23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
  let id = '';
  for (let k = 0; k < 22; k++) id += alphabet[rng.uint32() % 57];
  return id;
}

/** A random UUID4-shaped id from `rng`. */
function uuid4(rng: Prng): string {
  const hex = (n: number) =>
    Array.from({ length: n }, () => (rng.uint32() % 16).toString(16)).join('');
  return `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`;
}

/** Registers `uuids` one by one; the slot found for each (-1: new). */
function findOrAddAll(index: UuidIndex, slots: Event[], uuids: readonly string[]): number[] {
  return uuids.map((uuid) => {
    const slot = slots.length;
    const found = index.findOrAdd(uuid, index.hash(uuid), slot, slots);
    if (found === -1) slots.push(info(uuid));
    return found;
  });
}

describe('sampledKey', () => {
  it('hashes ids shorter than 16 characters whole', () => {
    for (const id of ['', 'a', 'u12', 'toolu_0123', '123456789012345']) {
      expect(sampledKey(id)).toBe(hashKey(id));
    }
  });

  it('reads the length, the first two and the last six characters of longer ids', () => {
    const a = 'AB' + 'x'.repeat(20) + '123456';
    expect(sampledKey(a)).toBe(sampledKey('AB' + 'y'.repeat(20) + '123456'));
    expect(sampledKey(a)).not.toBe(sampledKey('AC' + 'x'.repeat(20) + '123456'));
    expect(sampledKey(a)).not.toBe(sampledKey('AB' + 'x'.repeat(20) + '123457'));
    expect(sampledKey(a)).not.toBe(sampledKey('AB' + 'x'.repeat(19) + '123456'));
    expect(sampledKey(42)).toBe(0);
  });
});

describe('UuidIndex', () => {
  it('keeps sampled hashes for random shortuuids and UUIDs, in bulk and one by one', () => {
    const rng = new Prng(7);
    for (const make of [shortUuid, uuid4]) {
      const uuids = Array.from({ length: 60_000 }, () => make(rng));
      const bulk = new UuidIndex();
      const slots = uuids.map((u) => info(u));
      uuids.forEach((u, s) => bulk.setHash(s, bulk.hash(u)));
      expect(bulk.addRange(0, slots.length, slots)).toBe(false);
      expect(bulk.whole).toBe(false);

      const single = new UuidIndex();
      const placed: Event[] = [];
      expect(findOrAddAll(single, placed, uuids).every((s) => s === -1)).toBe(true);
      expect(single.whole).toBe(false);
      expect(findOrAddAll(single, placed, uuids)).toEqual(uuids.map((_, s) => s));
    }
  });

  it('goes over to whole hashes when sampled ones cluster (one by one), and still finds every uuid', () => {
    const uuids = Array.from({ length: 20_000 }, (_, k) => colliding(`n${k}`));
    const index = new UuidIndex();
    const slots: Event[] = [];
    expect(findOrAddAll(index, slots, uuids).every((s) => s === -1)).toBe(true);
    expect(index.whole).toBe(true);
    expect(index.size).toBe(20_000);
    expect(findOrAddAll(index, slots, uuids)).toEqual(uuids.map((_, s) => s));
    expect(index.hashOf(123)).toBe(hashKey(uuids[123]));
  });

  it('goes over to whole hashes when sampled ones cluster (in bulk), and still finds repeats', () => {
    const uuids = Array.from({ length: 20_000 }, (_, k) => colliding(`n${k}`));
    const slots = uuids.map((u) => info(u));
    const index = new UuidIndex();
    uuids.forEach((u, s) => index.setHash(s, index.hash(u)));
    expect(index.addRange(0, slots.length, slots)).toBe(false);
    expect(index.whole).toBe(true);
    // A repeat among later slots, added in bulk or one by one.
    const again = new UuidIndex();
    const twice = [...slots, info(uuids[19_999]!)];
    twice.forEach((e, s) => again.setHash(s, again.hash(e.uuid)));
    expect(again.addRange(0, twice.length, twice)).toBe(true);
    const later = new UuidIndex();
    uuids.forEach((u, s) => later.setHash(s, later.hash(u)));
    expect(later.addRange(0, 15_000, slots)).toBe(false);
    const more = [...slots.slice(0, 16_000), info(uuids[3]!)];
    for (let s = 15_000; s < more.length; s++) later.setHash(s, later.hash(more[s]!.uuid));
    expect(later.addRange(15_000, more.length, more)).toBe(true);
  });

  it('goes over to whole hashes in the middle of a range added one by one', () => {
    const rng = new Prng(11);
    const uuids = [
      ...Array.from({ length: 20_000 }, () => shortUuid(rng)),
      ...Array.from({ length: 9_000 }, (_, k) => colliding(`r${k}`)),
    ];
    const slots = uuids.map((u) => info(u));
    const index = new UuidIndex();
    for (let s = 0; s < 20_000; s++) index.setHash(s, index.hash(uuids[s]));
    expect(index.addRange(0, 20_000, slots)).toBe(false);
    expect(index.whole).toBe(false);
    for (let s = 20_000; s < uuids.length; s++) index.setHash(s, index.hash(uuids[s]));
    expect(index.addRange(20_000, uuids.length, slots)).toBe(false);
    expect(index.whole).toBe(true);
    expect(index.size).toBe(uuids.length);
    const placed = slots.slice();
    expect(findOrAddAll(index, placed, [uuids[5]!, uuids[28_999]!, uuids[20_001]!])).toEqual([
      5, 28_999, 20_001,
    ]);
  });

  it('reports no repeat among distinct uuids whose samples collide (strings compared)', () => {
    // Few enough to stay below the clustering limit: sampled hashes are kept.
    const uuids = Array.from({ length: 80 }, (_, k) => colliding(`c${k}`));
    const slots = uuids.map((u) => info(u));
    const index = new UuidIndex();
    uuids.forEach((u, s) => index.setHash(s, index.hash(u)));
    expect(index.addRange(0, 50, slots)).toBe(false);
    expect(index.addRange(50, 80, slots)).toBe(false);
    expect(index.whole).toBe(false);
    expect(index.size).toBe(80);
    const placed = slots.slice();
    expect(findOrAddAll(index, placed, [uuids[79]!, uuids[0]!, colliding('c80')])).toEqual([
      79, 0, -1,
    ]);
  });
});

describe('createEventTreeBuilder: uuid checks', () => {
  it('over random feeds whose uuid samples all collide (property)', () =>
    fc.assert(
      fc.property(
        fc.oneof(
          wellFormedRun.chain((events) => liveFeed(events)),
          malformedRun.chain((events) => liveFeed(events, true)),
        ),
        fc.array(fc.nat(60), { maxLength: 4 }),
        (feed, cuts) => {
          const arrivals = withCollidingUuids(feed);
          const builder = createEventTreeBuilder();
          // Snapshots after a few random prefixes: each checks what came since the last.
          const at = new Set(cuts);
          for (let k = 0; k < arrivals.length; k++) {
            builder.append(arrivals[k]!);
            if (at.has(k)) {
              const expected = buildEventTree(latestVersions(arrivals.slice(0, k + 1)));
              expect(dumpTree(builder.getSnapshot())).toEqual(dumpTree(expected));
            }
          }
          const expected = buildEventTree(latestVersions(arrivals));
          expect(dumpTree(builder.getSnapshot())).toEqual(dumpTree(expected));
          expect(builder.size).toBe(latestVersions(arrivals).length);
        },
      ),
      { numRuns: 300 },
    ));

  it('finds a repeat after many clean snapshots, checked in bulk and one by one', () => {
    const run = generateRun({ seed: 3, events: 6000, pendingRate: 0 });
    const builder = createEventTreeBuilder();
    // 1,000 first (checked in bulk), then batches of 100 (checked one by one).
    builder.appendAll(run.slice(0, 1000));
    expect(builder.size).toBe(1000);
    for (let k = 1000; k < run.length; k += 100) {
      builder.appendAll(run.slice(k, k + 100));
      expect(builder.size).toBe(k + 100);
      expect(builder.getSnapshot().length).toBe(buildEventTree(run.slice(0, k + 100)).length);
    }
    // The final version of an early event again, changed; a stale pending copy; the same object.
    const at = run.findIndex((e, k) => k > 5 && e.event === 'model');
    const resent = { ...run[at]!, metadata: { resent: true } } as Event;
    builder.appendAll([resent, { ...run[20]!, pending: true } as Event, run[30]!]);
    const arrivals = [...run, resent, { ...run[20]!, pending: true } as Event, run[30]!];
    expect(builder.size).toBe(run.length);
    expect(builder.getSnapshot().events).toContain(resent);
    expect(builder.getSnapshot().events).not.toContain(run[at]);
    expect(dumpTree(builder.getSnapshot())).toEqual(
      dumpTree(buildEventTree(latestVersions(arrivals))),
    );
    // From now on every uuid is looked up as it arrives.
    const more = generateRun({ seed: 4, events: 700, pendingRate: 0.3 });
    builder.appendAll(more);
    expect(dumpTree(builder.getSnapshot())).toEqual(
      dumpTree(buildEventTree(latestVersions([...arrivals, ...more]))),
    );
  });

  it('hashes whole mid-chunk once looking up one by one, and misses no repeat', () => {
    // One repeat first, so the builder looks every uuid up as it arrives;
    // then uuids whose samples collide, enough to cluster within one chunk,
    // then each of them again (final after pending).
    const first = info('e0');
    const pending = Array.from({ length: 3000 }, (_, k) =>
      info(colliding(`p${k}`), undefined, { pending: true }),
    );
    const final = pending.map((e) => info(e.uuid, undefined, { data: 'final' }));
    const arrivals = [first, first, ...pending, ...final];
    const builder = createEventTreeBuilder({ events: [first, first] });
    expect(builder.size).toBe(1);
    builder.appendAll(arrivals.slice(2));
    expect(builder.size).toBe(3001);
    expect(builder.getSnapshot().events.slice(1)).toEqual(final);
    expect(dumpTree(builder.getSnapshot())).toEqual(
      dumpTree(buildEventTree(latestVersions(arrivals))),
    );
  });

  it('deduplicates with whole hashes after its bulk check went over to them', () => {
    const events = Array.from({ length: 5000 }, (_, k) =>
      k % 50 === 0
        ? begin(colliding(`b${k}`), `s${k}`)
        : info(colliding(`i${k}`), `s${k - (k % 50)}`),
    );
    const builder = createEventTreeBuilder({ events });
    expect(builder.size).toBe(5000);
    expect(dumpTree(builder.getSnapshot())).toEqual(dumpTree(buildEventTree(events)));
    const resent = [
      info(colliding('i4999'), 's4950', { data: 'again' }),
      end(colliding('x'), 's0'),
    ];
    builder.appendAll(resent);
    expect(builder.size).toBe(5001);
    expect(dumpTree(builder.getSnapshot())).toEqual(
      dumpTree(buildEventTree(latestVersions([...events, ...resent]))),
    );
  });
});
