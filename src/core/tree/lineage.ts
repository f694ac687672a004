// The lineage of live snapshots: which snapshot a tree was made from and
// where they differ, so views derived from an earlier one go on from there.

import type { EventTree } from './event-tree.js';

/**
 * Where a live snapshot came from: its builder's snapshot before it (weakly:
 * a chain of snapshots must not keep every earlier one alive) and the first
 * node that may differ from it (`change.from`, or an earlier `updated` node).
 * The links between these small records are strong, so a walk back still
 * passes a snapshot nothing holds any more (a feed publishes more often
 * than a view renders: the snapshots between are collected) and reaches the
 * one a view derived from. Cut at {@link LINEAGE_STEPS} links. A tree stays
 * plain data (`structuredClone` drops this).
 */
interface Lineage {
  readonly tree: WeakRef<EventTree>;
  /** `change.from`: every node before it is in the same place, of the same kind. */
  readonly from: number;
  /** Also before the first `updated` node that is not a span (a new version of its event). */
  readonly eventFrom: number;
  /** The snapshot before's record; `null` past the cut or without `change`. */
  prev: Lineage | null;
}

/** Links a walk back may take ({@link changedSince}'s default bound). */
const LINEAGE_STEPS = 64;

const treeLineage = new WeakMap<EventTree, Lineage>();

/**
 * Records `tree` (made from `previous` with `change`, or from scratch) in
 * the lineage, and cuts the record {@link LINEAGE_STEPS} links back.
 */
export function recordLineage(tree: EventTree, previous: EventTree | null): void {
  const change = tree.change;
  const prev =
    change === undefined || previous === null ? null : (treeLineage.get(previous) ?? null);
  const from = change === undefined ? 0 : change.from;
  let eventFrom = from;
  // A span listed in `updated` got a new span object (it ended, or its begin
  // was re-sent as a new version of the same span): its node's place and
  // kind did not change, nor did any event's content but its begin's.
  if (change !== undefined) {
    for (const u of change.updated) {
      if (u >= eventFrom) break;
      if (tree.spanIndex[u]! < 0 || tree.events[u] !== previous!.events[u]) {
        eventFrom = u;
        break;
      }
    }
  }
  const node: Lineage = { tree: new WeakRef(tree), from, eventFrom, prev };
  treeLineage.set(tree, node);
  let cut: Lineage | null = node;
  for (let k = 0; k < LINEAGE_STEPS && cut !== null; k++) cut = cut.prev;
  if (cut !== null) cut.prev = null;
}

/**
 * The tree `tree.change` is relative to (its builder's snapshot before it),
 * while something still holds that tree; `undefined` otherwise, and for a
 * tree without `change`. Views that derived something from that tree go on
 * from `change.from` instead of starting over.
 *
 * @example
 * const builder = createEventTreeBuilder({ events: stream.latest() });
 * const before = builder.getSnapshot();
 * builder.append(event);
 * const after = builder.getSnapshot();
 * previousEventTree(after) === before; // true
 */
export function previousEventTree(tree: EventTree): EventTree | undefined {
  if (tree.change === undefined) return undefined;
  return treeLineage.get(tree)?.prev?.tree.deref();
}

/**
 * The nearest earlier snapshot of `tree` that `has` accepts, walking back
 * through its builder's snapshots (at most `maxSteps`, and at most
 * {@link LINEAGE_STEPS}; snapshots nothing holds any more are passed, not
 * offered), with where they differ:
 * - `from`: the least `change.from` along the way. Every node before it is
 *   that snapshot's node at the same index, in the same place, of the same
 *   kind (its event may be a new version, its span object new).
 * - `eventFrom`: also before the first node along the way whose event is a
 *   new version (a pending event made final): every node before it holds
 *   the very same event. For what is derived from events' contents (token
 *   sums); a span that ended changes its span object only, not this.
 *
 * A view derived only for some snapshots — a list renders once per frame
 * while its feed publishes more often — goes on from the last one it
 * derived instead of starting over. `undefined` when the
 * chain ends first (a snapshot without `change`). Internal.
 */
export function changedSince(
  tree: EventTree,
  has: (before: EventTree) => boolean,
  maxSteps = LINEAGE_STEPS,
): { base: EventTree; from: number; eventFrom: number } | undefined {
  if (tree.change === undefined) return undefined;
  let node = treeLineage.get(tree);
  let from = tree.length;
  let eventFrom = tree.length;
  for (let step = 0; step < maxSteps && node !== undefined; step++) {
    from = Math.min(from, node.from);
    eventFrom = Math.min(eventFrom, node.eventFrom);
    const prev = node.prev;
    if (prev === null) return undefined;
    const before = prev.tree.deref();
    if (before !== undefined && has(before)) return { base: before, from, eventFrom };
    node = prev;
  }
  return undefined;
}
