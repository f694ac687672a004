// <Player> in Chromium (issue 21): the scrubber seeks where it is clicked,
// keyboard focus stays on it, and the transcript and span tree on the
// player's stream and store follow the playhead.
import { replayCountAt } from '../../src/core/stream/replay-player.js';
import { cleanup, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import {
  createSelectionStore,
  generateRun,
  type ReplayPlayer,
  type SelectionStore,
} from '../../src/index.js';
import {
  Player,
  SpanTree,
  Transcript,
  useReplayPlayer,
  useStoreSelector,
} from '../../src/react.js';
import '../../src/styles.css';

afterEach(() => cleanup());

const run = generateRun({ seed: 12, events: 800, pendingRate: 0 });

function Replay({
  store,
  onPlayer,
}: {
  store: SelectionStore;
  onPlayer: (p: ReplayPlayer) => void;
}) {
  const player = useReplayPlayer(run, { selection: store });
  const [reported] = useState(() => (onPlayer(player), true));
  void reported;
  const stream = useStoreSelector(player, (s) => s.stream);
  const selected = useStoreSelector(store, (s) => s.selected);
  return (
    <div
      style={{ display: 'grid', gap: 8, width: 1000, height: 640, gridTemplateRows: 'auto 1fr' }}
    >
      <Player player={player} />
      <div style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', minHeight: 0 }}>
        <SpanTree stream={stream} selection={store} toolbar={false} />
        <Transcript stream={stream} selectedId={selected} />
      </div>
    </div>
  );
}

describe('<Player> in Chromium', () => {
  it('a click on the scrubber seeks there; the views follow the playhead', async () => {
    await page.viewport(1280, 900);
    const store = createSelectionStore();
    let player!: ReplayPlayer;
    render(<Replay store={store} onPlayer={(p) => (player = p)} />);
    const slider = screen.getByRole('slider', { name: 'Position' });
    const track = slider.querySelector<HTMLElement>('.skein-player__track')!;
    const box = track.getBoundingClientRect();
    expect(box.width).toBeGreaterThan(500);
    const sliderBox = slider.getBoundingClientRect();
    await userEvent.click(slider, {
      position: { x: box.left - sliderBox.left + box.width * 0.5, y: sliderBox.height / 2 },
    });
    const duration = player.timeline.duration;
    await expect
      .poll(() => Number(slider.getAttribute('aria-valuenow')), { timeout: 20_000 })
      .toBeGreaterThan(duration * 0.45);
    expect(Number(slider.getAttribute('aria-valuenow'))).toBeLessThan(duration * 0.55);
    expect(document.activeElement).toBe(slider);
    const s = player.getSnapshot();
    expect(s.count).toBe(replayCountAt(player.timeline, s.position));
    expect(store.getSnapshot().playhead).toBe(s.time);
    // The transcript shows the run up to the playhead and selects the current event.
    const current = s.current!.uuid;
    expect(store.getSnapshot().selected).toBe(current);
    await expect
      .poll(
        () =>
          document
            .querySelector(`article[data-event-id="${current}"]`)
            ?.hasAttribute('data-selected'),
        {
          timeout: 20_000,
        },
      )
      .toBe(true);
    const later = run.slice(s.count).find((e) => e.event !== 'span_end')!;
    expect(document.querySelector(`article[data-event-id="${later.uuid}"]`)).toBeNull();
    // The span tree selects the row that holds it.
    await expect
      .poll(() => document.querySelector('[role="treegrid"] [aria-selected="true"]'), {
        timeout: 20_000,
      })
      .not.toBeNull();
    // Keys move it from there.
    await userEvent.keyboard('{End}');
    await expect.poll(() => player.getSnapshot().count).toBe(run.length);
    expect(slider.getAttribute('aria-valuenow')).toBe(String(Math.round(duration)));
  });
});
