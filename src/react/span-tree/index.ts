export { SpanTree } from './span-tree.js';
export type {
  SpanTreeColumn,
  SpanTreeFilterState,
  SpanTreeProps,
  SpanTreeSourceProps,
} from './span-tree.js';
