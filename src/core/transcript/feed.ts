/**
 * The transcript's feed is the shared event-tree feed (`src/core/tree/feed.ts`,
 * one feed for every view): the type names here are aliases of it, for code
 * written against the transcript's names.
 */
import type {
  EventTreeFeed,
  EventTreeFeedOptions,
  EventTreeFeedSnapshot,
  EventTreeSource,
} from '../tree/feed.js';

/**
 * Where a transcript's events come from (the same as {@link EventTreeSource}).
 *
 * @example
 * const source: TranscriptSource = stream; // or events, or an async generator
 */
export type TranscriptSource = EventTreeSource;
/**
 * Options of {@link createEventTreeFeed} (the same as {@link EventTreeFeedOptions}).
 *
 * @example
 * createEventTreeFeed(stream, { sliceMs: 8 });
 */
export type TranscriptFeedOptions = EventTreeFeedOptions;
/**
 * A transcript feed's state (the same as {@link EventTreeFeedSnapshot}).
 *
 * @example
 * const feed = createEventTreeFeed(stream);
 * const { tree, loading } = feed.getSnapshot();
 */
export type TranscriptFeedSnapshot = EventTreeFeedSnapshot;
/**
 * A transcript feed (the same as {@link EventTreeFeed}).
 *
 * @example
 * const feed: TranscriptFeed = createEventTreeFeed(stream);
 */
export type TranscriptFeed = EventTreeFeed;
