// JSON guards shared by every importer: typed field readers that know the JSON
// path of what they read, and one context that collects diagnostics (capped per
// code) and counts invented values. No importer hand-rolls validation
// ("the shared parts first").
//
// Wire data lies (a field's declared type is no promise): a field present with the
// wrong type is, for the lenient readers, a `wrong_type` *diagnostic* and reads
// as absent, so one odd field never loses a whole session. The `require*`
// readers throw an `ImportError` instead, for the few fields without which a
// record means nothing.
//
// Paths are built only when something is reported: readers take the record's
// base path and the key, and call `jsonPath` on the slow path alone.
import {
  ImportError,
  errorMessage,
  jsonPath,
  truncatedDiagnostic,
  type Diagnostic,
  type ErrorCode,
  type errorMessages,
} from '../errors.js';
import { MAX_VALUE_DEPTH, cloneJson, deepFreezeCounting } from '../events/freeze.js';

/** A JSON object as parsed: string keys, unknown values. */
export type JsonRecord = Record<string, unknown>;

/**
 * True for a plain JSON object (not null, not an array).
 *
 * @example
 * isRecord({ a: 1 }); // true
 * isRecord([1]); // false
 */
export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A short name of a JSON value's type for messages: `null`, `array`, `object`,
 * `string`, `number`, `boolean`, `undefined`.
 *
 * @example
 * import { typeName } from './guards.js';
 * typeName([]); // 'array'
 */
export function typeName(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

/**
 * The value when it is a string, else `undefined`: how importers read an
 * optional text field of untrusted JSON.
 *
 * @example
 * import { stringOf } from './guards.js';
 * stringOf(42); // undefined
 */
export function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/**
 * Reads an own property without walking the prototype chain, so a JSON key
 * such as `constructor` or `__proto__` reads as data (or as absent), never as
 * `Object.prototype`'s member.
 *
 * @example
 * own({}, 'constructor'); // undefined
 */
export function own(record: JsonRecord, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

/** What an importer had to make up: reported once per file, and flagged on the event. */
export type InventedValue = 'timestamp' | 'uuid' | 'id' | 'end';

/**
 * Options every importer takes.
 *
 * @example
 * declare const text: string;
 * importAcp(text, { maxDiagnosticsPerCode: 20, uuidSeed: 'session-7' });
 */
export interface ImportOptions {
  /**
   * At most this many diagnostics per code are listed; the rest are counted
   * in one `diagnostics_truncated` diagnostic per code. Default 100.
   */
  maxDiagnosticsPerCode?: number;
  /** Mixed into derived uuids so equal positions in different files differ. Default: the format id. */
  uuidSeed?: string;
  /**
   * Where synthesized times start, for formats without timestamps (ISO
   * string). Default `1970-01-01T00:00:00.000Z`, so invented times are
   * recognisable at a glance.
   */
  baseTime?: string;
  /** The input's file name, when known (used in detection and titles). */
  filename?: string;
}

/**
 * The diagnostics sink and field readers of one import. Create one per file
 * (or per incremental importer), report through it, and call
 * {@link ImportContext.finish} once at the end.
 *
 * @example
 * const ctx = new ImportContext({ maxDiagnosticsPerCode: 10 });
 * const record: JsonRecord = { id: 'a1', name: 42 };
 * const name = ctx.string(record, 'name', '$[3]'); // undefined + a diagnostic if not a string
 * const id = ctx.requireString(record, 'id', '$[3]'); // throws ImportError if absent
 * const diagnostics = ctx.finish();
 */
export class ImportContext {
  readonly #diagnostics: Diagnostic[] = [];
  // Made on first use: a live receiver holds a context per run (thousands),
  // most of which never report anything.
  #counts: Map<ErrorCode, number> | undefined;
  #invented: Map<InventedValue, { count: number; path: string }> | undefined;
  readonly #max: number;
  #cut: { count: number; first: string } | undefined;
  #finished: Diagnostic[] | null = null;

  constructor(options: ImportOptions = {}) {
    this.#max = options.maxDiagnosticsPerCode ?? 100;
  }

  /** Records a diagnostic whose message comes from the catalogue. */
  report<C extends ErrorCode>(
    severity: Diagnostic['severity'],
    path: string,
    code: C,
    ...details: Parameters<(typeof errorMessages)[C]>
  ): void {
    const counts = (this.#counts ??= new Map());
    const n = (counts.get(code) ?? 0) + 1;
    counts.set(code, n);
    if (n > this.#max) return;
    this.#finished = null;
    this.#diagnostics.push({ code, severity, message: errorMessage(code, ...details), path });
  }

  /** {@link report} with severity `warning`: a repair that may change meaning. */
  warn<C extends ErrorCode>(
    path: string,
    code: C,
    ...details: Parameters<(typeof errorMessages)[C]>
  ): void {
    this.report('warning', path, code, ...details);
  }

  /** {@link report} with severity `info`: a default filled, a quirk noted. */
  info<C extends ErrorCode>(
    path: string,
    code: C,
    ...details: Parameters<(typeof errorMessages)[C]>
  ): void {
    this.report('info', path, code, ...details);
  }

  /**
   * Notes that a value was invented (a timestamp, an id). One diagnostic per
   * kind of value per file comes out of {@link finish}, naming the count and
   * the first place.
   */
  invent(what: InventedValue, path: string): void {
    const invented = (this.#invented ??= new Map());
    const seen = invented.get(what);
    if (seen) seen.count++;
    else invented.set(what, { count: 1, path });
    this.#finished = null;
  }

  /**
   * Notes that `count` values of event `uuid` were cut for nesting deeper
   * than `MAX_VALUE_DEPTH` (`deepFreeze`). One `value_too_deep` diagnostic per
   * file comes out of {@link finish}, naming the count and the first event.
   */
  cut(count: number, uuid: string): void {
    if (this.#cut) this.#cut.count += count;
    else this.#cut = { count, first: uuid };
    this.#finished = null;
  }

  /** How many values of this kind were invented so far. */
  inventedCount(what: InventedValue): number {
    return this.#invented?.get(what)?.count ?? 0;
  }

  /**
   * The diagnostics so far, plus one `value_invented` per invented kind and one
   * `diagnostics_truncated` per code over the cap. Safe to call more than once
   * (an incremental importer reports as it goes).
   */
  finish(): Diagnostic[] {
    if (this.#finished) return this.#finished;
    const out = this.#diagnostics.slice();
    for (const [what, { count, path }] of this.#invented ?? []) {
      out.push({
        code: 'value_invented',
        severity: 'info',
        message: errorMessage('value_invented', what, count),
        path,
      });
    }
    if (this.#cut) {
      const { count, first } = this.#cut;
      out.push({
        code: 'value_too_deep',
        severity: 'warning',
        message: errorMessage('value_too_deep', count, MAX_VALUE_DEPTH, JSON.stringify(first)),
        path: '$',
      });
    }
    for (const [code, n] of this.#counts ?? []) {
      if (n > this.#max) {
        out.push(truncatedDiagnostic(code, n - this.#max));
      }
    }
    this.#finished = out;
    return out;
  }

  // --- lenient readers: wrong type → diagnostic, reads as undefined ---------

  /** A string field, or `undefined` (absent, null, or wrong type with a diagnostic). */
  string(record: JsonRecord, key: string, base: string): string | undefined {
    const v = own(record, key);
    if (typeof v === 'string') return v;
    return this.#mismatch(v, 'string', base, key);
  }

  /** A finite number field, or `undefined`. Numeric strings are not numbers. */
  number(record: JsonRecord, key: string, base: string): number | undefined {
    const v = own(record, key);
    if (typeof v === 'number' && Number.isFinite(v)) return v;
    return this.#mismatch(v, 'number', base, key);
  }

  /** A boolean field, or `undefined`. */
  boolean(record: JsonRecord, key: string, base: string): boolean | undefined {
    const v = own(record, key);
    if (typeof v === 'boolean') return v;
    return this.#mismatch(v, 'boolean', base, key);
  }

  /** An array field, or `undefined`. */
  array(record: JsonRecord, key: string, base: string): unknown[] | undefined {
    const v = own(record, key);
    if (Array.isArray(v)) return v;
    return this.#mismatch(v, 'array', base, key);
  }

  /** An object field, or `undefined`. */
  record(record: JsonRecord, key: string, base: string): JsonRecord | undefined {
    const v = own(record, key);
    if (isRecord(v)) return v;
    return this.#mismatch(v, 'object', base, key);
  }

  // --- strict readers: throw ImportError -------------------------------------

  /** A required string field: absent → `missing_field`, wrong type → `wrong_type`, both thrown. */
  requireString(record: JsonRecord, key: string, base: string): string {
    const v = own(record, key);
    if (typeof v === 'string') return v;
    if (v === undefined || v === null)
      throw new ImportError('missing_field', jsonPath(base, key), key);
    throw new ImportError('wrong_type', jsonPath(base, key), 'string', typeName(v));
  }

  /** The value itself must be an object, else `wrong_type` is thrown at `path`. */
  requireRecord(value: unknown, path: string): JsonRecord {
    if (isRecord(value)) return value;
    throw new ImportError('wrong_type', path, 'object', typeName(value));
  }

  #mismatch(v: unknown, expected: string, base: string, key: string): undefined {
    if (v !== undefined && v !== null) {
      this.warn(jsonPath(base, key), 'wrong_type', expected, typeName(v));
    }
    return undefined;
  }
}

/**
 * `JSON.stringify` for untrusted values: a value nested too deep for the call
 * stack (hostile input nests thousands of levels) gives a short placeholder
 * instead of a `RangeError`, and `undefined` gives `''`. The value itself is kept wherever it came from;
 * only this text form is cut. A value a host handed in (not parsed JSON) may
 * run code while it is stringified (a `toJSON`, a getter, a boxed string's own
 * `toString`); whatever that throws also gives a placeholder.
 *
 * @example
 * import { safeJson } from 'src/core/import/guards.js';
 * safeJson({ a: 1 }); // '{"a":1}'
 */
export function safeJson(value: unknown, indent?: number): string {
  try {
    // `undefined` (and functions) have no JSON text: an empty string.
    return JSON.stringify(value, null, indent) ?? '';
  } catch (e) {
    if (e instanceof RangeError) return '[value nested too deep to show as text]';
    return '[value that cannot be shown as JSON]';
  }
}

/**
 * A value as JSON text where an event holds text (a tool's result), cut as
 * an event's values are: where it nests deeper than `MAX_VALUE_DEPTH`, the
 * text keeps the levels above with the cut marker, and `ctx` reports the cut
 * (`value_too_deep`, naming event `uuid`). {@link safeJson} alone would give
 * a placeholder for the whole value, and no diagnostic.
 *
 * @example
 * import { ImportContext, cutJsonText } from 'src/core/import/guards.js';
 * cutJsonText({ a: 1 }, new ImportContext({}), 'u1'); // '{"a":1}'
 */
export function cutJsonText(
  value: unknown,
  ctx: ImportContext,
  uuid: string,
  indent?: number,
): string {
  try {
    return JSON.stringify(value, null, indent) ?? '';
  } catch (e) {
    if (!(e instanceof RangeError)) return safeJson(value, indent);
  }
  // Too deep for the call stack: a copy cut where events are (an explicit
  // stack below the first levels), whose text fits.
  const copy = cloneJson(value);
  const cuts = deepFreezeCounting(copy);
  if (cuts > 0) ctx.cut(cuts, uuid);
  return safeJson(copy, indent);
}

/**
 * A value where text is expected: a string as it is, nothing as `''`, anything
 * else as its {@link safeJson} text. `String(value)` is no substitute: on an
 * array nested thousands deep it overflows the stack, and on an object it runs
 * the object's own `toString`/`Symbol.toPrimitive`, which may throw or return
 * anything (`[object Object]` for every plain object, so two differ in name only).
 *
 * @example
 * import { valueText } from 'src/core/import/guards.js';
 * valueText(['a', 1]); // '["a",1]'
 */
export function valueText(value: unknown): string {
  if (typeof value === 'string') return value;
  return value === undefined || value === null ? '' : safeJson(value);
}
