// The viewer page in real Chromium (issue 22): the app mounted as `npm start`
// and `skein view` serve it, a log of ours opened through the file picker's
// code path (the loader in its Web Worker), a sample and an event selected,
// and the span tree and transcript linked through one selection store.
import { act, cleanup, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { commands, userEvent } from 'vitest/browser';
import evalUrl from '../fixtures/inspect/zstd-zip64.eval?url';
import { ViewerApp } from '../../viewer/app.js';
import '../../src/styles.css';
import '../../viewer/viewer.css';
import { pick } from './viewer-pick.js';

declare module 'vitest/browser' {
  interface BrowserCommands {
    emulatePrintMedia(print: boolean): Promise<void>;
  }
}

const WAIT = { timeout: 30_000, interval: 50 };

beforeEach(() => {
  localStorage.clear();
  history.replaceState(null, '', location.pathname);
});
afterEach(() => cleanup());

function mount() {
  return render(
    <div style={{ height: 800, width: 1280, display: 'flex', flexDirection: 'column' }}>
      <ViewerApp />
    </div>,
  );
}

async function fixtureFile(): Promise<File> {
  const bytes = await (await fetch(evalUrl)).arrayBuffer();
  return new File([bytes], 'zstd-zip64.eval');
}

const article = (uuid: string) =>
  document.querySelector<HTMLElement>(`article[data-event-id="${CSS.escape(uuid)}"]`);
const treeRow = (key: string) =>
  document.querySelector<HTMLElement>(`[role="treegrid"] [data-key="${CSS.escape(key)}"]`);
const sampleButton = (id: string) =>
  [
    ...document.querySelectorAll<HTMLButtonElement>(
      '[role="table"][aria-label="Samples"] [role="rowheader"] button',
    ),
  ].find((b) => b.textContent === id);

describe('viewer page', () => {
  it('opens a multi-sample .eval from the picker; sample and event selections link the views and the URL', async () => {
    mount();
    await pick([await fixtureFile()]);

    // The sample list, with the first sample open and its header facts.
    await expect.poll(() => sampleButton('two'), WAIT).toBeDefined();
    expect(sampleButton('1')!.getAttribute('aria-current')).toBe('true');
    await expect.poll(() => article('1-1-e2'), WAIT).not.toBeNull();
    const header = document.querySelector('[data-testid="run-header"]')!;
    expect(header.textContent).toContain('unit');
    expect(header.textContent).toContain('mock/model');

    // Another sample: its events replace the first's, and the URL remembers it.
    await act(async () => sampleButton('two')!.click());
    await expect.poll(() => article('two-1-e2'), WAIT).not.toBeNull();
    expect(article('1-1-e2')).toBeNull();
    expect(location.hash).toContain('sample=two');

    // An event in the transcript: the span tree selects the span that holds it.
    await expect.poll(() => treeRow('s1'), WAIT).not.toBeNull();
    await act(async () => article('two-1-e3')!.click());
    await expect.poll(() => treeRow('s1')?.getAttribute('aria-selected'), WAIT).toBe('true');
    expect(article('two-1-e3')!.hasAttribute('data-selected')).toBe(true);
    expect(location.hash).toContain('event=two-1-e3');

    // The span in the tree: the transcript selects its begin event's row.
    await act(async () => treeRow('s1')!.click());
    await expect.poll(() => article('two-1-e0')?.hasAttribute('data-selected'), WAIT).toBe(true);
    expect(location.hash).toContain('event=two-1-e0');
    expect(location.hash).toContain('sample=two');
  });

  it('opens several files at once and says what an unreadable one is', async () => {
    mount();
    const text = new File(['just some notes\nnothing more\n'], 'notes.txt');
    await pick([await fixtureFile(), text]);
    // The last file opened is shown: an error a user can act on.
    await expect.poll(() => document.querySelector('[role="alert"]'), WAIT).not.toBeNull();
    const alert = document.querySelector('[role="alert"]')!;
    expect(alert.textContent).toContain('notes.txt is not a log format skein reads');
    expect(alert.textContent).toContain('The file is plain text (2 lines)');
    // Both are listed; the first is one click away.
    const list = document.querySelector('section[aria-label="Open logs"]')!;
    const first = [...list.querySelectorAll('button')].find(
      (b) => b.textContent === 'zstd-zip64.eval',
    )!;
    await act(async () => first.click());
    await expect.poll(() => article('1-1-e2'), WAIT).not.toBeNull();
  });

  it('opens files dropped on the page, and says a dropped folder is a folder', async () => {
    mount();
    const root = document.querySelector<HTMLElement>('.viewer-root')!;
    const log = await fixtureFile();
    // A real drop of one file: Chromium's own DataTransfer and DragEvent.
    const transfer = new DataTransfer();
    transfer.items.add(log);
    await act(async () => {
      root.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true }));
    });
    await expect.poll(() => sampleButton('two'), WAIT).toBeDefined();
    await expect.poll(() => article('1-1-e2'), WAIT).not.toBeNull();

    // A folder: a script cannot build a directory entry, so the drop carries
    // an item whose entry says it is one, as Chromium's does.
    const folderItem = {
      kind: 'file',
      type: '',
      getAsFile: () => new File([], 'logs'),
      webkitGetAsEntry: () => ({ isDirectory: true, isFile: false, name: 'logs' }),
    };
    const drop = new DragEvent('drop', { bubbles: true });
    Object.defineProperty(drop, 'dataTransfer', {
      value: { items: [folderItem], files: [new File([], 'logs')], types: ['Files'] },
    });
    await act(async () => {
      root.dispatchEvent(drop);
    });
    await expect.poll(() => document.querySelector('[role="alert"]'), WAIT).not.toBeNull();
    const alert = document.querySelector('[role="alert"]')!;
    expect(alert.getAttribute('data-code')).toBe('directory');
    expect(alert.textContent).toContain('logs is a folder');
    expect(alert.textContent).toContain('skein view <folder>');
    // The log dropped before is still open, one click away.
    const list = document.querySelector('section[aria-label="Open logs"]')!;
    expect([...list.querySelectorAll('li button')].map((b) => b.textContent)).toEqual([
      'zstd-zip64.eval',
      'logs',
    ]);
  });

  it('resizes panes from the keyboard and remembers the size', async () => {
    const view = mount();
    await pick([await fixtureFile()]);
    await expect.poll(() => treeRow('s1'), WAIT).not.toBeNull();
    const separator = document.querySelector<HTMLElement>(
      '[role="separator"][aria-label="Resize the span tree"]',
    )!;
    const pane = document.getElementById('pane-tree')!;
    const before = pane.getBoundingClientRect().width;
    expect(Number(separator.getAttribute('aria-valuenow'))).toBe(Math.round(before));
    separator.focus();
    await userEvent.keyboard('{ArrowRight}{ArrowRight}');
    await expect.poll(() => pane.getBoundingClientRect().width).toBe(before + 32);
    expect(separator.getAttribute('aria-valuenow')).toBe(String(before + 32));
    expect(localStorage.getItem('skein-viewer.pane.tree')).toBe(String(before + 32));
    // A new page reads it back.
    view.unmount();
    mount();
    await pick([await fixtureFile()]);
    await expect
      .poll(() => document.getElementById('pane-tree')?.getBoundingClientRect().width, WAIT)
      .toBe(before + 32);
  });

  it('replays a loaded run: the player drives the transcript, tree and swimlane on one store', async () => {
    mount();
    await pick([await fixtureFile()]);
    const start = () => document.querySelector<HTMLButtonElement>('[data-testid="replay-start"]');
    await expect.poll(start, WAIT).not.toBeNull();
    const articles = () =>
      document.querySelectorAll('section[aria-label="Transcript"] article').length;
    await expect.poll(articles, WAIT).toBeGreaterThan(2);
    const all = articles();

    await act(async () => start()!.click());
    const player = () => document.querySelector<HTMLElement>('[role="group"][aria-label="Replay"]');
    await expect.poll(player, WAIT).not.toBeNull();
    // Opens on the whole run; Home on the scrubber goes back to its start.
    await expect.poll(articles, WAIT).toBeGreaterThanOrEqual(all);
    const slider = player()!.querySelector<HTMLElement>('[role="slider"]')!;
    slider.focus();
    await userEvent.keyboard('{Home}');
    await expect.poll(articles, WAIT).toBeLessThan(all);
    const atStart = articles();
    // One event more: the transcript grows by it and the store selects it.
    await act(async () =>
      player()!.querySelector<HTMLButtonElement>('[aria-label="Next event"]')!.click(),
    );
    await expect.poll(articles, WAIT).toBeGreaterThan(atStart);
    await expect
      .poll(
        () => document.querySelector('section[aria-label="Transcript"] article[data-selected]'),
        WAIT,
      )
      .not.toBeNull();
    // The same store's playhead is the swimlane's.
    expect(document.querySelector('section[aria-label="Timeline"]')).not.toBeNull();

    await act(async () =>
      document.querySelector<HTMLButtonElement>('[data-testid="replay-exit"]')!.click(),
    );
    await expect.poll(articles, WAIT).toBeGreaterThanOrEqual(all);
    expect(player()).toBeNull();
    expect(start()).not.toBeNull();
  });

  it('draws the swimlane from the timeline the loader built, linked to the transcript', async () => {
    mount();
    await pick([await fixtureFile()]);
    const lane = () =>
      document.querySelector<HTMLElement>(
        'section[aria-label="Timeline"] [role="application"][aria-label="Swimlane"]',
      );
    await expect.poll(lane, WAIT).not.toBeNull();
    expect(document.querySelector('.viewer-doc')?.getAttribute('data-phase')).toBe('done');
    const bars = () => lane()!.querySelectorAll<HTMLElement>('[role="button"]');
    await expect.poll(() => bars().length, WAIT).toBeGreaterThan(0);
    // A bar is one selection with the transcript: the page's own events are in it.
    const bar = bars()[bars().length - 1]!;
    bar.focus();
    await userEvent.keyboard('{Enter}');
    await expect
      .poll(
        () => document.querySelector('section[aria-label="Transcript"] article[data-selected]'),
        WAIT,
      )
      .not.toBeNull();
  });

  it('selects events in the transcript and prints only them, without the viewer around them', async () => {
    mount();
    await pick([await fixtureFile()]);
    // Loaded to the end first: a selection made while the log still loads
    // is on a transcript the finished load may draw anew.
    await expect
      .poll(() => document.querySelector('.viewer-doc')?.getAttribute('data-phase'), WAIT)
      .toBe('done');
    await expect.poll(() => article('1-1-e2'), WAIT).not.toBeNull();
    await userEvent.click(article('1-1-e2')!.querySelector('.skein-transcript__title')!);
    const selectedBar = () =>
      document.querySelector<HTMLElement>('[role="toolbar"][aria-label="Selected events"]');
    await expect.poll(() => selectedBar()?.textContent ?? '', WAIT).toContain('1 event selected');
    const bar = selectedBar()!;
    const print = vi.spyOn(window, 'print').mockImplementation(() => {
      window.dispatchEvent(new Event('beforeprint'));
    });
    try {
      await userEvent.click(
        [...bar.querySelectorAll('button')].find((b) => b.textContent === 'Print')!,
      );
      await expect.poll(() => print.mock.calls.length, WAIT).toBe(1);
      await commands.emulatePrintMedia(true);
      await expect.poll(() => document.querySelector('.skein-print'), WAIT).not.toBeNull();
      const sheet = document.querySelector<HTMLElement>('.skein-print')!;
      // Laid out for paper, the viewer is not rendered: its layout must not
      // flip (wide → tabs) and remount the transcript, taking the print view.
      for (let i = 0; i < 3; i++) await new Promise((r) => requestAnimationFrame(r));
      expect(document.querySelector('.skein-print')).toBe(sheet);
      expect(sheet.querySelectorAll('.skein-print__event')).toHaveLength(1);
      expect(sheet.getBoundingClientRect().height).toBeGreaterThan(0);
      expect(document.querySelector('.viewer-bar')!.getBoundingClientRect().height).toBe(0);
    } finally {
      act(() => void window.dispatchEvent(new Event('afterprint')));
      await commands.emulatePrintMedia(false);
      print.mockRestore();
    }
    expect(document.querySelector('.skein-print')).toBeNull();
  });

  it('shows the keyboard map on ?', async () => {
    mount();
    await userEvent.keyboard('?');
    await expect.poll(() => document.querySelector('[role="dialog"]'), WAIT).not.toBeNull();
    expect(document.activeElement?.textContent).toBe('Close');
    await userEvent.keyboard('{Escape}');
    await expect.poll(() => document.querySelector('[role="dialog"]')).toBeNull();
  });
});
