import {
  forwardRef,
  useCallback,
  useEffect,
  useId,
  useImperativeHandle,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type ForwardedRef,
} from 'react';
import {
  DEFAULT_HIDDEN_KINDS,
  buildTranscriptRows,
  contentOffsetOf,
  createTranscriptFeed,
  createTranscriptFind,
  scrollSpace,
  scrollTopOf,
  spanSummary,
  stepMatch,
  transcriptKeyAction,
  transcriptRowOf,
  transcriptRowOfEvent,
  type Event,
  type EventStream,
  type EventTree,
  type TranscriptFeed,
  type Trust,
} from '../../core/index.js';
import { useStoreSelector } from '../use-store-selector.js';
import { FindBar } from './find-bar.js';
import { RowBody, type SpanHeaderInfo } from './row.js';
import { useFindHighlights } from './highlight.js';
import { useRowVirtualizer } from './virtual.js';

/**
 * Where the transcript's events come from: give exactly one of `stream` (a
 * live `EventStream`, followed as it grows), `events` (an array) or
 * `iterable` (a sync or async iterable, taken as it yields).
 */
export type TranscriptSourceProps =
  | { stream: EventStream; events?: never; iterable?: never }
  | { events: readonly Event[]; stream?: never; iterable?: never }
  | { iterable: Iterable<Event> | AsyncIterable<Event>; stream?: never; events?: never };

/** Props of {@link Transcript}. */
export type TranscriptProps = TranscriptSourceProps & {
  /** Collapsed sections (span ids), controlled. */
  collapsed?: ReadonlySet<string>;
  /** Collapsed sections at mount, uncontrolled. */
  defaultCollapsed?: Iterable<string>;
  onCollapsedChange?: (collapsed: ReadonlySet<string>) => void;
  /** The selected event's uuid, controlled (`null`: none). */
  selectedId?: string | null;
  /** The selected event at mount, uncontrolled. */
  defaultSelectedId?: string | null;
  onSelect?: (uuid: string | null) => void;
  /** Event kinds hidden, controlled. */
  filter?: readonly string[];
  /** Event kinds hidden at mount (default: `sample_init`, `sandbox`, `state`, `store`). */
  defaultFilter?: readonly string[];
  onFilterChange?: (hiddenKinds: readonly string[]) => void;
  /**
   * Stick to the bottom while the user is there (default `true`). With
   * `false` new events never move the view; the "N new events" control still shows.
   */
  follow?: boolean;
  /** Called when the view starts or stops following the end. */
  onFollowChange?: (following: boolean) => void;
  /** A find query to run, controlled (opens the find bar when not empty). */
  findQuery?: string;
  onFindQueryChange?: (query: string) => void;
  /** Trust of the events' bodies (default `'untrusted'`). */
  trust?: Trust;
  /** Estimated row height before measuring, px (default 72). */
  estimateRowHeight?: number;
  /** Accessible name of the feed (default `'Transcript'`). */
  'aria-label'?: string;
  className?: string;
  style?: CSSProperties;
};

/**
 * The imperative handle of a {@link Transcript} (`ref`).
 *
 * @example
 * const ref = useRef<TranscriptHandle>(null);
 * ref.current?.scrollToEvent(readEventHash() ?? '');
 */
export interface TranscriptHandle {
  /**
   * Scrolls to the event (expanding collapsed sections around it), focuses
   * its row and selects it. Returns `false` when no such event is loaded.
   */
  scrollToEvent(uuid: string, options?: { select?: boolean; focus?: boolean }): boolean;
  /** Opens the find bar, optionally with a query. */
  openFind(query?: string): void;
}

const EMPTY_SET: ReadonlySet<string> = new Set();
/** Distance from the end (px) that still counts as "at the bottom" (inspect uses 30). */
const BOTTOM_SLACK = 30;
const OVERSCAN = 4;
/** Stillness (ms) after which rows drawn while moving get their bodies. */
const SETTLE_MS = 150;

function sourceOf(props: TranscriptSourceProps) {
  return props.stream ?? props.events ?? props.iterable;
}

function useControllable<T>(
  value: T | undefined,
  initial: () => T,
  onChange: ((next: T) => void) | undefined,
): [T, (next: T) => void] {
  const [own, setOwn] = useState(initial);
  const controlled = value !== undefined;
  const current = controlled ? value : own;
  const onChangeRef = useRef(onChange);
  useLayoutEffect(() => {
    onChangeRef.current = onChange;
  });
  const set = useCallback(
    (next: T) => {
      if (!controlled) setOwn(next);
      onChangeRef.current?.(next);
    },
    [controlled],
  );
  return [current, set];
}

/** The tree node whose event has this uuid (O(n), only for deep links). */
function nodeOfUuid(tree: EventTree, uuid: string): number {
  const events = tree.events;
  for (let i = 0; i < events.length; i++) if (events[i]!.uuid === uuid) return i;
  return -1;
}

/** A thrown value's message, for people (never throws itself). */
function messageOf(error: unknown): string {
  try {
    if (error instanceof Error) return error.message || error.name;
    return String(error);
  } catch {
    return 'unknown error';
  }
}

/** Span ids of the collapsed sections that hide node `index`. */
function collapsedAncestors(
  tree: EventTree,
  index: number,
  collapsed: ReadonlySet<string>,
): string[] {
  const out: string[] = [];
  for (let p = tree.parentIndex[index]!; p >= 0; p = tree.parentIndex[p]!) {
    const s = tree.spanIndex[p]!;
    const id = s >= 0 ? tree.spans[s]!.id : null;
    if (id !== null && collapsed.has(id)) out.push(id);
  }
  return out;
}

/**
 * The virtualized, live, searchable transcript of a run (issue 6): nested
 * collapsible sections for spans, every event through `describeEvent` and
 * `<Display>`, a kind filter, find over every event, deep links and
 * keyboard navigation — at any number of events (a scaled scroll space
 * beyond the browser's maximum element height).
 *
 * Keys: `j`/`k` or arrows move, `Home`/`End`, `Enter`/`Space` toggle a
 * section, `/` or `Ctrl`/`Cmd`-`F` find, `Esc` closes find.
 *
 * @example
 * import 'skein/styles.css';
 * <SkeinTheme>
 *   <div style={{ height: 600 }}>
 *     <Transcript stream={stream} onSelect={(uuid) => writeEventHash(uuid)} />
 *   </div>
 * </SkeinTheme>
 */
export const Transcript = forwardRef(function Transcript(
  props: TranscriptProps,
  ref: ForwardedRef<TranscriptHandle>,
) {
  const {
    trust = 'untrusted',
    estimateRowHeight = 72,
    follow = true,
    onFollowChange,
    className,
    style,
  } = props;
  const label = props['aria-label'] ?? 'Transcript';
  const baseId = useId();

  // --- source → feed → tree -------------------------------------------------
  const source = sourceOf(props);
  // One feed per source object. Creating one has no side effects (a render
  // may run twice or be thrown away): it pulls from an iterable and
  // schedules work only once subscribed, after commit, and it lets go of its
  // source (stops its slices, `return()`s an iterator, leaves a stream) when
  // its last subscriber leaves — on unmount or when the source changes.
  const feed: TranscriptFeed = useMemo(() => createTranscriptFeed(source), [source]);
  const { tree, loading, failed, error } = useStoreSelector(feed, (s) => s);

  // --- controlled / uncontrolled state ----------------------------------------
  const [collapsed, setCollapsed] = useControllable<ReadonlySet<string>>(
    props.collapsed,
    () => new Set(props.defaultCollapsed ?? EMPTY_SET),
    props.onCollapsedChange,
  );
  const [selectedId, setSelectedId] = useControllable<string | null>(
    props.selectedId,
    () => props.defaultSelectedId ?? null,
    props.onSelect,
  );
  const [filter, setFilter] = useControllable<readonly string[]>(
    props.filter,
    () => props.defaultFilter ?? DEFAULT_HIDDEN_KINDS,
    props.onFilterChange,
  );
  const [findQuery, setFindQuery] = useControllable<string>(
    props.findQuery,
    () => '',
    props.onFindQueryChange,
  );
  const [findOpen, setFindOpen] = useState(() => (props.findQuery ?? '') !== '');
  const [focusedId, setFocusedId] = useState<string | null>(null);
  const [currentMatch, setCurrentMatch] = useState(-1);

  const hiddenKinds = useMemo(() => new Set(filter), [filter]);
  const rows = useMemo(
    () => buildTranscriptRows(tree, { collapsed, hiddenKinds }),
    [tree, collapsed, hiddenKinds],
  );

  // --- find -------------------------------------------------------------------
  const [find] = useState(() => createTranscriptFind());
  useEffect(() => () => find.dispose(), [find]);
  const findState = useStoreSelector(find, (s) => s);
  const include = useMemo(
    () => (i: number) => tree.spanIndex[i]! >= 0 || !hiddenKinds.has(tree.events[i]!.event),
    [tree, hiddenKinds],
  );
  const activeQuery = findOpen ? findQuery : '';
  useEffect(() => {
    find.search(activeQuery, tree, include);
  }, [find, activeQuery, tree, include]);
  const matchCount = findState.query === activeQuery ? findState.count : 0;

  // --- virtualizer over content space, drawn in a capped scroll space --------
  const scrollRef = useRef<HTMLDivElement>(null);
  // Where the focused row was last drawn: usually it is still there (O(1));
  // only otherwise are the events scanned for it.
  const focusedRowRef = useRef(-1);
  const focusedRow = useMemo(
    () =>
      focusedId === null ? -1 : transcriptRowOfEvent(tree, rows, focusedId, focusedRowRef.current),
    [focusedId, tree, rows],
  );
  useLayoutEffect(() => {
    focusedRowRef.current = focusedRow;
  });
  const estimateSize = useCallback(
    (r: number) => (tree.spanIndex[rows.node[r]!]! >= 0 ? 36 : estimateRowHeight),
    [tree, rows, estimateRowHeight],
  );
  // `true` from a scroll until the view has been still for SETTLE_MS. A ref,
  // set before the rows the scroll brings in are rendered. The first rows
  // paint with their heads only, too: their bodies follow in the next task,
  // so the first paint does not wait for markdown.
  const movingRef = useRef(true);
  const [, setSettled] = useState(0);
  const settleTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    if (movingRef.current && settleTimer.current === undefined) {
      settleTimer.current = setTimeout(() => {
        movingRef.current = false;
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
    movingRef.current = true;
    clearTimeout(settleTimer.current);
    settleTimer.current = setTimeout(() => {
      movingRef.current = false;
      setSettled((n) => n + 1);
    }, SETTLE_MS);
  }, []);
  // A live stream starts following its end; a finished log starts at the top.
  const [atBottom, setAtBottom] = useState(props.stream !== undefined);
  const following = follow && atBottom;
  const virtual = useRowVirtualizer({
    tree,
    rows,
    estimate: estimateSize,
    scrollRef,
    overscan: OVERSCAN,
    keepRow: focusedRow,
    onScroll: markMoving,
    pinned: following,
  });
  const { space, items, heights } = virtual;

  /** Scrolls so row `r` is in view (content space → scroll space). */
  const revealRow = useCallback(
    (r: number, align: 'auto' | 'center' = 'auto') => {
      const el = scrollRef.current;
      if (el === null || !(r >= 0 && r < heights.count)) return;
      const start = heights.start(r);
      const size = heights.size(r);
      const s = scrollSpace(heights.total, el.clientHeight);
      const view = el.clientHeight;
      const offset = contentOffsetOf(s, el.scrollTop);
      let target = offset;
      if (align === 'center') target = start - Math.max(0, (view - size) / 2);
      else if (start < offset) target = start;
      else if (start + size > offset + view) target = start + size - view;
      if (target !== offset) {
        el.scrollTop = scrollTopOf(s, target);
        // Going to a row leaves the end: stop following unless it is there.
        const distance = el.scrollHeight - el.scrollTop - el.clientHeight;
        // Draw the rows for it now rather than on the browser's next scroll
        // event, so the row is drawn in this frame (and in jsdom at all).
        // Always called from a layout effect: no flushSync.
        virtual.sync(() => setAtBottom(distance <= BOTTOM_SLACK), false);
      }
    },
    [heights, virtual],
  );

  // --- following the end -------------------------------------------------------
  // Events seen: the tree's length the last time the view followed it, or
  // reached the end, or while a backlog was still loading (a ref, not
  // state: following a live run must not render twice per batch).
  const seenLength = useRef(tree.length);
  // (The snapshot that ends the loading still counts as loading.)
  const wasLoading = useRef(loading);
  if (following || loading || wasLoading.current) seenLength.current = tree.length;
  wasLoading.current = loading;
  const newEvents = following ? 0 : Math.max(0, tree.length - seenLength.current);
  const treeLength = useRef(tree.length);
  treeLength.current = tree.length;
  const [, setSeenVersion] = useState(0);
  const onFollowChangeRef = useRef(onFollowChange);
  useLayoutEffect(() => {
    onFollowChangeRef.current = onFollowChange;
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
    syncScroll((movedUp) => {
      // (A move up that still ends at the very bottom is the browser
      // clamping the position after the content shrank, not the user.)
      const bottom = (!movedUp || distance <= 1) && distance <= BOTTOM_SLACK;
      if (bottom) seenLength.current = treeLength.current;
      setAtBottom(bottom);
    });
  }, [syncScroll]);
  const jumpToEnd = useCallback(() => {
    const el = scrollRef.current;
    if (el === null) return;
    el.scrollTop = el.scrollHeight;
    seenLength.current = treeLength.current;
    setAtBottom(true);
    // With `follow={false}` nothing else changes: still clear the control.
    setSeenVersion((v) => v + 1);
  }, []);

  // --- focus and reveal --------------------------------------------------------
  // A row to reveal (and maybe focus) once the rows containing it exist.
  const [reveal, setReveal] = useState<{ uuid: string; focus: boolean; tries: number } | null>(
    null,
  );
  useLayoutEffect(() => {
    if (reveal === null) return;
    const node = nodeOfUuid(tree, reveal.uuid);
    const r = node < 0 ? -1 : transcriptRowOf(rows, node);
    if (r < 0) {
      setReveal(null);
      return;
    }
    revealRow(r, reveal.tries === 0 ? 'center' : 'auto');
    const el = scrollRef.current?.querySelector<HTMLElement>(`[data-index="${r}"]`);
    if (el !== null && el !== undefined) {
      if (reveal.focus) el.focus({ preventScroll: true });
      // Once more after the row is measured: its estimated place may move.
      if (reveal.tries < 2) setReveal({ ...reveal, tries: reveal.tries + 1 });
      else setReveal(null);
    } else if (reveal.tries < 6) {
      setReveal({ ...reveal, tries: reveal.tries + 1 });
    } else {
      setReveal(null);
    }
  }, [reveal, tree, rows, revealRow]);

  const revealNode = useCallback(
    (node: number, focus: boolean) => {
      const hiding = collapsedAncestors(tree, node, collapsed);
      if (hiding.length > 0) {
        const next = new Set(collapsed);
        for (const id of hiding) next.delete(id);
        setCollapsed(next);
      }
      const uuid = tree.events[node]!.uuid;
      if (focus) setFocusedId(uuid);
      setReveal({ uuid, focus, tries: 0 });
    },
    [tree, collapsed, setCollapsed],
  );

  const moveFocus = useCallback(
    (r: number) => {
      if (rows.length === 0) return;
      const row = Math.max(0, Math.min(rows.length - 1, r));
      revealNode(rows.node[row]!, true);
    },
    [rows, revealNode],
  );

  const toggleRow = useCallback(
    (r: number) => {
      if (r < 0 || r >= rows.length || rows.hasChildren[r] !== 1) return false;
      const node = rows.node[r]!;
      const id = tree.spans[tree.spanIndex[node]!]!.id;
      const next = new Set(collapsed);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      setCollapsed(next);
      return true;
    },
    [rows, tree, collapsed, setCollapsed],
  );

  const goToMatch = useCallback(
    (step: 1 | -1) => {
      const k = stepMatch(findState.matches, matchCount, currentMatch, step);
      if (k < 0) return;
      const node = findState.matches[k]!;
      setCurrentMatch(node);
      revealNode(node, false);
    },
    [findState.matches, matchCount, currentMatch, revealNode],
  );

  const findInputRef = useRef<HTMLInputElement>(null);
  const openFind = useCallback(
    (query?: string) => {
      setFindOpen(true);
      if (query !== undefined) setFindQuery(query);
      requestAnimationFrame(() => findInputRef.current?.select());
      findInputRef.current?.focus();
    },
    [setFindQuery],
  );
  const closeFind = useCallback(() => {
    setFindOpen(false);
    setCurrentMatch(-1);
    const f = focusedRowRef.current;
    const el = f >= 0 ? scrollRef.current?.querySelector<HTMLElement>(`[data-index="${f}"]`) : null;
    (el ?? scrollRef.current)?.focus({ preventScroll: true });
  }, []);
  useEffect(() => {
    if ((props.findQuery ?? '') !== '') setFindOpen(true);
  }, [props.findQuery]);

  useImperativeHandle(
    ref,
    () => ({
      scrollToEvent(uuid, options = {}) {
        const node = nodeOfUuid(tree, uuid);
        if (node < 0) return false;
        if (options.select !== false) setSelectedId(uuid);
        revealNode(node, options.focus !== false);
        return true;
      },
      openFind,
    }),
    [tree, revealNode, setSelectedId, openFind],
  );

  // --- keyboard and clicks (native listeners: the feed's articles are the
  // targets, and jsx-a11y rightly objects to handlers on non-interactive roles)
  const rootRef = useRef<HTMLDivElement>(null);
  const handlers = useRef({
    key: (_e: KeyboardEvent) => {},
    click: (_e: MouseEvent) => {},
    focus: (_e: FocusEvent) => {},
  });
  useLayoutEffect(() => {
    handlers.current.key = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement;
      const inFind = target === findInputRef.current;
      const inOtherControl =
        !inFind && target.closest('input, textarea, select, button, a, [contenteditable]') !== null;
      const action = transcriptKeyAction({
        key: e.key,
        ctrlKey: e.ctrlKey,
        metaKey: e.metaKey,
        altKey: e.altKey,
        shiftKey: e.shiftKey,
        inFind: inFind || inOtherControl,
        findOpen,
      });
      if (action === null) return;
      const rowEl = target.closest<HTMLElement>('[data-index]');
      const r = rowEl !== null ? Number(rowEl.dataset['index']) : focusedRowRef.current;
      switch (action) {
        case 'next':
          moveFocus(r < 0 ? 0 : r + 1);
          break;
        case 'previous':
          moveFocus(r < 0 ? 0 : r - 1);
          break;
        case 'first':
          moveFocus(0);
          break;
        case 'last':
          moveFocus(rows.length - 1);
          break;
        case 'toggle':
          if (r < 0) return;
          if (!toggleRow(r)) setSelectedId(tree.events[rows.node[r]!]!.uuid);
          break;
        case 'find':
          openFind();
          break;
        case 'close-find':
          closeFind();
          break;
        case 'find-next':
          goToMatch(1);
          break;
        case 'find-previous':
          goToMatch(-1);
          break;
      }
      e.preventDefault();
      e.stopPropagation();
    };
    handlers.current.focus = (e: FocusEvent) => {
      const rowEl = (e.target as HTMLElement).closest<HTMLElement>('[data-event-id]');
      const uuid = rowEl?.dataset['eventId'];
      if (uuid !== undefined && uuid !== focusedId) setFocusedId(uuid);
    };
    handlers.current.click = (e: MouseEvent) => {
      const target = e.target as HTMLElement;
      const rowEl = target.closest<HTMLElement>('[data-index]');
      if (rowEl === null) return;
      const r = Number(rowEl.dataset['index']);
      if (!(r >= 0 && r < rows.length)) return;
      const uuid = tree.events[rows.node[r]!]!.uuid;
      setFocusedId(uuid);
      if (target.closest('[data-toggle]') !== null) toggleRow(r);
      else if (target.closest('a, button, input, summary') === null) setSelectedId(uuid);
    };
  });
  useEffect(() => {
    const root = rootRef.current;
    if (root === null) return;
    const key = (e: KeyboardEvent) => handlers.current.key(e);
    const click = (e: MouseEvent) => handlers.current.click(e);
    const focus = (e: FocusEvent) => handlers.current.focus(e);
    root.addEventListener('keydown', key);
    root.addEventListener('click', click);
    root.addEventListener('focusin', focus);
    return () => {
      root.removeEventListener('keydown', key);
      root.removeEventListener('click', click);
      root.removeEventListener('focusin', focus);
    };
  }, []);

  // --- highlights of the find query inside the rendered rows -----------------
  useFindHighlights(
    scrollRef,
    activeQuery,
    currentMatch >= 0 ? tree.events[currentMatch]?.uuid : undefined,
  );

  // --- drawing ----------------------------------------------------------------
  const tabbableRow = focusedRow >= 0 ? focusedRow : (items[0]?.index ?? -1);
  const matches = findState.matches;
  const isMatch = (node: number) => {
    let lo = 0;
    let hi = matchCount - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = matches[mid]!;
      if (v === node) return true;
      if (v < node) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  };
  // Bodies (markdown, JSON) wait while the view moves: rows mounted during a
  // scroll or a live burst show their head at once and their bodies when it settles.
  const deferBodies = movingRef.current;
  const hiddenSummary = [...rows.hiddenByKind].map(([k, n]) => `${n} ${k}`).join(', ');

  return (
    <div
      ref={rootRef}
      className={className ? `skein-transcript ${className}` : 'skein-transcript'}
      style={style}
    >
      <div className="skein-transcript__toolbar">
        <span className="skein-transcript__count">
          {tree.length.toLocaleString('en-US')} events{loading ? ' (loading…)' : ''}
        </span>
        {failed ? (
          <span role="alert" className="skein-transcript__error">
            The event source failed: {messageOf(error)}; showing{' '}
            {tree.length.toLocaleString('en-US')} {tree.length === 1 ? 'event' : 'events'} received
            before it
          </span>
        ) : null}
        {rows.hiddenCount > 0 ? (
          <span className="skein-transcript__hidden" title={hiddenSummary}>
            {rows.hiddenCount.toLocaleString('en-US')} hidden ({hiddenSummary}){' '}
            <button type="button" onClick={() => setFilter([])}>
              Show all
            </button>
          </span>
        ) : filter.length === 0 ? (
          <button type="button" onClick={() => setFilter(DEFAULT_HIDDEN_KINDS)}>
            Hide {DEFAULT_HIDDEN_KINDS.join(', ')}
          </button>
        ) : null}
        <button
          type="button"
          className="skein-transcript__find-toggle"
          aria-expanded={findOpen}
          onClick={() => (findOpen ? closeFind() : openFind())}
        >
          Find
        </button>
      </div>
      {findOpen ? (
        <FindBar
          inputRef={findInputRef}
          query={findQuery}
          onQueryChange={(q) => {
            setFindQuery(q);
            setCurrentMatch(-1);
          }}
          count={matchCount}
          current={
            currentMatch >= 0 ? stepMatch(matches, matchCount, currentMatch - 0.5, 1) + 1 : 0
          }
          searching={!findState.done && findState.query === activeQuery}
          scanned={findState.scanned}
          total={findState.total}
          onNext={() => goToMatch(1)}
          onPrevious={() => goToMatch(-1)}
          onClose={closeFind}
        />
      ) : null}
      <div
        ref={scrollRef}
        className="skein-transcript__scroller"
        onScroll={onScroll}
        // The scroller itself is focusable only when the feed is empty of rows.
        tabIndex={tabbableRow < 0 ? 0 : -1}
        data-scaled={space.scale !== 1 ? '' : undefined}
      >
        <div
          role="feed"
          aria-label={label}
          aria-busy={loading}
          className="skein-transcript__feed"
          // Its height and the rows' positions are set by useRowVirtualizer.
        >
          {/* The rows' containing block: it never changes size (the feed
              does, as rows are measured and added), so a row is laid out
              again only when it changes itself. */}
          <div className="skein-transcript__rows" role="none">
            {items.map((item) => {
              const r = item.index;
              const node = rows.node[r]!;
              const event = tree.events[node]!;
              const s = tree.spanIndex[node]!;
              let spanInfo: SpanHeaderInfo | null = null;
              if (s >= 0) {
                const span = tree.spans[s]!;
                const summary = spanSummary(tree, node);
                spanInfo = {
                  name: span.name,
                  type: span.type,
                  durationMs: summary.durationMs,
                  tokens: summary.tokens,
                  events: summary.events,
                  status: summary.status,
                };
              }
              const uuid = event.uuid;
              const selected = uuid === selectedId;
              const titleId = `${baseId}-t${r}`;
              return (
                <article
                  key={uuid}
                  ref={virtual.measureRow}
                  data-index={r}
                  data-event-id={uuid}
                  data-kind={event.event}
                  data-selected={selected ? '' : undefined}
                  data-match={matchCount > 0 && isMatch(node) ? '' : undefined}
                  data-current-match={node === currentMatch ? '' : undefined}
                  aria-posinset={r + 1}
                  aria-setsize={rows.length}
                  aria-labelledby={titleId}
                  aria-expanded={rows.hasChildren[r] === 1 ? rows.expanded[r] === 1 : undefined}
                  // Roving focus (APG feed): one article is tabbable.
                  tabIndex={r === tabbableRow ? 0 : -1}
                  className="skein-transcript__row"
                  style={{
                    paddingInlineStart: `calc(${Math.min(rows.depth[r]!, 24)} * var(--skein-transcript-indent))`,
                  }}
                >
                  {rows.depth[r]! > 24 ? (
                    <span className="skein-transcript__depth">depth {rows.depth[r]}</span>
                  ) : null}
                  {s >= 0 ? (
                    <span data-toggle="" className="skein-transcript__toggle">
                      <RowBody
                        event={event}
                        titleId={titleId}
                        span={spanInfo}
                        hasChildren={rows.hasChildren[r] === 1}
                        expanded={rows.expanded[r] === 1}
                        trust={trust}
                      />
                    </span>
                  ) : (
                    <RowBody
                      event={event}
                      titleId={titleId}
                      span={null}
                      hasChildren={false}
                      expanded={false}
                      trust={trust}
                      deferBodies={deferBodies}
                    />
                  )}
                </article>
              );
            })}
          </div>
        </div>
      </div>
      {newEvents > 0 ? (
        <button type="button" className="skein-transcript__new" onClick={jumpToEnd}>
          {newEvents.toLocaleString('en-US')} new {newEvents === 1 ? 'event' : 'events'} ↓
        </button>
      ) : null}
    </div>
  );
});
