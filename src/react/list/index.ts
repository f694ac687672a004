export { useListVirtualizer } from './use-list-virtualizer.js';
export type {
  ListItem,
  ListVirtualizer,
  ListVirtualizerOptions,
  MeasuredSizes,
} from './use-list-virtualizer.js';
export type { LayoutProblem } from './viewport.js';
export { useIsomorphicLayoutEffect } from './use-isomorphic-layout-effect.js';
