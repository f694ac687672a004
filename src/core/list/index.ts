// The list engine (issue 17): row heights in a Fenwick tree, a scroll space
// scaled past the browser's element-height limit, visible ranges, scroll
// anchoring and paging. Pure maths; `useListVirtualizer` (skein/react) draws.
export { createRowHeights } from './heights.js';
export type { KeptHeights, RowHeights } from './heights.js';
export {
  MAX_SCROLL_SIZE,
  contentOffsetOf,
  rowScrollTop,
  scrollSpace,
  scrollTopOf,
} from './scroll-space.js';
export type { ScrollSpace } from './scroll-space.js';
export {
  FIRST_WINDOW_ROWS,
  alignOffset,
  firstWindow,
  pageTarget,
  resolveAnchor,
  scrollToRow,
  takeAnchor,
  visibleRange,
} from './window.js';
export type { ListAlign, ScrollAnchor } from './window.js';
export { carrySizes, markRowsContinued, rowsContinued } from './carry.js';
export type { KeyedSizes } from './carry.js';
