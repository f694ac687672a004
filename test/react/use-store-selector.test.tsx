import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useStoreSelector, type ExternalStore } from '../../src/react/index.js';

/** A minimal store with the core's contract: stable snapshot until a change. */
function createCounterStore(initial: { a: number; b: number }) {
  let snapshot = initial;
  const listeners = new Set<() => void>();
  const store: ExternalStore<typeof initial> & { set(next: Partial<typeof initial>): void } = {
    getSnapshot: () => snapshot,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set(next) {
      snapshot = { ...snapshot, ...next };
      for (const l of listeners) l();
    },
  };
  return { store, listeners };
}

describe('useStoreSelector', () => {
  it('renders the selected slice and follows changes', () => {
    const { store } = createCounterStore({ a: 1, b: 1 });
    function A() {
      return <span>a={useStoreSelector(store, (s) => s.a)}</span>;
    }
    render(<A />);
    expect(screen.getByText('a=1')).toBeTruthy();
    act(() => store.set({ a: 2 }));
    expect(screen.getByText('a=2')).toBeTruthy();
  });

  it('does not re-render when an unrelated slice changes', () => {
    const { store } = createCounterStore({ a: 1, b: 1 });
    let renders = 0;
    function A() {
      renders++;
      return <span>{useStoreSelector(store, (s) => s.a)}</span>;
    }
    render(<A />);
    const before = renders;
    act(() => store.set({ b: 5 }));
    act(() => store.set({ b: 6 }));
    expect(renders).toBe(before);
  });

  it('keeps a derived object while isEqual holds', () => {
    const { store } = createCounterStore({ a: 1, b: 1 });
    const seen: Array<{ a: number }> = [];
    function A() {
      const v = useStoreSelector(
        store,
        (s) => ({ a: s.a }),
        (x, y) => x.a === y.a,
      );
      seen.push(v);
      return <span>{v.a}</span>;
    }
    render(<A />);
    act(() => store.set({ b: 2 }));
    act(() => store.set({ a: 3 }));
    expect(screen.getByText('3')).toBeTruthy();
    // One object for a=1 across the unrelated change, a new one for a=3.
    expect(new Set(seen).size).toBe(2);
  });

  it('unsubscribes on unmount', () => {
    const { store, listeners } = createCounterStore({ a: 1, b: 1 });
    function A() {
      return <span>{useStoreSelector(store, (s) => s.a)}</span>;
    }
    const { unmount } = render(<A />);
    expect(listeners.size).toBe(1);
    unmount();
    expect(listeners.size).toBe(0);
  });
});
