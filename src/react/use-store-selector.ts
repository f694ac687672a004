import { useCallback, useRef, useSyncExternalStore } from 'react';

/**
 * The shape every stateful core object exposes to React: `getSnapshot()`
 * returns the same reference until something changes, and `subscribe()`
 * registers a listener and returns its unsubscribe function.
 */
export interface ExternalStore<T> {
  getSnapshot(): T;
  subscribe(listener: () => void): () => void;
}

/**
 * Reads a slice of a core store and re-renders only when that slice changes.
 * The one bridge between skein's headless stores and React (STYLE §3).
 *
 * `selector` may return a new object each time: the previous result is kept
 * while `isEqual(previous, next)` holds (default `Object.is`), so components
 * selecting derived data do not re-render on unrelated changes.
 *
 * @example
 * const count = useStoreSelector(stream, (s) => s.length);
 */
export function useStoreSelector<T, S>(
  store: ExternalStore<T>,
  selector: (snapshot: T) => S,
  isEqual: (a: S, b: S) => boolean = Object.is,
): S {
  // Memoize per (snapshot, selector): useSyncExternalStore calls getSnapshot
  // on every render and requires a stable result for an unchanged store.
  const memo = useRef<{ snapshot: T; selected: S } | null>(null);
  const subscribe = useCallback((listener: () => void) => store.subscribe(listener), [store]);
  const getSelection = (): S => {
    const snapshot = store.getSnapshot();
    const previous = memo.current;
    if (previous && previous.snapshot === snapshot) return previous.selected;
    const next = selector(snapshot);
    if (previous && isEqual(previous.selected, next)) {
      memo.current = { snapshot, selected: previous.selected };
      return previous.selected;
    }
    memo.current = { snapshot, selected: next };
    return next;
  };
  return useSyncExternalStore(subscribe, getSelection, getSelection);
}
