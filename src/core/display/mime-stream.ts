/**
 * `mimeStream`: an in-process stream of canonical events and arbitrary values
 * as JSON-serializable records (agex's `mime_stream` design). Events become
 * plain objects; every other value
 * becomes a Jupyter `display_data` part built by `displayOf`.
 *
 * Every record satisfies `JSON.parse(JSON.stringify(r))` deep-equals `r`.
 * JSON cannot hold everything JavaScript can, so records are normalized the
 * way `JSON.stringify` would, except where it would throw:
 * - `NaN`, `Infinity`, `-Infinity` → `null` (as `JSON.stringify`; inspect
 *   reads a `null` score back as NaN, inspect_ai's `event/` models);
 * - `-0` → `0`;
 * - `undefined`, functions and symbols: dropped from objects, `null` in arrays;
 * - `bigint` → its decimal string (`JSON.stringify` throws on it);
 * - `toJSON()` is honoured (so a `Date` becomes its ISO string); one that
 *   throws becomes the string `"[toJSON threw: <message>]"` (a getter that
 *   throws, `"[getter threw: <message>]"`), so no key goes missing silently;
 * - a cycle → the string `"[Circular]"` (`JSON.stringify` throws on it);
 * - an object or array nested deeper than `MAX_VALUE_DEPTH` → the string
 *   `VALUE_CUT_MARKER` (`JSON.stringify` and structured clone overflow on it);
 * - symbol-keyed properties (skein's cached event times) are not data: dropped.
 * A value (not an event) is first shown through `displayOf`, so a bigint value
 * becomes `{'text/plain': '12n'}` and a Map a shape summary, not `{}`.
 */
import { MAX_VALUE_DEPTH, VALUE_CUT_MARKER, ownKeys } from '../events/freeze.js';
import type { Event } from '../events/types.js';
import { displayOf } from './display-of.js';
import type { DisplayOptions } from './types.js';
import { isAsyncIterable } from '../chunks.js';

/**
 * A JSON value with nothing JSON would lose.
 *
 * @example
 * const v: JsonSafe = { a: [1, 'x', null] };
 */
export type JsonSafe = string | number | boolean | null | JsonSafe[] | { [key: string]: JsonSafe };

/**
 * A Jupyter `display_data` output (nbformat v4), as `mimeStream` emits for a
 * value that is not an event.
 *
 * @example
 * const part: DisplayDataRecord = { output_type: 'display_data', data: { 'text/plain': '42' }, metadata: {} };
 */
export interface DisplayDataRecord {
  output_type: 'display_data';
  data: { [mime: string]: JsonSafe };
  metadata: { [key: string]: JsonSafe };
}

/**
 * An event as `mimeStream` emits it: the event's own fields as plain JSON.
 *
 * @example
 * const r: EventRecord = { event: 'info', uuid: 'u1', timestamp: '2026-06-10T18:24:26Z', data: 'hi' };
 */
export interface EventRecord {
  event: string;
  uuid: string;
  timestamp: string;
  [key: string]: JsonSafe;
}

/**
 * A record of {@link mimeStream}: an event as a plain JSON object (same fields
 * as the event, normalized as the module comment says) or a `display_data` part.
 * Tell them apart by `output_type` (events have none) or `event`.
 *
 * @example
 * declare const source: AsyncIterable<unknown>;
 * declare function send(line: string): void;
 * for await (const r of mimeStream(source)) send(JSON.stringify(r));
 */
export type MimeStreamRecord = EventRecord | DisplayDataRecord;

/**
 * Options of {@link mimeStream}.
 *
 * @example
 * mimeStream([{ rows: [1, 2, 3] }, 'done'], { display: { maxItems: 4 } });
 */
export interface MimeStreamOptions {
  /** Options for `displayOf` on values that are not events. */
  display?: DisplayOptions;
}

/**
 * Whether a value is a canonical event: an object with string `event`,
 * `uuid` and `timestamp` (the EventStream's own test).
 * @internal
 * @example
 * import { isCanonicalEvent } from 'src/core/display/mime-stream.js';
 * isCanonicalEvent({ event: 'info', uuid: 'u', timestamp: '2026-01-01T00:00:00Z' }); // true
 */
export function isCanonicalEvent(value: unknown): value is Event {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.event === 'string' && typeof v.uuid === 'string' && typeof v.timestamp === 'string'
  );
}

/** `[toJSON threw: boom]`: what stands in for a value that could not be read. */
function threw(what: string, err: unknown): string {
  let message: string;
  try {
    message = String(err instanceof Error ? err.message : err);
  } catch {
    message = 'unknown error';
  }
  return `[${what} threw: ${message.slice(0, 200)}]`;
}

/**
 * A copy of a value that survives `JSON.stringify`/`JSON.parse` unchanged
 * (the rules are in the module comment). Never throws.
 * @internal
 * @example
 * import { toJsonSafe } from 'src/core/display/mime-stream.js';
 * toJsonSafe({ n: NaN, b: 12n, u: undefined }); // { n: null, b: '12' }
 */
export function toJsonSafe(value: unknown): JsonSafe {
  const path = new Set<object>();
  // Depth-bounded: past MAX_VALUE_DEPTH a value is cut, as deepFreeze cuts
  // an event's, so a raw 100,000-deep object neither overflows this walk
  // nor the JSON.stringify that follows.
  const walk = (v: unknown, depth = 0): JsonSafe | undefined => {
    switch (typeof v) {
      case 'string':
      case 'boolean':
        return v;
      case 'number':
        return Number.isFinite(v) ? (Object.is(v, -0) ? 0 : v) : null;
      case 'bigint':
        return v.toString();
      case 'undefined':
      case 'function':
      case 'symbol':
        return undefined;
    }
    if (v === null) return null;
    const obj = v as object;
    if (path.has(obj)) return '[Circular]';
    if (depth > MAX_VALUE_DEPTH) return VALUE_CUT_MARKER;
    let toJSON: unknown;
    try {
      toJSON = (obj as { toJSON?: unknown }).toJSON;
    } catch (err) {
      return threw('toJSON', err);
    }
    if (typeof toJSON === 'function') {
      let replaced: unknown;
      try {
        replaced = toJSON.call(obj);
      } catch (err) {
        // A placeholder, not a silently missing key.
        return threw('toJSON', err);
      }
      if (replaced !== obj) {
        path.add(obj);
        try {
          return walk(replaced, depth);
        } finally {
          path.delete(obj);
        }
      }
    }
    path.add(obj);
    try {
      if (Array.isArray(obj)) {
        const out: JsonSafe[] = [];
        for (let i = 0; i < obj.length; i++) out.push(walk(obj[i], depth + 1) ?? null);
        return out;
      }
      const out: { [key: string]: JsonSafe } = {};
      for (const key of ownKeys(obj)) {
        let item: unknown;
        try {
          item = (obj as Record<string, unknown>)[key];
        } catch (err) {
          item = threw('getter', err);
        }
        const safe = walk(item, depth + 1);
        if (safe === undefined) continue;
        // `__proto__` as an own key must stay data, not become the prototype;
        // every other key is plain data on assignment (Object.prototype has
        // no other setter), and assignment is the cheaper at a million keys.
        if (key === '__proto__')
          Object.defineProperty(out, key, {
            value: safe,
            enumerable: true,
            writable: true,
            configurable: true,
          });
        else out[key] = safe;
      }
      return out;
    } finally {
      path.delete(obj);
    }
  };
  return walk(value) ?? null;
}

function toRecord(value: unknown, options: MimeStreamOptions): MimeStreamRecord {
  if (isCanonicalEvent(value)) return toJsonSafe(value) as unknown as EventRecord;
  const bundle = displayOf(value, options.display);
  return {
    output_type: 'display_data',
    data: toJsonSafe(bundle.data) as DisplayDataRecord['data'],
    metadata: toJsonSafe(bundle.metadata ?? {}) as DisplayDataRecord['metadata'],
  };
}

/**
 * Turns a stream of canonical events and arbitrary values (an agent's
 * prints, tables, images) into JSON-serializable records: events as plain
 * objects, values as `display_data` parts built by `displayOf`. A sync
 * iterable gives a sync generator, an async one an async generator; records
 * come out in input order, one per input item.
 *
 * @example
 * declare const infoEvent: InfoEvent;
 * declare const agent: { run(): AsyncIterable<unknown> };
 * declare const socket: WebSocket;
 * const records = [...mimeStream([infoEvent, { rows: [1, 2, 3] }, 'done'])];
 * records[1]; // { output_type: 'display_data', data: { 'text/plain': '{rows: number[]}\n…', … }, metadata: { skein: … } }
 * for await (const record of mimeStream(agent.run())) socket.send(JSON.stringify(record));
 */
export function mimeStream(
  raw: Iterable<unknown>,
  options?: MimeStreamOptions,
): Generator<MimeStreamRecord, void, undefined>;
export function mimeStream(
  raw: AsyncIterable<unknown>,
  options?: MimeStreamOptions,
): AsyncGenerator<MimeStreamRecord, void, undefined>;
export function mimeStream(
  raw: Iterable<unknown> | AsyncIterable<unknown>,
  options?: MimeStreamOptions,
): Generator<MimeStreamRecord, void, undefined> | AsyncGenerator<MimeStreamRecord, void, undefined>;
export function mimeStream(
  raw: Iterable<unknown> | AsyncIterable<unknown>,
  options: MimeStreamOptions = {},
):
  Generator<MimeStreamRecord, void, undefined> | AsyncGenerator<MimeStreamRecord, void, undefined> {
  if (isAsyncIterable(raw)) {
    return (async function* () {
      for await (const item of raw) yield toRecord(item, options);
    })();
  }
  return (function* () {
    for (const item of raw) yield toRecord(item, options);
  })();
}

/**
 * A recorded run as mime-stream records: each event as the plain JSON object
 * `mimeStream` writes for it (normalized as the module comment says), in
 * order, every version kept. skein's own JSON-portable form of a run (agex's
 * `mime_stream` design): write the records as JSON
 * Lines or a JSON array, and `importAny` (or `importAgex`, which also reads
 * `display_data` parts and agex events mixed in) gives the same events back.
 *
 * @example
 * const jsonl = toMimeStream(stream.toArray()).map((r) => JSON.stringify(r)).join('\n');
 * const { events } = await importAny(jsonl); // equal to the events written
 */
export function toMimeStream(events: Iterable<Event>): EventRecord[] {
  const out: EventRecord[] = [];
  for (const event of events) out.push(toJsonSafe(event) as unknown as EventRecord);
  return out;
}
