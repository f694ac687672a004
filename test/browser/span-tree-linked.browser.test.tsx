import { act, cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  buildEventTree,
  createSelectionStore,
  eventTreeIndexOf,
  generateRun,
  type SelectionStore,
} from '../../src/core/index.js';
import { SkeinTheme, SpanTree, Transcript } from '../../src/react/index.js';
import '../../src/styles.css';

afterEach(() => cleanup());

const run = generateRun({ seed: 3, events: 3000, pendingRate: 0 });
const tree = buildEventTree(run);

/** A tree and a transcript on one selection store: no glue code. */
function Linked({ store }: { store: SelectionStore }) {
  return (
    <SkeinTheme>
      <div style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', height: 600 }}>
        <SpanTree events={run} selection={store} toolbar={false} />
        <Transcript events={run} selection={store} />
      </div>
    </SkeinTheme>
  );
}

const treeRow = (key: string) =>
  document.querySelector<HTMLElement>(`[role="treegrid"] [data-key="${CSS.escape(key)}"]`);

describe('<SpanTree> and <Transcript> on one selection store', () => {
  it('selecting a span in the tree selects its row in the transcript', async () => {
    const store = createSelectionStore();
    render(<Linked store={store} />);
    await expect
      .poll(() => document.querySelectorAll('[role="row"][aria-level]').length)
      .toBeGreaterThan(2);
    const row = document.querySelectorAll<HTMLElement>('[role="row"][aria-level]')[1]!;
    const key = row.dataset['key']!;
    act(() => row.click());
    expect(store.getSnapshot().selected).toBe(key);
    const begin = tree.events[eventTreeIndexOf(tree, key)]!.uuid;
    await expect
      .poll(() =>
        document.querySelector(`article[data-event-id="${begin}"]`)?.hasAttribute('data-selected'),
      )
      .toBe(true);
  });

  it('clicking an event in the transcript selects the span that holds it in the tree', async () => {
    const store = createSelectionStore();
    render(<Linked store={store} />);
    // A transcript row of an event (not a span) inside some span.
    const pick = () =>
      [...document.querySelectorAll<HTMLElement>('article[data-event-id]')].find((a) => {
        const i = eventTreeIndexOf(tree, a.dataset['eventId']!);
        return tree.spanIndex[i]! < 0 && tree.parentIndex[i]! >= 0;
      });
    await expect.poll(pick).toBeDefined();
    const target = pick()!;
    const uuid = target.dataset['eventId']!;
    act(() => target.click());
    expect(store.getSnapshot().selected).toBe(uuid);
    const i = eventTreeIndexOf(tree, uuid);
    const spanKey = tree.spans[tree.spanIndex[tree.parentIndex[i]!]!]!.id;
    await expect.poll(() => treeRow(spanKey)?.getAttribute('aria-selected')).toBe('true');
  });

  it('an event selected elsewhere (by key, before it loaded) is revealed and scrolled to in the tree', async () => {
    const store = createSelectionStore();
    render(<Linked store={store} />);
    await expect
      .poll(() => document.querySelectorAll('[role="row"][aria-level]').length)
      .toBeGreaterThan(2);
    act(() => store.collapseAll());
    // A model call deep in the run (inside nested spans, far below the first screen).
    const deep = [...tree.events.keys()]
      .reverse()
      .find((i) => tree.events[i]!.event === 'model' && tree.depth[i]! >= 2)!;
    const uuid = tree.events[deep]!.uuid;
    act(() => store.select(uuid));
    const parent = tree.parentIndex[deep]!;
    const spanKey = tree.spans[tree.spanIndex[parent]!]!.id;
    await expect.poll(() => treeRow(spanKey)?.getAttribute('aria-selected')).toBe('true');
    const box = treeRow(spanKey)!.getBoundingClientRect();
    const scroller = document
      .querySelector<HTMLElement>('.skein-span-tree__scroller')!
      .getBoundingClientRect();
    expect(box.top).toBeGreaterThanOrEqual(scroller.top - 1);
    expect(box.bottom).toBeLessThanOrEqual(scroller.bottom + 1);
  });

  it('a span selected far down in the tree is scrolled to in the transcript; hover is shared', async () => {
    const store = createSelectionStore();
    render(<Linked store={store} />);
    await expect
      .poll(() => document.querySelectorAll('article[data-event-id]').length)
      .toBeGreaterThan(2);
    const last = tree.spans[tree.spans.length - 1]!;
    act(() => store.select(last.id));
    await expect
      .poll(() =>
        document
          .querySelector(`article[data-event-id="${last.begin.uuid}"]`)
          ?.hasAttribute('data-selected'),
      )
      .toBe(true);
    const row = document.querySelector<HTMLElement>(`article[data-event-id="${last.begin.uuid}"]`)!;
    const view = row.closest('.skein-transcript__scroller')!.getBoundingClientRect();
    const box = row.getBoundingClientRect();
    expect(box.top).toBeGreaterThanOrEqual(view.top - 1);
    expect(box.top).toBeLessThan(view.bottom);
    // Hovering in one view marks the row in the other.
    act(() => store.hover(last.id));
    expect(row.hasAttribute('data-hovered')).toBe(true);
    act(() => store.hover(null));
    expect(row.hasAttribute('data-hovered')).toBe(false);
  });
});
