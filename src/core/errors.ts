/**
 * The catalogue of error and diagnostic codes. Every thrown {@link ImportError}
 * and every {@link Diagnostic} carries one of these codes, so callers (and
 * tests) can branch on a stable string instead of parsing messages.
 *
 * Each entry maps a code to a function that builds its human message from the
 * details of the case. Add new codes here, never inline strings elsewhere.
 * (Pattern: xyflow's `errorMessages`.)
 */
export const errorMessages = {
  // --- generic input errors -------------------------------------------------
  invalid_json: (detail: string) => `Invalid JSON: ${detail}`,
  wrong_type: (expected: string, got: string) => `Expected ${expected}, got ${got}`,
  missing_field: (field: string) => `Required field "${field}" is missing`,
  // --- inspect_ai log import (src/core/import/inspect-log.ts, zip.ts) ---------
  not_inspect_log: (detail: string) => `Not an inspect_ai log: ${detail}`,
  unsupported_version: (version: string) => `Unsupported inspect_ai log version ${version}`,
  zip_truncated: (detail: string) => `Truncated zip archive: ${detail}`,
  zip_corrupt: (detail: string) => `Corrupt zip archive: ${detail}`,
  zip_unsupported: (detail: string) => `Unsupported zip feature: ${detail}`,
  missing_member: (name: string) => `The archive has no member "${name}"`,
  sample_not_found: (id: string, epoch: number) => `No sample with id ${id} and epoch ${epoch}`,
  dangling_attachment: (ref: string) => `Unresolved attachment reference "${ref}" (kept as is)`,
  dangling_pool_ref: (pool: string, start: number, end: number, size: number) =>
    `Reference [${start}, ${end}) is outside the ${pool} pool of ${size} entries`,
  missing_events: (where: string) => `${where} has no events`,
  chunk_gap: (sequence: string, expected: number, got: number) =>
    `Chunk of "${sequence}" starts at ${got}, expected ${expected}`,
  // --- canonical events (src/core/events/parse.ts) ----------------------------
  invalid_timestamp: (value: string) => `Not an ISO 8601 date-time: ${JSON.stringify(value)}`,
  invalid_value: (expected: string, got: string) => `Expected one of ${expected}, got ${got}`,
  uuid_derived: (uuid: string) =>
    `Event has no uuid; derived "${uuid}" from its position and content`,
  default_filled: (field: string, value: string) => `Missing "${field}"; filled with ${value}`,
  field_inferred: (field: string, from: string) => `Missing "${field}"; taken from "${from}"`,
  timestamp_missing: (used: string) => `Event has no timestamp; used ${used}`,
  timestamp_no_offset: (value: string) =>
    `Timestamp ${JSON.stringify(value)} has no UTC offset; read as UTC`,
  unknown_event_kind: (kind: string) => `Unknown event kind ${JSON.stringify(kind)}; kept as is`,
  diagnostics_truncated: (code: string, count: number) =>
    `${count} more "${code}" diagnostics not listed`,
  // --- EventStream (src/core/stream/event-stream.ts) -------------------------
  not_an_event: (got: string) =>
    `EventStream.append expects a canonical event (an object with string "event", "uuid" and "timestamp"), got ${got}`,
  // --- timeline (src/core/timeline/) -----------------------------------------
  timeline_unresolved_event: (uuid: string) =>
    `Timeline refers to event "${uuid}", which is not in the event list`,
  // --- span tree (src/core/tree/) ---------------------------------------------
  span_end_unknown: (id: string) => `span_end for span "${id}", which never began; dropped`,
  span_end_duplicate: (id: string) =>
    `Span "${id}" has already ended; this later span_end is dropped`,
  span_duplicate_id: (id: string) =>
    `Span id "${id}" was already begun; this later span_begin is kept as a plain event`,
  span_parent_cycle: (id: string, parent: string) =>
    `Span "${id}" would close a parent cycle through "${parent}"; placed at the root instead`,
  step_end_unmatched: (name: string) =>
    `step end "${name}" has no open step of that name; kept as a plain event`,
  step_unclosed: (name: string, outer: string) =>
    `step "${name}" was still open when the outer step "${outer}" ended; left without an end`,
  // --- swimlane (src/core/swimlane/) -----------------------------------------
  invalid_option: (option: string, expected: string, got: string) =>
    `Option "${option}" must be ${expected}, got ${got}`,
} satisfies Record<string, (...args: never[]) => string>;

/** A stable error or diagnostic code from {@link errorMessages}. */
export type ErrorCode = keyof typeof errorMessages;

/** Builds the message for `code` from its arguments. */
export function errorMessage<C extends ErrorCode>(
  code: C,
  ...args: Parameters<(typeof errorMessages)[C]>
): string {
  const build = errorMessages[code] as (...a: unknown[]) => string;
  return build(...args);
}

/**
 * Something an importer or parser repaired or noticed without failing: a
 * filled default, a dropped duplicate, an unresolved reference it kept as is.
 * Diagnostics are returned next to the data, never logged.
 *
 * @example
 * const { events, diagnostics } = parseEvents(json);
 * for (const d of diagnostics) report(`${d.path}: ${d.message}`);
 */
export interface Diagnostic {
  /** Stable code from the catalogue. */
  readonly code: ErrorCode;
  /** `'warning'` for repairs that may change meaning, `'info'` for defaults filled. */
  readonly severity: 'info' | 'warning';
  /** Human-readable message. */
  readonly message: string;
  /** JSON path of the place, e.g. `$.samples[0].events[12].timestamp`. */
  readonly path: string;
}

/**
 * Thrown when input cannot be read at all (invalid JSON, a truncated zip, a
 * field of the wrong type). Names the code and the JSON path of the problem.
 *
 * @example
 * try { parseEvent(raw) } catch (e) {
 *   if (e instanceof ImportError && e.code === 'wrong_type') showAt(e.path);
 * }
 */
export class ImportError extends Error {
  override readonly name = 'ImportError';
  /** Stable code from the catalogue. */
  readonly code: ErrorCode;
  /** JSON path of the problem (`$` for the whole input). */
  readonly path: string;

  constructor(code: ErrorCode, path: string, message: string, options?: { cause?: unknown }) {
    super(`${message} (at ${path})`, options);
    this.code = code;
    this.path = path;
  }
}

/**
 * Appends a property name or index to a JSON path, quoting names that are not
 * plain identifiers: `jsonPath('$', 'a')` → `$.a`, `jsonPath('$.a', 3)` → `$.a[3]`,
 * `jsonPath('$', 'x-y')` → `$["x-y"]`.
 */
export function jsonPath(base: string, key: string | number): string {
  if (typeof key === 'number') return `${base}[${key}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${base}.${key}` : `${base}[${JSON.stringify(key)}]`;
}
