import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { buildTimeline, generateRun } from '../src/index.js';
import { AsciiSwimlane } from '../src/react.js';
import { fanOutTimeline, nestedTimeline } from './swimlane-fixtures.js';

const meta = {
  title: 'Views/AsciiSwimlane',
  component: AsciiSwimlane,
  tags: ['autodocs'],
  parameters: { layout: 'fullscreen' },
} satisfies Meta<typeof AsciiSwimlane>;

export default meta;
type Story = StoryObj<typeof meta>;

const generated = buildTimeline(generateRun({ seed: 7, events: 1500, pendingRate: 0 }));

/** The lines of the text swimlane in `canvasElement`. */
const linesOf = (canvasElement: HTMLElement) =>
  [...canvasElement.querySelectorAll<HTMLElement>('.skein-ascii-swimlane__line')].map(
    (l) => l.textContent ?? '',
  );

/**
 * `renderTimelineAscii` in a `<pre>` that fits its container: one line per
 * agent, a bar per run over the run's time, the totals on the right. Each
 * line is a button (Enter or a click selects that agent's run).
 */
export const Default: Story = {
  args: { timeline: generated },
  play: async ({ canvasElement }) => {
    const pre = within(canvasElement).getByLabelText('Swimlane (text)');
    const lines = linesOf(canvasElement).filter((l) => l.includes('│'));
    await expect(lines.length).toBeGreaterThan(2);
    // Every line is as wide as the others: one column of bars.
    await expect(new Set(lines.map((l) => l.indexOf('│'))).size).toBe(1);
    // As many columns as fit (never fewer than 24).
    await expect(Number(pre.dataset['columns'])).toBeGreaterThanOrEqual(24);
  },
};

/** A fixed width in characters (`width={60}`), whatever the container. */
export const FixedWidth: Story = {
  args: { timeline: fanOutTimeline({ agents: 24, parallelism: 4 }), width: 60 },
  play: async ({ canvasElement }) => {
    for (const line of linesOf(canvasElement).filter((l) => l.includes('│')))
      await expect([...line].length).toBeLessThanOrEqual(60);
  },
};

/** Nested sub-agents: a line per agent name. */
export const Nested: Story = {
  args: { timeline: nestedTimeline(), 'aria-label': 'Nested run (text)' },
  play: async ({ canvasElement }) => {
    const text = linesOf(canvasElement).join('');
    await expect(text).toMatch(/planner/);
  },
};

/** At 390 px the text refits to the narrower container (fewer columns), inside the page. */
export const Narrow: Story = {
  args: { timeline: generated },
  globals: { viewport: { value: 'phone', isRotated: false } },
  play: async ({ canvasElement }) => {
    const pre = within(canvasElement).getByLabelText('Swimlane (text)');
    await expect(Number(pre.dataset['columns'])).toBeLessThan(60);
    await expect(pre.getBoundingClientRect().right).toBeLessThanOrEqual(390);
  },
};
