// The headless transcript: rows with the kind filter, span header
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
export type {
  TranscriptFeed,
  TranscriptFeedOptions,
  TranscriptFeedSnapshot,
  TranscriptSource,
} from './feed.js';
// The list maths live in `src/core/list/` (one list engine for every
// view); the transcript re-exports its names.
export {
  MAX_SCROLL_SIZE,
  contentOffsetOf,
  rowScrollTop,
  scrollSpace,
  scrollTopOf,
  createRowHeights,
} from '../list/index.js';
export type { ScrollSpace, RowHeights } from '../list/index.js';
export { sectionCounts } from './sections.js';
export type { SectionCount } from './sections.js';
export { selectedTranscriptEvents, transcriptRowRange } from './selected-events.js';
