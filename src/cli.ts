#!/usr/bin/env node
// The `skein` executable. All logic lives in runCli (src/node/cli.ts).
import { runCli } from './server.js';

const abort = new AbortController();
// Ctrl-C stops `serve` and `view` cleanly (exit 0); a second one kills.
process.once('SIGINT', () => abort.abort());
const code = await runCli(process.argv.slice(2), {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  stdin: process.stdin,
  signal: abort.signal,
  ...(process.stdout.isTTY ? { columns: process.stdout.columns } : {}),
});
process.exitCode = code;
