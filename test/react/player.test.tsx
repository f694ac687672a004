import { act, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import {
  createReplayPlayer,
  createSelectionStore,
  type Event,
  type ReplayPlayerClock,
  type SelectionStore,
} from '../../src/index.js';
import { Player, useReplayPlayer, useStoreSelector } from '../../src/react.js';
import { formatClock, turnTickPath } from '../../src/react/player/player.js';

const T0 = Date.UTC(2026, 0, 1);
const at = (uuid: string, ms: number, kind = 'info'): Event =>
  ({ event: kind, uuid, timestamp: new Date(T0 + ms).toISOString() }) as Event;
const run = [
  at('s', 0, 'span_begin'),
  at('m1', 1000, 'model'),
  at('t1', 2000, 'tool'),
  at('m2', 3000, 'model'),
  at('e', 10_000, 'span_end'),
];

/** Timers that fire only when the test says so. */
function manualClock() {
  let now = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  let id = 0;
  const clock: ReplayPlayerClock = {
    now: () => now,
    setTimeout: (fn, ms) => (timers.set(++id, { at: now + ms, fn }), id),
    clearTimeout: (h) => void timers.delete(h as number),
  };
  const advance = (ms: number) => {
    const end = now + ms;
    for (;;) {
      const due = [...timers].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (due === undefined) break;
      timers.delete(due[0]);
      now = due[1].at;
      due[1].fn();
    }
    now = end;
  };
  return { clock, advance };
}

function Replay({
  store,
  clock,
  autoPlay = false,
}: {
  store: SelectionStore;
  clock: ReplayPlayerClock;
  autoPlay?: boolean;
}) {
  const player = useReplayPlayer(run, { selection: store, clock, autoPlay });
  const count = useStoreSelector(player, (s) => s.stream.length);
  return (
    <>
      <Player player={player} />
      <output aria-label="shown">{count}</output>
    </>
  );
}

const slider = () => screen.getByRole('slider', { name: 'Position' });
const shown = () => screen.getByLabelText('shown').textContent;

describe('<Player>', () => {
  it('formats recorded time as a clock', () => {
    expect(formatClock(0)).toBe('0:00.0');
    expect(formatClock(62_345)).toBe('1:02.3');
    expect(formatClock(3_723_000)).toBe('1:02:03');
    expect(formatClock(Number.NaN)).toBe('0:00.0');
  });

  it('is a labelled group with buttons, a speed select and a slider', () => {
    const { clock } = manualClock();
    render(<Replay store={createSelectionStore()} clock={clock} />);
    expect(screen.getByRole('group', { name: 'Replay' })).toBeTruthy();
    for (const name of ['Previous turn', 'Previous event', 'Play', 'Next event', 'Next turn'])
      expect(screen.getByRole('button', { name })).toBeTruthy();
    expect(screen.getByRole('combobox', { name: /Speed/ })).toBeTruthy();
    const s = slider();
    expect(s.getAttribute('aria-valuemin')).toBe('0');
    // 1 s + 1 s + 1 s + 7 s capped to 5 s.
    expect(s.getAttribute('aria-valuemax')).toBe('8000');
    expect(s.getAttribute('aria-valuenow')).toBe('0');
    expect(s.getAttribute('aria-valuetext')).toBe('0:00.0 of 0:10.0, event 1 of 5');
    expect(s.tabIndex).toBe(0);
  });

  it('plays and pauses; the playhead and selection follow in the store', () => {
    const { clock, advance } = manualClock();
    const store = createSelectionStore();
    render(<Replay store={store} clock={clock} />);
    expect(store.getSnapshot()).toMatchObject({ playhead: T0, selected: 's' });
    fireEvent.click(screen.getByRole('button', { name: 'Play' }));
    expect(screen.getByRole('button', { name: 'Pause' })).toBeTruthy();
    act(() => advance(2500));
    expect(shown()).toBe('3');
    expect(store.getSnapshot()).toMatchObject({ playhead: T0 + 2500, selected: 't1' });
    expect(slider().getAttribute('aria-valuetext')).toBe('0:02.5 of 0:10.0, event 3 of 5');
    fireEvent.click(screen.getByRole('button', { name: 'Pause' }));
    act(() => advance(5000));
    expect(shown()).toBe('3');
  });

  it('steps by event and by turn', () => {
    const { clock } = manualClock();
    const store = createSelectionStore();
    render(<Replay store={store} clock={clock} />);
    fireEvent.click(screen.getByRole('button', { name: 'Next event' }));
    expect(store.getSnapshot().selected).toBe('m1');
    fireEvent.click(screen.getByRole('button', { name: 'Next turn' }));
    expect(store.getSnapshot().selected).toBe('m2');
    fireEvent.click(screen.getByRole('button', { name: 'Previous event' }));
    expect(store.getSnapshot().selected).toBe('t1');
    fireEvent.click(screen.getByRole('button', { name: 'Previous turn' }));
    expect(store.getSnapshot().selected).toBe('m1');
    fireEvent.click(screen.getByRole('button', { name: 'Next turn' }));
    fireEvent.click(screen.getByRole('button', { name: 'Next turn' }));
    expect(shown()).toBe('5');
    expect((screen.getByRole('button', { name: 'Next event' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
  });

  it('the slider moves with arrows, Page keys, Home and End; Space plays', () => {
    const { clock } = manualClock();
    render(<Replay store={createSelectionStore()} clock={clock} />);
    const s = slider();
    fireEvent.keyDown(s, { key: 'ArrowRight' });
    expect(s.getAttribute('aria-valuenow')).toBe('80');
    fireEvent.keyDown(s, { key: 'PageUp' });
    expect(s.getAttribute('aria-valuenow')).toBe('880');
    fireEvent.keyDown(s, { key: 'ArrowLeft' });
    expect(s.getAttribute('aria-valuenow')).toBe('800');
    fireEvent.keyDown(s, { key: 'End' });
    expect(s.getAttribute('aria-valuenow')).toBe('8000');
    expect(shown()).toBe('5');
    fireEvent.keyDown(s, { key: 'PageDown' });
    expect(s.getAttribute('aria-valuenow')).toBe('7200');
    fireEvent.keyDown(s, { key: 'Home' });
    expect(s.getAttribute('aria-valuenow')).toBe('0');
    expect(shown()).toBe('1');
    fireEvent.keyDown(s, { key: ' ' });
    expect(screen.getByRole('button', { name: 'Pause' })).toBeTruthy();
  });

  it('changes speed from the select', () => {
    const { clock, advance } = manualClock();
    render(<Replay store={createSelectionStore()} clock={clock} />);
    fireEvent.change(screen.getByRole('combobox'), { target: { value: '4' } });
    fireEvent.click(screen.getByRole('button', { name: 'Play' }));
    act(() => advance(500));
    expect(shown()).toBe('3'); // 2 s of the run in 0.5 s
  });

  it('autoPlay plays once mounted and unmounting stops it and clears the playhead', () => {
    const { clock, advance } = manualClock();
    const store = createSelectionStore();
    const { unmount } = render(<Replay store={store} clock={clock} autoPlay />);
    act(() => advance(1000));
    expect(shown()).toBe('2');
    unmount();
    expect(store.getSnapshot().playhead).toBeNull();
  });

  it('renders on the server without playing or writing to the store', () => {
    const store = createSelectionStore();
    function App() {
      const [player] = useState(() => createReplayPlayer(run));
      return <Player player={player} />;
    }
    const html = renderToString(<App />);
    expect(html).toContain('role="slider"');
    expect(html).toContain('event 1 of 5');
    expect(store.getSnapshot().playhead).toBeNull();
  });

  it('an empty run disables the controls', () => {
    const player = createReplayPlayer([]);
    render(<Player player={player} />);
    expect((screen.getByRole('button', { name: 'Play' }) as HTMLButtonElement).disabled).toBe(true);
    expect(slider().getAttribute('aria-disabled')).toBe('true');
  });
});

describe('<Player> turn ticks', () => {
  it('marks where each turn begins on the scrubber, at its playback position', () => {
    const { clock } = manualClock();
    const player = createReplayPlayer(run, { clock });
    // Turns begin at m1 (1 s) and m2 (3 s) of an 8 s replay (the 7 s idle
    // gap before the end is capped at 5 s).
    expect(player.timeline.duration).toBe(8000);
    expect(turnTickPath(player.timeline)).toBe('M125 0V1M375 0V1');
    const { container } = render(<Player player={player} />);
    const path = container.querySelector('.skein-player__ticks path');
    expect(path?.getAttribute('d')).toBe('M125 0V1M375 0V1');
    // Decoration only: the slider's value says where the turns are not.
    expect(container.querySelector('.skein-player__ticks')?.getAttribute('aria-hidden')).toBe(
      'true',
    );
  });

  it('draws at most one tick per thousandth of the track, and none without turns', () => {
    const many: Event[] = [];
    for (let k = 0; k < 5000; k++) many.push(at(`m${k}`, k * 10, 'model'));
    const { clock } = manualClock();
    const ticks = turnTickPath(createReplayPlayer(many, { clock }).timeline);
    const lines = ticks.split('M').filter(Boolean);
    expect(lines.length).toBeLessThanOrEqual(1001);
    expect(lines[0]).toBe('0 0V1');
    expect(lines.at(-1)).toBe('1000 0V1');
    expect(turnTickPath(createReplayPlayer([run[0]!, run[2]!], { clock }).timeline)).toBe('');
    const { container } = render(<Player player={createReplayPlayer([], { clock })} />);
    expect(container.querySelector('.skein-player__ticks')).toBeNull();
  });
});
