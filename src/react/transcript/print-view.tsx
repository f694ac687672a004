import { createPortal } from 'react-dom';
import type { DescriberRegistry, Event, Trust } from '../../index.js';
import { RowBody } from './row.js';
import { formatCount } from '../../core/format.js';

/**
 * The most events a print renders. A virtualized list prints only the rows
 * in its DOM, so printing draws the events again, all of them, outside the
 * list: past this many the page would take minutes to lay out, and the
 * print says what it left out.
 *
 * @example
 * declare const selected: number;
 * const note = selected > PRINT_MAX_EVENTS ? 'select fewer events to print them all' : '';
 */
export const PRINT_MAX_EVENTS = 1000;

export interface PrintViewProps {
  events: readonly Event[];
  /** Events there were before the cap ({@link PRINT_MAX_EVENTS}). */
  total: number;
  /** What was printed: the selection or every row. */
  selection: boolean;
  label: string;
  trust: Trust;
  describers: DescriberRegistry | undefined;
}

/**
 * The events to print, drawn in full (no virtualization) into a container on
 * `<body>` that only print media shows (`.skein-print`; the page's own
 * content is hidden while `<html data-skein-printing>` is set).
 */
export function PrintView(p: PrintViewProps) {
  const cut = p.total > p.events.length;
  return createPortal(
    <div className="skein-print" data-skein-print="">
      <h1 className="skein-print__title">
        {p.label}: {p.selection ? 'selected events' : 'events'} ({formatCount(p.total)})
      </h1>
      {cut ? (
        <p className="skein-print__notice" role="note">
          Printed the first {formatCount(p.events.length)} of {formatCount(p.total)} events; select
          the events you want to print them.
        </p>
      ) : null}
      {p.events.map((event, i) => (
        <article key={`${event.uuid}-${i}`} className="skein-print__event">
          <RowBody
            event={event}
            titleId={`skein-print-${i}`}
            span={null}
            hasChildren={false}
            expanded={false}
            trust={p.trust}
            describers={p.describers}
          />
        </article>
      ))}
    </div>,
    document.body,
  );
}
