import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { useProducedStream } from './producer.js';
import { useState } from 'react';
import {
  DEFAULT_HIDDEN_KINDS,
  EventStream,
  generateRun,
  importInspectLog,
  type Event,
  type InspectLog as OpenedInspectLog,
  type InspectSampleEvents,
} from '../src/index.js';
import { SkeinTheme, Transcript } from '../src/react.js';
import { buildInspectLogJson } from './inspect-log-fixture.js';

const meta = {
  title: 'Views/Transcript',
  component: Transcript,
  tags: ['autodocs'],
  parameters: { layout: 'fullscreen' },
} satisfies Meta<typeof Transcript>;

export default meta;
type Story = StoryObj<typeof meta>;

const T0 = Date.parse('2026-06-10T18:23:50Z');
const at = (i: number) => new Date(T0 + i * 1000).toISOString();
const frame = { height: 560, padding: 8 };

const sample = generateRun({ seed: 11, events: 600, pendingRate: 0 });

/** Every kind the generator writes, with the debug kinds shown too. */
export const EveryKind: Story = {
  args: { events: sample, defaultFilter: [] },
  render: (args) => (
    <div style={frame}>
      <Transcript {...args} />
    </div>
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const feed = await canvas.findByRole('feed');
    await waitFor(() => expect(feed.querySelectorAll('article').length).toBeGreaterThan(3));
    // The first rows paint before the whole run is folded in (`aria-busy`).
    await waitFor(() => expect(feed.getAttribute('aria-busy')).toBe('false'));
    expect(feed.querySelector('article')!.getAttribute('aria-setsize')).toBe(
      String(new Set(sample.filter((e) => e.event !== 'span_end').map((e) => e.uuid)).size),
    );
  },
};

function Live() {
  const stream = useProducedStream(
    () => generateRun({ seed: 4, events: 2000, pendingRate: 0.2 }),
    5,
    30,
  );
  return (
    <div style={frame}>
      <Transcript stream={stream} aria-label="Live run" />
    </div>
  );
}

/** A timer appends events; the view follows the end. */
export const LiveStreaming: Story = {
  args: { events: [] },
  tags: ['light-only'],
  render: () => <Live />,
  play: async ({ canvasElement }) => {
    const feed = await within(canvasElement).findByRole('feed', { name: 'Live run' });
    await waitFor(
      () =>
        expect(Number(feed.querySelector('article')?.getAttribute('aria-setsize'))).toBeGreaterThan(
          50,
        ),
      {
        timeout: 5000,
      },
    );
  },
};

const million: Event[] = Array.from({ length: 1_000_000 }, (_, i) =>
  i % 1000 === 0
    ? ({
        event: 'span_begin',
        uuid: `b${i}`,
        timestamp: at(i),
        id: `s${i}`,
        parent_id: null,
        span_id: `s${i}`,
        name: `turn ${i / 1000}`,
        type: 'agent',
      } as Event)
    : ({
        event: 'info',
        uuid: `e${i}`,
        timestamp: at(i),
        span_id: `s${i - (i % 1000)}`,
        source: 'story',
        data: `event **${i}**`,
      } as Event),
);

/** 1,000,000 events: a bounded DOM and a scaled scroll space. */
export const MillionEvents: Story = {
  args: { events: million },
  tags: ['light-only', '!autodocs'],
  render: (args) => (
    <div style={frame}>
      <Transcript {...args} />
    </div>
  ),
  play: async ({ canvasElement }) => {
    const feed = await within(canvasElement).findByRole('feed');
    await waitFor(() => expect(feed.getAttribute('aria-busy')).toBe('false'), { timeout: 60_000 });
    const scroller = feed.parentElement!;
    scroller.scrollTop = scroller.scrollHeight;
    await waitFor(() => expect(feed.querySelector('[data-event-id="e999999"]')).not.toBeNull(), {
      timeout: 10_000,
    });
    expect(feed.querySelectorAll('article').length).toBeLessThanOrEqual(40);
  },
};

const deep: Event[] = [];
for (let d = 0; d < 500; d++)
  deep.push({
    event: 'span_begin',
    uuid: `d${d}`,
    timestamp: at(d),
    id: `d${d}`,
    parent_id: d === 0 ? null : `d${d - 1}`,
    span_id: `d${d}`,
    name: `level ${d}`,
    type: 'agent',
  } as Event);
deep.push({
  event: 'info',
  uuid: 'bottom',
  timestamp: at(600),
  span_id: 'd499',
  source: 'x',
  data: 'at the bottom',
} as Event);

/** 10 MB tool result, 500-deep spans (never closed), an unknown kind. */
export const Pathological: Story = {
  tags: ['light-only', '!autodocs'],
  args: {
    events: [
      {
        event: 'tool',
        uuid: 'big',
        timestamp: at(0),
        span_id: null,
        type: 'function',
        id: 'c1',
        function: 'dump',
        arguments: {},
        result: 'x'.repeat(10_000_000),
        events: [],
      } as unknown as Event,
      {
        event: 'quantum_leap',
        uuid: 'odd',
        timestamp: at(1),
        span_id: null,
        payload: { a: 1 },
      } as unknown as Event,
      ...deep,
    ],
  },
  render: (args) => (
    <div style={frame}>
      <Transcript {...args} />
    </div>
  ),
  play: async ({ canvasElement }) => {
    const feed = await within(canvasElement).findByRole('feed');
    await waitFor(() => expect(feed.querySelector('[data-event-id="odd"]')).not.toBeNull());
    expect(feed.querySelector('[data-event-id="big"]')!.textContent!.length).toBeLessThan(
      1_000_000,
    );
    feed.querySelector<HTMLElement>('article')!.focus();
    // End goes to the last row there is: on a loaded machine the feed may
    // still be adding the deep spans' rows when the key is first pressed
    // (CI saw `d497`), so it is pressed again until the list is complete.
    await waitFor(async () => {
      await userEvent.keyboard('{End}');
      expect(document.activeElement?.getAttribute('data-event-id')).toBe('bottom');
    });
  },
};

/** Dark theme, compact density, find open on its first match (↓ from the find bar). */
export const DarkCompactFind: Story = {
  args: { events: sample, findQuery: 'bash' },
  globals: { theme: 'dark' },
  render: (args) => (
    <SkeinTheme theme="dark" density="compact" style={{ height: 560, padding: 8 }}>
      <Transcript {...args} />
    </SkeinTheme>
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await canvas.findByRole('searchbox', { name: 'Find in transcript' });
    const count = () => canvasElement.querySelector('output')?.textContent ?? '';
    await waitFor(() => expect(count()).toMatch(/^[1-9]\d* matches$/), { timeout: 10_000 });
    // The count alone leaves the matches out of view: go to the first.
    await userEvent.click(canvas.getByRole('button', { name: 'Next match' }));
    await waitFor(() => expect(count()).toMatch(/^1 of [1-9]\d* matches$/));
    const feed = canvas.getByRole('feed');
    await waitFor(() => expect(feed.querySelector('[data-current-match]')).not.toBeNull());
  },
};

/** What the InspectLog story's loader reads from the log built in code. */
interface LoadedInspect {
  log: OpenedInspectLog;
  sample: InspectSampleEvents;
  /** Events of the sample in the JSON text, before import. */
  rawEventCount: number;
}

async function loadInspectLog(): Promise<LoadedInspect> {
  const text = buildInspectLogJson();
  const raw = JSON.parse(text) as { samples: { events: unknown[] }[] };
  const log = await importInspectLog(new TextEncoder().encode(text));
  const first = log.samples[0]!;
  const sample = await log.sample(first.id, first.epoch);
  return { log, sample, rawEventCount: raw.samples[0]!.events.length };
}

/**
 * The first row matching `selector`, scrolling the feed down until one is
 * drawn: only rows near the viewport are in the DOM, wherever they land.
 */
async function findRow(feed: HTMLElement, selector: string): Promise<HTMLElement> {
  const scroller = feed.parentElement!;
  scroller.scrollTop = 0;
  for (;;) {
    const row = await waitFor(
      () => {
        const found = feed.querySelector<HTMLElement>(selector);
        if (found === null) throw new Error(`No row ${selector} drawn yet`);
        return found;
      },
      { timeout: 500 },
    ).catch(() => null);
    if (row !== null) return row;
    if (scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 1)
      throw new Error(`No row ${selector} anywhere in the feed`);
    scroller.scrollTop += Math.max(1, scroller.clientHeight / 2);
  }
}

/**
 * An inspect_ai `.json` eval log built in code (stories/inspect-log-fixture.ts),
 * opened with `importInspectLog` and its sample's events drawn: spans, two
 * model calls, a bash tool call and a score.
 */
export const InspectLog: Story = {
  args: { events: [] },
  loaders: [async () => ({ inspect: await loadInspectLog() })],
  render: (_args, { loaded }) => {
    const { sample } = loaded['inspect'] as LoadedInspect;
    return (
      <SkeinTheme theme="light" style={frame}>
        <Transcript events={sample.events} aria-label="find_port sample 1" />
      </SkeinTheme>
    );
  },
  play: async ({ canvasElement, loaded }) => {
    const { log, sample, rawEventCount } = loaded['inspect'] as LoadedInspect;
    // The import read the header, kept every event and repaired nothing.
    await expect(log.format).toBe('json');
    await expect(log.header.eval.task).toBe('find_port');
    await expect(log.samples.map((s) => [s.id, s.epoch])).toEqual([[1, 1]]);
    await expect(log.diagnostics).toEqual([]);
    await expect(sample.diagnostics).toEqual([]);
    await expect(sample.events).toHaveLength(rawEventCount);

    const feed = await within(canvasElement).findByRole('feed', { name: 'find_port sample 1' });
    await waitFor(() => expect(feed.getAttribute('aria-busy')).toBe('false'));

    // The toolbar counts every node of the tree (a span is one node: its begin).
    const nodes = sample.events.filter((e) => e.event !== 'span_end');
    await expect(canvasElement.querySelector('.skein-transcript__count')).toHaveTextContent(
      new RegExp(`^${nodes.length} events$`),
    );
    const shown = nodes.filter((e) => !DEFAULT_HIDDEN_KINDS.includes(e.event));
    await expect(feed.querySelector('article')!.getAttribute('aria-setsize')).toBe(
      String(shown.length),
    );

    const model = await findRow(feed, 'article[data-kind="model"]');
    // Head: the model, then the reply's text (choices[0].message).
    await expect(model.querySelector('.skein-transcript__title')).toHaveTextContent(
      /^openai\/gpt-4o-mini$/,
    );
    await expect(model.querySelector('.skein-transcript__subtitle')).toHaveTextContent(
      "I'll search the service's configuration for its port.",
    );
    // The system prompt was an attachment://ref in the log; the row shows its text.
    await waitFor(() =>
      expect(model).toHaveTextContent('You are a careful software engineer working in a Linux'),
    );
    await expect(model.textContent).not.toContain('attachment://');

    const tool = await findRow(feed, 'article[data-kind="tool"]');
    await expect(tool.querySelector('.skein-transcript__title')).toHaveTextContent(/^bash$/);
    await waitFor(() => expect(tool).toHaveTextContent('/srv/app/config.env:3:PORT=8080'));

    const score = await findRow(feed, 'article[data-kind="score"]');
    await expect(score).toHaveTextContent('C · answer: 8080');
  },
};

/** An `rgb()`/`rgba()` colour as computed by the browser: channels 0–255, alpha 0–1. */
function parseRgb(css: string): { r: number; g: number; b: number; a: number } {
  const m = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)(?:\s*[,/]\s*([\d.]+))?\s*\)$/.exec(
    css,
  );
  if (m === null) throw new Error(`Not an rgb() colour: ${css}`);
  return {
    r: Number(m[1]),
    g: Number(m[2]),
    b: Number(m[3]),
    a: m[4] === undefined ? 1 : Number(m[4]),
  };
}

/** WCAG 2 relative luminance of an opaque computed colour (0 black … 1 white). */
function luminance(css: string): number {
  const { r, g, b, a } = parseRgb(css);
  // A transparent colour would read as black: the theme must paint an opaque one.
  if (a !== 1) throw new Error(`Expected an opaque colour, got ${css}`);
  const lin = (c: number) => {
    const v = c / 255;
    return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

function contrast(a: number, b: number): number {
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}

/** The transcript's background and a drawn row's title colour, as luminances. */
async function themeColours(canvasElement: HTMLElement) {
  const feed = await within(canvasElement).findByRole('feed');
  await waitFor(() => expect(feed.querySelector('.skein-transcript__title')).not.toBeNull());
  const root = canvasElement.querySelector<HTMLElement>('.skein-transcript')!;
  const title = feed.querySelector<HTMLElement>('.skein-transcript__title')!;
  return {
    background: luminance(getComputedStyle(root).backgroundColor),
    text: luminance(getComputedStyle(title).color),
  };
}

/**
 * The generated run in the light theme. The page around it is dark (the
 * toolbar global), so light colours can only come from this SkeinTheme.
 */
export const Light: Story = {
  args: { events: sample },
  globals: { theme: 'dark' },
  render: (args) => (
    <SkeinTheme theme="light" style={frame}>
      <Transcript {...args} />
    </SkeinTheme>
  ),
  play: async ({ canvasElement }) => {
    await expect(canvasElement.querySelector('.skein[data-theme="light"]')).not.toBeNull();
    const { background, text } = await themeColours(canvasElement);
    await expect(background).toBeGreaterThan(0.8);
    await expect(text).toBeLessThan(0.1);
    await expect(contrast(background, text)).toBeGreaterThanOrEqual(4.5);
  },
};

/**
 * The generated run in the dark theme. The page around it is light, so dark
 * colours can only come from this SkeinTheme.
 */
export const Dark: Story = {
  args: { events: sample },
  globals: { theme: 'light' },
  render: (args) => (
    <SkeinTheme theme="dark" style={frame}>
      <Transcript {...args} />
    </SkeinTheme>
  ),
  play: async ({ canvasElement }) => {
    await expect(canvasElement.querySelector('.skein[data-theme="dark"]')).not.toBeNull();
    const { background, text } = await themeColours(canvasElement);
    await expect(background).toBeLessThan(0.05);
    await expect(text).toBeGreaterThan(0.6);
    await expect(contrast(background, text)).toBeGreaterThanOrEqual(4.5);
  },
};

/** The first event row's head (not a span header) in the feed named `name`. */
async function rowHead(canvasElement: HTMLElement, name: string): Promise<HTMLElement> {
  const feed = await within(canvasElement).findByRole('feed', { name });
  return waitFor(() => {
    const head = feed.querySelector<HTMLElement>('.skein-transcript__head');
    if (head === null) throw new Error(`No event row drawn in ${name}`);
    return head;
  });
}

/** Compact density next to the default (comfortable), both light. */
export const Compact: Story = {
  args: { events: sample },
  render: (args) => (
    <div style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 8 }}>
      <SkeinTheme theme="light" style={frame}>
        <Transcript {...args} aria-label="Comfortable density" />
      </SkeinTheme>
      <SkeinTheme theme="light" density="compact" style={frame}>
        <Transcript {...args} aria-label="Compact density" />
      </SkeinTheme>
    </div>
  ),
  play: async ({ canvasElement }) => {
    const compactRoot = canvasElement.querySelector<HTMLElement>('.skein[data-density="compact"]');
    await expect(compactRoot).not.toBeNull();
    await expect(
      compactRoot!.contains(canvasElement.querySelector('[aria-label="Compact density"]')),
    ).toBe(true);

    const comfortable = getComputedStyle(await rowHead(canvasElement, 'Comfortable density'));
    const compact = getComputedStyle(await rowHead(canvasElement, 'Compact density'));
    const px = (v: string) => Number.parseFloat(v);
    // Smaller type, a shorter row head and tighter spacing; no exact sizes.
    await expect(px(compact.fontSize)).toBeLessThan(px(comfortable.fontSize));
    await expect(px(compact.minHeight)).toBeLessThan(px(comfortable.minHeight));
    await expect(px(compact.paddingInlineStart)).toBeLessThan(px(comfortable.paddingInlineStart));
  },
};

/** An empty stream (a run that has not produced an event yet). */
export const EmptyStream: Story = {
  args: { events: [] },
  render: () => <EmptyStreamStory />,
  play: async ({ canvasElement }) => {
    // No rows and nothing loading: not a feed (which owns articles) but a
    // group that says it is empty.
    const empty = await within(canvasElement).findByRole('group', { name: 'Empty run' });
    await expect(empty.querySelectorAll('article')).toHaveLength(0);
    await expect(empty).toHaveTextContent('No events yet.');
    await expect(canvasElement.querySelector('.skein-transcript__count')).toHaveTextContent(
      /^0 events/,
    );
  },
};

function EmptyStreamStory() {
  const [stream] = useState(() => new EventStream());
  return (
    <div style={frame}>
      <Transcript stream={stream} aria-label="Empty run" />
    </div>
  );
}

/**
 * Loading: a log still being read (an async iterable that has yielded its
 * first 40 events and waits for more). The feed is `aria-busy` and the
 * toolbar says "loading…".
 */
export const Loading: Story = {
  args: { events: [] },
  render: () => <LoadingStory />,
  play: async ({ canvasElement }) => {
    const feed = await within(canvasElement).findByRole('feed', { name: 'Run being read' });
    await waitFor(() => expect(feed.querySelectorAll('article').length).toBeGreaterThan(3));
    await expect(feed.getAttribute('aria-busy')).toBe('true');
    await expect(canvasElement.querySelector('.skein-transcript__count')).toHaveTextContent(
      /\(loading…\)/,
    );
  },
};

function LoadingStory() {
  // One iterable per mount: it can be read once.
  const [iterable] = useState(() => firstThenWait(sample.slice(0, 40)));
  return (
    <div style={frame}>
      <Transcript iterable={iterable} aria-label="Run being read" />
    </div>
  );
}

/** Yields `events`, then waits for ever (the rest of the log never arrives). */
async function* firstThenWait(events: readonly Event[]): AsyncGenerator<Event> {
  yield* events;
  await new Promise<never>(() => {});
}

/** At 390 px, as a phone shows it: headers shorten, nothing scrolls sideways. */
export const Narrow: Story = {
  args: { events: sample },
  globals: { viewport: { value: 'phone', isRotated: false } },
  render: (args) => (
    <div style={frame}>
      <Transcript {...args} aria-label="Narrow transcript" />
    </div>
  ),
  play: async ({ canvasElement }) => {
    const feed = await within(canvasElement).findByRole('feed', { name: 'Narrow transcript' });
    await waitFor(() => expect(feed.querySelectorAll('article').length).toBeGreaterThan(3));
    await expect(feed.getBoundingClientRect().width).toBeLessThanOrEqual(390);
  },
};

/**
 * Keyboard focus: an event row reached from the keyboard shows its focus
 * ring (the story opens that way, as a keyboard user sees it).
 */
export const KeyboardFocus: Story = {
  args: { events: sample },
  render: (args) => (
    <div style={frame}>
      <Transcript {...args} aria-label="Focused transcript" />
    </div>
  ),
  play: async ({ canvasElement }) => {
    const feed = await within(canvasElement).findByRole('feed', { name: 'Focused transcript' });
    await waitFor(() => expect(feed.querySelectorAll('article').length).toBeGreaterThan(3));
    feed.querySelector<HTMLElement>('article')!.focus();
    await userEvent.keyboard('{ArrowDown}');
    const focused = document.activeElement as HTMLElement;
    await expect(focused.tagName).toBe('ARTICLE');
    await expect(focused.getAttribute('aria-posinset')).toBe('2');
    await expect(focused.matches(':focus-visible')).toBe(true);
    await expect(getComputedStyle(focused).outlineStyle).not.toBe('none');
  },
};
