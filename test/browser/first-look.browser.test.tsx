// What a new user meets first, in Chromium: a span header clicked in the
// transcript is selected in the tree beside it (one selection store), and
// the keyboard reaches the first row of the tree and of the transcript in at
// most three Tab stops from the component's start (toolbars are one roving
// stop, as the WAI-ARIA APG toolbar pattern has it).
import { act, cleanup, render } from '@testing-library/react';
import { userEvent } from 'vitest/browser';
import { afterEach, describe, expect, it } from 'vitest';
import { createSelectionStore, generateRun } from '../../src/index.js';
import { Player, SpanTree, Swimlane, Transcript, useReplayPlayer } from '../../src/react.js';
import '../../src/styles.css';

afterEach(() => cleanup());

const run = generateRun({ seed: 3, events: 400, pendingRate: 0 });

/** A focusable element before the component: Tab stops are counted from it. */
function Before() {
  return <button type="button">before</button>;
}

/** Tabs from the button before the component until `reached` holds; the number of stops. */
async function tabsUntil(reached: (el: Element | null) => boolean, limit = 12): Promise<number> {
  document.querySelector<HTMLButtonElement>('button')!.focus();
  for (let n = 1; n <= limit; n++) {
    await userEvent.keyboard('{Tab}');
    if (reached(document.activeElement)) return n;
  }
  return Infinity;
}

describe('Tab reach (at most three stops to the first row)', () => {
  it('the span tree: toolbar, then the first row', async () => {
    render(
      <div style={{ height: 500, width: 700 }}>
        <Before />
        <SpanTree events={run} />
      </div>,
    );
    await expect
      .poll(() => document.querySelectorAll('[role="row"][aria-level]').length)
      .toBeGreaterThan(2);
    const stops = await tabsUntil((el) => el?.getAttribute('aria-rowindex') === '2');
    expect(stops).toBeLessThanOrEqual(3);
  });

  it('the transcript: toolbar, then the first row', async () => {
    render(
      <div style={{ height: 500, width: 700 }}>
        <Before />
        <Transcript events={run} />
      </div>,
    );
    await expect.poll(() => document.querySelectorAll('article').length).toBeGreaterThan(2);
    const stops = await tabsUntil((el) => el?.matches('article[aria-posinset="1"]') === true);
    // Its toolbar ("Show all", "Find") is one stop, then the first row.
    expect(stops).toBe(2);
  });

  it('a toolbar is one stop: arrows move along it, Tab leaves it, focus returns to the last used', async () => {
    render(
      <div style={{ height: 500, width: 900 }}>
        <Before />
        <SpanTree events={run} />
      </div>,
    );
    const toolbar = document.querySelector<HTMLElement>('[role="toolbar"]')!;
    document.querySelector<HTMLButtonElement>('button')!.focus();
    await userEvent.keyboard('{Tab}');
    // The first control (the filter field) holds the toolbar's one stop.
    expect(document.activeElement).toBe(toolbar.querySelector('input'));
    // → in an empty field moves on (the caret is at its end).
    await userEvent.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(toolbar.querySelectorAll('select')[0]);
    await userEvent.keyboard('{End}');
    expect(document.activeElement?.textContent).toBe('Columns');
    await userEvent.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(toolbar.querySelector('input'));
    await userEvent.keyboard('{ArrowLeft}{ArrowLeft}');
    const expandAll = [...toolbar.querySelectorAll('button')].find(
      (b) => b.textContent === 'Collapse all',
    )!;
    expect(document.activeElement).toBe(expandAll);
    // Tab leaves the toolbar for the first row; Shift+Tab comes back to the control last used.
    await userEvent.keyboard('{Tab}');
    expect(document.activeElement?.getAttribute('role')).toBe('row');
    await userEvent.keyboard('{Shift>}{Tab}{/Shift}');
    expect(document.activeElement).toBe(expandAll);
  });

  it('the player: its buttons and speed are one stop, the scrubber the next', async () => {
    function Replay() {
      const player = useReplayPlayer(run);
      return <Player player={player} />;
    }
    render(
      <div style={{ width: 600 }}>
        <Before />
        <Replay />
      </div>,
    );
    const stops = await tabsUntil((el) => el?.getAttribute('role') === 'slider');
    expect(stops).toBe(2);
    // ← / → walk the controls without leaving the toolbar.
    await userEvent.keyboard('{Shift>}{Tab}{/Shift}');
    const first = document.activeElement;
    expect(first?.closest('[role="toolbar"]')).not.toBeNull();
    await userEvent.keyboard('{ArrowRight}');
    expect(document.activeElement).not.toBe(first);
    expect(document.activeElement?.closest('[role="toolbar"]')).not.toBeNull();
  });

  it('the swimlane toolbar keeps ← and → from panning the view', async () => {
    const onRangeChange = (range: unknown) => ranges.push(range);
    const ranges: unknown[] = [];
    render(
      <div style={{ height: 400, width: 900 }}>
        <Swimlane events={run} onRangeChange={onRangeChange} />
      </div>,
    );
    const toolbar = document.querySelector<HTMLElement>('.skein-swimlane [role="toolbar"]')!;
    const buttons = toolbar.querySelectorAll<HTMLElement>('button');
    expect([...buttons].filter((b) => b.tabIndex === 0)).toHaveLength(1);
    act(() => buttons[0]!.focus());
    await userEvent.keyboard('{ArrowLeft}');
    expect(ranges).toEqual([]);
  });
});

describe('a span header clicked in the transcript', () => {
  it('is selected in the tree through the shared store; its twisty still folds it', async () => {
    const store = createSelectionStore();
    render(
      <div style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', height: 600, width: 1200 }}>
        <SpanTree events={run} selection={store} />
        <Transcript events={run} selection={store} />
      </div>,
    );
    const header = () =>
      [...document.querySelectorAll<HTMLElement>('article[aria-expanded="true"]')].find(
        (a) => a.querySelector('.skein-transcript__title')?.textContent === 'solvers',
      );
    await expect.poll(header).toBeDefined();
    const article = header()!;
    act(() => article.querySelector<HTMLElement>('.skein-transcript__title')!.click());
    const key = store.getSnapshot().selected;
    expect(key).not.toBeNull();
    const row = () => document.querySelector(`[role="treegrid"] [data-key="${CSS.escape(key!)}"]`);
    await expect.poll(() => row()?.getAttribute('aria-selected')).toBe('true');
    expect(row()!.textContent).toContain('solvers');
    // Selecting did not fold the section; the twisty does.
    expect(article.getAttribute('aria-expanded')).toBe('true');
    act(() => article.querySelector<HTMLElement>('[data-toggle]')!.click());
    await expect
      .poll(() =>
        document
          .querySelector(`article[data-event-id="${article.dataset['eventId']}"]`)
          ?.getAttribute('aria-expanded'),
      )
      .toBe('false');
  });
});
