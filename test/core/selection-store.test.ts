import { isExpanded, withExpanded } from '../../src/core/selection/selection-store.js';
import { describe, expect, it, vi } from 'vitest';
import { createSelectionStore } from '../../src/index.js';

describe('createSelectionStore', () => {
  it('starts empty with everything expanded', () => {
    const s = createSelectionStore().getSnapshot();
    expect(s).toMatchObject({ selected: null, focused: null, hovered: null, playhead: null });
    expect(isExpanded(s.expanded, 'any')).toBe(true);
  });

  it('notifies once per change, keeps the snapshot while nothing changes', () => {
    const store = createSelectionStore({ selected: 'a' });
    const listener = vi.fn();
    const stop = store.subscribe(listener);
    const first = store.getSnapshot();
    store.select('a');
    expect(listener).not.toHaveBeenCalled();
    expect(store.getSnapshot()).toBe(first);
    store.select('b');
    store.focus('b');
    store.hover('c');
    store.setPlayhead(1234);
    expect(listener).toHaveBeenCalledTimes(4);
    expect(store.getSnapshot()).toMatchObject({
      selected: 'b',
      focused: 'b',
      hovered: 'c',
      playhead: 1234,
    });
    expect(Object.isFrozen(store.getSnapshot())).toBe(true);
    stop();
    store.select('z');
    expect(listener).toHaveBeenCalledTimes(4);
  });

  it('toggles, expands all and collapses all in O(1) state', () => {
    const store = createSelectionStore();
    store.toggle('a');
    expect(isExpanded(store.getSnapshot().expanded, 'a')).toBe(false);
    expect(isExpanded(store.getSnapshot().expanded, 'b')).toBe(true);
    store.collapseAll();
    expect(store.getSnapshot().expanded).toEqual({ all: false, except: new Set() });
    store.toggle('b', true);
    expect(isExpanded(store.getSnapshot().expanded, 'b')).toBe(true);
    expect(isExpanded(store.getSnapshot().expanded, 'a')).toBe(false);
    store.expandAll();
    expect(isExpanded(store.getSnapshot().expanded, 'a')).toBe(true);
  });

  it('folded nodes open only when listed, whatever `all` says', () => {
    const all = { all: true, except: new Set<string>() };
    expect(isExpanded(all, 'turns:1', true)).toBe(false);
    const open = withExpanded(all, 'turns:1', true, true);
    expect(isExpanded(open, 'turns:1', true)).toBe(true);
    expect(withExpanded(open, 'turns:1', true, true)).toBe(open);
    const store = createSelectionStore();
    store.toggle('turns:1', undefined, true);
    expect(isExpanded(store.getSnapshot().expanded, 'turns:1', true)).toBe(true);
  });
});
