// The runs an OTLP receiver holds (`skein view --otlp`, ?runs=<url>): newest
// first, with live counts and status; `<url>/watch` (SSE, `event: runs`)
// keeps the list up to date. Opening a run follows it live (its `url` is a
// skein live stream). Contract: docs/viewer-api.md, "Runs".
import { useEffect, useState } from 'react';
import { formatCount } from './format.js';

/** One run, as `GET /api/runs` lists it (fields the page reads). */
export interface RunEntry {
  readonly id: string;
  readonly name: string;
  readonly kind: string;
  readonly service: string | null;
  readonly status: string;
  readonly spans: number;
  readonly logs: number;
  readonly events: number;
  readonly errors: number;
  readonly held: number;
  readonly firstSeen: string;
  readonly lastSeen: string;
  readonly url: string;
}

/** Reads a run list defensively (unknown fields ignored, bad entries skipped); `null` if it is not one. */
export function parseRuns(value: unknown): RunEntry[] | null {
  if (value === null || typeof value !== 'object') return null;
  const runs = (value as { runs?: unknown }).runs;
  if (!Array.isArray(runs)) return null;
  const out: RunEntry[] = [];
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  const str = (v: unknown, d = '') => (typeof v === 'string' ? v : d);
  for (const raw of runs) {
    if (raw === null || typeof raw !== 'object') continue;
    const r = raw as Record<string, unknown>;
    if (typeof r['id'] !== 'string' || typeof r['url'] !== 'string') continue;
    out.push({
      id: r['id'],
      name: str(r['name'], r['id']),
      kind: str(r['kind']),
      service: typeof r['service'] === 'string' ? r['service'] : null,
      status: str(r['status'], 'live'),
      spans: num(r['spans']),
      logs: num(r['logs']),
      events: num(r['events']),
      errors: num(r['errors']),
      held: num(r['held']),
      firstSeen: str(r['firstSeen']),
      lastSeen: str(r['lastSeen']),
      url: r['url'],
    });
  }
  // Newest first, whatever order the server sent.
  return out.sort((a, b) => Date.parse(b.firstSeen) - Date.parse(a.firstSeen));
}

/** The run list at `url`, kept up to date from `<url>/watch`. */
export function useRuns(url: string): { runs: RunEntry[] | null; error: string | null } {
  const [runs, setRuns] = useState<RunEntry[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let stop = false;
    fetch(url)
      .then(async (r) => {
        if (!r.ok) throw new Error(`HTTP ${r.status} ${r.statusText}`);
        const parsed = parseRuns(await r.json());
        if (!parsed) throw new Error('the answer is not a run list ({ runs: [...] })');
        if (!stop) setRuns((old) => old ?? parsed);
      })
      .catch((e: unknown) => {
        if (!stop) setError(`Could not read the runs at ${url}: ${String((e as Error).message)}`);
      });
    let source: EventSource | null = null;
    if (typeof EventSource !== 'undefined') {
      source = new EventSource(`${url.replace(/\/$/, '')}/watch`);
      source.addEventListener('runs', (e) => {
        try {
          const parsed = parseRuns(JSON.parse((e as MessageEvent<string>).data));
          if (parsed && !stop) {
            setRuns(parsed);
            setError(null);
          }
        } catch {
          // a malformed update: keep the last good list
        }
      });
    }
    return () => {
      stop = true;
      source?.close();
    };
  }, [url]);
  return { runs, error };
}

export interface RunsViewProps {
  url: string;
  /** The live URL of the run open now. */
  current: string | null;
  onOpen: (run: RunEntry) => void;
}

function timeOfDay(iso: string): string {
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? new Date(ms).toLocaleTimeString() : '';
}

/** The list of runs as the receiver holds them, newest first. */
export function RunsView({ url, current, onOpen }: RunsViewProps) {
  const { runs, error } = useRuns(url);
  if (error && !runs) return <p role="alert">{error}</p>;
  if (!runs) return <p className="viewer-muted">Reading the runs…</p>;
  const live = runs.filter((r) => r.status === 'live').length;
  return (
    <div className="viewer-listing viewer-runs">
      <p className="viewer-muted viewer-listing-root" aria-live="polite">
        {runs.length} {runs.length === 1 ? 'run' : 'runs'} · {live} live
      </p>
      {runs.length === 0 ? (
        <p className="viewer-muted">
          Waiting for spans. Point your agent&apos;s OpenTelemetry exporter here:{' '}
          <code>OTEL_EXPORTER_OTLP_ENDPOINT={location.origin}</code>
        </p>
      ) : (
        <div className="viewer-scroll">
          <table className="viewer-table" aria-label="Runs received">
            <thead>
              <tr>
                <th scope="col">Run</th>
                <th scope="col">Status</th>
                <th scope="col" data-numeric="">
                  Spans
                </th>
                <th scope="col" data-numeric="">
                  Events
                </th>
                <th scope="col">Started</th>
              </tr>
            </thead>
            <tbody>
              {runs.map((r) => (
                <tr
                  key={r.id}
                  data-current={r.url === current ? '' : undefined}
                  data-status={r.status}
                >
                  <th scope="row">
                    <button
                      type="button"
                      className="viewer-link"
                      aria-current={r.url === current ? 'true' : undefined}
                      onClick={() => onOpen(r)}
                      title={`${r.id}${r.service ? ` · ${r.service}` : ''}`}
                    >
                      {r.name}
                    </button>
                  </th>
                  <td>
                    <span className={`viewer-run-status viewer-run-status--${r.status}`}>
                      {r.status}
                    </span>
                    {r.errors > 0 ? (
                      <span className="viewer-error-cell">
                        {' '}
                        · {r.errors} {r.errors === 1 ? 'error' : 'errors'}
                      </span>
                    ) : null}
                  </td>
                  <td data-numeric="">{formatCount(r.spans + r.logs)}</td>
                  <td data-numeric="">{formatCount(r.events)}</td>
                  <td>{timeOfDay(r.firstSeen)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
