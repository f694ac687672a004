import { describe, expect, it } from 'vitest';
import { parseEvents } from '../../src/index.js';
import { createEventsParser } from '../../src/core/events/parse.js';
import { generateRun } from '../../src/core/generate/generate-run.js';

// `createEventsParser` (the viewer's streaming open) parses a list pushed in
// pieces; `parseEvents` over the whole list is the oracle: same events
// (derived uuids, repaired timestamps), same capped diagnostics — unless a
// timestamp repair had to look past its piece, which it reports.

const fresh = (value: unknown): Record<string, unknown>[] =>
  JSON.parse(JSON.stringify(value)) as Record<string, unknown>[];

function whole(raw: unknown[]) {
  const { events, diagnostics } = parseEvents(raw, { path: '$.e', uuidSeed: 's', adopt: true });
  return { events, diagnostics };
}

function pieces(raw: unknown[], size: number) {
  const parser = createEventsParser({ path: '$.e', uuidSeed: 's', adopt: true });
  const events = [];
  for (let i = 0; i < raw.length; i += size) events.push(...parser.push(raw.slice(i, i + size)));
  return { events, diagnostics: parser.finish(), short: parser.shortLookAhead };
}

describe('createEventsParser', () => {
  it('gives parseEvents’ events and capped diagnostics, in any piece size', () => {
    const list = fresh(generateRun({ seed: 2, events: 700, pendingRate: 0 }));
    for (const [i, e] of list.entries()) {
      if (i % 2) delete e['uuid'];
      if (i > 0 && i % 50 === 0) delete e['timestamp'];
    }
    const oracle = whole(fresh(list));
    expect(oracle.diagnostics.some((d) => d.code === 'diagnostics_truncated')).toBe(true);
    for (const size of [1, 7, 500, 700]) {
      const got = pieces(fresh(list), size);
      expect(got.short).toBe(false);
      expect({ events: got.events, diagnostics: got.diagnostics }).toEqual(oracle);
    }
  });

  it('repairs a leading event from a later one within its piece', () => {
    const list = fresh(generateRun({ seed: 3, events: 40, pendingRate: 0 }));
    delete list[0]!['timestamp'];
    delete list[1]!['timestamp'];
    const got = pieces(fresh(list), 10);
    expect(got.short).toBe(false);
    expect(got.events).toEqual(whole(fresh(list)).events);
  });

  it('says when a repair looked past its piece', () => {
    const list = fresh(generateRun({ seed: 3, events: 40, pendingRate: 0 }));
    for (let i = 0; i < 12; i++) delete list[i]!['timestamp'];
    const got = pieces(fresh(list), 10);
    expect(got.short).toBe(true);
    // …where the whole list's repair found the 13th event's timestamp.
    expect(got.events[0]!.timestamp).not.toBe(whole(fresh(list)).events[0]!.timestamp);
  });

  it('names errors by their index in the whole list', () => {
    const list: unknown[] = fresh(generateRun({ seed: 4, events: 20, pendingRate: 0 }));
    list[13] = 42;
    const parser = createEventsParser({ path: '$.e' });
    parser.push(list.slice(0, 10));
    expect(() => parser.push(list.slice(10))).toThrow(/\$\.e\[13\]/);
  });
});
