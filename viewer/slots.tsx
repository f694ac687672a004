// The timeline slot under the span tree and the transcript (issue 22 layout):
// the <Swimlane> on the same tree feed and selection store, so a bar, a span
// and a transcript row are one selection. (The replay <Player> sits above it:
// run-view.tsx.)
import type { ComponentType } from 'react';
import type { EventStream, EventTreeFeed, SelectionStore, Timeline } from '../src/index.js';
import { Swimlane } from '../src/react.js';

/** What the timeline slot gets: the run, its shared tree feed and the selection store. */
export interface TimelineSlotProps {
  readonly stream: EventStream;
  readonly feed: EventTreeFeed;
  readonly selection: SelectionStore;
  /** The run's timeline, built off the page (a loaded log); else the feed's is built here. */
  readonly timeline?: Timeline | null;
}

function SwimlaneSlot({ feed, selection, timeline }: TimelineSlotProps) {
  return (
    <section className="viewer-view" aria-label="Timeline">
      {timeline ? (
        <Swimlane timeline={timeline} selection={selection} aria-label="Swimlane" />
      ) : (
        <Swimlane feed={feed} selection={selection} aria-label="Swimlane" />
      )}
    </section>
  );
}

/** The swimlane, or `null` to show the span tree and transcript only (and no replay). */
export const TimelineSlot: ComponentType<TimelineSlotProps> | null = SwimlaneSlot;
