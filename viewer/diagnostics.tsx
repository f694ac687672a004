// The diagnostics panel (issue 22): what the importer repaired or could not
// read, counted by kind, each linking to its event where its path names one.
import { useMemo, useState } from 'react';
import { countDiagnostics, type Diagnostic, type EventStream } from '../src/index.js';

/** Rows drawn at most; the rest are counted (the panel says so). */
export const DIAGNOSTICS_SHOWN = 500;

/**
 * The event index a diagnostic's path names: the last `events[N]` in it
 * (inspect samples, skein event lists), or `null`. Line formats' paths name
 * source records, which do not map one to one onto events, so they get no link.
 */
export function eventIndexOfPath(path: string): number | null {
  const all = [...path.matchAll(/(?:^\$|\.events)\[(\d+)\]/g)];
  const last = all.at(-1);
  if (!last) return null;
  // `$[N]` alone is a record of a line format; only `$.…events[N]` and a bare
  // `$[N]` from an event list (skein format) carry an event index.
  return Number(last[1]);
}

/**
 * Diagnostics grouped by code, most frequent first; what a cap left unlisted
 * counts toward its code (core `countDiagnostics`).
 */
export const countByCode: (list: readonly Diagnostic[]) => [string, number][] = countDiagnostics;

export interface DiagnosticsPanelProps {
  diagnostics: readonly Diagnostic[];
  stream: EventStream;
  /** `true` when paths index events (inspect, skein): rows then link to their event. */
  linkable: boolean;
  onShowEvent: (uuid: string) => void;
  onClose: () => void;
}

export function DiagnosticsPanel({
  diagnostics,
  stream,
  linkable,
  onShowEvent,
  onClose,
}: DiagnosticsPanelProps) {
  const [code, setCode] = useState<string | null>(null);
  const counts = useMemo(() => countByCode(diagnostics), [diagnostics]);
  // Every repair, listed or not (a cap lists 100 per kind and counts the rest).
  const total = useMemo(() => counts.reduce((sum, [, n]) => sum + n, 0), [counts]);
  const shown = useMemo(
    () =>
      code === null
        ? diagnostics
        : // A kind's "N more not listed" note goes with the kind.
          diagnostics.filter((d) => (d.omitted?.code ?? d.code) === code),
    [diagnostics, code],
  );
  return (
    <aside className="viewer-diagnostics" aria-labelledby="viewer-diagnostics-title">
      <div className="viewer-panel-head">
        <h2 id="viewer-diagnostics-title">Diagnostics ({total})</h2>
        <button type="button" className="viewer-button" onClick={onClose}>
          Close
        </button>
      </div>
      {diagnostics.length === 0 ? (
        <p className="viewer-muted">Nothing was repaired: the log read cleanly.</p>
      ) : (
        <>
          <div className="viewer-chips" role="group" aria-label="Diagnostics by kind">
            <button
              type="button"
              className="viewer-chip"
              aria-pressed={code === null}
              onClick={() => setCode(null)}
            >
              all <span className="viewer-count">{total}</span>
            </button>
            {counts.map(([c, n]) => (
              <button
                key={c}
                type="button"
                className="viewer-chip"
                aria-pressed={code === c}
                onClick={() => setCode(code === c ? null : c)}
              >
                {c} <span className="viewer-count">{n}</span>
              </button>
            ))}
          </div>
          <ul className="viewer-diagnostic-list">
            {shown.slice(0, DIAGNOSTICS_SHOWN).map((d, i) => {
              const index = linkable ? eventIndexOfPath(d.path) : null;
              const event = index === null ? undefined : stream.at(index);
              return (
                <li key={i} data-severity={d.severity} data-code={d.code}>
                  <span className="viewer-diag-code">{d.code}</span> {d.message}
                  <div className="viewer-muted viewer-diag-path">
                    <code>{d.path}</code>
                    {event ? (
                      <>
                        {' '}
                        <button
                          type="button"
                          className="viewer-link"
                          onClick={() => onShowEvent(event.uuid)}
                        >
                          Show event {index}
                        </button>
                      </>
                    ) : null}
                  </div>
                </li>
              );
            })}
          </ul>
          {shown.length > DIAGNOSTICS_SHOWN ? (
            <p className="viewer-muted">
              Showing the first {DIAGNOSTICS_SHOWN} of {shown.length}; choose a kind above to see
              others.
            </p>
          ) : null}
        </>
      )}
    </aside>
  );
}
