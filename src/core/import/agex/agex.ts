// Long on purpose (past 600 lines): agex-ts unions, Python class names and mime streams all feed one namespace-and-task state machine.
// agex events (https://github.com/ashenfad/agex, `agex/agent/events.py`; the TS
// port's `packages/agex-ts/src/types.ts`) and skein's
// own mime stream (`mimeStream`/`toMimeStream`, the `mime_stream` design of
// agex, https://github.com/ashenfad/agex/blob/main/docs/todo-mime.md), as JSON Lines, a JSON array or
// `{"events": [...]}`.
//
// Records read, each by its shape:
// - the agex-ts union, tagged `type` in camelCase (`taskStart`, `action`,
//   `output`, `success`, `fail`, `clarify`, `cancelled`, `error`, `file`,
//   `systemNote`, `chapter`), and agex-studio's snake_case frames
//   (`task_start`, `system_note`, `turn_complete`);
// - the Python models, the class name in `event_type` (what the design's
//   `render(event)` adds to `model_dump()`), `class`, `__class__` or `type`
//   (`TaskStartEvent`, `ActionEvent`, …), fields in snake_case;
// - streamed `TokenChunk`s (`emissionIndex`/`emission_index`);
// - mime-stream records: canonical skein events (kept exactly as they are) and
//   `DisplayDataPart`s (`{output_type: 'display_data', data, metadata}`, or a
//   bare MIME dict) for raw output objects.
//
// Mapping (the one representation every importer maps to):
// - `full_namespace` (`"orchestrator/worker_a"`; agex-ts has only `agentName`)
//   is the nesting: each agent is a `span_begin`/`span_end` of `type: 'agent'`
//   whose parent is the innermost open span of the namespace above it (its
//   running task), so a sub-agent sits inside the task that called it. agex
//   calls sub-agents from generated code, not through tool calls, so there is
//   no spawning tool event to hang it under. An agent span ends when the task
//   that called it ends, or with the input (at its last event).
// - `TaskStartEvent` opens a `task` span (name = `task_name`, inputs in its
//   metadata; the task's `message` as a `user` message inside it); the next
//   success / fail / clarify / cancelled of that agent closes it, after its
//   own event: success → `info` (`data` = the result), fail → `error`,
//   clarify → an `assistant` message, cancelled → `interrupt` (and the task
//   is aborted: every event of it marked `metadata.aborted`). A task still
//   open at the end is closed at the agent's last event, flagged as an
//   invented `end`, with an `agex_task_unclosed` diagnostic.
// - `ActionEvent` → a `model` event (the agent's model turn; `model` is the
//   agent's name because agex records no model): `thinking` as reasoning,
//   `title` and text emissions as text, code emissions (`ts`, `terminal`,
//   `fileWrite`, `fileEdit`; Python's flat `code`/`terminal`/`file_actions`)
//   as tool calls of the assistant message, token counts as usage. agex runs
//   the code itself and reports what it printed as `OutputEvent`s, so there
//   are no tool events.
// - `OutputEvent` parts and mime-stream `DisplayDataPart`s → `display` events
//   (one bundle per part: agex-ts `text`/`image`/`error` parts directly,
//   anything else through the display protocol's `displayOf`).
// - Token chunks merge into one assistant `message` per emission
//   (`emissionIndex`) and turn, never one event per chunk; thinking chunks
//   become reasoning parts. The `done` chunk closes it (its assembled
//   `emission` goes to the metadata); so do the next action and `turn_complete`.
// - `ErrorEvent` → `error` (`metadata.recoverable`); `SystemNoteEvent` → a
//   `system` message; `ChapterEvent` (context compaction) → `compaction`;
//   `FileEvent` → `info` with the file lists as `data`.
// - Fields the mapping does not use are kept in `metadata.agex`; records of
//   unknown kinds become `info` events (`source: 'agex'`, `data` = the raw
//   record) with an `unknown_event_kind` diagnostic. Missing times (token
//   chunks, display parts) are synthesised after the last time seen and
//   flagged (`metadata.skein_invented`, one `value_invented` diagnostic).
// Left out: `commit_hash`/`parent_ref` are kept in metadata but not resolved
// against Versioned state; `replay_stream` (no implementation exists).
import { jsonPath } from '../../errors.js';
import type { Diagnostic } from '../../errors.js';
import { displayOf } from '../../display/display-of.js';
import { eventTime } from '../../events/event-time.js';
import { createRecordParser } from '../../events/parse.js';
import { timestampHadOffset, timestampMs } from '../../events/timestamp.js';
import type {
  CompactionEvent,
  Content,
  ContentReasoning,
  ContentText,
  DisplayEvent,
  ErrorEvent,
  Event,
  InfoEvent,
  InterruptEvent,
  JsonObject,
  MessageEvent,
  MimeBundle,
  ModelEvent,
  SpanBeginEvent,
  SpanEndEvent,
  ToolCall,
} from '../../events/types.js';
import { isEventKind } from '../../events/types.js';
import {
  importerParts,
  importLines,
  importRecords,
  sniffer,
  type FormatImporter,
  type ImportResult,
  type IncrementalImporter,
} from '../format.js';
import type { ImportContext } from '../guards.js';
import {
  isRecord,
  own,
  typeName,
  type ImportOptions,
  type JsonRecord,
  valueText,
} from '../guards.js';
import { markSpanAborted } from '../aborted.js';
import { Probe, type ImportInput } from '../probe.js';
import type { EventSink } from '../sink.js';
import { inventedOnly, SyntheticClock } from '../sink.js';
import { EMPTY_ARRAY, EMPTY_OBJECT } from '../../events/freeze.js';

/** An agex event kind, by the agex-ts `type` names. */
type AgexKind =
  | 'taskStart'
  | 'action'
  | 'output'
  | 'success'
  | 'fail'
  | 'clarify'
  | 'cancelled'
  | 'error'
  | 'file'
  | 'systemNote'
  | 'chapter'
  | 'turnComplete';

/** What a record is, for the importer. */
type RecordShape = AgexKind | 'chunk' | 'mime' | 'canonical' | 'unknown';

// Every spelling of each kind: agex-ts, agex-studio (snake_case) and the
// Python class names. A Map, so `constructor` or `__proto__` never match.
const KINDS = new Map<string, AgexKind>();
for (const [kind, names] of [
  ['taskStart', ['taskStart', 'task_start', 'TaskStartEvent', 'TaskStart']],
  ['action', ['action', 'ActionEvent', 'Action']],
  ['output', ['output', 'OutputEvent', 'Output']],
  ['success', ['success', 'SuccessEvent', 'Success']],
  ['fail', ['fail', 'FailEvent', 'Fail']],
  ['clarify', ['clarify', 'ClarifyEvent', 'Clarify']],
  ['cancelled', ['cancelled', 'CancelledEvent', 'Cancelled']],
  ['error', ['error', 'ErrorEvent']],
  ['file', ['file', 'FileEvent']],
  ['systemNote', ['systemNote', 'system_note', 'SystemNoteEvent', 'SystemNote']],
  ['chapter', ['chapter', 'ChapterEvent', 'Chapter']],
  ['turnComplete', ['turn_complete', 'turnComplete']],
] as const) {
  for (const name of names) KINDS.set(name, kind);
}

// Class-name fields of the Python shape, in the order they are tried.
const CLASS_KEYS = ['event_type', 'eventType', 'class', '__class__'] as const;

// `type` values that are agex's alone (the short ones — `action`, `error`,
// `text` — are also other formats' tags, so a record tagged with one counts
// for detection only with an agex base field).
const DISTINCT_TYPES = new Set([
  'taskStart',
  'task_start',
  'systemNote',
  'system_note',
  'turn_complete',
  'turnComplete',
]);

const MIME_KEY = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i;

function isMimeDict(rec: JsonRecord): boolean {
  let n = 0;
  for (const key in rec) {
    if (!MIME_KEY.test(key)) return false;
    n++;
  }
  return n > 0;
}

function chunkIndex(rec: JsonRecord): number | undefined {
  const v = own(rec, 'emissionIndex') ?? own(rec, 'emission_index');
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

// The index of the last record `shapeOf` classed as a chunk, so the importer
// does not read it again.
let shapeChunkIndex = 0;

/** Classifies one record (never throws, reads own properties only). */
function shapeOf(rec: unknown): RecordShape {
  if (!isRecord(rec)) return 'unknown';
  for (const key of CLASS_KEYS) {
    const v = own(rec, key);
    if (typeof v === 'string') return KINDS.get(v) ?? 'unknown';
  }
  const type = own(rec, 'type');
  if (typeof type === 'string') {
    const kind = KINDS.get(type);
    // A token chunk's `type` (`text`, `thinking`, `ts`, …) names its content.
    const index = chunkIndex(rec);
    if (index !== undefined && kind !== 'turnComplete') {
      shapeChunkIndex = index;
      return 'chunk';
    }
    if (kind) return kind;
  }
  if (typeof own(rec, 'output_type') === 'string') return 'mime';
  const event = own(rec, 'event');
  if (
    typeof event === 'string' &&
    isEventKind(event) &&
    typeof own(rec, 'uuid') === 'string' &&
    typeof own(rec, 'timestamp') === 'string'
  )
    return 'canonical';
  if (isMimeDict(rec)) return 'mime';
  const data = own(rec, 'data');
  if (isRecord(data) && isMimeDict(data)) return 'mime';
  return 'unknown';
}

/** Whether a record is unmistakably agex (for detection, stricter than import). */
function isAgexMarker(rec: unknown): boolean {
  const shape = shapeOf(rec);
  if (shape === 'unknown' || shape === 'canonical' || shape === 'mime') return false;
  const r = rec as JsonRecord;
  if (CLASS_KEYS.some((k) => typeof own(r, k) === 'string')) return true;
  if (shape === 'chunk') return typeof own(r, 'content') === 'string';
  const type = own(r, 'type');
  return (
    (typeof type === 'string' && DISTINCT_TYPES.has(type)) ||
    typeof own(r, 'agentName') === 'string' ||
    typeof own(r, 'agent_name') === 'string' ||
    typeof own(r, 'full_namespace') === 'string'
  );
}

/** The records of a parsed document: an array, `{events: [...]}`, or one record. */
function documentRecords(doc: unknown): { list: unknown[]; base: string } | undefined {
  if (Array.isArray(doc)) return { list: doc, base: '$' };
  if (isRecord(doc)) {
    const events = own(doc, 'events');
    if (Array.isArray(events) && own(doc, 'event') === undefined)
      return { list: events, base: '$.events' };
  }
  return undefined;
}

function detect(probe: Probe): boolean {
  const doc = probe.json();
  const found = documentRecords(doc);
  const head = found ? found.list.slice(0, 4) : probe.records(4);
  if (head.length === 0) return false;
  let marked = false;
  for (const rec of head) {
    if (shapeOf(rec) === 'unknown') return false;
    if (isAgexMarker(rec)) marked = true;
  }
  return marked;
}

// --- the importer ------------------------------------------------------------

interface TaskState {
  readonly spanId: string;
  readonly begin: SpanBeginEvent;
  readonly name: string;
  readonly path: string;
}

interface AgentState {
  readonly ns: string;
  readonly spanId: string;
  readonly begin: SpanBeginEvent;
  /** The span it was opened in (its caller's task), or null at the root. */
  readonly parentSpan: string | null;
  readonly tasks: TaskState[];
  readonly children: AgentState[];
  lastTime: string;
  /** `timestampMs(lastTime)`, kept so each record compares one number, not two parses. */
  lastMs: number;
}

// Fields each kind maps; everything else is kept in `metadata.agex`.
const BASE_FIELDS = [
  'type',
  'event_type',
  'eventType',
  'class',
  '__class__',
  'timestamp',
  'agentName',
  'agent_name',
  'full_namespace',
  'fullNamespace',
];
const USED = new Map<AgexKind, ReadonlySet<string>>();
for (const [kind, fields] of [
  ['taskStart', ['taskName', 'task_name', 'inputs', 'message']],
  [
    'action',
    [
      'title',
      'thinking',
      'code',
      'terminal',
      'file_actions',
      'fileActions',
      'emissions',
      'inputTokens',
      'input_tokens',
      'outputTokens',
      'output_tokens',
    ],
  ],
  ['output', ['parts']],
  ['success', ['result']],
  ['fail', ['message']],
  ['clarify', ['message']],
  ['cancelled', ['taskName', 'task_name', 'iterationsCompleted', 'iterations_completed']],
  ['error', ['errorName', 'errorMessage', 'error', 'recoverable', 'message']],
  ['file', ['source', 'file_source', 'added', 'modified', 'removed']],
  ['systemNote', ['message']],
  ['chapter', ['name', 'message', 'slug', 'eventRefs', 'event_refs']],
  ['turnComplete', []],
] as const) {
  USED.set(kind, new Set([...BASE_FIELDS, ...fields]));
}

/** The fields of `rec` not in `used`, or undefined when there are none. */
function rest(rec: JsonRecord, used: ReadonlySet<string>): JsonObject | undefined {
  let out: JsonObject | undefined;
  for (const key in rec) {
    if (used.has(key)) continue;
    out ??= {};
    setOwn(out, key, rec[key]);
  }
  return out;
}

function str(rec: JsonRecord, a: string, b?: string): string | undefined {
  const v = own(rec, a) ?? (b === undefined ? undefined : own(rec, b));
  return typeof v === 'string' ? v : undefined;
}

function num(rec: JsonRecord, a: string, b?: string): number | undefined {
  const v = own(rec, a) ?? (b === undefined ? undefined : own(rec, b));
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

const CODE_EMISSIONS = new Map<string, string>([
  ['ts', 'ts'],
  ['python', 'python'],
  ['terminal', 'terminal'],
  ['fileWrite', 'file_write'],
  ['file_write', 'file_write'],
  ['fileEdit', 'file_edit'],
  ['file_edit', 'file_edit'],
]);

/** One output part as a MIME bundle (agex's `OutputPart`). */
function partBundle(part: unknown): MimeBundle {
  if (isRecord(part)) {
    const type = own(part, 'type');
    if (type === 'text') {
      const t = own(part, 'text') ?? own(part, 'content');
      if (typeof t === 'string') return { data: { 'text/plain': t } };
    } else if (type === 'image') {
      const data = own(part, 'data');
      if (typeof data === 'string') {
        const format = str(part, 'format') ?? 'png';
        const mime = `image/${format === 'jpg' ? 'jpeg' : format}`;
        const alt = str(part, 'altText', 'alt_text');
        return { data: { [mime]: data, 'text/plain': alt ?? `[${format} image]` } };
      }
    } else if (type === 'error') {
      const ename = str(part, 'errorName', 'error_name') ?? 'Error';
      const evalue = str(part, 'errorMessage', 'error_message') ?? str(part, 'content') ?? '';
      return {
        data: { 'text/plain': evalue ? `${ename}: ${evalue}` : ename },
        metadata: { skein: { error: { ename, evalue } } },
      };
    }
  }
  const bundle = displayOf(part);
  return bundle.metadata ? { data: bundle.data, metadata: bundle.metadata } : { data: bundle.data };
}

/**
 * Adds a tool call to `calls`; without an id of its own (a string, not
 * empty) it gets `${uuid}-${index}`. False when the id was invented.
 */
function pushCall(calls: ToolCall[], fn: string, args: JsonObject, id: unknown, uuid: string) {
  if (typeof id === 'string' && id !== '') {
    calls.push({ id, function: fn, arguments: args });
    return true;
  }
  calls.push({ id: `${uuid}-${calls.length}`, function: fn, arguments: args });
  return false;
}

// Metadata without fields of its own is one frozen object per kind, shared by
// every such event (events are frozen anyway; a flag added later, such as
// `skein_invented`, makes a new object).
const KIND_METADATA = new Map<string, JsonObject>();
for (const kind of ['success', 'fail', 'clarify', 'file'])
  KIND_METADATA.set(kind, Object.freeze({ agex_event: kind }) as JsonObject);

/** `{ agex_event: kind }`, plus `agex: extra` when there are unused fields. */
function agexMetadata(kind: string, extra: JsonObject | undefined): JsonObject {
  return extra ? { agex_event: kind, agex: extra } : KIND_METADATA.get(kind)!;
}

// `internal: { agex_chunk }` of a chunk's text part, one frozen object per
// chunk kind (a few, but bounded: the kinds come from the input).
const CHUNK_INTERNAL = new Map<string, JsonObject>();

function chunkInternal(type: string): JsonObject {
  let internal = CHUNK_INTERNAL.get(type);
  if (internal === undefined) {
    internal = { agex_chunk: type };
    if (CHUNK_INTERNAL.size < 64) CHUNK_INTERNAL.set(type, Object.freeze(internal));
  }
  return internal;
}

/** The content part of a chunk: its kind (`title`, `ts`, `filePath`, …) says what the text is. */
function chunkPart(
  reasoning: boolean,
  type: string,
  content: string,
): ContentText | ContentReasoning {
  return reasoning
    ? { type: 'reasoning', reasoning: content }
    : type !== 'text'
      ? { type: 'text', text: content, internal: chunkInternal(type) }
      : { type: 'text', text: content };
}

// A text grown by `+=`, chunk by chunk, is a tree of concatenations (an object
// and its piece per chunk, 1.6 kB kept for 50 chunks of 5 characters).
// Reading a character makes the engine flatten it into one string in place,
// and the collector then drops the tree: 0.35 kB. The read goes into a
// variable so that it is not optimised away.
let _flattened = 0;

/** Flattens the texts of a chunk message that is done growing. */
function flattenParts(parts: Content[]): void {
  for (const part of parts) {
    if (part.type === 'text') _flattened ^= part.text.charCodeAt(0);
    else if (part.type === 'reasoning') _flattened ^= part.reasoning.charCodeAt(0);
  }
}

// `{ emission_index, skein_invented? }` of a chunk message: what `sink.invent`
// would make of `{ emission_index }`, in one object, and for the usual small
// indexes one frozen object shared by every such message (replaced, never
// changed, when the `done` chunk adds its `emission`).
const EMISSION_METADATA: JsonObject[] = [];

function emissionMetadata(index: number, invented: boolean): JsonObject {
  // (-0 too is its own: a shared `emission_index: 0` would not be it.)
  if (!Number.isInteger(index) || index < 0 || index >= 64 || Object.is(index, -0))
    return newEmissionMetadata(index, invented);
  const at = index * 2 + (invented ? 1 : 0);
  return (EMISSION_METADATA[at] ??= Object.freeze(
    newEmissionMetadata(index, invented),
  ) as JsonObject);
}

// A function of its own, not a closure in `emissionMetadata`: a closure made
// per chunk message (and, under tsx, named by an `__name` call) was 3 % of an
// import.
function newEmissionMetadata(index: number, invented: boolean): JsonObject {
  return invented
    ? { emission_index: index, skein_invented: inventedOnly('timestamp') }
    : { emission_index: index };
}

/** Sets `key` as own data (a `__proto__` key stays a property, not the prototype). */
function setOwn(out: JsonObject, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(out, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  else out[key] = value as never;
}

class AgexImporter implements IncrementalImporter {
  readonly #ctx: ImportContext;
  readonly #sink: EventSink;
  readonly #clock: SyntheticClock;
  /** Canonical records of a mime stream: one cap per code and one cut count for the file. */
  readonly #records: ReturnType<typeof createRecordParser>;
  readonly #extra: Diagnostic[] = [];
  /** Open agents by namespace. */
  readonly #agents = new Map<string, AgentState>();
  /** Open token-chunk messages by `namespace\0emissionIndex`. */
  readonly #chunks = new Map<string, MessageEvent>();
  /**
   * How many chunk messages each message id of this turn has had (a key
   * reused after its message closed). Ids hold the turn, so those of past
   * turns cannot recur: the map is cleared at each turn (it held every chunk
   * message's id, and its probes and growth were 5 % of an import).
   */
  readonly #messageIds = new Map<string, number>();
  #spans = 0;
  #turn = 0;
  #lastNs: string | undefined;
  /** Spans opened by canonical events (a mime stream) and not yet ended. */
  readonly #open: string[] = [];
  /** The latest time seen or invented. */
  #maxTime: string | undefined;
  #maxMs = -Infinity;
  /** Whether the last `#time` was invented. */
  #invented = false;
  /** `timestampMs` of the last `#time`. */
  #ms = Number.NaN;
  /** Scratch lists of `#action`. */
  readonly #content: (ContentText | ContentReasoning)[] = [];
  readonly #calls: ToolCall[] = [];
  #modelNs: string | undefined;
  /** The agent `#agent` returned last (while it is open). */
  #lastAgent: AgentState | undefined;
  /** `#chunkKey`'s keys of namespace `#keysNs`, by index. */
  readonly #keys: string[] = [];
  #keysNs: string | undefined;
  #model = '';

  constructor(options: ImportOptions) {
    const { ctx, sink } = importerParts('agex', options);
    this.#ctx = ctx;
    this.#sink = sink;
    this.#records = createRecordParser({ uuidSeed: options.uuidSeed ?? 'agex' });
    this.#clock = new SyntheticClock(options.baseTime);
  }

  push(record: unknown, path: string): void {
    const shape = shapeOf(record);
    if (shape === 'canonical') return this.#canonical(record as JsonRecord, path);
    if (!isRecord(record)) {
      this.#ctx.warn(path, 'wrong_type', 'object', typeName(record));
      return this.#unknown(record, path, 'agex');
    }
    switch (shape) {
      case 'chunk':
        return this.#chunk(record, path, shapeChunkIndex);
      case 'mime':
        return this.#mime(record, path);
      case 'unknown':
        return this.#unknown(record, path, this.#kindName(record));
      case 'turnComplete':
        this.#closeChunks();
        this.#nextTurn();
        return;
      default:
        return this.#agexEvent(shape, record, path);
    }
  }

  drain(): Event[] {
    return this.#sink.drain();
  }

  end(): Event[] {
    this.#closeChunks();
    // What is still open ends with the input, at the last time seen, so no
    // span ends before something inside it.
    const time = this.#maxTime ?? this.#clock.next();
    for (const agent of [...this.#agents.values()])
      if (agent.parentSpan === null) this.#closeAgent(agent, time, '$');
    for (const agent of [...this.#agents.values()]) this.#closeAgent(agent, time, '$');
    return this.#sink.drain();
  }

  diagnostics(): Diagnostic[] {
    const own = this.#ctx.finish();
    const totals = this.#records.finish();
    return this.#extra.length || totals.length ? [...this.#extra, ...totals, ...own] : own;
  }

  // --- shapes ---------------------------------------------------------------

  #canonical(record: JsonRecord, path: string): void {
    const { event, diagnostics } = this.#records.parse(record, path);
    for (const d of diagnostics) this.#extra.push(d);
    this.#clock.observe(event.timestamp);
    this.#seen(event.timestamp, eventTime(event));
    // Spans of a mime stream's own events, for the displays printed inside them.
    if (event.event === 'span_begin') this.#open.push((event as SpanBeginEvent).id);
    else if (event.event === 'span_end') {
      const at = this.#open.lastIndexOf((event as SpanEndEvent).id);
      if (at >= 0) this.#open.splice(at, 1);
    }
    this.#sink.add(event);
  }

  #kindName(record: JsonRecord): string {
    for (const key of [...CLASS_KEYS, 'type'] as const) {
      const v = own(record, key);
      if (typeof v === 'string') return v;
    }
    return 'agex';
  }

  #unknown(record: unknown, path: string, kind: string): void {
    this.#ctx.info(path, 'unknown_event_kind', kind);
    const ns = isRecord(record) ? this.#namespace(record) : undefined;
    const timed = isRecord(record);
    const at = timed ? this.#time(record, path) : this.#clock.next();
    const invented = timed ? this.#invented : true;
    const ms = timed ? this.#ms : timestampMs(at);
    const draft: InfoEvent = {
      event: 'info',
      uuid: this.#sink.uuid(path),
      timestamp: at,
      source: 'agex',
      data: record as never,
    };
    const span = this.#spanFor(ns, at, ms, path);
    if (span !== undefined) draft.span_id = span;
    this.#sink.add(draft);
    if (invented) this.#sink.invent(draft, 'timestamp', path);
  }

  #mime(record: JsonRecord, path: string): void {
    const bundle = partBundle(record);
    const time = this.#time(record, path);
    const invented = this.#invented;
    const draft: DisplayEvent = {
      event: 'display',
      uuid: this.#sink.uuid(path),
      timestamp: time,
      outputs: [bundle],
    };
    const span = this.#spanFor(this.#namespace(record), time, this.#ms, path);
    if (span !== undefined) draft.span_id = span;
    const transient = own(record, 'transient');
    const displayId = isRecord(transient) ? own(transient, 'display_id') : undefined;
    if (typeof displayId === 'string') draft.display_id = displayId;
    this.#sink.add(draft);
    if (invented) this.#sink.invent(draft, 'timestamp', path);
  }

  #chunk(record: JsonRecord, path: string, index: number): void {
    const ns = this.#namespace(record) ?? this.#lastNs ?? 'agent';
    const key = this.#chunkKey(ns, index);
    const type = str(record, 'type') ?? 'text';
    const content = str(record, 'content') ?? '';
    const reasoning = type === 'thinking';
    let draft = this.#chunks.get(key);
    if (!draft) {
      const time = this.#time(record, path);
      const invented = this.#invented;
      const agent = this.#agent(ns, time, this.#ms, path);
      // `${ns}:${turn}:${index}`, joined: one flat string, where the
      // template kept a tree of four concatenations (140 bytes, not 48) per
      // message for the whole import.
      const messageId = [ns, this.#turn, index].join(':');
      // Chunks of an emission whose message was closed (its `done` seen)
      // start another message: a uuid of its own, the first one's unchanged.
      const seen = this.#messageIds.get(messageId) ?? 0;
      this.#messageIds.set(messageId, seen + 1);
      draft = this.#sink.add<MessageEvent>(
        {
          event: 'message',
          uuid: this.#sink.uuid(
            seen === 0 ? `message\u0000${messageId}` : `message\u0000${messageId}#${seen + 1}`,
          ),
          span_id: this.#innermost(agent),
          timestamp: time,
          role: 'assistant',
          // The first chunk's part in a list of its size (one grown by `push`
          // from `[]` keeps 17 slots, per message, for the whole import).
          content: [chunkPart(reasoning, type, content)],
          message_id: messageId,
          source: 'agex',
          metadata: emissionMetadata(index, invented),
        },
        { open: true },
      );
      if (invented) this.#ctx.invent('timestamp', path);
      this.#chunks.set(key, draft);
    } else {
      this.#sink.touch(draft);
      const parts = draft.content as Content[];
      const last = parts[parts.length - 1];
      if (reasoning && last?.type === 'reasoning' && this.#partType(last) === type)
        last.reasoning += content;
      else if (!reasoning && last?.type === 'text' && this.#partType(last) === type)
        last.text += content;
      else if (content !== '' || parts.length === 0)
        parts.push(chunkPart(reasoning, type, content));
    }
    if (own(record, 'done') === true) {
      const emission = own(record, 'emission');
      if (emission !== undefined) draft.metadata = { ...draft.metadata, emission };
      flattenParts(draft.content as Content[]);
      this.#sink.close(draft);
      this.#chunks.delete(key);
    }
  }

  /** Starts the next turn (an action, or a `turnComplete`). */
  #nextTurn(): void {
    this.#turn++;
    this.#messageIds.clear();
  }

  /**
   * `${ns}\0${index}`, the key of an open chunk message; for the last
   * namespace's small indexes one string kept, not one built (and hashed)
   * per chunk.
   */
  #chunkKey(ns: string, index: number): string {
    if (ns !== this.#keysNs) {
      this.#keysNs = ns;
      this.#keys.length = 0;
    }
    if (index >= 0 && index < 64 && Number.isInteger(index))
      return (this.#keys[index] ??= `${ns}\u0000${index}`);
    return `${ns}\u0000${index}`;
  }

  #partType(part: ContentText | ContentReasoning): string {
    if (part.type === 'reasoning') return 'thinking';
    const internal = part.internal as { agex_chunk?: string } | undefined;
    return internal?.agex_chunk ?? 'text';
  }

  #closeChunks(): void {
    for (const draft of this.#chunks.values()) {
      flattenParts(draft.content as Content[]);
      this.#sink.close(draft);
    }
    this.#chunks.clear();
  }

  #agexEvent(kind: AgexKind, record: JsonRecord, path: string): void {
    const ns = this.#namespace(record) ?? this.#lastNs ?? 'agent';
    const time = this.#time(record, path);
    const invented = this.#invented;
    const ms = this.#ms;
    const agent = this.#agent(ns, time, ms, path);
    agent.lastTime = time;
    agent.lastMs = ms;
    const extra = rest(record, USED.get(kind)!);
    // The fields every event here starts with, written into each literal (a
    // spread `base` object was one more object per record).
    const uuid = this.#sink.uuid(path);
    const spanId = this.#innermost(agent);
    let draft: Event;
    switch (kind) {
      case 'taskStart': {
        const name = str(record, 'taskName', 'task_name') ?? 'task';
        const id = this.#spanId('task');
        const inputs = own(record, 'inputs');
        // One literal per combination (in the order the keys were added in).
        const metadata: JsonObject =
          inputs !== undefined
            ? extra
              ? { task_name: name, inputs, agex: extra }
              : { task_name: name, inputs }
            : extra
              ? { task_name: name, agex: extra }
              : { task_name: name };
        const begin = this.#sink.openSpan({
          id,
          uuid,
          parent_id: spanId,
          timestamp: time,
          type: 'task',
          name,
          metadata,
        });
        draft = begin;
        agent.tasks.push({ spanId: id, begin, name, path });
        const message = str(record, 'message');
        if (message !== undefined && message !== '') {
          const m = this.#sink.add<MessageEvent>({
            event: 'message',
            uuid: this.#sink.uuid(`${path}#message`),
            span_id: id,
            timestamp: time,
            role: 'user',
            content: message,
            message_id: `${id}:message`,
            source: 'agex',
          });
          if (invented) this.#sink.invent(m, 'timestamp', path);
        }
        break;
      }
      case 'action':
        this.#closeChunks();
        draft = this.#sink.add(this.#action(record, path, uuid, spanId, time, agent.ns, extra));
        this.#nextTurn();
        break;
      case 'output': {
        const parts = own(record, 'parts');
        const list = Array.isArray(parts) ? parts : parts === undefined ? [] : [parts];
        const outputs = list.map(partBundle);
        draft = this.#sink.add<DisplayEvent>(
          extra
            ? {
                event: 'display',
                uuid,
                span_id: spanId,
                timestamp: time,
                outputs,
                metadata: { agex: extra },
              }
            : { event: 'display', uuid, span_id: spanId, timestamp: time, outputs },
        );
        break;
      }
      case 'success': {
        const result = own(record, 'result');
        const metadata = agexMetadata('success', extra);
        draft = this.#sink.add<InfoEvent>(
          result !== undefined && result !== null
            ? {
                event: 'info',
                uuid,
                span_id: spanId,
                timestamp: time,
                source: 'agex',
                data: result,
                metadata,
              }
            : { event: 'info', uuid, span_id: spanId, timestamp: time, source: 'agex', metadata },
        );
        break;
      }
      case 'fail': {
        const message = str(record, 'message') ?? '';
        draft = this.#sink.add<ErrorEvent>({
          event: 'error',
          uuid,
          span_id: spanId,
          timestamp: time,
          error: { message, traceback: '', traceback_ansi: '' },
          metadata: agexMetadata('fail', extra),
        });
        break;
      }
      case 'clarify':
        draft = this.#sink.add<MessageEvent>({
          event: 'message',
          uuid,
          span_id: spanId,
          timestamp: time,
          role: 'assistant',
          content: str(record, 'message') ?? '',
          message_id: uuid,
          source: 'agex',
          metadata: agexMetadata('clarify', extra),
        });
        break;
      case 'cancelled': {
        const metadata: JsonObject = { agex_event: 'cancelled' };
        const task = str(record, 'taskName', 'task_name');
        const n = num(record, 'iterationsCompleted', 'iterations_completed');
        if (task !== undefined) metadata['task_name'] = task;
        if (n !== undefined) metadata['iterations_completed'] = n;
        if (extra) metadata['agex'] = extra;
        draft = this.#sink.add<InterruptEvent>({
          event: 'interrupt',
          uuid,
          span_id: spanId,
          timestamp: time,
          source: 'user_cancel',
          interrupted: 'between_turns',
          metadata,
        });
        break;
      }
      case 'error': {
        const raw = own(record, 'error');
        const name =
          str(record, 'errorName', 'error_name') ??
          (isRecord(raw) ? str(raw, 'type', 'name') : undefined);
        const message =
          str(record, 'errorMessage', 'error_message') ??
          (isRecord(raw) ? str(raw, 'message') : undefined) ??
          (raw === undefined ? str(record, 'message') : valueText(raw)) ??
          '';
        const metadata: JsonObject = { agex_event: 'error' };
        const recoverable = own(record, 'recoverable');
        if (typeof recoverable === 'boolean') metadata['recoverable'] = recoverable;
        if (extra) metadata['agex'] = extra;
        const full = name ? `${name}: ${message}` : message;
        draft = this.#sink.add<ErrorEvent>({
          event: 'error',
          uuid,
          span_id: spanId,
          timestamp: time,
          error: { message: full, traceback: '', traceback_ansi: '' },
          metadata,
        });
        break;
      }
      case 'file': {
        const data: JsonObject = {
          source: str(record, 'source', 'file_source') ?? 'agent',
        };
        for (const k of ['added', 'modified', 'removed']) {
          const v = own(record, k);
          data[k] = Array.isArray(v) ? v : [];
        }
        draft = this.#sink.add<InfoEvent>({
          event: 'info',
          uuid,
          span_id: spanId,
          timestamp: time,
          source: 'agex',
          data,
          metadata: agexMetadata('file', extra),
        });
        break;
      }
      case 'systemNote':
        draft = this.#sink.add<MessageEvent>({
          event: 'message',
          uuid,
          span_id: spanId,
          timestamp: time,
          role: 'system',
          content: str(record, 'message') ?? '',
          message_id: uuid,
          source: 'agex',
          ...(extra ? { metadata: { agex: extra } } : {}),
        });
        break;
      case 'chapter': {
        const metadata: JsonObject = { name: str(record, 'name') ?? '' };
        const message = str(record, 'message');
        const slug = str(record, 'slug');
        const refs = own(record, 'eventRefs') ?? own(record, 'event_refs');
        if (message !== undefined) metadata['message'] = message;
        if (slug !== undefined) metadata['slug'] = slug;
        if (refs !== undefined) metadata['event_refs'] = refs;
        if (extra) metadata['agex'] = extra;
        draft = this.#sink.add<CompactionEvent>({
          event: 'compaction',
          uuid,
          span_id: spanId,
          timestamp: time,
          type: 'summary',
          source: 'agex',
          metadata,
        });
        break;
      }
      default:
        return;
    }
    if (invented) this.#sink.invent(draft, 'timestamp', path);
    if (kind === 'success' || kind === 'fail' || kind === 'clarify' || kind === 'cancelled')
      this.#closeTask(agent, kind, time, path);
  }

  #action(
    record: JsonRecord,
    path: string,
    uuid: string,
    spanId: string,
    time: string,
    ns: string,
    extra: JsonObject | undefined,
  ): ModelEvent {
    // Built in reused scratch lists and copied out at their size: a list
    // grown by `push` from `[]` keeps a backing store of 17 slots, and every
    // model event kept two of them for the whole import.
    const content = this.#content;
    const calls = this.#calls;
    // (Empty unless an earlier call threw half way.)
    if (content.length !== 0) content.length = 0;
    if (calls.length !== 0) calls.length = 0;
    let completion = '';
    const thinking = str(record, 'thinking');
    if (thinking) content.push({ type: 'reasoning', reasoning: thinking });
    const title = str(record, 'title');
    if (title) {
      content.push({ type: 'text', text: title });
      completion = title;
    }
    let invented = false;
    const emissions = own(record, 'emissions');
    if (Array.isArray(emissions)) {
      for (const e of emissions) {
        if (!isRecord(e)) continue;
        const kind = str(e, 'type', 'kind') ?? '';
        if (kind === 'thinking') {
          const t = str(e, 'thinking') ?? str(e, 'content') ?? str(e, 'text') ?? '';
          content.push({ type: 'reasoning', reasoning: t });
        } else if (kind === 'text') {
          const t = str(e, 'text') ?? str(e, 'content') ?? '';
          content.push({ type: 'text', text: t });
          completion = completion ? `${completion}\n\n${t}` : t;
        } else {
          const args: JsonObject = {};
          for (const k in e) if (k !== 'type' && k !== 'kind' && k !== 'id') setOwn(args, k, e[k]);
          const fn = CODE_EMISSIONS.get(kind) ?? (kind || 'emission');
          if (!pushCall(calls, fn, args, own(e, 'id'), uuid)) invented = true;
        }
      }
    }
    const code = str(record, 'code');
    if (code !== undefined && !pushCall(calls, 'python', { code }, undefined, uuid))
      invented = true;
    const terminal = str(record, 'terminal');
    if (
      terminal !== undefined &&
      !pushCall(calls, 'terminal', { command: terminal }, undefined, uuid)
    )
      invented = true;
    const files = own(record, 'file_actions') ?? own(record, 'fileActions');
    if (Array.isArray(files))
      for (const f of files)
        if (!pushCall(calls, 'file', isRecord(f) ? f : { action: f as never }, undefined, uuid))
          invented = true;
    const input = num(record, 'inputTokens', 'input_tokens');
    const output = num(record, 'outputTokens', 'output_tokens');
    const choices = [
      {
        message: calls.length
          ? {
              role: 'assistant' as const,
              content: content.slice(),
              tool_calls: calls.slice(),
              source: 'generate' as const,
            }
          : { role: 'assistant' as const, content: content.slice(), source: 'generate' as const },
        stop_reason: calls.length ? ('tool_calls' as const) : ('stop' as const),
      },
    ];
    // (Emptied only when used: setting `length` is a call into the runtime.)
    if (content.length !== 0) content.length = 0;
    if (calls.length !== 0) calls.length = 0;
    // Optional keys in the literals (in the order they were added in), not
    // added afterwards: a key added to a built object costs it a property
    // store of its own.
    const out: ModelEvent['output'] =
      input !== undefined || output !== undefined
        ? {
            model: '',
            choices,
            completion,
            usage: {
              input_tokens: input ?? 0,
              output_tokens: output ?? 0,
              total_tokens: (input ?? 0) + (output ?? 0),
            },
          }
        : { model: '', choices, completion };
    const name = this.#modelName(ns);
    const model: ModelEvent = extra
      ? {
          event: 'model',
          uuid,
          span_id: spanId,
          timestamp: time,
          model: name,
          // Shared frozen empties: three objects fewer per model event to
          // build, keep and freeze.
          input: EMPTY_ARRAY as [],
          tools: EMPTY_ARRAY as [],
          tool_choice: 'auto',
          config: EMPTY_OBJECT,
          output: out,
          metadata: { agex: extra },
        }
      : {
          event: 'model',
          uuid,
          span_id: spanId,
          timestamp: time,
          model: name,
          input: EMPTY_ARRAY as [],
          tools: EMPTY_ARRAY as [],
          tool_choice: 'auto',
          config: EMPTY_OBJECT,
          output: out,
        };
    if (invented) this.#sink.invent(model, 'id', path);
    return model;
  }

  /** The last segment of a namespace (an action's `model`), kept for the last namespace. */
  #modelName(ns: string): string {
    if (ns !== this.#modelNs) {
      this.#modelNs = ns;
      this.#model = ns.slice(ns.lastIndexOf('/') + 1);
    }
    return this.#model;
  }

  // --- structure --------------------------------------------------------------

  #namespace(record: JsonRecord): string | undefined {
    return str(record, 'full_namespace', 'fullNamespace') ?? str(record, 'agentName', 'agent_name');
  }

  #spanId(kind: string): string {
    return `agex-${kind}-${++this.#spans}`;
  }

  /**
   * Where a record without an agent of its own goes (a display part, an
   * unknown record): its namespace's innermost span, else the last agent's,
   * else the innermost span opened by canonical events of a mime stream.
   */
  #spanFor(ns: string | undefined, time: string, ms: number, path: string): string | undefined {
    const name = ns ?? this.#lastNs;
    if (name !== undefined) return this.#innermost(this.#agent(name, time, ms, path));
    return this.#open[this.#open.length - 1];
  }

  /** The innermost open span of an agent: its running task, else the agent itself. */
  #innermost(agent: AgentState): string {
    return agent.tasks[agent.tasks.length - 1]?.spanId ?? agent.spanId;
  }

  /**
   * The open agent of a namespace, opening it (and its callers) at `time` if
   * needed. `ms` is `timestampMs(time)`.
   */
  #agent(ns: string, time: string, ms: number, path: string): AgentState {
    this.#lastNs = ns;
    // The last agent again (records of one agent come in runs), without a
    // lookup; it is forgotten when any agent closes.
    const last = this.#lastAgent;
    const open = last !== undefined && last.ns === ns ? last : this.#agents.get(ns);
    if (open) {
      this.#lastAgent = open;
      // What `later(open.lastTime, time)` gives, without parsing both.
      if (ms >= open.lastMs) {
        open.lastTime = time;
        open.lastMs = ms;
      }
      return open;
    }
    const cut = ns.lastIndexOf('/');
    const parent = cut > 0 ? this.#agent(ns.slice(0, cut), time, ms, path) : undefined;
    this.#lastNs = ns;
    const id = this.#spanId('agent');
    const parentSpan = parent ? this.#innermost(parent) : null;
    const begin = this.#sink.openSpan({
      id,
      uuid: this.#sink.uuid(`agent\u0000${id}`),
      parent_id: parentSpan,
      timestamp: time,
      type: 'agent',
      name: ns.slice(cut + 1),
      metadata: { namespace: ns },
    });
    const agent: AgentState = {
      ns,
      spanId: id,
      begin,
      parentSpan,
      tasks: [],
      children: [],
      lastTime: time,
      lastMs: ms,
    };
    parent?.children.push(agent);
    this.#agents.set(ns, agent);
    this.#lastAgent = agent;
    return agent;
  }

  #closeTask(agent: AgentState, kind: AgexKind, time: string, path: string): void {
    const task = agent.tasks.pop();
    if (!task) {
      this.#ctx.warn(path, 'agex_unmatched_outcome', kind, agent.ns);
      return;
    }
    this.#closeChildren(agent, task.spanId, time);
    this.#spanEnd(task.begin, time, path, false);
    // A cancelled task is aborted (the rule: events/outcome.ts, "Aborted").
    if (kind === 'cancelled') markSpanAborted(this.#sink, task.begin);
  }

  /** Ends the sub-agents a task called (they cannot outlive it). */
  #closeChildren(agent: AgentState, spanId: string, time: string): void {
    for (let i = agent.children.length - 1; i >= 0; i--) {
      const child = agent.children[i]!;
      if (child.parentSpan !== spanId) continue;
      agent.children.splice(i, 1);
      this.#closeAgent(child, later(child.lastTime, time), '$');
    }
  }

  #closeAgent(agent: AgentState, time: string, path: string): void {
    if (this.#agents.get(agent.ns) !== agent) return;
    while (agent.tasks.length > 0) {
      const task = agent.tasks.pop()!;
      this.#ctx.warn(task.path, 'agex_task_unclosed', task.name);
      this.#closeChildren(agent, task.spanId, time);
      this.#spanEnd(task.begin, time, task.path, true);
    }
    for (const child of agent.children.splice(0)) this.#closeAgent(child, time, path);
    this.#agents.delete(agent.ns);
    this.#lastAgent = undefined;
    this.#spanEnd(agent.begin, time, path, false);
  }

  #spanEnd(begin: SpanBeginEvent, time: string, path: string, invented: boolean): void {
    const end = this.#sink.closeSpan(begin, {
      timestamp: time,
      uuid: this.#sink.uuid(`end\u0000${begin.id}`),
    });
    // The end itself is what was invented (its time is the last one seen).
    if (invented) this.#sink.invent(end, 'end', path);
  }

  /**
   * The record's time: its `timestamp` (ISO; a naive one is read as UTC with a
   * diagnostic; epoch seconds or ms are converted), else one invented after the
   * last time seen. Whether it was invented is left in `#invented`, its
   * `timestampMs` in `#ms` (fields, not a result object per record).
   */
  #time(record: JsonRecord, path: string): string {
    const raw = own(record, 'timestamp');
    let time: string | undefined;
    let ms = NaN;
    if (typeof raw === 'string') {
      ms = timestampMs(raw);
      if (Number.isFinite(ms)) {
        time = raw;
        if (!timestampHadOffset()) {
          this.#ctx.info(jsonPath(path, 'timestamp'), 'timestamp_no_offset', raw);
          time = `${raw}Z`;
        }
      } else this.#ctx.warn(jsonPath(path, 'timestamp'), 'invalid_timestamp', raw);
    } else if (typeof raw === 'number' && Number.isFinite(raw)) {
      // Epoch seconds (Python's `datetime.timestamp()`) or milliseconds.
      const t = Math.abs(raw) < 1e11 ? raw * 1000 : raw;
      if (Math.abs(t) < 8.64e15) {
        time = new Date(t).toISOString();
        ms = t;
      }
    } else if (raw !== undefined && raw !== null) {
      this.#ctx.warn(jsonPath(path, 'timestamp'), 'wrong_type', 'string', typeName(raw));
    }
    if (time === undefined) {
      time = this.#clock.next();
      const t = timestampMs(time);
      this.#seen(time, t);
      this.#invented = true;
      this.#ms = t;
      return time;
    }
    // A string's time was parsed above (a number's is the formatted one's).
    const parsed = typeof raw === 'string' ? ms : timestampMs(time);
    this.#clock.observe(time, parsed);
    this.#seen(time, ms);
    this.#invented = false;
    this.#ms = parsed;
    return time;
  }

  #seen(time: string, ms: number): void {
    if (ms > this.#maxMs) {
      this.#maxMs = ms;
      this.#maxTime = time;
    }
  }
}

function later(a: string, b: string): string {
  return timestampMs(b) >= timestampMs(a) ? b : a;
}

/**
 * agex events and skein mime streams (JSON Lines, a JSON array, or
 * `{"events": [...]}`).
 *
 * @example
 * import { Probe } from '../probe.js';
 * import { agexFormat } from './agex.js';
 * agexFormat.detect(new Probe('{"type":"taskStart","agentName":"a","taskName":"t","inputs":{}}')); // true
 */
export const agexFormat: FormatImporter & {
  incremental(options: ImportOptions): IncrementalImporter;
} = {
  id: 'agex',
  name: 'agex events',
  extensions: ['.jsonl', '.json'],
  detect,
  import(probe, options): ImportResult {
    const found = documentRecords(probe.json());
    if (found && found.base !== '$')
      return importRecords(agexFormat, found.list, found.base, options);
    return importLines(agexFormat, probe, options);
  },
  incremental: (options) => new AgexImporter(options),
};

/**
 * A cheap check whether an input is agex events (or a mime stream with agex
 * records in its first four).
 *
 * @example
 * isAgex('{"event_type":"TaskStartEvent","agent_name":"a","task_name":"t"}\n'); // true
 */
export const isAgex: (input: ImportInput, filename?: string) => boolean = sniffer(agexFormat);

/**
 * Imports agex events from text (JSON Lines or JSON), bytes or a parsed
 * value: tasks and agents as spans, actions as model events, outputs as
 * display events (see the module comment for the whole mapping).
 *
 * @example
 * declare const jsonlText: string; // an agex run log
 * const { events, diagnostics } = importAgex(jsonlText);
 * const stream = EventStream.from(events);
 */
export function importAgex(input: ImportInput, options: ImportOptions = {}): ImportResult {
  return agexFormat.import(new Probe(input, options.filename), options) as ImportResult;
}
