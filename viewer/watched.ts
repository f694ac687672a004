// A JSON document the server keeps up to date: read once from `url`, then
// replaced by every `event` the server sends on `<url>/watch` (SSE). The
// folder listing and the OTLP run list both work this way (docs/viewer-api.md).
import { useEffect, useState } from 'react';

/** What a watched document is and how to read it. */
export interface WatchedDocument<T> {
  /** Reads the document defensively; `null` when the answer is not one. */
  readonly parse: (value: unknown) => T | null;
  /** The SSE event name that carries a new version. */
  readonly event: string;
  /** The document's name in messages (`the listing`, `the runs`). */
  readonly name: string;
  /** What the document should look like, for the message when it does not. */
  readonly shape: string;
  /** Whether `url` has a watch (a static file has none); default yes. */
  readonly watches?: (url: string) => boolean;
}

/**
 * The document at `url` (none for `null`) and the last error reading it. A version from the
 * watch wins over the first read (it is newer) and clears the error; a
 * malformed update keeps the last good version.
 */
export function useWatchedDocument<T>(
  url: string | null,
  doc: WatchedDocument<T>,
): { value: T | null; error: string | null } {
  const [value, setValue] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    // No document (`null`): nothing to read or watch.
    if (url === null) return;
    let stop = false;
    fetch(url)
      .then(async (r) => {
        if (!r.ok) throw new Error(`HTTP ${r.status} ${r.statusText}`);
        const parsed = doc.parse(await r.json());
        if (!parsed) throw new Error(`the answer is not ${doc.shape}`);
        if (!stop) setValue((old) => old ?? parsed);
      })
      .catch((e: unknown) => {
        if (!stop)
          setError(`Could not read ${doc.name} at ${url}: ${String((e as Error).message ?? e)}`);
      });
    let source: EventSource | null = null;
    if (typeof EventSource !== 'undefined' && (doc.watches?.(url) ?? true)) {
      source = new EventSource(`${url.replace(/\/$/, '')}/watch`);
      source.addEventListener(doc.event, (e) => {
        try {
          const parsed = doc.parse(JSON.parse((e as MessageEvent<string>).data));
          if (parsed && !stop) {
            setValue(parsed);
            setError(null);
          }
        } catch {
          // a malformed update: keep the last good version
        }
      });
    }
    return () => {
      stop = true;
      source?.close();
    };
  }, [url, doc]);
  return { value, error };
}
