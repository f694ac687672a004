import { act, render, screen } from '@testing-library/react';
import { useSyncExternalStore } from 'react';
import { describe, expect, it } from 'vitest';
import { EventStream, createMimeRegistry } from '../../src/index.js';
import { useStoreSelector, type ExternalStore } from '../../src/react.js';

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

  it('applies a new selector at once, though the snapshot did not change (issue 16)', () => {
    const { store } = createCounterStore({ a: 1, b: 7 });
    // Same component instance, new selector: the prop is read by the selector.
    function Field({ k }: { k: 'a' | 'b' }) {
      return <span>v={useStoreSelector(store, (s) => s[k])}</span>;
    }
    const { rerender } = render(<Field k="a" />);
    expect(screen.getByText('v=1')).toBeTruthy();
    rerender(<Field k="b" />);
    expect(screen.getByText('v=7')).toBeTruthy();
  });

  it('keeps the previous value across a new but equal selector', () => {
    const { store } = createCounterStore({ a: 1, b: 1 });
    const seen: Array<{ a: number }> = [];
    function A({ n }: { n: number }) {
      const v = useStoreSelector(
        store,
        (s) => ({ a: s.a + n * 0 }),
        (x, y) => x.a === y.a,
      );
      seen.push(v);
      return <span>{v.a}</span>;
    }
    const { rerender } = render(<A n={1} />);
    rerender(<A n={2} />);
    expect(new Set(seen).size).toBe(1);
  });

  it('reads core stores whose subscribe/getSnapshot are passed unbound', async () => {
    const stream = new EventStream();
    // The JSDoc example of EventStream.getSnapshot: both functions detached.
    const { subscribe, getSnapshot } = stream;
    function Count() {
      return <span>n={useSyncExternalStore(subscribe, getSnapshot).length}</span>;
    }
    render(<Count />);
    expect(screen.getByText('n=0')).toBeTruthy();
    await act(async () => {
      stream.append({ event: 'info', uuid: 'a', timestamp: '2026-01-01T00:00:00Z', data: 'x' });
      await Promise.resolve();
    });
    expect(screen.getByText('n=1')).toBeTruthy();
    const registry = createMimeRegistry();
    const { subscribe: sub, getSnapshot: get } = registry;
    let calls = 0;
    const off = sub(() => calls++);
    registry.add({ mimeTypes: ['text/plain'], rank: 1, safe: true });
    expect(get()).toHaveLength(1);
    expect(calls).toBe(1);
    off();
  });
});
