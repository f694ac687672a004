// Every event of every public timeline fixture (inspect_ai + inspect_scout,
// research/inspect_ai.md §3.9) and of the monolith .json logs parses into a
// canonical event. The fixtures give only a few fields per event, so this is
// where the tolerant half of the parser is exercised on real data.
import { expect, it } from 'vitest';
import {
  KNOWN_EVENT_KINDS,
  eventTime,
  isEventOfKind,
  isKnownEvent,
  parseEvents,
  type Event,
} from '../../src/index.js';
import { describeFixtures, listFixtures, readFixture } from './fixtures.js';

const decoder = new TextDecoder();
const readJson = (file: string): unknown => JSON.parse(decoder.decode(readFixture(file)));

/** Checks that hold for every parsed event list. */
function checkEvents(raw: Record<string, unknown>[], events: readonly Event[]): void {
  expect(events).toHaveLength(raw.length);
  const uuids = new Set<string>();
  events.forEach((event, i) => {
    const wire = raw[i] as Record<string, unknown>;
    expect(event.event).toBe(wire.event);
    expect(isKnownEvent(event)).toBe(true);
    expect(Object.isFrozen(event)).toBe(true);
    // Every wire field survives (nested values may only gain filled defaults).
    for (const [key, value] of Object.entries(wire)) {
      const parsed = (event as Record<string, unknown>)[key];
      if (value === null) continue;
      if (typeof value === 'object') expect(parsed).toMatchObject(value);
      else expect(parsed).toBe(value);
    }
    if (typeof wire.uuid === 'string') expect(event.uuid).toBe(wire.uuid);
    expect(Number.isFinite(eventTime(event))).toBe(true);
    uuids.add(event.uuid);
  });
  // Fixtures reuse nothing; derived uuids never collide with given ones.
  expect(uuids.size).toBe(events.length);
}

describeFixtures('canonical events: timeline fixtures', () => {
  const files = listFixtures('inspect_ai/timeline-events', '.json');

  it('finds the 46 fixtures', () => expect(files).toHaveLength(46));

  for (const file of files) {
    it(file, () => {
      const fixture = readJson(file) as { events: Record<string, unknown>[] };
      const { events, diagnostics } = parseEvents(fixture, { uuidSeed: file });
      checkEvents(fixture.events, events);
      // Repairs are info-level defaults: no fixture lacks a timestamp or has a bad one.
      expect(diagnostics.filter((d) => d.severity !== 'info')).toEqual([]);
      for (const [i, event] of events.entries()) {
        const wire = fixture.events[i] as {
          id?: string;
          span_id?: string;
          output?: { model?: string };
        };
        // §1.6: a span_end given only its span_id closes that span.
        if (isEventOfKind(event, 'span_end') && wire.id === undefined)
          expect(event.id).toBe(wire.span_id);
        // An output without a model is the event's model's output.
        if (isEventOfKind(event, 'model'))
          expect(event.output.model).toBe(wire.output?.model ?? event.model);
      }
    });
  }

  it('the fixtures together cover the kinds they use, and re-parsing is stable', () => {
    const seen = new Set<string>();
    for (const file of files) {
      const fixture = readJson(file);
      const a = parseEvents(fixture, { uuidSeed: file }).events;
      const b = parseEvents(readJson(file), { uuidSeed: file }).events;
      expect(b.map((e) => e.uuid)).toEqual(a.map((e) => e.uuid));
      for (const e of a) seen.add(e.event);
    }
    expect([...seen].sort()).toEqual(['branch', 'info', 'model', 'span_begin', 'span_end', 'tool']);
    expect([...seen].every((k) => (KNOWN_EVENT_KINDS as readonly string[]).includes(k))).toBe(true);
  });
});

describeFixtures('canonical events: monolith .json logs', () => {
  const logs = listFixtures('inspect_ai/logs', '.json');

  it('finds the .json logs', () => {
    expect(logs.length).toBeGreaterThan(0);
  });

  let checked = 0;
  for (const file of logs) {
    it(file, () => {
      // NaN/Infinity tokens (§1.1) are the log importer's business; these two files have none.
      const log = readJson(file) as { samples?: { events?: Record<string, unknown>[] }[] };
      const samples = log.samples ?? [];
      samples.forEach((sample, s) => {
        // A messages-only sample (log_tool_call_error.json) has no events to parse.
        if (!sample.events) return;
        const { events, diagnostics } = parseEvents(sample.events, {
          path: `$.samples[${s}].events`,
        });
        checkEvents(sample.events, events);
        // 0.3.95 logs carry local offsets and no uuids (§1.2): derived, reported as info.
        expect(diagnostics.every((d) => d.severity === 'info')).toBe(true);
        checked++;
      });
    });
  }

  it('parsed the events of at least one sample', () => {
    // Runs after the per-file tests (declaration order): a folder of logs
    // without any events would otherwise pass with no assertion at all.
    expect(checked).toBeGreaterThan(0);
  });
});
