import { eventCompletedTime } from '../../src/core/events/event-time.js';
import {
  parseTimestamp,
  parseTimestampMs,
  timestampHadOffset,
  timestampMs,
} from '../../src/core/events/timestamp.js';
import { describe, expect, it } from 'vitest';
import { eventTime, importAny, parseEvent, type Event } from '../../src/index.js';

const base = Date.UTC(2026, 5, 10, 18, 23, 50);

describe('parseTimestamp', () => {
  const accepted: [string, number][] = [
    ['2026-06-10T18:23:50Z', base],
    ['2026-06-10T18:23:50z', base],
    ['2026-06-10T18:23:50+00:00', base],
    ['2026-06-10T14:23:50-04:00', base],
    ['2026-06-10T23:53:50+05:30', base],
    ['2026-06-10T13:23:50-0500', base],
    ['2026-06-10T20:23:50+02', base],
    ['2026-06-10 18:23:50Z', base],
    ['2026-06-10T18:23Z', Date.UTC(2026, 5, 10, 18, 23)],
    ['2026-06-10T18:23:50.1Z', base + 100],
    ['2026-06-10T18:23:50.12Z', base + 120],
    ['2026-06-10T18:23:50.123Z', base + 123],
    ['2026-06-10T18:23:50.1234Z', base + 123.4],
    ['2026-06-10T18:23:50.12345Z', base + 123.45],
    ['2026-06-10T18:23:50.198559+00:00', base + 198.559],
    ['2026-06-10T18:23:50.1234567Z', base + 123.4567],
    ['2026-06-10T18:23:50.12345678Z', base + 123.45678],
    ['2026-06-10T18:23:50.123456789Z', base + 123.456789],
    ['2026-06-10T18:23:50.1234567891234Z', base + 123.456789],
    ['2024-02-29T00:00:00Z', Date.UTC(2024, 1, 29)],
    ['2000-02-29T00:00:00Z', Date.UTC(2000, 1, 29)],
    ['1969-12-31T23:59:59.5Z', -500],
    ['0050-01-01T00:00:00Z', new Date('0050-01-01T00:00:00Z').getTime()],
  ];
  for (const [text, ms] of accepted) {
    it(`accepts ${text}`, () => expect(parseTimestamp(text)?.ms).toBeCloseTo(ms, 6));
  }

  it('reads runs of times in one minute as the parse does, offset flag included', () => {
    const m = '2026-03-02T10:04';
    const times = [
      `${m}:05.123Z`,
      '2026-01-01T00:00:00', // no offset, another layout: the minute kept stays
      `${m}:06.000Z`, // …and says it has one
      `${m}:59.999Z`,
      `${m}:60.000Z`,
      `${m}:61.000Z`,
      `${m}:07.5x0Z`,
      `${m}:07.500z`,
      `${m}:07.500`,
      `${m}:08.250`,
      `${m}:08.250+01:00`,
      `${m}:09.000Z`,
      '2026-03-02T10:05:00.001Z',
      '2026-03-02T10:05:01.002Z',
      `${m}:10.000Z`,
    ];
    const read = times.map((t) => [timestampMs(t), timestampHadOffset()]);
    const parsed = times.map((t) => [parseTimestampMs(t), timestampHadOffset()]);
    expect(read).toEqual(parsed);
    expect(read[2]).toEqual([Date.parse(`${m}:06.000Z`), true]);
    expect(read[4]![0]).toBe(Date.parse('2026-03-02T10:05:00.000Z'));
    expect(read[9]).toEqual([Date.parse(`${m}:08.250Z`), false]);
  });

  it('keeps microseconds that Date.parse loses', () => {
    const a = timestampMs('2026-06-10T18:23:50.198559+00:00');
    const b = timestampMs('2026-06-10T18:23:50.198560+00:00');
    // A double near 1.8e12 ms resolves 2^-12 ms (~0.24 µs): a microsecond survives.
    expect(b - a).toBeCloseTo(0.001, 3);
    expect(b).toBeGreaterThan(a);
  });

  it('reads a string without an offset as UTC and says so', () => {
    expect(parseTimestamp('2026-06-10T18:23:50')).toEqual({ ms: base, hasOffset: false });
    expect(parseTimestamp('2026-06-10T18:23:50Z')?.hasOffset).toBe(true);
  });

  const rejected = [
    '',
    'yesterday',
    '2026-06-10',
    '2026-13-01T00:00:00Z',
    '2026-02-29T00:00:00Z',
    '2026-04-31T00:00:00Z',
    '2026-06-10T24:00:00Z',
    '2026-06-10T18:60:00Z',
    '2026-06-10T18:23:61Z',
    '2026-06-10T18:23:50.Z',
    '2026-06-10T18:23:50ZZ',
    '2026-06-10T18:23:50+5',
    '2026-06-10T18:23:50+05:3',
    '2026-06-10X18:23:50Z',
    '2026/06/10T18:23:50Z',
  ];
  for (const text of rejected) {
    it(`rejects ${JSON.stringify(text)}`, () => {
      expect(parseTimestamp(text)).toBeUndefined();
      expect(timestampMs(text)).toBeNaN();
    });
  }
});

describe('eventTime / eventCompletedTime', () => {
  it('parsed events: the original string is kept and the time is derived', () => {
    const { event } = parseEvent({
      event: 'info',
      uuid: 'u',
      timestamp: '2026-06-10T14:23:50.5-04:00',
    });
    expect(event.timestamp).toBe('2026-06-10T14:23:50.5-04:00');
    expect(eventTime(event)).toBe(base + 500);
  });

  it('a timestamp without offset parses with a warning', () => {
    const { event, diagnostics } = parseEvent({
      event: 'info',
      uuid: 'u',
      timestamp: '2026-06-10T18:23:50',
    });
    expect(eventTime(event)).toBe(base);
    expect(diagnostics.map((d) => [d.code, d.severity, d.path])).toEqual([
      ['timestamp_no_offset', 'warning', '$.timestamp'],
    ]);
  });

  it('events built without the parser fall back to parsing their timestamp', () => {
    const literal: Event = { event: 'info', uuid: 'u', timestamp: '2026-06-10T18:23:50.25Z' };
    expect(eventTime(literal)).toBe(base + 250);
    expect(eventTime({ event: 'info', uuid: 'u', timestamp: 'nope' })).toBeNaN();
  });

  it('the stamped time is invisible to keys, symbols, JSON and spread, and no copy inherits it', () => {
    const { event } = parseEvent({ event: 'info', uuid: 'u', timestamp: '2026-06-10T18:23:50Z' });
    expect(eventTime(event)).toBe(base);
    expect(Object.keys(event)).toEqual(['event', 'uuid', 'timestamp']);
    expect(Object.getOwnPropertySymbols(event)).toEqual([]);
    expect(Reflect.ownKeys(event)).toEqual(Object.keys(event));
    expect(JSON.parse(JSON.stringify(event))).toEqual({ ...event });
    // A spread copy with another time reads its own time, not the original's stamp.
    const later: Event = { ...event, timestamp: '2026-06-10T18:23:51Z' };
    expect(eventTime(later)).toBe(base + 1000);
  });

  it('imported events read their stamped times, and drafts under one sink stay apart', async () => {
    const { events } = await importAny(
      [
        '{"type":"taskStart","task":"t","timestamp":"2026-06-10T18:23:50Z"}',
        '{"type":"success","result":"ok","timestamp":"2026-06-10T18:23:52.5Z"}',
      ].join('\n'),
      { format: 'agex' },
    );
    expect(events.length).toBeGreaterThan(0);
    for (const e of events) {
      expect(Object.isFrozen(e)).toBe(true);
      expect(eventTime(e)).toBe(timestampMs(e.timestamp));
      expect(Object.getOwnPropertySymbols(e)).toEqual([]);
    }
    expect(events.map((e) => eventTime(e))).toContain(base + 2500);
  });

  it('completed times of model, tool, sandbox and subtask events', () => {
    const { event } = parseEvent({
      event: 'tool',
      uuid: 'u',
      id: 'c',
      function: 'f',
      timestamp: '2026-06-10T18:23:50Z',
      completed: '2026-06-10T18:23:52.75Z',
    });
    expect(eventCompletedTime(event)).toBe(base + 2750);
    expect(
      eventCompletedTime(
        parseEvent({ event: 'info', uuid: 'u', timestamp: '2026-06-10T18:23:50Z' }).event,
      ),
    ).toBeUndefined();
  });
});
