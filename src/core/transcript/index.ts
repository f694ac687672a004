// The headless transcript (issue 6): rows with the kind filter, span header
// summaries, find over every event, the key map, deep-link fragments, the
// live feed, row heights and the scaled scroll space. `src/react/transcript/` draws it.
export {
  DEFAULT_HIDDEN_KINDS,
  buildTranscriptRows,
  spanSummary,
  transcriptRowOf,
  transcriptRowOfEvent,
} from './rows.js';
export type { SpanSummary, TranscriptRows, TranscriptRowsOptions } from './rows.js';
export { createTranscriptFind, findMatchOffsets, findPattern, stepMatch } from './find.js';
export type { TranscriptFind, TranscriptFindOptions, TranscriptFindState } from './find.js';
export { transcriptKeyAction } from './keys.js';
export type { TranscriptKeyAction, TranscriptKeyInput } from './keys.js';
export { parseEventHash, formatEventHash } from './hash.js';
export { createTranscriptFeed } from './feed.js';
export type {
  TranscriptFeed,
  TranscriptFeedOptions,
  TranscriptFeedSnapshot,
  TranscriptSource,
} from './feed.js';
export {
  MAX_SCROLL_SIZE,
  contentOffsetOf,
  rowScrollTop,
  scrollSpace,
  scrollTopOf,
} from './scroll-space.js';
export type { ScrollSpace } from './scroll-space.js';
export { createRowHeights } from './heights.js';
export type { RowHeights } from './heights.js';
