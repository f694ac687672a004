import { useMemo } from 'react';
import { buildTimeline, renderTimelineAscii, renderTimelineSvg, type Event } from 'skein';

/** Most replay lines shown; the rest is counted, never silently dropped. */
const REPLAY_LINES = 400;

export interface RunViewProps {
  events: readonly Event[];
  theme: 'light' | 'dark';
  replay: string;
}

/**
 * What skein can show of a run today: the swimlane (static SVG, drawn as an
 * image so nothing in it can run), the ASCII swimlane and the replay text.
 */
export function RunView({ events, theme, replay }: RunViewProps) {
  const timeline = useMemo(() => buildTimeline(events), [events]);
  const svg = useMemo(() => renderTimelineSvg(timeline, { width: 1100, theme }), [timeline, theme]);
  const ascii = useMemo(() => renderTimelineAscii(timeline, { width: 120 }), [timeline]);
  const lines = useMemo(() => replay.split('\n').filter((l) => l !== ''), [replay]);
  const shown = lines.slice(0, REPLAY_LINES);
  return (
    <>
      <section aria-labelledby="swimlane-title" className="demo-panel">
        <h2 id="swimlane-title">Swimlane</h2>
        <img
          src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`}
          alt={`Swimlane of ${timeline.root.name}: one row per agent`}
          data-testid="swimlane-svg"
          style={{ maxWidth: '100%' }}
        />
      </section>
      <section aria-labelledby="ascii-title" className="demo-panel">
        <h2 id="ascii-title">ASCII swimlane</h2>
        {/* Scrollable region: focusable so keyboard users can scroll it. */}
        {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex */}
        <pre data-testid="ascii" tabIndex={0} className="demo-pre">
          {ascii}
        </pre>
      </section>
      <section aria-labelledby="replay-title" className="demo-panel">
        <h2 id="replay-title">Replay</h2>
        <p className="demo-muted" data-testid="replay-count">
          {lines.length > shown.length
            ? `Showing the first ${shown.length.toLocaleString()} of ${lines.length.toLocaleString()} lines.`
            : `${lines.length.toLocaleString()} lines.`}
        </p>
        {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex */}
        <pre data-testid="replay" tabIndex={0} className="demo-pre demo-pre--tall">
          {shown.join('\n')}
        </pre>
      </section>
    </>
  );
}
