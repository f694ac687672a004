import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { useState } from 'react';
import { useProducedStream } from './producer.js';
import {
  EventStream,
  buildEventTree,
  createSelectionStore,
  eventTreeIndexOf,
  generateRun,
  type Event,
} from '../src/index.js';
import { SkeinTheme, SpanTree, Transcript, useStoreSelector } from '../src/react.js';

const meta = {
  title: 'Views/SpanTree',
  component: SpanTree,
  tags: ['autodocs'],
  parameters: { layout: 'fullscreen' },
} satisfies Meta<typeof SpanTree>;

export default meta;
type Story = StoryObj<typeof meta>;

const T0 = Date.parse('2026-06-10T18:23:50Z');
const at = (ms: number) => new Date(T0 + ms).toISOString();
const frame = { height: 520, padding: 8 };

const small = generateRun({ seed: 7, events: 400, pendingRate: 0 });
const rowsOf = (el: HTMLElement) => el.querySelectorAll<HTMLElement>('[role="row"][aria-level]');

/** A small generated run: agents, tools, model calls. */
export const Small: Story = {
  args: { events: small },
  render: (args) => (
    <div style={frame}>
      <SpanTree {...args} />
    </div>
  ),
  play: async ({ canvasElement }) => {
    const grid = await within(canvasElement).findByRole('treegrid');
    await waitFor(() => expect(rowsOf(grid).length).toBeGreaterThan(3));
    const first = rowsOf(grid)[0]!;
    expect(first.getAttribute('aria-level')).toBe('1');
    first.focus();
    await userEvent.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(rowsOf(grid)[1]);
  },
};

let millionRun: Event[] | null = null;
/** 1M events, built on first use (a span every 5 events, nested 4 deep). */
function million(): Event[] {
  if (millionRun !== null) return millionRun;
  const events: Event[] = new Array(1_000_000);
  for (let i = 0; i < events.length; i++) {
    if (i % 5 === 0) {
      const k = i / 5;
      const parent = k % 4 === 0 ? null : `s${k - 1}`;
      events[i] = {
        event: 'span_begin',
        uuid: `b${k}`,
        timestamp: at(i),
        id: `s${k}`,
        parent_id: parent,
        span_id: `s${k}`,
        name: `step ${k}`,
        type: k % 4 === 0 ? 'agent' : 'tool',
      } as Event;
    } else {
      events[i] = {
        event: 'info',
        uuid: `e${i}`,
        timestamp: at(i),
        span_id: `s${Math.floor(i / 5)}`,
        source: 'story',
        data: i,
      } as Event;
    }
  }
  return (millionRun = events);
}

function Million() {
  const [stream] = useState(() => EventStream.from(million()));
  return (
    <div style={frame}>
      <SpanTree stream={stream} aria-label="A million events" />
    </div>
  );
}

/** 1,000,000 events (200k spans): first rows at once, a bounded DOM, a scaled scroll space. */
export const MillionEvents: Story = {
  args: { events: [] },
  tags: ['light-only', '!autodocs'],
  render: () => <Million />,
  play: async ({ canvasElement }) => {
    const grid = await within(canvasElement).findByRole('treegrid', { name: 'A million events' });
    // First rows come before the whole run is folded in (aria-busy until then).
    await waitFor(() => expect(rowsOf(grid).length).toBeGreaterThan(5), { timeout: 20_000 });
    expect(rowsOf(grid).length).toBeLessThanOrEqual(100);
    const scroller = grid.querySelector<HTMLElement>('.skein-span-tree__scroller')!;
    // A long scroll range first (on a busy machine the first rows come with
    // a short one), then to the middle; the scroll is repeated while
    // waiting, as a range that grows meanwhile moves the middle.
    await waitFor(() => expect(scroller.scrollHeight).toBeGreaterThan(scroller.clientHeight * 50), {
      timeout: 60_000,
    });
    await waitFor(
      () => {
        scroller.scrollTop = scroller.scrollHeight / 2;
        expect(rowsOf(grid)[0]!.dataset['key']).not.toBe('s0');
      },
      { timeout: 20_000 },
    );
    expect(rowsOf(grid).length).toBeLessThanOrEqual(100);
  },
};

function Live() {
  // Short (about a second), so the accessibility check runs on a settled page.
  const stream = useProducedStream(
    () => generateRun({ seed: 4, events: 400, pendingRate: 0 }),
    20,
    40,
  );
  return (
    <div style={frame}>
      <SpanTree stream={stream} aria-label="Live run" />
    </div>
  );
}

/** A timer appends events: spans appear and running ones count up, expansion and focus stay. */
export const Live_: Story = {
  name: 'Live',
  args: { events: [] },
  render: () => <Live />,
  play: async ({ canvasElement }) => {
    const grid = await within(canvasElement).findByRole('treegrid', { name: 'Live run' });
    await waitFor(() => expect(rowsOf(grid).length).toBeGreaterThan(3), { timeout: 5000 });
  },
};

const failing: Event[] = [
  {
    event: 'span_begin',
    uuid: 'b1',
    timestamp: at(0),
    id: 'agent',
    span_id: 'agent',
    name: 'agent',
    type: 'agent',
  },
  {
    event: 'span_begin',
    uuid: 'b2',
    timestamp: at(100),
    id: 'search',
    parent_id: 'agent',
    span_id: 'search',
    name: 'search',
    type: 'tool',
  },
  {
    event: 'tool',
    uuid: 't1',
    timestamp: at(200),
    span_id: 'search',
    id: 't1',
    function: 'web_search',
    arguments: { q: 'skein' },
    error: { type: 'timeout', message: 'timed out after 30 s' },
  },
  { event: 'span_end', uuid: 'x2', timestamp: at(30_200), id: 'search', span_id: 'search' },
  {
    event: 'error',
    uuid: 'err',
    timestamp: at(30_300),
    span_id: 'agent',
    error: { message: 'agent gave up', traceback: '', traceback_ansi: '' },
  },
  { event: 'span_end', uuid: 'x1', timestamp: at(30_400), id: 'agent', span_id: 'agent' },
] as unknown as Event[];

function FailingTrees() {
  // The second tree's own store starts with the agent folded.
  const [folded] = useState(() => {
    const store = createSelectionStore();
    store.toggle('agent', false);
    return store;
  });
  return (
    <div
      style={{
        display: 'grid',
        gridTemplateColumns: 'repeat(auto-fit, minmax(300px, 1fr))',
        gap: 8,
        padding: 8,
      }}
    >
      <div style={{ height: 240 }}>
        <SpanTree events={failing} defaultMode="events" aria-label="Expanded" />
      </div>
      <div style={{ height: 240 }}>
        <SpanTree events={failing} defaultMode="events" selection={folded} aria-label="Collapsed" />
      </div>
    </div>
  );
}

/** Failures: status icons, and a collapsed row counts what failed inside it (right). */
export const Errors: Story = {
  args: { events: failing, defaultMode: 'events' },
  render: () => <FailingTrees />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const open = await canvas.findByRole('treegrid', { name: 'Expanded' });
    const folded = await canvas.findByRole('treegrid', { name: 'Collapsed' });
    const agent = await waitFor(() => open.querySelector<HTMLElement>('[data-key="agent"]')!);
    expect(agent.dataset['status']).toBe('error');
    await waitFor(() => expect(rowsOf(open).length).toBeGreaterThan(3));
    const collapsed = await waitFor(() => folded.querySelector<HTMLElement>('[data-key="agent"]')!);
    expect(collapsed.getAttribute('aria-expanded')).toBe('false');
    await waitFor(() => expect(within(collapsed).getByText('2 failed')).toBeTruthy());
  },
};

/** (A test, hidden from the sidebar.) ← on an expanded row folds it, and the row counts its failures. */
export const CollapseWithKeyboard: Story = {
  args: { events: failing, defaultMode: 'events' },
  tags: ['!dev', '!autodocs'],
  render: (args) => (
    <div style={frame}>
      <SpanTree {...args} />
    </div>
  ),
  play: async ({ canvasElement }) => {
    const grid = await within(canvasElement).findByRole('treegrid');
    const agent = await waitFor(() => grid.querySelector<HTMLElement>('[data-key="agent"]')!);
    agent.focus();
    await userEvent.keyboard('{ArrowLeft}');
    await waitFor(() => expect(within(agent).getByText('2 failed')).toBeTruthy());
  },
};

const twice: Event[] = [
  {
    event: 'span_begin',
    uuid: 'b1',
    timestamp: at(0),
    id: 'search',
    parent_id: null,
    span_id: 'search',
    name: 'search',
    type: 'agent',
  },
  {
    event: 'info',
    uuid: 'i1',
    timestamp: at(500),
    span_id: 'search',
    source: 'agent',
    data: 'first attempt',
  },
  { event: 'span_end', uuid: 'x1', timestamp: at(1000), id: 'search', span_id: 'search' },
  {
    event: 'span_begin',
    uuid: 'b2',
    timestamp: at(2000),
    id: 'search',
    parent_id: null,
    span_id: 'search',
    name: 'search (retry)',
    type: 'agent',
  },
  {
    event: 'info',
    uuid: 'i2',
    timestamp: at(2500),
    span_id: 'search',
    source: 'agent',
    data: 'second attempt',
  },
  { event: 'span_end', uuid: 'x2', timestamp: at(3000), id: 'search', span_id: 'search' },
] as Event[];

/**
 * A span id begun twice, read as inspect_ai does (README "Duplicate span
 * ids"): the span shows once per begin, both named by the last begin, each
 * holding every event of the id, with keys of their own; the timeline agrees.
 */
export const DuplicateSpanIds: Story = {
  args: { events: twice, defaultMode: 'events' },
  render: (args) => (
    <div style={frame}>
      <SpanTree {...args} />
    </div>
  ),
  play: async ({ canvasElement }) => {
    const grid = await within(canvasElement).findByRole('treegrid');
    const copies = await waitFor(() => {
      const rows = [...rowsOf(grid)].filter((r) => r.getAttribute('aria-level') === '1');
      expect(rows).toHaveLength(2);
      return rows;
    });
    for (const row of copies) expect(row.textContent).toContain('search (retry)');
    expect(new Set(copies.map((r) => r.dataset['key'])).size).toBe(2);
  },
};

const deep: Event[] = [];
for (let d = 0; d < 500; d++)
  deep.push({
    event: 'span_begin',
    uuid: `d${d}`,
    timestamp: at(d * 10),
    id: `d${d}`,
    parent_id: d === 0 ? null : `d${d - 1}`,
    span_id: `d${d}`,
    name: `level ${d}`,
    type: 'agent',
  } as Event);

/** 500 levels of nesting. */
export const DeepNesting: Story = {
  args: { events: deep },
  render: (args) => (
    <div style={frame}>
      <SpanTree {...args} />
    </div>
  ),
  play: async ({ canvasElement }) => {
    const grid = await within(canvasElement).findByRole('treegrid');
    await waitFor(() => expect(grid.getAttribute('aria-rowcount')).toBe('501'));
    rowsOf(grid)[0]!.focus();
    await userEvent.keyboard('{End}');
    await waitFor(() =>
      expect((document.activeElement as HTMLElement).getAttribute('aria-level')).toBe('500'),
    );
  },
};

/** Filtering: loose keeps context (dimmed ancestors), strict shows matches only. */
export const FilterModes: Story = {
  args: { events: small, defaultMode: 'events', defaultFilter: { query: 'bash', mode: 'loose' } },
  render: (args) => (
    <div
      style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 8, height: 520, padding: 8 }}
    >
      <SpanTree {...args} aria-label="Loose filter" />
      <SpanTree
        {...args}
        defaultFilter={{ query: 'bash', mode: 'strict' }}
        aria-label="Strict filter"
      />
    </div>
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const loose = await canvas.findByRole('treegrid', { name: 'Loose filter' });
    const strict = await canvas.findByRole('treegrid', { name: 'Strict filter' });
    await waitFor(() => expect(rowsOf(strict).length).toBeGreaterThan(0));
    expect(loose.querySelector('[data-dim]')).not.toBeNull();
    expect(strict.querySelector('[data-dim]')).toBeNull();
    for (const r of rowsOf(strict)) expect(r.getAttribute('aria-level')).toBe('1');
  },
};

/** inspect's outline: a model call and its tool calls are a turn; turns in a row fold. */
export const Outline: Story = {
  args: { events: small, defaultMode: 'outline' },
  render: (args) => (
    <div style={frame}>
      <SpanTree {...args} />
    </div>
  ),
  play: async ({ canvasElement }) => {
    const grid = await within(canvasElement).findByRole('treegrid');
    await waitFor(() => expect(grid.querySelector('[data-key^="turn"]')).not.toBeNull());
  },
};

/** The dark theme (variables only). */
export const Dark: Story = {
  args: { events: small },
  globals: { theme: 'dark' },
  render: (args) => (
    <SkeinTheme theme="dark" style={{ ...frame, height: 536 }}>
      <SpanTree {...args} />
    </SkeinTheme>
  ),
};

/** At 390 px, as a phone shows it: the name column keeps its room, nothing scrolls sideways. */
export const Narrow: Story = {
  args: { events: small },
  globals: { viewport: { value: 'phone', isRotated: false } },
  render: (args) => (
    <div style={frame}>
      <SpanTree {...args} aria-label="Narrow tree" />
    </div>
  ),
  play: async ({ canvasElement }) => {
    const grid = await within(canvasElement).findByRole('treegrid', { name: 'Narrow tree' });
    await waitFor(() => expect(rowsOf(grid).length).toBeGreaterThan(3));
    await expect(grid.getBoundingClientRect().width).toBeLessThanOrEqual(390);
  },
};

/**
 * Keyboard focus: the first row focused from the keyboard shows its focus
 * ring (the story opens that way, as a keyboard user sees it).
 */
export const KeyboardFocus: Story = {
  args: { events: small },
  render: (args) => (
    <div style={frame}>
      <SpanTree {...args} aria-label="Focused tree" />
    </div>
  ),
  play: async ({ canvasElement }) => {
    const grid = await within(canvasElement).findByRole('treegrid', { name: 'Focused tree' });
    await waitFor(() => expect(rowsOf(grid).length).toBeGreaterThan(3));
    const second = rowsOf(grid)[1]!;
    rowsOf(grid)[0]!.focus();
    await userEvent.keyboard('{ArrowDown}');
    await waitFor(() => expect(document.activeElement).toBe(second));
    await expect(second.matches(':focus-visible')).toBe(true);
    await expect(getComputedStyle(second).outlineStyle).not.toBe('none');
  },
};

/** An empty run (a stream with no events yet): the tree says so instead of showing a blank box. */
export const Empty: Story = {
  args: { events: [] },
  render: (args) => (
    <div style={frame}>
      <SpanTree {...args} aria-label="Empty tree" />
    </div>
  ),
  play: async ({ canvasElement }) => {
    const grid = await within(canvasElement).findByRole('treegrid', { name: 'Empty tree' });
    await expect(rowsOf(grid)).toHaveLength(0);
  },
};

/**
 * Bare: only `skein/styles.css`, no `<SkeinTheme>`, in an unsized parent
 * (the tree takes `--skein-span-tree-min-height`). The global decorator
 * still wraps stories in a theme until it can be opted out of by parameter.
 */
export const Bare: Story = {
  args: { events: small },
  parameters: { skeinTheme: false },
  render: (args) => (
    <div>
      <SpanTree {...args} />
    </div>
  ),
  play: async ({ canvasElement }) => {
    const grid = await within(canvasElement).findByRole('treegrid');
    const scroller = grid.querySelector<HTMLElement>('.skein-span-tree__scroller')!;
    await waitFor(() => expect(scroller.clientHeight).toBeGreaterThan(200));
    expect(rowsOf(grid).length).toBeLessThanOrEqual(100);
  },
};

const linkedRun = generateRun({ seed: 3, events: 300, pendingRate: 0 });
const linkedTree = buildEventTree(linkedRun);

function Linked() {
  const [store] = useState(() => createSelectionStore());
  const selected = useStoreSelector(store, (s) => s.selected);
  // The transcript takes an event uuid; a span's row there is its begin event.
  const i = selected === null ? -1 : eventTreeIndexOf(linkedTree, selected);
  const uuid = i < 0 ? null : linkedTree.events[i]!.uuid;
  return (
    <div
      style={{ display: 'grid', gridTemplateColumns: '2fr 3fr', gap: 8, height: 560, padding: 8 }}
    >
      <SpanTree events={linkedRun} selection={store} aria-label="Linked tree" />
      <Transcript
        events={linkedRun}
        selectedId={uuid}
        onSelect={(id) => store.select(id)}
        aria-label="Linked transcript"
      />
    </div>
  );
}

/**
 * One selection store: a span selected in the tree is selected in the
 * transcript, and an event selected there selects the span that holds it.
 * (Glue maps keys to the transcript's `selectedId` until it takes
 * `selection={store}` itself.)
 */
export const LinkedWithTranscript: Story = {
  args: { events: [] },
  render: () => <Linked />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const grid = await canvas.findByRole('treegrid', { name: 'Linked tree' });
    await waitFor(() => expect(rowsOf(grid).length).toBeGreaterThan(2));
    const target = rowsOf(grid)[1]!;
    await userEvent.click(target);
    await waitFor(() => expect(target.getAttribute('aria-selected')).toBe('true'));
  },
};
