// Reading OTLP/JSON records (exports, resources, scopes, spans, or lists of
// them) into normalised spans and log records, before any mapping.
import { jsonPath } from '../../errors.js';
import type { JsonObject } from '../../events/types.js';
import type { ImportContext } from '../guards.js';
import { isRecord, own, typeName, stringOf } from '../guards.js';
import { readResourceLogs, type LogRead } from './otlp-logs.js';
import { type Attrs, field, keyValues } from './values.js';
import { readId, enumName, readNanos, readMs, nanosToIso, isoTime } from './time.js';
import type { Classified } from './dialects.js';

/** One span, read and normalised. */
export interface Span {
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
  /**
   * The skein span it was mapped in, once mapped by the live importer
   * (otlp-live.ts; `null`: at the root): a field, not a map entry per span.
   */
  enclosing: string | null | undefined;
}

const SPAN_KINDS = ['UNSPECIFIED', 'INTERNAL', 'SERVER', 'CLIENT', 'PRODUCER', 'CONSUMER'];
const STATUS_CODES = ['UNSET', 'OK', 'ERROR'];

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

/** Whether a record is an OTLP export, resource, scope, span list or span. */
export function looksLikeOtlp(r: unknown): boolean {
  if (!isRecord(r)) return false;
  return (
    Array.isArray(r['resourceSpans']) ||
    Array.isArray(r['resourceLogs']) ||
    Array.isArray(r['scopeSpans']) ||
    (Array.isArray(r['spans']) && typeof r['event'] !== 'string') ||
    looksLikeSpan(r)
  );
}

/** Reads records into {@link Span}s, log records and records it cannot read (kept). */
export class Reader {
  readonly spans: Span[] = [];
  /** Log records (otlp-logs.ts). */
  readonly logs: LogRead[] = [];
  readonly unknown: { value: unknown; path: string }[] = [];
  readonly #ctx: ImportContext;
  /** The last span's `traceId` as given, and as read. */
  #rawTrace: string | undefined;
  #traceId = '';

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
        return readResourceLogs(rl, jsonPath(path, 'resourceLogs'), this.#ctx, this.logs);
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
    const rawTrace = field(r, 'traceId') ?? (ctxRec && field(ctxRec, 'trace_id'));
    // The spans of a trace mostly come together: its id read once, and one
    // string for all of them (kept by each span and event), not one each.
    let traceId: string;
    if (rawTrace === this.#rawTrace) traceId = this.#traceId;
    else {
      traceId = readId(rawTrace);
      if (typeof rawTrace === 'string') {
        this.#rawTrace = rawTrace;
        this.#traceId = traceId;
      }
    }
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
      enclosing: undefined,
    });
  }
}

function atIndex(path: string, index: number): string {
  return index < 0 ? path : `${path}[${index}]`;
}

/** The JSON path of a span's record. */
export function spanPath(s: Span): string {
  return atIndex(s.pathBase, s.pathIndex);
}

// Most spans invent nothing and most have no children: one shared empty list
// each (never pushed to: replaced by a new list), not two arrays per span kept
// for the whole import.
const NOTHING_INVENTED: Span['invented'] = Object.freeze([]);
/** A span without children (one frozen list for all; replaced, never pushed to). */
export const NO_CHILDREN: Span[] = Object.freeze([]) as unknown as Span[];
const NO_SPAN_EVENTS: unknown[] = Object.freeze([]) as unknown as unknown[];

function resourceOf(r: Attrs): Attrs | undefined {
  const res = own(r, 'resource');
  return isRecord(res) ? keyValues(own(res, 'attributes')) : undefined;
}
