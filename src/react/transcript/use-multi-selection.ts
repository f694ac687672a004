import { useCallback, useMemo, useRef } from 'react';
import {
  eventTreeNodeUuid,
  transcriptRowOfEvent,
  transcriptRowRange,
  type EventTree,
  type TranscriptRows,
} from '../../index.js';
import { useControllable } from '../use-controllable.js';

const NONE: ReadonlySet<string> = Object.freeze(new Set<string>());

export interface MultiSelectionOptions {
  tree: EventTree;
  rows: TranscriptRows;
  selectedIds: ReadonlySet<string> | undefined;
  defaultSelectedIds: Iterable<string> | undefined;
  onSelectionChange: ((uuids: ReadonlySet<string>) => void) | undefined;
}

/** How a pointer or key press changes the selection. */
export interface SelectGesture {
  /** Shift: select from the anchor to this row. */
  range?: boolean;
  /** Ctrl / Cmd: add or remove this row, keep the rest. */
  toggle?: boolean;
}

/**
 * Several rows selected together (`<Transcript selectable>`), as a set of row
 * uuids with an anchor row for ranges — the gestures of a multi-select list
 * (APG listbox): click selects one, Ctrl/Cmd+click adds or removes one,
 * Shift+click and Shift+arrows select from the anchor.
 */
export function useMultiSelection(o: MultiSelectionOptions) {
  const [ids, setIds] = useControllable<ReadonlySet<string>>(
    o.selectedIds,
    () => (o.defaultSelectedIds !== undefined ? new Set(o.defaultSelectedIds) : NONE),
    o.onSelectionChange,
  );
  // The anchor is a uuid (rows move as the run grows or sections fold).
  const anchor = useRef<string | null>(null);
  const { tree, rows } = o;

  const rowOf = useCallback(
    (uuid: string | null) => (uuid === null ? -1 : transcriptRowOfEvent(tree, rows, uuid, -1)),
    [tree, rows],
  );

  const pick = useCallback(
    (r: number, gesture: SelectGesture = {}) => {
      if (r < 0 || r >= rows.length) return;
      const uuid = eventTreeNodeUuid(tree, rows.node[r]!);
      const from = gesture.range === true ? rowOf(anchor.current) : -1;
      if (from >= 0) {
        const range = transcriptRowRange(tree, rows, from, r);
        setIds(gesture.toggle === true ? new Set([...ids, ...range]) : new Set(range));
        return;
      }
      anchor.current = uuid;
      if (gesture.toggle === true) {
        const next = new Set(ids);
        if (next.has(uuid)) next.delete(uuid);
        else next.add(uuid);
        setIds(next);
      } else setIds(new Set([uuid]));
    },
    [tree, rows, ids, setIds, rowOf],
  );

  /** Extends from the anchor (or `fromRow`, when there is none) to row `r`. */
  const extendTo = useCallback(
    (fromRow: number, r: number) => {
      if (rows.length === 0) return;
      const to = Math.max(0, Math.min(rows.length - 1, r));
      if (rowOf(anchor.current) < 0 || ids.size === 0) {
        const start = Math.max(0, Math.min(rows.length - 1, fromRow));
        anchor.current = eventTreeNodeUuid(tree, rows.node[start]!);
      }
      pick(to, { range: true });
    },
    [tree, rows, ids, pick, rowOf],
  );

  const selectAll = useCallback(() => {
    setIds(new Set(transcriptRowRange(tree, rows, 0, rows.length - 1)));
  }, [tree, rows, setIds]);

  const clear = useCallback(() => {
    anchor.current = null;
    setIds(NONE);
  }, [setIds]);

  return useMemo(
    () => ({ ids, pick, extendTo, selectAll, clear }),
    [ids, pick, extendTo, selectAll, clear],
  );
}
