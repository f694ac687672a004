import { constants } from 'node:fs';
import { open, readFile, type FileHandle } from 'node:fs/promises';
import type { BigIntStats } from 'node:fs';
import { SkeinError } from '../core/errors.js';

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

/**
 * Which file a path named when it was looked at: device and inode. A file
 * opened later is the same file only if both match (a rename or a swap
 * gives another inode).
 *
 * @example
 * import type { FileIdentity } from 'skein/server';
 * const id: FileIdentity = { dev: 2049n, ino: 1234567n };
 */
export interface FileIdentity {
  readonly dev: bigint;
  readonly ino: bigint;
}

/**
 * A regular file opened by {@link openRegularFile}: the handle (close it) and
 * what `fstat` said of it.
 *
 * @example
 * import { openRegularFile, type OpenedFile } from 'skein/server';
 * const file: OpenedFile = await openRegularFile('logs/run.eval');
 * await file.handle.close();
 */
export interface OpenedFile {
  readonly handle: FileHandle;
  readonly stats: BigIntStats;
}

// O_NOFOLLOW: a symbolic link as the last component fails (ELOOP) instead of
// being followed. O_NONBLOCK: opening a FIFO with no writer returns at once
// instead of waiting for one (reads of a regular file ignore the flag).
// Windows has neither; there opening a link or a pipe by path is not a
// concern of the same kind, and fstat still refuses what is not a file.
const SAFE_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

function kind(stats: BigIntStats): string {
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a named pipe';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isSocket()) return 'a socket';
  if (stats.isSymbolicLink()) return 'a symbolic link';
  return 'not a regular file';
}

/**
 * Opens `path` for reading only if it is a regular file: a symbolic link is
 * not followed, a named pipe or a device is not waited on, and what was
 * opened is checked with `fstat` (so a swap between a check and the open
 * cannot slip another file in). With `expected`, the file must also be that
 * one (same device and inode). Read from the returned handle, never from
 * the path again. Throws a `SkeinError` `file_not_regular` or
 * `file_replaced`, or the system error (`ENOENT`, `ELOOP` for a link, …).
 *
 * @example
 * import { openRegularFile } from 'skein/server';
 * const { handle, stats } = await openRegularFile('logs/run.eval');
 * try {
 *   const head = Buffer.alloc(Math.min(Number(stats.size), 1024));
 *   await handle.read(head, 0, head.length, 0);
 * } finally {
 *   await handle.close();
 * }
 */
export async function openRegularFile(path: string, expected?: FileIdentity): Promise<OpenedFile> {
  const handle = await open(path, SAFE_FLAGS);
  try {
    const stats = await handle.stat({ bigint: true });
    if (!stats.isFile()) throw new SkeinError('file_not_regular', path, kind(stats));
    if (expected !== undefined && (stats.dev !== expected.dev || stats.ino !== expected.ino))
      throw new SkeinError('file_replaced', path);
    return { handle, stats };
  } catch (error) {
    await handle.close();
    throw error;
  }
}
