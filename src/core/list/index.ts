// The list engine: row heights in a Fenwick tree, a scroll space scaled past
// the browser's element-height limit, visible ranges, scroll anchoring and
// paging (pure functions), and `ListEngine`, the stateful object every list
// runs on (`useListVirtualizer` in skein/react is its React adapter).
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
  takeAnchor,
  visibleRange,
} from './window.js';
export type { ListAlign, ScrollAnchor } from './window.js';
export { carrySizes, markRowsContinued, rowsContinued } from './carry.js';
export type { KeyedSizes } from './carry.js';
export { ListEngine } from './engine.js';
export type {
  LayoutProblem,
  ListDom,
  ListEngineOptions,
  ListItem,
  ListRow,
  ListRowObserver,
  ListScroller,
  ListView,
  ListViewport,
  MeasuredSizes,
} from './engine.js';
