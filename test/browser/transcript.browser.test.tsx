import { act, cleanup, render } from '@testing-library/react';
import { userEvent } from 'vitest/browser';
import { createRef } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EventStream, type Event } from '../../src/index.js';
import { SkeinTheme, Transcript, type TranscriptHandle } from '../../src/react.js';
import '../../src/styles.css';

afterEach(() => cleanup());

const N = 1_000_000;
const T0 = Date.parse('2026-06-10T18:23:50Z');

/**
 * A cheap synthetic 1M-event run (generating a realistic one takes seconds):
 * a span every 1000 events, info events inside, a unique word every 100k.
 */
function syntheticRun(n: number): Event[] {
  const events: Event[] = new Array(n);
  let span = 'root';
  for (let i = 0; i < n; i++) {
    const timestamp = new Date(T0 + i).toISOString();
    if (i % 1000 === 0) {
      span = `s${i}`;
      events[i] = {
        event: 'span_begin',
        uuid: `b${i}`,
        timestamp,
        id: span,
        parent_id: null,
        span_id: span,
        name: `step ${i / 1000}`,
        type: 'agent',
      } as Event;
    } else {
      const data = i % 100_000 === 500 ? `zebra ${i}` : `event ${i}`;
      events[i] = {
        event: 'info',
        uuid: `e${i}`,
        timestamp,
        span_id: span,
        source: 'synthetic',
        data,
      } as Event;
    }
  }
  return events;
}

let run: Event[];
beforeAll(() => {
  run = syntheticRun(N);
});

const rows = (root: ParentNode) => root.querySelectorAll<HTMLElement>('article');

/** Renders `transcript` in a themed box of the given size; the feed and its scroller. */
function mountIn(
  transcript: React.ReactNode,
  {
    theme = 'light',
    width = 800,
    height = 600,
  }: { theme?: 'light' | 'dark'; width?: number; height?: number } = {},
) {
  const view = render(
    <SkeinTheme theme={theme}>
      <div style={{ height, width }}>{transcript}</div>
    </SkeinTheme>,
  );
  const feed = view.getByRole('feed');
  return { ...view, feed, scroller: feed.parentElement as HTMLElement };
}

async function mountBig(ref?: React.Ref<TranscriptHandle>) {
  const view = mountIn(<Transcript ref={ref} events={run} />);
  await expect.poll(() => view.feed.getAttribute('aria-busy'), { timeout: 60_000 }).toBe('false');
  return view;
}

describe('<Transcript> with 1M events in Chromium', () => {
  it('keeps the DOM bounded, caps the scroll height, and reaches the last event by scrolling', async () => {
    const { feed, scroller } = await mountBig();
    expect(rows(feed)[0]!.getAttribute('aria-setsize')).toBe(String(N));
    expect(rows(feed).length).toBeLessThanOrEqual(40);
    // Scaled: the scroll height stays under every browser's element limit.
    expect(scroller.scrollHeight).toBeLessThanOrEqual(15_000_000);
    expect(scroller.hasAttribute('data-scaled')).toBe(true);
    scroller.scrollTop = scroller.scrollHeight;
    await expect
      .poll(() => feed.querySelector(`[data-event-id="e${N - 1}"]`) !== null, { timeout: 10_000 })
      .toBe(true);
    const last = feed.querySelector<HTMLElement>(`[data-event-id="e${N - 1}"]`)!;
    const box = last.getBoundingClientRect();
    const viewport = scroller.getBoundingClientRect();
    expect(box.top).toBeGreaterThanOrEqual(viewport.top - 1);
    expect(box.bottom).toBeLessThanOrEqual(viewport.bottom + 1);
    expect(rows(feed).length).toBeLessThanOrEqual(40);
    // The middle by scrolling, too.
    scroller.scrollTop = scroller.scrollHeight / 2;
    await expect
      .poll(() => Number(rows(feed)[0]?.getAttribute('aria-posinset') ?? 0))
      .toBeGreaterThan(N / 2 - 2000);
  }, 120_000);

  it('deep-links to the middle of 1M events and reaches the end by keyboard', async () => {
    const ref = createRef<TranscriptHandle>();
    const { feed } = await mountBig(ref);
    const middle = `e${N / 2 + 1}`;
    let landed!: Promise<boolean>;
    await act(async () => {
      landed = ref.current!.scrollToEvent(middle);
    });
    // Resolves once the row is drawn (and focused), a few commits later.
    await expect(landed).resolves.toBe(true);
    await expect.poll(() => document.activeElement?.getAttribute('data-event-id')).toBe(middle);
    const row = feed.querySelector<HTMLElement>(`[data-event-id="${middle}"]`)!;
    expect(row.hasAttribute('data-selected')).toBe(true);
    const box = row.getBoundingClientRect();
    const viewport = feed.parentElement!.getBoundingClientRect();
    expect(box.top).toBeGreaterThanOrEqual(viewport.top - 1);
    expect(box.top).toBeLessThan(viewport.bottom);
    await userEvent.keyboard('j');
    await expect
      .poll(() => document.activeElement?.getAttribute('data-event-id'))
      .toBe(`e${N / 2 + 2}`);
    await userEvent.keyboard('{End}');
    await expect
      .poll(() => document.activeElement?.getAttribute('data-event-id'))
      .toBe(`e${N - 1}`);
    expect(document.activeElement!.getAttribute('aria-posinset')).toBe(String(N));
    await userEvent.keyboard('{Home}');
    await expect.poll(() => document.activeElement?.getAttribute('data-event-id')).toBe('b0');
  }, 120_000);

  it('finds across unrendered rows and steps to a far match', async () => {
    const { feed, container } = await mountBig();
    rows(feed)[0]!.focus();
    await userEvent.keyboard('/');
    const input = container.querySelector<HTMLInputElement>('input[type="search"]')!;
    await expect.poll(() => document.activeElement).toBe(input);
    await userEvent.type(input, 'zebra');
    await expect
      .poll(() => container.querySelector('output')?.textContent ?? '', { timeout: 90_000 })
      .toBe('10 matches');
    await userEvent.keyboard('{Shift>}{Enter}{/Shift}');
    await expect
      .poll(() => feed.querySelector('[data-current-match]')?.getAttribute('data-event-id'))
      .toBe('e900500');
    expect(container.querySelector('output')?.textContent).toBe('10 of 10 matches');
  }, 150_000);
});

describe('<Transcript> live in Chromium', () => {
  it('follows appends at the bottom and stops following when the user scrolls up', async () => {
    const stream = new EventStream();
    for (let i = 0; i < 50; i++) stream.append(run[i + 1]!);
    const following: boolean[] = [];
    const view = mountIn(<Transcript stream={stream} onFollowChange={(f) => following.push(f)} />, {
      theme: 'dark',
      width: 600,
      height: 400,
    });
    const { feed, scroller } = view;
    const atBottom = () => scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 31;
    // Short content starts "at the bottom", so it follows from the start.
    for (let i = 50; i < 400; i++) stream.append(run[i + 1]!);
    await expect.poll(() => feed.querySelector('[data-event-id="e400"]') !== null).toBe(true);
    await expect.poll(atBottom).toBe(true);
    scroller.scrollTop = 0;
    await expect.poll(() => scroller.scrollTop).toBe(0);
    // The view has seen the user leave the bottom (its scroll event can come
    // late on a loaded machine; appends before it would still be followed).
    await expect.poll(() => following.at(-1)).toBe(false);
    for (let i = 400; i < 420; i++) stream.append(run[i + 1]!);
    const button = await view.findByRole('button', { name: /20 new events/ });
    expect(scroller.scrollTop).toBe(0);
    await userEvent.click(button);
    await expect.poll(() => feed.querySelector('[data-event-id="e420"]') !== null).toBe(true);
    await expect.poll(atBottom).toBe(true);
  }, 60_000);

  it('stays at the very bottom when the last rows grow after they settle', async () => {
    const stream = new EventStream();
    const tall = (i: number) =>
      ({
        event: 'info',
        uuid: `t${i}`,
        timestamp: new Date(T0 + i).toISOString(),
        source: 'test',
        data: Array.from({ length: 12 }, (_, k) => `line ${k} of ${i}`).join('\n'),
      }) as Event;
    for (let i = 0; i < 20; i++) stream.append(tall(i));
    const { feed, scroller } = mountIn(<Transcript stream={stream} />, { width: 600, height: 400 });
    for (let i = 20; i < 60; i++) stream.append(tall(i));
    // Heads first (the view moved), then bodies once it is still: the last
    // rows grow after the last commit, and the view must follow them.
    await expect
      .poll(() => feed.querySelector('[data-event-id="t59"] .skein-transcript__body') !== null)
      .toBe(true);
    await new Promise((r) => setTimeout(r, 300));
    expect(scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight).toBeLessThan(2);
    const last = feed.querySelector('[data-event-id="t59"]')!.getBoundingClientRect();
    expect(last.bottom).toBeLessThanOrEqual(scroller.getBoundingClientRect().bottom + 1);
  }, 60_000);
});

describe('<Transcript> find highlights in Chromium', () => {
  it('highlights a match after "İ" (longer in lower case) and stays mounted', async () => {
    const highlights = (globalThis as unknown as { CSS: { highlights: Map<string, Set<Range>> } })
      .CSS.highlights;
    const events = [
      { event: 'info', uuid: 'u1', timestamp: new Date(T0).toISOString(), data: 'İİİİ foo' },
      { event: 'info', uuid: 'u2', timestamp: new Date(T0 + 1).toISOString(), data: 'FOO bar' },
    ] as Event[];
    const view = mountIn(<Transcript events={events} findQuery="foo" />);
    await expect
      .poll(() => view.container.querySelector('output')?.textContent ?? '')
      .toBe('2 matches');
    await expect.poll(() => highlights.get('skein-find')?.size ?? 0).toBeGreaterThanOrEqual(2);
    for (const range of highlights.get('skein-find')!) {
      expect(range.toString().toLowerCase()).toBe('foo');
    }
    expect(view.getByRole('feed')).toBeTruthy();
  });
});

describe('<Transcript> measured row heights in Chromium', () => {
  /** Events whose bodies differ a lot in height: 1 to 40 lines of text. */
  function uneven(n: number): Event[] {
    return Array.from(
      { length: n },
      (_, i) =>
        ({
          event: 'info',
          uuid: `u${i}`,
          timestamp: new Date(T0 + i).toISOString(),
          source: 'test',
          data: Array.from({ length: 1 + ((i * 7) % 40) }, (_, k) => `line ${k} of ${i}`).join(
            '\n',
          ),
        }) as Event,
    );
  }

  /** Mounted rows in row order, with their boxes relative to the scroller. */
  function boxes(feed: HTMLElement) {
    return [...rows(feed)]
      .map((el) => ({ el, index: Number(el.dataset['index']), box: el.getBoundingClientRect() }))
      .sort((a, b) => a.index - b.index);
  }

  it('lays rows out at their measured heights: no gaps, no overlaps, nothing clipped', async () => {
    const { feed } = mountIn(<Transcript events={uneven(400)} />);
    // Bodies are drawn once the view is still.
    await expect
      .poll(() => feed.querySelectorAll('.skein-transcript__body').length)
      .toBeGreaterThan(3);
    await new Promise((r) => setTimeout(r, 300));
    const drawn = boxes(feed);
    expect(drawn.length).toBeGreaterThan(3);
    const heights = new Set(drawn.map((d) => Math.round(d.box.height)));
    expect(heights.size).toBeGreaterThan(2);
    for (let k = 1; k < drawn.length; k++) {
      if (drawn[k]!.index !== drawn[k - 1]!.index + 1) continue;
      expect(Math.abs(drawn[k]!.box.top - drawn[k - 1]!.box.bottom)).toBeLessThan(1);
    }
    for (const { el } of drawn) expect(el.scrollHeight).toBeLessThanOrEqual(el.clientHeight + 1);
  });

  it('keeps the row at the top in place while rows above it are measured', async () => {
    const { feed, scroller } = mountIn(<Transcript events={uneven(5000)} />);
    await expect.poll(() => feed.getAttribute('aria-busy')).toBe('false');
    scroller.scrollTop = scroller.scrollHeight / 2;
    // Rows drawn during the scroll get their bodies when it settles; the
    // overscan rows above the top grow then too.
    await new Promise((r) => setTimeout(r, 30));
    const top = scroller.getBoundingClientRect().top;
    // On a loaded machine the scroll may not be drawn yet: wait for a row
    // under the viewport's top edge.
    const visible = () => boxes(feed).find((d) => d.box.bottom > top + 1 && d.box.top <= top + 1);
    await expect.poll(() => visible() !== undefined).toBe(true);
    const first = visible()!;
    const id = first.el.dataset['eventId']!;
    const before = first.box.top;
    await expect
      .poll(() => feed.querySelector(`[data-event-id="${id}"] .skein-transcript__body`) !== null)
      .toBe(true);
    await new Promise((r) => setTimeout(r, 300));
    const after = feed.querySelector(`[data-event-id="${id}"]`)!.getBoundingClientRect().top;
    expect(Math.abs(after - before)).toBeLessThan(2);
  });
});
