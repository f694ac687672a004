// The viewer's pieces in jsdom: the pane separator, the sample list, the
// diagnostics panel, the keyboard map and the loader session on the page.
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { EventStream, generateRun } from '../../src/index.js';
import { DiagnosticsPanel } from '../../viewer/diagnostics.js';
import { KeyboardHelp } from '../../viewer/keyboard-help.js';
import { inThreadPort, openLog, type LoaderPort } from '../../viewer/load/client.js';
import type { LoadMessage } from '../../viewer/load/protocol.js';
import type { SampleRow } from '../../viewer/load/protocol.js';
import { Split } from '../../viewer/panes.js';
import { SampleList } from '../../viewer/sample-list.js';

beforeEach(() => localStorage.clear());

describe('<Split>', () => {
  const split = () =>
    render(
      <Split
        id="t"
        direction="row"
        defaultSize={300}
        min={100}
        max={500}
        label="Resize"
        first={<p>one</p>}
        second={<p>two</p>}
      />,
    );

  it('is a focusable separator with its value; arrows, Home, End and Enter move it', () => {
    split();
    const sep = screen.getByRole('separator', { name: 'Resize' });
    expect(sep.tabIndex).toBe(0);
    expect(sep.getAttribute('aria-orientation')).toBe('vertical');
    expect(sep.getAttribute('aria-valuenow')).toBe('300');
    fireEvent.keyDown(sep, { key: 'ArrowRight' });
    expect(sep.getAttribute('aria-valuenow')).toBe('316');
    fireEvent.keyDown(sep, { key: 'ArrowLeft', shiftKey: true });
    expect(sep.getAttribute('aria-valuenow')).toBe('252');
    fireEvent.keyDown(sep, { key: 'End' });
    expect(sep.getAttribute('aria-valuenow')).toBe('500');
    fireEvent.keyDown(sep, { key: 'Enter' }); // fold to the smallest…
    expect(sep.getAttribute('aria-valuenow')).toBe('100');
    fireEvent.keyDown(sep, { key: 'Enter' }); // …and back
    expect(sep.getAttribute('aria-valuenow')).toBe('500');
    fireEvent.keyDown(sep, { key: 'Home' });
    expect(sep.getAttribute('aria-valuenow')).toBe('100');
    expect(sep.parentElement!.style.gridTemplateColumns).toMatch(/^100px /);
  });

  it('remembers its size in localStorage and starts from it', () => {
    const first = split();
    fireEvent.keyDown(screen.getByRole('separator'), { key: 'ArrowRight' });
    expect(localStorage.getItem('skein-viewer.pane.t')).toBe('316');
    first.unmount();
    split();
    expect(screen.getByRole('separator').getAttribute('aria-valuenow')).toBe('316');
  });

  it('clamps a remembered size that is out of range', () => {
    localStorage.setItem('skein-viewer.pane.t', '9000');
    split();
    expect(screen.getByRole('separator').getAttribute('aria-valuenow')).toBe('500');
  });
});

const row = (id: string | number, over: Partial<SampleRow> = {}): SampleRow => ({
  id,
  epoch: 1,
  score: null,
  scoreValue: null,
  scores: '',
  tokens: null,
  duration: null,
  error: null,
  limit: null,
  input: '',
  ...over,
});

describe('<SampleList>', () => {
  const samples = [
    row(3, { score: 'C', scoreValue: 1, tokens: 10 }),
    row(1, { score: 'I', scoreValue: 0, tokens: 30, error: 'boom' }),
    row(2, { score: 'C', scoreValue: 1, tokens: 20, input: 'capital of France' }),
  ];
  const ids = () =>
    within(screen.getByRole('table', { name: 'Samples' }))
      .getAllByRole('rowheader')
      .map((c) => c.textContent);

  it('sorts by a column header, toggling the direction, with aria-sort', () => {
    render(<SampleList samples={samples} selected={null} onSelect={() => {}} />);
    expect(ids()).toEqual(['1', '2', '3']);
    const tokens = screen.getByRole('button', { name: /Tokens/ });
    fireEvent.click(tokens);
    expect(ids()).toEqual(['3', '2', '1']);
    expect(tokens.closest('[role="columnheader"]')!.getAttribute('aria-sort')).toBe('ascending');
    fireEvent.click(tokens);
    expect(ids()).toEqual(['1', '2', '3']);
    expect(tokens.closest('[role="columnheader"]')!.getAttribute('aria-sort')).toBe('descending');
    fireEvent.click(screen.getByRole('button', { name: /Error/ }));
    expect(ids()[0]).toBe('1');
  });

  it('filters, and reports the count', () => {
    render(<SampleList samples={samples} selected={null} onSelect={() => {}} />);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Filter samples' }), {
      target: { value: 'france' },
    });
    expect(ids()).toEqual(['2']);
    expect(screen.getByTestId('sample-count').textContent).toBe('1 of 3');
  });

  it('marks the current sample and selects another', () => {
    const onSelect = vi.fn();
    render(<SampleList samples={samples} selected={{ id: 2, epoch: 1 }} onSelect={onSelect} />);
    expect(screen.getByRole('button', { name: '2' }).getAttribute('aria-current')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: '3' }));
    expect(onSelect).toHaveBeenCalledWith({ id: 3, epoch: 1 });
  });
});

describe('<DiagnosticsPanel>', () => {
  const stream = EventStream.from(generateRun({ seed: 1, events: 20, pendingRate: 0 }));
  const diagnostics = [
    { code: 'uuid_derived', severity: 'info', message: 'derived', path: '$.events[4]' },
    { code: 'default_filled', severity: 'info', message: 'filled', path: '$.events[2].x' },
    { code: 'uuid_derived', severity: 'info', message: 'derived', path: '$.events[7]' },
  ] as const;

  it('counts by kind, filters by a kind, and links each to its event', () => {
    const onShowEvent = vi.fn();
    render(
      <DiagnosticsPanel
        diagnostics={diagnostics}
        stream={stream}
        linkable
        onShowEvent={onShowEvent}
        onClose={() => {}}
      />,
    );
    const kinds = screen.getByRole('group', { name: 'Diagnostics by kind' });
    expect(
      within(kinds)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['all 3', 'uuid_derived 2', 'default_filled 1']);
    fireEvent.click(within(kinds).getByRole('button', { name: /default_filled/ }));
    expect(screen.getAllByRole('listitem')).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Show event 2' }));
    expect(onShowEvent).toHaveBeenCalledWith(stream.at(2)!.uuid);
  });

  it('counts what a cap left unlisted toward its kind, the note listed with it', () => {
    render(
      <DiagnosticsPanel
        diagnostics={[
          ...diagnostics,
          {
            code: 'diagnostics_truncated',
            severity: 'info',
            message: '40 more "uuid_derived" diagnostics not listed',
            path: '$',
            omitted: { code: 'uuid_derived', count: 40 },
          },
        ]}
        stream={stream}
        linkable
        onShowEvent={() => {}}
        onClose={() => {}}
      />,
    );
    expect(screen.getByRole('heading', { name: 'Diagnostics (43)' })).toBeDefined();
    const kinds = screen.getByRole('group', { name: 'Diagnostics by kind' });
    expect(
      within(kinds)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['all 43', 'uuid_derived 42', 'default_filled 1']);
    fireEvent.click(within(kinds).getByRole('button', { name: /uuid_derived/ }));
    expect(screen.getAllByRole('listitem').map((li) => li.getAttribute('data-code'))).toEqual([
      'uuid_derived',
      'uuid_derived',
      'diagnostics_truncated',
    ]);
  });

  it('gives no links where paths name records, not events', () => {
    render(
      <DiagnosticsPanel
        diagnostics={diagnostics}
        stream={stream}
        linkable={false}
        onShowEvent={() => {}}
        onClose={() => {}}
      />,
    );
    expect(screen.queryByRole('button', { name: /Show event/ })).toBeNull();
  });
});

describe('<KeyboardHelp>', () => {
  it('is a modal dialog that takes focus, closes on Escape and gives focus back', () => {
    const before = document.createElement('button');
    document.body.append(before);
    before.focus();
    const onClose = vi.fn();
    const view = render(<KeyboardHelp onClose={onClose} />);
    const dialog = screen.getByRole('dialog', { name: 'Keyboard' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Close' }));
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(onClose).toHaveBeenCalled();
    view.unmount();
    expect(document.activeElement).toBe(before);
    before.remove();
  });
});

describe('openLog on the page (no Worker)', () => {
  it('fills a stream in slices, closes it when done, and loads another sample', async () => {
    const bytes = readFileSync(join(process.cwd(), 'test/fixtures/inspect/zstd-zip64.eval'));
    const session = openLog(
      { kind: 'file', file: new Blob([bytes]), name: 'x.eval' },
      { createPort: inThreadPort },
    );
    await vi.waitFor(() => expect(session.getSnapshot().phase).toBe('done'), { timeout: 10_000 });
    const s = session.getSnapshot();
    expect(s.format).toEqual({ id: 'inspect', name: 'inspect_ai log' });
    expect(s.samples).toHaveLength(2);
    expect(s.stream.complete).toBe(true);
    expect(s.stream.length).toBeGreaterThan(3);
    // Another sample: a new stream.
    const old = s.stream;
    act(() => session.selectSample({ id: 'two', epoch: 1 }));
    expect(session.getSnapshot().phase).toBe('loading');
    await vi.waitFor(() => expect(session.getSnapshot().phase).toBe('done'), { timeout: 10_000 });
    expect(session.getSnapshot().stream).not.toBe(old);
    expect(session.getSnapshot().stream.at(0)!.uuid).toBe('two-1-e0');
  });

  it('a reset drops the events and facts of the load so far; what follows is shown', async () => {
    let port!: LoaderPort;
    const session = openLog(
      { kind: 'file', file: new Blob(['{}']), name: 'x.json' },
      {
        createPort: () =>
          (port = { postMessage() {}, terminate() {}, onmessage: null } as LoaderPort),
      },
    );
    const send = (m: LoadMessage) => port.onmessage?.({ data: m } as MessageEvent<LoadMessage>);
    const batch = (uuids: string[]) =>
      JSON.stringify(
        uuids.map((uuid) => ({ event: 'info', uuid, timestamp: '2026-01-01T00:00:00Z', data: 1 })),
      );
    send({ type: 'events', session: 1, json: batch(['a', 'b']), count: 2 });
    send({ type: 'done', session: 0, diagnostics: [], facts: {} }); // an older session: ignored
    await vi.waitFor(() => expect(session.getSnapshot().stream.length).toBe(2));
    const before = session.getSnapshot().stream;
    send({ type: 'reset', session: 1 });
    send({
      type: 'log',
      session: 1,
      facts: { task: 't' },
      samples: [],
      sample: null,
    });
    send({ type: 'events', session: 1, json: batch(['c']), count: 1 });
    send({ type: 'done', session: 1, diagnostics: [], facts: { model: 'm' } });
    await vi.waitFor(() => expect(session.getSnapshot().phase).toBe('done'));
    const s = session.getSnapshot();
    expect(s.stream).not.toBe(before);
    expect(s.stream.length).toBe(1);
    expect(s.stream.at(0)!.uuid).toBe('c');
    expect(s.facts).toEqual({ task: 't', model: 'm' });
    expect(s.progress.events).toBe(1);
  });

  it('cancel stops a load and keeps what arrived', () => {
    const session = openLog(
      { kind: 'demo', events: 5000, name: 'demo' },
      { createPort: inThreadPort },
    );
    session.cancel();
    expect(session.getSnapshot().phase).toBe('cancelled');
    expect(session.getSnapshot().stream.complete).toBe(true);
  });
});
