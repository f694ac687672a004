// The viewer page at phone, tablet and desktop widths, light and dark, in
// real Chromium: the page never scrolls sideways, every pane can be reached
// and is on screen with room to read, and no word of the viewer's own text is
// broken across lines. Narrow, the views are tabs (a span chosen in the tree
// opens the transcript on it) and the sidebar folds above them; wide, panes
// give way so the transcript keeps its room whatever size was remembered.
// (The components' own insides — transcript rows, tree rows, swimlane — have
// layout tests of their own; here they count as boxes.)
import { act, cleanup, render } from '@testing-library/react';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commands, page, userEvent } from 'vitest/browser';
import evalUrl from '../fixtures/inspect/zstd-zip64.eval?url';
import { ViewerApp } from '../../viewer/app.js';
import '../../src/styles.css';
import '../../viewer/viewer.css';

declare module 'vitest/browser' {
  interface BrowserCommands {
    emulateColorScheme(scheme: 'light' | 'dark'): Promise<void>;
  }
}

const WAIT = { timeout: 30_000, interval: 50 };
const HEIGHT = 800;
/** The components' own roots: their insides are checked by their own tests. */
const COMPONENTS = '.skein-transcript, .skein-span-tree, .skein-swimlane';

beforeEach(() => {
  localStorage.clear();
  history.replaceState(null, '', location.pathname);
});
afterEach(() => cleanup());
afterAll(async () => {
  await commands.emulateColorScheme('light');
});

async function mountAt(width: number) {
  await page.viewport(width, HEIGHT);
  render(
    <div style={{ height: '100vh', display: 'flex', flexDirection: 'column' }}>
      <ViewerApp />
    </div>,
  );
}

async function openEval() {
  const bytes = await (await fetch(evalUrl)).arrayBuffer();
  const input = document.querySelector<HTMLInputElement>('[data-testid="file-input"]')!;
  const transfer = new DataTransfer();
  transfer.items.add(new File([bytes], '2024-11-05T13-32-37-05-00_input-task_hxs4q9azL3.eval'));
  input.files = transfer.files;
  await act(async () => {
    input.dispatchEvent(new Event('change', { bubbles: true }));
  });
  await expect
    .poll(() => document.querySelector('.viewer-doc')?.getAttribute('data-phase'), WAIT)
    .toBe('done');
  await expect.poll(() => document.querySelector('article[data-event-id]'), WAIT).not.toBeNull();
}

const box = (el: Element) => el.getBoundingClientRect();
const section = (label: string) =>
  document.querySelector<HTMLElement>(`section.viewer-view[aria-label="${label}"]`);

/** Elements of the viewer's own chrome (not inside a component), visible. */
function chrome(): HTMLElement[] {
  return [...document.querySelectorAll<HTMLElement>('.viewer-root *')].filter(
    (el) =>
      el.closest(COMPONENTS) === null &&
      el.closest('.viewer-tabpanel:not([data-active])') === null &&
      el.getClientRects().length > 0,
  );
}

/** What scrolls sideways: the page, or a box of the chrome that scrolls on x. */
function sidewaysScroll(): string[] {
  const out: string[] = [];
  const doc = document.documentElement;
  if (doc.scrollWidth > doc.clientWidth) out.push(`page ${doc.scrollWidth} > ${doc.clientWidth}`);
  for (const el of chrome()) {
    const { overflowX } = getComputedStyle(el);
    if ((overflowX === 'auto' || overflowX === 'scroll') && el.scrollWidth > el.clientWidth + 1)
      out.push(`${el.className || el.tagName}: ${el.scrollWidth} > ${el.clientWidth}`);
  }
  return out;
}

/** Chrome elements that reach past the viewport's sides. */
function offScreen(): string[] {
  const out: string[] = [];
  for (const el of chrome()) {
    // Text cut with an ellipsis is clipped by its own box; its box is what counts.
    const r = box(el);
    if (r.width === 0) continue;
    if (r.left < -0.5 || r.right > innerWidth + 0.5)
      out.push(`${el.tagName}.${el.className} ${Math.round(r.left)}..${Math.round(r.right)}`);
  }
  return out;
}

/** Words of the chrome's text whose range lies on more than one line. */
function brokenWords(): string[] {
  const out: string[] = [];
  const walker = document.createTreeWalker(
    document.querySelector('.viewer-root')!,
    NodeFilter.SHOW_TEXT,
  );
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest(COMPONENTS) || parent.getClientRects().length === 0) continue;
    for (const m of (node.textContent ?? '').matchAll(/\S+/g)) {
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const lines = new Set(
        [...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)),
      );
      if (lines.size > 1) out.push(m[0]);
    }
  }
  return out;
}

/** A pane the user can read: on screen, and at least this big. */
function expectReadable(el: HTMLElement | null, name: string, minWidth: number, minHeight = 100) {
  expect(el, name).not.toBeNull();
  const r = box(el!);
  expect(r.left, `${name} left`).toBeGreaterThanOrEqual(-0.5);
  expect(r.right, `${name} right`).toBeLessThanOrEqual(innerWidth + 0.5);
  expect(r.bottom, `${name} bottom`).toBeLessThanOrEqual(innerHeight + 0.5);
  expect(r.width, `${name} width`).toBeGreaterThanOrEqual(minWidth);
  expect(r.height, `${name} height`).toBeGreaterThanOrEqual(minHeight);
}

/** Relative luminance of a computed `rgb(…)` colour. */
function luminance(color: string): number {
  const [r, g, b] = (color.match(/[\d.]+/g) ?? []).slice(0, 3).map((c) => Number(c) / 255);
  const lin = (c: number) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(r!) + 0.7152 * lin(g!) + 0.0722 * lin(b!);
}

function expectClean(where: string) {
  expect(sidewaysScroll(), `${where}: sideways scroll`).toEqual([]);
  expect(offScreen(), `${where}: off screen`).toEqual([]);
  expect(brokenWords(), `${where}: words broken across lines`).toEqual([]);
}

/** The page's colours follow the scheme: the bar's background and text. */
function expectScheme(scheme: 'light' | 'dark') {
  const bar = getComputedStyle(document.querySelector('.viewer-bar')!);
  if (scheme === 'dark') {
    expect(luminance(bar.backgroundColor)).toBeLessThan(0.1);
    expect(luminance(bar.color)).toBeGreaterThan(0.5);
  } else {
    expect(luminance(bar.backgroundColor)).toBeGreaterThan(0.8);
    expect(luminance(bar.color)).toBeLessThan(0.1);
  }
}

describe.each([
  [390, 'light'],
  [390, 'dark'],
] as const)('the viewer at %i px in %s', (width, scheme) => {
  it('folds the samples above the run and tabs the views, each full width when shown', async () => {
    await commands.emulateColorScheme(scheme);
    await mountAt(width);
    await openEval();
    expectScheme(scheme);
    expect(document.querySelector('.viewer-run')!.getAttribute('data-layout')).toBe('tabs');
    // The sidebar folds under one button above the run, which keeps the height.
    const toggle = document.querySelector<HTMLElement>('[data-testid="sidebar-toggle"]')!;
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(toggle.textContent).toContain('Samples');
    const samples = () => document.querySelector<HTMLElement>('section[aria-label="Samples"]');
    expect(samples()!.getClientRects()).toHaveLength(0);
    expectReadable(section('Transcript'), 'transcript', width - 10, HEIGHT - 400);
    const tabs = [...document.querySelectorAll<HTMLElement>('[role="tablist"] [role="tab"]')];
    expect(tabs.map((t) => t.textContent)).toEqual(['Tree', 'Transcript', 'Timeline']);
    expect(tabs[1]!.getAttribute('aria-selected')).toBe('true');
    expectClean(`${width} transcript`);
    for (const [tab, label] of [
      [tabs[0]!, 'Span tree'],
      [tabs[2]!, 'Timeline'],
      [tabs[1]!, 'Transcript'],
    ] as const) {
      await userEvent.click(tab);
      expect(tab.getAttribute('aria-selected')).toBe('true');
      const panel = document.getElementById(tab.getAttribute('aria-controls')!)!;
      expect(panel.hasAttribute('inert')).toBe(false);
      await expect.poll(() => box(section(label)!).width, WAIT).toBeGreaterThan(width - 10);
      expectReadable(section(label), label, width - 10, 200);
      // The other panels are out of reach: inert and invisible.
      for (const other of document.querySelectorAll('[role="tabpanel"]'))
        if (other !== panel) {
          expect(other.hasAttribute('inert')).toBe(true);
          expect(getComputedStyle(other).visibility).toBe('hidden');
        }
      expectClean(`${width} ${label}`);
    }
    // Unfolded, the sidebar is stacked above the run, full width; the run is
    // the same (not mounted again: its place and selection kept).
    const run = document.querySelector('.viewer-run');
    await userEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expectReadable(samples(), 'samples', width - 10, 200);
    expect(box(samples()!).bottom).toBeLessThanOrEqual(box(section('Transcript')!).top);
    expect(document.querySelector('.viewer-run')).toBe(run);
    expectClean(`${width} sidebar`);
    // Choosing a sample folds it again.
    await userEvent.click(
      samples()!.querySelector<HTMLElement>('[role="rowheader"] button:not([aria-current])')!,
    );
    await expect.poll(() => toggle.getAttribute('aria-expanded'), WAIT).toBe('false');
  });
});

describe.each([
  [740, 'light'],
  [1280, 'light'],
  [1280, 'dark'],
] as const)('the viewer at %i px in %s', (width, scheme) => {
  it('keeps every pane on screen with room to read', async () => {
    await commands.emulateColorScheme(scheme);
    await mountAt(width);
    await openEval();
    expectScheme(scheme);
    expectReadable(document.querySelector('section[aria-label="Samples"]'), 'samples', 180);
    if (width < 1000) {
      // The run beside the sidebar is narrow: its views are tabs.
      expect(document.querySelector('.viewer-run')!.getAttribute('data-layout')).toBe('tabs');
      expectReadable(section('Transcript'), 'transcript', 360, 200);
    } else {
      expect(document.querySelector('.viewer-run')!.getAttribute('data-layout')).toBe('split');
      expectReadable(section('Span tree'), 'span tree', 160);
      expectReadable(section('Transcript'), 'transcript', 320);
      expectReadable(section('Timeline'), 'timeline', 320, 60);
      for (const sep of document.querySelectorAll<HTMLElement>('[role="separator"]'))
        expectReadable(sep, sep.getAttribute('aria-label')!, 1, 1);
    }
    expectClean(`${width} ${scheme}`);
  });
});

describe('the viewer on a narrow screen', () => {
  it('opens the transcript on a span chosen in the tree; arrow keys move between tabs', async () => {
    await mountAt(390);
    await openEval();
    const selected = () =>
      document.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]');
    // One tab stop for the tab list; arrows move and show.
    selected()!.focus();
    await userEvent.keyboard('{ArrowRight}');
    expect(selected()?.textContent).toBe('Timeline');
    expect(document.activeElement).toBe(selected());
    await userEvent.keyboard('{Home}');
    expect(selected()?.textContent).toBe('Tree');
    await userEvent.keyboard('{ArrowLeft}');
    expect(selected()?.textContent).toBe('Timeline');
    expect(
      [...document.querySelectorAll('[role="tab"]')].filter(
        (t) => t.getAttribute('tabindex') === '0',
      ),
    ).toHaveLength(1);

    await userEvent.click(document.querySelector<HTMLElement>('[role="tab"][data-tab="tree"]')!);
    const row = () => document.querySelector<HTMLElement>('[role="treegrid"] [data-key="s1"]');
    await expect.poll(row, WAIT).not.toBeNull();
    await userEvent.click(row()!);
    await expect.poll(() => selected()?.textContent, WAIT).toBe('Transcript');
    const article = document.querySelector<HTMLElement>('article[data-event-id="1-1-e0"]')!;
    expect(article.hasAttribute('data-selected')).toBe(true);
    const r = box(article);
    const view = box(section('Transcript')!);
    expect(r.top).toBeGreaterThanOrEqual(view.top - 1);
    expect(r.top).toBeLessThan(view.bottom);
  });

  it('shows the landing page and the keyboard map whole, with no sideways scroll', async () => {
    await mountAt(320);
    expect(document.querySelectorAll('ul.viewer-formats li').length).toBeGreaterThan(5);
    expectClean('320 landing');
    await userEvent.keyboard('?');
    const dialog = document.querySelector<HTMLElement>('.viewer-dialog');
    expect(dialog).not.toBeNull();
    expectReadable(dialog, 'keyboard map', 250, 100);
    expectClean('320 keyboard map');
  });
});

describe('the viewer on a wide screen', () => {
  it('keeps the transcript in view whatever tree and sidebar sizes were remembered', async () => {
    // A tree size remembered on a bigger screen: wider than this one.
    localStorage.setItem('skein-viewer.pane.tree', '1200');
    await mountAt(1280);
    await openEval();
    expect(document.querySelector('.viewer-run')!.getAttribute('data-layout')).toBe('split');
    expectReadable(section('Transcript'), 'transcript', 320);
    expectReadable(
      document.querySelector<HTMLElement>('[role="separator"][aria-label="Resize the span tree"]'),
      'tree separator',
      1,
      1,
    );
    expect(sidewaysScroll()).toEqual([]);
    cleanup();
    // A sidebar dragged wide: the run beside it is narrow, and tabs its views.
    localStorage.setItem('skein-viewer.pane.sidebar', '1000');
    await mountAt(1280);
    await openEval();
    expect(document.querySelector('.viewer-run')!.getAttribute('data-layout')).toBe('tabs');
    expectReadable(section('Transcript'), 'transcript', 320);
    expect(sidewaysScroll()).toEqual([]);
  });
});
