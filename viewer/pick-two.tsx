// Two entries of a list (the folder's logs, the open logs) chosen with
// checkboxes, then compared (compare.tsx draws the comparison).
import { useState } from 'react';

/**
 * Two entries of a list chosen for comparison (the folder's logs, the open
 * logs): choosing a third drops the one chosen first.
 */
export function usePickTwo(): {
  picked: readonly string[];
  toggle: (key: string) => void;
  clear: () => void;
} {
  const [picked, setPicked] = useState<readonly string[]>([]);
  return {
    picked,
    toggle: (key) =>
      setPicked((p) => (p.includes(key) ? p.filter((k) => k !== key) : [...p, key].slice(-2))),
    clear: () => setPicked([]),
  };
}

/** A list's "Compare" checkbox for one entry. */
export function PickBox({
  name,
  checked,
  onToggle,
}: {
  name: string;
  checked: boolean;
  onToggle: () => void;
}) {
  return (
    <input
      type="checkbox"
      className="viewer-pick"
      aria-label={`Compare ${name}`}
      checked={checked}
      onChange={onToggle}
    />
  );
}

/** Under a list with checkboxes: what to do with the two chosen. */
export function PickBar({
  count,
  onCompare,
  onClear,
}: {
  count: number;
  onCompare: () => void;
  onClear: () => void;
}) {
  return (
    <div className="viewer-pick-bar">
      <button
        type="button"
        className="viewer-button viewer-button--primary"
        disabled={count !== 2}
        onClick={onCompare}
      >
        Compare {count === 2 ? 'the two' : 'two'}
      </button>
      <span className="viewer-muted" aria-live="polite">
        {count === 2 ? '2 chosen' : `${count} of 2 chosen`}
      </span>
      {count ? (
        <button type="button" className="viewer-link" onClick={onClear}>
          Clear
        </button>
      ) : null}
    </div>
  );
}
