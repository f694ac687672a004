// Long on purpose (past 600 lines): the .json and .eval readers share sample, attachment and streaming resolution.
// inspect_ai evaluation logs: `.json` (one document) and `.eval` (a zip).
// Spec: https://inspect.aisi.org.uk/eval-logs.html (log file formats) and the
// `EvalLog`/`EvalSample` models in inspect_ai `src/inspect_ai/log/_log.py`;
// attachments and pools are undone as `log/_condense.py` does on read.
//
// What this importer does:
// - reads the container from bytes (no Node, no DOM) — `.eval` members are
//   deflate or zstd (method 93, since inspect 0.3.206), Zip64 allowed;
// - gives the header and the sample summaries up front, and loads one sample's
//   events only when asked (`log.sample(id, epoch)`), decompressing and parsing
//   only that sample's members;
// - resolves the sample's indirections (inspect-resolve.ts) and turns the raw
//   events into canonical ones with `parseEvents`.
import {
  ImportError,
  errorMessage,
  jsonPath,
  truncatedDiagnostic,
  type Diagnostic,
  type ErrorCode,
} from '../../errors.js';
import type { Event } from '../../events/types.js';
import { parseEvents } from '../../events/parse.js';
import { resolveSampleEvents, type AttachmentTable } from './inspect-resolve.js';
import { decodeUtf8, isRefFree, parseJsonBytes } from '../json.js';
import { isZip, openZip, type ZipArchive } from '../zip.js';
import { isRecord as isObject, safeJson, typeName, valueText } from '../guards.js';

// ---------------------------------------------------------------------------
// Raw shapes (as written by inspect_ai; every field may be missing in old logs)
// ---------------------------------------------------------------------------

/** `EvalLog` (`.json`) or `header.json` (`.eval`): the log without samples. */
interface RawEvalLog {
  version?: unknown;
  status?: unknown;
  eval?: unknown;
  plan?: unknown;
  results?: unknown;
  stats?: unknown;
  error?: unknown;
  samples?: unknown; // `.json` only: RawSample[]
  [key: string]: unknown;
}

/** `EvalSample`, monolith form (`.json` samples, `.eval` `samples/{id}_epoch_{e}.json`). */
interface RawSample {
  id?: unknown; // string | number
  epoch?: unknown; // number
  events?: unknown; // RawEvent[]
  attachments?: unknown; // { [murmur3 hash]: string }
  events_data?: unknown; // { messages: ChatMessage[], calls: JsonValue[] }
  transcript?: unknown; // legacy (≤ 0.3.4x): { events: RawEvent[], content: { [hash]: string } } with tc:// refs
  messages?: unknown;
  [key: string]: unknown;
}

// Versions of the EvalLog schema we read: 1 (early 2024), 2 (current
// LOG_SCHEMA_VERSION) and 3 (the interim `message_pool` writer of 0.3.135,
// inspect_ai's `log/_log.py` — readable, its pool refs come out as diagnostics).
const SUPPORTED_VERSIONS = new Set([1, 2, 3]);

// Fields of inspect's `EvalSampleSummary` that a `.json` sample can provide.
const SUMMARY_FIELDS = [
  'id',
  'epoch',
  'input',
  'choices',
  'target',
  'metadata',
  'scores',
  'model_usage',
  'role_usage',
  'total_time',
  'working_time',
  'uuid',
  'error',
  'limit',
  'retries',
  'completed',
  'started_at',
  'completed_at',
] as const;

// ---------------------------------------------------------------------------
// Public types
// ---------------------------------------------------------------------------

/**
 * The log's header: everything but the samples (`EvalLog` fields as written,
 * snake_case). The known fields are typed loosely on purpose — old logs lack
 * some of them (inspect_ai's `log/_log.py` "the types lie").
 *
 * @example
 * declare const bytes: Uint8Array; // an .eval file
 * declare function show(...values: unknown[]): void;
 * const { header } = await importInspectLog(bytes);
 * show(header.eval.task, header.status, header.results?.scores);
 */
export interface InspectLogHeader {
  /** Log schema version (1–3). */
  version: number;
  /** `started` | `success` | `cancelled` | `error` (absent in a journal-only log). */
  status?: string;
  /** The eval spec: `task`, `model`, `created`, `run_id`, `dataset`, `config`, … */
  eval: InspectEvalSpec;
  plan?: Record<string, unknown>;
  /** `total_samples`, `completed_samples`, `scores: EvalScore[]`, … */
  results?: Record<string, unknown> & { scores?: unknown[] };
  /** `started_at`, `completed_at`, `model_usage`, `role_usage`. */
  stats?: Record<string, unknown>;
  /** The eval error, when `status` is `error`. */
  error?: Record<string, unknown>;
  /** Epoch reductions of the scores (`reductions.json` in a `.eval`). */
  reductions?: unknown;
  [key: string]: unknown;
}

/**
 * `EvalSpec`: what was run.
 *
 * @example
 * const spec: InspectEvalSpec = { task: 'popularity', model: 'openai/gpt-4o', created: '2025-02-11T15:18:04-05:00' };
 */
export interface InspectEvalSpec {
  task?: string;
  model?: string;
  created?: string;
  run_id?: string;
  task_id?: string;
  [key: string]: unknown;
}

/**
 * A sample's summary as the log lists it (`EvalSampleSummary`): always `id` and
 * `epoch`, plus whatever the log carries (`input`, `target`, `scores`,
 * `model_usage`, `total_time`, `error`, `limit`, …).
 *
 * @example
 * declare const log: InspectLog;
 * declare function addItem(label: string, scores: unknown): void;
 * for (const s of log.samples) addItem(`${s.id} (epoch ${s.epoch})`, s.scores);
 */
export interface InspectSampleSummary {
  /** The id as in the log (a number or a string). */
  id: string | number;
  epoch: number;
  input?: unknown;
  target?: unknown;
  scores?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
  [key: string]: unknown;
}

/**
 * One sample's events, resolved and canonical, with what was repaired or left
 * unresolved.
 *
 * @example
 * declare const log: InspectLog;
 * const { events, diagnostics } = await log.sample(1, 1);
 */
export interface InspectSampleEvents {
  readonly events: readonly Event[];
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * An opened inspect_ai log. The header and summaries are read on import; a
 * sample's events are read, resolved and parsed only when {@link sample} is
 * called.
 *
 * @example
 * declare const bytes: Uint8Array; // an .eval file
 * declare function render(events: readonly Event[]): void;
 * const log = await importInspectLog(bytes);
 * const first = log.samples[0];
 * if (first) render((await log.sample(first.id, first.epoch)).events);
 */
export interface InspectLog {
  /** The container: `'eval'` (zip) or `'json'`. */
  readonly format: 'eval' | 'json';
  readonly header: InspectLogHeader;
  readonly samples: readonly InspectSampleSummary[];
  /** Repairs made while reading the header and summaries. */
  readonly diagnostics: readonly Diagnostic[];
  /**
   * Loads one sample's events. `id` as in the log (`1` and `'1'` both find
   * sample 1); `epoch` defaults to 1. An unknown id/epoch rejects with an
   * {@link ImportError} of code `sample_not_found`. A `.eval` sample is read
   * from the archive again on every call (nothing is cached); a `.json`
   * sample, already in memory, is resolved once and the result reused.
   */
  sample(id: string | number, epoch?: number): Promise<InspectSampleEvents>;
}

/**
 * Options for {@link importInspectLog}.
 *
 * @example
 * declare const bytes: Uint8Array; // an .eval file
 * await importInspectLog(bytes, { maxDiagnosticsPerCode: 10 });
 */
export interface InspectLogOptions {
  /**
   * At most this many diagnostics per code are listed for a sample; the rest
   * are counted in one `diagnostics_truncated` diagnostic per code (a log with
   * 100k dangling refs should not return 100k diagnostics). Default 100.
   */
  maxDiagnosticsPerCode?: number;
}

// ---------------------------------------------------------------------------
// Sniffing
// ---------------------------------------------------------------------------

const SNIFF_BYTES = 64 * 1024;

/**
 * A cheap check whether bytes are an inspect_ai log: a zip whose central
 * directory lists `header.json` or `_journal/…` members, or a JSON object whose
 * first 64 KiB hold `"version"` and `"eval"` keys. Decompresses nothing.
 *
 * @example
 * declare const bytes: Uint8Array;
 * const log = isInspectLog(bytes) ? await importInspectLog(bytes) : undefined;
 */
export function isInspectLog(bytes: Uint8Array): boolean {
  if (isZip(bytes)) {
    try {
      for (const name of openZip(bytes).entries.keys()) {
        if (name === 'header.json' || name.startsWith('_journal/')) return true;
      }
    } catch {
      return false;
    }
    return false;
  }
  const head = decodeUtf8(bytes.subarray(0, SNIFF_BYTES)).trimStart();
  return head.startsWith('{') && /"version"\s*:/.test(head) && /"eval"\s*:/.test(head);
}

// ---------------------------------------------------------------------------
// Import
// ---------------------------------------------------------------------------

/**
 * Opens an inspect_ai log from its bytes (`.eval` zip or `.json`). Reads the
 * header and the sample summaries; each sample's events load on
 * `log.sample(id, epoch)`, with every indirection resolved (attachments,
 * message and call pools, legacy `tc://` and `transcript`, the chunked layout)
 * and converted to canonical events.
 *
 * Malformed input rejects with an {@link ImportError} (`invalid_json`,
 * `zip_truncated`, `zip_corrupt`, `zip_unsupported`, `unsupported_version`,
 * `not_inspect_log`, `missing_field`, `wrong_type`) naming the JSON path; a
 * dangling reference becomes a diagnostic and is kept as it was.
 *
 * @example
 * declare const file: File; // from an <input type="file">
 * const log = await importInspectLog(new Uint8Array(await file.arrayBuffer()));
 * const { events, diagnostics } = await log.sample(log.samples[0]!.id, log.samples[0]!.epoch);
 */
export async function importInspectLog(
  bytes: Uint8Array,
  options?: InspectLogOptions,
): Promise<InspectLog> {
  const max = options?.maxDiagnosticsPerCode ?? 100;
  return isZip(bytes) ? importEval(bytes, max) : importJson(bytes, max);
}

function wrongType(path: string, expected: string, got: unknown): ImportError {
  return new ImportError('wrong_type', path, expected, typeName(got));
}

function missing(path: string, field: string): ImportError {
  return new ImportError('missing_field', jsonPath(path, field), field);
}

// Ids and epochs are checked when read from a log, but `sample(id, epoch)` and
// `inspectUuidSeed` take what a caller gives: their text never runs the
// value's own `toString` or `Symbol.toPrimitive` (valueText).
function sampleKey(id: unknown, epoch: unknown): string {
  return `${valueText(id)}\u0000${valueText(epoch)}`;
}

/** Only a string or number names a sample: an object's JSON text must not stand for an id. */
const isSampleId = (id: unknown): id is string | number =>
  typeof id === 'string' || typeof id === 'number';

/** Validates the header fields every reader relies on. */
function checkHeader(raw: unknown, path: string): InspectLogHeader {
  if (!isObject(raw)) {
    throw new ImportError('not_inspect_log', path, `expected an object, got ${typeName(raw)}`);
  }
  const version = raw.version;
  if (version === undefined) throw missing(path, 'version');
  if (typeof version !== 'number' || !SUPPORTED_VERSIONS.has(version)) {
    throw new ImportError(
      'unsupported_version',
      jsonPath(path, 'version'),
      safeJson(version) || typeName(version),
    );
  }
  if (raw.eval === undefined) throw missing(path, 'eval');
  if (!isObject(raw.eval)) throw wrongType(jsonPath(path, 'eval'), 'object', raw.eval);
  return raw as InspectLogHeader;
}

function checkSummary(raw: unknown, path: string): InspectSampleSummary {
  if (!isObject(raw)) throw wrongType(path, 'object', raw);
  const { id, epoch } = raw;
  if (id === undefined) throw missing(path, 'id');
  if (typeof id !== 'string' && typeof id !== 'number')
    throw wrongType(jsonPath(path, 'id'), 'string or number', id);
  if (epoch === undefined) throw missing(path, 'epoch');
  if (typeof epoch !== 'number' || !Number.isInteger(epoch))
    throw wrongType(jsonPath(path, 'epoch'), 'integer', epoch);
  return raw as InspectSampleSummary;
}

/**
 * Seeds the uuids parseEvents derives for events without one (pre-mid-2025
 * logs, inspect_ai's `event/_base.py`): the eval and the sample, so equal events at equal
 * positions in two different logs still get different ids.
 */
function sampleContexts(
  header: InspectLogHeader,
  max: number,
): (id: unknown, epoch: unknown) => SampleContext {
  return (id, epoch) => ({
    uuidSeed: inspectUuidSeed(header.eval, id, epoch),
    maxDiagnosticsPerCode: max,
  });
}

/**
 * The `uuidSeed` the importer gives `parseEvents` for a sample's events
 * (`eval/task/id/epoch`), for a reader that parses those events itself and
 * must derive the same uuids (the viewer's streaming open).
 *
 * @example
 * import { inspectUuidSeed } from 'src/core/import/inspect/inspect-log.js';
 * inspectUuidSeed({ run_id: 'r1', task: 'popularity' }, 3, 1); // 'r1/popularity/3/1'
 * @internal
 */
export function inspectUuidSeed(spec: InspectEvalSpec, id: unknown, epoch: unknown): string {
  const evalId = valueText(spec.eval_id ?? spec.run_id);
  const taskId = valueText(spec.task_id ?? spec.task);
  return `${evalId}/${taskId}/${valueText(id)}/${valueText(epoch)}`;
}

function notFound(id: unknown, epoch: unknown): ImportError {
  return new ImportError(
    'sample_not_found',
    '$.samples',
    safeJson(id) || typeName(id),
    typeof epoch === 'number' ? epoch : valueText(epoch),
  );
}

/**
 * Keeps the first `max` diagnostics of each code and counts the rest (as
 * parseEvents does).
 *
 * @example
 * import { capDiagnostics } from 'src/core/import/inspect/inspect-log.js';
 * import type { Diagnostic } from 'src/core/errors.js';
 * declare const list: Diagnostic[];
 * const kept = capDiagnostics(list, 100);
 * @internal
 */
export function capDiagnostics(list: Diagnostic[], max: number): Diagnostic[] {
  const seen = new Map<ErrorCode, number>();
  const out: Diagnostic[] = [];
  for (const d of list) {
    const n = (seen.get(d.code) ?? 0) + 1;
    seen.set(d.code, n);
    if (n <= max) out.push(d);
  }
  for (const [code, n] of seen) {
    if (n > max) {
      out.push(truncatedDiagnostic(code, n - max));
    }
  }
  return out;
}

/** Per-sample settings for the shared tail. */
interface SampleContext {
  uuidSeed: string;
  maxDiagnosticsPerCode: number;
}

/** Runs the shared tail: resolve indirections, then canonicalize. */
function finishSample(
  samplePath: string,
  parts: Omit<Parameters<typeof resolveSampleEvents>[0], 'events' | 'eventPath'> & {
    events: unknown[] | undefined;
    eventsPath: string;
    eventPath?: (i: number) => string;
  },
  diagnostics: Diagnostic[],
  ctx: SampleContext,
): InspectSampleEvents {
  if (!parts.events) {
    // A messages-only sample (e.g. log_tool_call_error.json): nothing to show, say so.
    diagnostics.push({
      code: 'missing_events',
      severity: 'info',
      message: errorMessage('missing_events', `Sample ${samplePath}`),
      path: parts.eventsPath,
    });
    return { events: [], diagnostics };
  }
  const eventsPath = parts.eventsPath;
  const eventPath = parts.eventPath ?? ((i: number) => jsonPath(eventsPath, i));
  diagnostics.push(...resolveSampleEvents({ ...parts, events: parts.events, eventPath }));
  const own = capDiagnostics(diagnostics, ctx.maxDiagnosticsPerCode);
  // parseEvents freezes the (already resolved) raw values in place and shares
  // them with its output instead of copying; `adopt` makes each raw event
  // object its output event too (no per-event copy): the raw objects are ours.
  const parsed = parseEvents(parts.events, {
    path: eventsPath,
    uuidSeed: ctx.uuidSeed,
    maxDiagnosticsPerCode: ctx.maxDiagnosticsPerCode,
    adopt: true,
  });
  for (const d of parsed.diagnostics) own.push(d);
  return { events: parsed.events, diagnostics: own };
}

/** The parts of a monolith sample (`.json` sample or `.eval` member). */
function monolithSample(
  raw: unknown,
  path: string,
  context: (id: unknown, epoch: unknown) => SampleContext,
  mayContainRefs = true,
): InspectSampleEvents {
  if (!isObject(raw)) throw wrongType(path, 'object', raw);
  const sample = raw as RawSample;
  const diagnostics: Diagnostic[] = [];

  let events: unknown[] | undefined;
  let eventsPath = jsonPath(path, 'events');
  let table: Record<string, unknown> = {};
  if (sample.events !== undefined) {
    if (!Array.isArray(sample.events)) throw wrongType(eventsPath, 'array', sample.events);
    events = sample.events;
    if (sample.attachments !== undefined) {
      if (!isObject(sample.attachments))
        throw wrongType(jsonPath(path, 'attachments'), 'object', sample.attachments);
      table = sample.attachments;
    }
  } else if (sample.transcript !== undefined) {
    // Legacy (≤ 0.3.4x): `transcript{events, content}` with `tc://` refs into
    // `content`; inspect migrates it to `events` + `attachments` on read.
    const tpath = jsonPath(path, 'transcript');
    const t = sample.transcript;
    if (!isObject(t)) throw wrongType(tpath, 'object', t);
    eventsPath = jsonPath(tpath, 'events');
    if (!Array.isArray(t.events)) throw wrongType(eventsPath, 'array', t.events);
    events = t.events;
    if (t.content !== undefined) {
      if (!isObject(t.content)) throw wrongType(jsonPath(tpath, 'content'), 'object', t.content);
      table = t.content;
    }
  }

  let messagePool: unknown[] | undefined;
  let callPool: unknown[] | undefined;
  const dataPath = jsonPath(path, 'events_data');
  if (sample.events_data !== undefined && sample.events_data !== null) {
    const data = sample.events_data;
    if (!isObject(data)) throw wrongType(dataPath, 'object', data);
    if (data.messages !== undefined) {
      if (!Array.isArray(data.messages))
        throw wrongType(jsonPath(dataPath, 'messages'), 'array', data.messages);
      messagePool = data.messages;
    }
    if (data.calls !== undefined) {
      if (!Array.isArray(data.calls))
        throw wrongType(jsonPath(dataPath, 'calls'), 'array', data.calls);
      callPool = data.calls;
    }
  }
  const messagesPath = jsonPath(dataPath, 'messages');
  const callsPath = jsonPath(dataPath, 'calls');
  return finishSample(
    path,
    {
      events,
      eventsPath,
      attachments: { kind: 'hash', map: table },
      messagePool,
      messagePoolPath: (i) => jsonPath(messagesPath, i),
      callPool,
      callPoolPath: (i) => jsonPath(callsPath, i),
      mayContainRefs,
    },
    diagnostics,
    context(sample.id, sample.epoch),
  );
}

/**
 * One monolith sample document (an `.eval` member's parsed JSON) read as
 * `log.sample` reads it, against the log's header: for a reader that parses
 * the sample's events itself and needs the importer's checks and diagnostics
 * for the rest of the sample (the viewer's streaming open).
 *
 * @example
 * import { importInspectLog, readInspectSample } from 'src/core/import/inspect/inspect-log.js';
 * import { parseJsonBytes } from 'src/core/import/json.js';
 * declare const zip: Uint8Array;
 * declare const member: Uint8Array; // samples/1_epoch_1.json, inflated
 * const log = await importInspectLog(zip);
 * const path = '$["samples/1_epoch_1.json"]';
 * const { diagnostics } = readInspectSample(parseJsonBytes(member, path), path, log.header);
 * @internal
 */
export function readInspectSample(
  raw: unknown,
  path: string,
  header: InspectLogHeader,
  maxDiagnosticsPerCode = 100,
): InspectSampleEvents {
  return monolithSample(raw, path, sampleContexts(header, maxDiagnosticsPerCode), !isRefFree(raw));
}

// ---------------------------------------------------------------------------
// `.json`
// ---------------------------------------------------------------------------

function importJson(bytes: Uint8Array, max: number): InspectLog {
  // One JSON.parse of the whole document: the samples are inside it anyway.
  const doc = parseJsonBytes(bytes, '$');
  checkHeader(doc, '$');
  const { samples: rawSamples, ...header } = doc as RawEvalLog;
  const diagnostics: Diagnostic[] = [];

  const list: unknown[] =
    rawSamples === undefined || rawSamples === null ? [] : (rawSamples as unknown[]);
  if (rawSamples !== undefined && rawSamples !== null && !Array.isArray(rawSamples)) {
    throw wrongType('$.samples', 'array', rawSamples);
  }
  const summaries: InspectSampleSummary[] = [];
  const index = new Map<string, number>();
  for (let i = 0; i < list.length; i++) {
    const path = `$.samples[${i}]`;
    const raw = checkSummary(list[i], path);
    const summary: Record<string, unknown> = {};
    for (const f of SUMMARY_FIELDS) if (raw[f] !== undefined) summary[f] = raw[f];
    if (Array.isArray(raw.messages)) summary.message_count = raw.messages.length;
    summaries.push(summary as InspectSampleSummary);
    index.set(sampleKey(raw.id, raw.epoch), i);
  }

  // Resolution mutates the parsed sample in place (and parseEvents freezes it),
  // so each sample is loaded once and its outcome, success or error, is kept.
  // The document is in memory anyway.
  const loaded = new Map<number, Promise<InspectSampleEvents>>();
  const context = sampleContexts(header as InspectLogHeader, max);
  return {
    format: 'json',
    header: header as InspectLogHeader,
    samples: summaries,
    diagnostics,
    sample(id, epoch = 1) {
      const i = isSampleId(id) ? index.get(sampleKey(id, epoch)) : undefined;
      if (i === undefined) return Promise.reject(notFound(id, epoch));
      let result = loaded.get(i);
      if (!result) {
        try {
          result = Promise.resolve(
            monolithSample(list[i], `$.samples[${i}]`, context, !isRefFree(doc)),
          );
        } catch (e) {
          result = Promise.reject(e as Error);
        }
        loaded.set(i, result);
      }
      return result;
    },
  };
}

// ---------------------------------------------------------------------------
// `.eval`
// ---------------------------------------------------------------------------

const MONOLITH = /^samples\/(.+)_epoch_(\d+)\.json$/;
const CHUNKED =
  /^samples\/(.+)_epoch_(\d+)\/(sample\.json|(events|messages|calls|attachments)\/(\d+)\.json|events\/uuids\.json)$/;

type Sequence = 'events' | 'messages' | 'calls' | 'attachments';

interface ChunkedMembers {
  prefix: string;
  shell?: string;
  uuids?: string;
  chunks: Record<Sequence, { start: number; name: string }[]>;
}

interface SampleMembers {
  id: string;
  epoch: number;
  monolith?: string;
  chunked?: ChunkedMembers;
}

function readJson(zip: ZipArchive, name: string): unknown {
  return parseJsonBytes(zip.read(name), jsonPath('$', name));
}

/** Groups the zip's sample members by `(id, epoch)` (ids are strings in member names). */
function indexSampleMembers(zip: ZipArchive): Map<string, SampleMembers> {
  const out = new Map<string, SampleMembers>();
  const get = (id: string, epoch: number) => {
    const key = sampleKey(id, epoch);
    let m = out.get(key);
    if (!m) out.set(key, (m = { id, epoch }));
    return m;
  };
  for (const name of zip.entries.keys()) {
    if (!name.startsWith('samples/')) continue;
    // A chunked member never ends in `_epoch_<n>.json`, so the two cannot clash.
    const mono = MONOLITH.exec(name);
    if (mono) {
      get(mono[1]!, Number(mono[2])).monolith = name;
      continue;
    }
    const ch = CHUNKED.exec(name);
    if (!ch) continue;
    const m = get(ch[1]!, Number(ch[2]));
    const c = (m.chunked ??= {
      prefix: `samples/${ch[1]!}_epoch_${ch[2]!}`,
      chunks: { events: [], messages: [], calls: [], attachments: [] },
    });
    if (ch[3] === 'sample.json') c.shell = name;
    else if (ch[3] === 'events/uuids.json') c.uuids = name;
    else c.chunks[ch[4] as Sequence].push({ start: Number(ch[5]), name });
  }
  return out;
}

function importEval(bytes: Uint8Array, max: number): InspectLog {
  const zip = openZip(bytes);
  const diagnostics: Diagnostic[] = [];

  // Header: `header.json` once the eval has finished; while it runs only the
  // journal's `start.json` exists (status "started").
  let header: InspectLogHeader;
  if (zip.entries.has('header.json')) {
    header = checkHeader(readJson(zip, 'header.json'), jsonPath('$', 'header.json'));
  } else if (zip.entries.has('_journal/start.json')) {
    const start = checkHeader(
      readJson(zip, '_journal/start.json'),
      jsonPath('$', '_journal/start.json'),
    );
    header = { status: 'started', ...start };
    diagnostics.push({
      code: 'missing_member',
      severity: 'info',
      message: errorMessage('missing_member', 'header.json') + '; read _journal/start.json instead',
      path: '$["header.json"]',
    });
  } else {
    throw new ImportError(
      'not_inspect_log',
      '$',
      'a zip without header.json or _journal/start.json',
    );
  }

  // `.json` logs carry `reductions` in the document; `.eval` logs keep them in
  // their own member. Read it (it is small) so both headers look alike.
  if (header.reductions === undefined && zip.entries.has('reductions.json')) {
    header = { ...header, reductions: readJson(zip, 'reductions.json') };
  }

  const members = indexSampleMembers(zip);
  const context = sampleContexts(header, max);

  // Summaries: `summaries.json`, else the journal's numbered summary files.
  const summaries: InspectSampleSummary[] = [];
  const readSummaries = (name: string) => {
    const path = jsonPath('$', name);
    const list = readJson(zip, name);
    if (!Array.isArray(list)) throw wrongType(path, 'array', list);
    for (let i = 0; i < list.length; i++) summaries.push(checkSummary(list[i], jsonPath(path, i)));
  };
  if (zip.entries.has('summaries.json')) {
    readSummaries('summaries.json');
  } else {
    const journal = [...zip.entries.keys()]
      .map((n) => /^_journal\/summaries\/(\d+)\.json$/.exec(n))
      .filter((m): m is RegExpExecArray => m !== null)
      .sort((a, b) => Number(a[1]) - Number(b[1]));
    for (const m of journal) readSummaries(m[0]);
  }
  const seen = new Set<string>();
  const unique: InspectSampleSummary[] = [];
  for (const s of summaries) {
    const key = sampleKey(s.id, s.epoch);
    if (seen.has(key)) continue; // the journal may repeat a summary the final list has
    seen.add(key);
    unique.push(s);
  }
  // A sample stored without a summary (a log cut short) is still listed.
  for (const [key, m] of members) {
    if (seen.has(key)) continue;
    const id = /^\d+$/.test(m.id) && Number.isSafeInteger(Number(m.id)) ? Number(m.id) : m.id;
    unique.push({ id, epoch: m.epoch });
    diagnostics.push({
      code: 'missing_field',
      severity: 'info',
      message: `Sample ${m.id} epoch ${m.epoch} has no summary; listed from its member name`,
      path: jsonPath('$', m.monolith ?? m.chunked?.shell ?? m.chunked?.prefix ?? 'samples'),
    });
  }

  return {
    format: 'eval',
    header,
    samples: unique,
    diagnostics,
    sample(id, epoch = 1) {
      const m = isSampleId(id) ? members.get(sampleKey(id, epoch)) : undefined;
      if (!m) return Promise.reject(notFound(id, epoch));
      try {
        if (m.chunked?.shell)
          return Promise.resolve(chunkedSample(zip, m.chunked, context(m.id, m.epoch)));
        if (m.monolith) {
          return Promise.resolve(
            (() => {
              const raw = readJson(zip, m.monolith);
              return monolithSample(raw, jsonPath('$', m.monolith), context, !isRefFree(raw));
            })(),
          );
        }
        // Chunks without their `sample.json` shell: a cut-short chunked sample.
        const shell = `${m.chunked!.prefix}/sample.json`;
        throw new ImportError('missing_member', jsonPath('$', shell), shell);
      } catch (e) {
        return Promise.reject(e);
      }
    },
  };
}

// ---------------------------------------------------------------------------
// The chunked sample layout (inspect_ai's `log/_log.py`; inspect_ai `_recorders/chunked/read.py`)
// ---------------------------------------------------------------------------

/**
 * Reads one sequence's chunks into an array, each item at its global index
 * (`start + j`), so a missing chunk leaves holes that pool refs then report
 * instead of shifting every later item.
 */
function readSequence(
  zip: ZipArchive,
  c: ChunkedMembers,
  seq: Sequence,
  diagnostics: Diagnostic[],
): { items: unknown[]; pathOf: (i: number) => string } {
  const chunks = c.chunks[seq].slice().sort((a, b) => a.start - b.start);
  const items: unknown[] = [];
  const starts: number[] = [];
  const names: string[] = [];
  let expected = 0;
  for (const { start, name } of chunks) {
    const list = readJson(zip, name);
    if (!Array.isArray(list)) throw wrongType(jsonPath('$', name), 'array', list);
    if (start !== expected) {
      diagnostics.push({
        code: 'chunk_gap',
        severity: 'warning',
        message: errorMessage('chunk_gap', `${c.prefix}/${seq}`, expected, start),
        path: jsonPath('$', name),
      });
    }
    for (let j = 0; j < list.length; j++) items[start + j] = list[j];
    starts.push(start);
    names.push(name);
    expected = Math.max(expected, start + list.length);
  }
  const pathOf = (i: number): string => {
    // The chunk holding global index i: the last one starting at or before it.
    let k = starts.length - 1;
    while (k > 0 && starts[k]! > i) k--;
    return k >= 0
      ? jsonPath(jsonPath('$', names[k]!), i - starts[k]!)
      : jsonPath('$', `${c.prefix}/${seq}`);
  };
  return { items, pathOf };
}

function chunkedSample(
  zip: ZipArchive,
  c: ChunkedMembers,
  ctx: SampleContext,
): InspectSampleEvents {
  const diagnostics: Diagnostic[] = [];
  // The shell holds the sample's small fields (scores, `message_refs` for the
  // final conversation, …); events come from the chunks, so it is only checked.
  const shellPath = jsonPath('$', c.shell!);
  const shell = readJson(zip, c.shell!);
  if (!isObject(shell)) throw wrongType(shellPath, 'object', shell);

  const attachments = readSequence(zip, c, 'attachments', diagnostics);
  const messages = readSequence(zip, c, 'messages', diagnostics);
  const calls = readSequence(zip, c, 'calls', diagnostics);
  const ev = readSequence(zip, c, 'events', diagnostics);
  // Events are a plain list: holes left by a missing chunk (reported above as
  // chunk_gap) are closed up, and paths then count in the closed-up list.
  let events = ev.items;
  let eventPath: ((i: number) => string) | undefined = ev.pathOf;
  for (let i = 0; i < ev.items.length; i++) {
    if (!(i in ev.items)) {
      events = ev.items.filter(() => true);
      eventPath = undefined;
      break;
    }
  }

  // `events/uuids.json` lists every event's uuid; fill the ones an event lacks.
  if (c.uuids && eventPath) {
    const uuids = readJson(zip, c.uuids);
    if (Array.isArray(uuids) && uuids.length === events.length) {
      for (let i = 0; i < events.length; i++) {
        const e = events[i];
        if (isObject(e) && e.uuid === undefined && typeof uuids[i] === 'string') e.uuid = uuids[i];
      }
    }
  }

  const table: AttachmentTable = { kind: 'index', list: attachments.items };
  return finishSample(
    shellPath,
    {
      events,
      eventsPath: jsonPath('$', `${c.prefix}/events`),
      eventPath,
      attachments: table,
      messagePool: messages.items,
      messagePoolPath: messages.pathOf,
      callPool: calls.items,
      callPoolPath: calls.pathOf,
    },
    diagnostics,
    ctx,
  );
}
