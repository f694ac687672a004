import { useCallback, useRef, useSyncExternalStore } from 'react';

/**
 * The shape every stateful core object exposes to React: `getSnapshot()`
 * returns the same reference until something changes, and `subscribe()`
 * registers a listener and returns its unsubscribe function.
 *
 * @example
 * const store: ExternalStore<number> = { getSnapshot: () => 1, subscribe: () => () => {} };
 */
export interface ExternalStore<T> {
  getSnapshot(): T;
  subscribe(listener: () => void): () => void;
}

/** The last selection: what it was computed from, and the value handed out. */
interface Selection<T, S> {
  snapshot: T;
  selector: (snapshot: T) => S;
  selected: S;
}

/**
 * Reads a slice of a core store and re-renders only when that slice changes.
 * The one bridge between skein's headless stores and React (`subscribe`/`getSnapshot`): every
 * component reads a store through it, none calls `useSyncExternalStore` itself.
 *
 * `selector` may return a new object each time: the previous result is kept
 * while `isEqual(previous, next)` holds (default `Object.is`), so components
 * selecting derived data do not re-render on unrelated changes. The result is
 * cached per snapshot **and** selector: a new selector (one that closes over a
 * changed prop) is applied at once, even when the store did not change.
 *
 * `store.getSnapshot`/`store.subscribe` are called as methods, so a store need
 * not bind them.
 *
 * @example
 * const count = useStoreSelector(stream, (s) => s.length);
 * declare const feed: TranscriptFeed;
 * declare const index: number;
 * const row = useStoreSelector(feed, (s) => s.tree.events[index]); // follows `index`
 */
export function useStoreSelector<T, S>(
  store: ExternalStore<T>,
  selector: (snapshot: T) => S,
  isEqual: (a: S, b: S) => boolean = Object.is,
): S {
  // useSyncExternalStore calls getSnapshot on every render (and again to check
  // for tearing) and requires a stable result for an unchanged store: memoize
  // on (snapshot, selector). Keying on the snapshot alone returned the old
  // selector's value after the selector changed.
  const memo = useRef<Selection<T, S> | null>(null);
  const subscribe = useCallback((listener: () => void) => store.subscribe(listener), [store]);
  const getSelection = (): S => {
    const snapshot = store.getSnapshot();
    const previous = memo.current;
    if (previous !== null && previous.snapshot === snapshot && previous.selector === selector)
      return previous.selected;
    const next = selector(snapshot);
    const selected =
      previous !== null && isEqual(previous.selected, next) ? previous.selected : next;
    memo.current = { snapshot, selector, selected };
    return selected;
  };
  return useSyncExternalStore(subscribe, getSelection, getSelection);
}
