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
// span, its tool-call pairing) depends on spans that can come in later lines.
// The live importer of the OTLP receiver (otlp-live.ts) maps each request's
// spans once with this importer's functions, holding what waits on a parent
// not seen yet; the JSON Lines stream (otlp-stream.ts) drives it a line at a
// time, and falls back to this whole-file import for what it cannot map so.
//
// The parts, in the order an import runs them: read.ts (records into spans,
// over values.ts and time.ts), tree.ts (the span tree), dialects.ts (what a
// span is, and the attribute reads), messages.ts (a model call's content),
// emit.ts (spans as events, tool pairing); otlp-logs.ts reads logs exports.
import { ImportError } from '../../errors.js';
import { ImportContext, isRecord, type ImportOptions } from '../guards.js';
import { sniffer, type FormatImporter, type ImportResult } from '../format.js';
import { parseJsonTolerant } from '../json.js';
import { readJsonLines } from '../lines.js';
import { otlpIncremental } from './otlp-stream.js';
import { asSpanEvent, emitLog, sortLogs, type LogRead } from './otlp-logs.js';
import { Probe, type ImportInput } from '../probe.js';
import { EventSink, SyntheticClock } from '../sink.js';
import { quoteBigInts } from './time.js';
import { type Span, looksLikeOtlp, Reader } from './read.js';
import { buildTree } from './tree.js';
import { Used } from './dialects.js';
import { type Emit, emitSpanTree, pairTools } from './emit.js';

// The receiver quotes the big integers of JSON bodies as this importer does.
export { quoteBigInts } from './time.js';

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
      // JSON Lines first: `jsonError` parses the whole text again to say why
      // it is no document (a streamed file's every import paid for it).
      if (probe.isRaw && !probe.isJsonLines() && probe.jsonError) throw probe.jsonError;
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
      emitLog(sink, logs[next++]!, () => clock.next());
    emitSpanTree(em, root, null);
  }
  while (next < logs.length) emitLog(sink, logs[next++]!, () => clock.next());
  pairTools(em);
  return { format: 'otlp', events: sink.finish(), diagnostics: ctx.finish() };
}

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
