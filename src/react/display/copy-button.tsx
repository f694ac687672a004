import { useEffect, useRef, useState } from 'react';

/**
 * Props of {@link CopyButton}.
 *
 * @example
 * const props: CopyButtonProps = { text: 'ls -la', label: 'Copy command' };
 */
export interface CopyButtonProps {
  /** The text put on the clipboard. */
  text: string;
  /** The accessible name, e.g. `Copy python code`. */
  label?: string;
}

/**
 * A button that copies `text` to the clipboard and says so in a polite live
 * region (the label itself stays stable for screen readers).
 *
 * @example
 * declare const source: string;
 * <CopyButton text={source} label="Copy code" />;
 */
export function CopyButton({ text, label = 'Copy code' }: CopyButtonProps) {
  const [status, setStatus] = useState<'' | 'Copied' | 'Copy failed'>('');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = async () => {
    let next: typeof status = 'Copied';
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      // No clipboard permission (or no secure context): say so instead of failing silently.
      next = 'Copy failed';
    }
    setStatus(next);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setStatus(''), 2000);
  };
  return (
    <span className="skein-copy">
      <button
        type="button"
        className="skein-display__button skein-copy__button"
        aria-label={label}
        onClick={() => void copy()}
      >
        {status === 'Copied' ? 'Copied' : 'Copy'}
      </button>
      <span className="skein-visually-hidden" role="status">
        {status}
      </span>
    </span>
  );
}
