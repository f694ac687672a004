// Exported OpenAI Agents SDK traces: the records its exporters write
// (`trace.toJSON()` → `{object: "trace", id, workflow_name, group_id,
// metadata}`, `span.toJSON()` → `{object: "trace.span", id, trace_id,
// parent_id, started_at, ended_at, span_data, error}`), as a JSON array,
// the traces ingest body `{data: [...]}`, one record, or JSON Lines; the
// Python SDK's `export()` writes the same fields.
// https://openai.github.io/openai-agents-js/guides/tracing/
//
// Quirks: exporters write a span when it ends, so children come before their
// parents and a trace's spans may interleave with other traces'; spans are
// put back in start order, parents first, before the mapping (importer.ts)
// reads them. Traces carry no times: a trace spans its spans. An export has
// no `_input`/`_response` of response spans (the SDK leaves them out), so a
// response span is a model call with its id, without its messages; the
// live processor sees them.
import type { FormatImporter, ImportResult } from '../format.js';
import { sniffer } from '../format.js';
import { ImportContext, isRecord, own, type ImportOptions } from '../guards.js';
import { Probe, type ImportInput } from '../probe.js';
import { timestampMs } from '../../events/timestamp.js';
import { OpenAiAgentsImporter } from './importer.js';
import type { OpenAiAgentsSpanRecord, OpenAiAgentsTraceRecord } from './types.js';

function isAgentsRecord(value: unknown): boolean {
  if (!isRecord(value)) return false;
  const object = own(value, 'object');
  return (
    (object === 'trace' && typeof own(value, 'id') === 'string') ||
    (object === 'trace.span' && isRecord(own(value, 'span_data')))
  );
}

/** The records of the input with their paths. */
function recordsOf(probe: Probe, ctx: ImportContext): { value: unknown; path: string }[] {
  const doc = probe.json();
  if (Array.isArray(doc)) return doc.map((value, i) => ({ value, path: `$[${i}]` }));
  if (isRecord(doc)) {
    const data = own(doc, 'data');
    if (Array.isArray(data) && !isAgentsRecord(doc))
      return data.map((value, i) => ({ value, path: `$.data[${i}]` }));
    return [{ value: doc, path: '$' }];
  }
  if (probe.isRaw && probe.jsonError && !probe.isJsonLines()) throw probe.jsonError;
  const out: { value: unknown; path: string }[] = [];
  probe.eachLine(ctx, (value, path) => out.push({ value, path }));
  return out;
}

interface Placed {
  readonly record: OpenAiAgentsSpanRecord;
  readonly path: string;
  readonly start: number;
  readonly index: number;
}

const byStart = (a: Placed, b: Placed): number =>
  a.start - b.start ||
  (Number.isNaN(a.start) ? 1 : 0) - (Number.isNaN(b.start) ? 1 : 0) ||
  a.index - b.index;

/**
 * Spans in the order a live run starts them: parents first, siblings by
 * start time (file order breaks ties). Iterative; spans unreachable from a
 * root (a parent cycle) follow in file order.
 */
function startOrder(spans: Placed[]): Placed[] {
  const ids = new Set(spans.map((s) => s.record.id));
  const children = new Map<string, Placed[]>();
  const roots: Placed[] = [];
  for (const s of spans) {
    const parent = s.record.parent_id;
    if (typeof parent === 'string' && ids.has(parent) && parent !== s.record.id) {
      let list = children.get(parent);
      if (!list) children.set(parent, (list = []));
      list.push(s);
    } else roots.push(s);
  }
  const out: Placed[] = [];
  const done = new Set<Placed>();
  const stack = roots.sort(byStart).reverse();
  while (stack.length) {
    const s = stack.pop()!;
    if (done.has(s)) continue;
    done.add(s);
    out.push(s);
    const kids = children.get(s.record.id);
    if (kids) for (const k of kids.sort(byStart).reverse()) stack.push(k);
  }
  for (const s of spans) if (!done.has(s)) out.push(s);
  return out;
}

/**
 * Starts and ends the spans in the order a live run did, so the events come
 * out as the processor appends them: before a span starts, every open span
 * that ended by then and is not its ancestor ends (innermost first); a span
 * without an end stays open (the importer closes it, with a diagnostic).
 */
function replay(importer: OpenAiAgentsImporter, order: Placed[]): void {
  const byId = new Map(order.map((s) => [s.record.id, s]));
  const depth = new Map<Placed, number>();
  const open: Placed[] = [];
  const endOf = (s: Placed): number =>
    typeof s.record.ended_at === 'string' ? timestampMs(s.record.ended_at) : Infinity;
  const close = (until: number, keep: ReadonlySet<string>): void => {
    const due = open.filter((o) => !keep.has(o.record.id) && endOf(o) <= until);
    if (!due.length) return;
    due.sort((a, b) => endOf(a) - endOf(b) || depth.get(b)! - depth.get(a)!);
    for (const o of due) {
      open.splice(open.indexOf(o), 1);
      importer.endSpan(o.record, o.path);
    }
  };
  for (const s of order) {
    // Its ancestors, walked up (bounded by the number of spans: a cycle stops).
    const ancestors = new Set<string>();
    let parent = s.record.parent_id;
    while (typeof parent === 'string' && !ancestors.has(parent) && ancestors.size < order.length) {
      ancestors.add(parent);
      parent = byId.get(parent)?.record.parent_id;
    }
    depth.set(s, ancestors.size);
    close(s.start, ancestors);
    importer.startSpan({ ...s.record, ended_at: null }, s.path);
    if (typeof s.record.ended_at === 'string') open.push(s);
  }
  close(Infinity, new Set());
}

function importProbe(probe: Probe, options: ImportOptions): ImportResult {
  const lineCtx = new ImportContext(options);
  const records = recordsOf(probe, lineCtx);
  const importer = new OpenAiAgentsImporter(options);
  const traces: { record: OpenAiAgentsTraceRecord; path: string }[] = [];
  const spans: Placed[] = [];
  const firstStart = new Map<string, { ms: number; iso: string }>();
  records.forEach(({ value, path }, index) => {
    if (!isAgentsRecord(value)) {
      importer.push(value, path); // reported there
      return;
    }
    const rec = value as Record<string, unknown>;
    if (rec['object'] === 'trace') {
      traces.push({ record: rec as unknown as OpenAiAgentsTraceRecord, path });
      return;
    }
    const record = rec as unknown as OpenAiAgentsSpanRecord;
    if (typeof record.id !== 'string' || typeof record.trace_id !== 'string') {
      importer.push(value, path);
      return;
    }
    const start = typeof record.started_at === 'string' ? timestampMs(record.started_at) : NaN;
    spans.push({ record, path, start, index });
    const first = firstStart.get(record.trace_id);
    if (Number.isFinite(start) && (!first || start < first.ms))
      firstStart.set(record.trace_id, { ms: start, iso: record.started_at! });
  });
  for (const { record, path } of traces)
    importer.startTrace(record, path, firstStart.get(record.id)?.iso);
  replay(importer, startOrder(spans));
  const events = importer.end();
  const lineDiagnostics = lineCtx.finish();
  return {
    format: 'openai-agents',
    events,
    diagnostics: [...lineDiagnostics, ...importer.diagnostics()],
  };
}

/**
 * The OpenAI Agents SDK's exported traces as a format of the importer
 * registry (`detectFormat`, `importAny`, the viewer).
 *
 * @example
 * import { Probe } from '../probe.js';
 * import { openAiAgentsFormat } from './openai-agents.js';
 * openAiAgentsFormat.detect(new Probe('{"object":"trace","id":"trace_1"}')); // true
 */
export const openAiAgentsFormat: FormatImporter = {
  id: 'openai-agents',
  name: 'OpenAI Agents SDK traces',
  extensions: ['.json', '.jsonl'],
  detect(probe) {
    const doc = probe.json();
    if (isRecord(doc) && Array.isArray(own(doc, 'data')) && !isAgentsRecord(doc)) {
      const data = own(doc, 'data') as unknown[];
      return data.length > 0 && data.slice(0, 4).every(isAgentsRecord);
    }
    const records = probe.records(4);
    return records.length > 0 && records.every(isAgentsRecord);
  },
  import: importProbe,
};

/**
 * A cheap check whether an input is an export of OpenAI Agents SDK traces.
 *
 * @example
 * isOpenAiAgentsTrace('{"object":"trace","id":"trace_1","workflow_name":"Agent workflow"}'); // true
 */
export const isOpenAiAgentsTrace: (input: ImportInput, filename?: string) => boolean =
  sniffer(openAiAgentsFormat);

/**
 * Imports exported OpenAI Agents SDK traces (`{object: "trace" …}` and
 * `{object: "trace.span" …}` records as a JSON array, `{data: [...]}`, or
 * JSON Lines; the JS and the Python SDK) from text, bytes or a parsed value.
 *
 * @example
 * declare const file: File; // spans an exporter wrote, one JSON per line
 * const { events, diagnostics } = importOpenAiAgentsTrace(await file.text());
 * const toolCalls = events.filter((e) => e.event === 'tool');
 */
export function importOpenAiAgentsTrace(
  input: ImportInput,
  options: ImportOptions = {},
): ImportResult {
  return importProbe(new Probe(input, options.filename), options);
}
