// The viewer's sample list in real Chromium (issue 22): a log of 10k samples
// draws the rows in view (useListVirtualizer), not 10k; scrolling reaches the
// last sample, a deep-linked sample opens in view, filtering and sorting
// still cover every sample.
import { act, cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SampleRef, SampleRow } from '../../viewer/load/protocol.js';
import { SampleList } from '../../viewer/sample-list.js';
import '../../src/styles.css';
import '../../viewer/viewer.css';

const WAIT = { timeout: 20_000, interval: 50 };
const N = 10_000;

afterEach(() => cleanup());

const samples: SampleRow[] = Array.from({ length: N }, (_, i) => ({
  id: i + 1,
  epoch: 1,
  score: i % 3 === 0 ? 'I' : 'C',
  scoreValue: i % 3 === 0 ? 0 : 1,
  scores: `match: ${i % 3 === 0 ? 'I' : 'C'}`,
  tokens: (i * 37) % 5000,
  duration: (i % 60) + 0.5,
  error: i % 1000 === 7 ? 'boom' : null,
  limit: null,
  input: `question ${i + 1}`,
}));

function mount(selected: SampleRef | null, onSelect = vi.fn()) {
  render(
    <div style={{ height: 400, width: 520, display: 'flex', flexDirection: 'column' }}>
      <SampleList samples={samples} selected={selected} onSelect={onSelect} />
    </div>,
  );
  return onSelect;
}

const table = () => document.querySelector<HTMLElement>('[role="table"][aria-label="Samples"]')!;
const scroller = () => document.querySelector<HTMLElement>('[data-testid="sample-rows"]')!;
const bodyRows = () => [...scroller().querySelectorAll<HTMLElement>('[role="row"]')];
const button = (id: number) =>
  [...scroller().querySelectorAll<HTMLButtonElement>('[role="rowheader"] button')].find(
    (b) => b.textContent === String(id),
  );

/** True when `el` is inside the scroller's visible box. */
function inView(el: HTMLElement): boolean {
  const box = scroller().getBoundingClientRect();
  const r = el.getBoundingClientRect();
  return r.bottom > box.top && r.top < box.bottom;
}

describe('sample list (10k samples)', () => {
  it('draws only the rows in view, and reaches the last sample by scrolling', async () => {
    const onSelect = mount(null);
    expect(table().getAttribute('aria-rowcount')).toBe(String(N + 1));
    await expect.poll(() => bodyRows().length, WAIT).toBeGreaterThan(5);
    expect(bodyRows().length).toBeLessThan(60);
    expect(button(1)).toBeDefined();

    // To the end: the last sample is drawn, in view, with its row index.
    await act(async () => {
      scroller().scrollTop = scroller().scrollHeight;
      scroller().dispatchEvent(new Event('scroll'));
    });
    await expect.poll(() => button(N), WAIT).toBeDefined();
    expect(inView(button(N)!)).toBe(true);
    expect(button(N)!.closest('[role="row"]')!.getAttribute('aria-rowindex')).toBe(String(N + 1));
    expect(bodyRows().length).toBeLessThan(60);

    await act(async () => button(N)!.click());
    expect(onSelect).toHaveBeenCalledWith({ id: N, epoch: 1 });
  });

  it('opens with a deep-linked sample in view and keeps it marked current', async () => {
    mount({ id: 9000, epoch: 1 });
    await expect.poll(() => button(9000), WAIT).toBeDefined();
    await expect.poll(() => inView(button(9000)!), WAIT).toBe(true);
    expect(button(9000)!.getAttribute('aria-current')).toBe('true');
    expect(bodyRows().length).toBeLessThan(60);
  });

  it('filters and sorts over every sample, not only the drawn rows', async () => {
    mount(null);
    const search = document.querySelector<HTMLInputElement>('input[type="search"]')!;
    await act(async () => {
      const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
      set.call(search, 'has:error');
      search.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await expect
      .poll(() => document.querySelector('[data-testid="sample-count"]')!.textContent, WAIT)
      .toBe(`10 of ${N}`);
    expect(bodyRows().map((r) => r.getAttribute('data-sample'))).toEqual(
      Array.from({ length: 10 }, (_, k) => String(k * 1000 + 8)),
    );

    // Sorted by id, descending: the highest error sample first.
    const idHeader = [...table().querySelectorAll<HTMLButtonElement>('.viewer-sort')].find((b) =>
      b.textContent?.startsWith('Id'),
    )!;
    await act(async () => idHeader.click());
    await expect.poll(() => bodyRows()[0]?.getAttribute('data-sample'), WAIT).toBe('9008');
  });
});
