/**
 * Epoch-millisecond times of events, derived once at parse time.
 *
 * The wire keeps the ISO `timestamp` string as given (ARCHITECTURE.md
 * "Canonical events"); builders need numbers. The parser stores the number in
 * a private slot on the event (a class private field, see {@link EventSlots}),
 * so `JSON.stringify`, spread, `Object.keys`, symbols and proxies still see
 * exactly the wire shape, and reading it is a property load. Events made some
 * other way (literals in tests, a generator, a second copy of skein in the
 * page, which has its own slots) fall back to parsing the string once, cached
 * in a WeakMap.
 */
import type { Event } from './types.js';
import { timestampMs } from './timestamp.js';

const startCache = new WeakMap<object, number>();
const completedCache = new WeakMap<object, number>();

// A subclass constructor can put private fields on any object when its base
// constructor returns that object: the standard idiom for such a brand.
class Returns {
  constructor(target: object) {
    return target as Returns;
  }
}

/** An event's start time, in a private field (see {@link EventSlots}). */
class TimeSlot extends Returns {
  #time: number;

  constructor(target: object, time: number) {
    super(target);
    this.#time = time;
  }

  static set(event: object, ms: number): void {
    if (#time in event) (event as TimeSlot).#time = ms;
    else new TimeSlot(event, ms);
  }

  static get(event: object): number | undefined {
    return #time in event ? (event as TimeSlot).#time : undefined;
  }
}

/** Which importer draft an event is, in private fields (see {@link EventSlots}). */
class DraftSlot extends Returns {
  #owner: number;
  #index: number;

  constructor(target: object, owner: number, index: number) {
    super(target);
    this.#owner = owner;
    this.#index = index;
  }

  static set(draft: object, owner: number, index: number): void {
    if (#owner in draft) {
      const slot = draft as DraftSlot;
      slot.#owner = owner;
      slot.#index = index;
    } else new DraftSlot(draft, owner, index);
  }

  static indexIn(draft: object, owner: number): number {
    return #owner in draft && (draft as DraftSlot).#owner === owner
      ? (draft as DraftSlot).#index
      : -1;
  }
}

/**
 * Private slots on an event object: its start time in milliseconds (what
 * {@link eventTime} reads), and, while an importer builds it, which draft it
 * is (an `EventSink`'s id and state index, so the sink's `touch`/`close` are
 * property loads).
 *
 * Private fields, not a symbol-keyed property: `Object.defineProperty` of a
 * non-enumerable symbol per event was a runtime call and a property-array
 * allocation, a third of the least an import can cost (one frozen event per
 * record: 3.45× `JSON.parse` at 100k defect records, 2.9× with these slots).
 * A private field is added like any property through an inline cache, and is
 * invisible to `Object.keys`, JSON, spread, `getOwnPropertySymbols` and
 * proxies. The time and the draft brand are fields of two classes, so a
 * parsed event carries only its time (one field, as the symbol was). A
 * WeakMap cost a third of the sink's time (an ephemeron per entry for the
 * collector).
 * @internal
 */
export const EventSlots = {
  /**
   * Stamps the derived start time on `event` (not frozen yet the first time).
   *
   * @example
   * import { EventSlots } from 'src/core/events/event-time.js';
   * const draft = { event: 'info', uuid: 'u1', timestamp: '2024-01-01T00:00:01Z' };
   * EventSlots.stamp(draft, 1704067201000);
   */
  stamp(event: object, ms: number): void {
    TimeSlot.set(event, ms);
  },

  /**
   * The stamped time of `event`, or `undefined` when it has none (an event
   * whose time did not parse holds `NaN`: read as unstamped, so a parse of
   * the string decides).
   *
   * @example
   * import { EventSlots } from 'src/core/events/event-time.js';
   * EventSlots.time({ event: 'info' }); // undefined
   */
  time(event: object): number | undefined {
    const ms = TimeSlot.get(event);
    return ms === ms ? ms : undefined;
  },

  /**
   * Brands `draft` (not frozen the first time) as state `index` of sink `owner`
   * (a positive number).
   *
   * @example
   * import { EventSlots } from 'src/core/events/event-time.js';
   * const draft = { event: 'info', uuid: 'u1', timestamp: '' };
   * EventSlots.mark(draft, 1, 0);
   * EventSlots.indexIn(draft, 1); // 0
   */
  mark(draft: object, owner: number, index: number): void {
    DraftSlot.set(draft, owner, index);
  },

  /**
   * The state index `draft` was branded with by sink `owner`, or -1.
   *
   * @example
   * import { EventSlots } from 'src/core/events/event-time.js';
   * EventSlots.indexIn({ event: 'info' }, 1); // -1
   */
  indexIn(draft: object, owner: number): number {
    return DraftSlot.indexIn(draft, owner);
  },
};

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
  EventSlots.stamp(event, ms);
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
  const stamped = EventSlots.time(event);
  if (stamped !== undefined) return stamped;
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
