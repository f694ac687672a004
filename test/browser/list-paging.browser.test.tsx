import { cleanup, render } from '@testing-library/react';
import { userEvent } from 'vitest/browser';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Event } from '../../src/index.js';
import { SpanTree, Transcript, preloadDisplay } from '../../src/react.js';
import '../../src/styles.css';

afterEach(() => cleanup());

// The rows' bodies are drawn by display parts that load on first use (a
// body shows as plain text, then rendered, a little taller or shorter).
// Loaded up front, the layout the test measures is the one PageDown pages
// through: when another browser's page kept the dev server busy, the parts
// arrived after the layout had looked settled and moved the rows under it.
beforeAll(() => preloadDisplay());

const T0 = Date.parse('2026-06-10T18:23:50Z');

/** One span holding `n` info events of uneven length (rows of different heights). */
function infoRun(n: number): Event[] {
  const events: Event[] = [
    {
      event: 'span_begin',
      uuid: 'b0',
      timestamp: new Date(T0).toISOString(),
      id: 's0',
      parent_id: null,
      span_id: 's0',
      name: 'agent',
      type: 'agent',
    } as Event,
  ];
  for (let i = 1; i <= n; i++)
    events.push({
      event: 'info',
      uuid: `e${i}`,
      timestamp: new Date(T0 + i).toISOString(),
      span_id: 's0',
      source: 'paging',
      data: i % 3 === 0 ? `event ${i}: ${'a longer line of text '.repeat(12)}` : `event ${i}`,
    } as Event);
  return events;
}

/** `n` top-level spans: one tree row each, all the same height. */
function flatSpans(n: number): Event[] {
  const events: Event[] = [];
  for (let i = 0; i < n; i++)
    events.push({
      event: 'span_begin',
      uuid: `b${i}`,
      timestamp: new Date(T0 + i).toISOString(),
      id: `s${i}`,
      parent_id: null,
      span_id: `s${i}`,
      name: `span ${i}`,
      type: 'agent',
    } as Event);
  return events;
}

/** Whether `el` lies wholly inside `scroller`'s visible box (1 px slack). */
function inView(el: Element, scroller: Element): boolean {
  const box = el.getBoundingClientRect();
  const view = scroller.getBoundingClientRect();
  return box.top >= view.top - 1 && box.bottom <= view.bottom + 1;
}

describe('PageUp / PageDown in the transcript (Chromium)', () => {
  it('moves focus by a page of what is seen and scrolls the row into view', async () => {
    const { getByRole } = render(
      <div style={{ height: 400, width: 600 }}>
        <Transcript events={infoRun(400)} />
      </div>,
    );
    const feed = getByRole('feed');
    const scroller = feed.parentElement!;
    await expect.poll(() => feed.getAttribute('aria-busy')).toBe('false');
    const article = (posinset: number) =>
      feed.querySelector<HTMLElement>(`article[aria-posinset="${posinset}"]`);
    await expect.poll(() => article(1)).not.toBeNull();
    article(1)!.focus();
    expect(scroller.scrollTop).toBe(0);
    // Rows first show their heads, then their bodies once the view settles:
    // wait for the layout to stop moving.
    const layout = () =>
      [...feed.querySelectorAll('article')].map((a) => a.getBoundingClientRect().bottom).join();
    let seen = '';
    await expect
      .poll(async () => {
        const before = layout();
        await new Promise((r) => setTimeout(r, 150));
        const now = layout();
        const still = now === before && now === seen;
        seen = now;
        return still;
      })
      .toBe(true);
    // The row a page below the first one's top: the one across the bottom edge.
    const bottom = scroller.getBoundingClientRect().top + scroller.clientHeight;
    const across = [...feed.querySelectorAll<HTMLElement>('article')].find((a) => {
      const box = a.getBoundingClientRect();
      return box.top <= bottom && box.bottom > bottom;
    })!;
    const target = Number(across.getAttribute('aria-posinset'));
    expect(target).toBeGreaterThan(2);

    await userEvent.keyboard('{PageDown}');
    await expect
      .poll(() => document.activeElement?.getAttribute('aria-posinset'))
      .toBe(String(target));
    expect(inView(document.activeElement!, scroller)).toBe(true);
    expect(scroller.scrollTop).toBeGreaterThan(0);

    await userEvent.keyboard('{PageDown}');
    await expect
      .poll(() => Number(document.activeElement?.getAttribute('aria-posinset')))
      .toBeGreaterThan(target);
    const second = Number(document.activeElement!.getAttribute('aria-posinset'));
    await expect.poll(() => inView(document.activeElement!, scroller)).toBe(true);

    await userEvent.keyboard('{PageUp}');
    await expect
      .poll(() => Number(document.activeElement?.getAttribute('aria-posinset')))
      .toBeLessThan(second);
    await expect.poll(() => inView(document.activeElement!, scroller)).toBe(true);

    await userEvent.keyboard('{End}');
    await expect.poll(() => document.activeElement?.getAttribute('data-event-id')).toBe('e400');
    await expect.poll(() => inView(document.activeElement!, scroller)).toBe(true);
    // At the end PageDown stays; PageUp leaves it.
    await userEvent.keyboard('{PageDown}');
    expect(document.activeElement?.getAttribute('data-event-id')).toBe('e400');
    await userEvent.keyboard('{PageUp}');
    await expect.poll(() => document.activeElement?.getAttribute('data-event-id')).not.toBe('e400');
    await expect.poll(() => inView(document.activeElement!, scroller)).toBe(true);

    await userEvent.keyboard('{Home}');
    await expect.poll(() => document.activeElement?.getAttribute('data-event-id')).toBe('b0');
    await expect.poll(() => scroller.scrollTop).toBe(0);
  });
});

describe('PageUp / PageDown in the span tree (Chromium)', () => {
  it('moves focus by a page of visible rows and scrolls the row into view', async () => {
    const { container } = render(
      <div style={{ height: 400, width: 700 }}>
        <SpanTree events={flatSpans(300)} toolbar={false} rowHeight={28} />
      </div>,
    );
    const grid = container.querySelector<HTMLElement>('[role="treegrid"]')!;
    const scroller = grid.querySelector<HTMLElement>('.skein-span-tree__scroller')!;
    await expect.poll(() => grid.getAttribute('aria-busy')).toBe('false');
    const row = (posinset: number) =>
      grid.querySelector<HTMLElement>(`[role="row"][aria-level="1"][aria-posinset="${posinset}"]`);
    await expect.poll(() => row(1)).not.toBeNull();
    row(1)!.focus();
    const viewport = scroller.clientHeight;
    expect(viewport).toBeGreaterThan(4 * 28);
    // Rows (0-based) a page away: the row at one viewport below / above the
    // focused row's top (`pageTarget`), in rows of 28 px.
    const down = (r: number) => Math.min(299, Math.floor((r * 28 + viewport) / 28));
    const up = (r: number) => Math.floor(Math.max(0, r * 28 - viewport) / 28);
    const focusedAt = () => Number(document.activeElement?.getAttribute('aria-posinset')) - 1;

    await userEvent.keyboard('{PageDown}');
    await expect.poll(focusedAt).toBe(down(0));
    expect(down(0)).toBeGreaterThan(3);
    expect(inView(document.activeElement!, scroller)).toBe(true);
    await userEvent.keyboard('{PageDown}');
    await expect.poll(focusedAt).toBe(down(down(0)));
    expect(inView(document.activeElement!, scroller)).toBe(true);
    expect(scroller.scrollTop).toBeGreaterThan(0);
    await userEvent.keyboard('{PageUp}');
    await expect.poll(focusedAt).toBe(up(down(down(0))));
    expect(inView(document.activeElement!, scroller)).toBe(true);

    await userEvent.keyboard('{End}');
    await expect.poll(focusedAt).toBe(299);
    expect(inView(document.activeElement!, scroller)).toBe(true);
    await userEvent.keyboard('{PageUp}');
    await expect.poll(focusedAt).toBe(up(299));
    expect(inView(document.activeElement!, scroller)).toBe(true);
    await userEvent.keyboard('{Home}');
    await expect.poll(focusedAt).toBe(0);
    await expect.poll(() => scroller.scrollTop).toBe(0);
  });
});
