// Canonical events: the types (inspect_ai's vocabulary plus skein's additions),
// the tolerant/strict parser, derived times and deep-freezing.
export * from './types.js';
export { parseEvent, parseEvents, KNOWN_EVENT_FIELDS } from './parse.js';
export type { ParseEventOptions, ParseEventResult, ParseEventsResult } from './parse.js';
export { eventTime, eventCompletedTime } from './event-time.js';
export { deepFreeze, cloneJson, MAX_VALUE_DEPTH, VALUE_CUT_MARKER } from './freeze.js';
export { parseTimestamp, timestampMs } from './timestamp.js';
export type { ParsedTimestamp } from './timestamp.js';
export { deriveEventUuid } from './uuid.js';
export {
  eventOutcome,
  eventStatus,
  eventError,
  eventEnd,
  eventEndTime,
  eventTokens,
  eventTotalTokens,
  eventCountedTokens,
  eventCost,
  isAbortedEvent,
  hasEndTime,
  isFailedEvent,
} from './outcome.js';
export type { EventOutcome, EventError } from './outcome.js';
export { events, createEventBuilders } from './builders.js';
export type { EventBuilders, EventBuilderOptions, EventInit } from './builders.js';
