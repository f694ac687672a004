// The events a multi-selection of transcript rows stands for, and the row
// ranges Shift+click / Shift+arrow select. Selections hold row uuids
// (`eventTreeNodeUuid`, what `data-event-id` and `selectedId` use), never row
// indexes, so they survive appends, filtering and folding.
import type { Event } from '../events/types.js';
import { eventTreeNodeUuid, type EventTree } from '../tree/event-tree.js';
import type { TranscriptRows } from './rows.js';

/**
 * The uuids of rows `from`…`to` (either order, both included, clamped).
 *
 * @example
 * declare const tree: EventTree;
 * const rows = buildTranscriptRows(tree);
 * const range = transcriptRowRange(tree, rows, 2, 5); // four uuids
 */
export function transcriptRowRange(
  tree: EventTree,
  rows: TranscriptRows,
  from: number,
  to: number,
): string[] {
  if (rows.length === 0) return [];
  const lo = Math.max(0, Math.min(from, to));
  const hi = Math.min(rows.length - 1, Math.max(from, to));
  const out: string[] = [];
  for (let r = lo; r <= hi; r++) out.push(eventTreeNodeUuid(tree, rows.node[r]!));
  return out;
}

/**
 * The events the selected rows stand for, in the run's order, ready to copy
 * or save: an event row is its event; a section header is its `span_begin`
 * and its `span_end` (when closed), and, when the section is collapsed, every
 * event inside it too (what the folded row stands for, hidden kinds
 * included), so the result reads back as a well-formed run. One pass over
 * the rows; each event at most once.
 *
 * @example
 * declare const tree: EventTree;
 * const rows = buildTranscriptRows(tree);
 * const events = selectedTranscriptEvents(tree, rows, new Set([tree.events[0]!.uuid]));
 */
export function selectedTranscriptEvents(
  tree: EventTree,
  rows: TranscriptRows,
  selected: ReadonlySet<string>,
): Event[] {
  const out: Event[] = [];
  if (selected.size === 0) return out;
  // Ends of the sections taken, emitted once the walk passes their subtree.
  const open: { end: number; event: Event | null }[] = [];
  const closeBefore = (node: number) => {
    while (open.length > 0 && open[open.length - 1]!.end <= node) {
      const e = open.pop()!.event;
      if (e !== null) out.push(e);
    }
  };
  for (let r = 0; r < rows.length; r++) {
    const node = rows.node[r]!;
    closeBefore(node);
    if (!selected.has(eventTreeNodeUuid(tree, node))) continue;
    const s = tree.spanIndex[node]!;
    if (s < 0) {
      out.push(tree.events[node]!);
      continue;
    }
    const span = tree.spans[s]!;
    const end = tree.subtreeEnd[node]!;
    const endEvent = span.end !== null && span.end !== span.begin ? span.end : null;
    if (rows.hasChildren[r] === 1 && rows.expanded[r] === 0) {
      // The whole folded section, its inner sections' ends after their contents.
      const inner: { end: number; event: Event | null }[] = [];
      for (let i = node; i < end; i++) {
        while (inner.length > 0 && inner[inner.length - 1]!.end <= i) {
          const e = inner.pop()!.event;
          if (e !== null) out.push(e);
        }
        out.push(tree.events[i]!);
        const si = tree.spanIndex[i]!;
        if (si >= 0 && i !== node) {
          const sp = tree.spans[si]!;
          inner.push({
            end: tree.subtreeEnd[i]!,
            event: sp.end !== null && sp.end !== sp.begin ? sp.end : null,
          });
        }
      }
      for (let k = inner.length - 1; k >= 0; k--) {
        const e = inner[k]!.event;
        if (e !== null) out.push(e);
      }
      if (endEvent !== null) out.push(endEvent);
    } else {
      out.push(tree.events[node]!);
      open.push({ end, event: endEvent });
    }
  }
  closeBefore(Number.POSITIVE_INFINITY);
  return out;
}
