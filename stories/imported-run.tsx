import type { StoryObj } from '@storybook/react-vite';
import type { ComponentProps } from 'react';
import { expect, waitFor, within } from 'storybook/test';
import { Transcript } from '../src/react.js';

const frame = { height: 560, padding: 8 };

/**
 * The story of an imported run (one per importer fixture): the events in a
 * `<Transcript>` in a 560 px frame. Its test waits for rows, then for each
 * text in `shows` in the feed — what the importer must have produced.
 *
 * @example
 * export const Session = importedRunStory({ events, 'aria-label': 'ACP session' }, ['Read config.json']);
 */
export function importedRunStory(
  args: ComponentProps<typeof Transcript>,
  shows: readonly (string | RegExp)[] = [],
): StoryObj<typeof Transcript> {
  return {
    args,
    render: (props) => (
      <div style={frame}>
        <Transcript {...props} />
      </div>
    ),
    play: async ({ canvasElement }) => {
      const feed = await within(canvasElement).findByRole('feed');
      await waitFor(() => expect(feed.querySelectorAll('article').length).toBeGreaterThan(0));
      for (const text of shows) {
        await waitFor(() =>
          typeof text === 'string'
            ? expect(feed.textContent).toContain(text)
            : expect(feed.textContent).toMatch(text),
        );
      }
    },
  };
}
