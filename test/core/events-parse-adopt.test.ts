import { describe, expect, it } from 'vitest';
import { eventTime, parseEvents, type Event } from '../../src/index.js';
import { generateRun } from '../../src/core/generate/generate-run.js';
import { wireSamples } from './event-samples.js';

// `parseEvents(raw, { adopt: true })` (what the inspect importer uses) makes
// each raw event object its output event instead of copying it. The copying
// path is the oracle: both must give the same events, key order, derived
// times, diagnostics and errors.

/** Fresh JSON values, as an importer's JSON.parse would hand them over. */
const fresh = (value: unknown): unknown[] => JSON.parse(JSON.stringify(value)) as unknown[];

function outcome(raw: unknown[], adopt: boolean) {
  try {
    const { events, diagnostics } = parseEvents(raw, { path: '$.events', uuidSeed: 's', adopt });
    return {
      json: events.map((e) => JSON.stringify(e)),
      keys: events.map((e) => Object.keys(e).join()),
      times: events.map((e) => eventTime(e)),
      diagnostics,
    };
  } catch (e) {
    const error = e as { code?: string; path?: string; message: string };
    return { error: [error.code, error.path, error.message] };
  }
}

function expectSameAsCopy(list: unknown): void {
  expect(outcome(fresh(list), true)).toEqual(outcome(fresh(list), false));
}

const T = '2026-06-10T18:23:50.198559+00:00';
const samples = Object.values(wireSamples);

describe('parseEvents { adopt: true } against the copying path', () => {
  it.each<[string, unknown[]]>([
    ['every wire sample', samples],
    [
      'events missing their required fields',
      samples.map((s) => ({ event: s.event, uuid: s.uuid, timestamp: s.timestamp })),
    ],
    [
      'required fields null',
      [{ event: 'model', uuid: 'm', timestamp: T, input: null, model: null }],
    ],
    [
      'missing timestamps and uuids (repaired from neighbours, derived)',
      [{ event: 'info' }, { event: 'info', timestamp: T }, { event: 'span_end', span_id: 's' }],
    ],
    ['unknown kinds and fields', [{ event: 'future', timestamp: T, uuid: 'f', extra: { a: [1] } }]],
    ['integer-like keys', [{ event: 'info', timestamp: T, uuid: 'i', 2: 'b', 1: 'a', z: 0 }]],
    [
      'a wrong type (error)',
      [
        { event: 'info', timestamp: T, uuid: 'w' },
        { event: 'model', timestamp: T, uuid: 'x', input: 'no' },
      ],
    ],
    ['a bad timestamp (error)', [{ event: 'info', timestamp: 'yesterday', uuid: 'w' }]],
  ])('%s', (_name, list) => expectSameAsCopy(list));

  it('a generated run (a few thousand events of every kind)', () => {
    expectSameAsCopy(generateRun({ seed: 9, events: 3_000, pendingRate: 0.2 }));
  });

  it('keeps a JSON "__proto__" key as data', () => {
    const text = `[{"event":"info","timestamp":"${T}","uuid":"p","__proto__":{"x":1}}]`;
    const adopted = parseEvents(JSON.parse(text) as unknown[], { adopt: true }).events[0]!;
    const copied = parseEvents(JSON.parse(text) as unknown[]).events[0]!;
    expect(Object.keys(adopted)).toEqual(['event', 'timestamp', 'uuid', '__proto__']);
    expect(JSON.stringify(adopted)).toBe(JSON.stringify(copied));
    expect(Object.getPrototypeOf(adopted)).toBe(Object.prototype);
  });

  it('the raw objects become the events, deep-frozen', () => {
    const raw = fresh([{ event: 'info', timestamp: T, uuid: 'a', data: { rows: [1] } }]);
    const [event] = parseEvents(raw, { adopt: true }).events as [Event];
    expect(event).toBe(raw[0]);
    expect(Object.isFrozen(event)).toBe(true);
    expect(Object.isFrozen((event as unknown as { data: { rows: unknown[] } }).data.rows)).toBe(
      true,
    );
  });

  it('copies a frozen raw event, and ignores adopt with { copy: true }', () => {
    const frozen = Object.freeze({ event: 'info', timestamp: T, uuid: 'f' });
    expect(parseEvents([frozen], { adopt: true }).events[0]).not.toBe(frozen);
    const raw = fresh([{ event: 'info', timestamp: T, uuid: 'c' }]);
    expect(parseEvents(raw, { adopt: true, copy: true }).events[0]).not.toBe(raw[0]);
    expect(Object.isFrozen(raw[0])).toBe(false);
  });
});
