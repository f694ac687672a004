// The row facts live in core (src/core/tree/row-facts.ts) since the text tree
// of `skein tree` reads them too; <SpanTree> imports them from here.
export { LIVE_WINDOW_MS, liveEnd, rowFacts, runExtent } from '../../core/tree/row-facts.js';
export type { RowFacts } from '../../core/tree/row-facts.js';
