// The keyboard map, on `?` (issue 22).
import { useEffect, useRef } from 'react';

export const KEYS: readonly (readonly [string, string])[] = [
  ['?', 'Show or hide this keyboard map'],
  ['o', 'Open files'],
  ['d', 'Show or hide diagnostics'],
  ['Esc', 'Close this map, the diagnostics or find'],
  ['Transcript: j / k, ↓ / ↑', 'Next / previous event'],
  ['Transcript: Home / End', 'First / last event'],
  ['Transcript: PageDown / PageUp', 'A page of events down / up'],
  ['Transcript: Enter / Space', 'Open or close a section'],
  ['Transcript: / or Ctrl+F', 'Find'],
  ['Transcript: click, Ctrl+click, Shift+click', 'Select one event, add one, select a range'],
  ['Transcript: Shift+↓ / ↑, Shift+Home / End', 'Extend the selection'],
  ['Transcript: Ctrl+A / Esc', 'Select every event / clear the selection'],
  ['Span tree: ↑ ↓ ← →', 'Move, open and close spans'],
  ['Span tree: Home / End', 'First / last span'],
  ['Span tree: PageDown / PageUp', 'A page of spans down / up'],
  ['Span tree: * ', 'Open all siblings'],
  ['Span tree: type letters', 'Jump to a span by name'],
  ['Separator: ← → (↑ ↓)', 'Resize panes (Shift: faster)'],
  ['Separator: Home / End / Enter', 'Smallest / largest / fold the pane'],
  ['Tabs (narrow screens): ← → / Home / End', 'Show the previous / next / first / last view'],
];

export function KeyboardHelp({ onClose }: { onClose: () => void }) {
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    close.current?.focus();
    return () => before?.focus?.();
  }, []);
  return (
    <div className="viewer-backdrop">
      {/* A modal dialog handles Escape and keeps Tab inside (APG dialog pattern). */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions */}
      <div
        role="dialog"
        aria-modal="true"
        aria-labelledby="viewer-keys-title"
        className="viewer-dialog"
        onKeyDown={(e) => {
          if (e.key === 'Escape' || e.key === '?') {
            e.preventDefault();
            e.stopPropagation();
            onClose();
          }
          // Keep Tab inside the dialog: its only control is the close button.
          if (e.key === 'Tab') {
            e.preventDefault();
            close.current?.focus();
          }
        }}
      >
        <div className="viewer-panel-head">
          <h2 id="viewer-keys-title">Keyboard</h2>
          <button ref={close} type="button" className="viewer-button" onClick={onClose}>
            Close
          </button>
        </div>
        <table className="viewer-table viewer-keys">
          <tbody>
            {KEYS.map(([k, v]) => (
              <tr key={k}>
                <th scope="row">
                  <kbd>{k}</kbd>
                </th>
                <td>{v}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
