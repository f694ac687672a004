// schema/events.schema.json is generated from src/core/events/types.ts by
// scripts/gen-schema.mjs and checked in. This test regenerates it in memory:
// when the types change without `npm run schema`, it fails.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { KNOWN_EVENT_KINDS, parseEvent, parseEvents } from '../../src/index.js';
import { renderEventSchema, schemaFile } from '../../scripts/gen-schema.mjs';
import { wireSamples } from './event-samples.js';
import { checkSchema } from './json-schema-check.js';

const checkedIn = readFileSync(schemaFile, 'utf8');
const schema = JSON.parse(checkedIn) as Record<string, unknown>;

describe('events.schema.json', () => {
  it('is up to date with src/core/events/types.ts (run `npm run schema`)', () => {
    expect(renderEventSchema()).toBe(checkedIn);
  }, 60_000);

  it('defines every known kind with its discriminator', () => {
    const definitions = schema.definitions as Record<
      string,
      { properties?: { event?: { const?: string } } }
    >;
    const kinds = Object.values(definitions)
      .map((d) => d.properties?.event?.const)
      .filter((k): k is string => typeof k === 'string');
    expect(kinds.sort()).toEqual([...KNOWN_EVENT_KINDS].sort());
  });

  for (const kind of KNOWN_EVENT_KINDS) {
    it(`a parsed ${kind} event validates`, () => {
      const { event } = parseEvent(wireSamples[kind]);
      expect(checkSchema(schema, JSON.parse(JSON.stringify(event)))).toEqual([]);
    });
  }

  it('minimal events validate once their defaults are filled', () => {
    const { events } = parseEvents([
      {
        event: 'model',
        model: 'm',
        timestamp: '2024-01-01T00:00:00Z',
        output: { usage: { input_tokens: 1 } },
      },
      { event: 'tool', id: 'c', function: 'f', timestamp: '2024-01-01T00:00:01Z' },
      { event: 'span_end', span_id: 's', timestamp: '2024-01-01T00:00:02Z' },
      { event: 'future_kind', timestamp: '2024-01-01T00:00:03Z', anything: [1] },
    ]);
    for (const event of events)
      expect(checkSchema(schema, JSON.parse(JSON.stringify(event)))).toEqual([]);
  });

  it('rejects an event without uuid and timestamp', () => {
    expect(checkSchema(schema, { event: 'tool', uuid: 'u' })).not.toEqual([]);
  });
});
