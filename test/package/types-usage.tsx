// Compiled by tarball.test.ts against the shipped .d.ts (skipLibCheck off),
// with React 18 and React 19 types: every entry point, used as the README does.
import { useRef } from 'react';
import * as core from 'skein';
import { EventStream, displayOf, type Event, type MimeBundle } from 'skein';
import * as components from 'skein/react';
import {
  Display,
  DisplayProvider,
  SkeinTheme,
  Transcript,
  preloadDisplay,
  useStoreSelector,
  type DisplayRenderer,
  type TranscriptHandle,
} from 'skein/react';
import { readLogFile, runCli } from 'skein/server';

const events: readonly Event[] = [];
const stream = EventStream.from(events);
const bundle: MimeBundle = displayOf({ rows: [1, 2, 3] });
const shout: DisplayRenderer = {
  name: 'shout',
  mimeTypes: ['text/x-shout'],
  rank: 10,
  safe: true,
  renderer: ({ data }) => <strong>{String(data)}</strong>,
};

export function App() {
  const ref = useRef<TranscriptHandle>(null);
  const size = useStoreSelector(stream, () => stream.length);
  return (
    <SkeinTheme theme="dark">
      <DisplayProvider renderers={[shout]}>
        <p>{size}</p>
        <Transcript ref={ref} stream={stream} style={{ height: 400 }} />
        <Transcript events={events} />
        <Display bundle={bundle} />
        <Display value={{ a: 1 }} />
      </DisplayProvider>
    </SkeinTheme>
  );
}

export const loaded = preloadDisplay();
export const all = [core, components, readLogFile, runCli];
