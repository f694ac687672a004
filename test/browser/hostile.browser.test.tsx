// The hostile-shape corpus (src/core/generate/hostile.ts) in real Chromium:
// each shape (one format per shape, the canonical one where it has it)
// imported in the page and mounted in <Transcript>, <SpanTree> and
// <Swimlane> together; then the viewer opening the deepest and the biggest
// as files (its loader runs in a Web Worker, whose messages are structured
// clones). Expected: rows drawn, the keyboard still moving through them, a
// frame within a second of asking, no error reaching the page, no
// prototype touched; in the viewer, the run's events or a typed error.
import { act, cleanup, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { userEvent } from 'vitest/browser';
import {
  EventStream,
  buildTimeline,
  createSelectionStore,
  importAny,
  SkeinError,
  type FormatId,
} from '../../src/index.js';
import {
  HOSTILE_FORMATS,
  HOSTILE_SHAPES,
  HOSTILE_TEST,
  hostileCase,
  type HostileCase,
  type HostileFormat,
  type HostileShape,
} from '../../src/core/generate/hostile.js';
import { Display, SpanTree, Swimlane, Transcript } from '../../src/react.js';
import { ViewerApp } from '../../viewer/app.js';
import '../../src/styles.css';
import '../../viewer/viewer.css';

const WAIT = { timeout: 60_000, interval: 50 };
const SEED = 1;

/** Per shape, the first format in this order that expresses it. */
function cases(): [HostileShape, HostileFormat][] {
  const preferred: FormatId[] = ['skein', 'otlp', 'claude-code', 'defect', 'agex', 'jupyter'];
  const tiny = { depth: 4, width: 4, stringBytes: 64, keys: 4, valueDepth: 4, duplicates: 4 };
  return HOSTILE_SHAPES.map((shape) => [
    shape,
    preferred.find((f) => hostileCase(f, shape, tiny, SEED)) ?? HOSTILE_FORMATS[0]!,
  ]);
}

const prototypes = () =>
  [Object.prototype, Array.prototype, Function.prototype]
    .map((p) => Object.getOwnPropertyNames(p).sort().join(','))
    .join('|');

/** Errors that reach the page (an error boundary's catch logs nothing here). */
const pageErrors: string[] = [];
const onError = (e: ErrorEvent) => pageErrors.push(e.message);
const onRejection = (e: PromiseRejectionEvent) => pageErrors.push(String(e.reason));
beforeEach(() => {
  pageErrors.length = 0;
  window.addEventListener('error', onError);
  window.addEventListener('unhandledrejection', onRejection);
  localStorage.clear();
  history.replaceState(null, '', location.pathname);
});
afterEach(() => {
  cleanup();
  window.removeEventListener('error', onError);
  window.removeEventListener('unhandledrejection', onRejection);
});

/** Resolves at the next frame; rejects if none comes within `ms` (the page is stuck). */
function nextFrame(ms = 1000): Promise<number> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no frame within ${ms} ms`)), ms);
    requestAnimationFrame(() => {
      clearTimeout(timer);
      resolve(performance.now() - t0);
    });
  });
}

/**
 * The components draw a window of flat rows, so nesting depth reaches them
 * only through core (tested at 12,000 levels in Node): 5,000 levels here
 * keep the mounts quick; the viewer below opens the full test depth.
 */
const MOUNT_SIZES = { ...HOSTILE_TEST, depth: 5_000 };

/**
 * Imports a case in the page and mounts the three views on it: rows drawn,
 * the keyboard and scrolling still working, no page error, no prototype touched.
 */
async function mountCase(c: HostileCase): Promise<void> {
  const before = prototypes();
  let events;
  try {
    ({ events } = await importAny(c.input, { filename: c.filename }));
  } catch (e) {
    // A typed error is an answer; there is nothing to mount.
    expect(e, c.name).toBeInstanceOf(SkeinError);
    return;
  }
  const stream = EventStream.from(events);
  const timeline = buildTimeline(stream.latest());
  const selection = createSelectionStore();
  render(
    <div
      style={{ width: 1200, height: 900, display: 'grid', gridTemplateRows: '300px 300px 300px' }}
    >
      <Transcript stream={stream} selection={selection} />
      <SpanTree stream={stream} selection={selection} toolbar={false} />
      <Swimlane timeline={timeline} selection={selection} />
    </div>,
  );
  await expect
    .poll(() => document.querySelectorAll('article[data-event-id]').length, WAIT)
    .toBeGreaterThan(0);
  const grid = document.querySelector<HTMLElement>('[role="treegrid"]')!;
  await expect.poll(() => grid.querySelectorAll('[role="row"]').length, WAIT).toBeGreaterThan(0);
  expect(document.querySelector('.skein-swimlane')).not.toBeNull();
  await nextFrame();

  // The keyboard still moves: End in the span tree focuses its last row.
  const first = grid.querySelector<HTMLElement>('[role="row"][data-key]')!;
  await act(async () => first.focus());
  await userEvent.keyboard('{End}');
  const rows = grid.querySelectorAll('[role="row"][data-key]').length;
  if (rows > 1)
    await expect
      .poll(() => document.activeElement?.getAttribute('data-key') ?? null, WAIT)
      .not.toBe(first.getAttribute('data-key'));
  // The transcript scrolls to its end and draws the rows there.
  const scroller = document.querySelector<HTMLElement>('.skein-transcript__scroller')!;
  await act(async () => {
    scroller.scrollTop = scroller.scrollHeight;
    scroller.dispatchEvent(new Event('scroll'));
  });
  await nextFrame();
  await expect
    .poll(() => document.querySelectorAll('article[data-event-id]').length, WAIT)
    .toBeGreaterThan(0);
  expect(pageErrors, c.name).toEqual([]);
  expect(prototypes(), c.name).toBe(before);
}

describe('hostile shapes in <Transcript>, <SpanTree> and <Swimlane>', () => {
  it.each(cases())('%s (%s)', async (shape, format) => {
    await mountCase(hostileCase(format, shape, MOUNT_SIZES, SEED)!);
  });

  it('wide (skein) at 50,000 siblings under one span', async () => {
    // The corpus's million siblings at a size that keeps the suite fast:
    // every view draws a window of a list this long.
    await mountCase(hostileCase('skein', 'wide', { ...HOSTILE_TEST, width: 50_000 }, SEED)!);
  });
});

describe('the viewer opening hostile files', () => {
  const opened: [FormatId, HostileShape][] = [
    ['otlp', 'deep'],
    ['claude-code', 'deep'],
    ['skein', 'deep-value'],
    ['skein', 'huge-string'],
    ['otlp', 'cycle'],
    ['skein', 'bad-times'],
  ];
  it.each(opened)('%s / %s', async (format, shape) => {
    const c = hostileCase(format, shape, HOSTILE_TEST, SEED)!;
    render(
      <div style={{ height: 800, width: 1280, display: 'flex', flexDirection: 'column' }}>
        <ViewerApp />
      </div>,
    );
    const input = document.querySelector<HTMLInputElement>('[data-testid="file-input"]')!;
    const transfer = new DataTransfer();
    transfer.items.add(new File([c.input], c.filename));
    input.files = transfer.files;
    await act(async () => {
      input.dispatchEvent(new Event('change', { bubbles: true }));
    });
    // The run's events, or an error a user can read (with its code).
    await expect
      .poll(
        () =>
          document.querySelectorAll('article[data-event-id]').length > 0 ||
          document.querySelector('[role="alert"]') !== null,
        WAIT,
      )
      .toBe(true);
    const alert = document.querySelector('[role="alert"]');
    // `unreadable` is what an untyped throw becomes (viewer/load/explain.ts).
    if (alert)
      expect(alert.getAttribute('data-code'), alert.textContent ?? '').not.toBe('unreadable');
    await nextFrame();
    expect(pageErrors, c.name).toEqual([]);
  });
});

describe('the JSON tree on a deep value', () => {
  it('draws 100 levels, and offers deeper values as text, however deep the JSON text', async () => {
    // JSON text is parsed by the renderer, not imported: nothing cut it before.
    // React commits nested components recursively: 1,000 open levels overflowed it.
    const depth = 1_500;
    const text = `${'['.repeat(depth)}"leaf"${']'.repeat(depth)}`;
    const { container } = render(<Display bundle={{ data: { 'application/json': text } }} />);
    await expect.poll(() => container.querySelector('.skein-json__toggle'), WAIT).not.toBeNull();
    // Open each level in turn (only the root starts open), as far as it goes.
    for (let level = 1; level < 200; level++) {
      const closed = container.querySelector<HTMLButtonElement>(
        '.skein-json__toggle[aria-expanded="false"]',
      );
      if (closed === null) break;
      await act(async () => closed.click());
    }
    expect(container.querySelectorAll('.skein-json__node')).toHaveLength(100);
    const cut = container.querySelector('[data-skein-cut]')!;
    expect(cut.textContent).toBe('Array(1) nested more than 100 levels');
    await act(async () =>
      container.querySelector<HTMLButtonElement>('[data-skein-cut] + button')!.click(),
    );
    expect(cut.parentElement!.textContent).toContain('"leaf"');
    await nextFrame();
    expect(pageErrors).toEqual([]);
  });
});
