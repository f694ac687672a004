/**
 * Finding a node by its key (one node identity for every view).
 * A key is what {@link eventTreeNodeKey} returns: a span id, a step's begin
 * uuid, or an event's uuid. Views that share a selection store exchange keys;
 * each looks the key up in its own snapshot of the tree.
 */
import { eventTreeNodeKey, eventTreeNodeUuid, type EventTree } from './event-tree.js';

/** Key → node index per tree, built on the first lookup (trees are immutable). */
const cache = new WeakMap<EventTree, Map<string, number>>();

/**
 * The index of the node with key `key` in `tree` (the node's span id, a
 * step's begin uuid, or an event's uuid; for a span, its begin event's uuid
 * finds it too), or `-1`. The first lookup in a tree builds an index over all
 * of it (O(n)); later lookups in the same tree are O(1). `hint`, a guess at
 * the index (where the node was in an earlier snapshot), is checked first and
 * costs nothing when right.
 *
 * @example
 * declare const selectedKey: string; // a span id or an event uuid
 * declare function reveal(index: number): void;
 * const i = eventTreeIndexOf(tree, selectedKey);
 * if (i >= 0) reveal(i);
 */
export function eventTreeIndexOf(tree: EventTree, key: string, hint = -1): number {
  if (hint >= 0 && hint < tree.length && eventTreeNodeKey(tree, hint) === key) return hint;
  let index = cache.get(tree);
  if (index === undefined) {
    index = new Map();
    const { events, spanIndex, spans, keys, twin } = tree;
    for (let i = 0; i < tree.length; i++) {
      const s = spanIndex[i]!;
      // A span answers to its id and to its begin's uuid (a transcript row
      // shows the begin event); the id is set last so it wins a clash. An
      // event shown in several copies of a span begun twice answers by uuid
      // in its plain node (the copy at the first begin), and by its own key
      // in each copy.
      if (twin !== undefined && twin[i]! >= 0) {
        index.set(keys![i]!, i);
        index.set(eventTreeNodeUuid(tree, i), i);
        continue;
      }
      const uuid = events[i]!.uuid;
      if (!index.has(uuid)) index.set(uuid, i);
      if (s >= 0) index.set(spans[s]!.id, i);
    }
    cache.set(tree, index);
  }
  return index.get(key) ?? -1;
}
