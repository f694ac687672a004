// The app the SSR tests render on the server (Node) and hydrate in Chromium:
// a bare <Transcript> (no <SkeinTheme>) over a complete, deterministic run.
import { generateRun } from '../../src/index.js';
import { Transcript } from '../../src/react.js';

export const events = generateRun({ seed: 3, events: 2_000, pendingRate: 0 });

/** `layout`: a fixed-height box or an unsized parent in page flow. */
export function App({ layout }: { layout: 'box' | 'flow' }) {
  return layout === 'box' ? (
    <div style={{ height: 500 }}>
      <Transcript events={events} aria-label="Server-rendered run" />
    </div>
  ) : (
    <div>
      <Transcript events={events} aria-label="Server-rendered run" />
    </div>
  );
}
