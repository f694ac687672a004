import { useCallback, useRef, type KeyboardEvent, type RefObject } from 'react';
import { useIsomorphicLayoutEffect } from './list/use-isomorphic-layout-effect.js';

/** What counts as a control of a toolbar. */
const CONTROLS = 'button, input, select, textarea, summary, a[href], [data-toolbar-item]';

/** Inside one of these, a control belongs to a popup the toolbar opened, not to the toolbar. */
const POPUP = '[data-toolbar-popup]';

function controlsOf(toolbar: HTMLElement): HTMLElement[] {
  const out: HTMLElement[] = [];
  for (const el of toolbar.querySelectorAll<HTMLElement>(CONTROLS)) {
    if ((el as HTMLButtonElement).disabled === true) continue;
    if (el.closest(POPUP) !== null && !el.matches(POPUP)) continue;
    // Hidden by a container query (or `display: none`): not a stop. Where
    // layout is unknown (no `checkVisibility`), every control counts.
    if (typeof el.checkVisibility === 'function' && !el.checkVisibility()) continue;
    out.push(el);
  }
  return out;
}

/** A text field keeps ← and → for its caret until the caret is at that end. */
function caretKeepsKey(el: HTMLElement, key: string): boolean {
  if (!(el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement)) return false;
  let start: number | null;
  let end: number | null;
  try {
    start = el.selectionStart;
    end = el.selectionEnd;
  } catch {
    return false; // a type with no caret (checkbox, range…)
  }
  if (start === null || end === null) return false;
  if (key === 'Home' || key === 'End') return true;
  if (start !== end) return true;
  return key === 'ArrowLeft' ? start > 0 : end < el.value.length;
}

/**
 * A toolbar as the WAI-ARIA APG toolbar pattern has it: one Tab stop (the
 * control last used, else the first), ← / → move between its controls (the
 * other way round in a right-to-left toolbar), Home / End go to the ends.
 * A text field keeps the arrows while its caret can move; controls inside a
 * `[data-toolbar-popup]` the toolbar opened are ordinary Tab stops.
 *
 * Give the returned `onKeyDown` and `onFocus` to the element with
 * `role="toolbar"` whose ref is `ref`. Tab indexes are set on the controls
 * after every commit (controls come and go, get disabled), so the controls
 * themselves take no `tabIndex` prop.
 *
 * @example
 * import { useRef } from 'react';
 * import { useRovingToolbar } from './use-roving-toolbar.js';
 * function Controls() {
 *   const ref = useRef<HTMLDivElement>(null);
 *   const roving = useRovingToolbar(ref);
 *   return (
 *     <div role="toolbar" aria-label="Controls" ref={ref} {...roving}>
 *       <button type="button">Expand all</button>
 *       <button type="button">Collapse all</button>
 *     </div>
 *   );
 * }
 */
export function useRovingToolbar(ref: RefObject<HTMLElement | null>) {
  const active = useRef<HTMLElement | null>(null);
  useIsomorphicLayoutEffect(() => {
    const toolbar = ref.current;
    if (toolbar === null) return;
    // This runs after every commit (a streaming transcript commits once a
    // frame): the control last used is kept while it is still an enabled
    // control of the toolbar, without reading styles; only choosing a new
    // one asks the browser what is visible (a forced style recalculation).
    const kept = active.current;
    const current =
      kept !== null &&
      toolbar.contains(kept) &&
      (kept as HTMLButtonElement).disabled !== true &&
      kept.matches(CONTROLS)
        ? kept
        : (controlsOf(toolbar)[0] ?? null);
    active.current = current;
    for (const el of toolbar.querySelectorAll<HTMLElement>(CONTROLS)) {
      if (el.closest(POPUP) !== null && !el.matches(POPUP)) continue;
      const index = el === current ? 0 : -1;
      if (el.tabIndex !== index) el.tabIndex = index;
    }
  });

  // A container query can hide the kept control when the toolbar's width
  // changes: then the first visible control becomes the Tab stop.
  useIsomorphicLayoutEffect(() => {
    const toolbar = ref.current;
    if (toolbar === null || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      const kept = active.current;
      if (kept === null || typeof kept.checkVisibility !== 'function' || kept.checkVisibility()) {
        return;
      }
      const next = controlsOf(toolbar)[0] ?? null;
      if (next === null) return;
      kept.tabIndex = -1;
      next.tabIndex = 0;
      active.current = next;
    });
    observer.observe(toolbar);
    return () => observer.disconnect();
  }, [ref]);

  const onFocus = useCallback(
    (e: { target: EventTarget }) => {
      const toolbar = ref.current;
      const el = e.target;
      if (toolbar === null || !(el instanceof HTMLElement)) return;
      if (!controlsOf(toolbar).includes(el)) return;
      if (active.current !== null && active.current !== el) active.current.tabIndex = -1;
      active.current = el;
      el.tabIndex = 0;
    },
    [ref],
  );

  const onKeyDown = useCallback(
    (e: KeyboardEvent<HTMLElement>) => {
      const toolbar = ref.current;
      const key = e.key;
      if (toolbar === null || e.altKey || e.ctrlKey || e.metaKey) return;
      if (key !== 'ArrowLeft' && key !== 'ArrowRight' && key !== 'Home' && key !== 'End') return;
      const target = e.target as HTMLElement;
      const controls = controlsOf(toolbar);
      const at = controls.indexOf(target);
      if (at < 0 || caretKeepsKey(target, key)) return;
      const rtl = getComputedStyle(toolbar).direction === 'rtl';
      const forward = key === 'ArrowRight' ? !rtl : key === 'ArrowLeft' ? rtl : false;
      const to =
        key === 'Home'
          ? 0
          : key === 'End'
            ? controls.length - 1
            : (at + (forward ? 1 : -1) + controls.length) % controls.length;
      const next = controls[to];
      if (next === undefined) return;
      // Handled here: not also a key of the widget around the toolbar.
      e.preventDefault();
      e.stopPropagation();
      onFocus({ target: next });
      next.focus();
    },
    [ref, onFocus],
  );

  return { onKeyDown, onFocus };
}
