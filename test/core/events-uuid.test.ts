import { describe, expect, it } from 'vitest';
import { deriveEventUuid, parseEvents } from '../../src/index.js';

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
});
