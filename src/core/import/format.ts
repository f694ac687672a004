// The contract every format importer implements. One file per
// format (`src/core/import/<format>.ts`) exports an object of this shape plus
// the public `is<Format>(input)` and `import<Format>(input, options)`;
// `src/core/import/index.ts` owns the detection order.
import { jsonPath, type Diagnostic } from '../errors.js';
import type { Event } from '../events/types.js';
import { ImportContext, type ImportOptions } from './guards.js';
import { Probe, type ImportInput } from './probe.js';
import { EventSink } from './sink.js';

/**
 * The formats skein reads. `skein` is skein's own canonical events (a JSON
 * array, `{ "events": [...] }`, or JSON Lines).
 */
export type FormatId =
  | 'inspect'
  | 'skein'
  | 'acp'
  | 'defect'
  | 'agex'
  | 'cantus'
  | 'otlp'
  | 'claude-code'
  | 'openhands'
  | 'jupyter'
  | 'openai-agents'
  | 'ag-ui'
  | 'vercel-ai';

/** One sample of a multi-sample log (inspect), for choosing another with `options.sample`. */
export interface ImportedSample {
  readonly id: string | number;
  readonly epoch: number;
}

/**
 * What an import gives: canonical, deep-frozen events in source order, and the
 * diagnostics of what was repaired or invented.
 *
 * @example
 * declare const bytes: Uint8Array;
 * const { format, events, diagnostics } = await importAny(bytes, { filename: 'run.jsonl' });
 */
export interface ImportResult {
  readonly format: FormatId;
  readonly events: Event[];
  readonly diagnostics: Diagnostic[];
  /** Every sample of a multi-sample log; `events` are those of the chosen one. */
  readonly samples?: readonly ImportedSample[];
}

/**
 * An importer fed one record at a time, for line formats read as they arrive.
 * `drain()` after any batch gives the versions to append to an `EventStream`
 * (open items as `pending` copies); `end()` closes what is still open (with a
 * diagnostic) and gives the last versions. Pushing every record and calling
 * `end()` alone is the whole-file import.
 *
 * @example
 * import { acpFormat } from './acp/acp.js';
 * const body = (await fetch('/session.jsonl')).body!; // a ReadableStream or an async iterable
 * const ctx = new ImportContext({});
 * const imp = acpFormat.incremental({});
 * for await (const { value, path } of readJsonLinesAsync(body, ctx)) {
 *   imp.push(value, path);
 *   for (const e of imp.drain()) stream.append(e);
 * }
 * for (const e of imp.end()) stream.append(e);
 */
export interface IncrementalImporter {
  /** One record; `text` is its line as read, for a format that must parse it itself (OTLP). */
  push(record: unknown, path: string, text?: string): void;
  drain(): Event[];
  end(): Event[];
  diagnostics(): Diagnostic[];
  /**
   * Drain it after every record when streaming (`streamImport` otherwise
   * drains once per chunk of records): for an importer whose order depends
   * on when it is drained (OTLP: a held span end goes out at the first drain
   * after a record outside that span).
   */
  readonly drainEachRecord?: boolean;
}

/** Options of every importer, plus the sample to load from a multi-sample log. */
export interface AnyImportOptions extends ImportOptions {
  /** Sample id of a multi-sample log (inspect); default the first. */
  sample?: string | number;
  /** Epoch of that sample; default the first with that id. */
  epoch?: number;
}

/**
 * A format: its sniff, its whole-input import and, for line formats, its
 * incremental importer.
 *
 * @example
 * import { acpFormat } from './acp/acp.js';
 * import { importLines } from './format.js';
 * const fmt: FormatImporter = {
 *   id: 'acp',
 *   name: 'Agent Client Protocol',
 *   extensions: ['.jsonl'],
 *   detect: (probe) => probe.head().includes('"sessionUpdate"'),
 *   import: (probe, options) => importLines(acpFormat, probe, options),
 * };
 */
export interface FormatImporter {
  readonly id: FormatId;
  /** Human name, for messages and the viewer. */
  readonly name: string;
  /** File name extensions this format is usually saved with (a hint, never required). */
  readonly extensions: readonly string[];
  /** A cheap sniff. Must not throw. */
  detect(probe: Probe): boolean;
  /** Imports the whole input. Throws `ImportError` for input it cannot read at all. */
  import(probe: Probe, options: AnyImportOptions): ImportResult | Promise<ImportResult>;
  /** Line formats: a new incremental importer. */
  incremental?(options: ImportOptions): IncrementalImporter;
}

/**
 * The whole-input import of a line format, through its incremental importer
 * (`imp`: one the format made for this input, by default a new one):
 * every record pushed, then `end()`. So the two ways of reading agree by
 * construction.
 *
 * @example
 * import { acpFormat } from './acp/acp.js';
 * import { importLines } from './format.js';
 * import { Probe } from './probe.js';
 * const result: ImportResult = importLines(acpFormat, new Probe('{"jsonrpc":"2.0"}\n'), {});
 */
export function importLines(
  format: FormatImporter & { incremental(options: ImportOptions): IncrementalImporter },
  probe: Probe,
  options: ImportOptions,
  imp: IncrementalImporter = format.incremental(options),
): ImportResult {
  const lineCtx = new ImportContext(options);
  probe.eachLine(lineCtx, (value, path) => imp.push(value, path));
  const events = imp.end();
  const lineDiagnostics = lineCtx.finish();
  const diagnostics = imp.diagnostics();
  return {
    format: format.id,
    events,
    diagnostics: lineDiagnostics.length ? [...lineDiagnostics, ...diagnostics] : diagnostics,
  };
}

/**
 * The import of a list of records found inside a JSON document (`$.events`,
 * `$.steps`, …), through the format's incremental importer, each record at
 * its path under `base`.
 *
 * @example
 * import { cantusFormat } from './cantus/cantus.js';
 * import { importRecords } from './format.js';
 * importRecords(cantusFormat, [{ FinalAnswerAction: { thought: '', answer: '42' } }], '$.events', {});
 */
export function importRecords(
  format: FormatImporter & { incremental(options: ImportOptions): IncrementalImporter },
  records: readonly unknown[],
  base: string,
  options: ImportOptions,
): ImportResult {
  const imp = format.incremental(options);
  records.forEach((rec, i) => imp.push(rec, jsonPath(base, i)));
  const events = imp.end();
  return { format: format.id, events, diagnostics: imp.diagnostics() };
}

/**
 * The parts an incremental importer usually needs: a context for diagnostics
 * and a sink for events, seeded by the format (or `options.uuidSeed`).
 *
 * @example
 * import { importerParts } from './format.js';
 * const { ctx, sink } = importerParts('acp', { uuidSeed: 'session-7' });
 */
export function importerParts(
  id: FormatId,
  options: ImportOptions,
): { ctx: ImportContext; sink: EventSink } {
  const ctx = new ImportContext(options);
  return { ctx, sink: new EventSink(ctx, { seed: options.uuidSeed ?? id }) };
}

/**
 * `is<Format>(input)` for a format: a sniff of any input (text, bytes, a parsed
 * value). Never throws.
 *
 * @example
 * import { acpFormat } from './acp/acp.js';
 * import { sniffer } from './format.js';
 * const isAcp = sniffer(acpFormat);
 * isAcp('{"jsonrpc":"2.0","method":"session/update"}'); // true
 */
export function sniffer(
  format: FormatImporter,
): (input: ImportInput, filename?: string) => boolean {
  return (input, filename) => {
    try {
      return format.detect(new Probe(input, filename));
    } catch {
      return false;
    }
  };
}
