// `<Swimlane>` alone, on a tiny ready timeline.
import { createRoot } from 'react-dom/client';
import { buildTimeline } from 'skein';
import { Swimlane } from 'skein/react';
import 'skein/styles.css';

createRoot(document.getElementById('root')!).render(<Swimlane timeline={buildTimeline([])} />);
