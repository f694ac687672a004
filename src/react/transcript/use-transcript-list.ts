import { useCallback, useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import {
  eventTreeNodeUuid,
  transcriptRowOfEvent,
  type EventTree,
  type TranscriptRows,
} from '../../index.js';
import { carryChunkedSizes } from '../../core/list/carry.js';
import { changedSince } from '../../core/tree/links.js';
import type { ChunkedColumn } from '../../core/list/chunked.js';
import { useIsomorphicLayoutEffect } from '../list/use-isomorphic-layout-effect.js';
import { useListVirtualizer, type MeasuredSizes } from '../list/use-list-virtualizer.js';

/** Distance from the end (px) that still counts as "at the bottom" (inspect uses 30). */
const BOTTOM_SLACK = 30;
const OVERSCAN = 4;
/** Stillness (ms) after which rows drawn while moving get their bodies. */
const SETTLE_MS = 150;

export interface TranscriptListOptions {
  tree: EventTree;
  rows: TranscriptRows;
  scrollRef: RefObject<HTMLElement | null>;
  /** Estimated height of an event row (a section header is 36 px). */
  estimateRowHeight: number;
  /** The focused row, kept drawn when scrolled away; -1 for none. */
  focusedRow: number;
  loading: boolean;
  complete: boolean;
  openAt: 'auto' | 'start' | 'end';
  follow: boolean;
  onFollowChange: ((following: boolean) => void) | undefined;
}

/**
 * The transcript's rows on the list engine (`useListVirtualizer`), with what
 * only the transcript needs: heights measured per tree node (kept when
 * sections fold, kinds are hidden and events arrive), rows whose bodies wait
 * while the view moves (`moving`), and following the end of a live run —
 * where it opens (a complete source at its first event, an open
 * one at its end), when the user leaves the end, and "N new events".
 */
export function useTranscriptList(o: TranscriptListOptions) {
  const { tree, rows, scrollRef, estimateRowHeight, loading } = o;
  const estimateSize = useCallback(
    (r: number) => (tree.spanIndex[rows.node[r]!]! >= 0 ? 36 : estimateRowHeight),
    [tree, rows, estimateRowHeight],
  );

  // `true` from a scroll until the view has been still for SETTLE_MS. A ref,
  // set before the rows the scroll brings in are rendered. The first rows
  // paint with their heads only, too: their bodies follow in the next task,
  // so the first paint does not wait for markdown.
  const moving = useRef(true);
  const [, setSettled] = useState(0);
  const settleTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    if (moving.current && settleTimer.current === undefined) {
      settleTimer.current = setTimeout(() => {
        moving.current = false;
        setSettled((n) => n + 1);
      }, 0);
    }
    return () => {
      clearTimeout(settleTimer.current);
      // A remount (StrictMode) must start the timer again.
      settleTimer.current = undefined;
    };
  }, []);
  const markMoving = useCallback(() => {
    moving.current = true;
    clearTimeout(settleTimer.current);
    settleTimer.current = setTimeout(() => {
      moving.current = false;
      setSettled((n) => n + 1);
    }, SETTLE_MS);
  }, []);

  // Opening position: a complete source opens at its first event,
  // an open one at its end, following it.
  const [atBottom, setAtBottom] = useState(
    () => o.openAt === 'end' || (o.openAt === 'auto' && !o.complete),
  );
  const following = o.follow && atBottom;
  const followingRef = useRef(following);
  followingRef.current = following;
  // "N new events" with follow off: the view is held at the end it jumped
  // to while those rows are drawn, measured and grow (bodies come once the
  // list is still), until the user scrolls up or more events come (which,
  // with follow off, never move the view). The tree's length when held.
  const [heldAt, setHeldAt] = useState<number | null>(null);
  const held = !following && heldAt === tree.length;

  // Heights measured per tree node, so collapsing, filtering and appending
  // keep them; carried to the nodes' new places when the tree grows. A live
  // snapshot shares those of the nodes before its first change with the
  // last ones (chunks), and only the rest are carried.
  const nodeSizesRef = useRef<{
    tree: EventTree;
    sizes: ChunkedColumn<Float32Array>;
  } | null>(null);
  const nodeSizes = useMemo(() => {
    const before = nodeSizesRef.current;
    const events = tree.events;
    // The sizes of the last tree rendered, however many snapshots came between.
    const from = before === null ? 0 : (changedSince(tree, (b) => b === before.tree)?.from ?? 0);
    const sizes = carryChunkedSizes(
      before === null
        ? null
        : { sizes: before.sizes, keyOf: (i) => eventTreeNodeUuid(before.tree, i) },
      from,
      events.length,
      (i) => eventTreeNodeUuid(tree, i),
    );
    return { tree, sizes };
  }, [tree]);
  useIsomorphicLayoutEffect(() => {
    nodeSizesRef.current = nodeSizes;
  }, [nodeSizes]);
  const measuredSizes = useMemo<MeasuredSizes>(() => {
    const perNode = nodeSizes.sizes;
    const node = rows.node;
    return {
      get: (r) => {
        const n = node[r]!;
        return n < perNode.length ? perNode.get(n) : 0;
      },
      set: (r, size) => {
        const n = node[r]!;
        if (n < perNode.length) perNode.set(n, size);
      },
    };
  }, [nodeSizes, rows]);
  const keyOfRow = useCallback((r: number) => eventTreeNodeUuid(tree, rows.node[r]!), [tree, rows]);
  const rowOfKey = useCallback(
    (uuid: string, hint: number) => transcriptRowOfEvent(tree, rows, uuid, hint),
    [tree, rows],
  );
  const virtual = useListVirtualizer({
    count: rows.length,
    rows,
    estimateSize,
    getKey: keyOfRow,
    indexOfKey: rowOfKey,
    sizes: measuredSizes,
    scrollRef,
    overscan: OVERSCAN,
    keepIndex: o.focusedRow,
    onUserScroll: markMoving,
    pinned: following || held,
  });

  // --- following the end -------------------------------------------------------
  // Events seen: the tree's length the last time the view followed it, or
  // reached the end, or while a backlog was still loading (a ref, not
  // state: following a live run must not render twice per batch).
  const seenLength = useRef(tree.length);
  // (The snapshot that ends the loading still counts as loading.)
  const wasLoading = useRef(loading);
  // New events are counted only once the view has been at the end, or the
  // source was complete (what comes after is new): a source read from its
  // start (a log file still arriving) has no "new" events. The render that
  // completes the source still counts as reading it.
  const reachedEnd = useRef(atBottom);
  const counting = reachedEnd.current || atBottom;
  if (atBottom || o.complete) reachedEnd.current = true;
  if (!counting || following || loading || wasLoading.current) seenLength.current = tree.length;
  wasLoading.current = loading;
  const newEvents = following ? 0 : Math.max(0, tree.length - seenLength.current);
  const treeLength = useRef(tree.length);
  treeLength.current = tree.length;
  const [, setSeenVersion] = useState(0);
  const onFollowChangeRef = useRef(o.onFollowChange);
  useIsomorphicLayoutEffect(() => {
    onFollowChangeRef.current = o.onFollowChange;
  });
  useEffect(() => {
    onFollowChangeRef.current?.(following);
  }, [following]);
  const syncScroll = virtual.sync;
  const onScroll = useCallback(() => {
    const el = scrollRef.current;
    if (el === null) return;
    const distance = el.scrollHeight - el.scrollTop - el.clientHeight;
    // One render for both, so following ends before rows measured at the
    // new place change the height (which would pull the view back down).
    // Any move up by the user ends following, even within the slack.
    syncScroll((movedUp, byUser) => {
      // (A move up that still ends at the very bottom is the browser
      // clamping the position after the content shrank, not the user.)
      // Only the user stops following: pinning to the end while a row below
      // is still growing lands short of the new end for a moment.
      const bottom =
        (!byUser && followingRef.current) ||
        ((!movedUp || distance <= 1) && distance <= BOTTOM_SLACK);
      if (bottom) seenLength.current = treeLength.current;
      // (The browser clamping the position at the end is not the user leaving it.)
      if (byUser && movedUp && distance > 1) setHeldAt(null);
      setAtBottom(bottom);
    });
  }, [syncScroll, scrollRef]);
  const jumpToEnd = useCallback(() => {
    const el = scrollRef.current;
    if (el === null) return;
    el.scrollTop = el.scrollHeight;
    // Tell the list now, not at the scroll event: a tree published before
    // that event would re-anchor the view to the row that was at the top.
    onScroll();
    seenLength.current = treeLength.current;
    setAtBottom(true);
    setHeldAt(treeLength.current);
    // With `follow={false}` nothing else changes: still clear the control.
    setSeenVersion((v) => v + 1);
  }, [scrollRef, onScroll]);

  return { virtual, moving, atBottom, setAtBottom, newEvents, onScroll, jumpToEnd };
}
