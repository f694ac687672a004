// The listing `skein view` serves (docs/viewer-api.md): made once, kept until
// the folder changes (`fs.watch` on the folder and its direct subfolders, as
// the listing goes one level down), and shared by every request. Two views of
// it, each made at most once per change and shared while being made:
// - the names: each listed file's name and identity (`lstat`), all that
//   `/api/file/<name>` needs — cheap, nothing is read;
// - the described listing: the same files with their formats (detection reads
//   their heads) and the JSON text `/api/list` sends as is.
// A flood of requests therefore lists the folder once, not once per request.
import { watch, type FSWatcher } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileIdentity } from './files.js';
import { describeListedLog, listLogFiles, listLogNames, type ListedLog } from './log-list.js';

/** The described listing: when it was made, its files, and the JSON text of `GET /api/list`. */
export interface Listing {
  readonly at: number;
  readonly files: readonly ListedLog[];
  readonly body: string;
}

/** The files of the listing by name, with the identity each had then. */
export interface ListingNames {
  readonly at: number;
  readonly files: ReadonlyMap<string, FileIdentity>;
}

/** Options of {@link createFolderListing}. */
export interface FolderListingOptions {
  /** The folder listed. */
  readonly root: string;
  /** List only this file of `root`. */
  readonly file?: string | undefined;
  /** Quiet time after a change before it is acted on, ms. */
  readonly debounceMs: number;
}

/** The listing of a folder, kept up to date by a watcher. */
export interface FolderListing {
  /** The described listing (made when there is none or the folder changed). */
  get(): Promise<Listing>;
  /** The names; `refreshMs`: made again if at least this old (a name was missing, a file swapped). */
  names(refreshMs?: number): Promise<ListingNames>;
  /** Calls `listener` with the new listing after each change in the folder. */
  subscribe(listener: (listing: Listing) => void): () => void;
  close(): void;
}

/** Without a working watcher, a listing is made again once it is this old, ms. */
const UNWATCHED_TTL_MS = 1000;

/**
 * A value made by `make` at most once per `generation()`: kept until the
 * generation changes (or, while `ttl()` says so, until it is that old), and
 * shared by every asker while being made.
 */
function perGeneration<T extends { at: number }>(
  make: () => Promise<T>,
  generation: () => number,
  ttl: () => number,
) {
  let current: { value: T; generation: number } | null = null;
  let pending: { promise: Promise<T>; generation: number } | null = null;
  const fresh = (): T | null => {
    if (current === null || current.generation !== generation()) return null;
    return Date.now() - current.value.at < ttl() ? current.value : null;
  };
  const start = (): Promise<T> => {
    const made = generation();
    if (pending !== null && pending.generation === made) return pending.promise;
    const promise = make().then((value) => {
      if (current === null || current.generation <= made) current = { value, generation: made };
      return value;
    });
    const entry = { promise, generation: made };
    pending = entry;
    const clear = () => {
      if (pending === entry) pending = null;
    };
    promise.then(clear, clear);
    return promise;
  };
  return {
    get: (): Promise<T> => {
      const value = fresh();
      return value !== null ? Promise.resolve(value) : start();
    },
    /** Whether a fresh value at least `ms` old is held (and nothing newer is being made). */
    stale: (ms: number): boolean => {
      if (pending !== null) return false;
      const value = fresh();
      return value !== null && Date.now() - value.at >= ms;
    },
  };
}

/**
 * Lists `root` (or one `file` of it) for `skein view`, watches it, and keeps
 * both views of the listing until it changes.
 */
export function createFolderListing(options: FolderListingOptions): FolderListing {
  const { root, file, debounceMs } = options;
  const listeners = new Set<(listing: Listing) => void>();
  const watchers = new Map<string, FSWatcher>();
  let generation = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let watching = false;
  let closed = false;
  const ttl = () => (watching ? Infinity : UNWATCHED_TTL_MS);

  const described = perGeneration(
    async (): Promise<Listing> => {
      const files =
        file !== undefined
          ? [await describeListedLog(root, join(root, file))]
          : await listLogFiles(root);
      const body = JSON.stringify({
        root,
        logs: files.map(({ entry: e }) => ({
          name: e.name,
          url: `/api/file/${encodeURIComponent(e.name)}`,
          format: e.format,
          size: e.size,
          mtime: e.mtime.toISOString(),
          ...(e.error !== undefined ? { error: e.error } : {}),
        })),
      });
      return { at: Date.now(), files, body };
    },
    () => generation,
    ttl,
  );
  const names = perGeneration(
    async (): Promise<ListingNames> => ({ at: Date.now(), files: await listLogNames(root, file) }),
    () => generation,
    ttl,
  );

  const addWatcher = (dir: string) => {
    if (watchers.has(dir) || closed) return;
    try {
      const w = watch(dir, { persistent: false }, onChange);
      w.on('error', () => {
        w.close();
        watchers.delete(dir);
        if (dir === root) watching = false;
      });
      watchers.set(dir, w);
      if (dir === root) watching = true;
    } catch {
      // A folder that cannot be watched is listed again when its listing ages.
    }
  };

  const watchSubfolders = () => {
    if (file !== undefined) return;
    readdir(root, { withFileTypes: true }).then(
      (items) => {
        for (const item of items)
          if (item.isDirectory() && !item.name.startsWith('.') && item.name !== 'node_modules')
            addWatcher(join(root, item.name));
      },
      () => {},
    );
  };

  function onChange() {
    clearTimeout(timer);
    timer = setTimeout(() => {
      generation++;
      watchSubfolders(); // a new subfolder is watched from now on
      if (listeners.size === 0) return;
      get().then(
        (listing) => {
          for (const listener of listeners) listener(listing);
        },
        () => {}, // the folder vanished; listeners hear again when it is back
      );
    }, debounceMs);
  }

  const ensureWatching = () => {
    if (watchers.size > 0 || closed) return;
    addWatcher(root);
    watchSubfolders();
  };

  function get(): Promise<Listing> {
    ensureWatching();
    return described.get();
  }

  return {
    get,
    names(refreshMs) {
      ensureWatching();
      // At most one new listing per `refreshMs`, however many requests ask.
      if (refreshMs !== undefined && names.stale(refreshMs)) generation++;
      return names.get();
    },
    subscribe(listener) {
      ensureWatching();
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      closed = true;
      clearTimeout(timer);
      for (const w of watchers.values()) w.close();
      watchers.clear();
      listeners.clear();
    },
  };
}
