// The Node entry point (`skein/server`): what needs Node built-ins.
export { readLogFile } from './files.js';
export { runCli } from './cli.js';
export type { CliIO } from './cli.js';
