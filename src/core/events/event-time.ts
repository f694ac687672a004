/**
 * Epoch-millisecond times of events, derived once at parse time.
 *
 * The wire keeps the ISO `timestamp` string as given (ARCHITECTURE.md
 * "Canonical events"); builders need numbers. The parser stores the number
 * under a non-enumerable symbol-keyed property, so `JSON.stringify`, spread
 * and `Object.keys` still see exactly the wire shape, and reading it is a
 * property load. Events made some other way (literals in tests, a generator)
 * fall back to parsing the string once, cached in a WeakMap.
 */
import type { Event } from './types.js';
import { timestampMs } from './timestamp.js';

// Symbol.for, not Symbol(): two copies of skein in one page (a library and an
// app bundling different versions) still read each other's stamps.
const EVENT_TIME: unique symbol = Symbol.for('skein.event.time') as never;

const startCache = new WeakMap<object, number>();
const completedCache = new WeakMap<object, number>();

// One reused descriptor: defineProperty is on the parser's hot path.
const descriptor: PropertyDescriptor = { value: 0 };

/**
 * Stamps the derived start time on an event that is not frozen yet (parser use).
 * Only the start time is stamped; `completed` is rarer and read lazily.
 * @internal
 * @example
 * import { stampEventTime } from 'src/core/events/event-time.js';
 * const draft = { event: 'info', uuid: 'u1', timestamp: '2024-01-01T00:00:01Z' };
 * stampEventTime(draft, 1704067201000);
 */
export function stampEventTime(event: object, ms: number): void {
  descriptor.value = ms;
  Object.defineProperty(event, EVENT_TIME, descriptor);
}

/**
 * The start time of an event in epoch milliseconds (fractional: microseconds
 * survive), derived from its ISO `timestamp`. `NaN` when the event has no
 * valid timestamp (only possible for events that did not come through
 * `parseEvent`).
 *
 * @example
 * const { event } = parseEvent({ event: 'info', timestamp: '2024-01-01T00:00:01.5Z' });
 * eventTime(event); // 1704067201500
 */
export function eventTime(event: Event): number {
  const stamped = (event as unknown as Record<symbol, unknown>)[EVENT_TIME];
  if (typeof stamped === 'number') return stamped;
  let ms = startCache.get(event);
  if (ms === undefined) {
    ms = typeof event.timestamp === 'string' ? timestampMs(event.timestamp) : Number.NaN;
    startCache.set(event, ms);
  }
  return ms;
}

/**
 * The end time of an event in epoch milliseconds, from its `completed` field
 * (model, tool, sandbox and subtask events, research/inspect_ai.md §1.3), or
 * `undefined` when it has none. Parsed on first use and cached per event.
 *
 * @example
 * const end = eventCompletedTime(toolEvent);
 * if (end !== undefined) end - eventTime(toolEvent); // duration in ms
 */
export function eventCompletedTime(event: Event): number | undefined {
  const completed = (event as { completed?: unknown }).completed;
  if (typeof completed !== 'string') return undefined;
  let ms = completedCache.get(event);
  if (ms === undefined) {
    ms = timestampMs(completed);
    completedCache.set(event, ms);
  }
  return Number.isNaN(ms) ? undefined : ms;
}
