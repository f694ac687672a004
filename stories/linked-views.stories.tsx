import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { useState } from 'react';
import { createSelectionStore, generateRun } from '../src/index.js';
import { SpanTree, Swimlane, Transcript } from '../src/react.js';
import './stories.css';

/**
 * The three views of one run on one selection store: what a dashboard or an
 * app puts side by side. The views are given the same `events` array, so
 * they share one event-tree feed (`sharedEventTreeFeed`): the run is folded
 * into a tree once.
 */
function AllThreeViews() {
  const [selection] = useState(() => createSelectionStore());
  return (
    <div className="story-linked-host">
      <div className="story-linked">
        <div className="story-linked__lane">
          <Swimlane events={run} selection={selection} aria-label="Run timeline" />
        </div>
        <div className="story-linked__tree">
          <SpanTree events={run} selection={selection} aria-label="Run spans" />
        </div>
        <div className="story-linked__transcript">
          <Transcript events={run} selection={selection} aria-label="Run transcript" />
        </div>
      </div>
    </div>
  );
}

const run = generateRun({ seed: 3, events: 300, pendingRate: 0 });

const meta = {
  title: 'Views/Linked views',
  component: AllThreeViews,
  parameters: { layout: 'fullscreen' },
} satisfies Meta<typeof AllThreeViews>;

export default meta;
type Story = StoryObj<typeof meta>;

/**
 * `<Swimlane>`, `<SpanTree>` and `<Transcript>` on one `createSelectionStore()`:
 * the story opens with a sub-agent's bar selected in the swimlane, and the
 * tree selects its row and the transcript its header. Narrower than 740 px the
 * panes stack (the story's own grid; each view fits whatever box it is given).
 */
export const AllThree: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const grid = await canvas.findByRole('treegrid', { name: 'Run spans' });
    const lane = await canvas.findByRole('application', { name: 'Run timeline' });
    const feed = await canvas.findByRole('feed', { name: 'Run transcript' });
    // A sub-agent's bar (not the main agent's, which spans the whole run).
    const bar = await waitFor(() => {
      const agents = lane.querySelectorAll<SVGRectElement>(
        'rect.skein-swimlane__bar[data-kind="agent"]',
      );
      if (agents.length < 2) throw new Error('no sub-agent bar drawn yet');
      return agents[1]!;
    });
    const key = bar.getAttribute('data-span-id')!;
    await userEvent.click(bar);
    await waitFor(() => expect(bar.hasAttribute('data-selected')).toBe(true));
    await waitFor(() =>
      expect(
        grid.querySelector(`[role="row"][data-key="${key}"]`)?.getAttribute('aria-selected'),
      ).toBe('true'),
    );
    await waitFor(() => expect(feed.querySelector('article[data-selected]')).not.toBeNull());
  },
};

/** The same at 390 px: the panes stacked, each its full width. */
export const AllThreeNarrow: Story = {
  ...AllThree,
  globals: { viewport: { value: 'phone', isRotated: false } },
};
