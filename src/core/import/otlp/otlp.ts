// Long on purpose (past 600 lines): every OTLP dialect (GenAI old and new, OpenInference, OpenLLMetry, Vercel AI SDK) reads one span model through shared private helpers.
// OpenTelemetry traces: OTLP/JSON exports
// (https://opentelemetry.io/docs/specs/otlp/#json-protobuf-encoding), a JSON
// Lines file of such exports, or a flat array of spans, mapped by the dialect
// each span's attributes speak: the GenAI semantic conventions old and new
// (https://github.com/open-telemetry/semantic-conventions-genai), OpenInference
// (https://github.com/Arize-ai/openinference/blob/main/spec/semantic_conventions.md),
// OpenLLMetry (`traceloop.*`) and the Vercel AI SDK (`ai.*`). Shapes and every
// attribute spelling: OpenTelemetry GenAI semantic conventions and OpenInference.
//
// The mapping (the one representation every importer maps to):
// - every span of every resource, scope, export and line is flattened, then
//   nested by `parentSpanId` (children may come first, in another batch or
//   line); a parent that is not in the input leaves the span at the root with
//   an `otlp_orphan_span` diagnostic; the same span twice keeps the first;
// - siblings are ordered by start time (file order breaks ties), and the tree
//   is written in pre-order;
// - a model call (`gen_ai.operation.name` chat|generate_content|text_completion,
//   OpenInference `LLM`, Vercel `*.doGenerate`/`*.doStream`, OpenLLMetry
//   `llm.request.type`) is one `model` event: input and output messages with
//   their parts, finish reason, usage under every spelling, config;
// - a tool run (`execute_tool`, `TOOL`, `ai.toolCall`, `traceloop.span.kind:
//   tool`) is one `tool` event whose `id` is the tool-call id
//   (`gen_ai.tool.call.id`, `tool_call.id`, `ai.toolCall.id`); missing name or
//   arguments come from the model's `tool_call` part of that id, and a tool
//   span without an id takes the first unanswered call of its name;
// - model and tool spans are single events: their child spans sit in the same
//   skein span, and an agent span under a tool is that tool's sub-agent
//   (`agent_span_id`);
// - every other span (agents, workflows, chains, unknown spans) is a
//   `span_begin`/`span_end` pair whose `id` is the OTLP `spanId`, `type` from
//   the dialect (`agent`, `workflow`, `chain`, …);
// - each event keeps its OTLP ids (`metadata.span_id`, `trace_id`,
//   `parent_span_id`), its exact nanosecond times, kind, status, scope,
//   resource and every attribute the mapping did not consume
//   (`metadata.attributes`), so nothing is dropped and a user can find the
//   span in their tracing backend;
// - span status ERROR is the model's `error` or the tool's `error`/`failed`
//   (on other spans `metadata.status`); span events that carry no GenAI
//   content become `info` events (`source: 'otlp'`) in the span;
// - records that are neither exports nor spans are kept as `info` events;
// - logs exports (`resourceLogs`): each record joins its span as a span event,
//   or is an event of its own (otlp-logs.ts).
//
// Times: 64-bit nanosecond counts come as decimal strings (the spec) or JSON
// numbers (older encoders). Numbers of 16 or more digits are quoted in the
// text before parsing, so no precision is lost; timestamps are exact ISO
// strings (nanoseconds kept), the ns strings are kept in metadata.
//
// Streaming (JSON Lines): a span's place in the output (its order, its skein
// span, its tool-call pairing) depends on spans that can come in later lines,
// so the incremental importer (otlp-stream.ts) drives this whole-file one over
// the lines read so far, handing out what is placed and holding what waits on
// a parent not seen yet.
import { runNested } from '../../nested.js';
import { ImportError, jsonPath } from '../../errors.js';
import type {
  ChatMessage,
  ChatMessageAssistant,
  Content,
  Event,
  GenerateConfig,
  JsonObject,
  ModelEvent,
  ModelUsage,
  SpanBeginEvent,
  SpanEndEvent,
  ToolCall,
  ToolEvent,
  ToolInfo,
} from '../../events/types.js';
import { EMPTY_ARRAY, MAX_VALUE_DEPTH } from '../../events/freeze.js';
import { timestampMs } from '../../events/timestamp.js';
import {
  ImportContext,
  isRecord,
  own,
  typeName,
  type ImportOptions,
  safeJson,
  stringOf,
} from '../guards.js';
import { sniffer, type FormatImporter, type ImportResult } from '../format.js';
import { parseJsonTolerant } from '../json.js';
import { readJsonLines } from '../lines.js';
import { otlpIncremental } from './otlp-stream.js';
import {
  asSpanEvent,
  emitLog,
  readResourceLogs,
  sortLogs,
  type LogRead,
  type LogValueReaders,
} from './otlp-logs.js';
import { Probe, type ImportInput } from '../probe.js';
import { EventSink, SyntheticClock } from '../sink.js';

type Attrs = Record<string, unknown>;

/** One span, read and normalised. */
interface Span {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: string | undefined;
  startNs: string | undefined;
  endNs: string | undefined;
  start: string; // ISO
  end: string; // ISO
  startMs: number;
  endMs: number;
  /**
   * The record's `attributes` as they are: made an object ({@link keyValues})
   * only when the span is emitted, so the objects of the spans whose
   * attributes the mapping consumes die young instead of being kept (and
   * copied by the collector) through the read and the tree.
   */
  attributes: unknown;
  events: unknown[];
  links: unknown[] | undefined;
  status: { code: string; message?: string } | undefined;
  resource: Attrs | undefined;
  scope: JsonObject | undefined;
  /** The JSON path of the record ({@link spanPath}): `pathBase[pathIndex]`, or `pathBase` when the index is -1. */
  pathBase: string;
  pathIndex: number;
  order: number;
  /** What was made up ({@link NOTHING_INVENTED} until something is). */
  invented: readonly ('id' | 'timestamp' | 'end')[];
  /** Child spans ({@link NO_CHILDREN} until one is linked). */
  children: Span[];
  parent: Span | undefined;
  visited: boolean;
  /** Its class, once {@link classify} worked it out. */
  cls: Classified | undefined;
}

const SPAN_KINDS = ['UNSPECIFIED', 'INTERNAL', 'SERVER', 'CLIENT', 'PRODUCER', 'CONSUMER'];
const STATUS_CODES = ['UNSET', 'OK', 'ERROR'];

// ---------------------------------------------------------------------------
// Values
// ---------------------------------------------------------------------------

/** Sets a key as an own property, so a `__proto__` key is data, not a prototype change. */
function put(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(obj, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  else obj[key] = value;
}

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * `own(r, key)` with the property load first: the same value for data
 * properties, but a field that is absent (most reads of optional fields and
 * of attribute spellings) costs no `hasOwnProperty` call.
 */
function field(r: Record<string, unknown>, key: string): unknown {
  const v = r[key];
  return v !== undefined && hasOwn.call(r, key) ? v : undefined;
}

/**
 * What stands for an AnyValue nested past `MAX_VALUE_DEPTH` levels: an
 * object, so the event's `deepFreeze` (which it is always deeper than) cuts
 * it and counts the cut for the import's `value_too_deep` diagnostic.
 */
const CUT_ANY_VALUE = Object.freeze({ value_too_deep: true });

/**
 * An OTLP `AnyValue` as plain JSON (64-bit ints beyond 2^53 stay strings).
 * Depth-bounded: past `MAX_VALUE_DEPTH` levels the rest is the cut marker, as
 * `deepFreeze` cuts any event's value (and counts it, for `value_too_deep`).
 */
function anyValue(v: unknown, depth = 0): unknown {
  if (!isRecord(v)) return v ?? null;
  if (depth > MAX_VALUE_DEPTH) return CUT_ANY_VALUE;
  let x = field(v, 'stringValue');
  if (x !== undefined) return x;
  x = field(v, 'intValue');
  if (x !== undefined) {
    if (typeof x === 'string') {
      const n = Number(x);
      return Number.isSafeInteger(n) ? n : x;
    }
    return x;
  }
  x = field(v, 'doubleValue');
  if (x !== undefined) return typeof x === 'string' ? Number(x) : x;
  x = field(v, 'boolValue');
  if (x !== undefined) return x;
  x = field(v, 'arrayValue');
  if (x !== undefined) {
    const values = isRecord(x) ? field(x, 'values') : undefined;
    return Array.isArray(values) ? values.map((e) => anyValue(e, depth + 1)) : [];
  }
  x = field(v, 'kvlistValue');
  if (x !== undefined) {
    const values = isRecord(x) ? field(x, 'values') : undefined;
    return Array.isArray(values) ? keyValues(values, depth + 1) : {};
  }
  x = field(v, 'bytesValue');
  if (x !== undefined) return x;
  return null;
}

/**
 * `[{key, value: AnyValue}]` (OTLP) or a plain object (hand-written spans) as
 * one object. Its keys' {@link keyBit}s are left in {@link keyMask}.
 */
function keyValues(list: unknown, depth = 0): Attrs {
  const out: Attrs = {};
  let mask = 0;
  if (Array.isArray(list)) {
    for (let i = 0; i < list.length; i++) {
      const kv: unknown = list[i];
      if (!isRecord(kv)) continue;
      const key = field(kv, 'key');
      if (typeof key !== 'string') continue;
      mask |= keyBit(key);
      put(out, key, anyValue(field(kv, 'value'), depth));
    }
  } else if (isRecord(list)) {
    for (const key of Object.keys(list)) {
      mask |= keyBit(key);
      put(out, key, own(list, key));
    }
  }
  keyMask = mask; // after the values: a nested kvlist sets it too
  return out;
}

/**
 * One bit per first character of a key (folded to 32): an attribute whose
 * bit is not in an object's mask is not one of its keys. A model span is asked
 * for some fifty spellings (every dialect's), most of another dialect's
 * prefix: those answer without a property lookup.
 */
function keyBit(key: string): number {
  return 1 << (key.charCodeAt(0) & 31);
}

/** The key mask of the object {@link keyValues} last returned. */
let keyMask = 0;

function num(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v !== '') {
    const n = Number(v);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

/** A JSON-string attribute parsed (the usual encoding of GenAI content), or the value itself. */
function jsonish(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  const c = v.charCodeAt(0);
  if (c !== 123 /* { */ && c !== 91 /* [ */ && c !== 34 /* " */) return v;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return v;
  }
}

/** Text for a result or content slot: strings as they are, anything else as JSON. */
function asText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === undefined || v === null) return '';
  return safeJson(v) ?? '';
}

function asArgs(v: unknown): JsonObject {
  const parsed = jsonish(v);
  if (isRecord(parsed)) return parsed;
  if (parsed === undefined || parsed === null || parsed === '') return {};
  return { value: parsed };
}

// ---------------------------------------------------------------------------
// Ids, enums and times
// ---------------------------------------------------------------------------

const HEX = /^[0-9a-f]+$/;

/**
 * Span and trace ids in lowercase hex. OTLP/JSON writes hex (either case);
 * the generic proto3 JSON mapping writes base64 and Python's console exporter
 * `0x…`; all read alike.
 */
function readId(v: unknown): string {
  if (typeof v !== 'string' || v === '') return '';
  // The usual spelling (16 or 32 lowercase hex digits) is the id as it is: no
  // lowercased copy and no regular expressions.
  if ((v.length === 16 || v.length === 32) && isLowerHex(v)) return v;
  let s = v.toLowerCase();
  if (s.startsWith('0x')) s = s.slice(2);
  if (HEX.test(s) && (s.length === 16 || s.length === 32)) return s;
  if (/^[A-Za-z0-9+/]+={0,2}$/.test(v) && (v.length === 12 || v.length === 24)) {
    const bytes = base64Bytes(v);
    if (bytes && (bytes.length === 8 || bytes.length === 16)) return hexOf(bytes);
  }
  return HEX.test(s) ? s : v;
}

function isLowerHex(v: string): boolean {
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c > 102 /* f */ || (c < 97 /* a */ && (c < 48 /* 0 */ || c > 57)) /* 9 */) return false;
  }
  return true;
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function base64Bytes(s: string): number[] | undefined {
  const clean = s.replace(/=+$/, '');
  const out: number[] = [];
  let bits = 0;
  let acc = 0;
  for (let i = 0; i < clean.length; i++) {
    const d = B64.indexOf(clean.charAt(i));
    if (d < 0) return undefined;
    acc = (acc << 6) | d;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push((acc >> bits) & 0xff);
    }
  }
  return out;
}

function hexOf(bytes: number[]): string {
  let s = '';
  for (const b of bytes) s += (b < 16 ? '0' : '') + b.toString(16);
  return s;
}

/** `3`, `"SPAN_KIND_CLIENT"`, `"SpanKind.CLIENT"`, `"CLIENT"` → `CLIENT`. */
function enumName(v: unknown, names: readonly string[], prefix: string): string | undefined {
  if (typeof v === 'number') return names[v] ?? String(v);
  if (typeof v !== 'string' || v === '') return undefined;
  let s = v.toUpperCase();
  if (s.startsWith(prefix)) s = s.slice(prefix.length);
  const dot = s.lastIndexOf('.');
  if (dot >= 0) s = s.slice(dot + 1);
  return s;
}

const MAX_SECONDS = 253402300799; // 9999-12-31T23:59:59Z

/** A nanosecond count (decimal string or number) as digits, or undefined (absent, 0, bad). */
function readNanos(v: unknown): string | undefined {
  let s: string;
  if (typeof v === 'string') s = v;
  else if (typeof v === 'number' && Number.isInteger(v) && v >= 0) s = BigInt(v).toString();
  else return undefined;
  // 1–21 digits, not all zeros.
  const len = s.length;
  if (len === 0 || len > 21) return undefined;
  let zeros = true;
  for (let i = 0; i < len; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return undefined;
    if (c !== 48) zeros = false;
  }
  return zeros ? undefined : s;
}

/**
 * The milliseconds of the time {@link nanosToIso} or {@link isoTime} last
 * returned: read right after the call, so no `{iso, ms}` object is made per
 * time (two per span).
 */
let readMs = Number.NaN;

/** Exact ISO time of a nanosecond count (sub-millisecond digits kept); its ms in {@link readMs}. */
function nanosToIso(ns: string): string | undefined {
  // `ns` is 1–21 digits (readNanos): the seconds and the nine digits below
  // read as numbers digit by digit, without slices.
  const len = ns.length;
  const split = len > 9 ? len - 9 : 0;
  let sec = 0;
  for (let i = 0; i < split; i++) sec = sec * 10 + (ns.charCodeAt(i) - 48);
  if (sec > MAX_SECONDS) return undefined;
  const codes = isoCodes;
  let nanos = 0;
  for (let k = 0; k < 9; k++) {
    const at = split + k - (9 - (len - split)); // digit k of the zero-padded nine
    const d = at >= split ? ns.charCodeAt(at) - 48 : 0;
    nanos = nanos * 10 + d;
    codes[20 + k] = 48 + d;
  }
  const ms = sec * 1000 + nanos / 1e6;
  // Trailing groups of three zeros are left out (…:05.123Z, not …:05.123000000Z).
  let digits = 9;
  while (digits > 3 && nanos % 1000 === 0) {
    digits -= 3;
    nanos /= 1000;
  }
  // The date of a day is formatted once; the time of day from its digits. One
  // flat string, not a concatenation (a rope each event kept, flattened again
  // when its time was read) nor a `Date` and `toISOString` per second.
  const day = Math.floor(sec / 86400);
  if (day !== isoDay) {
    isoDay = day;
    const date = new Date(day * 86400000).toISOString(); // YYYY-MM-DDT…
    for (let i = 0; i < 11; i++) codes[i] = date.charCodeAt(i);
  }
  const tod = sec - day * 86400;
  const h = Math.floor(tod / 3600);
  const m = Math.floor((tod - h * 3600) / 60);
  const sc = tod - h * 3600 - m * 60;
  codes[11] = 48 + Math.floor(h / 10);
  codes[12] = 48 + (h % 10);
  codes[14] = 48 + Math.floor(m / 10);
  codes[15] = 48 + (m % 10);
  codes[17] = 48 + Math.floor(sc / 10);
  codes[18] = 48 + (sc % 10);
  codes[20 + digits] = 90; // Z
  readMs = ms;
  // The codes as arguments, not `apply` with the list cut to length: about
  // twice as fast, as for uuids (events/uuid.ts).
  const c = codes;
  if (digits === 9)
    // prettier-ignore
    return String.fromCharCode(
      c[0]!, c[1]!, c[2]!, c[3]!, c[4]!, c[5]!, c[6]!, c[7]!, c[8]!, c[9]!,
      c[10]!, c[11]!, c[12]!, c[13]!, c[14]!, c[15]!, c[16]!, c[17]!, c[18]!, c[19]!,
      c[20]!, c[21]!, c[22]!, c[23]!, c[24]!, c[25]!, c[26]!, c[27]!, c[28]!, c[29]!,
    );
  if (digits === 6)
    // prettier-ignore
    return String.fromCharCode(
      c[0]!, c[1]!, c[2]!, c[3]!, c[4]!, c[5]!, c[6]!, c[7]!, c[8]!, c[9]!,
      c[10]!, c[11]!, c[12]!, c[13]!, c[14]!, c[15]!, c[16]!, c[17]!, c[18]!, c[19]!,
      c[20]!, c[21]!, c[22]!, c[23]!, c[24]!, c[25]!, c[26]!,
    );
  // prettier-ignore
  return String.fromCharCode(
    c[0]!, c[1]!, c[2]!, c[3]!, c[4]!, c[5]!, c[6]!, c[7]!, c[8]!, c[9]!,
    c[10]!, c[11]!, c[12]!, c[13]!, c[14]!, c[15]!, c[16]!, c[17]!, c[18]!, c[19]!,
    c[20]!, c[21]!, c[22]!, c[23]!,
  );
}

let isoDay = Number.NaN;
/** `YYYY-MM-DDThh:mm:ss.` and up to nine digits and `Z`, as char codes. */
const isoCodes: number[] = Array.from('0000-00-00T00:00:00.000000000Z', (c) => c.charCodeAt(0));

// Numbers of 16+ digits where OTLP puts 64-bit integers: quoted before
// parsing so JSON.parse cannot round them (a double holds integers only up to 2^53).
const BIG_INT_FIELD =
  /("(?:startTimeUnixNano|endTimeUnixNano|timeUnixNano|observedTimeUnixNano|intValue)"\s*:\s*)(-?\d{16,})/g;

/**
 * `text` with the 64-bit integers OTLP/JSON writes as numbers (times,
 * `intValue`) quoted when they have 16 or more digits, so `JSON.parse`
 * keeps them exact.
 *
 * @example
 * import { quoteBigInts } from 'src/core/import/otlp/otlp.js';
 * JSON.parse(quoteBigInts('{"timeUnixNano":1700000000000000001}')); // { timeUnixNano: '1700000000000000001' }
 */
export function quoteBigInts(text: string): string {
  return hasBigInt(text) ? text.replace(BIG_INT_FIELD, '$1"$2"') : text;
}

/**
 * Whether {@link BIG_INT_FIELD} matches somewhere in `text`: {@link BIG_INT_TAIL}
 * finds where one of the names' two endings is followed by a number of 16 or
 * more digits (seldom anywhere: times are usually strings), and the whole
 * name is checked there. The full regex tried its five names at every `"` of
 * the text, a scan as long as a third of the parse; a search for each ending
 * in turn (`indexOf`) stopped at each of the hundreds of thousands of times
 * and values, and took twice as long as this one scan.
 */
function hasBigInt(text: string): boolean {
  const tail = BIG_INT_TAIL;
  tail.lastIndex = 0;
  for (let m = tail.exec(text); m !== null; m = tail.exec(text)) {
    const end = m.index + TAIL_LENGTH; // after the closing quote
    if (BIG_INT_NAMES.some((name) => endsNameAt(text, end, name))) return true;
    tail.lastIndex = m.index + 1;
  }
  return false;
}

/** `UnixNano"` or `intValue"` (both {@link TAIL_LENGTH} characters), then `\s*:\s*-?\d{16}`. */
const BIG_INT_TAIL = /(?:UnixNano|intValue)"\s*:\s*-?\d{16}/g;
const TAIL_LENGTH = 9;
const BIG_INT_NAMES = [
  '"startTimeUnixNano"',
  '"endTimeUnixNano"',
  '"timeUnixNano"',
  '"observedTimeUnixNano"',
  '"intValue"',
];

function endsNameAt(text: string, end: number, name: string): boolean {
  return end >= name.length && text.startsWith(name, end - name.length);
}

// ---------------------------------------------------------------------------
// Reading records into spans
// ---------------------------------------------------------------------------

function looksLikeSpan(r: unknown): r is Attrs {
  if (!isRecord(r) || typeof r['event'] === 'string') return false;
  if (typeof r['name'] !== 'string') return false;
  return (
    typeof r['spanId'] === 'string' ||
    typeof r['traceId'] === 'string' ||
    r['startTimeUnixNano'] !== undefined ||
    isRecord(r['context']) ||
    hasSemconvAttributes(r['attributes'])
  );
}

const SEMCONV_PREFIXES = ['gen_ai.', 'llm.', 'openinference.', 'ai.', 'traceloop.'];

function hasSemconvAttributes(a: unknown): boolean {
  if (Array.isArray(a)) {
    for (let i = 0; i < Math.min(a.length, 32); i++) {
      const kv: unknown = a[i];
      const key = isRecord(kv) ? kv['key'] : undefined;
      if (typeof key === 'string' && SEMCONV_PREFIXES.some((p) => key.startsWith(p))) return true;
    }
    return false;
  }
  if (isRecord(a)) return Object.keys(a).some((k) => SEMCONV_PREFIXES.some((p) => k.startsWith(p)));
  return false;
}

function looksLikeOtlp(r: unknown): boolean {
  if (!isRecord(r)) return false;
  return (
    Array.isArray(r['resourceSpans']) ||
    Array.isArray(r['resourceLogs']) ||
    Array.isArray(r['scopeSpans']) ||
    (Array.isArray(r['spans']) && typeof r['event'] !== 'string') ||
    looksLikeSpan(r)
  );
}

class Reader {
  readonly spans: Span[] = [];
  /** Log records (otlp-logs.ts). */
  readonly logs: LogRead[] = [];
  readonly unknown: { value: unknown; path: string }[] = [];
  readonly #ctx: ImportContext;

  constructor(ctx: ImportContext) {
    this.#ctx = ctx;
  }

  /** One record: an export, a `resourceSpans`/`scopeSpans` element, a span, or a list of them. */
  record(r: unknown, path: string, depth = 0): void {
    if (Array.isArray(r) && depth < 2) {
      for (let i = 0; i < r.length; i++) this.record(r[i], jsonPath(path, i), depth + 1);
      return;
    }
    if (isRecord(r)) {
      const rs = own(r, 'resourceSpans');
      if (Array.isArray(rs)) {
        const base = jsonPath(path, 'resourceSpans');
        for (let i = 0; i < rs.length; i++) this.resource(rs[i], jsonPath(base, i));
        return;
      }
      if (Array.isArray(own(r, 'scopeSpans'))) return this.resource(r, path);
      const rl = own(r, 'resourceLogs');
      if (Array.isArray(rl))
        return readResourceLogs(
          rl,
          jsonPath(path, 'resourceLogs'),
          this.#ctx,
          LOG_READERS,
          this.logs,
        );
      const spans = own(r, 'spans');
      if (Array.isArray(spans) && typeof r['event'] !== 'string')
        return this.scope(r, path, undefined);
      if (looksLikeSpan(r)) return this.span(r, path, -1, undefined, undefined);
    }
    this.#ctx.warn(path, 'otlp_not_a_span', typeName(r));
    this.unknown.push({ value: r, path });
  }

  resource(r: unknown, path: string): void {
    if (!isRecord(r)) return void this.#ctx.warn(path, 'wrong_type', 'object', typeName(r));
    const res = own(r, 'resource');
    const resource = isRecord(res) ? keyValues(own(res, 'attributes')) : undefined;
    const scopes = this.#ctx.array(r, 'scopeSpans', path) ?? [];
    const base = jsonPath(path, 'scopeSpans');
    for (let i = 0; i < scopes.length; i++) this.scope(scopes[i], jsonPath(base, i), resource);
  }

  scope(r: unknown, path: string, resource: Attrs | undefined): void {
    if (!isRecord(r)) return void this.#ctx.warn(path, 'wrong_type', 'object', typeName(r));
    const sc = own(r, 'scope');
    let scope: JsonObject | undefined;
    if (isRecord(sc)) {
      scope = {};
      const name = stringOf(own(sc, 'name'));
      const version = stringOf(own(sc, 'version'));
      if (name !== undefined) scope.name = name;
      if (version !== undefined) scope.version = version;
      const attributes = own(sc, 'attributes');
      if (attributes !== undefined) scope.attributes = keyValues(attributes);
    }
    const spans = this.#ctx.array(r, 'spans', path) ?? [];
    const base = jsonPath(path, 'spans');
    for (let i = 0; i < spans.length; i++) this.span(spans[i], base, i, resource, scope);
  }

  /**
   * One span, at `path` (`index` < 0) or at `path[index]`: the path string is
   * made only when something is reported at it ({@link spanPath}).
   */
  span(
    r: unknown,
    path: string,
    index: number,
    resource: Attrs | undefined,
    scope: JsonObject | undefined,
  ): void {
    if (!isRecord(r))
      return void this.#ctx.warn(atIndex(path, index), 'wrong_type', 'object', typeName(r));
    const context = field(r, 'context'); // Python's console exporter
    const ctxRec = isRecord(context) ? context : undefined;
    let invented: Span['invented'] = NOTHING_INVENTED;
    let spanId = readId(field(r, 'spanId') ?? (ctxRec && field(ctxRec, 'span_id')));
    if (spanId === '') {
      spanId = `span-${this.spans.length + 1}`;
      invented = ['id'];
    }
    const traceId = readId(field(r, 'traceId') ?? (ctxRec && field(ctxRec, 'trace_id')));
    const parentSpanId = readId(field(r, 'parentSpanId') ?? field(r, 'parent_id'));
    const name = stringOf(field(r, 'name')) ?? '';
    const kind = enumName(field(r, 'kind'), SPAN_KINDS, 'SPAN_KIND_');
    const startNs = readNanos(field(r, 'startTimeUnixNano'));
    const endNs = readNanos(field(r, 'endTimeUnixNano'));
    const start = startNs !== undefined ? nanosToIso(startNs) : isoTime(field(r, 'start_time'));
    const startMs = start !== undefined ? readMs : Number.NaN;
    const end = endNs !== undefined ? nanosToIso(endNs) : isoTime(field(r, 'end_time'));
    const endMs = end !== undefined ? readMs : Number.NaN;
    const rawStatus = field(r, 'status');
    let status: Span['status'];
    if (isRecord(rawStatus)) {
      const code = enumName(
        field(rawStatus, 'code') ?? field(rawStatus, 'status_code'),
        STATUS_CODES,
        'STATUS_CODE_',
      );
      const message =
        stringOf(field(rawStatus, 'message')) ?? stringOf(field(rawStatus, 'description'));
      if (code !== undefined && code !== 'UNSET') status = message ? { code, message } : { code };
      else if (message) status = { code: 'UNSET', message };
    }
    const events = field(r, 'events');
    const links = field(r, 'links');
    this.spans.push({
      traceId,
      spanId,
      parentSpanId,
      name,
      kind,
      startNs,
      endNs,
      start: start ?? '',
      end: end ?? '',
      startMs,
      endMs,
      attributes: field(r, 'attributes'),
      events: Array.isArray(events) ? events : NO_SPAN_EVENTS,
      links: Array.isArray(links) && links.length > 0 ? links : undefined,
      status,
      resource: resource ?? (isRecord(field(r, 'resource')) ? resourceOf(r) : undefined),
      scope,
      pathBase: path,
      pathIndex: index,
      order: this.spans.length,
      invented,
      children: NO_CHILDREN,
      parent: undefined,
      visited: false,
      cls: undefined,
    });
  }
}

function atIndex(path: string, index: number): string {
  return index < 0 ? path : `${path}[${index}]`;
}

/** The JSON path of a span's record. */
function spanPath(s: Span): string {
  return atIndex(s.pathBase, s.pathIndex);
}

// Most spans invent nothing and most have no children: one shared empty list
// each (never pushed to: replaced by a new list), not two arrays per span kept
// for the whole import.
const NOTHING_INVENTED: Span['invented'] = Object.freeze([]);
const NO_CHILDREN: Span[] = Object.freeze([]) as unknown as Span[];
const NO_SPAN_EVENTS: unknown[] = Object.freeze([]) as unknown as unknown[];

function resourceOf(r: Attrs): Attrs | undefined {
  const res = own(r, 'resource');
  return isRecord(res) ? keyValues(own(res, 'attributes')) : undefined;
}

/** An ISO time string that parses, or undefined; its ms in {@link readMs}. */
function isoTime(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  const ms = timestampMs(v);
  if (!Number.isFinite(ms)) return undefined;
  readMs = ms;
  return v;
}

/** A span event's time as `{iso, ms}` (span events are few). */
function timeOf(iso: string | undefined): { iso: string; ms: number } | undefined {
  return iso === undefined ? undefined : { iso, ms: readMs };
}

// ---------------------------------------------------------------------------
// The tree
// ---------------------------------------------------------------------------

function bySpanStart(a: Span, b: Span): number {
  if (a.startMs !== b.startMs) return a.startMs < b.startMs ? -1 : 1;
  if (a.startNs !== undefined && b.startNs !== undefined && a.startNs !== b.startNs)
    return a.startNs.length !== b.startNs.length
      ? a.startNs.length - b.startNs.length
      : a.startNs < b.startNs
        ? -1
        : 1;
  return a.order - b.order;
}

/**
 * Spans by trace id and span id. Keyed by the span id alone (unique in
 * practice), the trace compared on a hit: no `trace/span` string built,
 * flattened and hashed per span and per parent lookup (a tenth of building
 * the tree). With a `/` in some id the joined key is not one pair's alone
 * (`a/b` + `c` and `a` + `b/c`), so such a file keeps the joined keys, and
 * their collisions, as before.
 */
class SpanIndex {
  readonly #byId = new Map<string, Span | Span[]>();
  readonly #joined: Map<string, Span> | undefined;
  /**
   * False once two spans (of different traces) share a span id, and always
   * with joined keys: only while it is true is every kept span's id its own.
   */
  spanIdsUnique: boolean;

  constructor(joinedKeys: boolean) {
    this.#joined = joinedKeys ? new Map() : undefined;
    this.spanIdsUnique = !joinedKeys;
  }

  /** The span of these ids, if any. */
  get(traceId: string, spanId: string): Span | undefined {
    if (this.#joined) return this.#joined.get(`${traceId}/${spanId}`);
    const found = this.#byId.get(spanId);
    if (found === undefined) return undefined;
    if (!Array.isArray(found)) return found.traceId === traceId ? found : undefined;
    for (const s of found) if (s.traceId === traceId) return s;
    return undefined;
  }

  /**
   * Adds every span when no two share a span id (the usual case), and says
   * whether it did: one map operation per span, not a look-up and an insert.
   * Otherwise (a span id seen again: the map's size did not grow) this index
   * is left unusable, and the spans are to be {@link claim}ed one by one in
   * a new one. Not with joined keys.
   */
  addDistinct(spans: Span[]): boolean {
    const byId = this.#byId;
    for (let i = 0; i < spans.length; i++) {
      const s = spans[i]!;
      const size = byId.size;
      if (byId.set(s.spanId, s).size === size) return false;
    }
    return true;
  }

  /** The span already under the ids of `s`, if any; else `s` is added. */
  claim(s: Span): Span | undefined {
    if (this.#joined) {
      const key = `${s.traceId}/${s.spanId}`;
      const first = this.#joined.get(key);
      if (!first) this.#joined.set(key, s);
      return first;
    }
    const found = this.#byId.get(s.spanId);
    if (found === undefined) {
      this.#byId.set(s.spanId, s);
      return undefined;
    }
    if (!Array.isArray(found)) {
      if (found.traceId === s.traceId) return found;
      this.spanIdsUnique = false;
      this.#byId.set(s.spanId, [found, s]);
      return undefined;
    }
    for (const f of found) if (f.traceId === s.traceId) return f;
    found.push(s);
    return undefined;
  }
}

/**
 * Fills missing times (flagged), drops duplicates, links parents; returns the
 * roots in order, and whether no two kept spans share a span id.
 */
function buildTree(
  spans: Span[],
  ctx: ImportContext,
  baseTime: string | undefined,
): { roots: Span[]; spanIdsUnique: boolean } {
  // Missing starts: after the last time seen in file order (hand-written spans).
  // Spans before the first timed one count back from it, so file order holds.
  let base = baseTime;
  const firstTimed = spans.findIndex((s) => s.start !== '');
  if (base === undefined && firstTimed > 0)
    base = new Date(Math.floor(spans[firstTimed]!.startMs) - firstTimed).toISOString();
  const clock = new SyntheticClock(base);
  // Indexed loops, here and below: a `for…of` made an iterator result per
  // step (some 20 MB an import of 100k spans).
  for (let i = 0; i < spans.length; i++) {
    const s = spans[i]!;
    if (s.start === '') {
      s.start = clock.next();
      s.startMs = timestampMs(s.start);
      s.invented = [...s.invented, 'timestamp'];
    } else clock.observe(s.start, s.startMs);
    if (s.end !== '') clock.observe(s.end, s.endMs);
  }
  const joinedKeys = spans.some((s) => s.traceId.includes('/') || s.spanId.includes('/'));
  let byKey = new SpanIndex(joinedKeys);
  // No two spans share a span id: none is a duplicate, all are kept.
  const distinct = !joinedKeys && byKey.addDistinct(spans);
  if (!distinct) byKey = new SpanIndex(joinedKeys);
  const kept: Span[] = distinct ? spans : [];
  for (let i = 0; i < spans.length && !distinct; i++) {
    const s = spans[i]!;
    const first = byKey.claim(s);
    if (first) {
      ctx.warn(spanPath(s), 'otlp_duplicate_span', s.spanId);
      // Keep the first, unless only the later one has ended.
      if (first.end === '' && s.end !== '') {
        first.end = s.end;
        first.endMs = s.endMs;
        first.endNs = s.endNs;
      }
      continue;
    }
    kept.push(s);
  }
  const roots: Span[] = [];
  let missingEnd = false;
  for (let i = 0; i < kept.length; i++) {
    const s = kept[i]!;
    if (s.end === '') missingEnd = true;
    if (s.parentSpanId === '' || s.parentSpanId === s.spanId) {
      roots.push(s);
      continue;
    }
    const parent = byKey.get(s.traceId, s.parentSpanId);
    if (!parent) {
      ctx.info(spanPath(s), 'otlp_orphan_span', s.spanId, s.parentSpanId);
      roots.push(s);
      continue;
    }
    s.parent = parent;
    if (parent.children === NO_CHILDREN) parent.children = [s];
    else parent.children.push(s);
  }
  // A parent cycle leaves spans no root reaches: each becomes a root. The
  // spans in walk order are needed only to fill missing ends.
  const ordered: Span[] = [];
  let reached = 0;
  const walk = (root: Span) => {
    const stack = [root];
    root.visited = true;
    while (stack.length) {
      const s = stack.pop()!;
      reached++;
      if (missingEnd) ordered.push(s);
      const children = s.children;
      for (let i = 0; i < children.length; i++) {
        const c = children[i]!;
        if (c.visited) continue;
        c.visited = true;
        stack.push(c);
      }
    }
  };
  for (let i = 0; i < roots.length; i++) walk(roots[i]!);
  if (reached < kept.length) {
    for (const s of kept) {
      if (s.visited) continue;
      ctx.warn(spanPath(s), 'otlp_parent_cycle', s.spanId);
      if (s.parent) s.parent.children = s.parent.children.filter((c) => c !== s);
      s.parent = undefined;
      roots.push(s);
      walk(s);
    }
  }
  // Missing ends: the latest end below (children first), else the start.
  for (let i = ordered.length - 1; i >= 0; i--) {
    const s = ordered[i]!;
    if (s.end === '') {
      let end = s.startMs;
      let iso = s.start;
      for (const c of s.children)
        if (c.endMs > end) {
          end = c.endMs;
          iso = c.end;
        }
      s.end = iso;
      s.endMs = end;
      s.invented = [...s.invented, 'end'];
    }
  }
  for (let i = 0; i < kept.length; i++) {
    const children = kept[i]!.children;
    if (children.length > 1) sortBySpanStart(children);
  }
  return { roots: sortBySpanStart(roots), spanIdsUnique: byKey.spanIdsUnique };
}

/**
 * Sorts spans by {@link bySpanStart} in place. Spans usually come in order
 * already; then the (stable) sort would leave them as they are, and is not
 * run (it copies the list to sort it).
 */
function sortBySpanStart(spans: Span[]): Span[] {
  for (let i = 1; i < spans.length; i++)
    if (bySpanStart(spans[i - 1]!, spans[i]!) > 0) return spans.sort(bySpanStart);
  return spans;
}

// ---------------------------------------------------------------------------
// Dialects
// ---------------------------------------------------------------------------

type Role = 'model' | 'tool' | 'span';

interface Classified {
  role: Role;
  /** `span_begin.type` of a span; the dialect of a model or tool. */
  type: string | undefined;
  dialect: string;
}

const MODEL_OPS = new Set(['chat', 'generate_content', 'text_completion', 'completion']);

// The classes with no type of their own, one object each (never changed):
// not an object per span classified.
const GENAI_MODEL: Classified = { role: 'model', type: undefined, dialect: 'gen_ai' };
const GENAI_TOOL: Classified = { role: 'tool', type: undefined, dialect: 'gen_ai' };
const GENAI_AGENT: Classified = { role: 'span', type: 'agent', dialect: 'gen_ai' };
const GENAI_WORKFLOW: Classified = { role: 'span', type: 'workflow', dialect: 'gen_ai' };
const OI_MODEL: Classified = { role: 'model', type: undefined, dialect: 'openinference' };
const OI_TOOL: Classified = { role: 'tool', type: undefined, dialect: 'openinference' };
const VERCEL_MODEL: Classified = { role: 'model', type: undefined, dialect: 'vercel' };
const VERCEL_TOOL: Classified = { role: 'tool', type: undefined, dialect: 'vercel' };
const OPENLLMETRY_TOOL: Classified = { role: 'tool', type: undefined, dialect: 'openllmetry' };
const PLAIN_SPAN: Classified = { role: 'span', type: undefined, dialect: 'otlp' };

/** The class of a span, worked out once (a tool's children are asked again). */
function classify(s: Span, attrs: Attrs): Classified {
  return (s.cls ??= classifyAttrs(attrs));
}

function classifyAttrs(a: Attrs): Classified {
  const op = stringOf(a['gen_ai.operation.name']);
  if (op !== undefined) {
    if (MODEL_OPS.has(op)) return GENAI_MODEL;
    if (op === 'execute_tool') return GENAI_TOOL;
    if (op === 'invoke_agent' || op === 'create_agent') return GENAI_AGENT;
    if (op === 'invoke_workflow') return GENAI_WORKFLOW;
    return { role: 'span', type: op, dialect: 'gen_ai' };
  }
  const oiKind = stringOf(a['openinference.span.kind'])?.toUpperCase();
  if (oiKind !== undefined) {
    if (oiKind === 'LLM') return OI_MODEL;
    if (oiKind === 'TOOL') return OI_TOOL;
    return { role: 'span', type: oiKind.toLowerCase(), dialect: 'openinference' };
  }
  const aiOp = stringOf(a['ai.operationId']);
  if (aiOp !== undefined) {
    if (/\.do(Generate|Stream)$/.test(aiOp)) return VERCEL_MODEL;
    if (aiOp === 'ai.toolCall') return VERCEL_TOOL;
    return { role: 'span', type: aiOp, dialect: 'vercel' };
  }
  const tlKind = stringOf(a['traceloop.span.kind']);
  if (tlKind !== undefined) {
    if (tlKind === 'tool') return OPENLLMETRY_TOOL;
    return { role: 'span', type: tlKind, dialect: 'openllmetry' };
  }
  if (
    a['llm.request.type'] !== undefined ||
    a['gen_ai.prompt.0.role'] !== undefined ||
    a['gen_ai.prompt.0.content'] !== undefined ||
    a['gen_ai.input.messages'] !== undefined
  )
    return GENAI_MODEL;
  if (a['gen_ai.tool.name'] !== undefined || a['gen_ai.tool.call.id'] !== undefined)
    return GENAI_TOOL;
  return PLAIN_SPAN;
}

/** Attribute reads that remember what the mapping consumed (the rest is kept in metadata). */
class Used {
  /**
   * The keys read, the first {@link count} of this list: one list for the
   * whole import (a span's reads end before the next span's begin), not one
   * per span that reads anything.
   */
  readonly #keys: string[] = [];
  count = 0;
  attrs: Attrs = NO_ATTRS;
  /** The {@link keyBit}s of the keys of {@link attrs}. */
  mask = 0;
  #all: string[] | undefined;

  /** Starts over on a span's attributes, with the {@link keyBit}s of their keys. */
  reset(attrs: Attrs, mask: number): this {
    this.attrs = attrs;
    this.mask = mask;
    this.count = 0;
    this.#all = undefined;
    return this;
  }

  get all(): string[] {
    return (this.#all ??= Object.keys(this.attrs));
  }

  #read(key: string): void {
    this.#keys[this.count++] = key;
  }

  #wasRead(key: string): boolean {
    for (let i = 0; i < this.count; i++) if (this.#keys[i] === key) return true;
    return false;
  }

  get(key: string): unknown {
    if ((this.mask & keyBit(key)) === 0) return undefined;
    const v = field(this.attrs, key);
    if (v !== undefined) this.#read(key);
    return v;
  }

  /**
   * The first of several spellings that is present. Up to six, as arguments
   * rather than a rest list (an array per call, a dozen calls per span).
   */
  first(a: string, b?: string, c?: string, d?: string, e?: string, f?: string): unknown {
    let v = this.get(a);
    if (v === undefined || v === null) v = b === undefined ? undefined : this.get(b);
    if (v === undefined || v === null) v = c === undefined ? undefined : this.get(c);
    if (v === undefined || v === null) v = d === undefined ? undefined : this.get(d);
    if (v === undefined || v === null) v = e === undefined ? undefined : this.get(e);
    if (v === undefined || v === null) v = f === undefined ? undefined : this.get(f);
    return v === null ? undefined : v;
  }

  /** Every key under `prefix.` un-flattened (`a.0.b` → `[{b}]`), or undefined. */
  tree(prefix: string): unknown {
    if ((this.mask & keyBit(prefix)) === 0) return undefined; // no key starts so
    const p = `${prefix}.`;
    let root: Record<string, unknown> | undefined;
    for (const key of this.all) {
      if (!key.startsWith(p)) continue;
      this.#read(key);
      root ??= {};
      // At most MAX_VALUE_DEPTH levels: a key's segments past that stay one
      // dotted key, so a key of 100,000 dots cannot nest that deep (which
      // `arrays` below and every later walk would have to follow).
      let parts = key.slice(p.length).split('.');
      if (parts.length > MAX_VALUE_DEPTH)
        parts = [
          ...parts.slice(0, MAX_VALUE_DEPTH - 1),
          parts.slice(MAX_VALUE_DEPTH - 1).join('.'),
        ];
      let node: Record<string, unknown> = root;
      for (let i = 0; i < parts.length - 1; i++) {
        const k = parts[i]!;
        let next = own(node, k);
        if (!isRecord(next)) {
          next = {};
          put(node, k, next);
        }
        node = next as Record<string, unknown>;
      }
      put(node, parts[parts.length - 1]!, this.attrs[key]);
    }
    return root === undefined ? undefined : arrays(root);
  }

  rest(): Attrs {
    // Nothing read: the span's own attributes (made for it by `keyValues`,
    // read only) are the rest, not a copy of them.
    if (this.count === 0) return this.attrs;
    // `for…in` with an own check: the keys of `Object.keys`, in its order,
    // without the array. The object is made at the second key left.
    const attrs = this.attrs;
    let out: Attrs | undefined;
    let first: string | undefined;
    for (const key in attrs) {
      if (!hasOwn.call(attrs, key) || this.#wasRead(key)) continue;
      if (first === undefined) {
        first = key;
        continue;
      }
      if (out === undefined) put((out = {}), first, attrs[first]);
      put(out, key, attrs[key]);
    }
    if (out !== undefined) return out;
    if (first === undefined) return NO_ATTRS;
    return this.#single(first, attrs[first]);
  }

  /**
   * Frozen one-attribute rests of a string value, by key and value: what
   * the mapping leaves of a GenAI span is often only the
   * `gen_ai.operation.name` it was classified by (`chat`, `execute_tool`,
   * `invoke_agent`), the same object for every such span instead of one per
   * event kept and frozen.
   */
  readonly #singles = new Map<string, Map<string, Attrs>>();

  #single(key: string, value: unknown): Attrs {
    if (typeof value !== 'string') {
      const one: Attrs = {};
      put(one, key, value);
      return one;
    }
    let byValue = this.#singles.get(key);
    if (byValue === undefined) this.#singles.set(key, (byValue = new Map()));
    let one = byValue.get(value);
    if (one === undefined) {
      one = {};
      put(one, key, value);
      byValue.set(value, Object.freeze(one));
    }
    return one;
  }
}

/**
 * Objects whose keys are all indices become arrays (in index order),
 * recursively: `tree` builds at most MAX_VALUE_DEPTH levels.
 */
function arrays(v: unknown): unknown {
  if (!isRecord(v)) return v;
  const keys = Object.keys(v);
  if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k))) {
    return keys
      .map(Number)
      .sort((x, y) => x - y)
      .map((k) => arrays(v[String(k)]));
  }
  for (const k of keys) put(v, k, arrays(v[k]));
  return v;
}

// --- messages ---------------------------------------------------------------

const ROLES = new Set(['system', 'user', 'assistant', 'tool']);

function roleOf(v: unknown): ChatMessage['role'] {
  const r = typeof v === 'string' ? v.toLowerCase() : '';
  if (ROLES.has(r)) return r as ChatMessage['role'];
  if (r === 'developer') return 'system';
  if (r === 'model' || r === 'ai') return 'assistant';
  if (r === 'function' || r === 'ipython') return 'tool';
  return 'user';
}

function toolCall(id: unknown, name: unknown, args: unknown): ToolCall {
  return { id: asText(id), function: asText(name), arguments: asArgs(args), type: 'function' };
}

/** One content part (GenAI `parts[]`, Vercel `content[]`, OpenAI content arrays) as inspect content. */
function contentPart(p: unknown): Content | undefined {
  if (typeof p === 'string') return { type: 'text', text: p };
  if (!isRecord(p)) return undefined;
  const type = stringOf(p['type']);
  switch (type) {
    case 'text':
    case 'input_text':
    case 'output_text':
      return { type: 'text', text: asText(p['content'] ?? p['text']) };
    case 'reasoning':
    case 'thinking':
      return { type: 'reasoning', reasoning: asText(p['content'] ?? p['text'] ?? p['thinking']) };
    case 'uri':
    case 'image_url':
    case 'image': {
      const uri = stringOf(p['uri']) ?? stringOf(p['url']) ?? stringOf(p['image']);
      const url = isRecord(p['image_url']) ? stringOf(p['image_url']['url']) : undefined;
      const modality = stringOf(p['modality']) ?? 'image';
      if (modality === 'image' && (uri ?? url)) return { type: 'image', image: (uri ?? url)! };
      return { type: 'data', data: p };
    }
    case 'blob': {
      const modality = stringOf(p['modality']);
      const mime = stringOf(p['mime_type']) ?? (modality === 'image' ? 'image/png' : undefined);
      const content = stringOf(p['content']);
      if (modality === 'image' && content && mime)
        return { type: 'image', image: `data:${mime};base64,${content}` };
      return { type: 'data', data: p };
    }
    default:
      return { type: 'data', data: p };
  }
}

function messageContent(parts: Content[]): string | Content[] {
  if (parts.length === 0) return '';
  const only = parts.length === 1 ? parts[0]! : undefined;
  if (only?.type === 'text') return only.text;
  return parts;
}

/**
 * GenAI messages (`[{role, parts, finish_reason?}]`) and the common chat
 * shapes (`{role, content: string | parts, tool_calls?}` of OpenAI and the
 * Vercel AI SDK) as inspect messages. A tool-call response becomes its own
 * `tool` message.
 */
function chatMessages(list: unknown): { messages: ChatMessage[]; finish: string[] } {
  // Lists made at their first item, as one-item literals: a list pushed to
  // from empty gets room for seventeen, and the messages are kept.
  let messages: ChatMessage[] | undefined;
  let finish: string[] | undefined;
  if (!Array.isArray(list)) return { messages: [], finish: [] };
  for (let i = 0; i < list.length; i++) {
    const m: unknown = list[i];
    if (!isRecord(m)) continue;
    const role = roleOf(m['role']);
    const fr = stringOf(m['finish_reason']);
    if (fr !== undefined) finish = append(finish, fr);
    const rawParts = Array.isArray(m['parts'])
      ? m['parts']
      : Array.isArray(m['content'])
        ? m['content']
        : m['content'] !== undefined && m['content'] !== null
          ? [asText(m['content'])]
          : [];
    let parts: Content[] | undefined;
    let calls: ToolCall[] | undefined;
    let responses: ChatMessage[] | undefined;
    for (let j = 0; j < rawParts.length; j++) {
      const p: unknown = rawParts[j];
      const type = isRecord(p) ? stringOf(p['type']) : undefined;
      if (
        isRecord(p) &&
        (type === 'tool_call' || type === 'tool-call' || type === 'function_call')
      ) {
        calls = append(
          calls,
          toolCall(
            p['id'] ?? p['toolCallId'] ?? p['call_id'],
            p['name'] ?? p['toolName'],
            p['arguments'] ?? p['args'] ?? p['input'],
          ),
        );
      } else if (
        isRecord(p) &&
        (type === 'tool_call_response' || type === 'tool-result' || type === 'function_call_output')
      ) {
        const id = asText(p['id'] ?? p['toolCallId'] ?? p['call_id']);
        const name = stringOf(p['toolName']) ?? stringOf(p['name']);
        responses = append<ChatMessage>(responses, {
          role: 'tool',
          content: asText(p['response'] ?? p['result'] ?? p['output']),
          tool_call_id: id,
          ...(name !== undefined ? { function: name } : {}),
        });
      } else {
        const c = contentPart(p);
        if (c) parts = append(parts, c);
      }
    }
    if (Array.isArray(m['tool_calls'])) {
      for (const c of m['tool_calls']) {
        if (!isRecord(c)) continue;
        const fn = isRecord(c['function']) ? c['function'] : c;
        calls = append(calls, toolCall(c['id'], fn['name'], fn['arguments']));
      }
    }
    if (responses && !parts && !calls) {
      for (let j = 0; j < responses.length; j++) messages = append(messages, responses[j]!);
      continue;
    }
    const content = parts ? messageContent(parts) : '';
    const name = stringOf(m['name']);
    if (role === 'assistant') {
      const msg: ChatMessageAssistant = { role, content };
      if (calls) msg.tool_calls = calls;
      messages = append(messages, msg);
    } else if (role === 'tool') {
      const id = stringOf(m['tool_call_id']) ?? stringOf(m['id']);
      messages = append<ChatMessage>(messages, {
        role,
        content,
        ...(id !== undefined ? { tool_call_id: id } : {}),
        ...(name !== undefined ? { function: name } : {}),
      });
    } else messages = append<ChatMessage>(messages, { role, content });
    if (responses)
      for (let j = 0; j < responses.length; j++) messages = append(messages, responses[j]!);
  }
  return { messages: messages ?? [], finish: finish ?? [] };
}

/** `list` with `item` added: a one-item list when there is none yet. */
function append<T>(list: T[] | undefined, item: T): T[] {
  if (list === undefined) return [item];
  list.push(item);
  return list;
}

/** OpenInference's un-flattened `llm.*_messages` (`[{message: {role, content, contents, tool_calls}}]`). */
function oiMessages(list: unknown): ChatMessage[] {
  if (!Array.isArray(list)) return [];
  const plain = list.map((entry) => {
    const m = isRecord(entry) && isRecord(entry['message']) ? entry['message'] : {};
    const contents = Array.isArray(m['contents'])
      ? m['contents'].map((c) => {
          const mc = isRecord(c) && isRecord(c['message_content']) ? c['message_content'] : {};
          const image =
            isRecord(mc['image']) && isRecord(mc['image']['image'])
              ? mc['image']['image']
              : undefined;
          return image ? { type: 'image', url: image['url'] } : { type: 'text', text: mc['text'] };
        })
      : undefined;
    const calls = Array.isArray(m['tool_calls'])
      ? m['tool_calls'].map((c) => {
          const tc = isRecord(c) && isRecord(c['tool_call']) ? c['tool_call'] : {};
          return { id: tc['id'], function: tc['function'] };
        })
      : undefined;
    return {
      role: m['role'],
      name: m['name'],
      tool_call_id: m['tool_call_id'],
      content: contents ?? m['content'],
      tool_calls: calls,
    };
  });
  return chatMessages(plain).messages;
}

/** Legacy indexed `gen_ai.prompt.N.*` / `gen_ai.completion.N.*` (pre-1.36, OpenLLMetry). */
function indexedMessages(list: unknown): { messages: ChatMessage[]; finish: string[] } {
  if (!Array.isArray(list)) return { messages: [], finish: [] };
  const plain = list.map((m) => {
    if (!isRecord(m)) return {};
    const calls = Array.isArray(m['tool_calls'])
      ? m['tool_calls'].map((c) => (isRecord(c) ? { id: c['id'], function: c } : {}))
      : undefined;
    return { ...m, content: m['content'], tool_calls: calls };
  });
  return chatMessages(plain);
}

function toolInfos(v: unknown): ToolInfo[] {
  const list = jsonish(v);
  if (!Array.isArray(list)) return NO_TOOLS;
  const out: ToolInfo[] = [];
  for (const raw of list) {
    let t = jsonish(raw);
    if (isRecord(t) && isRecord(t['tool']) && t['tool']['json_schema'] !== undefined)
      t = jsonish(t['tool']['json_schema']);
    if (!isRecord(t)) continue;
    const fn = isRecord(t['function']) ? t['function'] : t;
    const params = isRecord(fn['parameters'])
      ? fn['parameters']
      : isRecord(fn['inputSchema'])
        ? fn['inputSchema']
        : { type: 'object', properties: {} };
    out.push({
      name: asText(fn['name']),
      description: asText(fn['description']),
      parameters: {
        ...params,
        properties: isRecord(params['properties']) ? params['properties'] : {},
      } as ToolInfo['parameters'],
    });
  }
  return out.length ? out : NO_TOOLS;
}

/**
 * A model call's `tools` when it declares none (most calls): one frozen list
 * for all (never added to: `modelParts` replaces it), not an array per event
 * kept and frozen.
 */
const NO_TOOLS = EMPTY_ARRAY as ToolInfo[];

function stopReason(v: string | undefined): string {
  if (v === undefined) return 'unknown';
  const lower = v.toLowerCase();
  // No regex replace (and its match state) for the usual reason without a dash.
  const r = lower.includes('-') ? lower.replace(/-/g, '_') : lower;
  if (r === 'tool_call' || r === 'tool_calls' || r === 'function_call' || r === 'tool_use')
    return 'tool_calls';
  if (r === 'length' || r === 'max_tokens' || r === 'max_output_tokens') return 'max_tokens';
  if (r === 'stop' || r === 'end_turn' || r === 'stop_sequence') return 'stop';
  if (r === 'content_filter' || r === 'safety') return 'content_filter';
  return r;
}

/** Usage under every spelling (OpenTelemetry GenAI semantic conventions and OpenInference; Vercel). */
function usageOf(u: Used): ModelUsage | undefined {
  const input = num(
    u.first(
      'gen_ai.usage.input_tokens',
      'gen_ai.usage.prompt_tokens',
      'llm.token_count.prompt',
      'ai.usage.inputTokens',
      'ai.usage.promptTokens',
      'llm.usage.prompt_tokens',
    ),
  );
  const output = num(
    u.first(
      'gen_ai.usage.output_tokens',
      'gen_ai.usage.completion_tokens',
      'llm.token_count.completion',
      'ai.usage.outputTokens',
      'ai.usage.completionTokens',
      'llm.usage.completion_tokens',
    ),
  );
  const total = num(
    u.first(
      'gen_ai.usage.total_tokens',
      'llm.usage.total_tokens',
      'llm.token_count.total',
      'ai.usage.totalTokens',
    ),
  );
  const cacheRead = num(
    u.first(
      'gen_ai.usage.cache_read.input_tokens',
      'gen_ai.usage.cache_read_input_tokens',
      'llm.token_count.prompt_details.cache_read',
      'ai.usage.cachedInputTokens',
    ),
  );
  const cacheWrite = num(
    u.first(
      'gen_ai.usage.cache_creation.input_tokens',
      'gen_ai.usage.cache_write.input_tokens',
      'gen_ai.usage.cache_creation_input_tokens',
      'llm.token_count.prompt_details.cache_write',
    ),
  );
  const reasoning = num(
    u.first(
      'gen_ai.usage.reasoning.output_tokens',
      'gen_ai.usage.reasoning_tokens',
      'llm.token_count.completion_details.reasoning',
      'ai.usage.reasoningTokens',
    ),
  );
  if (input === undefined && output === undefined && total === undefined) return undefined;
  // GenAI, OpenInference and the AI SDK count cached tokens inside the input
  // count; inspect's `input_tokens` excludes them (types.ts ModelUsage).
  const usage: ModelUsage = {
    input_tokens: Math.max(0, (input ?? 0) - (cacheRead ?? 0) - (cacheWrite ?? 0)),
    output_tokens: output ?? 0,
    total_tokens: total ?? (input ?? 0) + (output ?? 0),
  };
  if (cacheRead !== undefined) usage.input_tokens_cache_read = cacheRead;
  if (cacheWrite !== undefined) usage.input_tokens_cache_write = cacheWrite;
  if (reasoning !== undefined) usage.reasoning_tokens = reasoning;
  return usage;
}

// The attribute names whole, not built per span (a string per read, looked up
// as a property name).
const CONFIG_KEYS: [string, keyof GenerateConfig][] = [
  ['gen_ai.request.max_tokens', 'max_tokens'],
  ['gen_ai.request.temperature', 'temperature'],
  ['gen_ai.request.top_p', 'top_p'],
  ['gen_ai.request.top_k', 'top_k'],
  ['gen_ai.request.frequency_penalty', 'frequency_penalty'],
  ['gen_ai.request.presence_penalty', 'presence_penalty'],
  ['gen_ai.request.seed', 'seed'],
  ['gen_ai.request.choice.count', 'num_choices'],
];

function configOf(u: Used): GenerateConfig {
  const config: GenerateConfig = {};
  for (let i = 0; i < CONFIG_KEYS.length; i++) {
    const [name, key] = CONFIG_KEYS[i]!;
    const v = num(u.get(name));
    if (v !== undefined) config[key] = v;
  }
  const stops = u.get('gen_ai.request.stop_sequences');
  if (Array.isArray(stops)) config.stop_seqs = stops.map(asText);
  if (config.max_tokens === undefined) {
    const mt = num(u.first('ai.settings.maxOutputTokens', 'ai.settings.maxTokens'));
    if (mt !== undefined) config.max_tokens = mt;
  }
  const oi = jsonish(u.get('llm.invocation_parameters'));
  if (isRecord(oi)) {
    for (const [k, v] of Object.entries(oi))
      if (k !== 'model' && k !== 'messages' && k !== 'tools' && config[k] === undefined)
        put(config, k, v);
  }
  return config;
}

// GenAI content on span events: the current details event, and the older
// per-message events.
const DETAILS_EVENT = 'gen_ai.client.inference.operation.details';
const MESSAGE_EVENTS: Record<string, ChatMessage['role']> = {
  'gen_ai.system.message': 'system',
  'gen_ai.user.message': 'user',
  'gen_ai.assistant.message': 'assistant',
  'gen_ai.tool.message': 'tool',
};

interface SpanEventRead {
  name: string;
  time: { iso: string; ms: number } | undefined;
  timeNs: string | undefined;
  attrs: Attrs;
  body: unknown;
  path: string;
}

/** No span events: one list for all spans without any (never added to). */
const NO_EVENTS_READ: SpanEventRead[] = Object.freeze([]) as unknown as SpanEventRead[];

function readSpanEvents(s: Span): SpanEventRead[] {
  if (s.events.length === 0) return NO_EVENTS_READ;
  const out: SpanEventRead[] = [];
  for (let i = 0; i < s.events.length; i++) {
    const e: unknown = s.events[i];
    if (!isRecord(e)) continue;
    const ns = readNanos(own(e, 'timeUnixNano'));
    out.push({
      name: stringOf(own(e, 'name')) ?? '',
      time: timeOf(ns !== undefined ? nanosToIso(ns) : isoTime(own(e, 'timestamp'))),
      timeNs: ns,
      attrs: keyValues(own(e, 'attributes')),
      body: own(e, 'body'),
      path: `${spanPath(s)}.events[${i}]`,
    });
  }
  return out;
}

interface ModelParts {
  input: ChatMessage[];
  output: ChatMessage[];
  finish: string[];
  tools: ToolInfo[];
  consumedEvents: ReadonlySet<SpanEventRead>;
}

function modelParts(u: Used, events: SpanEventRead[]): ModelParts {
  // Made when a span event is consumed (most spans have none).
  let consumed: Set<SpanEventRead> | undefined;
  let input: ChatMessage[] = [];
  let output: ChatMessage[] = [];
  let finish: string[] = [];
  let tools = toolInfos(u.get('gen_ai.tool.definitions'));

  let src: Attrs = u.attrs;
  let inRaw = u.get('gen_ai.input.messages');
  let outRaw = u.get('gen_ai.output.messages');
  let sysRaw = u.get('gen_ai.system_instructions');
  if (inRaw === undefined && outRaw === undefined) {
    const details = events.find((e) => e.name === DETAILS_EVENT);
    if (details) {
      (consumed ??= new Set()).add(details);
      src = details.attrs;
      inRaw = own(src, 'gen_ai.input.messages');
      outRaw = own(src, 'gen_ai.output.messages');
      sysRaw = own(src, 'gen_ai.system_instructions');
      if (tools.length === 0) tools = toolInfos(own(src, 'gen_ai.tool.definitions'));
    }
  }
  if (inRaw !== undefined || outRaw !== undefined || sysRaw !== undefined) {
    const sys = jsonish(sysRaw);
    if (sys !== undefined) {
      const parts = (Array.isArray(sys) ? sys : [sys]).map(contentPart).filter((c) => c);
      input.push({ role: 'system', content: messageContent(parts as Content[]) });
    }
    // The lists chatMessages made, taken as they are when nothing came before
    // (not spread into another: a copy, and an arguments list, per call).
    const messages = chatMessages(jsonish(inRaw)).messages;
    if (input.length === 0) input = messages;
    else input.push(...messages);
    const o = chatMessages(jsonish(outRaw));
    output = o.messages;
    finish = o.finish; // nothing in it yet
  }
  // Legacy indexed attributes.
  if (input.length === 0) input = indexedMessages(u.tree('gen_ai.prompt')).messages;
  if (output.length === 0) {
    const o = indexedMessages(u.tree('gen_ai.completion'));
    output = o.messages;
    finish.push(...o.finish);
  }
  // Older per-message events.
  if (input.length === 0 || output.length === 0) {
    const fromEvents: unknown[] = [];
    const choices: unknown[] = [];
    for (const e of events) {
      const role = MESSAGE_EVENTS[e.name];
      const body = isRecord(e.body) ? anyValue(e.body) : undefined;
      const fields = isRecord(body) ? body : e.attrs;
      if (role) {
        (consumed ??= new Set()).add(e);
        fromEvents.push({ role, ...fields });
      } else if (e.name === 'gen_ai.choice') {
        (consumed ??= new Set()).add(e);
        const message = isRecord(fields['message']) ? fields['message'] : fields;
        choices.push({
          role: 'assistant',
          ...message,
          finish_reason: fields['finish_reason'],
        });
      }
    }
    if (input.length === 0) input = chatMessages(fromEvents).messages;
    if (output.length === 0) {
      const o = chatMessages(choices);
      output = o.messages;
      finish.push(...o.finish);
    }
  }
  // OpenInference.
  if (input.length === 0) input = oiMessages(u.tree('llm.input_messages'));
  if (output.length === 0) output = oiMessages(u.tree('llm.output_messages'));
  if (tools.length === 0) tools = toolInfos(u.tree('llm.tools'));
  // Vercel AI SDK.
  if (input.length === 0) {
    const prompt = jsonish(u.get('ai.prompt.messages'));
    if (Array.isArray(prompt)) input = chatMessages(prompt).messages;
  }
  if (tools.length === 0) tools = toolInfos(u.get('ai.prompt.tools'));
  if (output.length === 0) {
    const text = stringOf(u.get('ai.response.text'));
    const calls = jsonish(u.get('ai.response.toolCalls'));
    const parts: unknown[] = text ? [{ type: 'text', text }] : [];
    if (Array.isArray(calls))
      for (const c of calls) parts.push({ type: 'tool-call', ...(isRecord(c) ? c : {}) });
    if (parts.length > 0 || text !== undefined)
      output = chatMessages([{ role: 'assistant', content: parts }]).messages;
  }
  const fr = u.first(
    'gen_ai.response.finish_reasons',
    'llm.finish_reason',
    'ai.response.finishReason',
  );
  if (Array.isArray(fr)) for (const f of fr) if (typeof f === 'string') finish.push(f);
  if (typeof fr === 'string') finish.push(fr);
  return { input, output, finish, tools, consumedEvents: consumed ?? NONE_CONSUMED };
}

// ---------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------

/** Whether an object has an own enumerable key, without an `Object.keys` array. */
function hasKeys(o: object): boolean {
  for (const key in o) if (Object.prototype.hasOwnProperty.call(o, key)) return true;
  return false;
}

/** No attributes left (never added to). */
const NO_ATTRS: Attrs = Object.freeze({});

/** A span with trace id, kind, both times, scope and resource, and no status nor links. */
function isUsual(s: Span): boolean {
  return (
    s.traceId !== '' &&
    s.kind !== undefined &&
    s.startNs !== undefined &&
    s.endNs !== undefined &&
    !s.status &&
    !s.links &&
    s.scope !== undefined &&
    s.resource !== undefined
  );
}

/**
 * A model or tool call's metadata: {@link baseMetadata} without attributes,
 * then the model's provider and finish reasons and the attributes left. The
 * usual cases (a usual span with all three, or a tool's with attributes) in
 * one literal each, as in {@link baseMetadata}.
 */
function callMetadata(
  s: Span,
  dialect: string,
  provider: string | undefined,
  finish: string[] | undefined,
  rest: Attrs,
): JsonObject {
  if (provider !== undefined && finish !== undefined && hasKeys(rest) && isUsual(s)) {
    const { spanId, traceId, parentSpanId, name, kind, startNs, endNs, scope, resource } = s;
    return parentSpanId
      ? {
          span_id: spanId,
          trace_id: traceId,
          parent_span_id: parentSpanId,
          span_name: name,
          span_kind: kind!,
          start_time_unix_nano: startNs!,
          end_time_unix_nano: endNs!,
          dialect,
          scope: scope!,
          resource: resource as JsonObject,
          provider,
          finish_reasons: finish,
          attributes: rest as JsonObject,
        }
      : {
          span_id: spanId,
          trace_id: traceId,
          span_name: name,
          span_kind: kind!,
          start_time_unix_nano: startNs!,
          end_time_unix_nano: endNs!,
          dialect,
          scope: scope!,
          resource: resource as JsonObject,
          provider,
          finish_reasons: finish,
          attributes: rest as JsonObject,
        };
  }
  if (provider === undefined && finish === undefined && hasKeys(rest) && isUsual(s)) {
    const { spanId, traceId, parentSpanId, name, kind, startNs, endNs, scope, resource } = s;
    return parentSpanId
      ? {
          span_id: spanId,
          trace_id: traceId,
          parent_span_id: parentSpanId,
          span_name: name,
          span_kind: kind!,
          start_time_unix_nano: startNs!,
          end_time_unix_nano: endNs!,
          dialect,
          scope: scope!,
          resource: resource as JsonObject,
          attributes: rest as JsonObject,
        }
      : {
          span_id: spanId,
          trace_id: traceId,
          span_name: name,
          span_kind: kind!,
          start_time_unix_nano: startNs!,
          end_time_unix_nano: endNs!,
          dialect,
          scope: scope!,
          resource: resource as JsonObject,
          attributes: rest as JsonObject,
        };
  }
  const metadata = baseMetadata(s, dialect, NO_ATTRS);
  if (provider !== undefined) metadata.provider = provider;
  if (finish !== undefined) metadata.finish_reasons = finish;
  if (hasKeys(rest)) metadata.attributes = rest as JsonObject;
  return metadata;
}

function baseMetadata(s: Span, dialect: string, rest: Attrs): JsonObject {
  const { spanId, traceId, parentSpanId, kind, startNs, endNs, scope, resource } = s;
  // The usual span (trace id, kind, both times, scope and resource, no status
  // nor links) in one literal per case: an object built key by key grows its
  // property store three times, and each event keeps one.
  if (isUsual(s)) {
    const name = s.name;
    if (hasKeys(rest))
      return parentSpanId
        ? {
            span_id: spanId,
            trace_id: traceId,
            parent_span_id: parentSpanId,
            span_name: name,
            span_kind: kind,
            start_time_unix_nano: startNs,
            end_time_unix_nano: endNs,
            dialect,
            attributes: rest,
            scope,
            resource,
          }
        : {
            span_id: spanId,
            trace_id: traceId,
            span_name: name,
            span_kind: kind,
            start_time_unix_nano: startNs,
            end_time_unix_nano: endNs,
            dialect,
            attributes: rest,
            scope,
            resource,
          };
    return parentSpanId
      ? {
          span_id: spanId,
          trace_id: traceId,
          parent_span_id: parentSpanId,
          span_name: name,
          span_kind: kind,
          start_time_unix_nano: startNs,
          end_time_unix_nano: endNs,
          dialect,
          scope,
          resource,
        }
      : {
          span_id: spanId,
          trace_id: traceId,
          span_name: name,
          span_kind: kind,
          start_time_unix_nano: startNs,
          end_time_unix_nano: endNs,
          dialect,
          scope,
          resource,
        };
  }
  const m: JsonObject = { span_id: s.spanId };
  if (s.traceId) m.trace_id = s.traceId;
  if (s.parentSpanId) m.parent_span_id = s.parentSpanId;
  m.span_name = s.name;
  if (s.kind !== undefined) m.span_kind = s.kind;
  if (s.startNs !== undefined) m.start_time_unix_nano = s.startNs;
  if (s.endNs !== undefined) m.end_time_unix_nano = s.endNs;
  if (s.status) m.status = s.status;
  m.dialect = dialect;
  if (hasKeys(rest)) m.attributes = rest;
  if (s.links) m.links = s.links;
  if (s.scope) m.scope = s.scope;
  if (s.resource) m.resource = s.resource;
  return m;
}

interface Emit {
  ctx: ImportContext;
  sink: EventSink;
  /**
   * The skein ids of the spans emitted so far, to make a span id shared by
   * two traces unique; undefined when no two spans share one (each span's id
   * is then its span id, and no lookups per span are needed).
   */
  usedIds: Set<string> | undefined;
  calls: Map<string, { call: ToolCall; answered: boolean }>;
  tools: { event: ToolEvent; span: Span; hasId: boolean }[];
  /** The attribute reads of the span being emitted. */
  used: Used;
  /** Frozen one-reason `finish_reasons` lists, by reason ({@link oneReason}). */
  reasons: Map<string, string[]>;
}

/**
 * `[reason]`, one frozen list per reason for the import: a model call usually
 * gives one, of a handful, and a list per event was kept and frozen.
 */
function oneReason(em: Emit, reason: string): string[] {
  let list = em.reasons.get(reason);
  if (list === undefined) em.reasons.set(reason, (list = Object.freeze([reason]) as string[]));
  return list;
}

function invent(sink: EventSink, e: Event, s: Span): void {
  const invented = s.invented;
  for (let i = 0; i < invented.length; i++) sink.invent(e, invented[i]!, spanPath(s));
}

/** The span events a span that is no model consumed: none (one set, never added to). */
const NONE_CONSUMED: ReadonlySet<SpanEventRead> = new Set();
/** A tool event's empty `events`: one frozen array for all (events are deep-frozen anyway). */
const NO_EVENTS = Object.freeze([]) as unknown as ToolEvent['events'];

/**
 * Emits span `s` and, as yielded calls run by `runNested`, its children: a
 * parent chain 100,000 deep does not overflow the call stack.
 */
function* emitSpan(
  em: Emit,
  s: Span,
  enclosing: string | null,
): Generator<[Emit, Span, string | null], void, void> {
  const attrs = keyValues(s.attributes);
  const cls = classify(s, attrs);
  // Reused: this span's reads end before its children are emitted.
  const used = em.used.reset(attrs, keyMask);
  const events = readSpanEvents(s);
  const failed = s.status?.code === 'ERROR';
  let consumed: ReadonlySet<SpanEventRead> = NONE_CONSUMED;
  let childEnclosing = enclosing;
  let tool: ToolEvent | undefined;
  let begin: SpanBeginEvent | undefined;

  if (cls.role === 'model') {
    const parts = modelParts(used, events);
    consumed = parts.consumedEvents;
    const requestModel = stringOf(used.first('gen_ai.request.model', 'ai.model.id'));
    const responseModel = stringOf(
      used.first('gen_ai.response.model', 'llm.model_name', 'ai.response.model'),
    );
    const model = responseModel ?? requestModel ?? '';
    const provider = stringOf(
      used.first(
        'gen_ai.provider.name',
        'gen_ai.system',
        'llm.provider',
        'llm.system',
        'ai.model.provider',
      ),
    );
    const usage = usageOf(used);
    let content: ChatMessageAssistant['content'] = '';
    let calls: ToolCall[] | undefined;
    for (let i = 0; i < parts.output.length; i++) {
      const m = parts.output[i]!;
      if (m.role !== 'assistant') continue;
      if (content === '') content = m.content;
      else if (m.content !== '')
        content = [
          ...(typeof content === 'string' ? [{ type: 'text' as const, text: content }] : content),
          ...(typeof m.content === 'string'
            ? [{ type: 'text' as const, text: m.content }]
            : m.content),
        ];
      // The first message's list as it is (made for it by chatMessages).
      if (m.tool_calls?.length) calls = calls ? [...calls, ...m.tool_calls] : m.tool_calls;
    }
    // At its final size, one literal per case (keys added to a literal move
    // them to a separate property store, an object more per event).
    const message: ChatMessageAssistant = calls
      ? model
        ? { role: 'assistant', content, tool_calls: calls, model }
        : { role: 'assistant', content, tool_calls: calls }
      : model
        ? { role: 'assistant', content, model }
        : { role: 'assistant', content };
    if (calls)
      for (let i = 0; i < calls.length; i++) {
        const c = calls[i]!;
        if (c.id && !em.calls.has(c.id)) em.calls.set(c.id, { call: c, answered: false });
      }
    const completion =
      typeof message.content === 'string'
        ? message.content
        : message.content
            .filter((c) => c.type === 'text')
            .map((c) => (c as { text: string }).text)
            .join('');
    const responseId = stringOf(used.first('gen_ai.response.id', 'ai.response.id'));
    const config = configOf(used);
    const metadata = callMetadata(
      s,
      cls.dialect,
      provider,
      parts.finish.length === 0
        ? undefined
        : parts.finish.length === 1
          ? oneReason(em, parts.finish[0]!)
          : parts.finish,
      used.rest(),
    );
    const time = (s.endMs - s.startMs) / 1000;
    const choices =
      parts.output.length || message.tool_calls
        ? [{ message, stop_reason: stopReason(parts.finish[0]) }]
        : [];
    // One literal each, with and without usage (a spread builds key by key).
    const output: ModelEvent['output'] = usage
      ? { model, choices, completion, usage, time }
      : { model, choices, completion, time };
    const event: ModelEvent = {
      event: 'model',
      uuid: em.sink.uuid(`${s.traceId}/${s.spanId}/model`),
      span_id: enclosing,
      timestamp: s.start,
      model,
      input: parts.input,
      tools: parts.tools,
      tool_choice: 'auto',
      config,
      output,
      completed: s.end,
      working_time: time,
      metadata,
    };
    if (responseId !== undefined) event.call_id = responseId;
    if (failed) event.error = s.status?.message ?? 'error';
    em.sink.add(event);
    invent(em.sink, event, s);
  } else if (cls.role === 'tool') {
    const id = stringOf(used.first('gen_ai.tool.call.id', 'tool_call.id', 'ai.toolCall.id'));
    const name = stringOf(
      used.first('gen_ai.tool.name', 'tool.name', 'ai.toolCall.name', 'traceloop.entity.name'),
    );
    const args = used.first(
      'gen_ai.tool.call.arguments',
      'tool.parameters',
      'ai.toolCall.args',
      'ai.toolCall.input',
      'traceloop.entity.input',
      'input.value',
    );
    const result = used.first(
      'gen_ai.tool.call.result',
      'ai.toolCall.result',
      'ai.toolCall.output',
      'traceloop.entity.output',
      'output.value',
    );
    const metadata = callMetadata(s, cls.dialect, undefined, undefined, used.rest());
    tool = {
      event: 'tool',
      uuid: em.sink.uuid(`${s.traceId}/${s.spanId}/tool`),
      span_id: enclosing,
      timestamp: s.start,
      type: 'function',
      id: id ?? '',
      function: name ?? s.name.replace(/^execute_tool\s+/, ''),
      arguments: args === undefined ? {} : asArgs(args),
      result: result === undefined ? '' : asText(jsonishText(result)),
      events: NO_EVENTS,
      completed: s.end,
      working_time: (s.endMs - s.startMs) / 1000,
      metadata,
    };
    if (failed) {
      const exception = events.find((e) => e.name === 'exception');
      tool.error = {
        type: 'unknown',
        message: s.status?.message ?? stringOf(exception?.attrs['exception.message']) ?? 'error',
      };
      tool.failed = true;
    }
    em.sink.add(tool);
    invent(em.sink, tool, s);
    em.tools.push({ event: tool, span: s, hasId: id !== undefined });
  } else {
    let id = s.spanId;
    if (em.usedIds) {
      if (em.usedIds.has(id)) id = `${s.traceId}:${s.spanId}`;
      em.usedIds.add(id);
    }
    const name = stringOf(
      used.first(
        'gen_ai.agent.name',
        'agent.name',
        'traceloop.entity.name',
        'gen_ai.workflow.name',
      ),
    );
    begin = em.sink.openSpan({
      id,
      uuid: em.sink.uuid(`${s.traceId}/${s.spanId}/begin`),
      timestamp: s.start,
      parent_id: enclosing,
      type: cls.type,
      name: name ?? s.name,
      metadata: baseMetadata(s, cls.dialect, used.rest()),
    });
    invent(em.sink, begin, s);
    childEnclosing = id;
    addSpanEvents(em, s, events, consumed, id);
  }

  if (cls.role !== 'span') addSpanEvents(em, s, events, consumed, enclosing);
  const children = s.children;
  for (let i = 0; i < children.length; i++) {
    const c = children[i]!;
    yield [em, c, childEnclosing];
    if (tool && !tool.agent_span_id && c.cls!.type === 'agent')
      tool.agent_span_id = em.usedIds?.has(`${c.traceId}:${c.spanId}`)
        ? `${c.traceId}:${c.spanId}`
        : c.spanId;
  }
  if (begin) {
    // What `closeSpan` adds (the begin was never open), with its metadata in
    // the literal: added afterwards, it took a property store per span_end.
    const id = begin.id;
    const end: SpanEndEvent = {
      event: 'span_end',
      uuid: em.sink.uuid(`${s.traceId}/${s.spanId}/end`),
      timestamp: s.end,
      span_id: id,
      id,
      // The OTLP id, for a span whose skein id had to be made unique.
      metadata: { span_id: s.spanId },
    };
    em.sink.add(end);
    if (s.invented.includes('end')) em.sink.invent(end, 'end', spanPath(s));
  }
}

/** Tool results are often JSON strings; keep them as text, unwrapping a JSON-encoded string. */
function jsonishText(v: unknown): unknown {
  if (typeof v === 'string' && v.charCodeAt(0) === 34) {
    const parsed = jsonish(v);
    return typeof parsed === 'string' ? parsed : v;
  }
  return v;
}

function addSpanEvents(
  em: Emit,
  s: Span,
  events: SpanEventRead[],
  consumed: ReadonlySet<SpanEventRead>,
  spanId: string | null,
): void {
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    if (consumed.has(e)) continue;
    const data: JsonObject = { name: e.name };
    if (Object.keys(e.attrs).length) data.attributes = e.attrs;
    if (e.body !== undefined) data.body = anyValue(e.body);
    const info = em.sink.add({
      event: 'info',
      uuid: em.sink.uuid(`${s.traceId}/${s.spanId}/event/${i}`),
      span_id: spanId,
      timestamp: e.time?.iso ?? s.start,
      source: 'otlp',
      data,
      metadata: {
        span_id: s.spanId,
        ...(e.timeNs !== undefined ? { time_unix_nano: e.timeNs } : {}),
      },
    });
    if (!e.time) em.sink.invent(info, 'timestamp', e.path);
  }
}

/** Tool events: name and arguments from the model's call of that id; an id from the first unanswered call of that name. */
function pairTools(em: Emit): void {
  const tools = em.tools;
  for (let i = 0; i < tools.length; i++) {
    const t = tools[i]!;
    if (t.hasId) {
      const c = em.calls.get(t.event.id);
      if (!c) continue;
      c.answered = true;
      if (t.event.function === '' || t.event.function === t.span.name)
        t.event.function = c.call.function;
      if (!hasKeys(t.event.arguments)) t.event.arguments = c.call.arguments;
    }
  }
  for (let i = 0; i < tools.length; i++) {
    const t = tools[i]!;
    if (t.hasId) continue;
    for (const [id, c] of em.calls) {
      if (c.answered || c.call.function !== t.event.function) continue;
      c.answered = true;
      t.event.id = id;
      if (Object.keys(t.event.arguments).length === 0) t.event.arguments = c.call.arguments;
      t.hasId = true;
      break;
    }
    if (!t.hasId) {
      t.event.id = t.span.spanId;
      em.sink.invent(t.event, 'id', spanPath(t.span));
    }
  }
}

// ---------------------------------------------------------------------------
// The format
// ---------------------------------------------------------------------------

/**
 * The probe's text, or `null` for JSON Lines bytes too large for one string
 * (a document that large throws its `input_too_large`).
 */
function wholeText(probe: Probe): string | undefined | null {
  try {
    return probe.text();
  } catch (e) {
    if (e instanceof ImportError && e.code === 'input_too_large' && probe.isJsonLines())
      return null;
    throw e;
  }
}

function importProbe(probe: Probe, options: ImportOptions): ImportResult {
  const ctx = new ImportContext(options);
  const sink = new EventSink(ctx, { seed: options.uuidSeed ?? 'otlp' });
  const reader = new Reader(ctx);
  const text = probe.isRaw ? wholeText(probe) : undefined;
  const fixed = typeof text === 'string' ? quoteBigInts(text) : undefined;
  if (text === null) {
    // JSON Lines past the largest string: read a line at a time, each line's
    // 64-bit integers quoted as the whole text's would be (a record is one line).
    probe.eachLine(ctx, (value, path) => reader.record(value, path), quoteBigInts);
  } else if (fixed !== undefined && fixed !== text) {
    const first = fixed.replace(/^[\s\uFEFF]+/, '').charAt(0);
    let doc: unknown;
    if (first === '{' || first === '[') {
      try {
        doc = parseJsonTolerant(fixed, '$');
      } catch {
        doc = undefined;
      }
    }
    if (doc !== undefined) reader.record(doc, '$');
    else for (const { value, path } of readJsonLines(fixed, ctx)) reader.record(value, path);
  } else {
    const doc = probe.json();
    if (doc !== undefined) reader.record(doc, '$');
    else {
      if (probe.isRaw && probe.jsonError && !probe.isJsonLines()) throw probe.jsonError;
      for (const { value, path } of probe.lines(ctx)) reader.record(value, path);
    }
  }
  const { roots, spanIdsUnique } = buildTree(reader.spans, ctx, options.baseTime);
  const em: Emit = {
    ctx,
    sink,
    usedIds: spanIdsUnique ? undefined : new Set(),
    calls: new Map(),
    tools: [],
    used: new Used(),
    reasons: new Map(),
  };
  for (const u of reader.unknown) {
    const info = sink.add({
      event: 'info',
      uuid: sink.uuid(`unknown/${u.path}`),
      timestamp: roots[0]?.start ?? new SyntheticClock(options.baseTime).next(),
      source: 'otlp',
      data: u.value as never,
    });
    if (!roots[0]) sink.invent(info, 'timestamp', u.path);
  }
  const logs = reader.logs.length > 0 ? standaloneLogs(reader.logs, reader.spans) : NO_LOGS;
  const clock = new SyntheticClock(roots[0]?.start ?? options.baseTime);
  let next = 0;
  for (let i = 0; i < roots.length; i++) {
    const root = roots[i]!;
    // Records of their own go among the root spans by time.
    while (next < logs.length && !(logs[next]!.ms >= root.startMs))
      emitLog(sink, logs[next++]!, LOG_READERS, () => clock.next());
    runNested(emitSpan, em, root, null);
  }
  while (next < logs.length) emitLog(sink, logs[next++]!, LOG_READERS, () => clock.next());
  pairTools(em);
  return { format: 'otlp', events: sink.finish(), diagnostics: ctx.finish() };
}

/** The value and time readers otlp-logs.ts reads records with (this file's). */
const LOG_READERS: LogValueReaders = {
  keyValues: (list) => keyValues(list),
  anyValue: (v) => anyValue(v),
  readId,
  readNanos,
  nanosTime(ns) {
    const iso = nanosToIso(ns);
    return iso === undefined ? undefined : { iso, ms: readMs };
  },
};

const NO_LOGS: LogRead[] = [];

/**
 * Log records whose span is in the input become that span's events (after
 * its own); the others are returned, by time, to be events of their own.
 */
function standaloneLogs(logs: LogRead[], spans: Span[]): LogRead[] {
  const byKey = new Map<string, Span>();
  for (const s of spans)
    if (!byKey.has(`${s.traceId}/${s.spanId}`)) byKey.set(`${s.traceId}/${s.spanId}`, s);
  const rest: LogRead[] = [];
  for (const log of logs) {
    const span = log.spanId !== '' ? byKey.get(`${log.traceId}/${log.spanId}`) : undefined;
    // A new list: the span's own `events` is the input's (never changed).
    if (span) span.events = [...span.events, asSpanEvent(log)];
    else rest.push(log);
  }
  return sortLogs(rest);
}

/**
 * OpenTelemetry traces: OTLP/JSON exports, JSON Lines of exports, or flat
 * span lists, in the GenAI, OpenInference, OpenLLMetry and Vercel AI SDK
 * dialects.
 *
 * @example
 * import { Probe } from '../probe.js';
 * import { otlpFormat } from './otlp.js';
 * otlpFormat.detect(new Probe('{"resourceSpans":[]}')); // true
 */
export const otlpFormat: FormatImporter = {
  id: 'otlp',
  name: 'OpenTelemetry traces and logs (OTLP/JSON)',
  extensions: ['.json', '.jsonl'],
  detect(probe) {
    const head = probe.head();
    if (head.startsWith('{') && /^\{\s*"resource(?:Spans|Logs)"\s*:/.test(head)) return true;
    const records = probe.records(4);
    if (records.length === 0) return false;
    const doc = probe.json();
    if (isRecord(doc)) return looksLikeOtlp(doc);
    return records.every((r) => looksLikeOtlp(r));
  },
  import: importProbe,
  incremental: (options) => otlpIncremental(importOtlp, options),
};

/**
 * A cheap check whether an input is an OpenTelemetry trace export.
 *
 * @example
 * isOtlp('{"resourceSpans":[]}'); // true
 */
export const isOtlp: (input: ImportInput, filename?: string) => boolean = sniffer(otlpFormat);

/**
 * Imports OpenTelemetry traces (OTLP/JSON, JSON Lines of exports, or a list of
 * spans) from text, bytes or a parsed value.
 *
 * @example
 * declare const file: File; // an OTLP/JSON export
 * const { events, diagnostics } = importOtlp(await file.text());
 * const models = events.filter((e) => e.event === 'model');
 */
export function importOtlp(input: ImportInput, options: ImportOptions = {}): ImportResult {
  return importProbe(new Probe(input, options.filename), options);
}
