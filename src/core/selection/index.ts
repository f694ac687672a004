// One selection store every view shares.
export { createSelectionStore, isExpanded, withExpanded } from './selection-store.js';
export type {
  Expansion,
  SelectionSnapshot,
  SelectionStore,
  SelectionStoreOptions,
} from './selection-store.js';
