import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { StrictMode, createRef, type ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  EventStream,
  createDescriberRegistry,
  createEventTreeFeed,
  type Event,
} from '../../src/index.js';
import {
  DisplayProvider,
  SpanTree,
  Transcript,
  readEventHash,
  writeEventHash,
  type RendererProps,
  type TranscriptHandle,
} from '../../src/react.js';

const T0 = Date.parse('2026-06-10T18:23:50Z');
const ts = (i: number) => new Date(T0 + i * 1000).toISOString();
const info = (uuid: string, span: string | null, text = `note ${uuid}`): Event =>
  ({ event: 'info', uuid, timestamp: ts(1), span_id: span, source: 'test', data: text }) as Event;
const begin = (uuid: string, id: string, parent: string | null = null): Event =>
  ({
    event: 'span_begin',
    uuid,
    timestamp: ts(0),
    id,
    parent_id: parent,
    span_id: id,
    name: id,
    type: 'agent',
  }) as Event;
const end = (uuid: string, id: string): Event =>
  ({ event: 'span_end', uuid, timestamp: ts(9), id, span_id: id }) as Event;
const store = (uuid: string, span: string | null): Event =>
  ({ event: 'store', uuid, timestamp: ts(2), span_id: span, changes: [] }) as Event;

/** `n` info events at the root, numbered from `from`. */
const many = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => info(`e${from + i}`, null, `row ${from + i}`));

const rowsOf = (container: HTMLElement) => [...container.querySelectorAll<HTMLElement>('article')];
const feedOf = () => screen.getByRole('feed');
const scrollerOf = () => feedOf().parentElement!;

beforeEach(() => {
  // jsdom has no layout (research/toolchain.md §2.4): give the viewport and
  // every row a size, and the scroller the feed's height.
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(400);
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(600);
  vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockImplementation(function (
    this: HTMLElement,
  ) {
    return this.localName === 'article' ? 40 : 0;
  });
  vi.spyOn(HTMLElement.prototype, 'scrollHeight', 'get').mockImplementation(function (
    this: HTMLElement,
  ) {
    const feed = this.querySelector<HTMLElement>('[role="feed"]');
    return feed ? Number.parseFloat(feed.style.height) || 0 : 0;
  });
});

function Frame({ children }: { children: React.ReactNode }) {
  return <div style={{ height: 400 }}>{children}</div>;
}

describe('<Transcript> rows and ARIA', () => {
  it('places rows at their measured heights and sizes the feed from them', async () => {
    // Every article measures 40 px here (beforeEach); estimates are 72.
    const { container } = render(<Transcript events={many(300)} />);
    await vi.waitFor(() => expect(feedOf().getAttribute('aria-busy')).toBe('false'));
    const drawn = rowsOf(container).sort(
      (a, b) => Number(a.dataset['index']) - Number(b.dataset['index']),
    );
    expect(drawn.length).toBeGreaterThan(5);
    for (const row of drawn) {
      expect(row.style.height).toBe('');
      expect(row.style.transform).toBe(`translateY(${40 * Number(row.dataset['index'])}px)`);
    }
    // The feed is the sum of the heights: 40 for every row measured (at
    // least those drawn now), the 72 estimate for rows never drawn.
    const height = Number.parseFloat(feedOf().style.height);
    const measured = (300 * 72 - height) / 32;
    expect(Number.isInteger(measured)).toBe(true);
    expect(measured).toBeGreaterThanOrEqual(drawn.length);
    expect(measured).toBeLessThan(60);
  });

  it('is a feed of articles with position, size and data-event-id, and a bounded DOM', async () => {
    const { container } = render(<Transcript events={many(5000)} />);
    const feed = feedOf();
    // The first slice paints at once; the rest arrives in the background.
    expect(feed.getAttribute('aria-busy')).toBe('true');
    await vi.waitFor(() => expect(feed.getAttribute('aria-busy')).toBe('false'));
    expect(feed?.getAttribute('aria-label')).toBe('Transcript');
    const rows = rowsOf(container);
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.length).toBeLessThan(30);
    expect(rows[0]?.getAttribute('data-event-id')).toBe('e0');
    expect(rows[0]?.getAttribute('aria-posinset')).toBe('1');
    expect(rows[0]?.getAttribute('aria-setsize')).toBe('5000');
    expect(rows[0]?.getAttribute('tabindex')).toBe('0');
    expect(rows[1]?.getAttribute('tabindex')).toBe('-1');
    expect(within(rows[0]!).getAllByText('row 0').length).toBeGreaterThan(0);
    // Labelled by its title.
    expect(document.getElementById(rows[0]!.getAttribute('aria-labelledby')!)).not.toBeNull();
  });

  it('hides sample_init/sandbox/state/store by default, says how many, and shows them on request', () => {
    const onFilterChange = vi.fn();
    const events = [info('a', null), store('s1', null), store('s2', null)];
    const { container } = render(<Transcript events={events} onFilterChange={onFilterChange} />);
    expect(rowsOf(container).map((r) => r.dataset['eventId'])).toEqual(['a']);
    expect(screen.getByText(/2 hidden \(2 store\)/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Show all' }));
    expect(onFilterChange).toHaveBeenCalledWith([]);
    expect(rowsOf(container).map((r) => r.dataset['eventId'])).toEqual(['a', 's1', 's2']);
  });

  it('renders every kind, including one nobody knows', () => {
    const odd = {
      event: 'quantum_leap',
      uuid: 'q',
      timestamp: ts(1),
      span_id: null,
      payload: { x: 1 },
    } as unknown as Event;
    const { container } = render(<Transcript events={[odd]} />);
    const row = rowsOf(container)[0]!;
    expect(row?.getAttribute('data-kind')).toBe('quantum_leap');
    expect(row.textContent).toContain('quantum_leap');
  });
});

describe('<Transcript> sections', () => {
  const nested = [
    begin('b1', 'agent'),
    info('i1', 'agent'),
    begin('b2', 'tool', 'agent'),
    info('i2', 'tool'),
    end('x2', 'tool'),
    end('x1', 'agent'),
    info('i3', null),
  ];

  it('collapses a section on click (uncontrolled) and reports it', () => {
    const onCollapsedChange = vi.fn();
    const { container } = render(
      <Transcript events={nested} onCollapsedChange={onCollapsedChange} />,
    );
    expect(rowsOf(container)).toHaveLength(5);
    const header = rowsOf(container)[0]!;
    expect(header?.getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(header.querySelector('[data-toggle]')!);
    expect(onCollapsedChange).toHaveBeenCalledWith(new Set(['agent']));
    expect(rowsOf(container).map((r) => r.dataset['eventId'])).toEqual(['b1', 'i3']);
    expect(rowsOf(container)[0]?.getAttribute('aria-expanded')).toBe('false');
  });

  it('follows a controlled collapsed set', () => {
    const { container, rerender } = render(
      <Transcript events={nested} collapsed={new Set(['tool'])} />,
    );
    expect(rowsOf(container).map((r) => r.dataset['eventId'])).toEqual(['b1', 'i1', 'b2', 'i3']);
    rerender(<Transcript events={nested} collapsed={new Set()} />);
    expect(rowsOf(container)).toHaveLength(5);
  });

  it('scrollToEvent expands the collapsed ancestors, focuses and selects the row', async () => {
    const ref = createRef<TranscriptHandle>();
    const onSelect = vi.fn();
    const { container } = render(
      <Transcript ref={ref} events={nested} defaultCollapsed={['agent']} onSelect={onSelect} />,
    );
    expect(rowsOf(container)).toHaveLength(2);
    let landed!: Promise<boolean>;
    await act(async () => {
      landed = ref.current!.scrollToEvent('i2');
    });
    // It resolves once the row is drawn (a few commits later).
    await act(async () => {
      await new Promise((r) => setTimeout(r, 50));
    });
    await expect(landed).resolves.toBe(true);
    const row = container.querySelector<HTMLElement>('[data-event-id="i2"]')!;
    expect(row).not.toBeNull();
    expect(row?.hasAttribute('data-selected')).toBe(true);
    expect(document.activeElement).toBe(row);
    expect(onSelect).toHaveBeenCalledWith('i2');
    let missing!: Promise<boolean>;
    await act(async () => {
      missing = ref.current!.scrollToEvent('nope');
    });
    await expect(missing).resolves.toBe(false);
  });
});

describe('<Transcript> keyboard', () => {
  it('moves with j/k/Home/End and toggles with Enter, keeping one tabbable row', async () => {
    const events = [
      begin('b1', 'agent'),
      ...many(50).map((e) => ({ ...e, span_id: 'agent' }) as Event),
      end('x1', 'agent'),
    ];
    const { container } = render(<Transcript events={events} />);
    const first = rowsOf(container)[0]!;
    act(() => first.focus());
    fireEvent.keyDown(first, { key: 'j' });
    await act(async () => {});
    expect(document.activeElement?.getAttribute('data-event-id')).toBe('e0');
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    await act(async () => {});
    expect(document.activeElement?.getAttribute('data-event-id')).toBe('e1');
    fireEvent.keyDown(document.activeElement!, { key: 'k' });
    await act(async () => {});
    expect(document.activeElement?.getAttribute('data-event-id')).toBe('e0');
    fireEvent.keyDown(document.activeElement!, { key: 'End' });
    await act(async () => {});
    expect(document.activeElement?.getAttribute('data-event-id')).toBe('e49');
    expect(container.querySelectorAll('article[tabindex="0"]')).toHaveLength(1);
    fireEvent.keyDown(document.activeElement!, { key: 'Home' });
    await act(async () => {});
    expect(document.activeElement?.getAttribute('data-event-id')).toBe('b1');
    fireEvent.keyDown(document.activeElement!, { key: 'Enter' });
    await act(async () => {});
    expect(rowsOf(container)).toHaveLength(1);
    fireEvent.keyDown(document.activeElement!, { key: ' ' });
    await act(async () => {});
    expect(rowsOf(container).length).toBeGreaterThan(1);
  });
});

describe('<Transcript> find', () => {
  it('opens with Ctrl-F, counts matches beyond the rendered rows, steps to them, closes with Esc', async () => {
    const events = many(300).map((e, i) => (i % 50 === 7 ? info(e.uuid, null, `needle ${i}`) : e));
    const { container } = render(<Transcript events={events} />);
    const root = container.firstElementChild as HTMLElement;
    fireEvent.keyDown(rowsOf(container)[0]!, { key: 'f', ctrlKey: true });
    const input = await screen.findByRole('searchbox', { name: 'Find in transcript' });
    fireEvent.change(input, { target: { value: 'NEEDLE' } });
    await vi.waitFor(() => expect(screen.getByText(/^6 matches$/)).toBeTruthy());
    // Matches at rows 7, 57, …, 257: most are not rendered.
    expect(container.querySelector('[data-event-id="e257"]')).toBeNull();
    fireEvent.keyDown(input, { key: 'Enter' });
    await act(async () => {});
    await vi.waitFor(() =>
      expect(container.querySelector('[data-current-match]')?.getAttribute('data-event-id')).toBe(
        'e7',
      ),
    );
    fireEvent.keyDown(input, { key: 'Enter', shiftKey: true });
    await act(async () => {});
    await vi.waitFor(() =>
      expect(container.querySelector('[data-current-match]')?.getAttribute('data-event-id')).toBe(
        'e257',
      ),
    );
    expect(screen.getByText(/^6 of 6 matches$/)).toBeTruthy();
    fireEvent.keyDown(input, { key: 'Escape' });
    expect(screen.queryByRole('searchbox')).toBeNull();
    expect(root.querySelector('[data-current-match]')).toBeNull();
  });

  it('opens with / and takes a controlled query', async () => {
    const { container, rerender } = render(<Transcript events={many(20)} />);
    fireEvent.keyDown(rowsOf(container)[0]!, { key: '/' });
    expect(await screen.findByRole('searchbox')).toBeTruthy();
    rerender(<Transcript events={many(20)} findQuery="row 1" />);
    // "row 1", "row 10" … "row 19".
    await vi.waitFor(() => expect(screen.getByText(/^11 matches$/)).toBeTruthy());
  });

  it('searches the text custom describers show', async () => {
    const describers = createDescriberRegistry();
    describers.register('info', (e, ctx) => {
      const d = ctx.generic(e);
      return e.uuid === 'e3' ? { ...d, title: 'zebra', searchText: `zebra\n${d.searchText}` } : d;
    });
    const { container } = render(
      <Transcript events={many(20)} describers={describers} findQuery="zebra" />,
    );
    await vi.waitFor(() => expect(screen.getByText(/^1 match$/)).toBeTruthy());
    expect(within(rowsOf(container)[3]!).getAllByText('zebra').length).toBeGreaterThan(0);
    // Without them, nothing says zebra.
    const plain = render(<Transcript events={many(20)} findQuery="zebra" />);
    await vi.waitFor(() =>
      expect(plain.container.querySelector('output')?.textContent).toBe('0 matches'),
    );
  });
});

describe('<Transcript> find highlights', () => {
  it('highlights a match after text whose lower case is longer, without unmounting', async () => {
    // jsdom has no CSS Highlight API: a stand-in registry, over jsdom's real
    // Range (which throws IndexSizeError past a node's end, as browsers do).
    const registry = new Map<string, { ranges: Range[] }>();
    class FakeHighlight {
      ranges: Range[];
      constructor(...ranges: Range[]) {
        this.ranges = ranges;
      }
    }
    vi.stubGlobal('CSS', { highlights: registry });
    vi.stubGlobal('Highlight', FakeHighlight);
    try {
      const events = [info('a', null, 'İİİİ foo'), info('b', null, 'plain foo')];
      render(<Transcript events={events} findQuery="foo" />);
      await vi.waitFor(() => expect(screen.getByText(/^2 matches$/)).toBeTruthy());
      await act(async () => {});
      expect(screen.getByRole('feed')).toBeTruthy();
      const texts = registry.get('skein-find')?.ranges.map((r) => r.toString()) ?? [];
      expect(texts.length).toBeGreaterThan(0);
      for (const text of texts) expect(text).toBe('foo');
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('<Transcript> sources', () => {
  it('takes every event of an async generator exactly once under StrictMode', async () => {
    let started = 0;
    async function* gen() {
      started++;
      for (let i = 0; i < 30; i++) {
        yield info(`g${i}`, null, `gen ${i}`);
        if (i % 7 === 0) await new Promise((r) => setTimeout(r, 1));
      }
    }
    const source = gen();
    render(
      <StrictMode>
        {/* An async iterable is open (live) at mount: it would open at its end. */}
        <Transcript iterable={source} defaultFilter={[]} openAt="start" />
      </StrictMode>,
    );
    await vi.waitFor(() => expect(feedOf().getAttribute('aria-busy')).toBe('false'));
    expect(started).toBe(1);
    expect(screen.getByText(/^30 events$/)).toBeTruthy();
    expect(rowsOf(feedOf())[0]?.getAttribute('data-event-id')).toBe('g0');
    expect(rowsOf(feedOf())[1]?.getAttribute('data-event-id')).toBe('g1');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("calls the iterator's return on unmount", async () => {
    let pulls = 0;
    const returned = vi.fn(() => Promise.resolve({ done: true as const, value: undefined }));
    const iterable: AsyncIterable<Event> = {
      [Symbol.asyncIterator]: () => ({
        // Endless, a little at a time.
        next: () =>
          new Promise<IteratorResult<Event>>((resolve) =>
            setTimeout(() => resolve({ done: false, value: info(`i${pulls++}`, null) }), 1),
          ),
        return: returned,
      }),
    };
    const { unmount } = render(
      <StrictMode>
        <Transcript iterable={iterable} />
      </StrictMode>,
    );
    await vi.waitFor(() => expect(pulls).toBeGreaterThan(2));
    expect(returned).not.toHaveBeenCalled();
    unmount();
    await vi.waitFor(() => expect(returned).toHaveBeenCalledTimes(1));
    const after = pulls;
    await new Promise((r) => setTimeout(r, 20));
    expect(pulls).toBeLessThanOrEqual(after + 1);
  });

  it('says when the event source fails, with the events received before it', async () => {
    async function* gen() {
      yield info('a', null);
      yield info('b', null);
      await new Promise((r) => setTimeout(r, 1));
      throw new Error('connection reset');
    }
    render(<Transcript iterable={gen()} />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(
      'The event source failed: connection reset; showing 2 events received before it',
    );
    expect(feedOf().getAttribute('aria-busy')).toBe('false');
    expect(rowsOf(feedOf())).toHaveLength(2);
  });
});

describe('<Transcript> live', () => {
  it('appending events never re-renders the rows before them', async () => {
    const renders = new Map<string, number>();
    function Counting({ data }: RendererProps) {
      const text = String(data);
      renders.set(text, (renders.get(text) ?? 0) + 1);
      return <span>{text}</span>;
    }
    const counting = {
      name: 'counting',
      mimeTypes: ['text/markdown', 'text/plain'],
      rank: 0,
      safe: true,
      renderer: Counting as ComponentType<RendererProps>,
    };
    const stream = EventStream.from(many(3));
    render(
      <DisplayProvider renderers={[counting]}>
        <Frame>
          <Transcript stream={stream} />
        </Frame>
      </DisplayProvider>,
    );
    // The first rows paint their heads at once and their bodies a task later.
    await act(async () => {
      await new Promise((r) => setTimeout(r, 0));
    });
    const before = new Map(renders);
    expect(before.get('row 0')).toBeGreaterThan(0);
    for (let i = 3; i < 6; i++) {
      await act(async () => {
        stream.append(info(`e${i}`, null, `row ${i}`));
      });
    }
    expect(document.querySelector('[data-event-id="e5"]')).not.toBeNull();
    for (const text of ['row 0', 'row 1', 'row 2'])
      expect(renders.get(text)).toBe(before.get(text));
    expect(renders.get('row 5')).toBeGreaterThan(0);
  });

  it('draws the bodies of rows brought in by a scroll once the view is still', async () => {
    const { container } = render(
      <Frame>
        <Transcript events={many(200)} />
      </Frame>,
    );
    await act(async () => {
      await new Promise((r) => setTimeout(r, 0));
    });
    expect(container.querySelectorAll('.skein-transcript__body').length).toBeGreaterThan(0);
    const scroller = scrollerOf();
    // The settle timer on a fake clock: on a loaded machine, real time between
    // the scroll and the first check could pass the 150 ms settle delay.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      await act(async () => {
        scroller.scrollTop = 4000;
        fireEvent.scroll(scroller);
      });
      const far = rowsOf(container).filter((r) => Number(r.dataset['index']) > 60);
      expect(far.length).toBeGreaterThan(0);
      // Heads at once (nothing to parse), bodies after the scroll settles; rows
      // are never given a height: they are measured.
      expect(far.every((r) => r.querySelector('.skein-transcript__body') === null)).toBe(true);
      expect(far[0]!.style.height).toBe('');
      await act(async () => {
        vi.advanceTimersByTime(100);
      });
      expect(far[0]!.querySelector('.skein-transcript__body')).toBeNull();
      await act(async () => {
        vi.advanceTimersByTime(100);
      });
      expect(far[0]!.querySelector('.skein-transcript__body')).not.toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it('updates a pending event in place', async () => {
    const stream = EventStream.from([{ ...info('p', null, 'working'), pending: true } as Event]);
    const { container } = render(<Transcript stream={stream} />);
    expect(rowsOf(container)[0]!.textContent).toContain('working');
    await act(async () => {
      stream.append(info('p', null, 'done'));
    });
    expect(rowsOf(container)).toHaveLength(1);
    expect(rowsOf(container)[0]!.textContent).toContain('done');
  });

  it('keeps the position when scrolled up and offers "N new events"', async () => {
    const stream = EventStream.from(many(100));
    const onFollowChange = vi.fn();
    render(<Transcript stream={stream} onFollowChange={onFollowChange} />);
    const scroller = scrollerOf();
    await act(async () => {
      scroller.scrollTop = 200;
      fireEvent.scroll(scroller);
    });
    expect(onFollowChange).toHaveBeenLastCalledWith(false);
    await act(async () => {
      stream.append(info('n1', null));
      stream.append(info('n2', null));
    });
    expect(scroller.scrollTop).toBe(200);
    const button = screen.getByRole('button', { name: /2 new events/ });
    await act(async () => {
      fireEvent.click(button);
    });
    expect(screen.queryByRole('button', { name: /new events/ })).toBeNull();
    expect(onFollowChange).toHaveBeenLastCalledWith(true);
  });
});

describe('#event= helpers', () => {
  it('writes and reads the page fragment', () => {
    writeEventHash('abc');
    expect(window.location.hash).toBe('#event=abc');
    expect(readEventHash()).toBe('abc');
    writeEventHash(null);
    expect(readEventHash()).toBeNull();
  });
});

describe('<Transcript> rolled-back turns (metadata.aborted)', () => {
  it('shows the turn and its events marked "rolled back"; other rows are not', () => {
    const mark = (e: Event) => ({ ...e, metadata: { aborted: true } }) as unknown as Event;
    const events = [
      info('a', null),
      mark(begin('b1', 'turn')),
      mark(info('c', 'turn')),
      mark(end('b2', 'turn')),
      info('d', null),
    ];
    const { container } = render(
      <Frame>
        <Transcript events={events} />
      </Frame>,
    );
    const byId = (id: string) => rowsOf(container).find((r) => r.dataset['eventId'] === id)!;
    expect(byId('b1').hasAttribute('data-aborted')).toBe(true);
    expect(within(byId('b1')).getByText('rolled back')).toBeTruthy();
    expect(within(byId('c')).getByText('rolled back')).toBeTruthy();
    expect(byId('a').hasAttribute('data-aborted')).toBe(false);
    expect(within(byId('d')).queryByText('rolled back')).toBeNull();
  });
});

describe('<Transcript> server HTML of a complete array (issue 16)', () => {
  it('holds the first window as finished rows, not a busy placeholder; the client says loading', async () => {
    const events = many(5000);
    const html = renderToString(<Transcript events={events} />);
    expect(html).toContain('aria-busy="false"');
    expect(html).not.toContain('loading…');
    const served = html.match(/<article/g) ?? [];
    expect(served.length).toBe(30);
    expect(html).toContain('data-event-id="e0"');
    expect(html).toContain('data-event-id="e29"');
    // Mounted on the client (not hydrated), the rest is still being folded in.
    render(<Transcript events={events} />);
    expect(feedOf().getAttribute('aria-busy')).toBe('true');
    await vi.waitFor(() => expect(feedOf().getAttribute('aria-busy')).toBe('false'));
  });
});

describe('<Transcript feed> (one tree for several views, issue 17)', () => {
  it('draws from a feed it shares with a span tree, and both follow the stream', async () => {
    const stream = new EventStream();
    stream.append(begin('b1', 'agent'));
    stream.append(info('a', 'agent'));
    const feed = createEventTreeFeed(stream);
    const { container } = render(
      <>
        <Frame>
          <Transcript feed={feed} />
        </Frame>
        <SpanTree feed={feed} />
      </>,
    );
    await vi.waitFor(() => expect(rowsOf(container).length).toBe(2));
    expect(screen.getAllByRole('row').some((r) => r.dataset['key'] === 'agent')).toBe(true);
    act(() => {
      stream.append(begin('b2', 'tool', 'agent'));
      stream.append(info('c', 'tool'));
    });
    await vi.waitFor(() => expect(rowsOf(container).length).toBe(4));
    await vi.waitFor(() =>
      expect(screen.getAllByRole('row').some((r) => r.dataset['key'] === 'tool')).toBe(true),
    );
    // Both read the feed's one tree.
    expect(feed.getSnapshot().tree.length).toBe(4);
  });
});
