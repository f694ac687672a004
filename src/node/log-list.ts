// The logs of a folder: what `skein info <dir>` summarises and
// `skein view <dir>` lists at `/api/list`. One rule for both: files directly
// in the folder and in its direct subfolders (one level, as inspect's log
// dirs nest by task), not hidden, with an extension some format is usually
// saved with; the format of each is detected from its bytes (a name never
// decides alone), so a `.json` that is no log is listed with an error.
import { lstat, readdir, type FileHandle } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { detectFormat, formats, type FormatId } from '../core/import/index.js';
import { describeInput } from '../core/import/describe-input.js';
import { openRegularFile, type FileIdentity } from './files.js';
import { createLimiter } from './limiter.js';

/** Extensions of the files a folder listing looks at (every format's usual ones). */
export const LOG_EXTENSIONS: readonly string[] = [...new Set(formats.flatMap((f) => f.extensions))];

/**
 * One log of a folder: its path relative to the folder (`/`-separated), its
 * format (`null` when no format reads it, with `error` saying what it is),
 * size and modification time.
 *
 * @example
 * import type { LogEntry } from 'skein/server';
 * const entry: LogEntry = { name: 'run.eval', format: 'inspect', size: 2048, mtime: new Date() };
 */
export interface LogEntry {
  readonly name: string;
  readonly format: FormatId | null;
  readonly size: number;
  readonly mtime: Date;
  readonly error?: string;
}

interface Cached {
  /** Device, inode, size and mtime of the file described. */
  readonly version: string;
  readonly entry: Omit<LogEntry, 'name'>;
}

/** Detected formats by path, kept while the file stays the same (same inode, size and mtime). */
const cache = new Map<string, Cached>();

function hasLogExtension(name: string): boolean {
  const lower = name.toLowerCase();
  return LOG_EXTENSIONS.some((ext) => lower.endsWith(ext));
}

async function candidates(root: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string, depth: number) => {
    let items;
    try {
      items = await readdir(dir, { withFileTypes: true });
    } catch {
      return; // an unreadable subfolder is skipped, not fatal
    }
    for (const item of items) {
      if (item.name.startsWith('.') || item.name === 'node_modules') continue;
      const path = join(dir, item.name);
      if (item.isDirectory()) {
        if (depth === 0) await walk(path, 1);
      } else if (item.isFile() && hasLogExtension(item.name)) out.push(path);
    }
  };
  await walk(root, 0);
  return out;
}

/** Bytes read from the start of a file to detect its format (the sniffs look at 64 KiB). */
const HEAD_BYTES = 64 * 1024;
/** Bytes read from the end of a zip: its end-of-central-directory record (22) and a comment (≤ 64 KiB). */
const TAIL_BYTES = 22 + 0xffff + 20;
/** A central directory bigger than this is not read for a listing (the file is read whole instead). */
const MAX_DIRECTORY = 16 * 2 ** 20;
/**
 * The largest file read whole to detect its format, when its head (or a
 * zip's directory) does not tell: 16 MiB. A bigger one is listed as not
 * recognised; the viewer still opens it (its loader reads the whole file).
 *
 * @example
 * import { MAX_WHOLE_DETECTION_BYTES } from 'skein/server';
 * MAX_WHOLE_DETECTION_BYTES / 2 ** 20; // 16
 */
export const MAX_WHOLE_DETECTION_BYTES = 16 * 2 ** 20;
/** Whole-file detections running at once (each holds its file in memory). */
const WHOLE_DETECTIONS_AT_ONCE = 2;

async function readAt(file: FileHandle, position: number, length: number): Promise<Uint8Array> {
  const out = new Uint8Array(length);
  let done = 0;
  while (done < length) {
    const { bytesRead } = await file.read(out, done, length - done, position + done);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
  return done === length ? out : out.subarray(0, done);
}

const u16 = (b: Uint8Array, o: number) => b[o]! | (b[o + 1]! << 8);
const u32 = (b: Uint8Array, o: number) => (u16(b, o) | (u16(b, o + 2) << 16)) >>> 0;

/**
 * A zip's central directory, from the end of the file only, laid out as a
 * small zip of its own (a local-header signature, the directory, an end
 * record pointing at it) that the zip reader and the format sniffs read as
 * they would read the whole file: they look at member names only. `null`
 * when the end does not hold a plain end record (a cut-off or Zip64 archive,
 * a comment that hides it): the caller reads the file whole, as before.
 */
async function zipDirectory(file: FileHandle, size: number): Promise<Uint8Array | null> {
  const start = Math.max(0, size - TAIL_BYTES);
  const tail = await readAt(file, start, size - start);
  let eocd = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (u32(tail, i) === 0x06054b50 && i + 22 + u16(tail, i + 20) <= tail.length) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return null;
  const count = u16(tail, eocd + 10);
  const cdSize = u32(tail, eocd + 12);
  const cdOffset = u32(tail, eocd + 16);
  // Saturated fields: Zip64 (the 64-bit record has the real ones). Rare for a
  // log; read whole.
  if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) return null;
  if (cdSize > MAX_DIRECTORY || cdOffset + cdSize > start + eocd) return null;
  const directory = await readAt(file, cdOffset, cdSize);
  if (directory.length !== cdSize) return null;
  const out = new Uint8Array(4 + cdSize + 22);
  out.set([0x50, 0x4b, 0x03, 0x04], 0);
  out.set(directory, 4);
  const end = out.subarray(4 + cdSize);
  end.set(tail.subarray(eocd, eocd + 22)); // signature, disks, counts, size
  new DataView(end.buffer, end.byteOffset).setUint32(16, 4, true); // the directory's new offset
  end[20] = 0; // no comment
  end[21] = 0;
  return out;
}

/**
 * What a listing reads of a file to detect its format: the first 64 KiB
 * (every sniff looks there; cut at the last line end so a line format sees
 * whole records) and, for a zip, its central directory from the end — not
 * the whole file (a folder of 100 MB `.eval` logs is listed in
 * milliseconds). `whole` says whether that is the file itself; `null`
 * bytes: a zip whose directory cannot be read from its end.
 */
async function detectionBytes(
  file: FileHandle,
  size: number,
): Promise<{ bytes: Uint8Array | null; whole: boolean }> {
  const head = await readAt(file, 0, Math.min(size, HEAD_BYTES));
  if (head.length >= size) return { bytes: head, whole: true };
  const isZip = u32(head, 0) === 0x04034b50;
  if (isZip) return { bytes: await zipDirectory(file, size), whole: false };
  const lastLine = head.lastIndexOf(0x0a);
  return { bytes: lastLine > 0 ? head.subarray(0, lastLine + 1) : head, whole: false };
}

const wholeDetection = createLimiter(WHOLE_DETECTIONS_AT_ONCE);

/** One listed file: its entry, and which file it was (`null`: it could not be opened). */
export interface ListedLog {
  readonly entry: LogEntry;
  readonly id: FileIdentity | null;
}

/** Detections in progress, by path and file version: concurrent askers share one. */
const inflight = new Map<string, Promise<Omit<LogEntry, 'name'>>>();

async function detect(
  file: FileHandle,
  path: string,
  size: number,
  mtime: Date,
): Promise<Omit<LogEntry, 'name'>> {
  try {
    const read = await detectionBytes(file, size);
    let bytes = read.bytes;
    let detected = bytes === null ? { format: null } : detectFormat(bytes, { filename: path });
    if (detected.format === null && !read.whole) {
      if (size > MAX_WHOLE_DETECTION_BYTES) {
        const what =
          bytes === null ? 'a zip archive whose directory is not at its end' : describeInput(bytes);
        return {
          format: null,
          size,
          mtime,
          error: `not recognised from its first 64 KiB (${what}); files over ${MAX_WHOLE_DETECTION_BYTES / 2 ** 20} MiB are not read whole to tell`,
        };
      }
      bytes = await wholeDetection(() => readAt(file, 0, size));
      detected = detectFormat(bytes, { filename: path });
    }
    return detected.format !== null
      ? { format: detected.format, size, mtime }
      : { format: null, size, mtime, error: `not a log skein can read: ${describeInput(bytes!)}` };
  } catch (e) {
    return { format: null, size, mtime, error: (e as Error).message };
  }
}

/**
 * Describes one file as a listing does (see {@link describeLogFile}), with
 * the identity of the file it read, so a server can later open that same
 * file and no other (`openRegularFile(path, id)`).
 */
export async function describeListedLog(root: string, path: string): Promise<ListedLog> {
  const name = relative(root, path).split(sep).join('/');
  let opened;
  try {
    opened = await openRegularFile(path);
  } catch (e) {
    const entry = { name, format: null, size: 0, mtime: new Date(0), error: (e as Error).message };
    return { entry, id: null };
  }
  const { handle, stats } = opened;
  try {
    const id = { dev: stats.dev, ino: stats.ino };
    const version = `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}`;
    const hit = cache.get(path);
    if (hit && hit.version === version) return { entry: { ...hit.entry, name }, id };
    const key = `${path}\0${version}`;
    let pending = inflight.get(key);
    if (pending === undefined) {
      pending = detect(handle, path, Number(stats.size), stats.mtime).finally(() =>
        inflight.delete(key),
      );
      inflight.set(key, pending);
    }
    const described = await pending;
    cache.set(path, { version, entry: described });
    return { entry: { ...described, name }, id };
  } finally {
    await handle.close();
  }
}

/**
 * Detects one file's format from what it needs of the file (see
 * `detectionBytes`: the first 64 KiB, a zip's central directory), reading
 * it whole only when that does not tell (a JSON document whose format shows
 * only when it is parsed whole, a damaged zip) and it is at most
 * {@link MAX_WHOLE_DETECTION_BYTES}; cached by file and version (inode,
 * size, mtime) so a folder watched for changes is not read again and again,
 * and shared while in progress. The file is opened as `openRegularFile`
 * opens it: a link, a pipe or a device is described, never read.
 *
 * @example
 * import { describeLogFile } from 'skein/server';
 * const { format, error } = await describeLogFile('logs', 'logs/run.eval');
 */
export async function describeLogFile(root: string, path: string): Promise<LogEntry> {
  return (await describeListedLog(root, path)).entry;
}

/** Files described at once while listing a folder. */
const DESCRIBED_AT_ONCE = 16;

/**
 * The files a listing of `root` holds (or only `file` of it), by name, with
 * the identity of each as `lstat` sees it: what a server needs to serve them
 * (a name to look up, the file it must be), without reading any. The same
 * files as {@link listLogFiles}, in a fraction of its time; a name that is no
 * longer a regular file is left out.
 */
export async function listLogNames(
  root: string,
  file?: string,
): Promise<Map<string, FileIdentity>> {
  const paths = file !== undefined ? [join(root, file)] : await candidates(root);
  if (file === undefined) await readdir(root); // the folder itself must be readable
  const check = createLimiter(DESCRIBED_AT_ONCE * 4);
  const out = new Map<string, FileIdentity>();
  await Promise.all(
    paths.map((path) =>
      check(async () => {
        try {
          const info = await lstat(path, { bigint: true });
          if (info.isFile())
            out.set(relative(root, path).split(sep).join('/'), { dev: info.dev, ino: info.ino });
        } catch {
          // gone since the folder was read
        }
      }),
    ),
  );
  return out;
}

/**
 * The logs of a folder with the identity of each file (see
 * {@link describeListedLog}), newest first (then by name).
 */
export async function listLogFiles(root: string): Promise<ListedLog[]> {
  await readdir(root); // the folder itself must be readable: let that error through
  const paths = await candidates(root);
  const describe = createLimiter(DESCRIBED_AT_ONCE);
  const listed = await Promise.all(paths.map((p) => describe(() => describeListedLog(root, p))));
  return listed.sort(
    (a, b) =>
      b.entry.mtime.getTime() - a.entry.mtime.getTime() || a.entry.name.localeCompare(b.entry.name),
  );
}

/**
 * The logs of a folder, newest first (then by name): see the module comment
 * for which files are looked at. Never rejects for one bad file; rejects only
 * when `root` itself cannot be read.
 *
 * @example
 * import { listLogs } from 'skein/server';
 * const lines = (await listLogs('logs')).map((log) => `${log.name} ${log.format ?? log.error}`);
 */
export async function listLogs(root: string): Promise<LogEntry[]> {
  return (await listLogFiles(root)).map((l) => l.entry);
}
