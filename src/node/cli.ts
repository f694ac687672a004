import { EventStream } from '../core/stream/event-stream.js';
import { ImportError, type Diagnostic } from '../core/errors.js';
import { importInspectLog, isInspectLog, type InspectLog } from '../core/import/inspect-log.js';
import { VERSION } from '../core/version.js';
import { renderTimelineAscii } from '../core/swimlane/ascii.js';
import { renderTimelineSvg } from '../core/swimlane/svg.js';
import { buildTimeline } from '../core/timeline/build.js';
import type { Event } from '../core/events/types.js';
import { readLogFile } from './files.js';

/** Where the CLI writes; injected so tests capture output without a process. */
export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Terminal width, when stdout is a terminal (the default for `ascii --width`). */
  columns?: number;
}

const HELP = `skein ${VERSION} — shows what an AI agent did

Usage:
  skein <command> [options]

Commands:
  info <log>                      Summarize a log: task, model, status, samples
  replay <log> [--sample ID] [--epoch N]
                                  Print a sample's events as a plain-text transcript
                                  (default: the first sample)
  ascii <log> [--sample ID] [--epoch N] [--width N]
                                  Print a sample's swimlane timeline as text
                                  (width: the terminal's, else 120)
  svg <log> [--sample ID] [--epoch N] [--width N] [--theme light|dark]
                                  Print a sample's swimlane as a standalone SVG
  help                            Show this help
  version                         Print the version

Logs: inspect_ai .eval and .json files. Repairs made while reading go to stderr,
counted by kind; add --verbose to list each.

Options:
  -h, --help         Show this help
  -v, --version      Print the version
`;

/** A usage problem: printed with a pointer to --help, exit code 2. */
class UsageError extends Error {}

function takeOption(args: string[], name: string): string | undefined {
  const at = args.indexOf(name);
  if (at < 0) return undefined;
  const value = args[at + 1];
  if (value === undefined || value.startsWith('--')) throw new UsageError(`${name} needs a value`);
  args.splice(at, 2);
  return value;
}

function takeFlag(args: string[], name: string): boolean {
  const at = args.indexOf(name);
  if (at < 0) return false;
  args.splice(at, 1);
  return true;
}

/**
 * Repairs go to stderr so what goes to stdout stays clean for pipes. Warnings
 * are listed one by one; routine repairs (derived uuids, filled defaults) are
 * counted by code unless `--verbose` asks for each.
 */
function reportDiagnostics(diagnostics: readonly Diagnostic[], verbose: boolean, io: CliIO): void {
  const counts = new Map<string, number>();
  for (const d of diagnostics) {
    if (verbose || d.severity === 'warning') io.stderr(`${d.severity}: ${d.path}: ${d.message}\n`);
    else counts.set(d.code, (counts.get(d.code) ?? 0) + 1);
  }
  if (counts.size > 0) {
    const list = [...counts].map(([code, n]) => `${n} ${code}`).join(', ');
    io.stderr(`info: repaired while reading: ${list} (--verbose lists each)\n`);
  }
}

async function openLog(args: string[]): Promise<{ path: string; log: InspectLog }> {
  const path = args.shift();
  if (path === undefined) throw new UsageError('missing the log file');
  if (args.length) throw new UsageError(`unexpected argument '${args[0]}'`);
  const bytes = await readLogFile(path);
  if (!isInspectLog(bytes)) {
    throw new UsageError(
      `${path}: not a log skein can read (supported: inspect_ai .eval and .json)`,
    );
  }
  return { path, log: await importInspectLog(bytes) };
}

async function info(args: string[], io: CliIO): Promise<number> {
  const { path, log } = await openLog(args);
  const { header } = log;
  const lines = [
    `file:    ${path} (${log.format}, log version ${header.version})`,
    `task:    ${header.eval.task ?? '?'}`,
    `model:   ${header.eval.model ?? '?'}`,
    `status:  ${header.status ?? '?'}`,
    `samples: ${log.samples.length}`,
    ...log.samples.map((s) => `  ${JSON.stringify(s.id)} epoch ${s.epoch}`),
  ];
  io.stdout(`${lines.join('\n')}\n`);
  reportDiagnostics(log.diagnostics, false, io);
  return 0;
}

/** Opens a log and loads one sample's events (`--sample`, `--epoch`; default: the first). */
async function loadSample(
  args: string[],
  io: CliIO,
): Promise<{ path: string; events: readonly Event[] } | undefined> {
  const sampleArg = takeOption(args, '--sample');
  const epochArg = takeOption(args, '--epoch');
  const verbose = takeFlag(args, '--verbose');
  const epoch = epochArg === undefined ? undefined : Number(epochArg);
  if (epoch !== undefined && !Number.isInteger(epoch))
    throw new UsageError('--epoch takes a whole number');
  const { path, log } = await openLog(args);
  const first = log.samples[0];
  if (first === undefined) {
    io.stderr(`skein: ${path} has no samples\n`);
    return undefined;
  }
  const id = sampleArg ?? first.id;
  const { events, diagnostics } = await log.sample(
    id,
    epoch ?? (sampleArg === undefined ? first.epoch : 1),
  );
  reportDiagnostics(diagnostics, verbose, io);
  return { path, events };
}

function takeWidth(args: string[], fallback: number): number {
  const arg = takeOption(args, '--width');
  if (arg === undefined) return fallback;
  const width = Number(arg);
  if (!Number.isInteger(width) || width < 20)
    throw new UsageError('--width takes a whole number of at least 20');
  return width;
}

async function replay(args: string[], io: CliIO): Promise<number> {
  const loaded = await loadSample(args, io);
  if (!loaded) return 1;
  const text = EventStream.from(loaded.events).replay();
  io.stdout(text === '' || text.endsWith('\n') ? text : `${text}\n`);
  return 0;
}

async function ascii(args: string[], io: CliIO): Promise<number> {
  const width = takeWidth(args, io.columns && io.columns >= 20 ? io.columns : 120);
  const loaded = await loadSample(args, io);
  if (!loaded) return 1;
  io.stdout(`${renderTimelineAscii(buildTimeline(loaded.events), { width })}\n`);
  return 0;
}

async function svg(args: string[], io: CliIO): Promise<number> {
  const width = takeWidth(args, 1000);
  const theme = takeOption(args, '--theme') ?? 'light';
  if (theme !== 'light' && theme !== 'dark') throw new UsageError('--theme is light or dark');
  const loaded = await loadSample(args, io);
  if (!loaded) return 1;
  io.stdout(`${renderTimelineSvg(buildTimeline(loaded.events), { width, theme })}\n`);
  return 0;
}

/**
 * Runs the `skein` command line with `argv` (without the node and script
 * paths) and returns the exit code. Pure apart from `io` and reading the files
 * it is given, so it is testable.
 *
 * @example
 * const code = await runCli(process.argv.slice(2), {
 *   stdout: (t) => process.stdout.write(t),
 *   stderr: (t) => process.stderr.write(t),
 * });
 */
export async function runCli(argv: readonly string[], io: CliIO): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case undefined:
        io.stdout(HELP);
        return 1;
      case 'help':
      case '-h':
      case '--help':
        io.stdout(HELP);
        return 0;
      case 'version':
      case '-v':
      case '--version':
        io.stdout(`${VERSION}\n`);
        return 0;
      case 'info':
        return await info(rest, io);
      case 'replay':
        return await replay(rest, io);
      case 'ascii':
        return await ascii(rest, io);
      case 'svg':
        return await svg(rest, io);
      default:
        throw new UsageError(`unknown command '${command}'`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`skein: ${error.message}\nRun 'skein --help' for usage.\n`);
      return 2;
    }
    if (error instanceof ImportError) {
      io.stderr(`skein: ${error.message} [${error.code}]\n`);
      return 1;
    }
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') {
      io.stderr(`skein: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}
