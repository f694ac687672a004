import { deriveEventUuid } from '../../src/core/events/uuid.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseEvents } from '../../src/index.js';
import { uuidDeriver } from '../../src/core/events/uuid.js';

// Old logs (research/inspect_ai.md §1.2: none of the 43 events of the 0.3.95
// browser.json has a uuid) and the timeline fixtures arrive without uuids.
const noUuids = () => [
  { event: 'span_begin', id: 'init', name: 'init', timestamp: '2025-05-12T20:27:36.1-04:00' },
  { event: 'info', data: 'same', timestamp: '2025-05-12T20:27:36.2-04:00' },
  { event: 'info', data: 'same', timestamp: '2025-05-12T20:27:36.2-04:00' },
  { event: 'span_end', id: 'init', timestamp: '2025-05-12T20:27:36.3-04:00' },
];

describe('deterministic uuids', () => {
  it('look like inspect’s 22-character shortuuids', () => {
    expect(deriveEventUuid('x')).toMatch(/^[23456789A-HJ-NP-Za-km-z]{22}$/);
  });

  it('are stable across imports of the same data', () => {
    const a = parseEvents(noUuids(), { path: '$.samples[0].events' }).events.map((e) => e.uuid);
    const b = parseEvents(noUuids(), { path: '$.samples[0].events' }).events.map((e) => e.uuid);
    expect(a).toEqual(b);
  });

  it('are pinned (a change to the rule is a breaking change for deep links)', () => {
    expect(deriveEventUuid('')).toBe(deriveEventUuid(''));
    const { events } = parseEvents(noUuids(), { path: '$.samples[0].events' });
    expect(events[0]?.uuid).toBe(
      deriveEventUuid(
        '$.samples[0].events[0]\u0000span_begin\u00002025-05-12T20:27:36.1-04:00\u0000id=init\u0000name=init\u0000',
      ),
    );
  });

  it('are distinct across events, even identical ones at different positions', () => {
    const uuids = parseEvents(noUuids()).events.map((e) => e.uuid);
    expect(new Set(uuids).size).toBe(uuids.length);
  });

  it('differ between samples and between seeds', () => {
    const s0 = parseEvents(noUuids(), { path: '$.samples[0].events' }).events[1]?.uuid;
    const s1 = parseEvents(noUuids(), { path: '$.samples[1].events' }).events[1]?.uuid;
    const seeded = parseEvents(noUuids(), { path: '$.samples[0].events', uuidSeed: 'other-run' })
      .events[1]?.uuid;
    expect(new Set([s0, s1, seeded]).size).toBe(3);
  });

  it('are reported as info diagnostics naming the derived id', () => {
    const { events, diagnostics } = parseEvents(noUuids());
    const derived = diagnostics.filter((d) => d.code === 'uuid_derived');
    expect(derived.map((d) => d.path)).toEqual([
      '$[0].uuid',
      '$[1].uuid',
      '$[2].uuid',
      '$[3].uuid',
    ]);
    expect(derived[0]?.message).toContain(events[0]?.uuid);
  });

  it('an existing uuid is never replaced', () => {
    const { events, diagnostics } = parseEvents([
      { event: 'info', uuid: 'keep-me', timestamp: '2024-01-01T00:00:00Z' },
    ]);
    expect(events[0]?.uuid).toBe('keep-me');
    expect(diagnostics).toEqual([]);
  });

  it('spread well: 20k keys, no collisions', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 20_000; i++) seen.add(deriveEventUuid(`$.events[${i}]`));
    expect(seen.size).toBe(20_000);
  });

  it('keep the values of the first version (pinned, and against it as an oracle)', () => {
    expect(deriveEventUuid('')).toBe('fRAK7kSDA4UevCvXkbMimF');
    expect(deriveEventUuid('x')).toBe('9nawiXybwh6LMJyXXGMtSd');
    expect(deriveEventUuid('acp\u0000$[12]')).toBe('t7DMr82kPyjFmiCpW5a7uD');
    expect(deriveEventUuid('é漢字\u{1F600}')).toBe('QV9k8vkQuQVvxK7KQ4cv6J');
    expect(deriveEventUuid('a'.repeat(1000))).toBe('PDuesvSRh2xjYC92mrL9dz');
    fc.assert(
      fc.property(codeUnits, (key) => {
        expect(deriveEventUuid(key)).toBe(firstVersion(key));
      }),
      { numRuns: 200 },
    );
  });

  it('under a prefix hashed once, equal the ids of the joined keys (the importers’ seeds)', () => {
    const acp = uuidDeriver('acp\u0000');
    expect(acp('$[12]')).toBe('t7DMr82kPyjFmiCpW5a7uD');
    expect(uuidDeriver('')('x')).toBe('9nawiXybwh6LMJyXXGMtSd');
    fc.assert(
      fc.property(codeUnits, codeUnits, (prefix, key) => {
        expect(uuidDeriver(prefix)(key)).toBe(firstVersion(prefix + key));
      }),
      { numRuns: 200 },
    );
  });
});

// Any UTF-16 code units, lone surrogates included.
const codeUnits = fc
  .array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 40 })
  .map((units) => String.fromCharCode(...units));

// The first implementation (one character appended at a time), kept as the
// oracle of the rewrite that builds one flat string.
function firstVersion(key: string): string {
  const ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
  const fmix32 = (h: number) => {
    h ^= h >>> 16;
    h = Math.imul(h, 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
    return h >>> 0;
  };
  let h1 = 0x9e3779b9;
  let h2 = 0x243f6a88;
  let h3 = 0xb7e15162;
  let h4 = 0x85a308d3;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    h3 = Math.imul(h3 ^ c, 0x27d4eb2f);
    h4 = Math.imul(h4 ^ c, 0x165667b1);
  }
  const lanes = [fmix32(h1 ^ key.length), fmix32(h2 ^ h1), fmix32(h3 ^ h2), fmix32(h4 ^ h3)];
  let out = '';
  for (const lane of lanes) {
    let v = lane;
    for (let k = 0; k < 5; k++) {
      const d = v % 57;
      out += ALPHABET[d];
      v = (v - d) / 57;
    }
  }
  let v = fmix32(lanes[0]! ^ Math.imul(lanes[2]!, 31) ^ lanes[3]!) % (57 * 57);
  out += ALPHABET[v % 57];
  v = (v - (v % 57)) / 57;
  out += ALPHABET[v];
  return out;
}
