// The span tree: inspect_ai's event_tree as flat pre-order columns, an
// incremental builder for live feeds, and the visible rows list views draw.
export {
  buildEventTree,
  eventSequence,
  eventTreeNode,
  eventTreeNodeKey,
  walkEventTree,
} from './event-tree.js';
export type {
  EventTree,
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
