// <Transcript> dropped in as a user would (issue 16): only src/styles.css,
// no <SkeinTheme>, in each kind of parent, with 100k generated events.
import { cleanup, render } from '@testing-library/react';
import type { CSSProperties, ReactNode } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EventStream, generateRun, type Event } from '../../src/index.js';
import { Transcript, type TranscriptWarning } from '../../src/react.js';
import '../../src/styles.css';

afterEach(() => cleanup());

let run: Event[];
beforeAll(() => {
  run = generateRun({ seed: 16, events: 100_000, pendingRate: 0 });
});

const rows = (root: ParentNode) => root.querySelectorAll<HTMLElement>('article');

/** The four parents a user drops the transcript into. */
const layouts: Record<string, (child: ReactNode) => ReactNode> = {
  'a fixed-height box': (child) => <div style={{ height: 500 }}>{child}</div>,
  'a flex child': (child) => (
    <div style={{ display: 'flex', flexDirection: 'column', height: 500 }}>
      <header style={{ height: 40 }}>App header</header>
      <div style={{ flex: 1, minHeight: 0 }}>{child}</div>
    </div>
  ),
  'a grid child': (child) => (
    <div style={{ display: 'grid', gridTemplateRows: 'auto 1fr', height: 500 }}>
      <header style={{ height: 40 }}>App header</header>
      {child}
    </div>
  ),
  'an unsized parent in page flow': (child) => (
    <div>
      <p>Some page text above.</p>
      {child}
      <p>Some page text below.</p>
    </div>
  ),
};

describe('<Transcript> bare, in each layout, with 100k events', () => {
  for (const [name, wrap] of Object.entries(layouts)) {
    it(`in ${name}: bounded DOM, a scroller, the last event reachable`, async () => {
      const warnings: TranscriptWarning[] = [];
      const view = render(
        wrap(<Transcript events={run} onWarning={(w) => warnings.push(w)} />) as React.ReactElement,
      );
      const feed = view.getByRole('feed');
      const scroller = feed.parentElement!;
      await expect.poll(() => feed.getAttribute('aria-busy'), { timeout: 60_000 }).toBe('false');
      expect(rows(feed).length).toBeGreaterThan(3);
      expect(rows(feed).length).toBeLessThanOrEqual(100);
      // A scroller: bounded, and scrolling.
      expect(scroller.clientHeight).toBeGreaterThan(100);
      expect(scroller.clientHeight).toBeLessThanOrEqual(700);
      expect(scroller.scrollHeight).toBeGreaterThan(scroller.clientHeight * 10);
      expect(getComputedStyle(scroller).overflowY).toBe('auto');
      // The page did not grow with the rows.
      expect(document.documentElement.scrollHeight).toBeLessThan(2000);
      // A complete array opens at its first event.
      expect(rows(feed)[0]!.getAttribute('aria-posinset')).toBe('1');
      // The last row is reachable by scrolling.
      const total = Number(rows(feed)[0]!.getAttribute('aria-setsize'));
      scroller.scrollTop = scroller.scrollHeight;
      await expect
        .poll(() => feed.querySelector(`[aria-posinset="${total}"]`) !== null, { timeout: 10_000 })
        .toBe(true);
      expect(rows(feed).length).toBeLessThanOrEqual(100);
      const last = feed.querySelector(`[aria-posinset="${total}"]`)!.getBoundingClientRect();
      const box = scroller.getBoundingClientRect();
      expect(last.bottom).toBeLessThanOrEqual(box.bottom + 1);
      expect(last.top).toBeGreaterThanOrEqual(box.top - 1);
      expect(warnings).toEqual([]);
    }, 120_000);
  }

  it('fills its fixed-height parent exactly, and takes the documented default height unsized', async () => {
    const fixed = render(
      <div style={{ height: 420 }} data-testid="box">
        <Transcript events={run.slice(0, 2000)} />
      </div>,
    );
    const root = fixed.container.querySelector<HTMLElement>('.skein-transcript')!;
    expect(root.getBoundingClientRect().height).toBeCloseTo(420, 0);
    cleanup();
    const unsized = render(
      <div>
        <Transcript events={run.slice(0, 2000)} />
      </div>,
    );
    const scroller = unsized.getByRole('feed').parentElement!;
    expect(scroller.getBoundingClientRect().height).toBeCloseTo(600, 0);
    cleanup();
    const custom = render(
      <div>
        <Transcript
          events={run.slice(0, 2000)}
          style={{ '--skein-transcript-height': '300px' } as CSSProperties}
        />
      </div>,
    );
    expect(custom.getByRole('feed').parentElement!.getBoundingClientRect().height).toBeCloseTo(
      300,
      0,
    );
  });

  it('carries its colours without a theme, and inherits a theme it sits in', async () => {
    const bare = render(<Transcript events={run.slice(0, 50)} />);
    const root = bare.container.querySelector<HTMLElement>('.skein-transcript')!;
    const bg = getComputedStyle(root).backgroundColor;
    expect(bg).not.toBe('rgba(0, 0, 0, 0)');
    expect(getComputedStyle(root).getPropertyValue('--skein-border').trim()).not.toBe('');
    cleanup();
    const themed = render(
      <div className="skein" style={{ '--skein-bg': 'rgb(1, 2, 3)' } as CSSProperties}>
        <Transcript events={run.slice(0, 50)} />
      </div>,
    );
    const inner = themed.container.querySelector<HTMLElement>('.skein-transcript')!;
    expect(getComputedStyle(inner).backgroundColor).toBe('rgb(1, 2, 3)');
  });

  it('warns when the parent is 0 px tall', async () => {
    const warnings: TranscriptWarning[] = [];
    render(
      <div style={{ height: 0, overflow: 'hidden' }}>
        <Transcript
          events={run.slice(0, 500)}
          style={{ height: '100%' }}
          onWarning={(w) => warnings.push(w)}
        />
      </div>,
    );
    // (The toolbar alone overflows the 0 px box: the scroller gets nothing.)
    await expect.poll(() => warnings.map((w) => w.code)).toEqual(['layout_no_height']);
  });

  it('warns, and still draws only the window, when a style makes the scroller grow with its rows', async () => {
    const warnings: TranscriptWarning[] = [];
    const view = render(
      <div>
        <style>
          {
            '.grow .skein-transcript__scroller { flex: none !important; overflow: visible !important; }'
          }
        </style>
        <Transcript
          className="grow"
          events={run.slice(0, 20_000)}
          onWarning={(w) => warnings.push(w)}
        />
      </div>,
    );
    await expect.poll(() => warnings.map((w) => w.code)).toEqual(['layout_unbounded']);
    expect(rows(view.getByRole('feed')).length).toBeLessThanOrEqual(100);
  });

  it('a live stream opens at its end; EventStream.from and close() make it complete', async () => {
    const live = new EventStream();
    for (const e of run.slice(0, 3000)) live.append(e);
    const view = render(
      <div style={{ height: 400 }}>
        <Transcript stream={live} />
      </div>,
    );
    const feed = view.getByRole('feed');
    const scroller = feed.parentElement!;
    await expect
      .poll(() => scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight)
      .toBeLessThan(2);
    expect(Number(rows(feed)[0]!.getAttribute('aria-posinset'))).toBeGreaterThan(100);
    cleanup();
    const done = render(
      <div style={{ height: 400 }}>
        <Transcript stream={EventStream.from(run.slice(0, 3000))} />
      </div>,
    );
    const feed2 = done.getByRole('feed');
    await expect.poll(() => feed2.getAttribute('aria-busy')).toBe('false');
    expect(feed2.parentElement!.scrollTop).toBe(0);
    expect(rows(feed2)[0]!.getAttribute('aria-posinset')).toBe('1');
    cleanup();
    const ends = render(
      <div style={{ height: 400 }}>
        <Transcript events={run.slice(0, 3000)} openAt="end" />
      </div>,
    );
    const s3 = ends.getByRole('feed').parentElement!;
    await expect.poll(() => s3.scrollHeight - s3.scrollTop - s3.clientHeight).toBeLessThan(2);
  });

  it('a section header counts what opening it shows and says what it hides; kind labels never wrap', async () => {
    const T = '2026-06-10T18:23:50.000Z';
    const events = [
      {
        event: 'span_begin',
        uuid: 'b-init',
        timestamp: T,
        id: 'init',
        span_id: 'init',
        name: 'init',
        type: 'init',
      },
      {
        event: 'sample_init',
        uuid: 's1',
        timestamp: T,
        span_id: 'init',
        sample: { input: 'hi' },
        state: {},
      },
      { event: 'span_end', uuid: 'e-init', timestamp: T, id: 'init', span_id: 'init' },
      {
        event: 'span_begin',
        uuid: 'b-a',
        timestamp: T,
        id: 'a',
        span_id: 'a',
        name: 'agent',
        type: 'agent',
      },
      { event: 'info', uuid: 'i1', timestamp: T, span_id: 'a', source: 'x', data: 'one' },
      { event: 'store', uuid: 'st', timestamp: T, span_id: 'a', changes: [] },
      { event: 'span_end', uuid: 'e-a', timestamp: T, id: 'a', span_id: 'a' },
    ] as unknown as Event[];
    const view = render(
      <div style={{ width: 260 }}>
        <Transcript events={events} />
      </div>,
    );
    const header = (uuid: string) =>
      view.container.querySelector(`[data-event-id="${uuid}"] .skein-transcript__meta`)!
        .textContent;
    // A section the filter empties says so, not "0 events · 1 hidden" (which
    // reads as if it hid the row beside it), and has nothing to open.
    await expect.poll(() => header('b-init')).toContain('only hidden events (1 sample_init)');
    expect(header('b-init')).not.toMatch(/\b0 events|\d hidden/);
    expect(
      view.container.querySelector('[data-event-id="b-init"] [data-toggle]')!.textContent,
    ).toBe('·');
    expect(header('b-a')).toMatch(/1 event(?!s).*1 hidden \(1 store\)/);
    // Opening "agent" shows exactly the one event it counts.
    const shown = [...view.container.querySelectorAll('article')].map((a) => a.dataset['eventId']);
    expect(shown).toEqual(['b-init', 'b-a', 'i1']);
    // In a narrow row the kind label stays on one line.
    const kind = view.container.querySelector<HTMLElement>(
      '[data-event-id="i1"] .skein-transcript__kind',
    )!;
    expect(getComputedStyle(kind).whiteSpace).toBe('nowrap');
    const lineHeight =
      parseFloat(getComputedStyle(kind).lineHeight) || kind.getBoundingClientRect().height;
    expect(kind.getBoundingClientRect().height).toBeLessThanOrEqual(lineHeight * 1.5);
  });
});
