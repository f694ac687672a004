import { useCallback, useRef } from 'react';
import {
  createSelectionStore,
  eventTreeIndexOf,
  eventTreeNodeKey,
  eventTreeNodeUuid,
  type EventTree,
  type SelectionSnapshot,
  type SelectionStore,
} from '../../index.js';
import { useControllable } from '../use-controllable.js';
import { useStoreSelector } from '../use-store-selector.js';
import { writeEventHash } from './hash.js';

const NO_STORE = createSelectionStore();
const selectedOf = (s: SelectionSnapshot) => s.selected;
const hoveredOf = (s: SelectionSnapshot) => s.hovered;

/** The uuid of the row that shows node `key` (a span's key: its header, the begin's uuid). */
function uuidOfKey(tree: EventTree, key: string): string {
  const i = eventTreeIndexOf(tree, key);
  // Not loaded yet: the key is an event uuid the navigation waits for.
  return i >= 0 ? eventTreeNodeUuid(tree, i) : key;
}

/** The node key (`eventTreeNodeKey`) of the row showing event `uuid`. */
export function keyOfUuid(tree: EventTree, uuid: string): string {
  const i = eventTreeIndexOf(tree, uuid);
  return i >= 0 ? eventTreeNodeKey(tree, i) : uuid;
}

export interface SelectionLinkOptions {
  tree: EventTree;
  /** `selectedId` / `defaultSelectedId` / `onSelect` / `selection` of the props. */
  selectedId: string | null | undefined;
  defaultSelectedId: string | null | undefined;
  onSelect: ((uuid: string | null) => void) | undefined;
  selection: SelectionStore | undefined;
  /** Write the selection to `#event=<uuid>`. */
  syncHash: boolean;
}

/**
 * The transcript's selection: controlled (`selectedId`),
 * uncontrolled (`defaultSelectedId`) or shared with other views through a
 * selection store, where it is kept as a node key (`eventTreeNodeKey`).
 * `controlled` is the selection given from outside (scrolled to when it is
 * not `own`, the one the transcript set itself); `hoveredKey` is the node
 * another view hovers.
 */
export function useSelectionLink(o: SelectionLinkOptions) {
  const { tree, selection: linked, syncHash } = o;
  const storeKey = useStoreSelector(linked ?? NO_STORE, selectedOf);
  const hoveredKey = useStoreSelector(linked ?? NO_STORE, hoveredOf);
  const treeRef = useRef(tree);
  treeRef.current = tree;
  const controlled =
    o.selectedId !== undefined
      ? o.selectedId
      : linked !== undefined
        ? storeKey === null
          ? null
          : uuidOfKey(tree, storeKey)
        : undefined;
  const onSelectProp = o.onSelect;
  const onSelectLinked = useCallback(
    (uuid: string | null) => {
      onSelectProp?.(uuid);
      linked?.select(uuid === null ? null : keyOfUuid(treeRef.current, uuid));
    },
    [onSelectProp, linked],
  );
  const [selectedId, setSelectedIdState] = useControllable<string | null>(
    controlled,
    () => o.defaultSelectedId ?? null,
    linked !== undefined ? onSelectLinked : o.onSelect,
  );
  // What the transcript selected itself: a controlled `selectedId` that
  // differs came from outside, and is scrolled to.
  const own = useRef<string | null | undefined>(undefined);
  const setSelectedId = useCallback(
    (uuid: string | null) => {
      own.current = uuid;
      setSelectedIdState(uuid);
      if (syncHash) writeEventHash(uuid);
    },
    [setSelectedIdState, syncHash],
  );
  /** Tells the store which node the pointer is over (no-op without a store). */
  const hover = useCallback(
    (uuid: string | null) => linked?.hover(uuid === null ? null : keyOfUuid(treeRef.current, uuid)),
    [linked],
  );
  return { selectedId, setSelectedId, controlled, own, hoveredKey, linked, hover };
}
