import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import {
  eventTreeIndexOf,
  eventTreeNodeKey,
  eventTreeNodeUuid,
  transcriptRowOf,
  type EventTree,
  type TranscriptRows,
} from '../../index.js';
import { useIsomorphicLayoutEffect } from '../list/use-isomorphic-layout-effect.js';
import type { ListAlign } from '../../index.js';

/**
 * Options of a navigation (`scrollToEvent`, find, keys).
 *
 * @example
 * declare const ref: { current: TranscriptHandle | null };
 * ref.current?.scrollToEvent(event.uuid, { select: false, focus: false, align: 'start' });
 */
export interface ScrollToEventOptions {
  /** Select the event (default `true`). */
  select?: boolean;
  /** Move keyboard focus to its row (default `true`). */
  focus?: boolean;
  /** Where the row lands (default `'center'`; `'auto'`: only as far as needed). */
  align?: ListAlign;
}

/** The tree node that shows the event with this uuid, or -1 (O(n): only for navigation). */
export function nodeOfEvent(tree: EventTree, uuid: string): number {
  // A row of a later copy of a span begun twice has a suffixed uuid.
  if (tree.keys !== undefined) {
    const i = eventTreeIndexOf(tree, uuid);
    if (i >= 0) return i;
  }
  const events = tree.events;
  for (let i = 0; i < events.length; i++) if (events[i]!.uuid === uuid) return i;
  // A span's end is shown by its header (the node of its begin).
  for (const span of tree.spans) if (span.end?.uuid === uuid) return span.index;
  return -1;
}

/** Span ids of the collapsed sections that hide node `index`. */
export function collapsedAncestors(
  tree: EventTree,
  index: number,
  collapsed: ReadonlySet<string>,
): string[] {
  const out: string[] = [];
  for (let p = tree.parentIndex[index]!; p >= 0; p = tree.parentIndex[p]!) {
    const id = tree.spanIndex[p]! >= 0 ? eventTreeNodeKey(tree, p) : null;
    if (id !== null && collapsed.has(id)) out.push(id);
  }
  return out;
}

/** The row that shows node `index`, or the nearest shown ancestor's, or the row before it. */
function nearestRow(tree: EventTree, rows: TranscriptRows, index: number): number {
  for (let p = index; p >= 0; p = tree.parentIndex[p]!) {
    const r = transcriptRowOf(rows, p);
    if (r >= 0) return r;
  }
  // Rows are in pre-order: the last row whose node comes before.
  let lo = 0;
  let hi = rows.length - 1;
  let best = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (rows.node[mid]! < index) {
      best = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return best;
}

/** Whether a row is (at least partly) inside the scroller's view. */
function inView(row: HTMLElement, scroller: HTMLElement): boolean {
  const box = row.getBoundingClientRect();
  const view = scroller.getBoundingClientRect();
  // No layout (jsdom): nothing to check.
  if (view.height === 0) return true;
  return box.bottom > view.top && box.top < view.bottom;
}

interface Request {
  uuid: string;
  select: boolean;
  focus: boolean;
  align: ListAlign;
  resolve: (landed: boolean) => void;
  /** `reveal`: find and reveal the row; `land`: wait for it to be drawn. */
  stage: 'reveal' | 'land';
  /** Whether sections / kinds were already asked to open (once). */
  revealed: boolean;
  tries: number;
}

export interface NavigationOptions {
  tree: EventTree;
  rows: TranscriptRows;
  /** The source is still being read: an unknown uuid may still come. */
  loading: boolean;
  /** The virtualizer has measured its scroller (see `RowVirtualizer.ready`). */
  ready: boolean;
  collapsed: ReadonlySet<string>;
  setCollapsed: (next: ReadonlySet<string>) => void;
  hiddenKinds: ReadonlySet<string>;
  setFilter: (hiddenKinds: readonly string[]) => void;
  scrollRef: RefObject<HTMLElement | null>;
  scrollToRow: (r: number, align: ListAlign) => void;
  select: (uuid: string) => void;
  setFocusedId: (uuid: string) => void;
  /** Called with the row navigated to (the view leaves the end unless it is the last). */
  onNavigate: (row: number) => void;
}

/**
 * Navigation that lands: a request to show an event is queued
 * until the scroller is measured and the event is loaded, opens what hides
 * it, scrolls its row into view — held there by the virtualizer while rows
 * around it are measured — and resolves once the row is drawn (and focused).
 *
 * What shows an event: its own row; for a `span_end`, its section's header;
 * in a collapsed section, the section is expanded (`onCollapsedChange`);
 * of a hidden kind, the kind is shown (`onFilterChange`). When a controlled
 * prop keeps it hidden, the nearest row that is shown is used.
 */
export function useNavigation(options: NavigationOptions) {
  const pending = useRef<Request | null>(null);
  const [, setTick] = useState(0);
  const kick = useCallback(() => setTick((n) => n + 1), []);
  const latest = useRef(options);
  latest.current = options;

  const goTo = useCallback(
    (uuid: string, opts: ScrollToEventOptions = {}): Promise<boolean> =>
      new Promise<boolean>((resolve) => {
        // A newer navigation replaces one still under way.
        pending.current?.resolve(false);
        pending.current = {
          uuid,
          select: opts.select !== false,
          focus: opts.focus !== false,
          align: opts.align ?? 'center',
          resolve,
          stage: 'reveal',
          revealed: false,
          tries: 0,
        };
        kick();
      }),
    [kick],
  );

  useEffect(
    () => () => {
      pending.current?.resolve(false);
      pending.current = null;
    },
    [],
  );

  // Every commit on purpose: a request advances as the tree loads, sections
  // open and rows are drawn.
  useIsomorphicLayoutEffect(() => {
    const req = pending.current;
    const o = latest.current;
    if (req === null || !o.ready) return;
    const finish = (landed: boolean) => {
      pending.current = null;
      req.resolve(landed);
    };
    const { tree, rows } = o;
    const node = nodeOfEvent(tree, req.uuid);
    if (node < 0) {
      // Not loaded (yet): wait while the source is read, else it is not there.
      if (!o.loading) finish(false);
      return;
    }
    let r = transcriptRowOf(rows, node);
    if (r < 0 && !req.revealed) {
      req.revealed = true;
      const hiding = collapsedAncestors(tree, node, o.collapsed);
      if (hiding.length > 0) {
        const next = new Set(o.collapsed);
        for (const id of hiding) next.delete(id);
        o.setCollapsed(next);
      }
      const kind = tree.spanIndex[node]! < 0 ? tree.events[node]!.event : null;
      if (kind !== null && o.hiddenKinds.has(kind))
        o.setFilter([...o.hiddenKinds].filter((k) => k !== kind));
      // The next commit continues (or, if nothing changed, the next kick).
      kick();
      return;
    }
    if (r < 0) r = nearestRow(tree, rows, node);
    if (r < 0) {
      finish(false);
      return;
    }
    const rowUuid = eventTreeNodeUuid(tree, rows.node[r]!);
    if (req.stage === 'reveal') {
      req.stage = 'land';
      if (req.select) o.select(rowUuid);
      if (req.focus) o.setFocusedId(rowUuid);
      o.onNavigate(r);
      o.scrollToRow(r, req.align);
      return;
    }
    const el = o.scrollRef.current?.querySelector<HTMLElement>(`[data-index="${r}"]`);
    const drawn = el !== null && el !== undefined && el.dataset['eventId'] === rowUuid;
    if (drawn && inView(el, o.scrollRef.current!)) {
      if (req.focus) el.focus({ preventScroll: true });
      finish(true);
    } else if (++req.tries > 10) {
      finish(false);
    } else {
      // Not drawn there yet (a focused row stays drawn wherever it is):
      // go there again, and look after the next frame.
      if (drawn) o.scrollToRow(r, req.align);
      requestAnimationFrame(kick);
    }
  });

  return goTo;
}
