import { useEffect, useRef, type RefObject } from 'react';
import {
  eventTreeNodeUuid,
  transcriptKeyAction,
  type EventTree,
  type TranscriptRows,
} from '../../index.js';
import { useIsomorphicLayoutEffect } from '../list/use-isomorphic-layout-effect.js';

export interface RowEventsOptions {
  rootRef: RefObject<HTMLElement | null>;
  findInputRef: RefObject<HTMLInputElement | null>;
  tree: EventTree;
  rows: TranscriptRows;
  findOpen: boolean;
  focusedId: string | null;
  /** The focused row's index when it is not the event's target. */
  focusedRow: () => number;
  moveFocus: (row: number) => void;
  /** The row a PageUp (-1) / PageDown (+1) moves focus to from `row` (the list's `pageFrom`). */
  pageFrom: (row: number, direction: 1 | -1) => number;
  toggleRow: (row: number) => boolean;
  select: (uuid: string) => void;
  setFocusedId: (uuid: string) => void;
  openFind: () => void;
  closeFind: () => void;
  goToMatch: (step: 1 | -1) => void;
  /** Rows can be selected together (`<Transcript selectable>`). */
  selectable: boolean;
  hasSelection: boolean;
  pick: (row: number, gesture: { range?: boolean; toggle?: boolean }) => void;
  /** Extends the selection from its anchor (else from `fromRow`) to `row`. */
  extendTo: (fromRow: number, row: number) => void;
  selectAll: () => void;
  clearSelection: () => void;
}

/**
 * Keyboard, clicks and focus on the transcript's rows, as native listeners
 * on its root: the feed's articles are the targets, and jsx-a11y rightly
 * objects to handlers on non-interactive roles. The handlers are replaced
 * after every commit; the listeners are added once.
 */
export function useRowEvents(o: RowEventsOptions): void {
  const handlers = useRef({
    key: (_e: KeyboardEvent) => {},
    click: (_e: MouseEvent) => {},
    mousedown: (_e: MouseEvent) => {},
    focus: (_e: FocusEvent) => {},
  });
  useIsomorphicLayoutEffect(() => {
    const { tree, rows } = o;
    handlers.current.key = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement;
      const inFind = target === o.findInputRef.current;
      const inOtherControl =
        !inFind && target.closest('input, textarea, select, button, a, [contenteditable]') !== null;
      const action = transcriptKeyAction({
        key: e.key,
        ctrlKey: e.ctrlKey,
        metaKey: e.metaKey,
        altKey: e.altKey,
        shiftKey: e.shiftKey,
        inFind: inFind || inOtherControl,
        findOpen: o.findOpen,
        selectable: o.selectable,
        hasSelection: o.hasSelection,
      });
      if (action === null) return;
      const rowEl = target.closest<HTMLElement>('[data-index]');
      const r = rowEl !== null ? Number(rowEl.dataset['index']) : o.focusedRow();
      switch (action) {
        case 'next':
          o.moveFocus(r < 0 ? 0 : r + 1);
          break;
        case 'previous':
          o.moveFocus(r < 0 ? 0 : r - 1);
          break;
        case 'first':
          o.moveFocus(0);
          break;
        case 'last':
          o.moveFocus(rows.length - 1);
          break;
        case 'page-down':
        case 'page-up': {
          if (rows.length === 0) return;
          const to = o.pageFrom(r < 0 ? 0 : r, action === 'page-down' ? 1 : -1);
          if (to >= 0) o.moveFocus(to);
          break;
        }
        case 'toggle':
          if (r < 0) return;
          if (!o.toggleRow(r)) o.select(eventTreeNodeUuid(tree, rows.node[r]!));
          break;
        case 'find':
          o.openFind();
          break;
        case 'close-find':
          o.closeFind();
          break;
        case 'find-next':
          o.goToMatch(1);
          break;
        case 'find-previous':
          o.goToMatch(-1);
          break;
        case 'extend-next':
        case 'extend-previous':
        case 'extend-first':
        case 'extend-last': {
          if (rows.length === 0) return;
          const from = r < 0 ? 0 : r;
          const to =
            action === 'extend-next'
              ? Math.min(rows.length - 1, from + 1)
              : action === 'extend-previous'
                ? Math.max(0, from - 1)
                : action === 'extend-first'
                  ? 0
                  : rows.length - 1;
          o.extendTo(from, to);
          o.moveFocus(to);
          break;
        }
        case 'select-all':
          o.selectAll();
          break;
        case 'clear-selection':
          o.clearSelection();
          break;
      }
      e.preventDefault();
      e.stopPropagation();
    };
    handlers.current.focus = (e: FocusEvent) => {
      const rowEl = (e.target as HTMLElement).closest<HTMLElement>('[data-event-id]');
      const uuid = rowEl?.dataset['eventId'];
      if (uuid !== undefined && uuid !== o.focusedId) o.setFocusedId(uuid);
    };
    handlers.current.mousedown = (e: MouseEvent) => {
      // Shift+click selects rows, not the text between two clicks.
      if (o.selectable && e.shiftKey && (e.target as HTMLElement).closest('[data-index]') !== null)
        e.preventDefault();
    };
    handlers.current.click = (e: MouseEvent) => {
      const target = e.target as HTMLElement;
      const rowEl = target.closest<HTMLElement>('[data-index]');
      if (rowEl === null) return;
      const r = Number(rowEl.dataset['index']);
      if (!(r >= 0 && r < rows.length)) return;
      const uuid = eventTreeNodeUuid(tree, rows.node[r]!);
      o.setFocusedId(uuid);
      if (target.closest('[data-toggle]') !== null) o.toggleRow(r);
      else if (target.closest('a, button, input, summary') === null) {
        o.select(uuid);
        if (o.selectable) o.pick(r, { range: e.shiftKey, toggle: e.ctrlKey || e.metaKey });
      }
    };
  });
  const { rootRef } = o;
  useEffect(() => {
    const root = rootRef.current;
    if (root === null) return;
    const key = (e: KeyboardEvent) => handlers.current.key(e);
    const click = (e: MouseEvent) => handlers.current.click(e);
    const mousedown = (e: MouseEvent) => handlers.current.mousedown(e);
    root.addEventListener('mousedown', mousedown);
    const focus = (e: FocusEvent) => handlers.current.focus(e);
    root.addEventListener('keydown', key);
    root.addEventListener('click', click);
    root.addEventListener('focusin', focus);
    return () => {
      root.removeEventListener('keydown', key);
      root.removeEventListener('click', click);
      root.removeEventListener('mousedown', mousedown);
      root.removeEventListener('focusin', focus);
    };
  }, [rootRef]);
}
