/**
 * The transcript's feed is the shared event-tree feed (`src/core/tree/feed.ts`,
 * one feed for every view): the names here are aliases of it, for code
 * written against the transcript's names.
 */
import {
  createEventTreeFeed,
  type EventTreeFeed,
  type EventTreeFeedOptions,
  type EventTreeFeedSnapshot,
  type EventTreeSource,
} from '../tree/feed.js';

/**
 * Where a transcript's events come from (the same as {@link EventTreeSource}).
 *
 * @example
 * const source: TranscriptSource = stream; // or events, or an async generator
 */
export type TranscriptSource = EventTreeSource;
/**
 * Options of {@link createTranscriptFeed} (the same as {@link EventTreeFeedOptions}).
 *
 * @example
 * createTranscriptFeed(stream, { sliceMs: 8 });
 */
export type TranscriptFeedOptions = EventTreeFeedOptions;
/**
 * A transcript feed's state (the same as {@link EventTreeFeedSnapshot}).
 *
 * @example
 * const feed = createTranscriptFeed(stream);
 * const { tree, loading } = feed.getSnapshot();
 */
export type TranscriptFeedSnapshot = EventTreeFeedSnapshot;
/**
 * A transcript feed (the same as {@link EventTreeFeed}).
 *
 * @example
 * const feed: TranscriptFeed = createTranscriptFeed(stream);
 */
export type TranscriptFeed = EventTreeFeed;

/**
 * {@link createEventTreeFeed} under its first name: a transcript feed is an
 * event-tree feed, and can be given to `<SpanTree feed>` too.
 *
 * @example
 * const feed = createTranscriptFeed(stream);
 */
export const createTranscriptFeed: typeof createEventTreeFeed = createEventTreeFeed;
