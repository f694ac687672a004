// Navigation that lands (issue 16), on a bare <Transcript> (only
// src/styles.css): deep links, the selection at mount, scrollToEvent for any
// event right after mount, and no drift while rows around the target are
// measured.
import { act, cleanup, render } from '@testing-library/react';
import { createRef } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generateRun, type Event } from '../../src/index.js';
import { Transcript, type TranscriptHandle } from '../../src/react.js';
import '../../src/styles.css';

afterEach(() => {
  cleanup();
  history.replaceState(history.state, '', location.pathname + location.search);
});

let run: Event[];
beforeAll(() => {
  // Variable heights: markdown, tool output, JSON bodies of every size.
  run = generateRun({ seed: 5, events: 5_000, pendingRate: 0 });
});

function mount(props: Partial<React.ComponentProps<typeof Transcript>> = {}) {
  const ref = createRef<TranscriptHandle>();
  const view = render(
    <div style={{ height: 600, width: 800 }}>
      <Transcript ref={ref} events={run} {...(props as object)} />
    </div>,
  );
  const feed = view.getByRole('feed');
  return { ...view, ref, feed, scroller: feed.parentElement! };
}

/** The row's top relative to the scroller's, or null when not drawn. */
function topIn(scroller: HTMLElement, uuid: string): number | null {
  const row = scroller.querySelector(`[data-event-id="${CSS.escape(uuid)}"]`);
  if (row === null) return null;
  return row.getBoundingClientRect().top - scroller.getBoundingClientRect().top;
}

function inView(scroller: HTMLElement, uuid: string): boolean {
  const row = scroller.querySelector(`[data-event-id="${CSS.escape(uuid)}"]`);
  if (row === null) return false;
  const box = row.getBoundingClientRect();
  const vp = scroller.getBoundingClientRect();
  return box.top >= vp.top - 1 && box.top < vp.bottom - 10;
}

/** Starts a navigation inside act and waits for it outside (it needs commits). */
async function go(
  ref: React.RefObject<TranscriptHandle | null>,
  uuid: string,
  options?: Parameters<TranscriptHandle['scrollToEvent']>[1],
) {
  let landed!: Promise<boolean>;
  await act(async () => {
    landed = ref.current!.scrollToEvent(uuid, options);
  });
  return landed;
}

const middle = () => run.find((e, i) => i > 2500 && e.event === 'model')!;

describe('<Transcript> deep links and the selection at mount', () => {
  it('#event=<uuid> scrolls to and selects the event on mount (syncHash)', async () => {
    const target = middle();
    history.replaceState(history.state, '', `#event=${encodeURIComponent(target.uuid)}`);
    const { scroller } = mount({ syncHash: true });
    await expect.poll(() => inView(scroller, target.uuid), { timeout: 10_000 }).toBe(true);
    const row = scroller.querySelector(`[data-event-id="${CSS.escape(target.uuid)}"]`)!;
    expect(row.hasAttribute('data-selected')).toBe(true);
  });

  it('selecting a row writes #event=<uuid> (syncHash), and not without it', async () => {
    const { scroller } = mount({ syncHash: true });
    await expect.poll(() => scroller.querySelectorAll('article').length).toBeGreaterThan(3);
    const row = [...scroller.querySelectorAll<HTMLElement>('article')].find(
      (a) => a.querySelector('[data-toggle]') === null,
    )!;
    await act(async () => row.click());
    expect(location.hash).toBe(`#event=${encodeURIComponent(row.dataset['eventId']!)}`);
    cleanup();
    history.replaceState(history.state, '', location.pathname);
    const plain = mount();
    await expect.poll(() => plain.feed.querySelectorAll('article').length).toBeGreaterThan(3);
    await act(async () => plain.feed.querySelectorAll<HTMLElement>('article')[1]!.click());
    expect(location.hash).toBe('');
  });

  it('defaultSelectedId and selectedId scroll the event into view on mount', async () => {
    const target = middle();
    const a = mount({ defaultSelectedId: target.uuid });
    await expect.poll(() => inView(a.scroller, target.uuid), { timeout: 10_000 }).toBe(true);
    cleanup();
    const b = mount({ selectedId: target.uuid });
    await expect.poll(() => inView(b.scroller, target.uuid), { timeout: 10_000 }).toBe(true);
  });
});

describe('<Transcript> scrollToEvent lands on the row that shows any event', () => {
  it('works right after mount (queued until layout and loading)', async () => {
    const last = run.filter((e) => e.event === 'tool').at(-1)!;
    let landed: Promise<boolean> | undefined;
    // Called as soon as the handle exists, in the mount's commit: before the
    // scroller is measured, with most events not loaded yet.
    const view = render(
      <div style={{ height: 600 }}>
        <Transcript
          ref={(handle) => {
            if (handle !== null && landed === undefined) landed = handle.scrollToEvent(last.uuid);
          }}
          events={run}
        />
      </div>,
    );
    expect(landed).toBeDefined();
    await expect(landed).resolves.toBe(true);
    const scroller = view.getByRole('feed').parentElement!;
    expect(inView(scroller, last.uuid)).toBe(true);
    expect(document.activeElement?.getAttribute('data-event-id')).toBe(last.uuid);
  });

  it('a span_end lands on its section header', async () => {
    const { ref, scroller } = mount();
    const spanEnd = run.filter((e) => e.event === 'span_end')[40]!;
    const id = (spanEnd as { id: string }).id;
    const beginning = run.find((e) => e.event === 'span_begin' && (e as { id: string }).id === id)!;
    await expect(go(ref, spanEnd.uuid)).resolves.toBe(true);
    expect(inView(scroller, beginning.uuid)).toBe(true);
  });

  it('an event of a hidden kind shows its kind; one in a collapsed section opens it', async () => {
    const filters: (readonly string[])[] = [];
    const hidden = run.find((e) => e.event === 'sample_init' || e.event === 'state')!;
    const { ref, scroller } = mount({ onFilterChange: (f) => filters.push(f) });
    await expect(go(ref, hidden.uuid)).resolves.toBe(true);
    expect(inView(scroller, hidden.uuid)).toBe(true);
    expect(filters.at(-1)).not.toContain(hidden.event);
    cleanup();

    const inner = run.filter((e) => e.event === 'tool')[30]!;
    const spanId = inner.span_id!;
    const collapsed: ReadonlySet<string>[] = [];
    const view = mount({
      defaultCollapsed: [spanId],
      onCollapsedChange: (c) => collapsed.push(c),
    });
    expect(topIn(view.scroller, inner.uuid)).toBeNull();
    await expect(go(view.ref, inner.uuid)).resolves.toBe(true);
    expect(inView(view.scroller, inner.uuid)).toBe(true);
    expect(collapsed.at(-1)?.has(spanId)).toBe(false);
  });

  it('resolves false for an event the source does not have', async () => {
    const { ref, feed } = mount();
    await expect.poll(() => feed.getAttribute('aria-busy')).toBe('false');
    await expect(go(ref, 'no-such-event')).resolves.toBe(false);
  });
});

describe('<Transcript> scroll anchoring after navigation', () => {
  it('50 random jumps: the target row moves ≤ 2 px over the next 2 s', async () => {
    // Five transcripts side by side, ten rounds of one jump each, observed
    // together: each target is still watched for 2 s, and the suite waits 20 s
    // instead of 100 s (more rows are measured at once, too).
    const views = 5;
    const refs = Array.from({ length: views }, () => createRef<TranscriptHandle>());
    const view = render(
      <div style={{ display: 'flex', width: 1000 }}>
        {refs.map((ref, i) => (
          <div key={i} style={{ height: 600, width: 200 }}>
            <Transcript ref={ref} events={run} />
          </div>
        ))}
      </div>,
    );
    const feeds = view.getAllByRole('feed');
    expect(feeds).toHaveLength(views);
    for (const feed of feeds) {
      await expect.poll(() => feed.getAttribute('aria-busy'), { timeout: 30_000 }).toBe('false');
    }
    // A seeded choice of any events: spans, ends, hidden kinds, bodies of every size.
    let seed = 12345;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    type Watch = {
      scroller: HTMLElement;
      shown: string;
      start: number;
      label: string;
      worst: number;
    };
    // Each watched target from its jump on, also while the other views jump.
    const sample = (watched: Watch[]) => {
      for (const w of watched) {
        const now = topIn(w.scroller, w.shown);
        w.worst = Math.max(w.worst, now === null ? Infinity : Math.abs(now - w.start));
      }
    };
    const drifts: string[] = [];
    for (let round = 0; round < 50 / views; round++) {
      const watched: Watch[] = [];
      for (let v = 0; v < views; v++) {
        const target = run[Math.floor(random() * run.length)]!;
        const scroller = feeds[v]!.parentElement!;
        await expect(go(refs[v]!, target.uuid)).resolves.toBe(true);
        const shown = document.activeElement?.getAttribute('data-event-id');
        expect(shown).toBeTruthy();
        expect(scroller.contains(document.activeElement)).toBe(true);
        const label = `jump ${round * views + v} to ${target.event} ${target.uuid}`;
        const start = topIn(scroller, shown!)!;
        if (!inView(scroller, shown!)) drifts.push(`${label}: ${shown} not in view at ${start}`);
        watched.push({ scroller, shown: shown!, start, label, worst: 0 });
        sample(watched);
      }
      // The last jump of the round is watched for 2 s; the earlier ones longer.
      const until = performance.now() + 2000;
      while (performance.now() < until) {
        await new Promise((r) => requestAnimationFrame(r));
        sample(watched);
      }
      for (const w of watched) if (w.worst > 2) drifts.push(`${w.label}: ${w.worst} px`);
    }
    expect(drifts).toEqual([]);
  }, 240_000);
});
