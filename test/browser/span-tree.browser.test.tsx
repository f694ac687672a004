import { act, cleanup, render } from '@testing-library/react';
import { userEvent } from 'vitest/browser';
import type { ReactNode } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EventStream, createSelectionStore, generateRun, type Event } from '../../src/index.js';
import { SpanTree } from '../../src/react.js';
import '../../src/styles.css';

afterEach(() => cleanup());

const T0 = Date.parse('2026-06-10T18:23:50Z');

let run: Event[];
beforeAll(() => {
  // A realistic run (agents, tools, model calls, nesting) of 1M events.
  run = generateRun({ seed: 1, events: 1_000_000, pendingRate: 0 });
}, 120_000);

/** `n` spans, in `n / 10` top-level groups of 10 nested ones each. */
function spanRun(n: number): Event[] {
  const events: Event[] = [];
  for (let i = 0; i < n; i++) {
    const parent = i % 10 === 0 ? null : `s${i - 1}`;
    events.push({
      event: 'span_begin',
      uuid: `b${i}`,
      timestamp: new Date(T0 + i).toISOString(),
      id: `s${i}`,
      parent_id: parent,
      span_id: `s${i}`,
      name: `span ${i}`,
      type: 'agent',
    } as Event);
  }
  return events;
}

const treeRows = (root: ParentNode) =>
  root.querySelectorAll<HTMLElement>('[role="row"][aria-level]');

/** Renders bare (no <SkeinTheme>) inside `wrap`; returns the grid and its scroller. */
function mount(node: ReactNode, wrap: (tree: ReactNode) => ReactNode) {
  const { container } = render(<>{wrap(node)}</>);
  const grid = container.querySelector<HTMLElement>('[role="treegrid"]')!;
  const scroller = grid.querySelector<HTMLElement>('.skein-span-tree__scroller')!;
  return { container, grid, scroller };
}

async function settled(grid: HTMLElement) {
  await expect.poll(() => grid.getAttribute('aria-busy'), { timeout: 60_000 }).toBe('false');
}

const fixedBox = (tree: ReactNode) => <div style={{ height: 600, width: 900 }}>{tree}</div>;

describe('<SpanTree> in Chromium, 1M events', () => {
  it('bare in a fixed box: bounded DOM, a scroller, the last row reachable', async () => {
    const stream = EventStream.from(run);
    const { grid, scroller } = mount(<SpanTree stream={stream} />, fixedBox);
    // First rows before the whole run is folded in.
    expect(treeRows(grid).length).toBeGreaterThan(0);
    await settled(grid);
    const count = Number(grid.getAttribute('aria-rowcount')) - 1;
    expect(count).toBeGreaterThan(10_000);
    expect(treeRows(grid).length).toBeLessThanOrEqual(100);
    expect(scroller.clientHeight).toBeGreaterThan(300);
    expect(scroller.scrollHeight).toBeGreaterThan(scroller.clientHeight);
    scroller.scrollTop = scroller.scrollHeight;
    await expect
      .poll(() =>
        [...treeRows(grid)].some((r) => r.getAttribute('aria-rowindex') === String(count + 1)),
      )
      .toBe(true);
    expect(treeRows(grid).length).toBeLessThanOrEqual(100);
  }, 120_000);

  it('the focused row survives virtualization and the keyboard brings it back', async () => {
    const store = createSelectionStore();
    const { grid, scroller } = mount(
      <SpanTree events={run} selection={store} toolbar={false} />,
      fixedBox,
    );
    await settled(grid);
    const first = treeRows(grid)[2]!;
    const key = first.dataset['key']!;
    act(() => first.focus());
    expect(store.getSnapshot().focused).toBe(key);
    // Far away: the focused row stays mounted (and focused), out of view.
    scroller.scrollTop = scroller.scrollHeight / 2;
    await expect
      .poll(() =>
        [...treeRows(grid)].some(
          (r) => r.dataset['key'] === key && r.getBoundingClientRect().bottom < 0,
        ),
      )
      .toBe(true);
    expect((document.activeElement as HTMLElement).dataset['key']).toBe(key);
    expect(treeRows(grid).length).toBeLessThanOrEqual(100);
    await userEvent.keyboard('{ArrowDown}');
    const focused = document.activeElement as HTMLElement;
    expect(focused.getAttribute('role')).toBe('row');
    expect(store.getSnapshot().focused).toBe(focused.dataset['key']);
    const box = focused.getBoundingClientRect();
    const view = scroller.getBoundingClientRect();
    expect(box.top).toBeGreaterThanOrEqual(view.top - 1);
    expect(box.bottom).toBeLessThanOrEqual(view.bottom + 1);
  }, 120_000);
});

describe('<SpanTree> in Chromium, 100k spans', () => {
  it('collapse all then expand all: every row back, DOM bounded', async () => {
    const store = createSelectionStore();
    const events = spanRun(100_000);
    const { grid } = mount(<SpanTree events={events} selection={store} />, fixedBox);
    await settled(grid);
    const all = Number(grid.getAttribute('aria-rowcount'));
    expect(all).toBe(100_001);
    act(() => store.collapseAll());
    expect(grid.getAttribute('aria-rowcount')).toBe('10001');
    act(() => store.expandAll());
    expect(grid.getAttribute('aria-rowcount')).toBe(String(all));
    expect(treeRows(grid).length).toBeLessThanOrEqual(100);
    // Collapsing one top-level subtree hides its nine descendants only.
    const top = treeRows(grid)[0]!;
    act(() => top.focus());
    await userEvent.keyboard('{ArrowLeft}');
    expect(grid.getAttribute('aria-rowcount')).toBe(String(all - 9));
  }, 120_000);
});

describe('<SpanTree> bare in any parent layout', () => {
  const events = spanRun(20_000);
  const layouts: [string, (tree: ReactNode) => ReactNode][] = [
    ['a fixed box', fixedBox],
    [
      'a flex child',
      (tree) => (
        <div style={{ display: 'flex', height: 500 }}>
          <div style={{ flex: 1, minWidth: 0 }}>{tree}</div>
        </div>
      ),
    ],
    [
      'a grid child',
      (tree) => <div style={{ display: 'grid', gridTemplateRows: '500px' }}>{tree}</div>,
    ],
    ['an unsized parent', (tree) => <div>{tree}</div>],
  ];
  it.each(layouts)('%s: bounded rows, a scroller, last row reachable', async (_, wrap) => {
    const { grid, scroller } = mount(<SpanTree events={events} />, wrap);
    await settled(grid);
    expect(scroller.clientHeight).toBeGreaterThan(200);
    expect(scroller.clientHeight).toBeLessThan(1000);
    expect(treeRows(grid).length).toBeLessThanOrEqual(100);
    scroller.scrollTop = scroller.scrollHeight;
    await expect
      .poll(() => [...treeRows(grid)].some((r) => r.getAttribute('aria-rowindex') === '20001'))
      .toBe(true);
  });
});
