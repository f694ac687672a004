// Past 600 lines: every subcommand (info, tree, diff, view, export, …) is a short function
// over the same option readers, log reader and error printer, kept beside them.
import {
  buildTimeline,
  compareSamples,
  countDiagnostics,
  describeInput,
  diffRuns,
  eventsToJsonArray,
  eventsToJsonLines,
  EventStream,
  formatBytes,
  formatDuration,
  formats,
  formatScore,
  formatTokens,
  importAny,
  ImportError,
  importInspectLog,
  renderRunDiffText,
  renderSpanTreeText,
  renderTimelineAscii,
  renderTimelineSvg,
  replayStream,
  SkeinError,
  summarizeInspectSample,
  summarizeLog,
  VERSION,
  type Diagnostic,
  type Event,
  type FormatId,
  type LogSummary,
  type SampleSummary,
  type SkeinErrorArgs,
} from '../index.js';
import { readLogFile } from './files.js';
import { listLogs } from './log-list.js';
import { createViewHandler } from './view-server.js';
import { OTLP_HELP, otlpCommand, type OtlpCliTools } from './otlp/cli-otlp.js';
import { EXPORT_MAX_BYTES, exportRunHtml } from './export.js';
import { bundleSite } from './bundle.js';
import { spawn } from 'node:child_process';
import { stat, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, dirname, resolve } from 'node:path';
import { createEventStreamHandler } from './server/sse.js';
import type { AllowedHosts } from './server/host-check.js';

/** Where the CLI writes; injected so tests capture output without a process. */
export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Terminal width, when stdout is a terminal (the default for `ascii --width`). */
  columns?: number;
  /** Stops long-running commands (`serve`, `view`); they then resolve with exit code 0. */
  signal?: AbortSignal;
  /** What `-` reads (standard input). Without it, `-` is a usage error. */
  stdin?: AsyncIterable<string | Uint8Array>;
  /** The built viewer page's folder for `view` (`null`: not built); default: found next to the CLI. */
  viewerDir?: string | null;
  /** Opens a URL in the system browser (`view --open`); default: `xdg-open`, `open` or `start`. */
  openUrl?: (url: string) => void;
  /** The built single-file viewer's folder for `export`; default: found next to the CLI. */
  exportViewerDir?: string;
}

/** Exit codes, as `--help` and the README state them. */
const EXIT = { ok: 0, usage: 1, input: 2, notFound: 3, differ: 1 } as const;

const SUPPORTED = formats.map((f) => f.name).join(', ');

const HELP = `skein ${VERSION} — shows what an AI agent did

Usage:
  skein <command> [options]
  skein <command> --help          Help for one command

Commands:
  info <log|dir>     Summarize a log: format, task, model, status, and per sample
                     id, epoch, scores, tokens, duration, status, error; or one
                     line per log of a folder
  replay <log>       Print a sample's events as a plain-text transcript
  tree <log>         Print a sample's span tree as text
  ascii <log>        Print a sample's swimlane timeline as text
  svg <log>          Print a sample's swimlane as a standalone SVG
  convert <log>      Print a sample's canonical events (--to jsonl|json)
  diff <a> <b>       Compare two runs step by step: where they diverge, and by
                     how much (tokens, time, cost, failures, scores)
  view [log|dir|url] Open the viewer in a browser: a local server on 127.0.0.1
  export <log>       Write one self-contained HTML page of a log (-o run.html)
  bundle <dir>       Write a folder of logs as a static site (-o site/)
  serve <log>        Serve a sample's events as Server-Sent Events (skein/server)
  help [command]     Show this help, or a command's
  version            Print the version

Logs: any format skein reads, detected from the content (${SUPPORTED}).
A log of - is read from standard input. Repairs made while reading are
counted by kind on stderr; --verbose lists each.

Exit codes:
  0  ok
  1  usage: an unknown command or option, a missing or bad argument
  2  unreadable or invalid input: not a log, a truncated archive, a directory
     where a file was expected, a file that cannot be read
  3  not found: no such file, sample or epoch
  (skein diff --exit-code also exits 1 when the two runs differ)

Options:
  -h, --help         Show help
  -v, --version      Print the version
`;

const SAMPLE_OPTIONS = `  --sample ID        The sample of a multi-sample log (inspect_ai); default the first
  --epoch N          Its epoch; default 1 (the first sample's epoch without --sample)
  --verbose          List every repair made while reading (default: counted by kind)`;

const HOST_OPTIONS = `  --host H           Address to bind (default 127.0.0.1; 0.0.0.0: every interface).
                     Only use another on a network you trust: there is no auth
  --allowed-host NAMES
                     Host names to answer to besides loopback names and IP
                     addresses, comma-separated (.example.com: it and every
                     name under it; *: any); --host's name is added. Others
                     get 421, so a DNS-rebinding page cannot read the server
`;

const COMMAND_HELP: Record<string, string> = {
  info: `Usage: skein info <log|dir|-> [--json] [--verbose]

A log: its format, task, model and status, then one row per sample (sorted by
id, then epoch): id, epoch, scores, tokens, duration, status, error. Logs of
one run (every format but inspect_ai) have one row, id "-".
A folder: one line per log in it and its direct subfolders (name, format,
samples, status); a file that cannot be read says what it is instead.

  --json             Print JSON instead (the same facts; for scripts)
  --verbose          List every repair made while reading
`,
  replay: `Usage: skein replay <log|-> [--sample ID] [--epoch N] [--verbose]

Prints the events as a plain-text transcript: one line per event, indented by
span, with the time since the first event.

${SAMPLE_OPTIONS}
`,
  tree: `Usage: skein tree <log|-> [--mode spans|events|outline] [--width N]
                  [--sample ID] [--epoch N] [--verbose]

Prints the span tree, fully expanded, with status, duration and tokens.

  --mode M           spans (default): spans only; events: every event;
                     outline: inspect's outline (turns folded together)
  --width N          Longest line (default: the terminal's, else 120)
${SAMPLE_OPTIONS}
`,
  ascii: `Usage: skein ascii <log|-> [--width N] [--sample ID] [--epoch N] [--verbose]

Prints the swimlane timeline as text (inspect_ai's layout).

  --width N          Line width (default: the terminal's, else 120)
${SAMPLE_OPTIONS}
`,
  svg: `Usage: skein svg <log|-> [--width N] [--theme light|dark] [--sample ID] [--epoch N]

Prints the swimlane timeline as a standalone SVG document.

  --width N          Width in pixels (default 1000)
  --theme T          light (default) or dark
${SAMPLE_OPTIONS}
`,
  convert: `Usage: skein convert <log|-> --to jsonl|json [--sample ID] [--epoch N] [--verbose]

Prints the canonical events (skein's own format, which every skein reader
opens): jsonl — one event per line; json — a JSON array.

  --to F             jsonl (default) or json
${SAMPLE_OPTIONS}
`,
  diff: `Usage: skein diff <a|-> <b> [--sample ID] [--epoch N] [--sample-b ID] [--epoch-b N]
                  [--json] [--exit-code] [--context N] [--width N] [--color] [--verbose]

Aligns the two runs step by step (spans, turns, model and tool calls,
messages, errors) and prints a unified-diff-like report: ' ' same, '~'
changed, '-' only in a, '+' only in b, runs of identical steps folded, the
first divergence marked '>>>', and the deltas in tokens, time, cost, failed
steps and scores. Any two formats can be compared; ids and times are ignored.

  --sample ID        The sample of a multi-sample log (inspect_ai), for both
  --epoch N          Its epoch, for both; default 1
  --sample-b ID      b's sample, when it differs (two samples of one log)
  --epoch-b N        b's epoch, when it differs (two epochs of one sample)
  --json             Print the diff as JSON (rows, steps, totals) instead
  --exit-code        Exit 1 when the runs differ, 0 when they are the same
                     (as git diff --exit-code)
  --context N        Identical steps shown around each difference (default 2)
  --width N          Longest line (default: the terminal's, else 120)
  --color            Colour the lines (red: only in a, green: only in b)
  --verbose          List every repair made while reading
`,
  view: `Usage: skein view [log|dir|url] [--port N] [--host H] [--allowed-host NAMES]
                  [--open] [--live]

Serves the viewer page and prints its URL. A log opens straight in it; a
folder (default: the current one) lists its logs, newest first, and watches
for new ones; a URL is opened by the page itself (--live: as a live stream),
and the server then serves no file at all. The server answers on 127.0.0.1
only, to loopback names and IP addresses only, and reads nothing but the
given log or folder. Stop it with Ctrl-C.

  --port N           Port (default 8790; 0 picks a free one)
${HOST_OPTIONS}  --open             Open the URL in the system browser
  --live             The URL is a live event stream (skein/server), not a file
`,
  export: `Usage: skein export <log|-> -o FILE [--title T] [--redact REGEX]...
                    [--sample ID] [--epoch N] [--max-size MB]

Writes one HTML file that shows the log in the viewer anywhere: opened from
disk, an email attachment or a chat upload, with no server and no network
(its Content-Security-Policy allows no connection, so nothing in the log can
reach one). Deep links work: run.html#event=<uuid>. Every sample of the log
is in it, unless --sample picks one.

  -o, --output FILE  Where to write the page (- : standard output)
  --title T          The page's title and the run's name (default: the file name)
  --redact REGEX     Replace what matches with [redacted] in every string of the
                     log before it is embedded (repeatable; JavaScript syntax,
                     e.g. 'sk-[A-Za-z0-9]{20,}'; /…/flags for flags)
  --sample ID        Only this sample of a multi-sample log (inspect_ai)
  --epoch N          Its epoch (default 1)
  --max-size MB      Refuse a page larger than this (default 50)
`,
  bundle: `Usage: skein bundle <dir> -o DIR

Writes the logs in a folder (and its direct subfolders, as 'skein view' lists
them) as a static site: the viewer page, the logs and their listing. Any static
host serves it (object storage, GitHub Pages, a plain web server), and its
index.html opens like 'skein view <dir>', with no skein process running.
Files no format reads are left out (and named on stderr).

  -o, --output DIR   Where to write the site (created; files in it are replaced)
`,
  serve: `Usage: skein serve <log|-> [--live] [--speed N] [--max-gap MS] [--port N] [--host H]
                   [--allowed-host NAMES] [--sample ID] [--epoch N]

Serves a sample's events as Server-Sent Events (skein/server). --live plays
them at recorded speed (scaled by --speed, idle gaps capped at --max-gap ms,
default 5000). Listens on 127.0.0.1:8787 unless told otherwise, and answers
to loopback names and IP addresses only.

${HOST_OPTIONS}${SAMPLE_OPTIONS}
`,
};

COMMAND_HELP['view'] += OTLP_HELP.view;
COMMAND_HELP['serve'] += OTLP_HELP.serve;

/** A user error (a `cli_*` code of the catalogue): printed without a stack, exit with `exitCode`. */
class CliError extends SkeinError {
  readonly exitCode: number;
  constructor(exitCode: number, ...args: SkeinErrorArgs) {
    super(...args);
    this.exitCode = exitCode;
  }
}

/** A usage problem: printed with a pointer to --help, exit code 1. */
class UsageError extends CliError {
  constructor(...args: SkeinErrorArgs) {
    super(EXIT.usage, ...args);
  }
}

function takeOption(args: string[], name: string): string | undefined {
  const at = args.indexOf(name);
  if (at < 0) return undefined;
  const value = args[at + 1];
  if (value === undefined || (value.startsWith('--') && value.length > 2))
    throw new UsageError('cli_option_needs_value', name);
  args.splice(at, 2);
  return value;
}

function takeFlag(args: string[], name: string): boolean {
  const at = args.indexOf(name);
  if (at < 0) return false;
  args.splice(at, 1);
  return true;
}

/** The one positional argument; anything else left over is a usage error. */
function takeSource(args: string[], what = 'the log file'): string {
  const unknown = args.find((a) => a.startsWith('-') && a !== '-');
  if (unknown !== undefined) throw new UsageError('cli_unknown_option', unknown);
  const source = args.shift();
  if (source === undefined) throw new UsageError('cli_missing_argument', what);
  if (args.length) throw new UsageError('cli_unexpected_argument', args[0]!);
  return source;
}

/**
 * Repairs go to stderr so what goes to stdout stays clean for pipes: counted
 * by code, or (`--verbose`) one line each.
 */
function reportDiagnostics(diagnostics: readonly Diagnostic[], verbose: boolean, io: CliIO): void {
  if (verbose) {
    for (const d of diagnostics) io.stderr(`${d.severity}: ${d.path}: ${d.message} [${d.code}]\n`);
    return;
  }
  const counts = countDiagnostics(diagnostics);
  const warnings = diagnostics.some((d) => d.severity === 'warning');
  if (counts.length > 0) {
    const list = counts.map(([code, n]) => `${n} ${code}`).join(', ');
    const label = warnings ? 'warning' : 'info';
    io.stderr(`${label}: repaired while reading: ${list} (--verbose lists each)\n`);
  }
}

interface Input {
  /** What messages call it: the path as given, or `<stdin>`. */
  readonly name: string;
  readonly bytes: Uint8Array;
}

async function readStdin(io: CliIO): Promise<Uint8Array> {
  if (!io.stdin) throw new UsageError('cli_no_stdin');
  const parts: Uint8Array[] = [];
  let size = 0;
  const encoder = new TextEncoder();
  for await (const chunk of io.stdin) {
    const bytes = typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
    parts.push(bytes);
    size += bytes.length;
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** `stat` errors as user errors: no stack, the right exit code. */
function fileError(path: string, error: unknown): CliError {
  const code = (error as { code?: unknown }).code;
  if (code === 'ENOENT' || code === 'ENOTDIR')
    return new CliError(EXIT.notFound, 'cli_no_such_file', path);
  if (code === 'EACCES' || code === 'EPERM')
    return new CliError(EXIT.input, 'cli_permission_denied', path);
  return new CliError(EXIT.input, 'cli_unreadable', path, (error as Error).message);
}

async function readInput(source: string, io: CliIO): Promise<Input> {
  if (source === '-') return { name: '<stdin>', bytes: await readStdin(io) };
  let info;
  try {
    info = await stat(source);
  } catch (e) {
    throw fileError(source, e);
  }
  if (info.isDirectory()) {
    throw new CliError(EXIT.input, 'cli_is_directory', source, SUPPORTED);
  }
  if (!info.isFile()) throw new CliError(EXIT.input, 'cli_not_a_file', source);
  try {
    return { name: source, bytes: await readLogFile(source) };
  } catch (e) {
    throw fileError(source, e);
  }
}

/** Most sample ids an error lists; `skein info` lists them all. */
const MAX_LISTED_SAMPLES = 20;

/**
 * The samples a log holds, as an error names them: each id with its epochs,
 * the first {@link MAX_LISTED_SAMPLES} ids and a count of the rest.
 */
async function sampleListing(input: Input): Promise<string> {
  let samples: SampleSummary[];
  try {
    const log = await importInspectLog(input.bytes);
    samples = log.samples.map(summarizeInspectSample).sort(compareSamples);
  } catch {
    return '';
  }
  if (samples.length === 0) return 'The log has no samples.';
  const epochs = new Map<string, number[]>();
  for (const s of samples) {
    const id = typeof s.id === 'string' ? JSON.stringify(s.id) : String(s.id);
    const list = epochs.get(id);
    if (list) list.push(s.epoch);
    else epochs.set(id, [s.epoch]);
  }
  const oneEpoch = [...epochs.values()].every((e) => e.length === 1 && e[0] === 1);
  const ids = [...epochs]
    .slice(0, MAX_LISTED_SAMPLES)
    .map(([id, e]) => (oneEpoch ? id : `${id} (epoch${e.length > 1 ? 's' : ''} ${e.join(', ')})`));
  const rest = epochs.size - ids.length;
  const more = rest > 0 ? `, … and ${rest} more ('skein info ${input.name}' lists every one)` : '';
  const count = `${epochs.size} sample${epochs.size === 1 ? '' : 's'}`;
  return `The log has ${count}: ${ids.join(', ')}${more}.`;
}

/** An importer's error as a user error that says what the input is and what was expected. */
async function importFailure(input: Input, error: ImportError): Promise<CliError> {
  const failure = (exit: number, ...args: SkeinErrorArgs) =>
    new CliError(exit, ...args).causedBy(error);
  if (error.code === 'sample_not_found') {
    const listing = await sampleListing(input);
    return listing === ''
      ? failure(EXIT.notFound, 'cli_input_error', input.name, error.message, error.code)
      : failure(
          EXIT.notFound,
          'cli_sample_not_found',
          input.name,
          error.message,
          error.code,
          listing,
        );
  }
  if (error.code === 'unrecognized_format')
    return failure(EXIT.input, 'cli_not_a_log', input.name, describeInput(input.bytes), SUPPORTED);
  if (error.code === 'zip_truncated' || error.code === 'zip_corrupt')
    return failure(EXIT.input, 'cli_zip_unreadable', input.name, error.message, error.code);
  return failure(EXIT.input, 'cli_input_error', input.name, error.message, error.code);
}

async function guarded<T>(input: Input, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof ImportError) throw await importFailure(input, e);
    throw e;
  }
}

function formatName(id: FormatId): string {
  return formats.find((f) => f.id === id)?.name ?? id;
}

interface Loaded {
  readonly name: string;
  readonly format: FormatId;
  readonly events: readonly Event[];
}

/** Reads a log and one sample's events (`--sample`, `--epoch`; default: the first). */
async function loadSample(args: string[], io: CliIO): Promise<Loaded> {
  const sample = takeOption(args, '--sample');
  const epochArg = takeOption(args, '--epoch');
  const verbose = takeFlag(args, '--verbose');
  const epoch = epochArg === undefined ? undefined : Number(epochArg);
  if (epoch !== undefined && (!Number.isInteger(epoch) || epoch < 0))
    throw new UsageError('cli_bad_option', '--epoch', 'takes a whole number');
  const input = await readInput(takeSource(args), io);
  const result = await guarded(input, () =>
    importAny(input.bytes, {
      filename: input.name,
      ...(sample !== undefined ? { sample } : {}),
      ...(epoch !== undefined ? { epoch } : {}),
    }),
  );
  if (result.samples === undefined && (sample !== undefined || epoch !== undefined)) {
    throw new UsageError('cli_one_run', input.name, formatName(result.format));
  }
  if (result.samples !== undefined && result.samples.length === 0)
    throw new CliError(EXIT.notFound, 'cli_no_samples', input.name);
  reportDiagnostics(result.diagnostics, verbose, io);
  return { name: input.name, format: result.format, events: result.events };
}

function takeWidth(args: string[], fallback: number): number {
  const arg = takeOption(args, '--width');
  if (arg === undefined) return fallback;
  const width = Number(arg);
  if (!Number.isInteger(width) || width < 20)
    throw new UsageError('cli_bad_option', '--width', 'takes a whole number of at least 20');
  return width;
}

function terminalWidth(io: CliIO): number {
  return io.columns && io.columns >= 20 ? io.columns : 120;
}

function line(text: string): string {
  return text === '' || text.endsWith('\n') ? text : `${text}\n`;
}

// --- info --------------------------------------------------------------------

function scoreText(scores: Readonly<Record<string, unknown>>): string {
  const entries = Object.entries(scores);
  if (entries.length === 0) return '';
  const value = (v: unknown) =>
    typeof v === 'number' ? formatScore(v) : typeof v === 'string' ? v : JSON.stringify(v);
  if (entries.length === 1) return value(entries[0]![1]);
  return entries.map(([k, v]) => `${k}=${value(v)}`).join(' ');
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) =>
    rows.reduce((w, r) => Math.max(w, [...(r[i] ?? '')].length), [...h].length),
  );
  const fmt = (r: string[]) =>
    r
      .map((cell, i) =>
        i === r.length - 1 ? cell : cell + ' '.repeat(widths[i]! - [...cell].length),
      )
      .join('  ')
      .trimEnd();
  return [fmt(header), ...rows.map(fmt)].join('\n');
}

function sampleRow(s: SampleSummary): string[] {
  return [
    s.id === null ? '-' : typeof s.id === 'string' ? JSON.stringify(s.id) : String(s.id),
    String(s.epoch),
    scoreText(s.scores),
    s.tokens === null ? '' : formatTokens(s.tokens),
    s.durationMs === null ? '' : formatDuration(s.durationMs),
    s.status,
    s.error ?? '',
  ];
}

function diagnosticCounts(diagnostics: readonly Diagnostic[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const d of diagnostics) out[d.code] = (out[d.code] ?? 0) + 1;
  return out;
}

async function infoFile(input: Input, json: boolean, verbose: boolean, io: CliIO): Promise<number> {
  const log: LogSummary = await guarded(input, () =>
    summarizeLog(input.bytes, { filename: input.name, readSamples: true }),
  );
  if (json) {
    io.stdout(
      `${JSON.stringify(
        {
          file: input.name,
          format: log.format,
          formatName: log.formatName,
          task: log.task,
          model: log.model,
          status: log.status,
          samples: log.samples,
          diagnostics: diagnosticCounts(log.diagnostics),
        },
        null,
        2,
      )}\n`,
    );
  } else {
    const head = [
      `file:    ${input.name}`,
      `format:  ${log.formatName} (${log.format})`,
      ...(log.task !== null ? [`task:    ${log.task}`] : []),
      ...(log.model !== null ? [`model:   ${log.model}`] : []),
      `status:  ${log.status}`,
      `samples: ${log.samples.length}`,
    ];
    const rows = table(
      ['id', 'epoch', 'scores', 'tokens', 'duration', 'status', 'error'],
      log.samples.map(sampleRow),
    );
    io.stdout(`${head.join('\n')}\n\n${rows}\n`);
  }
  reportDiagnostics(log.diagnostics, verbose, io);
  return EXIT.ok;
}

interface DirRow {
  name: string;
  format: FormatId | null;
  samples: number | null;
  status: string | null;
  error?: string;
}

async function infoDir(dir: string, json: boolean, io: CliIO): Promise<number> {
  let entries;
  try {
    entries = await listLogs(dir);
  } catch (e) {
    throw fileError(dir, e);
  }
  const rows: DirRow[] = [];
  for (const entry of entries) {
    if (entry.format === null) {
      rows.push({
        name: entry.name,
        format: null,
        samples: null,
        status: null,
        error: entry.error ?? 'unreadable',
      });
      continue;
    }
    try {
      const bytes = await readLogFile(resolve(dir, entry.name));
      const log = await summarizeLog(bytes, { filename: entry.name });
      rows.push({
        name: entry.name,
        format: log.format,
        samples: log.samples.length,
        status: log.status,
      });
    } catch (e) {
      const message = e instanceof SkeinError ? `${e.message} [${e.code}]` : (e as Error).message;
      rows.push({
        name: entry.name,
        format: entry.format,
        samples: null,
        status: null,
        error: message,
      });
    }
  }
  if (json) {
    io.stdout(`${JSON.stringify({ dir, logs: rows }, null, 2)}\n`);
    return EXIT.ok;
  }
  if (rows.length === 0) {
    io.stdout(
      `${dir}: no logs (looked for ${formats.length} formats in files ending ${[...new Set(formats.flatMap((f) => f.extensions))].join(', ')})\n`,
    );
    return EXIT.ok;
  }
  io.stdout(
    `${table(
      ['name', 'format', 'samples', 'status'],
      rows.map((r) => [
        r.name,
        r.format ?? '-',
        r.samples === null ? '-' : String(r.samples),
        r.error !== undefined ? `error: ${r.error}` : (r.status ?? ''),
      ]),
    )}\n`,
  );
  return EXIT.ok;
}

async function info(args: string[], io: CliIO): Promise<number> {
  const json = takeFlag(args, '--json');
  const verbose = takeFlag(args, '--verbose');
  const source = takeSource(args, 'the log file or folder');
  if (source !== '-') {
    let isDir = false;
    try {
      isDir = (await stat(source)).isDirectory();
    } catch (e) {
      throw fileError(source, e);
    }
    if (isDir) return infoDir(source, json, io);
  }
  return infoFile(await readInput(source, io), json, verbose, io);
}

// --- replay, tree, ascii, svg, convert -----------------------------------------

async function replay(args: string[], io: CliIO): Promise<number> {
  const loaded = await loadSample(args, io);
  io.stdout(line(EventStream.from(loaded.events).replay()));
  return EXIT.ok;
}

async function tree(args: string[], io: CliIO): Promise<number> {
  const mode = takeOption(args, '--mode') ?? 'spans';
  if (mode !== 'spans' && mode !== 'events' && mode !== 'outline')
    throw new UsageError('cli_bad_option', '--mode', 'is spans, events or outline');
  const width = takeWidth(args, terminalWidth(io));
  const loaded = await loadSample(args, io);
  const text = renderSpanTreeText(loaded.events, { mode, width });
  io.stdout(
    text === ''
      ? `(no ${mode === 'spans' ? 'spans' : 'events'} in ${loaded.name}; try --mode events)\n`
      : text,
  );
  return EXIT.ok;
}

async function ascii(args: string[], io: CliIO): Promise<number> {
  const width = takeWidth(args, terminalWidth(io));
  const loaded = await loadSample(args, io);
  io.stdout(`${renderTimelineAscii(buildTimeline(loaded.events), { width })}\n`);
  return EXIT.ok;
}

async function svg(args: string[], io: CliIO): Promise<number> {
  const width = takeWidth(args, 1000);
  const theme = takeOption(args, '--theme') ?? 'light';
  if (theme !== 'light' && theme !== 'dark')
    throw new UsageError('cli_bad_option', '--theme', 'is light or dark');
  const loaded = await loadSample(args, io);
  io.stdout(`${renderTimelineSvg(buildTimeline(loaded.events), { width, theme })}\n`);
  return EXIT.ok;
}

async function convert(args: string[], io: CliIO): Promise<number> {
  const to = takeOption(args, '--to') ?? 'jsonl';
  if (to !== 'jsonl' && to !== 'json')
    throw new UsageError('cli_bad_option', '--to', 'is jsonl or json');
  const loaded = await loadSample(args, io);
  io.stdout(to === 'jsonl' ? eventsToJsonLines(loaded.events) : eventsToJsonArray(loaded.events));
  return EXIT.ok;
}

// --- diff --------------------------------------------------------------------

/**
 * `skein diff`: two runs (any formats; two samples or two epochs of one log)
 * as `renderRunDiffText` prints them, or the `diffRuns` JSON. Exit code 1
 * with `--exit-code` when they differ.
 */
async function diff(args: string[], io: CliIO): Promise<number> {
  const json = takeFlag(args, '--json');
  const exitCode = takeFlag(args, '--exit-code');
  const color = takeFlag(args, '--color');
  const verbose = takeFlag(args, '--verbose');
  const contextArg = takeOption(args, '--context');
  const context = contextArg === undefined ? 2 : Number(contextArg);
  if (!Number.isInteger(context) || context < 0)
    throw new UsageError('cli_bad_option', '--context', 'takes a whole number');
  const width = takeWidth(args, terminalWidth(io));
  const sample = takeOption(args, '--sample');
  const epoch = takeOption(args, '--epoch');
  const sampleB = takeOption(args, '--sample-b') ?? sample;
  const epochB = takeOption(args, '--epoch-b') ?? epoch;
  const unknown = args.find((a) => a.startsWith('-') && a !== '-');
  if (unknown !== undefined) throw new UsageError('cli_unknown_option', unknown);
  if (args.length < 2)
    throw new UsageError(
      'cli_missing_argument',
      args.length === 0 ? 'the two logs' : 'the second log',
    );
  if (args.length > 2) throw new UsageError('cli_unexpected_argument', args[2]!);
  const [sourceA, sourceB] = args as [string, string];
  if (sourceA === '-' && sourceB === '-')
    throw new UsageError('cli_bad_option', '-', 'can stand for one of the two logs only');
  const side = (source: string, s: string | undefined, e: string | undefined) => [
    source,
    ...(s !== undefined ? ['--sample', s] : []),
    ...(e !== undefined ? ['--epoch', e] : []),
    ...(verbose ? ['--verbose'] : []),
  ];
  const a = await loadSample(side(sourceA, sample, epoch), io);
  const b = await loadSample(side(sourceB, sampleB, epochB), io);
  const result = diffRuns(a.events, b.events);
  if (json) io.stdout(`${JSON.stringify(result)}\n`);
  else {
    const name = (loaded: Loaded, s: string | undefined, e: string | undefined) =>
      `${loaded.name}${s !== undefined ? ` sample ${s}` : ''}${e !== undefined ? ` epoch ${e}` : ''}`;
    const names: [string, string] = [name(a, sample, epoch), name(b, sampleB, epochB)];
    io.stdout(renderRunDiffText(result, { names, context, width, color }));
  }
  return exitCode && !result.identical ? EXIT.differ : EXIT.ok;
}

// --- serve, view -------------------------------------------------------------

function takeNumber(args: string[], name: string, fallback: number, min: number): number {
  const arg = takeOption(args, name);
  if (arg === undefined) return fallback;
  const value = Number(arg);
  if (!Number.isFinite(value) || value < min)
    throw new UsageError('cli_bad_option', name, `takes a number of at least ${min}`);
  return value;
}

function takePort(args: string[], fallback: number): number {
  const port = takeNumber(args, '--port', fallback, 0);
  if (!Number.isInteger(port) || port > 65535)
    throw new UsageError('cli_bad_option', '--port', 'takes 0..65535');
  return port;
}

async function listen(server: Server, port: number, host: string): Promise<string> {
  await new Promise<void>((ok, fail) => {
    server.once('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EADDRINUSE') fail(new UsageError('cli_port_in_use', port, host));
      else if (e.code === 'EADDRNOTAVAIL' || e.code === 'ENOTFOUND')
        fail(new UsageError('cli_no_address', host));
      else fail(e);
    });
    server.listen(port, host, () => ok());
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${shown}:${address.port}`;
}

/**
 * `--host` and `--allowed-host`: the address to bind and the Host names to
 * answer to (`createHostCheck`). A name given to `--host` is allowed too:
 * whoever binds a name means to be reached by it.
 */
function takeHost(args: string[]): { host: string; allowedHosts: AllowedHosts } {
  const host = takeOption(args, '--host') ?? '127.0.0.1';
  const names = (takeOption(args, '--allowed-host') ?? '')
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '');
  if (names.includes('*')) return { host, allowedHosts: true };
  return { host, allowedHosts: [...names, host] };
}

function stopped(io: CliIO): Promise<void> {
  return new Promise<void>((done) => {
    if (io.signal?.aborted) done();
    io.signal?.addEventListener('abort', () => done(), { once: true });
  });
}

/**
 * `skein serve`: the sample's events over SSE, all at once or (`--live`) at
 * recorded speed through `replayStream`. Loopback only unless `--host` says
 * otherwise: the log may hold secrets, and the handler has no auth here.
 */
async function serveCommand(args: string[], io: CliIO): Promise<number> {
  if (takeFlag(args, '--otlp')) return otlpCommand('serve', args, otlpTools(io));
  const live = takeFlag(args, '--live');
  const speed = takeNumber(args, '--speed', 1, 0);
  if (speed === 0) throw new UsageError('cli_bad_option', '--speed', 'must be more than 0');
  const maxGap = takeNumber(args, '--max-gap', 5000, 0);
  const port = takePort(args, 8787);
  const { host, allowedHosts } = takeHost(args);
  const loaded = await loadSample(args, io);
  const stream = live ? new EventStream() : EventStream.from(loaded.events);
  const handler = createEventStreamHandler(stream, { allowedHosts });
  const server = createServer(handler);
  const url = await listen(server, port, host);
  io.stdout(
    `skein: serving ${loaded.events.length} events of ${loaded.name} at ${url}/` +
      `${live ? ` (live, ${speed}× recorded speed)` : ''}\n`,
  );
  const stop = stopped(io);
  if (live) {
    const play = (async () => {
      for await (const event of replayStream(loaded.events, { speed, maxGap })) {
        if (io.signal?.aborted) break;
        stream.append(event);
      }
      io.stdout(`skein: replay finished (${stream.length} events); still serving\n`);
    })();
    await Promise.race([play, stop]);
  }
  await stop;
  await handler.close();
  await new Promise<void>((done) => server.close(() => done()));
  return EXIT.ok;
}

/**
 * A query parameter's value, encoded so that `URLSearchParams.get` gives it
 * back exactly (a `%` in it stays a `%`), with `/` and `:` left readable.
 */
function queryValue(value: string): string {
  return encodeURIComponent(value).replace(/%2F/gi, '/').replace(/%3A/gi, ':');
}

function openInBrowser(url: string): void {
  // Best effort: a missing opener must never fail the command.
  const [cmd, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url]]
        : ['xdg-open', [url]];
  try {
    const child = spawn(cmd, args as string[], { stdio: 'ignore', detached: true });
    child.on('error', () => {});
    child.unref();
  } catch {
    // ignore
  }
}

/**
 * `skein view`: the viewer page and its API (docs/viewer-api.md) on a local
 * server. A file is served alone; a folder is listed and watched; a URL is
 * handed to the page, which fetches it itself.
 */
async function view(args: string[], io: CliIO): Promise<number> {
  if (takeFlag(args, '--otlp')) return otlpCommand('view', args, otlpTools(io));
  const port = takePort(args, 8790);
  const { host, allowedHosts } = takeHost(args);
  const open = takeFlag(args, '--open');
  const live = takeFlag(args, '--live');
  const unknown = args.find((a) => a.startsWith('-') && a !== '-');
  if (unknown !== undefined) throw new UsageError('cli_unknown_option', unknown);
  if (args.length > 1) throw new UsageError('cli_unexpected_argument', args[1]!);
  const source = args[0] ?? '.';
  if (source === '-') throw new UsageError('cli_view_stdin');
  // A URL is fetched by the page itself: the server then serves no folder.
  let root: string | undefined;
  let file: string | undefined;
  let query: string;
  let what: string;
  if (/^https?:\/\//i.test(source)) {
    query = `?${live ? 'live' : 'src'}=${queryValue(source)}`;
    what = source;
  } else {
    if (live) throw new UsageError('cli_live_needs_url');
    let info;
    try {
      info = await stat(source);
    } catch (e) {
      throw fileError(source, e);
    }
    if (info.isDirectory()) {
      root = resolve(source);
      query = '?list=/api/list';
      what = `the logs in ${source}`;
    } else if (info.isFile()) {
      root = dirname(resolve(source));
      file = basename(source);
      query = `?src=${queryValue(`/api/file/${encodeURIComponent(file)}`)}`;
      what = source;
    } else throw new CliError(EXIT.input, 'cli_not_file_or_folder', source);
  }
  const handler = createViewHandler({
    ...(root !== undefined ? { root } : {}),
    ...(file !== undefined ? { file } : {}),
    ...(io.viewerDir !== undefined ? { viewerDir: io.viewerDir } : {}),
    allowedHosts,
  });
  const server = createServer(handler);
  let base: string;
  try {
    base = await listen(server, port, host);
  } catch (e) {
    handler.close();
    throw e;
  }
  const url = `${base}/${query}`;
  io.stdout(`skein: viewer at ${url} (showing ${what}; Ctrl-C stops)\n`);
  if (open) (io.openUrl ?? openInBrowser)(url);
  await stopped(io);
  handler.close();
  server.closeAllConnections();
  await new Promise<void>((done) => server.close(() => done()));
  return EXIT.ok;
}

/** What `--otlp` (otlp/cli-otlp.ts) borrows from this command line. */
function otlpTools(io: CliIO): OtlpCliTools {
  return {
    takeOption,
    takeFlag,
    takeNumber,
    takePort,
    takeHost,
    listen,
    stopped: () => stopped(io),
    usage: (...args) => new UsageError(...args),
    stdout: io.stdout,
    stderr: io.stderr,
    ...(io.viewerDir !== undefined ? { viewerDir: io.viewerDir } : {}),
    openUrl: io.openUrl ?? openInBrowser,
  };
}

// --- export -----------------------------------------------------------------

/** `--redact` values: `/source/flags`, or a source alone. */
function redactPattern(text: string): RegExp {
  const literal = /^\/(.*)\/([a-z]*)$/s.exec(text);
  try {
    return literal ? new RegExp(literal[1]!, literal[2]) : new RegExp(text);
  } catch (e) {
    throw new UsageError(
      'cli_bad_option',
      '--redact',
      `takes a regular expression: ${(e as Error).message}`,
    );
  }
}

async function exportCommand(args: string[], io: CliIO): Promise<number> {
  const output = takeOption(args, '-o') ?? takeOption(args, '--output');
  if (output === undefined)
    throw new UsageError('cli_missing_argument', 'the output file (-o run.html)');
  const title = takeOption(args, '--title');
  const redact: RegExp[] = [];
  for (let r = takeOption(args, '--redact'); r !== undefined; r = takeOption(args, '--redact'))
    redact.push(redactPattern(r));
  const sample = takeOption(args, '--sample');
  const epochArg = takeOption(args, '--epoch');
  const epoch = epochArg === undefined ? undefined : Number(epochArg);
  if (epoch !== undefined && (!Number.isInteger(epoch) || epoch < 1))
    throw new UsageError('cli_bad_option', '--epoch', 'takes a whole number of at least 1');
  const maxMb = takeNumber(args, '--max-size', EXPORT_MAX_BYTES / 2 ** 20, 1);
  const input = await readInput(takeSource(args), io);
  const result = await guarded(input, async () => {
    try {
      return await exportRunHtml(input.bytes, {
        filename: input.name,
        redact,
        maxBytes: Math.round(maxMb * 2 ** 20),
        ...(title !== undefined ? { title } : {}),
        ...(sample !== undefined
          ? { sample, epoch: epoch ?? 1 }
          : epoch !== undefined
            ? { epoch }
            : {}),
        ...(io.exportViewerDir !== undefined ? { viewerDir: io.exportViewerDir } : {}),
      });
    } catch (e) {
      if (e instanceof SkeinError && e.code === 'cli_one_run')
        throw new UsageError(e.code, ...(e.details as [string, string]));
      throw e;
    }
  });
  if (output === '-') {
    io.stdout(result.html);
    return EXIT.ok;
  }
  try {
    await writeFile(output, result.html);
  } catch (e) {
    throw new CliError(EXIT.input, 'cli_unreadable', output, (e as Error).message);
  }
  const samples = result.samples > 1 ? `${result.samples} samples, ` : '';
  const redactions = redact.length ? `, ${result.redactions} redactions` : '';
  io.stderr(
    `skein: wrote ${output} (${formatBytes(Buffer.byteLength(result.html))}; ${samples}${result.events} events${redactions})\n`,
  );
  return EXIT.ok;
}

async function bundleCommand(args: string[], io: CliIO): Promise<number> {
  const output = takeOption(args, '-o') ?? takeOption(args, '--output');
  if (output === undefined)
    throw new UsageError('cli_missing_argument', 'the output folder (-o site/)');
  const source = takeSource(args, 'the folder of logs');
  let info;
  try {
    info = await stat(source);
  } catch (e) {
    throw fileError(source, e);
  }
  if (!info.isDirectory()) throw new CliError(EXIT.input, 'cli_not_file_or_folder', source);
  const result = await bundleSite(source, output, {
    ...(io.viewerDir ? { viewerDir: io.viewerDir } : {}),
  });
  for (const name of result.skipped) io.stderr(`skein: left out ${name}: not a log skein reads\n`);
  io.stderr(
    `skein: wrote ${output} (${result.logs} ${result.logs === 1 ? 'log' : 'logs'}); serve it with any static web server and open its index.html\n`,
  );
  return EXIT.ok;
}

// --- dispatch ----------------------------------------------------------------

const COMMANDS: Record<string, (args: string[], io: CliIO) => Promise<number>> = {
  info,
  replay,
  tree,
  ascii,
  svg,
  convert,
  diff,
  serve: serveCommand,
  view,
  export: exportCommand,
  bundle: bundleCommand,
};

/**
 * Runs the `skein` command line with `argv` (without the node and script
 * paths) and returns the exit code: 0 ok, 1 usage, 2 unreadable or invalid
 * input, 3 not found. User errors are printed to `io.stderr` without a stack.
 * Pure apart from `io` and reading the files it is given, so it is testable.
 *
 * @example
 * import { runCli } from 'skein/server';
 * const code = await runCli(process.argv.slice(2), {
 *   stdout: (t) => process.stdout.write(t),
 *   stderr: (t) => process.stderr.write(t),
 * });
 */
export async function runCli(argv: readonly string[], io: CliIO): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === undefined) {
      io.stdout(HELP);
      return EXIT.usage;
    }
    if (command === 'help' || command === '-h' || command === '--help') {
      const topic = rest[0];
      if (topic !== undefined && COMMAND_HELP[topic] === undefined)
        throw new UsageError('cli_no_such_command', topic);
      io.stdout(topic !== undefined ? COMMAND_HELP[topic]! : HELP);
      return EXIT.ok;
    }
    if (command === 'version' || command === '-v' || command === '--version') {
      io.stdout(`${VERSION}\n`);
      return EXIT.ok;
    }
    const run = COMMANDS[command];
    if (run === undefined) throw new UsageError('cli_unknown_command', command);
    if (rest.includes('--help') || rest.includes('-h')) {
      io.stdout(COMMAND_HELP[command]!);
      return EXIT.ok;
    }
    return await run([...rest], io);
  } catch (error) {
    if (error instanceof UsageError) {
      const help =
        command !== undefined && COMMANDS[command] ? `skein ${command} --help` : 'skein --help';
      io.stderr(`skein: ${error.message}\nRun '${help}' for usage.\n`);
      return error.exitCode;
    }
    if (error instanceof CliError) {
      io.stderr(`skein: ${error.message}\n`);
      return error.exitCode;
    }
    if (error instanceof SkeinError) {
      io.stderr(`skein: ${error.message} [${error.code}]\n`);
      return EXIT.input;
    }
    throw error;
  }
}
