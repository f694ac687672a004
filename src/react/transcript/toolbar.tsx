import { useRef } from 'react';
import { DEFAULT_HIDDEN_KINDS, type TranscriptRows } from '../../index.js';
import { useRovingToolbar } from '../use-roving-toolbar.js';
import { ConnectionStatus, type TranscriptConnection } from './connection-status.js';
import type { TranscriptWarning } from './layout.js';
import { formatCount } from '../../core/format.js';

/** A thrown value's message, for people (never throws itself). */
function messageOf(error: unknown): string {
  try {
    if (error instanceof Error) return error.message || error.name;
    return String(error);
  } catch {
    return 'unknown error';
  }
}

export interface ToolbarProps {
  events: number;
  loading: boolean;
  failed: boolean;
  error: unknown;
  rows: TranscriptRows;
  filter: readonly string[];
  setFilter: (hiddenKinds: readonly string[]) => void;
  findOpen: boolean;
  onFindToggle: () => void;
  /** A layout problem to show (development builds without `onWarning`). */
  warning: TranscriptWarning | null;
  /** A live connection whose status to show. */
  connection?: TranscriptConnection | undefined;
}

/**
 * The transcript's toolbar: event count, source failure, kind filter, find
 * toggle. One Tab stop (APG toolbar: ← / → between its buttons), so the
 * first row is the second stop into the transcript.
 */
export function Toolbar({
  events,
  loading,
  failed,
  error,
  rows,
  filter,
  setFilter,
  findOpen,
  onFindToggle,
  warning,
  connection,
}: ToolbarProps) {
  const hiddenSummary = [...rows.hiddenByKind].map(([k, n]) => `${n} ${k}`).join(', ');
  const ref = useRef<HTMLDivElement>(null);
  const roving = useRovingToolbar(ref);
  const hiddenText = `${formatCount(rows.hiddenCount)} hidden (${hiddenSummary})`;
  return (
    <div
      ref={ref}
      role="toolbar"
      aria-label="Transcript controls"
      className="skein-transcript__toolbar"
      {...roving}
    >
      <span className="skein-transcript__count">
        {formatCount(events)} events{loading ? ' (loading…)' : ''}
      </span>
      <ConnectionStatus connection={connection} />
      {failed ? (
        <span role="alert" className="skein-transcript__error">
          The event source failed: {messageOf(error)}; showing {formatCount(events)}{' '}
          {events === 1 ? 'event' : 'events'} received before it
        </span>
      ) : null}
      {warning !== null ? (
        <span role="note" className="skein-transcript__warning" data-code={warning.code}>
          Layout ({warning.code}, development builds only): {warning.message}
        </span>
      ) : null}
      {rows.hiddenCount > 0 ? (
        <>
          <span className="skein-transcript__hidden" title={hiddenText}>
            {hiddenText}
          </span>
          <button type="button" onClick={() => setFilter([])}>
            Show all
          </button>
        </>
      ) : filter.length === 0 ? (
        <button type="button" onClick={() => setFilter(DEFAULT_HIDDEN_KINDS)}>
          Hide {DEFAULT_HIDDEN_KINDS.join(', ')}
        </button>
      ) : null}
      <button
        type="button"
        className="skein-transcript__find-toggle"
        aria-expanded={findOpen}
        onClick={onFindToggle}
      >
        Find
      </button>
    </div>
  );
}
