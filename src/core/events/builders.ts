/**
 * Typed event builders: `events.model({...})`, `events.tool({...})`,
 * … one per known kind, and `events.unknown(kind, fields)` for a kind skein
 * does not know. Each fills the envelope (`uuid`, `timestamp`) and inspect's
 * defaults, checks the result with `parseEvent` (a JavaScript caller's wrong
 * types throw `ImportError` with the field's path) and returns it deep-frozen.
 *
 * The uuid source and the clock are injectable (`createEventBuilders`), so
 * tests and replays build the same events every time.
 */
import { SkeinError } from '../errors.js';
import { parseEvent } from './parse.js';
import { isEventKind, KNOWN_EVENT_KINDS } from './types.js';
import type { Event, EventKind, EventOfKind, UnknownEvent } from './types.js';

/** `T` without the keys `K`, keeping index signatures (unlike `Omit`). */
type Without<T, K extends PropertyKey> = { [P in keyof T as P extends K ? never : P]: T[P] };

/**
 * Fields a builder fills when they are omitted: inspect's defaults (its
 * `event/` models), or the empty value every real event of the kind has.
 */
interface DefaultedFields {
  sample_init: 'state';
  sample_limit: never;
  sandbox: never;
  state: never;
  store: never;
  model: 'input' | 'tools' | 'tool_choice' | 'config' | 'output';
  tool: 'type' | 'arguments' | 'result' | 'events';
  anchor: never;
  approval: never;
  branch: 'from_anchor';
  checkpoint: never;
  compaction: 'type';
  input: 'input_ansi';
  interrupt: never;
  score: 'intermediate';
  score_edit: never;
  error: never;
  logger: never;
  info: never;
  span_begin: never;
  span_end: never;
  step: never;
  subtask: 'input' | 'events';
  message: never;
  display: never;
}

/**
 * What a builder takes for a kind: the event's fields without `event`, with
 * `uuid`, `timestamp` and the kind's defaulted fields optional.
 *
 * @example
 * const init: EventInit<'tool'> = { id: 'call_1', function: 'bash', arguments: { cmd: 'ls' } };
 */
export type EventInit<K extends EventKind> = Without<
  EventOfKind<K>,
  'event' | 'uuid' | 'timestamp' | DefaultedFields[K]
> &
  Partial<
    Pick<EventOfKind<K>, Extract<'uuid' | 'timestamp' | DefaultedFields[K], keyof EventOfKind<K>>>
  >;

/**
 * The builders: one per known kind, plus `unknown`.
 *
 * @example
 * const builders: EventBuilders = createEventBuilders();
 * const e: ModelEvent = builders.model({ model: 'openai/gpt-5.4' });
 */
export type EventBuilders = {
  readonly [K in EventKind]: (init: EventInit<K>) => EventOfKind<K>;
} & {
  /**
   * An event of a kind skein does not know (kept and rendered generically).
   * Throws a `SkeinError` (`builder_known_kind`) for a known kind: use that kind's builder.
   */
  readonly unknown: (
    kind: string,
    fields?: { uuid?: string; timestamp?: string; [key: string]: unknown },
  ) => UnknownEvent;
};

/**
 * Options of {@link createEventBuilders}.
 *
 * @example
 * let n = 0;
 * const b = createEventBuilders({ uuid: () => `e${n++}`, now: () => '2026-01-01T00:00:00Z' });
 */
export interface EventBuilderOptions {
  /** The uuid of an event built without one. Default: a random 22-character id like inspect's. */
  uuid?: () => string;
  /** The time of an event built without a timestamp (ISO string, `Date` or epoch ms). Default: now. */
  now?: () => string | Date | number;
}

// shortuuid's alphabet, as inspect's ids (and events/uuid.ts).
const ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** A random 22-character id (about 128 bits), from `crypto.getRandomValues` where present. */
function randomUuid(): string {
  const bytes = new Uint8Array(22);
  const c = (globalThis as { crypto?: { getRandomValues?(a: Uint8Array): Uint8Array } }).crypto;
  if (c?.getRandomValues) c.getRandomValues(bytes);
  else for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
  let out = '';
  // 256 % 57 bias is small and harmless for identity (not a secret).
  for (const b of bytes) out += ALPHABET[b % 57];
  return out;
}

function iso(time: string | Date | number): string {
  if (typeof time === 'string') return time;
  return (typeof time === 'number' ? new Date(time) : time).toISOString();
}

/**
 * Builders with their own uuid source and clock.
 *
 * @example
 * let n = 0;
 * const b = createEventBuilders({ uuid: () => `e${n++}`, now: () => 0 });
 * b.info({ data: 'hi' }); // { event: 'info', uuid: 'e0', timestamp: '1970-01-01T00:00:00.000Z', data: 'hi' }
 */
export function createEventBuilders(options: EventBuilderOptions = {}): EventBuilders {
  const uuid = options.uuid ?? randomUuid;
  const now = options.now ?? (() => new Date());
  const build = (kind: string, fields: Record<string, unknown> = {}): Event => {
    const draft: Record<string, unknown> = { ...fields, event: kind };
    if (typeof draft.uuid !== 'string') draft.uuid = uuid();
    if (typeof draft.timestamp !== 'string') draft.timestamp = iso(now());
    // Real logs give a span's own events `span_id === id` (inspect_ai's `span()`).
    if ((kind === 'span_begin' || kind === 'span_end') && draft.span_id === undefined)
      draft.span_id = draft.id;
    // parseEvent fills the omitted defaults (its `default_filled` notes are
    // the builder's contract, not problems) and throws on wrong types.
    return parseEvent(draft).event;
  };
  const out: Record<string, unknown> = {};
  for (const kind of KNOWN_EVENT_KINDS) {
    out[kind] = (init: Record<string, unknown>) => build(kind, init);
  }
  out.unknown = (kind: string, fields?: Record<string, unknown>) => {
    if (typeof kind !== 'string' || kind === '') throw new SkeinError('builder_empty_kind');
    if (isEventKind(kind)) throw new SkeinError('builder_known_kind', kind);
    return build(kind, fields);
  };
  return Object.freeze(out) as EventBuilders;
}

/**
 * Typed event builders with a random uuid and the current time: one per known
 * kind (`events.model`, `events.tool`, `events.span_begin`, …) and
 * `events.unknown(kind, fields)`. Each returns a canonical, deep-frozen event
 * ready for `EventStream.append`. Use {@link createEventBuilders} to inject
 * ids and a clock.
 *
 * @example
 * stream.append(events.tool({ id: 'call_1', function: 'bash', arguments: { cmd: 'ls' }, result: 'a.txt' }));
 * stream.append(events.model({ model: 'openai/gpt-5.4', pending: true }));
 */
export const events: EventBuilders = createEventBuilders();
