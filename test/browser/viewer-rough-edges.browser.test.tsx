// Small wrong things a new user saw first in the viewer, in real Chromium:
// a "N new events" control on a file that was read from its start; the
// landing page's list of formats (it comes from the importer registry); the
// folder list's Modified column and the sample list's headers cut in a
// sidebar.
import { act, cleanup, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { page } from 'vitest/browser';
import { formats, generateRun } from '../../src/index.js';
import { ViewerApp } from '../../viewer/app.js';
import { ListingView } from '../../viewer/listing.js';
import type { SampleRow } from '../../viewer/load/protocol.js';
import { SampleList } from '../../viewer/sample-list.js';
import '../../src/styles.css';
import '../../viewer/viewer.css';

const WAIT = { timeout: 30_000, interval: 50 };

beforeEach(async () => {
  localStorage.clear();
  history.replaceState(null, '', location.pathname);
  await page.viewport(1280, 800);
});
afterEach(() => cleanup());

const mountApp = () =>
  render(
    <div style={{ height: '100vh', display: 'flex', flexDirection: 'column' }}>
      <ViewerApp />
    </div>,
  );

describe('a log file read from its start', () => {
  it('shows no "new events" control while it loads nor after', async () => {
    mountApp();
    // Big enough to arrive in many batches while the transcript shows its start.
    const events = generateRun({ seed: 3, events: 1000, pendingRate: 0 });
    const file = new File([events.map((e) => JSON.stringify(e)).join('\n')], 'run.jsonl');
    const input = document.querySelector<HTMLInputElement>('[data-testid="file-input"]')!;
    const transfer = new DataTransfer();
    transfer.items.add(file);
    input.files = transfer.files;
    const seen: string[] = [];
    const observer = new MutationObserver(() => {
      const control = document.querySelector('.skein-transcript__new');
      if (control) seen.push(control.textContent ?? '');
    });
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
    await act(async () => {
      input.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await expect
      .poll(() => document.querySelector('.viewer-doc')?.getAttribute('data-phase'), WAIT)
      .toBe('done');
    await expect
      .poll(() => document.querySelector('article')?.getAttribute('aria-setsize'), WAIT)
      .not.toBeNull();
    await new Promise((r) => setTimeout(r, 300));
    observer.disconnect();
    expect(document.querySelector('.skein-transcript__new')).toBeNull();
    expect(seen).toEqual([]);
  });
});

describe('the landing page', () => {
  it('lists every format the importer registry reads', () => {
    mountApp();
    const list = document.querySelector('ul.viewer-formats')!;
    const names = [...list.querySelectorAll('li')].map((li) => li.textContent);
    expect(names).toEqual(formats.map((f) => f.name));
    expect(names.some((n) => n?.includes('OpenHands'))).toBe(true);
    expect(list.getAttribute('aria-labelledby')).toBe('viewer-formats-label');
  });
});

/** True when the element's content is cut (by its box, an ellipsis or overflow). */
const cut = (el: HTMLElement) => el.scrollWidth > el.clientWidth + 1;

describe('in a 340 px sidebar', () => {
  it("the folder list keeps the Modified column whole; long names end in '…'", async () => {
    const now = Date.now();
    const listing = {
      root: '/home/someone/projects/agent-evals/logs',
      logs: [
        { name: 'session.jsonl', url: '/a', format: 'acp', size: 2_345, mtime: now - 60_000 },
        {
          name: '2024-11-05T13-32-37-05-00_input-task_hxs4q9azL3ySGkjJirypKZ.eval',
          url: '/b',
          format: 'inspect',
          size: 12_345_678,
          mtime: new Date(now - 40 * 86_400_000).toISOString(),
        },
        {
          name: 'old.json',
          url: '/c',
          format: null,
          size: 10,
          mtime: '2021-03-04T05:06:07Z',
          error: 'not a log skein can read',
        },
      ],
    };
    const url = URL.createObjectURL(new Blob([JSON.stringify(listing)]));
    render(
      <div style={{ width: 340, height: 400, display: 'flex', flexDirection: 'column' }}>
        <ListingView url={url} current="/a" onOpen={vi.fn()} />
      </div>,
    );
    const table = await expect
      .poll(() => document.querySelector<HTMLElement>('table.viewer-table'), WAIT)
      .not.toBeNull()
      .then(() => document.querySelector<HTMLElement>('table.viewer-table')!);
    const scroller = table.parentElement!;
    expect(table.getBoundingClientRect().width).toBeLessThanOrEqual(scroller.clientWidth + 0.5);
    expect(scroller.scrollWidth).toBeLessThanOrEqual(scroller.clientWidth);
    const headers = [...table.querySelectorAll<HTMLElement>('thead th')];
    expect(headers.map((h) => h.textContent)).toEqual(['Name', 'Size', 'Modified']);
    for (const h of headers) expect(cut(h), h.textContent!).toBe(false);
    const rows = [...table.querySelectorAll('tbody tr')];
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      const [, size, modified] = [...row.children] as HTMLElement[];
      expect(cut(size!), size!.textContent!).toBe(false);
      expect(cut(modified!), modified!.textContent!).toBe(false);
      expect(modified!.querySelector('time')?.textContent).not.toBe('');
      expect(modified!.title).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d$/);
    }
    // Today's file says only its time; an older one its date.
    expect(rows[0]!.querySelector('time')!.textContent).toMatch(/^\d\d:\d\d$/);
    expect(rows[2]!.querySelector('time')!.textContent).toBe('2021-03-04');
    // An inspect_ai name shows what tells logs apart (task and id) first, its
    // time stamp under it beside the format; the name is whole in its title.
    const long = rows[1]!.querySelector<HTMLElement>('button')!;
    expect(long.textContent).toBe('input-task_hxs4q9azL3ySGkjJirypKZ.eval');
    expect(rows[1]!.querySelector('.viewer-listing-format')!.textContent).toBe(
      'inspect · 2024-11-05 13:32',
    );
    // The long name gives way; the format sits under it.
    expect(cut(long)).toBe(true);
    expect(getComputedStyle(long).textOverflow).toBe('ellipsis');
    expect(long.title).toBe(listing.logs[1]!.name);
    expect(rows[1]!.querySelector('th')!.textContent).toContain('inspect');
    expect(rows[2]!.querySelector('th')!.textContent).toContain('not a log skein can read');
    URL.revokeObjectURL(url);
  });

  it('the sample list shows every header whole, and leaves out columns with nothing to say', () => {
    const rows = (epochs: boolean, errors: boolean): SampleRow[] =>
      Array.from({ length: 20 }, (_, i) => ({
        id: `sample-${i + 1}`,
        epoch: epochs ? (i % 3) + 1 : 1,
        score: 'C',
        scoreValue: 1,
        scores: 'match: C',
        tokens: 123_456,
        duration: 754.5,
        error: errors && i === 3 ? 'RuntimeError: boom' : null,
        limit: errors && i === 4 ? 'token' : null,
        input: 'question',
      }));
    const headers = () =>
      [...document.querySelectorAll<HTMLElement>('[role="columnheader"] button')].map((b) => ({
        text: b.textContent!.replace(/[▲▼]/, '').trim(),
        cut: cut(b),
      }));
    const view = render(
      <div style={{ width: 340, height: 300, display: 'flex', flexDirection: 'column' }}>
        <SampleList samples={rows(true, true)} selected={null} onSelect={vi.fn()} />
      </div>,
    );
    expect(headers().map((h) => h.text)).toEqual([
      'Id',
      'Epoch',
      'Score',
      'Tokens',
      'Time',
      'Error',
    ]);
    expect(headers().filter((h) => h.cut)).toEqual([]);
    const table = document.querySelector<HTMLElement>('[role="table"]')!;
    expect(table.scrollWidth).toBeLessThanOrEqual(table.clientWidth);
    view.rerender(
      <div style={{ width: 340, height: 300, display: 'flex', flexDirection: 'column' }}>
        <SampleList samples={rows(false, false)} selected={null} onSelect={vi.fn()} />
      </div>,
    );
    // With room beside the rest, the input (cut, whole in the row's title).
    expect(headers().map((h) => h.text)).toEqual(['Id', 'Input', 'Score', 'Tokens', 'Time']);
    expect(headers().filter((h) => h.cut)).toEqual([]);
    const row = () => document.querySelector('[role="rowgroup"] [role="row"][data-index="0"]')!;
    expect(row().querySelectorAll('[role="cell"]')).toHaveLength(4);
    expect(row().querySelector('[role="cell"]')!.textContent).toBe('question');
    // Summaries without tokens or times (inspect_ai logs of early 2025): no
    // blank columns.
    view.rerender(
      <div style={{ width: 340, height: 300, display: 'flex', flexDirection: 'column' }}>
        <SampleList
          samples={rows(false, false).map((r) => ({ ...r, tokens: null, duration: null }))}
          selected={null}
          onSelect={vi.fn()}
        />
      </div>,
    );
    expect(headers().map((h) => h.text)).toEqual(['Id', 'Input', 'Score']);
    expect(table.scrollWidth).toBeLessThanOrEqual(table.clientWidth);
  });
});
