// The listing `skein view` serves (docs/viewer-api.md): made once, kept until
// the folder changes (`fs.watch` on the folder and its direct subfolders, as
// the listing goes one level down), and shared by every request — `/api/list`
// sends the same JSON text, `/api/file/<name>` looks names up in it. A flood
// of requests therefore lists the folder once, not once per request.
import { watch, type FSWatcher } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describeListedLog, listLogFiles, type ListedLog } from './log-list.js';

/**
 * One listing: when it was made, its files by name, and the JSON text of
 * `GET /api/list`.
 */
export interface Listing {
  readonly at: number;
  readonly files: ReadonlyMap<string, ListedLog>;
  readonly body: string;
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
  /** The current listing; made when there is none or the folder changed (shared while made). */
  get(): Promise<Listing>;
  /** A new listing if the current one is at least `ms` old (a name was missing, a file swapped). */
  refresh(ms: number): Promise<Listing>;
  /** Calls `listener` with the new listing after each change in the folder. */
  subscribe(listener: (listing: Listing) => void): () => void;
  close(): void;
}

/** Without a working watcher, a listing is made again once it is this old, ms. */
const UNWATCHED_TTL_MS = 1000;

export function createFolderListing(options: FolderListingOptions): FolderListing {
  const { root, file, debounceMs } = options;
  const listeners = new Set<(listing: Listing) => void>();
  const watchers = new Map<string, FSWatcher>();
  let generation = 0;
  let current: { listing: Listing; generation: number } | null = null;
  let pending: { promise: Promise<Listing>; generation: number } | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let watching = false;
  let closed = false;

  const make = async (): Promise<Listing> => {
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
    return { at: Date.now(), files: new Map(files.map((f) => [f.entry.name, f])), body };
  };

  const fresh = (): Listing | null => {
    if (current === null || current.generation !== generation) return null;
    if (!watching && Date.now() - current.listing.at >= UNWATCHED_TTL_MS) return null;
    return current.listing;
  };

  const start = (): Promise<Listing> => {
    if (pending !== null && pending.generation === generation) return pending.promise;
    const made = generation;
    const promise = make().then((listing) => {
      if (current === null || current.generation <= made) current = { listing, generation: made };
      return listing;
    });
    const entry = { promise, generation: made };
    pending = entry;
    const clear = () => {
      if (pending === entry) pending = null;
    };
    promise.then(clear, clear);
    return promise;
  };

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
    const listing = fresh();
    return listing !== null ? Promise.resolve(listing) : start();
  }

  return {
    get,
    refresh(ms) {
      // One being made is newer than any request's reason to refresh; and at
      // most one new listing per `ms`, however many requests ask.
      if (pending !== null) return pending.promise;
      const listing = fresh();
      if (listing !== null && Date.now() - listing.at >= ms) generation++;
      return get();
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
