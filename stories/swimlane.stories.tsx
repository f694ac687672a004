import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { useState } from 'react';
import { buildTimeline, createSelectionStore, generateRun, type Timeline } from '../src/index.js';
import { AsciiSwimlane, SkeinTheme, SpanTree, Swimlane, type SwimlaneProps } from '../src/react.js';
import { fanOutEvents, fanOutTimeline, nestedTimeline } from './swimlane-fixtures.js';
import { useProducedStream } from './producer.js';
import './stories.css';

const meta = {
  title: 'Views/Swimlane',
  component: Swimlane,
  tags: ['autodocs'],
  parameters: { layout: 'fullscreen' },
} satisfies Meta<typeof Swimlane>;

export default meta;
type Story = StoryObj<typeof meta>;

const frame = { height: 360, padding: 8 };
const barsOf = (el: HTMLElement) => el.querySelectorAll('rect.skein-swimlane__bar');

/** The story's swimlane in a 360 px frame (most stories draw just that). */
const framed = (args: SwimlaneProps) => (
  <div style={frame}>
    <Swimlane {...args} />
  </div>
);

/** The swimlane of a play function's canvas, by accessible name (any when omitted). */
const findLane = (canvasElement: HTMLElement, name?: string) =>
  within(canvasElement).findByRole('application', name === undefined ? {} : { name });
const generated = buildTimeline(generateRun({ seed: 7, events: 1500, pendingRate: 0 }));

/** A generated run: main agent, sub-agents, tools, errors and compaction markers. */
export const Small: Story = {
  args: { timeline: generated },
  render: framed,
  play: async ({ canvasElement }) => {
    const lane = await findLane(canvasElement, 'Swimlane');
    await waitFor(() => expect(barsOf(lane).length).toBeGreaterThan(2));
    await expect(lane.hasAttribute('data-fitted')).toBe(true);
  },
};

/** (A test, hidden from the sidebar.) `+` zooms in: the view is no longer fitted. */
export const ZoomWithKeyboard: Story = {
  args: { timeline: generated },
  tags: ['!dev', '!autodocs'],
  render: framed,
  play: async ({ canvasElement }) => {
    const lane = await findLane(canvasElement, 'Swimlane');
    await waitFor(() => expect(barsOf(lane).length).toBeGreaterThan(2));
    lane.focus();
    await userEvent.keyboard('+');
    await waitFor(() => expect(lane.hasAttribute('data-fitted')).toBe(false));
  },
};

/** At 390 px: labels narrow, the bars keep the rest of the width; nothing scrolls sideways. */
export const Narrow: Story = {
  args: { timeline: generated },
  globals: { viewport: { value: 'phone', isRotated: false } },
  render: framed,
  play: async ({ canvasElement }) => {
    const lane = await findLane(canvasElement, 'Swimlane');
    await waitFor(() => expect(barsOf(lane).length).toBeGreaterThan(2));
    await expect(lane.getBoundingClientRect().width).toBeLessThanOrEqual(390);
  },
};

/**
 * Keyboard focus: Tab from the page lands on the swimlane, whose focus ring
 * shows (the story opens focused, as a keyboard user sees it).
 */
export const KeyboardFocus: Story = {
  args: { timeline: generated, 'aria-label': 'Focused swimlane' },
  render: framed,
  play: async ({ canvasElement }) => {
    const lane = await findLane(canvasElement, 'Focused swimlane');
    await waitFor(() => expect(barsOf(lane).length).toBeGreaterThan(2));
    lane.focus();
    await expect(lane.matches(':focus-visible')).toBe(true);
    await expect(getComputedStyle(lane).outlineStyle).not.toBe('none');
  },
};

/** Parallel sub-agents of one name packed into numbered lanes. */
export const ParallelAgents: Story = {
  args: { timeline: fanOutTimeline({ agents: 60, parallelism: 6 }) },
  render: framed,
  play: async ({ canvasElement }) => {
    const lane = await findLane(canvasElement);
    await waitFor(() =>
      expect(lane.querySelector('.skein-swimlane__row[data-key="main/worker-2"]')).not.toBeNull(),
    );
  },
};

function branchTimeline(): Timeline {
  const base = fanOutTimeline({ agents: 6, parallelism: 1 });
  const [first, ...rest] = base.root.content;
  const branch = { ...fanOutTimeline({ agents: 2, parallelism: 1, seed: 9 }).root };
  return {
    ...base,
    root: {
      ...base.root,
      content: [first!, ...rest],
      branches: [
        { ...branch, id: 'branch-1', name: 'retry', spanType: 'branch', branchedFrom: 'a1' },
      ],
    },
  };
}

/** A branch (an alternative trajectory): on demand (the Branches toggle), its own `↳` row with a fork marker. */
export const Branches: Story = {
  // Not the compact tile (below 420 px): it has no toolbar to toggle from.
  args: { timeline: branchTimeline(), compact: false },
  render: framed,
  play: async ({ canvasElement }) => {
    const lane = await findLane(canvasElement);
    // Branches show on demand: hidden until the toggle is pressed.
    expect(lane.querySelector('.skein-swimlane__row[data-kind="branch"]')).toBeNull();
    await userEvent.click(within(lane).getByRole('button', { name: 'Branches' }));
    await waitFor(() =>
      expect(lane.querySelector('.skein-swimlane__row[data-kind="branch"]')).not.toBeNull(),
    );
  },
};

/**
 * Nested sub-agents to drill into: double-click a planner bar (or select it
 * and press "Open planner"); the breadcrumbs or Backspace lead back out.
 */
export const DrillIn: Story = {
  args: { timeline: nestedTimeline(), 'aria-label': 'Nested run', compact: false },
  render: framed,
  play: async ({ canvasElement }) => {
    const lane = await findLane(canvasElement, 'Nested run');
    const planner = await waitFor(() => {
      const bar = lane.querySelector('rect.skein-swimlane__bar[data-span-id="planner-1"]');
      expect(bar).not.toBeNull();
      return bar!;
    });
    await userEvent.click(planner);
    await userEvent.click(await within(lane).findByRole('button', { name: 'Open planner' }));
    const path = within(lane).getByRole('navigation', { name: 'Drill path' });
    await waitFor(() => expect(path.textContent).toBe('mainplanner'));
    await userEvent.click(within(path).getByRole('button', { name: 'main' }));
    await waitFor(() => expect(path.textContent).toBe('main'));
  },
};

/** Hours of idle time between waves, compressed to labelled breaks. */
export const HoursOfIdle: Story = {
  args: {
    timeline: fanOutTimeline({ agents: 48, parallelism: 4, idleEvery: 4, idleMs: 3 * 3600_000 }),
  },
  render: framed,
  play: async ({ canvasElement }) => {
    const lane = await findLane(canvasElement);
    await waitFor(() => expect(lane.querySelectorAll('.skein-swimlane__break').length).toBe(2));
    expect(lane.querySelector('.skein-swimlane__break title')!.textContent).toBe('3h idle');
  },
};

let hundredK: Timeline | null = null;
function HundredK() {
  const [timeline] = useState(() => (hundredK ??= fanOutTimeline({ agents: 100_000 })));
  return (
    <div style={{ ...frame, height: 520 }}>
      <Swimlane timeline={timeline} aria-label="100k spans" />
    </div>
  );
}

/** 100,000 sub-agents: density strips at fit, real bars when zoomed, a bounded DOM. */
export const HundredThousandSpans: Story = {
  args: { timeline: generated },
  tags: ['light-only', '!autodocs'],
  render: () => <HundredK />,
  play: async ({ canvasElement }) => {
    const lane = await findLane(canvasElement, '100k spans');
    await waitFor(() => expect(lane.querySelector('.skein-swimlane__strip')).not.toBeNull(), {
      timeout: 60_000,
    });
    // Markers of big rows follow the first paint: count the whole drawing.
    await waitFor(() => expect(lane.querySelector('.skein-swimlane__marker')).not.toBeNull(), {
      timeout: 10_000,
    });
    expect(lane.querySelectorAll('*').length).toBeLessThanOrEqual(2000);
  },
};

function Live() {
  // Short (about a second), so the accessibility check runs on a settled page.
  const stream = useProducedStream(() => fanOutEvents({ agents: 60, parallelism: 3 }), 12, 40);
  return (
    <div style={frame}>
      <Swimlane stream={stream} aria-label="Live run" />
    </div>
  );
}

/** A live stream: the timeline grows; a view pinned to the end follows it. */
export const Live_: Story = {
  name: 'Live',
  args: { timeline: generated },
  render: () => <Live />,
  play: async ({ canvasElement }) => {
    const lane = await findLane(canvasElement, 'Live run');
    await waitFor(() => expect(barsOf(lane).length).toBeGreaterThan(20), { timeout: 20_000 });
  },
};

/** Dark theme through `<SkeinTheme>` (only CSS variables change). */
export const Dark: Story = {
  args: { timeline: generated },
  globals: { theme: 'dark' },
  render: (args) => (
    <SkeinTheme theme="dark" style={frame}>
      <Swimlane {...args} />
    </SkeinTheme>
  ),
};

/** A 300×120 dashboard tile: compact by size, nothing spills, the wheel is the page's until focused. */
export const DashboardTile: Story = {
  args: { timeline: fanOutTimeline({ agents: 200, parallelism: 5, errorEvery: 20 }) },
  render: (args) => (
    <div style={{ padding: 8 }}>
      <div style={{ width: 300, height: 120 }}>
        <Swimlane {...args} aria-label="Run tile" />
      </div>
    </div>
  ),
  play: async ({ canvasElement }) => {
    const lane = await findLane(canvasElement, 'Run tile');
    await waitFor(() => expect(lane.hasAttribute('data-compact')).toBe(true));
    const rect = lane.getBoundingClientRect();
    expect(rect.width).toBeLessThanOrEqual(300.5);
    expect(rect.height).toBeLessThanOrEqual(120.5);
  },
};

const oneAgent = buildTimeline(generateRun({ seed: 2, events: 120, depth: 0, pendingRate: 0 }));
const tiles = [
  { label: 'Generated run', timeline: generated },
  { label: 'One agent', timeline: oneAgent },
  { label: 'Fan-out', timeline: fanOutTimeline({ agents: 200, parallelism: 5, errorEvery: 20 }) },
  { label: 'Nested', timeline: nestedTimeline() },
];

/**
 * A dashboard of 120 px tiles (compact by size) in a grid that gives each
 * tile at least 260 px: one column on a phone, two in a pane, four on a
 * laptop. Each tile must say something at a glance, a one-agent run too.
 */
export const DashboardTiles: Story = {
  args: { timeline: generated },
  render: () => (
    <ul className="story-tiles">
      {tiles.map(({ label, timeline }) => (
        <li key={label} className="story-tiles__tile">
          <Swimlane timeline={timeline} aria-label={`${label} tile`} />
        </li>
      ))}
    </ul>
  ),
  play: async ({ canvasElement }) => {
    for (const { label } of tiles) {
      const lane = await findLane(canvasElement, `${label} tile`);
      await waitFor(() => expect(lane.hasAttribute('data-compact')).toBe(true));
      await waitFor(() => expect(barsOf(lane).length).toBeGreaterThan(0));
    }
  },
};

/** No theme, no wrapper styles: only `skein/styles.css`, in an unsized parent. */
export const Bare: Story = {
  args: { timeline: generated },
  parameters: { skeinTheme: false },
  render: (args) => <Swimlane {...args} />,
  play: async ({ canvasElement }) => {
    const lane = await findLane(canvasElement);
    await waitFor(() => expect(barsOf(lane).length).toBeGreaterThan(0));
    // No theme anywhere above it: the story is not wrapped.
    await expect(canvasElement.querySelector('.skein')).toBeNull();
  },
};

function Linked() {
  const [selection] = useState(() => createSelectionStore());
  const [events] = useState(() => fanOutEvents({ agents: 30, parallelism: 3 }));
  const [timeline] = useState(() => buildTimeline(events));
  return (
    <div style={{ display: 'grid', gap: 8, padding: 8 }}>
      <div style={{ height: 260 }}>
        <Swimlane timeline={timeline} selection={selection} aria-label="Linked swimlane" />
      </div>
      <AsciiSwimlane timeline={timeline} selection={selection} />
      <div style={{ height: 260 }}>
        <SpanTree events={events} selection={selection} toolbar={false} />
      </div>
    </div>
  );
}

/** One selection store: a click on a bar selects the span in the ASCII view and the span tree. */
export const LinkedViews: Story = {
  args: { timeline: generated },
  render: () => <Linked />,
  play: async ({ canvasElement }) => {
    const lane = await findLane(canvasElement, 'Linked swimlane');
    await waitFor(() => expect(barsOf(lane).length).toBeGreaterThan(3));
    const bar = [...barsOf(lane)].find((b) => b.getAttribute('data-kind') === 'agent')!;
    await userEvent.click(bar);
    const id = bar.getAttribute('data-span-id')!;
    await waitFor(() => expect(bar.hasAttribute('data-selected')).toBe(true));
    await waitFor(() =>
      expect(
        canvasElement
          .querySelector(`[role="row"][data-key="${id}"]`)
          ?.getAttribute('aria-selected'),
      ).toBe('true'),
    );
    await waitFor(() =>
      expect(
        canvasElement.querySelector('.skein-ascii-swimlane__line[data-selected]'),
      ).not.toBeNull(),
    );
  },
};
