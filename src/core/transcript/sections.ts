/**
 * What a transcript section's header counts ("a section's count
 * matches what opening it shows, and says what is hidden"): the events a
 * span holds that the kind filter shows, and those it hides, per kind.
 *
 * Prefix sums over the tree's pre-order, one pass per (tree, filter): a
 * span's counts are then O(hidden kinds), so every drawn header is cheap at
 * any number of events.
 */
import type { EventTree } from '../tree/event-tree.js';
import { OTHER_KIND, changedSince, kindCode, treeKinds } from '../tree/links.js';
import { ChunkedColumn, int32Chunk } from '../list/chunked.js';

/**
 * The counts of one section, from {@link sectionCounts}.
 *
 * @example
 * const hiddenKinds = new Set(DEFAULT_HIDDEN_KINDS);
 * const span = tree.spans[0]!;
 * const c = sectionCounts(tree, hiddenKinds)(span.index);
 * `${c.shown} events, ${c.hidden} hidden`;
 */
export interface SectionCount {
  /** Nodes inside the section that the filter shows (events and nested section headers). */
  readonly shown: number;
  /** Events inside the section that the filter hides. */
  readonly hidden: number;
  /** Hidden events per kind, in the filter's order; kinds with none left out. */
  readonly hiddenByKind: ReadonlyMap<string, number>;
}

const cache = new WeakMap<
  EventTree,
  { key: string; count: (index: number) => SectionCount; prefix: ChunkedColumn<Int32Array>[] }
>();

/**
 * A function giving the counts of the section at tree node `index` with the
 * kinds in `hiddenKinds` hidden. One O(n × hidden kinds) pass per tree and
 * filter (cached per tree; a live snapshot copies the previous snapshot's
 * counts up to its first change and passes over the rest only), then
 * O(hidden kinds) per section.
 *
 * @example
 * const count = sectionCounts(tree, new Set(['sample_init']));
 * const initSpan = tree.spans.find((s) => s.name === 'init')!;
 * count(initSpan.index); // { shown: 0, hidden: 1, hiddenByKind: Map { 'sample_init' => 1 } }
 */
export function sectionCounts(
  tree: EventTree,
  hiddenKinds: ReadonlySet<string>,
): (index: number) => SectionCount {
  const kinds = [...hiddenKinds];
  const key = kinds.join('\u0000');
  const hit = cache.get(tree);
  if (hit !== undefined && hit.key === key) return hit.count;
  const n = tree.length;
  const slot = new Map(kinds.map((k, i) => [k, i] as const));
  // prefix[k][i]: events of hidden kind k among nodes [0, i).
  // A live snapshot goes on from the previous snapshot's counts:
  // nodes before `change.from` kept their kinds (a new version keeps its
  // kind), so their prefix is shared (chunks, not copied).
  // From the last snapshot counted with these kinds, however many came
  // between (a view reads them once per render, not per snapshot).
  let start = 0;
  const since = changedSince(tree, (before) => cache.get(before)?.key === key);
  const old = since === undefined ? undefined : cache.get(since.base);
  const going = old !== undefined;
  if (going) start = since!.from;
  // A loop, not `kinds.map(…)` with a callback: a callback reading `old`
  // would put `old` in the context this function's closures share, so
  // `count` below would keep the previous snapshot's entry, that one its
  // predecessor, and so on — every snapshot a live view ever counted
  // (found in a heap snapshot of the viewer: 61 trees at 100k events).
  const prefix: ChunkedColumn<Int32Array>[] = [];
  for (let k = 0; k < kinds.length; k++) {
    prefix.push(new ChunkedColumn(int32Chunk, n + 1, going ? old.prefix[k] : undefined, start + 1));
  }
  const running = new Int32Array(kinds.length);
  for (let k = 0; k < kinds.length; k++) running[k] = prefix[k]!.get(start);
  // Entries from `start + 1` on, filled here and copied in at the end.
  const tail = kinds.map(() => new Int32Array(n - start));
  // Kind codes, not event strings: a known kind is a byte compare.
  const codes = treeKinds(tree);
  const slotOfCode = new Int32Array(256).fill(-1);
  let others = false;
  for (const [kind, k] of slot) {
    const code = kindCode(kind);
    if (code === OTHER_KIND) others = true;
    else slotOfCode[code] = k;
  }
  const spanIndex = tree.spanIndex;
  for (let i = start; i < n; i++) {
    if (spanIndex[i]! < 0 && kinds.length > 0) {
      const code = codes[i]!;
      const k =
        code === OTHER_KIND
          ? others
            ? slot.get(tree.events[i]!.event)
            : undefined
          : slotOfCode[code]!;
      if (k !== undefined && k >= 0) running[k]!++;
    }
    for (let k = 0; k < kinds.length; k++) tail[k]![i - start] = running[k]!;
  }
  for (let k = 0; k < kinds.length; k++) prefix[k]!.setAll(start + 1, tail[k]!);
  const count = sectionCounter(tree, kinds, prefix);
  cache.set(tree, { key, count, prefix });
  return count;
}

/**
 * The per-section count function over `prefix`, made in a function of its
 * own so that its closure holds only what it reads (see above).
 */
function sectionCounter(
  tree: EventTree,
  kinds: readonly string[],
  prefix: readonly ChunkedColumn<Int32Array>[],
): (index: number) => SectionCount {
  const n = tree.length;
  return (index) => {
    if (!(index >= 0 && index < n)) return { shown: 0, hidden: 0, hiddenByKind: new Map() };
    const end = tree.subtreeEnd[index]!;
    const hiddenByKind = new Map<string, number>();
    let hidden = 0;
    for (let k = 0; k < kinds.length; k++) {
      const c = prefix[k]!.get(end) - prefix[k]!.get(index + 1);
      if (c > 0) {
        hiddenByKind.set(kinds[k]!, c);
        hidden += c;
      }
    }
    return { shown: end - index - 1 - hidden, hidden, hiddenByKind };
  };
}
