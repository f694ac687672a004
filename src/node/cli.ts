import { EventStream } from '../core/stream/event-stream.js';
import { ImportError } from '../core/errors.js';
import { importInspectLog, isInspectLog, type InspectLog } from '../core/import/inspect-log.js';
import { VERSION } from '../core/version.js';
import { readLogFile } from './files.js';

/** Where the CLI writes; injected so tests capture output without a process. */
export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
}

const HELP = `skein ${VERSION} — shows what an AI agent did

Usage:
  skein <command> [options]

Commands:
  info <log>                      Summarize a log: task, model, status, samples
  replay <log> [--sample ID] [--epoch N]
                                  Print a sample's events as a plain-text transcript
                                  (default: the first sample)
  help                            Show this help
  version                         Print the version

Logs: inspect_ai .eval and .json files.

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
  for (const d of log.diagnostics) lines.push(`note: ${d.path}: ${d.message}`);
  io.stdout(`${lines.join('\n')}\n`);
  return 0;
}

async function replay(args: string[], io: CliIO): Promise<number> {
  const sampleArg = takeOption(args, '--sample');
  const epochArg = takeOption(args, '--epoch');
  const epoch = epochArg === undefined ? undefined : Number(epochArg);
  if (epoch !== undefined && !Number.isInteger(epoch))
    throw new UsageError('--epoch takes a whole number');
  const { path, log } = await openLog(args);
  const first = log.samples[0];
  if (first === undefined) {
    io.stderr(`skein: ${path} has no samples\n`);
    return 1;
  }
  const id = sampleArg ?? first.id;
  const { events, diagnostics } = await log.sample(
    id,
    epoch ?? (sampleArg === undefined ? first.epoch : 1),
  );
  const text = EventStream.from(events).replay();
  io.stdout(text === '' || text.endsWith('\n') ? text : `${text}\n`);
  // Repairs go to stderr so the transcript on stdout stays clean for pipes.
  for (const d of diagnostics) io.stderr(`note: ${d.path}: ${d.message}\n`);
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
