import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { useEffect, useState } from 'react';
import { EventStream, generateRun, type Event } from '../src/core/index.js';
import { SkeinTheme, Transcript } from '../src/react/index.js';

const meta = {
  title: 'Transcript',
  component: Transcript,
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
    expect(feed.querySelector('article')!.getAttribute('aria-setsize')).toBe(
      String(new Set(sample.filter((e) => e.event !== 'span_end').map((e) => e.uuid)).size),
    );
  },
};

function Live() {
  const [stream] = useState(() => new EventStream());
  useEffect(() => {
    const run = generateRun({ seed: 4, events: 2000, pendingRate: 0.2 });
    let i = 0;
    const timer = setInterval(() => {
      for (let k = 0; k < 5 && i < run.length; k++) stream.append(run[i++]!);
      if (i >= run.length) clearInterval(timer);
    }, 30);
    return () => clearInterval(timer);
  }, [stream]);
  return (
    <div style={frame}>
      <Transcript stream={stream} aria-label="Live run" />
    </div>
  );
}

/** A timer appends events; the view follows the end. */
export const LiveStreaming: Story = {
  args: { events: [] },
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
    await userEvent.keyboard('{End}');
    await waitFor(() =>
      expect(document.activeElement?.getAttribute('data-event-id')).toBe('bottom'),
    );
  },
};

/** Dark theme, compact density, find open. */
export const DarkCompactFind: Story = {
  args: { events: sample, findQuery: 'bash' },
  render: (args) => (
    <SkeinTheme theme="dark" density="compact" style={{ height: 560, padding: 8 }}>
      <Transcript {...args} />
    </SkeinTheme>
  ),
  play: async ({ canvasElement }) => {
    await within(canvasElement).findByRole('searchbox', { name: 'Find in transcript' });
    await waitFor(
      () =>
        expect(canvasElement.querySelector('output')?.textContent).toMatch(/^[1-9]\d* matches$/),
      { timeout: 10_000 },
    );
  },
};

/** A small inspect-shaped log built in code (sample events as inspect writes them). */
export const InspectLog: Story = {
  args: { events: generateRun({ seed: 2, events: 120, pendingRate: 0, agents: 1 }) },
  render: (args) => (
    <SkeinTheme theme="light" style={{ height: 560, padding: 8 }}>
      <Transcript {...args} />
    </SkeinTheme>
  ),
  play: async ({ canvasElement }) => {
    const feed = await within(canvasElement).findByRole('feed');
    await waitFor(() => expect(feed.querySelector('[data-kind="model"]')).not.toBeNull());
  },
};
