// Rows selected together in <Transcript selectable>: mouse and keyboard
// gestures, copy as Markdown / JSON, download as JSON Lines (read back by
// importAny), and the print view laid out for paper (emulated print media).
import { act, cleanup, render } from '@testing-library/react';
import { createRef } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { commands, userEvent } from 'vitest/browser';
import { createEventBuilders, importAny, type Event } from '../../src/index.js';
import { Transcript, type TranscriptHandle } from '../../src/react.js';
import '../../src/styles.css';

declare module 'vitest/browser' {
  interface BrowserCommands {
    emulatePrintMedia(print: boolean): Promise<void>;
  }
}

afterEach(async () => {
  cleanup();
  vi.restoreAllMocks();
  await commands.emulatePrintMedia(false);
});

let n = 0;
const b = createEventBuilders({
  uuid: () => `u${n++}`,
  now: () => Date.parse('2026-06-10T18:24:12Z'),
});

function run(count: number): Event[] {
  n = 0;
  const out: Event[] = [];
  for (let i = 0; i < count; i++)
    out.push(
      i % 2 === 0
        ? b.tool({
            id: `c${i}`,
            function: 'bash',
            arguments: { cmd: `echo ${i}` },
            result: `out ${i}`,
          })
        : b.info({ data: `note ${i}` }),
    );
  return out;
}

function mount(events: Event[], printLimit?: number) {
  const ref = createRef<TranscriptHandle>();
  const onSelectionChange = vi.fn();
  const view = render(
    <div style={{ height: 500, width: 700 }}>
      <Transcript
        ref={ref}
        events={events}
        selectable
        onSelectionChange={onSelectionChange}
        {...(printLimit !== undefined ? { printLimit } : {})}
      />
    </div>,
  );
  const row = (i: number) =>
    view.container.querySelector<HTMLElement>(`[data-event-id="${events[i]!.uuid}"]`)!;
  const picked = () =>
    [...view.container.querySelectorAll<HTMLElement>('[data-in-selection]')].map(
      (el) => el.dataset['eventId'],
    );
  return { ...view, ref, row, picked, onSelectionChange };
}

describe('<Transcript selectable>', () => {
  it('selects with click, Ctrl+click, Shift+click, Shift+arrows, Ctrl+A and Esc', async () => {
    const events = run(8);
    const { row, picked, getByRole, onSelectionChange } = mount(events);
    await expect.poll(() => row(0)).not.toBe(null);
    await userEvent.click(row(1));
    expect(picked()).toEqual(['u1']);
    // The row says it is in the selection (feed articles take no aria-selected).
    const note = document.getElementById(row(1).getAttribute('aria-describedby')!);
    expect(note?.textContent).toBe('In the selection');
    await userEvent.click(row(4), { modifiers: ['Shift'] });
    expect(picked()).toEqual(['u1', 'u2', 'u3', 'u4']);
    await userEvent.click(row(2), { modifiers: ['Control'] });
    expect(picked()).toEqual(['u1', 'u3', 'u4']);
    expect(onSelectionChange).toHaveBeenLastCalledWith(new Set(['u1', 'u3', 'u4']));
    expect(getByRole('toolbar', { name: 'Selected events' }).textContent).toContain(
      '3 events selected',
    );
    // Keyboard: a new anchor, then Shift+↓ twice.
    await userEvent.click(row(5));
    await userEvent.keyboard('{Shift>}{ArrowDown}{ArrowDown}{/Shift}');
    expect(picked()).toEqual(['u5', 'u6', 'u7']);
    expect(document.activeElement).toBe(row(7));
    await userEvent.keyboard('{Control>}a{/Control}');
    expect(picked()).toHaveLength(8);
    await userEvent.keyboard('{Escape}');
    expect(picked()).toEqual([]);
  });

  it('copies Markdown and JSON, says when the clipboard refuses, and downloads JSON Lines that read back', async () => {
    const events = run(6);
    const { row, ref, getByRole } = mount(events);
    await expect.poll(() => row(0)).not.toBe(null);
    await userEvent.click(row(0));
    await userEvent.click(row(2), { modifiers: ['Shift'] });
    const writes: string[] = [];
    vi.spyOn(navigator.clipboard, 'writeText').mockImplementation(async (text) => {
      writes.push(text);
    });
    await userEvent.click(getByRole('button', { name: 'Copy Markdown' }));
    await expect.poll(() => writes.length).toBe(1);
    expect(writes[0]).toContain('### 1. tool');
    expect(writes[0]).toContain('```bash\necho 0\n```');
    const status = () =>
      document.querySelector('.skein-transcript__selection [role="status"]')!.textContent;
    await expect.poll(status).toBe('Copied 3 events as Markdown');
    await userEvent.click(getByRole('button', { name: 'Copy JSON' }));
    await expect.poll(() => writes.length).toBe(2);
    const back = await importAny(writes[1]!);
    expect(back.events.map((e) => JSON.stringify(e))).toEqual(
      events.slice(0, 3).map((e) => JSON.stringify(e)),
    );
    expect(ref.current!.selectedEvents().map((e) => e.uuid)).toEqual(['u0', 'u1', 'u2']);

    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(
      new DOMException('denied', 'NotAllowedError'),
    );
    await userEvent.click(getByRole('button', { name: 'Copy Markdown' }));
    await expect
      .poll(status)
      .toBe('Not copied: the browser refused clipboard access. Use Download .jsonl instead.');

    const blobs: Blob[] = [];
    const create = URL.createObjectURL.bind(URL);
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      blobs.push(blob as Blob);
      return create(blob);
    });
    // The download's click goes nowhere in the test (no navigation).
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      expect(this.download).toBe('skein-selection.jsonl');
    });
    await userEvent.click(getByRole('button', { name: 'Download .jsonl' }));
    expect(blobs).toHaveLength(1);
    const file = await importAny(new Uint8Array(await blobs[0]!.arrayBuffer()), {
      filename: 'skein-selection.jsonl',
    });
    expect(file.events.map((e) => e.uuid)).toEqual(['u0', 'u1', 'u2']);
  });

  it('prints the selection in full on paper: light, wrapped, nothing else on the page', async () => {
    const events = run(4);
    const long = 'x'.repeat(3000);
    events.push(b.tool({ id: 'long', function: 'bash', arguments: { cmd: long }, result: long }));
    const { row, getByRole } = mount(events);
    await expect.poll(() => row(0)).not.toBe(null);
    const print = vi.spyOn(window, 'print').mockImplementation(() => {
      window.dispatchEvent(new Event('beforeprint'));
    });
    await userEvent.click(row(3));
    await userEvent.click(row(4), { modifiers: ['Shift'] });
    await userEvent.click(getByRole('button', { name: 'Print' }));
    await expect.poll(() => print.mock.calls.length).toBe(1);
    const sheet = document.querySelector<HTMLElement>('.skein-print')!;
    expect(sheet).not.toBe(null);
    expect(getComputedStyle(sheet).display).toBe('none'); // not on screen
    await commands.emulatePrintMedia(true);
    expect(getComputedStyle(sheet).display).toBe('block');
    expect(sheet.querySelectorAll('.skein-print__event')).toHaveLength(2);
    const transcript = document.querySelector<HTMLElement>('.skein-transcript')!;
    expect(transcript.getBoundingClientRect().height).toBe(0);
    expect(getComputedStyle(sheet).color).toBe('rgb(0, 0, 0)');
    // The 3,000-character line wraps inside the page: nothing clipped or scrolled.
    const boxes = sheet.querySelectorAll<HTMLElement>('pre, code, .skein-transcript__body');
    expect(boxes.length).toBeGreaterThan(2);
    for (const el of boxes) {
      expect(el.scrollWidth).toBeLessThanOrEqual(el.clientWidth + 1);
    }
    expect(sheet.textContent).toContain(long.slice(0, 200));
    act(() => void window.dispatchEvent(new Event('afterprint')));
    expect(document.querySelector('.skein-print')).toBe(null);
    expect(document.documentElement.hasAttribute('data-skein-printing')).toBe(false);
  });

  it('prints every row when none is selected, up to a stated cap', async () => {
    const events = run(12);
    const { row, getByRole } = mount(events, 10);
    await expect.poll(() => row(0)).not.toBe(null);
    vi.spyOn(window, 'print').mockImplementation(() => {
      window.dispatchEvent(new Event('beforeprint'));
    });
    await userEvent.click(getByRole('button', { name: 'Print all' }));
    await expect
      .poll(() => document.querySelector('.skein-print__notice')?.textContent)
      .toBe('Printed the first 10 of 12 events; select the events you want to print them.');
    expect(document.querySelectorAll('.skein-print__event')).toHaveLength(10);
    act(() => void window.dispatchEvent(new Event('afterprint')));
  });
});
