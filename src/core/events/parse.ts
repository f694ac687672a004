// Past 600 lines: the field tables of every canonical kind and the one checker that reads them.
/**
 * Wire JSON → canonical events.
 *
 * Tolerant of what real logs leave out, strict about what they get wrong:
 * - **Missing** fields (old logs, the minimal timeline fixtures: inspect's
 *   declared types are no promise) are filled — with inspect's own default where it has one
 *   (`ToolEvent.result = ""`, `CompactionEvent.type = "summary"`, …), a
 *   neutral empty value otherwise, or a value another field implies
 *   (`span_end.id` from `span_id`) — and each repair is a
 *   {@link Diagnostic}. `null` counts as missing: inspect writes with
 *   `exclude_none`, so a null required field is one the writer never meant.
 * - **Wrong** types throw an {@link ImportError} with a stable `code` and the
 *   JSON path of the value. Three closed enumerations whose absence leaves an
 *   event meaningless (`step.action`, `approval.decision`, `message.role`)
 *   throw too; every other enumeration accepts unknown strings, because
 *   inspect keeps adding values.
 * - **Unknown** kinds and unknown fields are kept exactly as they came.
 *
 * Checks reach one level into the payloads views depend on (model input
 * messages, output choices, display bundles); deeper payloads are kept as
 * given.
 *
 * Ownership: the returned events are deep-frozen. Nested objects and arrays of
 * the input that need no repair are **shared** with the output and frozen in
 * place — no value of the input ever changes, and this is what keeps parsing
 * far cheaper than the `JSON.parse` that produced the input. Pass
 * `{ copy: true }` to leave the input entirely untouched (costs a deep copy).
 */
import {
  ImportError,
  errorMessage,
  jsonPath,
  truncatedDiagnostic,
  type Diagnostic,
  type ErrorCode,
} from '../errors.js';
import { stampEventTime } from './event-time.js';
import { cloneJson, deepFreeze, deepFreezeCounting, MAX_VALUE_DEPTH } from './freeze.js';
import { parseTimestampMs, timestampHadOffset } from './timestamp.js';
import type { Event, EventKind } from './types.js';
import { isEventKind } from './types.js';
import { deriveEventUuid } from './uuid.js';

/**
 * Options of {@link parseEvent} and {@link parseEvents}.
 *
 * @example
 * declare const sample: { events: unknown[] };
 * parseEvents(sample.events, { path: '$.samples[0].events', uuidSeed: 'run-42/sample-1/epoch-1' });
 */
export interface ParseEventOptions {
  /**
   * JSON path of the input, used in diagnostics, errors and derived uuids:
   * of the event for `parseEvent` (default `$`), of the array for
   * `parseEvents` (default `$`, so events are `$[0]`, `$[1]`, …).
   */
  path?: string;
  /**
   * Mixed into derived uuids. Importers pass something that tells runs apart
   * (a sample uuid, `task/id/epoch`), so equal positions in different logs
   * get different ids. Default `''`.
   */
  uuidSeed?: string;
  /**
   * Time used for an event without a timestamp when no other event supplies
   * one. Default `1970-01-01T00:00:00Z`.
   */
  defaultTimestamp?: string;
  /** Deep-copy the input instead of freezing its nested values in place. Default `false`. */
  copy?: boolean;
  /**
   * The caller hands the raw event objects over: each becomes its output
   * event (repaired, stamped and frozen in place) instead of being copied.
   * For importers that own the values they just parsed (each object at most
   * once in the list); ignored with `copy` and for frozen input. Default
   * `false`.
   * @internal
   */
  adopt?: boolean;
  /**
   * At most this many diagnostics per code are listed; the rest are counted
   * in one `diagnostics_truncated` diagnostic per code. Default 100.
   */
  maxDiagnosticsPerCode?: number;
}

/**
 * The result of {@link parseEvent}.
 *
 * @example
 * declare const line: string; // one line of a JSONL file
 * const { event, diagnostics }: ParseEventResult = parseEvent(JSON.parse(line));
 */
export interface ParseEventResult {
  event: Event;
  diagnostics: Diagnostic[];
}

/**
 * The result of {@link parseEvents}.
 *
 * @example
 * const { events, diagnostics }: ParseEventsResult = parseEvents(json);
 */
export interface ParseEventsResult {
  events: Event[];
  diagnostics: Diagnostic[];
}

// ---------------------------------------------------------------------------
// Field specifications
// ---------------------------------------------------------------------------

// JSON types as bit flags, so "string | array" is one `&`.
const S = 1;
const N = 2;
const B = 4;
const O = 8;
const A = 16;
const ANY = S | N | B | O | A;

function typeBit(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return S;
    case 'number':
      return N;
    case 'boolean':
      return B;
    case 'object':
      return value === null ? 0 : Array.isArray(value) ? A : O;
    default:
      return 0;
  }
}

const TYPE_NAMES: [number, string][] = [
  [S, 'string'],
  [N, 'number'],
  [B, 'boolean'],
  [O, 'object'],
  [A, 'array'],
];

function typeName(flags: number): string {
  if (flags === ANY) return 'a JSON value';
  const names: string[] = [];
  for (const [bit, name] of TYPE_NAMES) if (flags & bit) names.push(name);
  return names.join(' | ');
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

// What to do when a field is absent (or null). Plain numbers rather than a
// const enum, which isolatedModules tooling handles unevenly.
/** Optional: only the type is checked. */
const OPTIONAL = 0;
/** Required: filled with `fill` and a `default_filled` diagnostic. */
const FILL = 1;
/** Optional ISO timestamp: checked like `timestamp`. */
const TIME = 2;
/** Required closed enumeration: missing or unknown values throw. */
const ENUM = 3;
type Mode = typeof OPTIONAL | typeof FILL | typeof TIME | typeof ENUM;

interface FieldSpec {
  readonly name: string;
  readonly types: number;
  readonly mode: Mode;
  /** Fill value (deep-frozen, shared) for `FILL`. */
  readonly fill?: unknown;
  /** Allowed values for `ENUM`. */
  readonly values?: readonly string[];
}

const EMPTY_ARRAY = Object.freeze([]) as unknown as unknown[];
const EMPTY_OBJECT = Object.freeze({});

const opt = (name: string, types: number): FieldSpec => ({ name, types, mode: OPTIONAL });
const fill = (name: string, types: number, value: unknown): FieldSpec => ({
  name,
  types,
  mode: FILL,
  fill: deepFreeze(value),
});
const time = (name: string): FieldSpec => ({ name, types: S, mode: TIME });
const oneOf = (name: string, values: readonly string[]): FieldSpec => ({
  name,
  types: S,
  mode: ENUM,
  values,
});

// Fields beyond the envelope, per kind (inspect_ai's `event/` models; skein's
// additions in types.ts). Fills are inspect's defaults where it declares one
// (marked "inspect default"), else the neutral empty value of the type.
const SPECS: Record<EventKind, readonly FieldSpec[]> = {
  sample_init: [fill('sample', O, { input: '', target: '' }), fill('state', O, EMPTY_OBJECT)],
  sample_limit: [fill('type', S, ''), fill('message', S, ''), opt('limit', N)],
  sandbox: [
    fill('action', S, ''),
    opt('cmd', S),
    opt('options', O),
    opt('file', S),
    opt('input', S),
    opt('result', N),
    opt('output', S),
    time('completed'),
  ],
  state: [fill('changes', A, EMPTY_ARRAY)],
  store: [fill('changes', A, EMPTY_ARRAY)],
  model: [
    fill('model', S, ''),
    opt('role', S),
    fill('input', A, EMPTY_ARRAY),
    opt('input_refs', A),
    fill('tools', A, EMPTY_ARRAY),
    fill('tool_choice', S | O, 'auto'), // inspect's generate() default
    fill('config', O, EMPTY_OBJECT),
    opt('output', O), // filled below from `model`
    opt('retries', N),
    opt('error', S),
    opt('traceback', S),
    opt('traceback_ansi', S),
    opt('cache', S),
    opt('call', O),
    time('completed'),
    opt('working_time', N),
    opt('attempt', N),
    opt('call_id', S),
    time('call_started_at'),
    time('call_completed_at'),
    opt('call_working_start', N),
    opt('call_working_time', N),
    opt('call_retries', N),
    opt('http_retries', N),
  ],
  tool: [
    fill('type', S, 'function'), // inspect default
    fill('id', S, ''),
    fill('function', S, ''),
    fill('arguments', O, EMPTY_OBJECT),
    opt('view', O),
    fill('result', ANY, ''), // inspect default
    opt('truncated', A),
    opt('error', O),
    fill('events', A, EMPTY_ARRAY), // inspect default
    time('completed'),
    opt('working_time', N),
    opt('agent', S),
    opt('agent_span_id', S),
    opt('failed', B),
    opt('message_id', S),
  ],
  anchor: [fill('anchor_id', S, ''), opt('source', S)],
  approval: [
    fill('message', S, ''),
    fill('call', O, { id: '', function: '', arguments: {} }),
    opt('view', O),
    fill('approver', S, ''),
    oneOf('decision', ['approve', 'modify', 'reject', 'escalate', 'terminate']),
    opt('modified', O),
    opt('explanation', S),
  ],
  branch: [fill('from_anchor', S, '')], // inspect default
  checkpoint: [
    fill('checkpoint_id', N | S, 0),
    fill('trigger', S, ''),
    opt('trigger_metadata', O),
    fill('turn', N, 0),
    fill('created_at', S, ''),
    fill('duration_ms', N, 0),
    fill('size_bytes', N, 0),
    opt('host', O),
    opt('sandboxes', O),
  ],
  compaction: [
    fill('type', S, 'summary'), // inspect default
    opt('role', S),
    opt('tokens_before', N),
    opt('tokens_after', N),
    opt('source', S),
  ],
  input: [
    fill('input', S, ''),
    opt('input_ansi', S), // filled below from `input`
    opt('message', S),
    opt('fields', A),
    opt('outcome', S),
  ],
  interrupt: [
    fill('source', S, ''),
    fill('interrupted', S, ''),
    opt('interrupted_tool_call_id', S),
    opt('interrupted_model_event_id', S),
  ],
  score: [
    fill('score', O, { value: null }),
    opt('target', S | A),
    fill('intermediate', B, false), // inspect default
    opt('scorer', S),
    opt('scorer_args', O),
    opt('model_usage', O),
    opt('role_usage', O),
  ],
  score_edit: [fill('score_name', S, ''), fill('edit', O, EMPTY_OBJECT)],
  error: [fill('error', O, { message: '', traceback: '', traceback_ansi: '' })],
  logger: [fill('message', O, { level: 'info', message: '', created: 0 })],
  info: [opt('source', S)],
  span_begin: [opt('id', S), opt('parent_id', S), opt('type', S), opt('name', S)], // ids/name inferred below
  span_end: [opt('id', S)], // inferred below
  step: [oneOf('action', ['begin', 'end']), opt('type', S), fill('name', S, '')],
  subtask: [
    fill('name', S, ''),
    opt('type', S),
    fill('input', O, EMPTY_OBJECT),
    fill('events', A, EMPTY_ARRAY), // inspect default
    time('completed'),
    opt('working_time', N),
  ],
  message: [
    oneOf('role', ['system', 'user', 'assistant', 'tool']),
    fill('content', S | A, ''),
    opt('message_id', S), // inferred below from `uuid`
    opt('source', S),
    opt('model', S),
    opt('tool_calls', A),
    opt('tool_call_id', S),
  ],
  display: [fill('outputs', A, EMPTY_ARRAY), opt('display_id', S)],
};

// Envelope fields, checked on every event, known or not. `timestamp`
// and `uuid` are repaired in parseOne, so they are optional here.
const ENVELOPE: readonly FieldSpec[] = [
  opt('uuid', S),
  opt('span_id', S),
  opt('working_start', N),
  opt('pending', B),
  opt('metadata', O),
];

/** A kind's specs keyed by field name, plus its required ones for the missing-field pass. */
interface KindTable {
  readonly byName: ReadonlyMap<string, FieldSpec>;
  readonly required: readonly FieldSpec[];
}

function makeTable(specs: readonly FieldSpec[]): KindTable {
  const all = [...ENVELOPE, ...specs];
  return {
    byName: new Map(all.map((spec) => [spec.name, spec])),
    required: all.filter((spec) => spec.mode === FILL || spec.mode === ENUM),
  };
}

// Known fields of any type (so not in SPECS, which checks types).
const UNTYPED: Partial<Record<EventKind, readonly string[]>> = {
  info: ['data'],
  input: ['content'],
  subtask: ['result'],
};

/**
 * The wire fields skein knows for each canonical kind: the envelope
 * (`event`, `timestamp`, `uuid`, `span_id`, `working_start`, `pending`,
 * `metadata`) plus the kind's own (inspect_ai's `event/` models). Anything else
 * on an event is kept as it came; viewers use this to show it apart.
 *
 * @example
 * import { KNOWN_EVENT_FIELDS } from './parse.js';
 * KNOWN_EVENT_FIELDS.info.has('data'); // true
 */
export const KNOWN_EVENT_FIELDS: Readonly<Record<EventKind, ReadonlySet<string>>> =
  Object.freeze(knownFields());

function knownFields(): Record<EventKind, ReadonlySet<string>> {
  const out = {} as Record<EventKind, ReadonlySet<string>>;
  for (const kind of Object.keys(SPECS) as EventKind[]) {
    out[kind] = new Set([
      'event',
      'timestamp',
      ...ENVELOPE.map((f) => f.name),
      ...SPECS[kind].map((f) => f.name),
      ...(UNTYPED[kind] ?? []),
    ]);
  }
  return out;
}

const TABLES: ReadonlyMap<string, KindTable> = new Map(
  (Object.keys(SPECS) as EventKind[]).map((kind) => [kind, makeTable(SPECS[kind])]),
);
const ENVELOPE_TABLE = makeTable([]);

const EPOCH = '1970-01-01T00:00:00Z';

// ---------------------------------------------------------------------------
// Parse context (one per call; no per-event closures)
// ---------------------------------------------------------------------------

interface Context {
  readonly diagnostics: Diagnostic[];
  counts: Map<ErrorCode, number>;
  readonly max: number;
  readonly seed: string;
  readonly copy: boolean;
  readonly adopt: boolean;
  readonly defaultTimestamp: string;
  /** Timestamp of the last event that had one (for repairs), or undefined. */
  lastTimestamp: string | undefined;
  /** The raw array being parsed, for the look-ahead of a timestamp repair. */
  raw: readonly unknown[] | undefined;
  /** Index (in the whole list) of `raw[0]`: non-zero when the list arrives in pieces. */
  offset: number;
  /** Set when a repair's look-ahead reached the end of a piece (later pieces were not seen). */
  shortLookAhead: boolean;
  /** JSON path of the array (parseEvents) or of the event (parseEvent). */
  base: string;
  /** Index of the event being parsed, or -1 when `base` is the event's own path. */
  index: number;
  /** Values cut for nesting deeper than `MAX_VALUE_DEPTH`: counted here, reported once. */
  cut: CutTally;
  /** Whether `finish` adds the totals (cuts, truncations): not for one record of many. */
  owner: boolean;
}

/** Values cut for depth (`deepFreeze`) and where the first was: one `value_too_deep`. */
interface CutTally {
  count: number;
  path: string;
  uuid: string;
}

/**
 * JSON path of the event being parsed. Built on demand — only for errors,
 * diagnostics and derived uuids — because formatting `$[12345]` for every
 * event was the single most expensive line of the hot loop.
 */
function locate(ctx: Context): string {
  return ctx.index < 0 ? ctx.base : `${ctx.base}[${ctx.index}]`;
}

function makeContext(options: ParseEventOptions | undefined): Context {
  return {
    diagnostics: [],
    counts: new Map(),
    max: options?.maxDiagnosticsPerCode ?? 100,
    seed: options?.uuidSeed ?? '',
    copy: options?.copy ?? false,
    adopt: (options?.adopt ?? false) && !(options?.copy ?? false),
    defaultTimestamp: options?.defaultTimestamp ?? EPOCH,
    lastTimestamp: undefined,
    raw: undefined,
    offset: 0,
    shortLookAhead: false,
    base: options?.path ?? '$',
    index: -1,
    cut: { count: 0, path: '$', uuid: '' },
    owner: true,
  };
}

/**
 * Counts a diagnostic of `code` and says whether to list it. Callers build the
 * path and message only when it returns true, so a million repaired events
 * cost a counter increment each past the cap.
 */
function admit(ctx: Context, code: ErrorCode): boolean {
  const n = (ctx.counts.get(code) ?? 0) + 1;
  ctx.counts.set(code, n);
  return n <= ctx.max;
}

function note(
  ctx: Context,
  code: ErrorCode,
  severity: Diagnostic['severity'],
  path: string,
  message: string,
): void {
  ctx.diagnostics.push({ code, severity, message, path });
}

function finish(ctx: Context): Diagnostic[] {
  if (!ctx.owner) return ctx.diagnostics;
  if (ctx.cut.count > 0) {
    const { count, path, uuid } = ctx.cut;
    ctx.diagnostics.push({
      code: 'value_too_deep',
      severity: 'warning',
      message: errorMessage('value_too_deep', count, MAX_VALUE_DEPTH, JSON.stringify(uuid)),
      path,
    });
    ctx.cut = { count: 0, path: '$', uuid: '' };
  }
  for (const [code, n] of ctx.counts) {
    if (n > ctx.max) {
      ctx.diagnostics.push(truncatedDiagnostic(code, n - ctx.max));
    }
  }
  return ctx.diagnostics;
}

function wrongType(path: string, expected: string, got: unknown): ImportError {
  return new ImportError('wrong_type', path, expected, describe(got));
}

// ---------------------------------------------------------------------------
// One event
// ---------------------------------------------------------------------------

type Draft = Record<string, unknown>;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A shallow own-key copy that keeps a JSON `"__proto__"` key as data. */
function shallowCopy(source: Record<string, unknown>, deep: boolean): Draft {
  const out: Draft = {};
  for (const key in source) {
    const value = deep ? cloneJson(source[key]) : source[key];
    if (key === '__proto__') {
      Object.defineProperty(out, key, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else {
      out[key] = value;
    }
  }
  return out;
}

// `path` + `field` rather than a joined path: joining runs a regex, and this is
// the hot path — paths are only built for errors and diagnostics.
function checkTimestamp(ctx: Context, value: string, field: string): number {
  const ms = parseTimestampMs(value);
  if (Number.isNaN(ms)) {
    throw new ImportError('invalid_timestamp', jsonPath(locate(ctx), field), value);
  }
  if (!timestampHadOffset()) {
    if (admit(ctx, 'timestamp_no_offset'))
      note(
        ctx,
        'timestamp_no_offset',
        'warning',
        jsonPath(locate(ctx), field),
        errorMessage('timestamp_no_offset', value),
      );
  }
  return ms;
}

/** A timestamp for an event that has none: the previous event's, else the next one's, else the default. */
function repairTimestamp(ctx: Context): string {
  if (ctx.lastTimestamp !== undefined) return ctx.lastTimestamp;
  const raw = ctx.raw;
  if (raw !== undefined) {
    for (let j = ctx.index - ctx.offset + 1; j < raw.length; j++) {
      const candidate = raw[j];
      if (isPlainObject(candidate) && typeof candidate.timestamp === 'string') {
        if (!Number.isNaN(parseTimestampMs(candidate.timestamp))) return candidate.timestamp;
      }
    }
    ctx.shortLookAhead = true;
  }
  return ctx.defaultTimestamp;
}

/** Checks one present, non-null field against its spec. */
function checkField(ctx: Context, spec: FieldSpec, value: unknown): void {
  if ((typeBit(value) & spec.types) === 0)
    throw wrongType(jsonPath(locate(ctx), spec.name), typeName(spec.types), value);
  if (spec.mode === TIME) {
    checkTimestamp(ctx, value as string, spec.name);
  } else if (spec.mode === ENUM && !(spec.values as readonly string[]).includes(value as string)) {
    const expected = (spec.values as readonly string[]).map((v) => JSON.stringify(v)).join(' | ');
    throw new ImportError(
      'invalid_value',
      jsonPath(locate(ctx), spec.name),
      expected,
      JSON.stringify(value),
    );
  }
}

/** Fills (or, for closed enumerations, rejects) the required fields that are absent or null. */
function fillMissing(ctx: Context, draft: Draft, required: readonly FieldSpec[]): void {
  for (let i = 0; i < required.length; i++) {
    const spec = required[i] as FieldSpec;
    const value = draft[spec.name];
    if (value !== undefined && value !== null) continue;
    if (spec.mode === ENUM) {
      throw new ImportError('missing_field', jsonPath(locate(ctx), spec.name), spec.name);
    }
    draft[spec.name] = spec.fill;
    if (admit(ctx, 'default_filled')) {
      note(
        ctx,
        'default_filled',
        'info',
        jsonPath(locate(ctx), spec.name),
        errorMessage('default_filled', spec.name, JSON.stringify(spec.fill)),
      );
    }
  }
}

/** `path.field[index].sub`, built only when something is reported. */
function at(path: string, field: string, index?: number, sub?: string): string {
  let out = jsonPath(path, field);
  if (index !== undefined) out += `[${index}]`;
  if (sub !== undefined) out = jsonPath(out, sub);
  return out;
}

/** Checks `draft[field][index]` is a chat message: an object with a string `role` and string-or-array `content`. */
function checkMessage(ctx: Context, value: unknown, field: string, index: number): void {
  if (!isPlainObject(value)) throw wrongType(at(locate(ctx), field, index), 'object', value);
  const role = value.role;
  if (typeof role !== 'string') {
    const rolePath = at(locate(ctx), field, index, 'role');
    if (role === undefined || role === null)
      throw new ImportError('missing_field', rolePath, 'role');
    throw wrongType(rolePath, 'string', role);
  }
  const content = value.content;
  if (content !== undefined && typeof content !== 'string' && !Array.isArray(content)) {
    throw wrongType(at(locate(ctx), field, index, 'content'), 'string | array', content);
  }
}

function checkModel(ctx: Context, draft: Draft): void {
  const input = draft.input as unknown[];
  for (let i = 0; i < input.length; i++) checkMessage(ctx, input[i], 'input', i);

  const output = draft.output as Record<string, unknown> | null | undefined;
  if (output === undefined || output === null) {
    draft.output = deepFreeze({ model: draft.model, choices: [], completion: '' });
    if (admit(ctx, 'default_filled')) {
      note(
        ctx,
        'default_filled',
        'info',
        at(locate(ctx), 'output'),
        errorMessage('default_filled', 'output', "an empty output of the event's model"),
      );
    }
    return;
  }
  // Copy-on-write: the caller's output object is only replaced, never changed.
  let repaired: Draft | undefined;
  const choices = output.choices;
  if (choices === undefined || choices === null) {
    repaired = shallowCopy(output, false);
    repaired.choices = EMPTY_ARRAY;
    if (admit(ctx, 'default_filled')) {
      note(
        ctx,
        'default_filled',
        'info',
        at(locate(ctx), 'output', undefined, 'choices'),
        errorMessage('default_filled', 'choices', '[]'),
      );
    }
  } else if (!Array.isArray(choices)) {
    throw wrongType(at(locate(ctx), 'output', undefined, 'choices'), 'array', choices);
  } else {
    for (let i = 0; i < choices.length; i++) {
      const choice: unknown = choices[i];
      if (!isPlainObject(choice))
        throw wrongType(
          `${at(locate(ctx), 'output', undefined, 'choices')}[${i}]`,
          'object',
          choice,
        );
      const message = choice.message;
      if (!isPlainObject(message)) {
        throw wrongType(
          `${at(locate(ctx), 'output', undefined, 'choices')}[${i}].message`,
          'object',
          message,
        );
      }
      // Fixtures write assistant messages without `role` (the type implies it): not an error.
      const content = message.content;
      if (content !== undefined && typeof content !== 'string' && !Array.isArray(content)) {
        throw wrongType(
          `${at(locate(ctx), 'output', undefined, 'choices')}[${i}].message.content`,
          'string | array',
          content,
        );
      }
    }
  }
  const completion = output.completion;
  if (completion === undefined || completion === null) {
    repaired ??= shallowCopy(output, false);
    repaired.completion = '';
    if (admit(ctx, 'default_filled')) {
      note(
        ctx,
        'default_filled',
        'info',
        at(locate(ctx), 'output', undefined, 'completion'),
        errorMessage('default_filled', 'completion', '""'),
      );
    }
  } else if (typeof completion !== 'string') {
    throw wrongType(at(locate(ctx), 'output', undefined, 'completion'), 'string', completion);
  }
  const model = output.model;
  if (model === undefined || model === null) {
    repaired ??= shallowCopy(output, false);
    repaired.model = draft.model;
    if (admit(ctx, 'field_inferred')) {
      note(
        ctx,
        'field_inferred',
        'info',
        at(locate(ctx), 'output', undefined, 'model'),
        errorMessage('field_inferred', 'output.model', 'model'),
      );
    }
  } else if (typeof model !== 'string') {
    throw wrongType(at(locate(ctx), 'output', undefined, 'model'), 'string', model);
  }
  const usage = output.usage;
  if (usage !== undefined && usage !== null && !isPlainObject(usage)) {
    throw wrongType(at(locate(ctx), 'output', undefined, 'usage'), 'object', usage);
  }
  if (repaired !== undefined) draft.output = repaired;
}

function inferField(ctx: Context, draft: Draft, field: string, from: string): void {
  draft[field] = draft[from];
  if (admit(ctx, 'field_inferred'))
    note(
      ctx,
      'field_inferred',
      'info',
      jsonPath(locate(ctx), field),
      errorMessage('field_inferred', field, from),
    );
}

/** Repairs and checks that need more than one field; runs after the uuid is known. */
function applyKindRules(ctx: Context, kind: string, draft: Draft): void {
  switch (kind) {
    case 'model':
      checkModel(ctx, draft);
      return;
    case 'span_begin':
      // inspect's span() makes the span current before emitting span_begin, so
      // span_begin.span_id === id in real logs; either one implies the other.
      if (draft.id === undefined || draft.id === null) {
        if (typeof draft.span_id === 'string') inferField(ctx, draft, 'id', 'span_id');
        else inferField(ctx, draft, 'id', 'uuid');
      }
      if (draft.span_id === undefined || draft.span_id === null)
        inferField(ctx, draft, 'span_id', 'id');
      if (draft.name === undefined || draft.name === null) {
        if (typeof draft.type === 'string') inferField(ctx, draft, 'name', 'type');
        else {
          draft.name = '';
          if (admit(ctx, 'default_filled'))
            note(
              ctx,
              'default_filled',
              'info',
              jsonPath(locate(ctx), 'name'),
              errorMessage('default_filled', 'name', '""'),
            );
        }
      }
      return;
    case 'span_end':
      // Same rule; the timeline fixtures often give only `span_id`.
      if (draft.id === undefined || draft.id === null) {
        if (typeof draft.span_id === 'string') inferField(ctx, draft, 'id', 'span_id');
        else {
          draft.id = '';
          if (admit(ctx, 'default_filled'))
            note(
              ctx,
              'default_filled',
              'info',
              jsonPath(locate(ctx), 'id'),
              errorMessage('default_filled', 'id', '""'),
            );
        }
      }
      if ((draft.span_id === undefined || draft.span_id === null) && draft.id !== '') {
        inferField(ctx, draft, 'span_id', 'id');
      }
      return;
    case 'input':
      if (draft.input_ansi === undefined || draft.input_ansi === null)
        inferField(ctx, draft, 'input_ansi', 'input');
      return;
    case 'message':
      if (draft.message_id === undefined || draft.message_id === null) {
        // A message without an id is a message of its own: no other chunk appends to it.
        inferField(ctx, draft, 'message_id', 'uuid');
      }
      if (Array.isArray(draft.tool_calls)) {
        for (let i = 0; i < draft.tool_calls.length; i++) {
          const call: unknown = draft.tool_calls[i];
          if (!isPlainObject(call))
            throw wrongType(at(locate(ctx), 'tool_calls', i), 'object', call);
        }
      }
      return;
    case 'display': {
      const outputs = draft.outputs as unknown[];
      for (let i = 0; i < outputs.length; i++) {
        const bundle: unknown = outputs[i];
        if (!isPlainObject(bundle))
          throw wrongType(at(locate(ctx), 'outputs', i), 'object', bundle);
        if (!isPlainObject(bundle.data))
          throw wrongType(at(locate(ctx), 'outputs', i, 'data'), 'object', bundle.data);
        const metadata = bundle.metadata;
        if (metadata !== undefined && metadata !== null && !isPlainObject(metadata)) {
          throw wrongType(at(locate(ctx), 'outputs', i, 'metadata'), 'object', metadata);
        }
      }
      return;
    }
    default:
      return;
  }
}

/**
 * The key a derived uuid hashes: the event's JSON path, kind, timestamp, the
 * identifying fields it has, and the caller's seed. The path alone makes ids
 * distinct within one import and stable across re-imports of the same file;
 * the content keeps equal positions in different files apart.
 */
function uuidKey(ctx: Context, draft: Draft, kind: string): string {
  let key = `${locate(ctx)}\u0000${kind}\u0000${draft.timestamp as string}`;
  const id = draft.id;
  if (typeof id === 'string') key += `\u0000id=${id}`;
  const name = draft.name;
  if (typeof name === 'string') key += `\u0000name=${name}`;
  const fn = draft.function;
  if (typeof fn === 'string') key += `\u0000fn=${fn}`;
  const model = draft.model;
  if (typeof model === 'string') key += `\u0000model=${model}`;
  const spanId = draft.span_id;
  if (typeof spanId === 'string') key += `\u0000span=${spanId}`;
  return `${key}\u0000${ctx.seed}`;
}

function parseOne(ctx: Context, raw: unknown): Event {
  if (!isPlainObject(raw)) throw wrongType(locate(ctx), 'object', raw);
  const kind = raw.event;
  if (typeof kind !== 'string') {
    if (kind === undefined || kind === null) {
      throw new ImportError('missing_field', jsonPath(locate(ctx), 'event'), 'event');
    }
    throw wrongType(jsonPath(locate(ctx), 'event'), 'string', kind);
  }
  const known = isEventKind(kind);
  const table = known ? (TABLES.get(kind) as KindTable) : ENVELOPE_TABLE;
  const byName = table.byName;
  const deep = ctx.copy;

  // One pass over the event's own keys copies them and checks the ones the
  // kind declares: a Map lookup per key present, rather than a property load
  // per field declared (a model event declares 30). An adopted event is not
  // copied: repairs then add or replace its keys in the same order a copy
  // would have them.
  const adopt = ctx.adopt && !Object.isFrozen(raw);
  const draft: Draft = adopt ? raw : {};
  let present = 0;
  for (const key in raw) {
    const value = deep ? cloneJson(raw[key]) : raw[key];
    if (key === '__proto__') {
      if (!adopt) {
        Object.defineProperty(draft, key, {
          value,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      continue;
    }
    if (!adopt) draft[key] = value;
    const spec = byName.get(key);
    if (spec === undefined || value === undefined || value === null) continue;
    if (spec.mode === FILL || spec.mode === ENUM) present++;
    checkField(ctx, spec, value);
  }
  if (present !== table.required.length) fillMissing(ctx, draft, table.required);

  // --- timestamp: kept as given, epoch ms derived; repaired when absent ---
  let ms: number;
  const timestamp = draft.timestamp;
  if (typeof timestamp === 'string') {
    ms = checkTimestamp(ctx, timestamp, 'timestamp');
    ctx.lastTimestamp = timestamp;
  } else if (timestamp === undefined || timestamp === null) {
    const used = repairTimestamp(ctx);
    draft.timestamp = used;
    ms = checkTimestamp(ctx, used, 'timestamp');
    if (admit(ctx, 'timestamp_missing')) {
      note(
        ctx,
        'timestamp_missing',
        'warning',
        jsonPath(locate(ctx), 'timestamp'),
        errorMessage('timestamp_missing', JSON.stringify(used)),
      );
    }
  } else {
    throw wrongType(jsonPath(locate(ctx), 'timestamp'), 'string', timestamp);
  }

  if (!known && admit(ctx, 'unknown_event_kind')) {
    note(
      ctx,
      'unknown_event_kind',
      'info',
      jsonPath(locate(ctx), 'event'),
      errorMessage('unknown_event_kind', kind),
    );
  }

  const uuid = draft.uuid;
  // An empty uuid identifies nothing; inspect never writes one.
  if (typeof uuid !== 'string' || uuid === '') {
    const derived = deriveEventUuid(uuidKey(ctx, draft, kind));
    draft.uuid = derived;
    if (admit(ctx, 'uuid_derived'))
      note(
        ctx,
        'uuid_derived',
        'info',
        jsonPath(locate(ctx), 'uuid'),
        errorMessage('uuid_derived', derived),
      );
  }

  if (known) applyKindRules(ctx, kind, draft);

  stampEventTime(draft, ms);
  const cuts = deepFreezeCounting(draft);
  if (cuts > 0) {
    if (ctx.cut.count === 0) {
      ctx.cut.path = locate(ctx);
      ctx.cut.uuid = draft.uuid as string;
    }
    ctx.cut.count += cuts;
  }
  return draft as unknown as Event;
}

// ---------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------

/**
 * Parses one wire event into a canonical, deep-frozen {@link Event}.
 *
 * Fills what is missing (reported in `diagnostics`), throws an
 * {@link ImportError} (`wrong_type`, `missing_field`, `invalid_value`,
 * `invalid_timestamp`) with the JSON path of what is wrong, and keeps unknown
 * kinds and fields. An event without `uuid` gets a deterministic one derived
 * from `options.path`, its content and `options.uuidSeed`.
 *
 * @example
 * const { event, diagnostics } = parseEvent(
 *   { event: 'span_end', span_id: 's1', timestamp: '2024-01-01T00:00:05Z' },
 *   { path: '$.events[3]' },
 * );
 * event.event === 'span_end' && event.id; // 's1' (inferred, reported in diagnostics)
 */
export function parseEvent(json: unknown, options?: ParseEventOptions): ParseEventResult {
  const ctx = makeContext(options);
  const event = parseOne(ctx, json);
  return { event, diagnostics: finish(ctx) };
}

/**
 * {@link parseEvent} for records read one at a time (JSON Lines, a stream):
 * each at its own path, as `parseEvent` parses it alone, but with one count
 * per diagnostic code over all of them (the cap applies to the whole file,
 * and nothing is built past it) and one `value_too_deep` for all the values
 * cut. `finish` gives the totals: the cuts and one `diagnostics_truncated`
 * per code over the cap.
 * @internal
 * @example
 * import { createRecordParser } from 'src/core/events/parse.js';
 * declare const records: unknown[];
 * const parser = createRecordParser({ uuidSeed: 'run-7' });
 * const events = records.map((r, i) => parser.parse(r, `$[${i}]`).event);
 * const totals = parser.finish();
 */
export function createRecordParser(options?: Omit<ParseEventOptions, 'path'>): {
  parse(json: unknown, path: string): ParseEventResult;
  finish(): Diagnostic[];
} {
  const shared = makeContext(options);
  return {
    parse(json, path) {
      const ctx = makeContext({ ...options, path });
      ctx.counts = shared.counts;
      ctx.cut = shared.cut;
      ctx.owner = false;
      const event = parseOne(ctx, json);
      return { event, diagnostics: ctx.diagnostics };
    },
    finish: () => finish(shared),
  };
}

/**
 * Parses a list of wire events (an array, or an object with an `events` array
 * such as an inspect sample or a timeline fixture) into canonical,
 * deep-frozen events, in order. Each event's path is `${path}[i]` (or
 * `${path}.events[i]`), so a derived uuid equals what {@link parseEvent}
 * gives the same event at the same path.
 *
 * A missing timestamp is repaired from the previous event's, else the next
 * event's, else `options.defaultTimestamp` — so a repaired event never moves
 * out of order.
 *
 * @example
 * declare const sample: { events: unknown[] };
 * const { events, diagnostics } = parseEvents(sample.events, { path: '$.samples[0].events' });
 */
export function parseEvents(
  json: unknown[] | unknown,
  options?: ParseEventOptions,
): ParseEventsResult {
  let base = options?.path ?? '$';
  let list: unknown = json;
  // A container (sample, fixture file) has `events` but is not itself an
  // event: a legacy tool event also has an `events` array.
  if (isPlainObject(json) && Array.isArray(json.events) && typeof json.event !== 'string') {
    base = jsonPath(base, 'events');
    list = json.events;
  }
  if (!Array.isArray(list)) throw wrongType(base, 'array of events', list);
  const ctx = makeContext(options);
  ctx.raw = list;
  ctx.base = base;
  const events: Event[] = [];
  for (let i = 0; i < list.length; i++) {
    ctx.index = i;
    events.push(parseOne(ctx, list[i]));
  }
  return { events, diagnostics: finish(ctx) };
}

/**
 * A {@link parseEvents} over a list that arrives in pieces (a loader that
 * parses a big log's events as it finds them): `push` parses the next
 * elements, numbering them on from the previous piece, and `finish` returns
 * the diagnostics, capped over the whole list. Pushing a list in pieces gives
 * the events and diagnostics `parseEvents` gives for the whole list, except
 * for one repair: an event without a timestamp before any event that has one
 * looks ahead only within its own piece. `shortLookAhead` says when that
 * happened (the result may then differ from `parseEvents`'); it cannot happen
 * once an event with a valid timestamp has been parsed.
 *
 * @example
 * import { createEventsParser } from 'src/core/events/parse.js';
 * declare const first: unknown[];
 * declare const rest: unknown[];
 * const parser = createEventsParser({ path: '$.samples[0].events', uuidSeed: 'run/task/1/1' });
 * const events = [...parser.push(first), ...parser.push(rest)];
 * const diagnostics = parser.finish();
 * @internal
 */
export function createEventsParser(options?: ParseEventOptions): {
  push(list: readonly unknown[]): Event[];
  readonly shortLookAhead: boolean;
  finish(): Diagnostic[];
} {
  const ctx = makeContext(options);
  let next = 0;
  return {
    push(list) {
      ctx.raw = list;
      ctx.offset = next;
      const events: Event[] = [];
      for (let i = 0; i < list.length; i++) {
        ctx.index = next + i;
        events.push(parseOne(ctx, list[i]));
      }
      next += list.length;
      return events;
    },
    get shortLookAhead() {
      return ctx.shortLookAhead;
    },
    finish: () => finish(ctx),
  };
}
