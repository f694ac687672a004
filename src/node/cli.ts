import { VERSION } from '../core/version.js';

/** Where the CLI writes; injected so tests capture output without a process. */
export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
}

const HELP = `skein ${VERSION} — shows what an AI agent did

Usage:
  skein <command> [options]

Commands:
  help               Show this help
  version            Print the version

Options:
  -h, --help         Show this help
  -v, --version      Print the version
`;

/**
 * Runs the `skein` command line with `argv` (without the node and script
 * paths) and returns the exit code. Pure apart from `io`, so it is testable.
 *
 * @example
 * const code = await runCli(process.argv.slice(2), {
 *   stdout: (t) => process.stdout.write(t),
 *   stderr: (t) => process.stderr.write(t),
 * });
 */
export async function runCli(argv: readonly string[], io: CliIO): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '-h' || command === '--help') {
    io.stdout(HELP);
    return command === undefined ? 1 : 0;
  }
  if (command === 'version' || command === '-v' || command === '--version') {
    io.stdout(`${VERSION}\n`);
    return 0;
  }
  io.stderr(
    `skein: unknown command '${command}'${rest.length ? ` (with ${rest.length} argument(s))` : ''}\nRun 'skein --help' for usage.\n`,
  );
  return 2;
}
