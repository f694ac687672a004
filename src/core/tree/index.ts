// The span tree: inspect_ai's event_tree as flat pre-order columns, an
// incremental builder for live feeds, and the visible rows list views draw.
export {
  buildEventTree,
  eventSequence,
  eventTreeNode,
  eventTreeNodeKey,
  eventTreeNodeUuid,
  walkEventTree,
} from './event-tree.js';
export { previousEventTree } from './links.js';
export type {
  EventTree,
  EventTreeChange,
  EventTreeEventNode,
  EventTreeFilter,
  EventTreeNode,
  EventTreeNodeBase,
  EventTreeSpan,
  EventTreeSpanNode,
} from './event-tree.js';
export { createEventTreeBuilder } from './incremental.js';
export type { EventTreeBuilder, EventTreeBuilderOptions } from './incremental.js';
export { rowOfNode, visibleRow, visibleRows } from './visible-rows.js';
export type { VisibleRow, VisibleRows } from './visible-rows.js';
export { createEventTreeFeed } from './feed.js';
export { sharedEventTreeFeed } from './shared-feed.js';
export type {
  EventTreeFeed,
  EventTreeFeedOptions,
  EventTreeFeedSnapshot,
  EventTreeSource,
} from './feed.js';
export { eventTreeIndexOf } from './node-index.js';
export {
  VIEW_NODE,
  VIEW_TURN,
  VIEW_TURNS,
  buildSpanTreeView,
  spanTreeViewIndexOf,
  spanTreeViewKey,
  spanTreeViewNodeOf,
} from './outline.js';
export type { SpanTreeView, SpanTreeViewOptions } from './outline.js';
export { filterSpanTreeView, spanTreeNodeText } from './filter.js';
export type { SpanTreeFilter } from './filter.js';
export { expandSiblings, expandToViewNode, spanTreeRowOf, spanTreeRows } from './tree-rows.js';
export type { SpanTreeRows } from './tree-rows.js';
export { TREE_TYPEAHEAD_START, treeKeyAction } from './keyboard.js';
export type { TreeKeyAction, TreeKeyInput, TreeKeyRows, TreeTypeahead } from './keyboard.js';
export { LIVE_WINDOW_MS, liveEnd, rowFacts, runExtent } from './row-facts.js';
export type { RowFacts } from './row-facts.js';
export { renderSpanTreeText } from './span-tree-text.js';
export type { SpanTreeTextOptions } from './span-tree-text.js';
