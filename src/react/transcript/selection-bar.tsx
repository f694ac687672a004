import { useRef } from 'react';
import { useRovingToolbar } from '../use-roving-toolbar.js';

export interface SelectionBarProps {
  /** Rows selected together. */
  count: number;
  /** Rows in the transcript (what Print takes when nothing is selected). */
  rows: number;
  onCopyMarkdown: () => void;
  onCopyJson: () => void;
  onDownload: () => void;
  onPrint: () => void;
  onClear: () => void;
  /** The last action's outcome ("Copied 3 events as Markdown", a refusal). */
  message: string;
}

const numberFormat = new Intl.NumberFormat('en-US');

/**
 * The actions on the rows selected together (`<Transcript selectable>`):
 * copy as Markdown or JSON, download as JSON Lines, print, clear. An APG
 * toolbar (one Tab stop, ← / → between its buttons), with a polite status
 * region that says what the last action did.
 */
export function SelectionBar(p: SelectionBarProps) {
  const ref = useRef<HTMLDivElement>(null);
  const roving = useRovingToolbar(ref);
  const none = p.count === 0;
  const what = `${numberFormat.format(p.count)} ${p.count === 1 ? 'event' : 'events'}`;
  return (
    <div
      ref={ref}
      role="toolbar"
      aria-label="Selected events"
      className="skein-transcript__selection"
      {...roving}
    >
      <span className="skein-transcript__selection-count">
        {none ? 'None selected (click, Shift+click, Shift+↓)' : `${what} selected`}
      </span>
      <button type="button" disabled={none} onClick={p.onCopyMarkdown}>
        Copy Markdown
      </button>
      <button type="button" disabled={none} onClick={p.onCopyJson}>
        Copy JSON
      </button>
      <button type="button" disabled={none} onClick={p.onDownload}>
        Download .jsonl
      </button>
      <button type="button" disabled={none && p.rows === 0} onClick={p.onPrint}>
        {none ? 'Print all' : 'Print'}
      </button>
      <button type="button" disabled={none} onClick={p.onClear}>
        Clear
      </button>
      <span role="status" className="skein-transcript__selection-status">
        {p.message}
      </span>
    </div>
  );
}
