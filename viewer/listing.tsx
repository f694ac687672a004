// A folder listing from `skein view <dir>` (?list=<url>): the logs with format,
// size and date, newest first; `<list>/watch` (SSE, `event: list`) updates it
// when the folder changes. Clicking a log opens it.
import { useEffect, useState } from 'react';
import { formatBytes, formatDate, formatShortDate, splitLogName } from './format.js';

/** One log of a listing, as the CLI serves it. */
export interface ListingLog {
  readonly name: string;
  readonly url: string;
  readonly format: string | null;
  readonly size: number;
  /** Modification time: epoch ms or an ISO string. */
  readonly mtime: number | string;
  readonly error?: string;
}

/** The listing document. */
export interface Listing {
  readonly root: string;
  readonly logs: readonly ListingLog[];
}

/** Reads a listing defensively (unknown fields ignored, bad entries skipped); `null` if it is not one. */
export function parseListing(value: unknown): Listing | null {
  if (value === null || typeof value !== 'object') return null;
  const v = value as { root?: unknown; logs?: unknown };
  if (!Array.isArray(v.logs)) return null;
  const logs: ListingLog[] = [];
  for (const raw of v.logs) {
    if (raw === null || typeof raw !== 'object') continue;
    const l = raw as Record<string, unknown>;
    if (typeof l['name'] !== 'string' || typeof l['url'] !== 'string') continue;
    logs.push({
      name: l['name'],
      url: l['url'],
      format: typeof l['format'] === 'string' ? l['format'] : null,
      size: typeof l['size'] === 'number' ? l['size'] : 0,
      mtime: typeof l['mtime'] === 'number' || typeof l['mtime'] === 'string' ? l['mtime'] : 0,
      ...(typeof l['error'] === 'string' ? { error: l['error'] } : {}),
    });
  }
  return { root: typeof v.root === 'string' ? v.root : '', logs };
}

const mtimeMs = (m: number | string) => (typeof m === 'number' ? m : Date.parse(m));

/** The listing at `url`, kept up to date from `<url>/watch`. */
export function useListing(url: string): { listing: Listing | null; error: string | null } {
  const [listing, setListing] = useState<Listing | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let stop = false;
    fetch(url)
      .then(async (r) => {
        if (!r.ok) throw new Error(`HTTP ${r.status} ${r.statusText}`);
        const parsed = parseListing(await r.json());
        if (!parsed) throw new Error('the answer is not a listing ({ root, logs: [...] })');
        if (!stop) setListing(parsed);
      })
      .catch((e: unknown) => {
        if (!stop)
          setError(`Could not read the listing at ${url}: ${String((e as Error).message ?? e)}`);
      });
    let source: EventSource | null = null;
    // A listing that is a static file (`skein bundle` writes `list.json`) has no watch.
    if (typeof EventSource !== 'undefined' && !/\.json(?:$|[?#])/.test(url)) {
      source = new EventSource(`${url.replace(/\/$/, '')}/watch`);
      source.addEventListener('list', (e) => {
        try {
          const parsed = parseListing(JSON.parse((e as MessageEvent<string>).data));
          if (parsed && !stop) setListing(parsed);
        } catch {
          // a malformed update: keep the last good listing
        }
      });
    }
    return () => {
      stop = true;
      source?.close();
    };
  }, [url]);
  return { listing, error };
}

export interface ListingViewProps {
  url: string;
  /** The URL of the log open now. */
  current: string | null;
  onOpen: (log: ListingLog) => void;
}

export function ListingView({ url, current, onOpen }: ListingViewProps) {
  const { listing, error } = useListing(url);
  if (error) return <p role="alert">{error}</p>;
  if (!listing) return <p className="viewer-muted">Reading the folder…</p>;
  const logs = listing.logs.slice().sort((a, b) => mtimeMs(b.mtime) - mtimeMs(a.mtime));
  return (
    <div className="viewer-listing">
      <p className="viewer-muted viewer-listing-root" title={listing.root}>
        {listing.root || 'Logs'} · {logs.length} {logs.length === 1 ? 'log' : 'logs'}
      </p>
      <div className="viewer-scroll">
        {/* The name column gives way (its cell ends in an ellipsis, the
            format under the name); size and date keep their widths. */}
        <table className="viewer-table" aria-label="Logs in the folder">
          <colgroup>
            <col data-col="name" />
            <col data-col="size" />
            <col data-col="modified" />
          </colgroup>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col" data-numeric="">
                Size
              </th>
              <th scope="col">Modified</th>
            </tr>
          </thead>
          <tbody>
            {logs.map((l) => {
              const ms = mtimeMs(l.mtime);
              const { label, stamp } = splitLogName(l.name);
              const about = l.error ?? [l.format, stamp].filter(Boolean).join(' · ');
              return (
                <tr key={l.url} data-current={l.url === current ? '' : undefined}>
                  <th scope="row">
                    <button
                      type="button"
                      className="viewer-link"
                      aria-current={l.url === current ? 'true' : undefined}
                      onClick={() => onOpen(l)}
                      title={l.error ? `${l.name}: ${l.error}` : l.name}
                    >
                      {label}
                    </button>
                    <span
                      className={`viewer-listing-format ${l.error ? 'viewer-error-cell' : 'viewer-muted'}`}
                      title={about || undefined}
                    >
                      {about}
                    </span>
                  </th>
                  <td data-numeric="">{formatBytes(l.size)}</td>
                  <td title={formatDate(ms)}>
                    <time dateTime={Number.isFinite(ms) ? new Date(ms).toISOString() : undefined}>
                      {formatShortDate(ms)}
                    </time>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}
