import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { useProducedStream } from './producer.js';
import { generateRun, generateRunVariant, type Event } from '../src/index.js';
import { RunDiff } from '../src/react.js';

const meta = {
  title: 'Views/RunDiff',
  component: RunDiff,
  tags: ['autodocs'],
  parameters: { layout: 'fullscreen' },
} satisfies Meta<typeof RunDiff>;

export default meta;
type Story = StoryObj<typeof meta>;

const frame = { height: 640, padding: 8 };

const runA = generateRun({ seed: 7, events: 600, pendingRate: 0 });

/**
 * Run A again (new ids, an hour later) with one tool call in the middle
 * given other arguments, a failing result, and the steps after it dropped:
 * a run that diverges at one step and never recovers.
 */
function divergedRun(): Event[] {
  const b = generateRunVariant(runA, { rate: 0 });
  const tools = b.flatMap((e, i) => (e.event === 'tool' ? [i] : []));
  const at = tools[Math.floor(tools.length * 0.6)]!;
  const tool = b[at] as unknown as Record<string, unknown>;
  b[at] = {
    ...tool,
    arguments: { cmd: 'rm -rf build && make -j8 test' },
    result: 'make: *** [test] Error 2',
    error: { type: 'unknown', message: 'exit status 2' },
  } as unknown as Event;
  return b;
}

const rowsOf = (el: HTMLElement) =>
  el.querySelectorAll<HTMLElement>('.skein-run-diff__body [role="row"]');

/** One run against itself logged again: every step the same, all folded. */
export const Identical: Story = {
  args: { a: runA, b: generateRunVariant(runA, { rate: 0 }), names: ['run 1', 'run 2'] },
  render: (args) => (
    <div style={frame}>
      <RunDiff {...args} />
    </div>
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await canvas.findByText('Identical step by step');
    const grid = canvas.getByRole('treegrid');
    await waitFor(() => expect(rowsOf(grid).length).toBe(1));
    expect(grid.querySelector('[data-fold]')).not.toBeNull();
  },
};

/** Two epochs of one sample: the second diverges at one tool call. */
export const OneDivergence: Story = {
  args: { a: runA, b: divergedRun(), names: ['epoch 1', 'epoch 2'] },
  render: (args) => (
    <div style={frame}>
      <RunDiff {...args} />
    </div>
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const grid = await canvas.findByRole('treegrid');
    await waitFor(() => expect(grid.querySelector('[data-first]')).not.toBeNull());
    await userEvent.click(canvas.getByRole('button', { name: 'First divergence' }));
    await waitFor(() => expect(document.activeElement?.hasAttribute('data-first')).toBe(true));
  },
};

/** A run against another agent's run: little in common. */
export const TotallyDifferent: Story = {
  args: {
    a: runA,
    b: generateRun({ seed: 99, events: 600, pendingRate: 0 }),
    names: ['agent x', 'agent y'],
  },
  render: (args) => (
    <div style={frame}>
      <RunDiff {...args} />
    </div>
  ),
};

/** A finished run against a second one still running (B arrives as a live stream). */
export const LiveBStillRunning: Story = {
  args: { a: runA, b: [], names: ['finished', 'live'] },
  render: function Render(args) {
    const stream = useProducedStream(() => generateRunVariant(runA, { rate: 0.03 }), 6, 80);
    return (
      <div style={frame}>
        <RunDiff {...args} b={stream} />
      </div>
    );
  },
  play: async ({ canvasElement }) => {
    await within(canvasElement).findByText(/still running/);
  },
};
