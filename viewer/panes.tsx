// Resizable panes: two children and a separator between them that the pointer
// drags and the keyboard moves (WAI-ARIA window splitter: a focusable
// `role="separator"` with its value), sizes remembered in localStorage.
import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type PointerEvent,
  type ReactNode,
} from 'react';

const STORAGE_PREFIX = 'skein-viewer.pane.';
const STEP = 16;
const BIG_STEP = 64;
/** The separator's thickness, px (`--viewer-separator` in viewer.css). */
const SEPARATOR = 6;

/** Below this width (px) the viewer stacks or tabs what sits side by side above it. */
export const NARROW = 640;

/** An element's content-box size. */
export interface Size {
  readonly width: number;
  readonly height: number;
}

/**
 * The size of an element, kept current by a ResizeObserver: give the element
 * the returned ref. `null` until measured; the first measure is taken before
 * the first paint, so a layout chosen from it never paints the wrong one first.
 * While the element is not rendered at all, the last size stands.
 */
export function useElementSize<T extends HTMLElement>(): [(el: T | null) => void, Size | null] {
  const [el, setEl] = useState<T | null>(null);
  const [size, setSize] = useState<Size | null>(null);
  useLayoutEffect(() => {
    if (el === null) return;
    const read = () => {
      const width = el.clientWidth;
      const height = el.clientHeight;
      setSize((s) => {
        // Not rendered (display: none — a page laid out for print, where only
        // the print view shows, or a hidden tab): keep the last size, so a
        // layout chosen from it does not flip and remount what it holds.
        if (s !== null && el.getClientRects().length === 0) return s;
        return s && s.width === width && s.height === height ? s : { width, height };
      });
    };
    read();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(read);
    observer.observe(el);
    return () => observer.disconnect();
  }, [el]);
  return [setEl, size];
}

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
  /**
   * The least the second pane keeps, px: in a box too small for the first
   * pane's size, the first gives way (down to `min`), so the second is never
   * squeezed to nothing or pushed off screen.
   */
  minSecond?: number;
  /** The first pane folded away: kept mounted but hidden, with no separator; the second takes the room. */
  hideFirst?: boolean;
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
  max: maxSize,
  label,
  minSecond = 0,
  hideFirst = false,
  first,
  second,
  className,
}: SplitProps) {
  const row = direction === 'row';
  const [box, measured] = useElementSize<HTMLDivElement>();
  // The largest first pane that leaves the second its `minSecond`. A box of
  // no size is not laid out (hidden, or no layout at all): no limit from it.
  const extent = measured === null ? 0 : row ? measured.width : measured.height;
  const room = extent > 0 ? extent - SEPARATOR : null;
  const max = room === null ? maxSize : Math.max(min, Math.min(maxSize, room - minSecond));
  const [stored, setSizeState] = useState(() => readPaneSize(id, defaultSize));
  // Another pane in the same place (the sidebar beside the run, then above
  // it): its own remembered size, not the last one's.
  const [storedFor, setStoredFor] = useState(id);
  if (storedFor !== id) {
    setStoredFor(id);
    setSizeState(readPaneSize(id, defaultSize));
  }
  const size = clamp(stored, min, max);
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
        if (Number.isFinite(n) && n > 0) setSizeState(n);
      }
    };
    addEventListener('storage', onStorage);
    return () => removeEventListener('storage', onStorage);
  }, [id]);

  const template = hideFirst
    ? 'minmax(0, 1fr)'
    : `${size}px var(--viewer-separator) minmax(0, 1fr)`;
  return (
    <div
      ref={box}
      className={`viewer-split viewer-split--${direction}${className ? ` ${className}` : ''}`}
      style={row ? { gridTemplateColumns: template } : { gridTemplateRows: template }}
      data-pane={id}
    >
      <div className="viewer-pane" id={`pane-${id}`} hidden={hideFirst}>
        {first}
      </div>
      {/* A focusable separator is a widget (WAI-ARIA window splitter pattern);
          jsx-a11y counts every separator as static. */}
      {hideFirst ? null : (
        // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions
        <div
          role="separator"
          // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
          tabIndex={0}
          aria-label={label}
          aria-controls={`pane-${id}`}
          aria-orientation={row ? 'vertical' : 'horizontal'}
          aria-valuenow={Math.round(size)}
          aria-valuemin={min}
          aria-valuemax={Math.round(max)}
          className="viewer-separator"
          onKeyDown={onKeyDown}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={onPointerUp}
        />
      )}
      <div className="viewer-pane">{second}</div>
    </div>
  );
}

function clamp(n: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, n));
}
