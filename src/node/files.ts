import { readFile } from 'node:fs/promises';

/**
 * Reads a log file as bytes, the form every skein importer takes (so the same
 * importers run unchanged in browsers and workers, where there is no `fs`).
 *
 * @example
 * import { readLogFile } from 'skein/server';
 * const bytes = await readLogFile('logs/run.eval');
 */
export async function readLogFile(path: string): Promise<Uint8Array> {
  const buffer = await readFile(path);
  // A Buffer is a Uint8Array, but may view a shared pool: give callers their own bytes.
  return new Uint8Array(
    buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength),
  );
}
