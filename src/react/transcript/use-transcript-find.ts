import { useEffect, useMemo, useRef, useState } from 'react';
import {
  createTranscriptFind,
  describeEvent,
  type DescriberRegistry,
  type EventTree,
} from '../../index.js';
import { useStoreSelector } from '../use-store-selector.js';

/**
 * Find over every event of the tree (not only the drawn rows), searching
 * what the rows show — with custom describers, their text — and skipping
 * hidden kinds. Incremental and cancellable (core `createTranscriptFind`):
 * a new query or tree replaces the search under way.
 */
export function useTranscriptFind(
  tree: EventTree,
  hiddenKinds: ReadonlySet<string>,
  query: string,
  describers: DescriberRegistry | undefined,
) {
  const describersRef = useRef(describers);
  describersRef.current = describers;
  const [find] = useState(() =>
    createTranscriptFind({
      searchText: (event) => {
        const registry = describersRef.current;
        return registry === undefined
          ? describeEvent(event).searchText
          : describeEvent(event, { registry }).searchText;
      },
    }),
  );
  useEffect(() => () => find.dispose(), [find]);
  const state = useStoreSelector(find, (s) => s);
  const include = useMemo(
    () => (i: number) => tree.spanIndex[i]! >= 0 || !hiddenKinds.has(tree.events[i]!.event),
    [tree, hiddenKinds],
  );
  useEffect(() => {
    find.search(query, tree, include);
  }, [find, query, tree, include]);
  const count = state.query === query ? state.count : 0;
  const matches = state.matches;
  /** Whether tree node `node` matches (a binary search of the sorted matches). */
  const isMatch = (node: number) => {
    let lo = 0;
    let hi = count - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = matches[mid]!;
      if (v === node) return true;
      if (v < node) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  };
  return {
    matches,
    count,
    isMatch,
    searching: !state.done && state.query === query,
    scanned: state.scanned,
    total: state.total,
  };
}
