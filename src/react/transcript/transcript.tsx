import {
  forwardRef,
  useCallback,
  useEffect,
  useId,
  useImperativeHandle,
  useMemo,
  useRef,
  useState,
  type ForwardedRef,
} from 'react';
import { flushSync } from 'react-dom';
import {
  eventTreeNodeKey,
  eventTreeNodeUuid,
  DEFAULT_HIDDEN_KINDS,
  buildTranscriptRows,
  sectionCounts,
  stepMatch,
  transcriptRowOfEvent,
  eventsToJsonArray,
  eventsToJsonLines,
  eventsToMarkdown,
  selectedTranscriptEvents,
  type Event,
  type TranscriptFeed,
} from '../../index.js';
import { preloadDisplay } from '../display/index.js';
import { useIsomorphicLayoutEffect } from '../list/use-isomorphic-layout-effect.js';
import { useControllable } from '../use-controllable.js';
import { useHydrated } from '../use-hydrated.js';
import { useStoreSelector } from '../use-store-selector.js';
import { FindBar } from './find-bar.js';
import { readEventHash } from './hash.js';
import { useFindHighlights } from './highlight.js';
import { layoutStyles, useLayoutWarning } from './layout.js';
import { useNavigation } from './navigation.js';
import type { TranscriptHandle, TranscriptProps } from './props.js';
import { PRINT_MAX_EVENTS, PrintView } from './print-view.js';
import { SelectionBar } from './selection-bar.js';
import { copyText, downloadText } from './share-actions.js';
import { Toolbar } from './toolbar.js';
import { TranscriptRow } from './transcript-row.js';
import { useRowEvents } from './use-row-events.js';
import { useSelectionLink } from './use-selection-link.js';
import { useTranscriptFind } from './use-transcript-find.js';
import { useTranscriptList } from './use-transcript-list.js';
import { useMultiSelection } from './use-multi-selection.js';
import { formatCount } from '../../core/format.js';
import { useViewFeed } from '../view-source.js';

export type { TranscriptHandle, TranscriptProps, TranscriptSourceProps } from './props.js';

const EMPTY_SET: ReadonlySet<string> = new Set();

/** What a print draws (see `PrintView`). */
interface PrintJob {
  events: readonly Event[];
  total: number;
  selection: boolean;
}

/**
 * The virtualized, live, searchable transcript of a run:
 * nested collapsible sections for spans, every event through `describeEvent`
 * and `<Display>`, a kind filter, find over every event, deep links and
 * keyboard navigation — at any number of events (a scaled scroll space
 * beyond the browser's maximum element height).
 *
 * Drop-in: it needs only `skein/styles.css` (no `<SkeinTheme>`, which only
 * changes variables). It fills a parent that has a height (a fixed box, a
 * flex or grid child) and scrolls inside it; in a parent without one (page
 * flow) it takes `--skein-transcript-height` (600 px by default). Either way
 * only the rows in view (plus a few) are in the DOM. The first render — on
 * the server, at hydration — draws the first 30 rows (the last 30 of an
 * open source) in normal flow, with `aria-busy="false"` (the server shows
 * finished rows; once hydrated, the feed is busy while the rest of a large
 * array is folded in); the rows for the real viewport follow before the
 * first paint.
 *
 * Keys: `j`/`k` or arrows move, `Home`/`End`, `Enter`/`Space` toggle a
 * section, `/` or `Ctrl`/`Cmd`-`F` find, `Esc` closes find.
 *
 * With `selectable`, rows are selected together (click, `Ctrl`/`Cmd`+click,
 * `Shift`+click, `Shift`+arrows, `Ctrl`/`Cmd`-`A`, `Esc` clears) and a
 * toolbar copies them as Markdown or JSON, downloads them as skein JSON
 * Lines, or prints them (every row when none is selected, up to
 * `PRINT_MAX_EVENTS`), also on the browser's own Print.
 *
 * @example
 * import 'skein/styles.css';
 * <div style={{ height: 600 }}>
 *   <Transcript stream={stream} syncHash />
 * </div>
 */
export const Transcript = forwardRef(function Transcript(
  props: TranscriptProps,
  ref: ForwardedRef<TranscriptHandle>,
) {
  const {
    trust = 'untrusted',
    estimateRowHeight = 72,
    follow = true,
    openAt = 'auto',
    syncHash = false,
    describers,
    renderRowBody,
    className,
    style,
  } = props;
  const label = props['aria-label'] ?? 'Transcript';
  const selectable = props.selectable === true;
  const baseId = useId();

  // --- source → feed → tree -------------------------------------------------
  // One feed per source object, shared with the other views of the same
  // source. Getting one has no side effects (a render may run twice or be
  // thrown away): it pulls from an iterable and schedules work only once
  // subscribed, after commit, and it lets go of its source (stops its
  // slices, `return()`s an iterator, leaves a stream) when its last
  // subscriber leaves — on unmount or when the source changes.
  const feed: TranscriptFeed = useViewFeed(props);
  const { tree, loading, failed, error, complete } = useStoreSelector(feed, (s) => s);
  // The server HTML of a complete array holds its first window as finished
  // rows: "still loading" is said only after hydration.
  const hydrated = useHydrated();
  const busy = loading && hydrated;

  // --- controlled / uncontrolled state ----------------------------------------
  const [collapsed, setCollapsed] = useControllable<ReadonlySet<string>>(
    props.collapsed,
    () => new Set(props.defaultCollapsed ?? EMPTY_SET),
    props.onCollapsedChange,
  );
  const selection = useSelectionLink({
    tree,
    selectedId: props.selectedId,
    defaultSelectedId: props.defaultSelectedId,
    onSelect: props.onSelect,
    selection: props.selection,
    syncHash,
  });
  const { selectedId, setSelectedId, hoveredKey } = selection;
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
  const countOf = useMemo(() => sectionCounts(tree, hiddenKinds), [tree, hiddenKinds]);

  // --- rows selected together: copy, download, print ---------------------------
  const multi = useMultiSelection({
    tree,
    rows,
    selectedIds: props.selectedIds,
    defaultSelectedIds: props.defaultSelectedIds,
    onSelectionChange: props.onSelectionChange,
  });
  const [shareMessage, setShareMessage] = useState('');
  const selectedEvents = useCallback(
    () => selectedTranscriptEvents(tree, rows, multi.ids),
    [tree, rows, multi.ids],
  );
  const exportName = props.exportName ?? 'skein-selection';
  const share = useCallback(
    async (how: 'markdown' | 'json' | 'download') => {
      const events = selectedEvents();
      const what = `${formatCount(events.length)} ${events.length === 1 ? 'event' : 'events'}`;
      if (how === 'download') {
        downloadText(`${exportName}.jsonl`, eventsToJsonLines(events), 'application/jsonl');
        setShareMessage(`Downloaded ${what} as ${exportName}.jsonl`);
        return;
      }
      const text =
        how === 'markdown'
          ? eventsToMarkdown(events, { registry: describers })
          : eventsToJsonArray(events);
      const why = await copyText(text);
      setShareMessage(
        why === null
          ? `Copied ${what} as ${how === 'markdown' ? 'Markdown' : 'JSON'}`
          : `Not copied: ${why}. Use Download .jsonl instead.`,
      );
    },
    [selectedEvents, exportName, describers],
  );
  const [printJob, setPrintJob] = useState<PrintJob | null>(null);
  const printLimit = Math.max(1, props.printLimit ?? PRINT_MAX_EVENTS);
  const makePrintJob = useCallback((): PrintJob => {
    if (multi.ids.size > 0) {
      const events = selectedEvents();
      return { events: events.slice(0, printLimit), total: events.length, selection: true };
    }
    const events: Event[] = [];
    for (let r = 0; r < rows.length && r < printLimit; r++)
      events.push(tree.events[rows.node[r]!]!);
    return { events, total: rows.length, selection: false };
  }, [multi.ids, selectedEvents, rows, tree, printLimit]);
  const makePrintJobRef = useRef(makePrintJob);
  makePrintJobRef.current = makePrintJob;
  // The browser's own Print (Ctrl/Cmd-P) prints the same as the Print button:
  // the print view is drawn synchronously in `beforeprint`, before the page
  // is laid out for paper. One transcript prints at a time (the page's flag).
  // Whether this transcript drew the page's print view (and must clear it).
  const printingRef = useRef(false);
  const startPrint = useCallback(() => {
    const root = document.documentElement;
    if (root.hasAttribute('data-skein-printing')) return;
    printingRef.current = true;
    root.setAttribute('data-skein-printing', '');
    flushSync(() => setPrintJob(makePrintJobRef.current()));
  }, []);
  useEffect(() => {
    if (!selectable) return;
    const root = document.documentElement;
    const after = () => {
      if (!printingRef.current) return;
      printingRef.current = false;
      root.removeAttribute('data-skein-printing');
      setPrintJob(null);
    };
    window.addEventListener('beforeprint', startPrint);
    window.addEventListener('afterprint', after);
    return () => {
      window.removeEventListener('beforeprint', startPrint);
      window.removeEventListener('afterprint', after);
      if (printingRef.current) root.removeAttribute('data-skein-printing');
      printingRef.current = false;
    };
  }, [selectable, startPrint]);
  const print = useCallback(async () => {
    // Markdown and the other renderers load on first use: have them before
    // drawing what the printer lays out at once.
    await preloadDisplay().catch(() => undefined);
    // Drawn here, before the print dialog, not only in `beforeprint`: the
    // page is ready for paper whichever order the browser fires things in.
    startPrint();
    window.print();
  }, [startPrint]);

  // --- find -------------------------------------------------------------------
  const activeQuery = findOpen ? findQuery : '';
  const found = useTranscriptFind(tree, hiddenKinds, activeQuery, describers);

  // --- the list: rows on the list engine, following the end -------------------
  const scrollRef = useRef<HTMLDivElement>(null);
  // Where the focused row was last drawn: usually it is still there (O(1));
  // only otherwise are the events scanned for it.
  const focusedRowRef = useRef(-1);
  const focusedRow = useMemo(
    () =>
      focusedId === null ? -1 : transcriptRowOfEvent(tree, rows, focusedId, focusedRowRef.current),
    [focusedId, tree, rows],
  );
  useIsomorphicLayoutEffect(() => {
    focusedRowRef.current = focusedRow;
  });
  const list = useTranscriptList({
    tree,
    rows,
    scrollRef,
    estimateRowHeight,
    focusedRow,
    loading,
    complete,
    openAt,
    follow,
    onFollowChange: props.onFollowChange,
  });
  const { virtual, atBottom, setAtBottom, newEvents, onScroll, jumpToEnd } = list;
  const { space, items } = virtual;
  const warning = useLayoutWarning(virtual.problem, props.onWarning);

  // --- navigation: scrollToEvent, deep links, find, keys ------------------------
  const goTo = useNavigation({
    tree,
    rows,
    loading,
    ready: virtual.ready,
    collapsed,
    setCollapsed,
    hiddenKinds,
    setFilter,
    scrollRef,
    scrollToRow: virtual.scrollToIndex,
    select: setSelectedId,
    setFocusedId,
    // Going to a row leaves the end, unless it is the last row.
    onNavigate: (r) => setAtBottom(r >= rows.length - 1 && atBottom),
  });
  const goToNode = useCallback(
    (node: number, focus: boolean, align: 'center' | 'auto') =>
      void goTo(eventTreeNodeUuid(tree, node), { select: false, focus, align }),
    [goTo, tree],
  );
  // The selection at mount, and a controlled selection set from outside.
  useEffect(() => {
    const uuid = selection.controlled;
    if (uuid === undefined || uuid === null || uuid === selection.own.current) return;
    selection.own.current = uuid;
    void goTo(uuid, { select: false, focus: false });
  }, [selection.controlled, selection.own, goTo]);
  const [initialSelection] = useState(() => props.defaultSelectedId ?? null);
  useEffect(() => {
    if (initialSelection !== null) void goTo(initialSelection, { select: false, focus: false });
  }, [initialSelection, goTo]);
  // `#event=<uuid>` at mount and on hashchange (opt-in).
  useEffect(() => {
    if (!syncHash) return;
    const go = () => {
      const uuid = readEventHash();
      if (uuid !== null && uuid !== selection.own.current)
        void goTo(uuid, { select: true, focus: false });
    };
    go();
    window.addEventListener('hashchange', go);
    return () => window.removeEventListener('hashchange', go);
  }, [syncHash, selection.own, goTo]);

  const moveFocus = useCallback(
    (r: number) => {
      if (rows.length === 0) return;
      const row = Math.max(0, Math.min(rows.length - 1, r));
      goToNode(rows.node[row]!, true, 'auto');
    },
    [rows, goToNode],
  );

  const toggleRow = useCallback(
    (r: number) => {
      if (r < 0 || r >= rows.length || rows.hasChildren[r] !== 1) return false;
      const node = rows.node[r]!;
      const id = eventTreeNodeKey(tree, node);
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
      const k = stepMatch(found.matches, found.count, currentMatch, step);
      if (k < 0) return;
      const node = found.matches[k]!;
      setCurrentMatch(node);
      goToNode(node, false, 'center');
    },
    [found.matches, found.count, currentMatch, goToNode],
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

  useImperativeHandle(ref, () => ({ scrollToEvent: goTo, openFind, selectedEvents, print }), [
    goTo,
    openFind,
    selectedEvents,
    print,
  ]);

  const rootRef = useRef<HTMLDivElement>(null);
  useRowEvents({
    rootRef,
    findInputRef,
    tree,
    rows,
    findOpen,
    focusedId,
    focusedRow: () => focusedRowRef.current,
    moveFocus,
    pageFrom: virtual.pageFrom,
    toggleRow,
    select: setSelectedId,
    setFocusedId,
    openFind,
    closeFind,
    goToMatch,
    selectable,
    hasSelection: multi.ids.size > 0,
    pick: multi.pick,
    extendTo: multi.extendTo,
    selectAll: multi.selectAll,
    clearSelection: multi.clear,
  });
  const inSelectionId = `${baseId}-in-selection`;

  // --- highlights of the find query inside the rendered rows -----------------
  useFindHighlights(
    scrollRef,
    activeQuery,
    currentMatch >= 0 && currentMatch < tree.length
      ? eventTreeNodeUuid(tree, currentMatch)
      : undefined,
  );

  // --- drawing ----------------------------------------------------------------
  const tabbableRow = focusedRow >= 0 ? focusedRow : (items[0]?.index ?? -1);
  // Bodies (markdown, JSON) wait while the view moves: rows mounted during a
  // scroll or a live burst show their head at once and their bodies when it settles.
  const deferBodies = list.moving.current;
  const ready = virtual.ready;
  const hover = selection.linked !== undefined ? selection.hover : undefined;

  return (
    <div
      ref={rootRef}
      className={className ? `skein-transcript ${className}` : 'skein-transcript'}
      style={style ? { ...layoutStyles.root, ...style } : layoutStyles.root}
    >
      <Toolbar
        events={tree.length}
        loading={busy}
        failed={failed}
        error={error}
        rows={rows}
        filter={filter}
        setFilter={setFilter}
        findOpen={findOpen}
        onFindToggle={() => (findOpen ? closeFind() : openFind())}
        warning={warning}
        connection={props.connection}
      />
      {selectable ? (
        <SelectionBar
          count={multi.ids.size}
          rows={rows.length}
          onCopyMarkdown={() => void share('markdown')}
          onCopyJson={() => void share('json')}
          onDownload={() => void share('download')}
          onPrint={() => void print()}
          onClear={() => {
            multi.clear();
            setShareMessage('');
          }}
          message={shareMessage}
        />
      ) : null}
      {findOpen ? (
        <FindBar
          inputRef={findInputRef}
          query={findQuery}
          onQueryChange={(q) => {
            setFindQuery(q);
            setCurrentMatch(-1);
          }}
          count={found.count}
          current={
            currentMatch >= 0 ? stepMatch(found.matches, found.count, currentMatch - 0.5, 1) + 1 : 0
          }
          searching={found.searching}
          scanned={found.scanned}
          total={found.total}
          onNext={() => goToMatch(1)}
          onPrevious={() => goToMatch(-1)}
          onClose={closeFind}
        />
      ) : null}
      <div
        ref={scrollRef}
        className="skein-transcript__scroller"
        style={layoutStyles.scroller}
        onScroll={onScroll}
        // The scroller itself is focusable only when the feed is empty of rows.
        tabIndex={tabbableRow < 0 ? 0 : -1}
        data-scaled={space.scale !== 1 ? '' : undefined}
      >
        <div
          // An ARIA feed owns articles (axe aria-required-children): with no
          // rows and nothing loading it is a plain group that says so.
          role={rows.length > 0 || loading ? 'feed' : 'group'}
          aria-label={label}
          aria-busy={busy}
          className="skein-transcript__feed"
          style={layoutStyles.feed}
          // Its height and the rows' positions are set by the list engine.
        >
          {/* The rows' containing block: it never changes size (the feed
              does, as rows are measured and added), so a row is laid out
              again only when it changes itself. */}
          <div
            className="skein-transcript__rows"
            role="none"
            style={ready ? layoutStyles.rows : layoutStyles.rowsFlow}
          >
            {items.map((item) => {
              const r = item.index;
              const node = rows.node[r]!;
              const uuid = item.key;
              const s = tree.spanIndex[node]!;
              return (
                <TranscriptRow
                  key={uuid}
                  tree={tree}
                  rows={rows}
                  r={r}
                  countOf={countOf}
                  titleId={`${baseId}-t${r}`}
                  selected={uuid === selectedId}
                  inSelection={selectable && multi.ids.has(uuid)}
                  inSelectionId={inSelectionId}
                  hovered={
                    hoveredKey !== null &&
                    (hoveredKey === uuid || (s >= 0 && eventTreeNodeKey(tree, node) === hoveredKey))
                  }
                  match={found.count > 0 && found.isMatch(node)}
                  currentMatch={node === currentMatch}
                  tabbable={r === tabbableRow}
                  placed={ready}
                  measureRow={virtual.measureRow}
                  onHover={hover}
                  trust={trust}
                  describers={describers}
                  renderRowBody={renderRowBody}
                  deferBodies={deferBodies}
                />
              );
            })}
          </div>
          {rows.length === 0 && !loading ? (
            <p className="skein-transcript__empty">
              {tree.length === 0 ? 'No events yet.' : 'The filter hides every event.'}
            </p>
          ) : null}
        </div>
      </div>
      {selectable ? (
        // What a row in the selection says to assistive technology (feed
        // articles take no `aria-selected`: it is described instead).
        <span id={inSelectionId} hidden>
          In the selection
        </span>
      ) : null}
      {printJob !== null ? (
        <PrintView
          events={printJob.events}
          total={printJob.total}
          selection={printJob.selection}
          label={label}
          trust={trust}
          describers={describers}
        />
      ) : null}
      {newEvents > 0 ? (
        <button type="button" className="skein-transcript__new" onClick={jumpToEnd}>
          {formatCount(newEvents)} new {newEvents === 1 ? 'event' : 'events'} ↓
        </button>
      ) : null}
    </div>
  );
});
