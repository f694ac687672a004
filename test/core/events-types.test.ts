import { INSPECT_EVENT_KINDS } from '../../src/core/events/types.js';
import { describe, expect, it } from 'vitest';
import {
  KNOWN_EVENT_KINDS,
  isEvent,
  isEventKind,
  isEventOfKind,
  isKnownEvent,
  events,
  type Event,
} from '../../src/index.js';

describe('kind lists', () => {
  it('inspect kinds are in inspect’s union order (research/inspect_ai.md §1.3)', () => {
    expect(INSPECT_EVENT_KINDS[0]).toBe('sample_init');
    expect(INSPECT_EVENT_KINDS.at(-1)).toBe('subtask');
  });

  it('known kinds are inspect’s plus message and display, without duplicates', () => {
    expect(KNOWN_EVENT_KINDS.slice(23)).toEqual(['message', 'display']);
    expect(new Set(KNOWN_EVENT_KINDS).size).toBe(KNOWN_EVENT_KINDS.length);
  });
});

describe('kind guards', () => {
  const tool: Event = {
    event: 'tool',
    uuid: 'u',
    timestamp: '2024-01-01T00:00:00Z',
    type: 'function',
    id: 'c',
    function: 'f',
    arguments: {},
    result: '',
    events: [],
  };
  const unknown: Event = events.unknown('future', { uuid: 'u', timestamp: '2024-01-01T00:00:00Z' });

  it('isEventKind knows the 25 kinds only', () => {
    expect(isEventKind('tool')).toBe(true);
    expect(isEventKind('display')).toBe(true);
    expect(isEventKind('future')).toBe(false);
  });

  it('isKnownEvent / isEventOfKind narrow', () => {
    expect(isKnownEvent(tool) && tool.event === 'tool' ? tool.function : undefined).toBe('f');
    expect(isKnownEvent(unknown)).toBe(false);
    expect(isEventOfKind(tool, 'tool')).toBe(true);
    expect(isEventOfKind(tool, 'model')).toBe(false);
  });
});

describe('isEvent', () => {
  it('accepts the canonical envelope and rejects anything else', () => {
    expect(isEvent({ event: 'x', uuid: 'u', timestamp: '2024-01-01T00:00:00Z' })).toBe(true);
    expect(isEvent({ event: 'x', timestamp: '2024-01-01T00:00:00Z' })).toBe(false);
    expect(isEvent({ event: 'x', uuid: 'u' })).toBe(false);
    expect(isEvent([])).toBe(false);
    expect(isEvent(null)).toBe(false);
    expect(isEvent('event')).toBe(false);
  });
});
