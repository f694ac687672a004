// The importers' front door: one registry in detection order,
// `detectFormat` and `importAny` that agree with each other by construction
// (both walk the same list with the same `Probe`), and `streamImport` for line
// formats read as they arrive.
//
// Detection order: formats with an unmistakable marker first (a zip directory,
// a version field), the most generic shapes last. A file name never decides
// alone: formats whose usual extensions match are only *tried first*, so a
// fixture is detected the same with and without its name.
import { ImportError } from '../errors.js';
import type { Event } from '../events/types.js';
import { ImportContext, type ImportOptions } from './guards.js';
import type {
  AnyImportOptions,
  FormatId,
  FormatImporter,
  ImportResult,
  IncrementalImporter,
} from './format.js';
import { acpFormat } from './acp/acp.js';
import { defectFormat } from './defect/defect.js';
import { inspectFormat } from './inspect/inspect-format.js';
import { jupyterFormat } from './jupyter/jupyter.js';
import { claudeCodeFormat } from './claude-code/claude-code.js';
import { agexFormat } from './agex/agex.js';
import { cantusFormat } from './cantus/cantus.js';
import { readJsonLineBatchesAsync, type JsonLine } from './lines.js';
import { chunksOf, isChunkSource, type ChunkSource } from '../chunks.js';
import { Probe, type ImportInput } from './probe.js';
import { skeinEventsFormat } from './skein-events/skein-events.js';
import { otlpFormat } from './otlp/otlp.js';
import { openZip } from './zip.js';
import { importInspectLog } from './inspect/inspect-log.js';
import {
  compareSamples,
  overallStatus,
  summarizeEvents,
  summarizeInspectSample,
  type LogSummary,
  type SampleSummary,
} from './summary.js';
import { openHandsFormat } from './openhands/openhands.js';
import { openAiAgentsFormat } from './openai-agents/openai-agents.js';
import { agUiFormat } from './ag-ui/ag-ui.js';
import { vercelAiFormat } from './vercel-ai/vercel-ai.js';
import { looksLikeSse, readSseBatchesAsync } from './sse.js';

/**
 * Every format skein reads, in detection order.
 *
 * @example
 * formats.map((f) => f.id); // ['inspect', …, 'skein']
 */
export const formats: readonly FormatImporter[] = [
  inspectFormat,
  otlpFormat,
  jupyterFormat,
  claudeCodeFormat,
  openHandsFormat,
  openAiAgentsFormat,
  acpFormat,
  defectFormat,
  agexFormat,
  cantusFormat,
  agUiFormat,
  vercelAiFormat,
  // Generic shapes last.
  skeinEventsFormat,
];

/** The result of {@link detectFormat}. */
export type DetectedFormat =
  | { readonly format: FormatId; readonly name: string }
  | { readonly format: null; readonly tried: readonly FormatId[] };

function ordered(probe: Probe): readonly FormatImporter[] {
  const ext = probe.extension;
  if (!ext) return formats;
  const hinted = formats.filter((f) => f.extensions.includes(ext));
  return hinted.length ? [...hinted, ...formats.filter((f) => !hinted.includes(f))] : formats;
}

function detectProbe(probe: Probe): FormatImporter | undefined {
  for (const format of ordered(probe)) {
    try {
      if (format.detect(probe)) return format;
    } catch {
      // A sniff must not throw; one that does simply did not recognise the input.
    }
  }
  return undefined;
}

/**
 * Which format an input is in: text, bytes or a parsed JSON value, with an
 * optional file name as a hint. Never throws; an input no format recognises
 * gives `{ format: null, tried }`.
 *
 * @example
 * declare const text: string;
 * declare function say(message: string): void;
 * const d = detectFormat(text, { filename: 'session.jsonl' });
 * if (d.format === null) say(`not recognised (tried ${d.tried.join(', ')})`);
 */
export function detectFormat(
  input: ImportInput,
  options: { filename?: string } = {},
): DetectedFormat {
  const found = detectProbe(new Probe(input, options.filename));
  return found
    ? { format: found.id, name: found.name }
    : { format: null, tried: formats.map((f) => f.id) };
}

/**
 * Imports any supported input: the format is detected (or given as
 * `options.format`), then imported. Input that no format recognises rejects
 * with an `ImportError` of code `unrecognized_format` that names the formats
 * tried. An async iterable of chunks is read to its end first; use
 * {@link streamImport} to get events while it is still read.
 *
 * @example
 * declare const file: File; // from an <input type="file">
 * const bytes = new Uint8Array(await file.arrayBuffer());
 * const { format, events, diagnostics } = await importAny(bytes, { filename: file.name });
 * const stream = EventStream.from(events);
 */
export async function importAny(
  input: ImportInput | ChunkSource,
  options: AnyImportOptions & { format?: FormatId } = {},
): Promise<ImportResult> {
  const whole = isChunkSource(input) ? await readAll(chunksOf(input)) : input;
  const probe = new Probe(whole, options.filename);
  const format = options.format ? formats.find((f) => f.id === options.format) : detectProbe(probe);
  if (!format) {
    // A zip that no format opens is most often a cut-short `.eval`: say so
    // (`zip_truncated`, `zip_corrupt`) rather than "not a format".
    if (probe.isZip) openZip(probe.bytes!);
    const why = probe.jsonError;
    if (why instanceof ImportError && !probe.isJsonLines()) throw why;
    throw new ImportError('unrecognized_format', '$', formats.map((f) => f.id).join(', '));
  }
  return format.import(probe, options);
}

/**
 * Options of {@link summarizeLog}.
 *
 * @example
 * const options: SummarizeLogOptions = { filename: 'run.eval', readSamples: true };
 */
export interface SummarizeLogOptions {
  /** The file's name, a hint for detection. */
  filename?: string;
  /**
   * inspect logs: read the events of each sample whose summary lacks its
   * tokens or duration, and take them from there (older inspect_ai `.eval`
   * files list only id, epoch, input, target and scores in `summaries.json`,
   * though every sample records its usage and times). Costs a read of those
   * samples; default `false` (the summaries alone).
   */
  readSamples?: boolean;
}

/**
 * A log's summary without showing it: its format, task, model,
 * status and one `SampleSummary` per sample, sorted. An inspect log is
 * summarised from its sample summaries (no sample's events are read, unless
 * `readSamples` asks for what they lack); any other format is one run,
 * imported and summarised from its events. Rejects as {@link importAny} does
 * for input it cannot read.
 *
 * @example
 * declare const bytes: Uint8Array;
 * const log = await summarizeLog(bytes, { filename: 'run.eval' });
 * const lines = log.samples.map((s) => `${s.id} ${s.status} ${s.tokens ?? '?'} tokens`);
 */
export async function summarizeLog(
  input: ImportInput,
  options: SummarizeLogOptions = {},
): Promise<LogSummary> {
  const probe = new Probe(input, options.filename);
  const found = detectProbe(probe);
  if (found?.id === 'inspect') {
    const bytes =
      probe.bytes ??
      new TextEncoder().encode(probe.isRaw ? (probe.text() ?? '') : JSON.stringify(probe.json()));
    const log = await importInspectLog(bytes);
    const diagnostics = [...log.diagnostics];
    const samples: SampleSummary[] = [];
    for (const raw of log.samples) {
      const summary = summarizeInspectSample(raw);
      if (!options.readSamples || (summary.tokens !== null && summary.durationMs !== null)) {
        samples.push(summary);
        continue;
      }
      // The sample's own record of what its summary lacks: the usage its
      // model calls report and the time from its first event to its last end.
      const read = await log.sample(raw.id, raw.epoch);
      diagnostics.push(...read.diagnostics);
      const fromEvents = summarizeEvents(read.events);
      samples.push({
        ...summary,
        tokens: summary.tokens ?? fromEvents.tokens,
        durationMs: summary.durationMs ?? fromEvents.durationMs,
      });
    }
    samples.sort(compareSamples);
    const { header } = log;
    return {
      format: 'inspect',
      formatName: found.name,
      task: typeof header.eval.task === 'string' ? header.eval.task : null,
      model: typeof header.eval.model === 'string' ? header.eval.model : null,
      status: typeof header.status === 'string' ? header.status : overallStatus(samples),
      samples,
      diagnostics,
    };
  }
  const result = await importAny(input, {
    ...options,
    ...(found ? { format: found.id } : {}),
  });
  const sample = summarizeEvents(result.events);
  let model: string | null = null;
  for (const e of result.events) {
    const m = (e as { model?: unknown }).model;
    if (e.event === 'model' && typeof m === 'string') {
      model = m;
      break;
    }
  }
  return {
    format: result.format,
    formatName: formats.find((f) => f.id === result.format)?.name ?? result.format,
    task: null,
    model,
    status: overallStatus([sample]),
    samples: [sample],
    diagnostics: result.diagnostics,
  };
}

async function readAll(chunks: AsyncIterable<string | Uint8Array>): Promise<string | Uint8Array> {
  const parts: (string | Uint8Array)[] = [];
  let bytes = 0;
  let text = false;
  for await (const c of chunks) {
    parts.push(c);
    if (typeof c === 'string') text = true;
    else bytes += c.length;
  }
  if (!text) {
    const out = new Uint8Array(bytes);
    let at = 0;
    for (const p of parts as Uint8Array[]) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }
  const decoder = new TextDecoder();
  return parts
    .map((p) => (typeof p === 'string' ? p : decoder.decode(p, { stream: true })))
    .join('');
}

const DETECT_RECORDS = 8;

/**
 * The first text of a chunk source (at least its first non-blank
 * characters, when there are any), and the whole source again, unchanged.
 */
async function peekText(
  chunks: ChunkSource,
): Promise<{ head: string; rest: AsyncIterable<string | Uint8Array> }> {
  const it = chunksOf(chunks)[Symbol.asyncIterator]();
  const taken: (string | Uint8Array)[] = [];
  const decoder = new TextDecoder();
  let head = '';
  let done = false;
  while (head.trim().length < 8) {
    const next = await it.next();
    if (next.done === true) {
      done = true;
      break;
    }
    taken.push(next.value);
    head +=
      typeof next.value === 'string' ? next.value : decoder.decode(next.value, { stream: true });
  }
  const rest = {
    async *[Symbol.asyncIterator]() {
      yield* taken;
      if (done) return;
      for (;;) {
        const next = await it.next();
        if (next.done === true) return;
        yield next.value;
      }
    },
  };
  return { head, rest };
}

/**
 * Imports a line format while it is read: yields a batch of event versions
 * as soon as a chunk's lines are complete (one batch per chunk, of at most
 * 1,024 records; open items as `pending` copies, as a live feed does), and returns the result's format and diagnostics at the end.
 * Appending every yielded event to an `EventStream` gives, in `latest()`, the
 * same events as {@link importAny} of the whole input. The format is detected
 * from the first records unless `options.format` names it.
 *
 * @example
 * const stream = new EventStream();
 * const response = await fetch('/runs/42/session.jsonl');
 * const it = streamImport(response.body!, { filename: 'session.jsonl' });
 * for await (const batch of it) for (const e of batch) stream.append(e);
 */
export async function* streamImport(
  chunks: ChunkSource,
  options: ImportOptions & { format?: FormatId } = {},
): AsyncGenerator<Event[], Omit<ImportResult, 'events'>> {
  const lineCtx = new ImportContext(options);
  // Recorded Server-Sent Events (AG-UI's encoder, the AI SDK's UI message
  // stream response) are read message by message, JSON Lines line by line.
  const { head: first, rest } = await peekText(chunks);
  // A batch of records per chunk: one async step and one drain per chunk,
  // not per line (a drain copies every open item it finds changed).
  const batches = looksLikeSse(first)
    ? readSseBatchesAsync(rest, lineCtx)
    : readJsonLineBatchesAsync(rest, lineCtx);
  const head: JsonLine[] = [];
  let format = options.format ? formats.find((f) => f.id === options.format) : undefined;
  let done = false;
  if (!format) {
    while (head.length < DETECT_RECORDS) {
      const next = await batches.next();
      if (next.done) {
        done = true;
        break;
      }
      head.push(...next.value);
    }
    format = detectProbe(
      new Probe(
        head
          .slice(0, DETECT_RECORDS)
          .map((h) => JSON.stringify(h.value))
          .join('\n'),
        options.filename,
      ),
    );
    if (!format)
      throw new ImportError('unrecognized_format', '$', formats.map((f) => f.id).join(', '));
  }
  if (!format.incremental) {
    throw new ImportError('unsupported_input', '$', format.name, 'a stream of lines');
  }
  const imp: IncrementalImporter = format.incremental(options);
  // An importer whose order depends on its drains (OTLP) is drained after
  // every record, its drains joined into the chunk's batch.
  const eachRecord = imp.drainEachRecord === true;
  const take = (records: readonly JsonLine[]): Event[] => {
    if (!eachRecord) {
      for (const { value, path, text } of records) imp.push(value, path, text);
      return imp.drain();
    }
    const out: Event[] = [];
    for (const { value, path, text } of records) {
      imp.push(value, path, text);
      for (const e of imp.drain()) out.push(e);
    }
    return out;
  };
  // The records detection read past its first few go after their first drain.
  const extra = head.splice(DETECT_RECORDS);
  for (const h of head) imp.push(h.value, h.path, h.text);
  if (!done) {
    let batch = imp.drain();
    if (extra.length) batch = [...batch, ...take(extra)];
    if (batch.length) yield batch;
    for await (const records of batches) {
      batch = take(records);
      if (batch.length) yield batch;
    }
  }
  const last = imp.end();
  if (last.length) yield last;
  return { format: format.id, diagnostics: [...lineCtx.finish(), ...imp.diagnostics()] };
}

export { Probe } from './probe.js';
export type { ImportInput } from './probe.js';
export { ImportContext, isRecord, typeName, own } from './guards.js';
export type { ImportOptions, InventedValue, JsonRecord } from './guards.js';
export { readJsonLines, readJsonLinesAsync } from './lines.js';
export type { JsonLine } from './lines.js';
export { EventSink, SyntheticClock, INVENTED_KEY } from './sink.js';
export { importLines, importRecords, importerParts, sniffer } from './format.js';
export type {
  AnyImportOptions,
  FormatId,
  FormatImporter,
  ImportResult,
  ImportedSample,
  IncrementalImporter,
} from './format.js';
export { inspectFormat } from './inspect/inspect-format.js';
export { jupyterFormat, isJupyter, importJupyter } from './jupyter/jupyter.js';
export { claudeCodeFormat, isClaudeCode, importClaudeCode } from './claude-code/claude-code.js';
export { acpFormat, isAcp, importAcp } from './acp/acp.js';
export { defectFormat, isDefect, importDefect } from './defect/defect.js';
export {
  skeinEventsFormat,
  isSkeinEvents,
  importSkeinEvents,
} from './skein-events/skein-events.js';
export { importInspectLog, isInspectLog } from './inspect/inspect-log.js';
export { agexFormat, isAgex, importAgex } from './agex/agex.js';
export { cantusFormat, isCantus, importCantus } from './cantus/cantus.js';
export type {
  InspectLog,
  InspectLogHeader,
  InspectLogOptions,
  InspectEvalSpec,
  InspectSampleSummary,
  InspectSampleEvents,
} from './inspect/inspect-log.js';
export { otlpFormat, isOtlp, importOtlp } from './otlp/otlp.js';
export {
  compareSamples,
  overallStatus,
  summarizeEvents,
  summarizeInspectSample,
} from './summary.js';
export type { LogSummary, SampleStatus, SampleSummary } from './summary.js';
export { describeInput } from './describe-input.js';
export { openHandsFormat, isOpenHands, importOpenHands } from './openhands/openhands.js';
export {
  openAiAgentsFormat,
  isOpenAiAgentsTrace,
  importOpenAiAgentsTrace,
} from './openai-agents/openai-agents.js';
export { agUiFormat, isAgUi, importAgUi, fromAgUi } from './ag-ui/ag-ui.js';
export type {
  AgUiEvent,
  AgUiEventInput,
  AgUiMessage,
  AgUiContentPart,
  AgUiRunInput,
  AgUiRunOutcome,
  AgUiTokenUsage,
  AgUiMetadata,
  AgUiBase,
  AgUiAttributed,
  AgUiPartSource,
  AgUiToolCall,
  AgUiPatchOperation,
  AgUiInterrupt,
} from './ag-ui/types.js';
export {
  vercelAiFormat,
  isVercelAi,
  importUIMessages,
  fromUIMessageStream,
  fromUIMessages,
} from './vercel-ai/vercel-ai.js';
export type { UIMessagesAdapter } from './vercel-ai/vercel-ai.js';
export type {
  UIMessage,
  UIMessageChunk,
  UIMessageChunkInput,
  UIMessagePart,
  UIToolPart,
  UIToolState,
  VercelProviderMetadata,
} from './vercel-ai/types.js';
export { createLiveAdapter } from './live.js';
export type { LiveAdapter, LiveAdapterOptions } from './live.js';
