import { useEffect, useMemo, useRef, useState } from 'react';
import { EventStream, VERSION, generateRun, type Event } from 'skein';
import {
  SkeinTheme,
  SpanTree,
  Transcript,
  useEventStream,
  useStoreSelector,
  type SkeinThemeName,
} from 'skein/react';
import { RunView } from './run-view.js';
import './demo.css';

const THEMES: SkeinThemeName[] = ['auto', 'light', 'dark'];
const SIZES = [200, 2_000, 20_000];

/** Resolves 'auto' for renderers that need a concrete theme (the static SVG). */
function usePrefersDark(): boolean {
  const query = '(prefers-color-scheme: dark)';
  const [dark, setDark] = useState(() => matchMedia(query).matches);
  useEffect(() => {
    const media = matchMedia(query);
    const update = () => setDark(media.matches);
    media.addEventListener('change', update);
    return () => media.removeEventListener('change', update);
  }, []);
  return dark;
}

/**
 * The page: a generated run, or (`?live`) a run from a live server —
 * `skein serve <log> --live` behind the dev server's `/live/` proxy.
 */
export function App() {
  const [live] = useState(() => new URLSearchParams(location.search).has('live'));
  return live ? <LiveApp /> : <GeneratedApp />;
}

/** A run followed from `skein serve --live` over the real transport (SSE via fetch). */
function LiveApp() {
  const live = useEventStream('/live/');
  return (
    <SkeinTheme theme="auto" className="demo">
      <header className="demo-header">
        <h1>
          skein <span data-testid="version">{VERSION}</span>
        </h1>
        <span className="demo-muted">
          live from <code>skein serve &lt;log&gt; --live</code> (proxied at /live/)
        </span>
      </header>
      <main className="demo-main">
        {live === null ? null : (
          <>
            <section aria-labelledby="tree-title" className="demo-panel">
              <h2 id="tree-title">Span tree</h2>
              <div className="demo-transcript">
                <SpanTree stream={live.stream} aria-label="Live span tree" />
              </div>
            </section>
            <section aria-labelledby="transcript-title" className="demo-panel">
              <h2 id="transcript-title">Transcript</h2>
              <div className="demo-transcript">
                <Transcript stream={live.stream} connection={live} aria-label="Run transcript" />
              </div>
            </section>
          </>
        )}
      </main>
    </SkeinTheme>
  );
}

function GeneratedApp() {
  const [theme, setTheme] = useState<SkeinThemeName>('auto');
  const [size, setSize] = useState(SIZES[1]!);
  const [seed, setSeed] = useState(1);
  const [live, setLive] = useState(false);
  const prefersDark = usePrefersDark();
  const concrete = theme === 'auto' ? (prefersDark ? 'dark' : 'light') : theme;

  // The whole run, generated once per size/seed; live mode replays it into a
  // stream at a steady rate, as a running agent would emit it.
  const run = useMemo(() => generateRun({ seed, events: size }), [seed, size]);
  const stream = useMemo(() => (live ? new EventStream() : EventStream.from(run)), [run, live]);
  const cursor = useRef(0);
  useEffect(() => {
    if (!live) return;
    cursor.current = 0;
    const timer = setInterval(() => {
      const next = run.slice(
        cursor.current,
        cursor.current + Math.max(5, Math.ceil(run.length / 40)),
      );
      for (const e of next) stream.append(e);
      cursor.current += next.length;
      if (cursor.current >= run.length) clearInterval(timer);
    }, 100);
    return () => clearInterval(timer);
  }, [live, run, stream]);

  const snapshot = useStoreSelector(stream, (s) => s);
  // Throttle derived views while live: the stream notifies once per tick.
  const events = useThrottled(snapshot.latest as readonly Event[], live ? 250 : 0);
  // `events` is the throttled projection; recompute the replay when it moves.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const replay = useMemo(() => stream.replay(), [stream, events]);

  return (
    <SkeinTheme theme={theme} className="demo">
      <header className="demo-header">
        <h1>
          skein <span data-testid="version">{VERSION}</span>
        </h1>
        <span className="demo-muted">shows what an AI agent did</span>
        <span className="demo-spacer" />
        <label>
          Events{' '}
          <select value={size} onChange={(e) => setSize(Number(e.target.value))}>
            {SIZES.map((n) => (
              <option key={n} value={n}>
                {n.toLocaleString()}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={() => setSeed((s) => s + 1)}>
          New run
        </button>
        <label>
          <input type="checkbox" checked={live} onChange={(e) => setLive(e.target.checked)} /> Live
        </label>
        <label>
          Theme{' '}
          <select value={theme} onChange={(e) => setTheme(e.target.value as SkeinThemeName)}>
            {THEMES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
      </header>
      <main className="demo-main">
        <p className="demo-muted" data-testid="run-summary" aria-live="polite">
          Generated run (seed {seed}): {snapshot.length.toLocaleString()} of{' '}
          {run.length.toLocaleString()} events{live ? ', streaming' : ''}.
        </p>
        <section aria-labelledby="transcript-title" className="demo-panel">
          <h2 id="transcript-title">Transcript</h2>
          <div className="demo-transcript">
            <Transcript
              key={`${seed}-${size}-${live}`}
              stream={stream}
              aria-label="Run transcript"
            />
          </div>
        </section>
        {events.length > 0 ? <RunView events={events} theme={concrete} replay={replay} /> : null}
      </main>
    </SkeinTheme>
  );
}

/** `value`, updated at most every `ms` milliseconds (0: immediately). */
function useThrottled<T>(value: T, ms: number): T {
  const [shown, setShown] = useState(value);
  const last = useRef(0);
  useEffect(() => {
    if (ms === 0) {
      setShown(value);
      return;
    }
    const wait = Math.max(0, last.current + ms - Date.now());
    const timer = setTimeout(() => {
      last.current = Date.now();
      setShown(value);
    }, wait);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return ms === 0 ? value : shown;
}
