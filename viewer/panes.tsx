// Resizable panes: two children and a separator between them that the pointer
// drags and the keyboard moves (WAI-ARIA window splitter: a focusable
// `role="separator"` with its value), sizes remembered in localStorage.
import {
  useCallback,
  useEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type PointerEvent,
  type ReactNode,
} from 'react';

const STORAGE_PREFIX = 'skein-viewer.pane.';
const STEP = 16;
const BIG_STEP = 64;

/** The size remembered for pane `id`, or `fallback`. */
export function readPaneSize(id: string, fallback: number): number {
  try {
    const raw = globalThis.localStorage?.getItem(STORAGE_PREFIX + id);
    const n = raw === null || raw === undefined ? NaN : Number(raw);
    return Number.isFinite(n) && n > 0 ? n : fallback;
  } catch {
    return fallback; // storage denied (privacy mode, sandboxed frame)
  }
}

function writePaneSize(id: string, size: number): void {
  try {
    globalThis.localStorage?.setItem(STORAGE_PREFIX + id, String(Math.round(size)));
  } catch {
    // not remembered, still resized
  }
}

export interface SplitProps {
  /** Names the remembered size (`skein-viewer.pane.<id>`). */
  id: string;
  /** `row`: side by side, the separator is vertical; `column`: stacked. */
  direction: 'row' | 'column';
  /** The first pane's size, px, before anything is remembered. */
  defaultSize: number;
  min: number;
  max: number;
  /** The separator's accessible name, e.g. "Resize the span tree". */
  label: string;
  first: ReactNode;
  second: ReactNode;
  className?: string;
}

/**
 * Two panes and a separator. ←/→ (↑/↓ stacked) move it by 16 px, with
 * Shift by 64; Home and End go to the limits; Enter toggles between the
 * smallest size and the last one.
 */
export function Split({
  id,
  direction,
  defaultSize,
  min,
  max,
  label,
  first,
  second,
  className,
}: SplitProps) {
  const [size, setSizeState] = useState(() => clamp(readPaneSize(id, defaultSize), min, max));
  const restore = useRef(size);
  const setSize = useCallback(
    (next: number) => {
      const v = clamp(next, min, max);
      setSizeState(v);
      writePaneSize(id, v);
    },
    [id, min, max],
  );
  const drag = useRef<{ start: number; size: number } | null>(null);
  const row = direction === 'row';

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = e.shiftKey ? BIG_STEP : STEP;
    const less = row ? 'ArrowLeft' : 'ArrowUp';
    const more = row ? 'ArrowRight' : 'ArrowDown';
    let next: number | null = null;
    if (e.key === less) next = size - step;
    else if (e.key === more) next = size + step;
    else if (e.key === 'Home') next = min;
    else if (e.key === 'End') next = max;
    else if (e.key === 'Enter') {
      if (size > min) {
        restore.current = size;
        next = min;
      } else next = restore.current > min ? restore.current : defaultSize;
    }
    if (next === null) return;
    e.preventDefault();
    setSize(next);
  };
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    e.preventDefault();
    e.currentTarget.setPointerCapture?.(e.pointerId);
    drag.current = { start: row ? e.clientX : e.clientY, size };
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d) return;
    setSize(d.size + (row ? e.clientX : e.clientY) - d.start);
  };
  const onPointerUp = () => {
    drag.current = null;
  };

  // Another tab or window resized the same pane: follow it.
  useEffect(() => {
    const onStorage = (e: StorageEvent) => {
      if (e.key === STORAGE_PREFIX + id && e.newValue !== null) {
        const n = Number(e.newValue);
        if (Number.isFinite(n)) setSizeState(clamp(n, min, max));
      }
    };
    addEventListener('storage', onStorage);
    return () => removeEventListener('storage', onStorage);
  }, [id, min, max]);

  const template = `${size}px var(--viewer-separator) minmax(0, 1fr)`;
  return (
    <div
      className={`viewer-split viewer-split--${direction}${className ? ` ${className}` : ''}`}
      style={row ? { gridTemplateColumns: template } : { gridTemplateRows: template }}
      data-pane={id}
    >
      <div className="viewer-pane" id={`pane-${id}`}>
        {first}
      </div>
      {/* A focusable separator is a widget (WAI-ARIA window splitter pattern);
          jsx-a11y counts every separator as static. */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions */}
      <div
        role="separator"
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
        tabIndex={0}
        aria-label={label}
        aria-controls={`pane-${id}`}
        aria-orientation={row ? 'vertical' : 'horizontal'}
        aria-valuenow={Math.round(size)}
        aria-valuemin={min}
        aria-valuemax={max}
        className="viewer-separator"
        onKeyDown={onKeyDown}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
      />
      <div className="viewer-pane">{second}</div>
    </div>
  );
}

function clamp(n: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, n));
}
