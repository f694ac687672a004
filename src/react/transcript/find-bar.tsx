import type { RefObject } from 'react';
import { formatCount } from '../../core/format.js';

export interface FindBarProps {
  inputRef: RefObject<HTMLInputElement | null>;
  query: string;
  onQueryChange: (query: string) => void;
  count: number;
  /** 1-based position of the current match, 0 for none. */
  current: number;
  searching: boolean;
  scanned: number;
  total: number;
  onNext: () => void;
  onPrevious: () => void;
  onClose: () => void;
}

/** The find bar of a transcript: a search field, the match count, next/previous. */
export function FindBar({
  inputRef,
  query,
  onQueryChange,
  count,
  current,
  searching,
  scanned,
  total,
  onNext,
  onPrevious,
  onClose,
}: FindBarProps) {
  const status =
    query === ''
      ? ''
      : `${current > 0 ? `${formatCount(current)} of ` : ''}${formatCount(count)} ${
          count === 1 ? 'match' : 'matches'
        }${searching ? ` (searching ${Math.floor((scanned / Math.max(1, total)) * 100)}%)` : ''}`;
  return (
    <div className="skein-transcript__find" role="search">
      <input
        ref={inputRef}
        type="search"
        aria-label="Find in transcript"
        placeholder="Find in transcript"
        value={query}
        onChange={(e) => onQueryChange(e.target.value)}
        // The find bar opens on a user's request (Ctrl/Cmd-F or /).
        // eslint-disable-next-line jsx-a11y/no-autofocus
        autoFocus
      />
      <output className="skein-transcript__find-count" aria-live="polite">
        {status}
      </output>
      <button type="button" onClick={onPrevious} disabled={count === 0} aria-label="Previous match">
        ↑
      </button>
      <button type="button" onClick={onNext} disabled={count === 0} aria-label="Next match">
        ↓
      </button>
      <button type="button" onClick={onClose} aria-label="Close find">
        ×
      </button>
    </div>
  );
}
