import { act, cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  buildEventTree,
  createSelectionStore,
  eventTreeIndexOf,
  generateRun,
  type Event,
  type SelectionStore,
} from '../../src/index.js';
import { SkeinTheme, SpanTree, Transcript } from '../../src/react.js';
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

/**
 * A run whose agent span "a" is begun twice (a retried agent reusing its
 * id): as in inspect, the span shows once per begin, named by the last
 * begin; the second copy's nodes have keys `…\u241f2`.
 */
function retried(): Event[] {
  const t = (k: number) => `2026-01-01T00:00:${String(k).padStart(2, '0')}Z`;
  const begin = (uuid: string, name: string, k: number): Event =>
    ({
      event: 'span_begin',
      uuid,
      id: 'a',
      span_id: 'a',
      name,
      type: 'agent',
      timestamp: t(k),
    }) as Event;
  const info = (uuid: string, k: number): Event =>
    ({ event: 'info', uuid, span_id: 'a', data: uuid, timestamp: t(k) }) as Event;
  const end = (uuid: string, k: number): Event =>
    ({ event: 'span_end', uuid, id: 'a', span_id: 'a', timestamp: t(k) }) as Event;
  return [
    begin('b1', 'first try', 0),
    info('e1', 1),
    end('x1', 2),
    begin('b2', 'second try', 3),
    info('e2', 4),
    end('x2', 5),
  ];
}

describe('a span begun twice, in <SpanTree> and <Transcript> on one store', () => {
  const SEP = '\u241f';
  const events = retried();
  function Both({ store }: { store: SelectionStore }) {
    return (
      <SkeinTheme>
        <div style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', height: 400 }}>
          <SpanTree events={events} selection={store} toolbar={false} mode="events" />
          <Transcript events={events} selection={store} />
        </div>
      </SkeinTheme>
    );
  }
  const article = (id: string) =>
    document.querySelector<HTMLElement>(`article[data-event-id="${CSS.escape(id)}"]`);

  it('shows both copies in both views, each row with its own key', async () => {
    render(<Both store={createSelectionStore()} />);
    await expect.poll(() => treeRow(`a${SEP}2`)).not.toBeNull();
    const keys = [...document.querySelectorAll<HTMLElement>('[role="treegrid"] [data-key]')].map(
      (r) => r.dataset['key'],
    );
    expect(keys).toEqual(['a', 'e1', 'e2', `a${SEP}2`, `e1${SEP}2`, `e2${SEP}2`]);
    expect(treeRow('a')!.textContent).toContain('second try');
    expect(treeRow(`a${SEP}2`)!.textContent).toContain('second try');
    const ids = [...document.querySelectorAll<HTMLElement>('article[data-event-id]')].map(
      (a) => a.dataset['eventId'],
    );
    expect(ids).toEqual(['b2', 'e1', 'e2', `b2${SEP}2`, `e1${SEP}2`, `e2${SEP}2`]);
  });

  it('selecting a copy in one view selects that copy, not the other, in both', async () => {
    const store = createSelectionStore();
    render(<Both store={store} />);
    await expect.poll(() => treeRow(`e1${SEP}2`)).not.toBeNull();
    act(() => treeRow(`e1${SEP}2`)!.click());
    expect(store.getSnapshot().selected).toBe(`e1${SEP}2`);
    await expect.poll(() => article(`e1${SEP}2`)?.hasAttribute('data-selected')).toBe(true);
    expect(article('e1')!.hasAttribute('data-selected')).toBe(false);
    expect(treeRow('e1')!.getAttribute('aria-selected')).not.toBe('true');
    // And from the transcript: the first copy's event.
    act(() => article('e2')!.click());
    expect(store.getSnapshot().selected).toBe('e2');
    await expect.poll(() => treeRow('e2')?.getAttribute('aria-selected')).toBe('true');
    expect(treeRow(`e2${SEP}2`)!.getAttribute('aria-selected')).not.toBe('true');
  });

  it('collapses and expands each copy on its own', async () => {
    const store = createSelectionStore();
    render(<Both store={store} />);
    await expect.poll(() => article(`e2${SEP}2`)).not.toBeNull();
    // The transcript: the second copy's toggle hides only its rows.
    act(() => article(`b2${SEP}2`)!.querySelector<HTMLElement>('[data-toggle]')!.click());
    await expect.poll(() => article(`e1${SEP}2`)).toBeNull();
    expect(article('e1')).not.toBeNull();
    // The span tree: collapsing the first copy leaves the second open.
    act(() => store.toggle('a', false));
    await expect.poll(() => treeRow('e1')).toBeNull();
    expect(treeRow(`e1${SEP}2`)).not.toBeNull();
    expect(treeRow('a')!.getAttribute('aria-expanded')).toBe('false');
    expect(treeRow(`a${SEP}2`)!.getAttribute('aria-expanded')).toBe('true');
  });
});

describe('<SpanTree> in a narrow sidebar', () => {
  it('keeps every toolbar control inside a 130 px pane (a long button label wraps, whole words)', async () => {
    const { container } = render(
      <SkeinTheme>
        <div style={{ width: 130, height: 500 }}>
          <SpanTree events={run} />
        </div>
      </SkeinTheme>,
    );
    const root = container.querySelector<HTMLElement>('.skein-span-tree')!;
    const toolbar = root.querySelector<HTMLElement>('.skein-span-tree__toolbar')!;
    const right = root.getBoundingClientRect().right;
    const controls = [...toolbar.children] as HTMLElement[];
    expect(controls.length).toBeGreaterThan(4);
    for (const el of controls) expect(el.getBoundingClientRect().right).toBeLessThanOrEqual(right);
    const expand = [...toolbar.querySelectorAll('button')].find(
      (b) => b.textContent === 'Expand to selection',
    )!;
    // Before: one 160 px line past the pane's edge. Now two lines, no word cut.
    expect(expand.getBoundingClientRect().height).toBeGreaterThan(
      toolbar.querySelector('button')!.getBoundingClientRect().height * 1.5,
    );
    const words = document.createRange();
    const text = expand.firstChild!;
    words.setStart(text, 0);
    words.setEnd(text, 'Expand'.length);
    expect(words.getClientRects().length).toBe(1);
  });
});
