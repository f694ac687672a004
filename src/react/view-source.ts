import { useMemo } from 'react';
import { sharedEventTreeFeed, type Event, type EventStream, type EventTreeFeed } from '../index.js';

/**
 * Where a view's events come from — the same props on `<Transcript>`,
 * `<SpanTree>` and `<Swimlane>`. Give exactly one of:
 *
 * - `stream`: an `EventStream`, followed as it grows (open until its source
 *   calls `stream.close()`; one made with `EventStream.from(...)` is complete);
 * - `events`: an array of events (a finished run);
 * - `iterable`: a sync or async iterable of events, taken as it yields
 *   (complete when it is done);
 * - `feed`: an event-tree feed (`createEventTreeFeed(source)`), for options of
 *   your own. Keep it stable (create it once per source).
 *
 * Views given the same `stream`, `events` or `iterable` object share one feed
 * (`sharedEventTreeFeed`): the tree is built once for all of them, and an
 * iterable is read once. `<Swimlane>` also takes a ready `timeline`
 * ({@link SwimlaneSourceProps}).
 *
 * @example
 * const source: ViewSourceProps = { events: generateRun({ seed: 1, events: 100 }) };
 * <>
 *   <Transcript {...source} />
 *   <SpanTree {...source} />
 * </>;
 */
export type ViewSourceProps =
  | { stream: EventStream; events?: never; iterable?: never; feed?: never }
  | { events: readonly Event[]; stream?: never; iterable?: never; feed?: never }
  | {
      iterable: Iterable<Event> | AsyncIterable<Event>;
      stream?: never;
      events?: never;
      feed?: never;
    }
  | { feed: EventTreeFeed; stream?: never; events?: never; iterable?: never };

/**
 * The feed behind a view's source props: the given `feed`, else the one
 * shared by every view of the same source object; `null` when the props name
 * no event source (a `<Swimlane timeline>`). Getting it has no side effects:
 * a feed starts reading when its first subscriber subscribes, after commit,
 * and lets go of its source when the last one leaves.
 *
 * @example
 * import { useViewFeed } from './view-source.js';
 * declare const props: ViewSourceProps;
 * const feed = useViewFeed(props);
 * const { tree, loading } = useStoreSelector(feed, (s) => s);
 */
export function useViewFeed(props: ViewSourceProps): EventTreeFeed;
export function useViewFeed(props: Partial<ViewSourceProps>): EventTreeFeed | null;
export function useViewFeed(props: Partial<ViewSourceProps>): EventTreeFeed | null {
  const given = props.feed;
  const source = props.stream ?? props.events ?? props.iterable;
  return useMemo(
    () => given ?? (source === undefined ? null : sharedEventTreeFeed(source)),
    [given, source],
  );
}
