// Regression tests for <Transcript> in Chromium: following the end, the
// "N new events" control, measuring rows, and keeping the top row in place
// (also in a scaled scroll space). Each case failed once.
import { act, cleanup, render } from '@testing-library/react';
import { userEvent } from 'vitest/browser';
import { StrictMode, createRef, type ReactNode, type Ref } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { EventStream, type Event, type LiveConnectionSnapshot } from '../../src/index.js';
import { SkeinTheme, Transcript, type TranscriptHandle } from '../../src/react.js';
import '../../src/styles.css';

afterEach(() => cleanup());

const T0 = Date.parse('2026-06-10T18:23:50Z');

/** An info event `e${i}` of `lines` lines, in span `span`. */
function info(i: number, lines = 1, id = `e${i}`, span: string | null = null): Event {
  return {
    event: 'info',
    uuid: id,
    timestamp: new Date(T0 + i).toISOString(),
    source: 'test',
    span_id: span,
    data: Array.from({ length: lines }, (_, k) => `line ${k} of ${i}`).join('\n'),
  } as Event;
}

/** A top-level span named `id`. */
function begin(id: string): Event {
  return {
    event: 'span_begin',
    uuid: `b-${id}`,
    timestamp: new Date(T0).toISOString(),
    id,
    parent_id: null,
    span_id: id,
    name: id,
    type: 'agent',
  } as Event;
}

const infos = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, k) => info(from + k));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const nextFrame = () => new Promise((r) => requestAnimationFrame(() => r(null)));

/** Renders `transcript` in a 600 × 400 box. */
function mount(transcript: ReactNode, strict = false) {
  const tree = (
    <SkeinTheme theme="light">
      <div style={{ height: 400, width: 600 }}>{transcript}</div>
    </SkeinTheme>
  );
  const view = render(strict ? <StrictMode>{tree}</StrictMode> : tree);
  const feed = view.getByRole('feed');
  const scroller = feed.parentElement as HTMLElement;
  return { ...view, feed, scroller };
}

/** Mounted rows in row order, with their boxes. */
function rowsOf(feed: HTMLElement) {
  return [...feed.querySelectorAll<HTMLElement>('article')]
    .map((el) => ({ el, index: Number(el.dataset['index']), box: el.getBoundingClientRect() }))
    .sort((a, b) => a.index - b.index);
}

/** Gaps and overlaps (≥ 1px) between neighbouring rows in view. */
function gaps(feed: HTMLElement, scroller: HTMLElement) {
  const vp = scroller.getBoundingClientRect();
  const drawn = rowsOf(feed).filter((d) => d.box.bottom > vp.top && d.box.top < vp.bottom);
  const out: string[] = [];
  for (let k = 1; k < drawn.length; k++) {
    if (drawn[k]!.index !== drawn[k - 1]!.index + 1) continue;
    const d = drawn[k]!.box.top - drawn[k - 1]!.box.bottom;
    if (Math.abs(d) >= 1) {
      out.push(`${drawn[k - 1]!.el.dataset['eventId']}->${drawn[k]!.el.dataset['eventId']}: ${d}`);
    }
  }
  return out;
}

/** The first row whose bottom is below the top of the view. */
function topRow(feed: HTMLElement, scroller: HTMLElement) {
  const vp = scroller.getBoundingClientRect();
  return rowsOf(feed).find((d) => d.box.bottom > vp.top + 1)!;
}

const topOf = (feed: HTMLElement, id: string) =>
  feed.querySelector(`[data-event-id="${id}"]`)?.getBoundingClientRect().top;

/** Distance from the end of the scroll range. */
const distance = (scroller: HTMLElement) =>
  scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight;

/** Whether the row for `id` is drawn entirely inside the view. */
function inView(feed: HTMLElement, scroller: HTMLElement, id: string) {
  const row = feed.querySelector(`[data-event-id="${id}"]`);
  if (row === null) return false;
  const box = row.getBoundingClientRect();
  const vp = scroller.getBoundingClientRect();
  return box.top >= vp.top - 1 && box.bottom <= vp.bottom + 1;
}

/** Makes a drawn row taller, as an image loading in it would. */
function grow(row: HTMLElement, px: number) {
  const extra = document.createElement('div');
  extra.style.height = `${px}px`;
  row.appendChild(extra);
  return extra;
}

/**
 * Waits until the view is still: bodies drawn (they wait while it moves;
 * `bodies: false` skips that) and nothing moving across 200 ms (longer than
 * the transcript's settle time).
 */
async function settle(feed: HTMLElement, scroller: HTMLElement, { bodies = true } = {}) {
  const state = () =>
    [
      scroller.scrollTop,
      scroller.scrollHeight,
      feed.querySelectorAll('.skein-transcript__body').length,
      ...rowsOf(feed).map((d) => `${d.el.dataset['eventId']}@${d.box.top}`),
    ].join();
  let last = '';
  await expect
    .poll(
      () => {
        const now = state();
        const still =
          now === last && (!bodies || feed.querySelector('.skein-transcript__body') !== null);
        last = now;
        return still;
      },
      { interval: 200, timeout: 10_000 },
    )
    .toBe(true);
}

describe('<Transcript> following a live stream', () => {
  async function followed(n: number, ref?: Ref<TranscriptHandle>) {
    const stream = new EventStream();
    for (const e of infos(0, n)) stream.append(e);
    const follows: boolean[] = [];
    const view = mount(
      <Transcript ref={ref} stream={stream} onFollowChange={(f) => follows.push(f)} />,
    );
    await expect.poll(() => inView(view.feed, view.scroller, `e${n - 1}`)).toBe(true);
    await settle(view.feed, view.scroller);
    expect(distance(view.scroller)).toBeLessThan(2);
    return { ...view, stream, follows };
  }

  it('scrollToEvent on a followed live stream stays at the target row', async () => {
    const ref = createRef<TranscriptHandle>();
    const { feed, scroller, stream, follows } = await followed(300, ref);
    let landed!: Promise<boolean>;
    await act(async () => {
      landed = ref.current!.scrollToEvent('e5');
    });
    // Resolves once the row is drawn (and focused), a few commits later.
    await expect(landed).resolves.toBe(true);
    await expect.poll(() => inView(feed, scroller, 'e5')).toBe(true);
    // Going there ended following: the view is not pulled back to the end…
    await settle(feed, scroller);
    expect(inView(feed, scroller, 'e5')).toBe(true);
    expect(follows.at(-1)).toBe(false);
    // …not even by new events.
    for (const e of infos(300, 305)) stream.append(e);
    await expect
      .poll(() => feed.querySelector('article')?.getAttribute('aria-setsize'))
      .toBe('305');
    await settle(feed, scroller);
    expect(inView(feed, scroller, 'e5')).toBe(true);
  });

  it('a small scroll up ends following', async () => {
    const { feed, scroller, stream, follows, ...view } = await followed(300);
    // Trackpad-sized steps, each well within the bottom slack.
    for (let k = 0; k < 10; k++) {
      scroller.scrollTop -= 10;
      await nextFrame();
      await nextFrame();
    }
    const max = scroller.scrollHeight - scroller.clientHeight;
    expect(scroller.scrollTop).toBeLessThan(max - 50);
    await expect.poll(() => follows.at(-1)).toBe(false);
    // New events no longer move the view; the control counts them.
    await settle(feed, scroller);
    const top = topRow(feed, scroller);
    const id = top.el.dataset['eventId']!;
    for (const e of infos(300, 303)) stream.append(e);
    await view.findByRole('button', { name: /3 new events/ });
    await settle(feed, scroller);
    expect(Math.abs(topOf(feed, id)! - top.box.top)).toBeLessThan(2);
  });

  it('pinned view stays at the bottom when the last row grows later', async () => {
    const stream = new EventStream();
    for (let i = 0; i < 100; i++) stream.append(info(i, 3));
    const follows: boolean[] = [];
    const { feed, scroller } = mount(
      <Transcript stream={stream} onFollowChange={(f) => follows.push(f)} />,
    );
    await expect.poll(() => inView(feed, scroller, 'e99')).toBe(true);
    await settle(feed, scroller);
    expect(distance(scroller)).toBeLessThan(2);
    // Outside any commit, as an image in the last row finishing loading.
    grow(feed.querySelector<HTMLElement>('[data-event-id="e99"]')!, 300);
    expect(distance(scroller)).toBeGreaterThan(250);
    await expect.poll(() => distance(scroller)).toBeLessThan(2);
    await settle(feed, scroller);
    expect(distance(scroller)).toBeLessThan(2);
    const last = feed.querySelector('[data-event-id="e99"]')!.getBoundingClientRect();
    expect(last.bottom).toBeLessThanOrEqual(scroller.getBoundingClientRect().bottom + 1);
    expect(follows).not.toContain(false);
  });
});

describe('<Transcript> following while the content shrinks', () => {
  it('keeps following when rows measure far shorter than estimated (the browser clamps the position)', async () => {
    const stream = new EventStream();
    for (const e of infos(0, 200)) stream.append(e);
    const follows: boolean[] = [];
    const view = mount(
      <Transcript
        stream={stream}
        estimateRowHeight={400}
        onFollowChange={(f) => follows.push(f)}
      />,
    );
    await expect.poll(() => inView(view.feed, view.scroller, 'e199')).toBe(true);
    for (const e of infos(200, 260)) stream.append(e);
    await expect.poll(() => inView(view.feed, view.scroller, 'e259')).toBe(true);
    expect(follows.at(-1)).toBe(true);
    expect(follows).not.toContain(false);
    expect(view.queryByRole('button', { name: /new event/ })).toBeNull();
  });
});

describe('<Transcript> the "N new events" control', () => {
  it('follow={false}: the N new events control clears when clicked', async () => {
    const stream = new EventStream();
    for (const e of infos(0, 100)) stream.append(e);
    const { feed, scroller, ...view } = mount(<Transcript stream={stream} follow={false} />);
    await settle(feed, scroller);
    for (const e of infos(100, 105)) stream.append(e);
    await userEvent.click(await view.findByRole('button', { name: /5 new events/ }));
    // (Generous: the rows at the end mount, measure and grow on a loaded
    // 2-core CI machine; CI failed at the 1 s default.)
    await expect
      .poll(() => view.queryByRole('button', { name: /new event/ }), { timeout: 10_000 })
      .toBeNull();
    await expect.poll(() => inView(feed, scroller, 'e104'), { timeout: 10_000 }).toBe(true);
    await sleep(100);
    expect(view.queryByRole('button', { name: /new event/ })).toBeNull();
  });

  it('follow={false}: after "N new events" the end stays in view while the last rows grow, and later events do not move it', async () => {
    const stream = new EventStream();
    for (const e of infos(0, 100)) stream.append(e);
    const { feed, scroller, ...view } = mount(<Transcript stream={stream} follow={false} />);
    await settle(feed, scroller);
    for (const e of infos(100, 105)) stream.append(e);
    await userEvent.click(await view.findByRole('button', { name: /5 new events/ }));
    await expect.poll(() => inView(feed, scroller, 'e104'), { timeout: 10_000 }).toBe(true);
    // The last row grows after the jump (its body, an image): still in view.
    grow(feed.querySelector<HTMLElement>('[data-event-id="e104"]')!, 150);
    await expect.poll(() => inView(feed, scroller, 'e104'), { timeout: 10_000 }).toBe(true);
    // A later event does not move the view to it (follow is off) and is counted.
    const top = scroller.scrollTop;
    stream.append(info(105));
    await view.findByRole('button', { name: /1 new event/ });
    expect(scroller.scrollTop).toBeLessThanOrEqual(top);
  });

  it('a finished log longer than the first slice shows no new-events control', async () => {
    const { feed, ...view } = mount(<Transcript events={infos(0, 3000)} />);
    await expect.poll(() => feed.getAttribute('aria-busy')).toBe('false');
    expect(feed.querySelector('article')?.getAttribute('aria-setsize')).toBe('3000');
    await nextFrame();
    await sleep(100);
    expect(view.queryByRole('button', { name: /new event/ })).toBeNull();
  });
});

describe('<Transcript> measuring rows', () => {
  it('StrictMode: rows drawn at mount get their bodies', async () => {
    const { feed } = mount(<Transcript events={infos(0, 50)} />, true);
    await expect
      .poll(() => feed.querySelectorAll('.skein-transcript__body').length)
      .toBeGreaterThan(3);
  });

  it('StrictMode: rows drawn at mount are still measured when they grow', async () => {
    const { feed, scroller } = mount(<Transcript events={infos(0, 50)} />, true);
    // (Bodies are another case: this one is about measuring.)
    await settle(feed, scroller, { bodies: false });
    const row = feed.querySelector<HTMLElement>('[data-event-id="e2"]')!;
    const height = row.getBoundingClientRect().height;
    grow(row, 100);
    expect(row.getBoundingClientRect().height).toBeGreaterThan(height + 99);
    await expect.poll(() => gaps(feed, scroller)).toEqual([]);
    const next = feed.querySelector('[data-event-id="e3"]')!.getBoundingClientRect();
    expect(Math.abs(next.top - row.getBoundingClientRect().bottom)).toBeLessThan(1);
  });

  it('rows that stay mounted are remeasured when the tree is re-indexed', async () => {
    const stream = new EventStream();
    stream.append(begin('A'));
    stream.append(info(0, 1, 'a0', 'A'));
    stream.append(begin('B'));
    // Rows of 1 to 12 lines, so a stale height shows.
    for (let i = 0; i < 40; i++) stream.append(info(i, 1 + ((i * 7) % 12), `b${i}`, 'B'));
    const { feed, scroller } = mount(<Transcript stream={stream} />);
    await expect.poll(() => inView(feed, scroller, 'b39')).toBe(true);
    await settle(feed, scroller);
    expect(gaps(feed, scroller)).toEqual([]);
    // A child of span A arrives: every row of B moves one place down in
    // pre-order, while the rows in view stay mounted.
    const setSize = () => feed.querySelector('article')?.getAttribute('aria-setsize');
    const rowsBefore = Number(setSize());
    stream.append(info(1, 1, 'a1', 'A'));
    await expect.poll(setSize).toBe(String(rowsBefore + 1));
    await settle(feed, scroller);
    expect(gaps(feed, scroller)).toEqual([]);
  });
});

describe('<Transcript> keeping the top row in place', () => {
  it('a row above the top that grows does not displace the top row for a frame', async () => {
    const { feed, scroller } = mount(<Transcript events={infos(0, 2000)} />);
    await expect.poll(() => feed.getAttribute('aria-busy')).toBe('false');
    scroller.scrollTop = 20_000;
    await settle(feed, scroller);
    const top = topRow(feed, scroller);
    const above = rowsOf(feed).find((d) => d.index === top.index - 2);
    expect(above).toBeDefined();
    const before = top.box.top;
    const moved = () => top.el.getBoundingClientRect().top - before;
    // Created after the transcript's observer, so called after it in the
    // same delivery, before the frame is painted.
    const inDelivery: number[] = [];
    const nextFrames: number[] = [];
    const observer = new ResizeObserver(() => {
      inDelivery.push(moved());
      requestAnimationFrame(() => nextFrames.push(moved()));
    });
    try {
      const extra = grow(above!.el, 300);
      observer.observe(extra);
      await expect.poll(() => nextFrames.length).toBeGreaterThan(0);
    } finally {
      observer.disconnect();
    }
    expect(Math.abs(inDelivery[0]!)).toBeLessThan(1);
    expect(Math.abs(nextFrames[0]!)).toBeLessThan(1);
    await settle(feed, scroller);
    expect(top.el.isConnected).toBe(true);
    expect(Math.abs(moved())).toBeLessThan(1);
  });

  // A scaled scroll space: content taller than the browser lets a scroller
  // be (600k rows of about 33px, 20M px, in a scroll height of 15M px).
  const SCALED = 600_000;
  let scaledRun: Event[] | undefined;
  const scaled = () => (scaledRun ??= infos(0, SCALED));

  async function scrolledToMiddle(transcript: ReactNode) {
    const view = mount(transcript);
    const { feed, scroller } = view;
    await expect.poll(() => feed.getAttribute('aria-busy'), { timeout: 30_000 }).toBe('false');
    expect(scroller.hasAttribute('data-scaled')).toBe(true);
    scroller.scrollTop = scroller.scrollHeight / 2;
    await settle(feed, scroller);
    // On a loaded machine the open stream may still pin the view to its end
    // when the scroll lands (seen once in CI with the whole suite running):
    // scroll again until the view is in the middle.
    await expect
      .poll(
        () => {
          const index = topRow(feed, scroller).index;
          if (index < SCALED / 4 || index > (SCALED * 3) / 4)
            scroller.scrollTop = scroller.scrollHeight / 2;
          return index;
        },
        { timeout: 30_000 },
      )
      .toBeGreaterThan(SCALED / 4);
    await settle(feed, scroller);
    const top = topRow(feed, scroller);
    expect(top.index).toBeLessThan((SCALED * 3) / 4);
    return { ...view, top, id: top.el.dataset['eventId']!, before: top.box.top };
  }

  it('the top row stays put in the scaled scroll space when a row below it grows', async () => {
    const { feed, scroller, top, id, before } = await scrolledToMiddle(
      <Transcript events={scaled()} />,
    );
    const below = rowsOf(feed).find((d) => d.index === top.index + 3)!;
    grow(below.el, 300);
    await expect.poll(() => below.el.getBoundingClientRect().height).toBeGreaterThan(300);
    await settle(feed, scroller);
    expect(topOf(feed, id)).toBeDefined();
    expect(Math.abs(topOf(feed, id)! - before)).toBeLessThan(2);
  });

  it('the top row stays put in the scaled scroll space when events are appended', async () => {
    const stream = new EventStream();
    for (const e of scaled()) stream.append(e);
    const { feed, scroller, id, before, ...view } = await scrolledToMiddle(
      <Transcript stream={stream} />,
    );
    for (const e of infos(SCALED, SCALED + 10)) stream.append(e);
    // A live snapshot of 600k events is held back in proportion to its cost:
    // on a loaded machine that is seconds, not the default 1 s.
    await view.findByRole('button', { name: /10 new events/ }, { timeout: 30_000 });
    await settle(feed, scroller);
    expect(topOf(feed, id)).toBeDefined();
    expect(Math.abs(topOf(feed, id)! - before)).toBeLessThan(2);
  });
});

describe('<Transcript connection> in a narrow pane', () => {
  it('wraps the last error inside the toolbar at 390 px instead of running past its edge', async () => {
    const stream = new EventStream();
    const snapshot: LiveConnectionSnapshot = {
      status: 'reconnecting',
      error: new Error(
        'The live connection was lost: Failed to fetch (no server at https://agents.example.com/api/runs/a-very-long-run-id/events)',
      ),
      stream,
      streamId: null,
      lastEventId: null,
      attempt: 4,
      resets: 0,
      duplicates: 0,
    };
    const view = render(
      <div style={{ width: 390, height: 400 }}>
        <Transcript stream={stream} connection={snapshot} />
      </div>,
    );
    const status = await view.findByRole('status', { name: 'Connection' });
    expect(status.textContent).toMatch(/attempt 4.*last error: The live connection was lost/);
    const toolbar = status.parentElement!;
    const bar = toolbar.getBoundingClientRect();
    const error = status.querySelector('.skein-transcript__connection-error')!;
    // On lines of its own, inside the toolbar: nothing to scroll sideways.
    const whole = document.createRange();
    whole.selectNodeContents(error);
    const tops = new Set([...whole.getClientRects()].map((r) => Math.round(r.top)));
    expect(tops.size).toBeGreaterThan(1);
    expect(error.getBoundingClientRect().right).toBeLessThanOrEqual(bar.right + 0.5);
    expect(status.getBoundingClientRect().right).toBeLessThanOrEqual(bar.right + 0.5);
    expect(document.documentElement.scrollWidth).toBeLessThanOrEqual(window.innerWidth);
    // Words stay whole: "connection" is not cut across two lines.
    const range = document.createRange();
    const text = [...error.childNodes].find((n) => n.textContent!.includes('connection'))!;
    const at = text.textContent!.indexOf('connection');
    range.setStart(text, at);
    range.setEnd(text, at + 'connection'.length);
    expect(range.getClientRects().length).toBe(1);
  });
});
