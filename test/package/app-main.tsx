// The app a new user writes: the bare <Transcript> (no <SkeinTheme>) in a
// fixed-height box, on a finished run of 2,000 events, and a <Display> of
// markdown.
// Copied into a fresh project by tarball.test.ts and built against the
// installed tarball, so it imports skein by package name only.
import { createRoot } from 'react-dom/client';
import { EventStream } from 'skein';
import { Display, Transcript } from 'skein/react';
import 'skein/styles.css';

const events = Array.from({ length: 2_000 }, (_, i) => ({
  event: 'info',
  uuid: `e${i}`,
  timestamp: new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString(),
  span_id: null,
  source: 'app',
  data: `**step ${i}** done`,
}));

const stream = EventStream.from(events as Parameters<typeof EventStream.from>[0]);

createRoot(document.getElementById('root')!).render(
  <>
    <div style={{ height: 600 }}>
      <Transcript stream={stream} style={{ height: '100%' }} />
    </div>
    <div data-testid="markdown">
      <Display bundle={{ data: { 'text/markdown': 'a **bold** claim' } }} />
    </div>
  </>,
);
