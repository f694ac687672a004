import { expect, userEvent, waitFor, within } from 'storybook/test';

/** What a live-source story's play checks. */
export interface LiveRunPlay {
  /** The button that starts the run. */
  readonly button: string;
  /** The transcript's accessible name. */
  readonly feed: string;
  /** Texts that must show up in the feed, in the order they arrive. */
  readonly texts: readonly string[];
}

/**
 * The play of a story fed by a live adapter (AG-UI, the AI SDK): press the
 * button, wait for the transcript to become a feed (an empty transcript is a
 * group), then for each text in turn. Generous timeouts: CI's runner is loaded.
 */
export async function playLiveRun(canvasElement: HTMLElement, play: LiveRunPlay): Promise<void> {
  const canvas = within(canvasElement);
  await userEvent.click(await canvas.findByRole('button', { name: play.button }));
  const feed = await canvas.findByRole('feed', { name: play.feed }, { timeout: 10_000 });
  for (const text of play.texts)
    await waitFor(() => expect(feed.textContent).toContain(text), { timeout: 15_000 });
}
