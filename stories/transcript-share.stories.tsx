import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, waitFor, within } from 'storybook/test';
import { generateRun } from '../src/index.js';
import { SkeinTheme, Transcript } from '../src/react.js';

const meta = {
  title: 'Views/Transcript (select and share)',
  component: Transcript,
  parameters: { layout: 'fullscreen' },
} satisfies Meta<typeof Transcript>;

export default meta;
type Story = StoryObj<typeof meta>;

const run = generateRun({ seed: 3, events: 120, pendingRate: 0 });
/** Four consecutive event rows near the start (not span headers). */
const picked = run.filter((e) => e.event === 'model' || e.event === 'tool').slice(0, 4);
const frame = { height: 560, padding: 8 };

async function checkSelection(canvasElement: HTMLElement) {
  const canvas = within(canvasElement);
  const bar = await canvas.findByRole('toolbar', { name: 'Selected events' });
  await waitFor(() => expect(bar.textContent).toContain(`${picked.length} events selected`));
  await waitFor(() =>
    expect(canvasElement.querySelectorAll('[data-in-selection]').length).toBeGreaterThan(0),
  );
  await expect(within(bar).getByRole('button', { name: 'Copy Markdown' })).toBeEnabled();
}

/**
 * Rows selected together (`selectable`): click, Ctrl/Cmd+click, Shift+click,
 * Shift+arrows, Ctrl/Cmd+A, Esc. The toolbar copies them as Markdown or
 * JSON, downloads skein JSON Lines, or prints them.
 */
export const SelectedLight: Story = {
  args: { events: run, selectable: true, defaultSelectedIds: picked.map((e) => e.uuid) },
  render: (args) => (
    <SkeinTheme theme="light" style={frame}>
      <Transcript {...args} />
    </SkeinTheme>
  ),
  play: async ({ canvasElement }) => checkSelection(canvasElement),
};

/** The same in the dark theme. */
export const SelectedDark: Story = {
  args: { events: run, selectable: true, defaultSelectedIds: picked.map((e) => e.uuid) },
  render: (args) => (
    <SkeinTheme theme="dark" style={frame}>
      <Transcript {...args} />
    </SkeinTheme>
  ),
  play: async ({ canvasElement }) => checkSelection(canvasElement),
};

/** Selectable with nothing selected: the copy actions wait, Print prints every row. */
export const NothingSelected: Story = {
  args: { events: run, selectable: true },
  render: (args) => (
    <SkeinTheme theme="light" style={frame}>
      <Transcript {...args} />
    </SkeinTheme>
  ),
  play: async ({ canvasElement }) => {
    const bar = await within(canvasElement).findByRole('toolbar', { name: 'Selected events' });
    await expect(within(bar).getByRole('button', { name: 'Copy Markdown' })).toBeDisabled();
    await expect(within(bar).getByRole('button', { name: 'Print all' })).toBeEnabled();
  },
};
