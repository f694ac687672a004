// A user's first page: the bare transcript on a stream, no theme, no markdown.
import { createRoot } from 'react-dom/client';
import { EventStream } from 'skein';
import { Transcript } from 'skein/react';
import 'skein/styles.css';

// Wire data, as an app receives it.
const events = JSON.parse(
  '[{"event":"info","uuid":"a","timestamp":"2025-01-01T00:00:00Z","span_id":null,"source":"app","data":"hello"}]',
) as Parameters<typeof EventStream.from>[0];

createRoot(document.getElementById('root')!).render(
  <Transcript stream={EventStream.from(events)} style={{ height: 600 }} />,
);
