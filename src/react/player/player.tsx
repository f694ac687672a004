import {
  useCallback,
  useEffect,
  useMemo,
  useRef,
  type CSSProperties,
  type KeyboardEvent as ReactKeyboardEvent,
  type PointerEvent as ReactPointerEvent,
} from 'react';
import type { ReplayPlayer, ReplayTimeline } from '../../index.js';
import { useRovingToolbar } from '../use-roving-toolbar.js';
import { useStoreSelector } from '../use-store-selector.js';
import { formatCount } from '../../core/format.js';

/** Props of {@link Player}. */
export interface PlayerProps {
  /** The player to control: from `useReplayPlayer(events, …)` or `createReplayPlayer`. */
  player: ReplayPlayer;
  /** The rates offered (default 0.25× to 64×). */
  speeds?: readonly number[];
  /** Accessible name of the control group (default `'Replay'`). */
  'aria-label'?: string;
  className?: string;
  style?: CSSProperties;
}

const DEFAULT_SPEEDS: readonly number[] = [0.25, 0.5, 1, 2, 4, 8, 16, 64];

/** Tick positions across the scrubber's SVG (`viewBox="0 0 1000 1"`): one unit per step. */
const TICK_STEPS = 1000;

/**
 * The scrubber's turn ticks as one SVG path: a vertical line where each turn
 * begins on the playback axis, at most one per 1/1000 of the track (a run
 * of 10,000 turns draws at most 1,000 lines, not 10,000 elements). `''`
 * when the run has no turns or no length. Internal.
 */
export function turnTickPath(timeline: ReplayTimeline): string {
  const { turns, offsets, duration } = timeline;
  if (!(duration > 0) || turns.length === 0) return '';
  let d = '';
  let last = -1;
  for (let j = 0; j < turns.length; j++) {
    const x = Math.round((offsets[turns[j]!]! / duration) * TICK_STEPS);
    if (x === last) continue;
    last = x;
    d += `M${x} 0V1`;
  }
  return d;
}

/** `1:02.3` (`formatClock(62_345)`), `1:02:03` past an hour: recorded time as a clock. Internal. */
export function formatClock(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) ms = 0;
  const tenths = Math.floor(ms / 100);
  const s = Math.floor(tenths / 10);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  if (h > 0) return `${h}:${String(m).padStart(2, '0')}:${sec}`;
  return `${m}:${sec}.${tenths % 10}`;
}

/**
 * Transport controls for a replayed run: play/pause, step one
 * event or one turn (a model call and its tool calls) either way, the
 * speed, and a scrubber over the replay's time axis (idle gaps capped, as
 * the player plays them) with the current recorded time. The player it
 * controls drives the shared selection store's playhead, so a
 * `<Transcript>`, `<SpanTree>` or `<Swimlane>` on the player's stream and
 * store follow it.
 *
 * The scrubber is an APG slider: ←/↓ and →/↑ move 1 % of the run,
 * PageDown/PageUp 10 %, Home/End to the ends, Space plays or pauses; a
 * pointer drags it. Self-contained: it needs only `skein/styles.css`;
 * renders the same on the server (nothing plays there).
 *
 * @example
 * import 'skein/styles.css';
 * import { useState } from 'react';
 * function Replay({ events }: { events: readonly Event[] }) {
 *   const [selection] = useState(() => createSelectionStore());
 *   const player = useReplayPlayer(events, { selection });
 *   const stream = useStoreSelector(player, (s) => s.stream);
 *   const selected = useStoreSelector(selection, (s) => s.selected);
 *   return (
 *     <>
 *       <Player player={player} />
 *       <Transcript stream={stream} selectedId={selected} />
 *       <SpanTree stream={stream} selection={selection} />
 *     </>
 *   );
 * }
 */
export function Player({
  player,
  speeds = DEFAULT_SPEEDS,
  className,
  style,
  ...props
}: PlayerProps) {
  const s = useStoreSelector(player, (snapshot) => snapshot);
  const label = props['aria-label'] ?? 'Replay';
  const playing = s.status === 'playing';
  const { timeline } = player;
  const total = timeline.length === 0 ? 0 : timeline.times[timeline.length - 1]! - timeline.start;
  const totalText = formatClock(Number.isFinite(total) ? total : 0);
  const nowText = formatClock(s.elapsed);
  const fraction = s.duration > 0 ? s.position / s.duration : s.count > 0 ? 1 : 0;
  const percent = `${(fraction * 100).toFixed(3)}%`;
  const options = speeds.includes(s.speed) ? speeds : [...speeds, s.speed].sort((a, b) => a - b);
  const empty = s.total === 0;
  // Where each turn begins, so a scrub can land on one (the ◀◀ ▶▶ steps).
  const ticks = useMemo(() => turnTickPath(timeline), [timeline]);

  // The buttons and the speed are one Tab stop (APG toolbar), the scrubber the next.
  const controlsRef = useRef<HTMLDivElement>(null);
  const roving = useRovingToolbar(controlsRef);

  // --- scrubber ---------------------------------------------------------------
  const trackRef = useRef<HTMLDivElement>(null);
  // One seek per frame while dragging: moving back rebuilds the stream.
  const pendingSeek = useRef<number | null>(null);
  const frame = useRef(0);
  useEffect(() => () => cancelAnimationFrame(frame.current), []);
  const seekAt = useCallback(
    (clientX: number) => {
      const track = trackRef.current;
      if (track === null) return;
      const box = track.getBoundingClientRect();
      if (box.width <= 0) return;
      const rtl = getComputedStyle(track).direction === 'rtl';
      let f = (clientX - box.left) / box.width;
      if (rtl) f = 1 - f;
      pendingSeek.current = Math.max(0, Math.min(1, f)) * player.timeline.duration;
      if (frame.current !== 0) return;
      frame.current = requestAnimationFrame(() => {
        frame.current = 0;
        const p = pendingSeek.current;
        pendingSeek.current = null;
        if (p !== null) player.seek(p);
      });
    },
    [player],
  );
  const onPointerDown = (e: ReactPointerEvent<HTMLDivElement>) => {
    if (e.button !== 0 || empty) return;
    e.currentTarget.setPointerCapture(e.pointerId);
    e.currentTarget.focus();
    seekAt(e.clientX);
  };
  const onPointerMove = (e: ReactPointerEvent<HTMLDivElement>) => {
    if (e.currentTarget.hasPointerCapture(e.pointerId)) seekAt(e.clientX);
  };
  const onKeyDown = (e: ReactKeyboardEvent<HTMLDivElement>) => {
    const d = s.duration;
    const step = d / 100;
    let next: number | null = null;
    switch (e.key) {
      case 'ArrowRight':
      case 'ArrowUp':
        next = s.position + step;
        break;
      case 'ArrowLeft':
      case 'ArrowDown':
        next = s.position - step;
        break;
      case 'PageUp':
        next = s.position + step * 10;
        break;
      case 'PageDown':
        next = s.position - step * 10;
        break;
      case 'Home':
        next = 0;
        break;
      case 'End':
        next = d;
        break;
      case ' ':
        e.preventDefault();
        player.toggle();
        return;
      default:
        return;
    }
    e.preventDefault();
    player.seek(next);
  };

  return (
    <div
      role="group"
      aria-label={label}
      className={className ? `skein-player ${className}` : 'skein-player'}
      style={style}
      data-status={s.status}
    >
      <div
        ref={controlsRef}
        role="toolbar"
        aria-label="Playback"
        className="skein-player__controls"
        {...roving}
      >
        <button
          type="button"
          aria-label="Previous turn"
          title="Previous turn"
          disabled={empty || s.count === 0}
          onClick={() => player.stepTurn(-1)}
        >
          <span aria-hidden="true">◀◀</span>
        </button>
        <button
          type="button"
          aria-label="Previous event"
          title="Previous event"
          disabled={empty || s.count === 0}
          onClick={() => player.stepEvent(-1)}
        >
          <span aria-hidden="true">|◀</span>
        </button>
        <button
          type="button"
          className="skein-player__play"
          aria-label={playing ? 'Pause' : 'Play'}
          title={playing ? 'Pause' : s.status === 'ended' ? 'Play again' : 'Play'}
          disabled={empty}
          onClick={() => player.toggle()}
        >
          <span aria-hidden="true">{playing ? '▮▮' : '▶'}</span>
        </button>
        <button
          type="button"
          aria-label="Next event"
          title="Next event"
          disabled={empty || s.count >= s.total}
          onClick={() => player.stepEvent(1)}
        >
          <span aria-hidden="true">▶|</span>
        </button>
        <button
          type="button"
          aria-label="Next turn"
          title="Next turn"
          disabled={empty || s.count >= s.total}
          onClick={() => player.stepTurn(1)}
        >
          <span aria-hidden="true">▶▶</span>
        </button>
        <label className="skein-player__speed">
          Speed{' '}
          <select value={s.speed} onChange={(e) => player.setSpeed(Number(e.target.value))}>
            {options.map((v) => (
              <option key={v} value={v}>
                {v}×
              </option>
            ))}
          </select>
        </label>
        <span className="skein-player__time">
          <span className="skein-player__now">{nowText}</span> / {totalText}
        </span>
        <span className="skein-player__count">
          event {formatCount(s.count)} of {formatCount(s.total)}
        </span>
      </div>
      <div
        role="slider"
        tabIndex={empty ? -1 : 0}
        aria-label="Position"
        aria-orientation="horizontal"
        aria-valuemin={0}
        aria-valuemax={Math.round(s.duration)}
        aria-valuenow={Math.round(s.position)}
        aria-valuetext={`${nowText} of ${totalText}, event ${formatCount(s.count)} of ${formatCount(s.total)}`}
        aria-disabled={empty || undefined}
        className="skein-player__scrubber"
        onKeyDown={onKeyDown}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
      >
        <div ref={trackRef} className="skein-player__track">
          <div className="skein-player__fill" style={{ inlineSize: percent }} />
          {ticks !== '' && (
            <svg
              className="skein-player__ticks"
              viewBox={`0 0 ${TICK_STEPS} 1`}
              preserveAspectRatio="none"
              aria-hidden="true"
              focusable="false"
            >
              <path d={ticks} />
            </svg>
          )}
          <div className="skein-player__thumb" style={{ insetInlineStart: percent }} />
        </div>
      </div>
    </div>
  );
}
