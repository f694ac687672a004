import {
  type CSSProperties,
  type KeyboardEvent as ReactKeyboardEvent,
  useCallback,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from 'react';
import {
  type SelectionStore,
  TREE_TYPEAHEAD_START,
  type TreeKeyRows,
  buildSpanTreeView,
  createSelectionStore,
  eventTreeIndexOf,
  expandSiblings,
  expandToViewNode,
  filterSpanTreeView,
  spanTreeRowOf,
  spanTreeRows,
  spanTreeViewIndexOf,
  spanTreeViewKey,
  spanTreeViewNodeOf,
  treeKeyAction,
} from '../../index.js';
import { useIsomorphicLayoutEffect } from '../list/use-isomorphic-layout-effect.js';
import { useListVirtualizer } from '../list/use-list-virtualizer.js';
import { useControllable } from '../use-controllable.js';
import { useHydrated } from '../use-hydrated.js';
import { useStoreSelector } from '../use-store-selector.js';
import { type ViewSourceProps, useViewFeed } from '../view-source.js';
import { ALL_COLUMNS, COLUMN_LABELS } from './columns.js';
import { LIVE_WINDOW_MS, rowFacts, runExtent } from './facts.js';
import { Toolbar } from './toolbar.js';
import { ResizeHandle, TreeRow, columnTemplate } from './tree-row.js';

/**
 * Where the tree's events come from: the props every view takes
 * ({@link ViewSourceProps}).
 *
 * @example
 * const source: SpanTreeSourceProps = { stream: new EventStream() };
 */
export type SpanTreeSourceProps = ViewSourceProps;

/** The columns beside the name, in order. */
export type SpanTreeColumn = 'duration' | 'tokens' | 'start' | 'bar';

/** A filter: a query over names, kinds and short texts, strict or loose. */
export interface SpanTreeFilterState {
  readonly query: string;
  readonly mode: 'strict' | 'loose';
}

/** Props of {@link SpanTree}. */
export type SpanTreeProps = SpanTreeSourceProps & {
  /**
   * A selection store shared with other views (`createSelectionStore`):
   * selection, focus, hover and expansion live there. Default: a store of
   * the tree's own.
   */
  selection?: SelectionStore;
  /** The selected node's key, controlled (overrides the store's). */
  selectedId?: string | null;
  onSelect?: (key: string | null) => void;
  /** What the tree shows, controlled: spans only, every event, or inspect's outline. */
  mode?: 'spans' | 'events' | 'outline';
  /** Default `'spans'`. */
  defaultMode?: 'spans' | 'events' | 'outline';
  onModeChange?: (mode: 'spans' | 'events' | 'outline') => void;
  filter?: SpanTreeFilterState;
  /** Default: no query, loose. */
  defaultFilter?: SpanTreeFilterState;
  onFilterChange?: (filter: SpanTreeFilterState) => void;
  /** Columns shown beside the name, controlled. */
  columns?: readonly SpanTreeColumn[];
  /** Default: all four. */
  defaultColumns?: readonly SpanTreeColumn[];
  onColumnsChange?: (columns: readonly SpanTreeColumn[]) => void;
  /** Column widths in px, controlled. */
  columnWidths?: Readonly<Record<SpanTreeColumn, number>>;
  defaultColumnWidths?: Readonly<Record<SpanTreeColumn, number>>;
  onColumnWidthsChange?: (widths: Readonly<Record<SpanTreeColumn, number>>) => void;
  /** Show the toolbar (filter, mode, expand/collapse, columns); default `true`. */
  toolbar?: boolean;
  /** Row height, px (default 28). */
  rowHeight?: number;
  /** Clock for running spans' elapsed time (default `Date.now`). */
  now?: () => number;
  /** Accessible name (default `'Span tree'`). */
  'aria-label'?: string;
  /** Text direction; `'rtl'` swaps ← and →. */
  dir?: 'ltr' | 'rtl';
  className?: string;
  style?: CSSProperties;
};
const DEFAULT_WIDTHS: Readonly<Record<SpanTreeColumn, number>> = {
  duration: 80,
  tokens: 72,
  start: 80,
  bar: 160,
};
const NO_FILTER: SpanTreeFilterState = { query: '', mode: 'loose' };
const OVERSCAN = 6;
/** Rows the server renders (no viewport is known there; documented). */
const SSR_VIEWPORT = 600;

/**
 * The span tree: the collapsible, accessible outline of a run —
 * which agent did what, where time and tokens went, where it failed. A
 * virtualized WAI-ARIA treegrid over any number of spans (1M-event runs):
 * rows carry `aria-level`, `aria-posinset`, `aria-setsize` and
 * `aria-expanded`; focus is a roving tabindex keyed by node id and the
 * focused row stays mounted while scrolled away; the keyboard is core's
 * `treeKeyAction` (arrows, Home/End, PageUp/PageDown, `*`, type-ahead,
 * Enter).
 *
 * Self-contained: it needs only `skein/styles.css` (no `<SkeinTheme>`), and
 * fills its parent's height; in a parent with no height it takes
 * `--skein-span-tree-min-height` (24rem). A large run shows its first rows
 * before the whole run is folded in (`aria-busy` until it is); live appends
 * keep expansion, focus and scroll.
 *
 * @example
 * import 'skein/styles.css';
 * const selection = createSelectionStore();
 * <SpanTree stream={stream} selection={selection} />
 */
export function SpanTree(props: SpanTreeProps) {
  const feed = useViewFeed(props);
  const snapshot = useStoreSelector(feed, (s) => s);
  // As the transcript: the server HTML is not "busy" (see useHydrated).
  const hydrated = useHydrated();
  const tree = snapshot.tree;

  const [ownStore] = useState(() => createSelectionStore());
  const store = props.selection ?? ownStore;
  const sel = useStoreSelector(store, (s) => s);

  const [mode, setMode] = useControllable(
    props.mode,
    props.defaultMode ?? 'spans',
    props.onModeChange,
  );
  const [filter, setFilter] = useControllable(
    props.filter,
    props.defaultFilter ?? NO_FILTER,
    props.onFilterChange,
  );
  const [columns, setColumns] = useControllable(
    props.columns,
    props.defaultColumns ?? ALL_COLUMNS,
    props.onColumnsChange,
  );
  const [widths, setWidths] = useControllable(
    props.columnWidths,
    props.defaultColumnWidths ?? DEFAULT_WIDTHS,
    props.onColumnWidthsChange,
  );

  const view = useMemo(() => buildSpanTreeView(tree, { mode }), [tree, mode]);
  const shown = useMemo(
    () => filterSpanTreeView(view, { query: filter.query, mode: filter.mode }),
    [view, filter.query, filter.mode],
  );
  const rows = useMemo(() => spanTreeRows(shown, sel.expanded), [shown, sel.expanded]);
  const extent = useMemo(() => runExtent(tree), [tree]);

  // --- identity: keys from the store onto rows -------------------------------
  const hint = useRef({ focused: -1, selected: -1 });
  const viewOfKey = (key: string | null, which: 'focused' | 'selected'): number => {
    if (key === null) return -1;
    let v = spanTreeViewIndexOf(shown, key, hint.current[which]);
    // A key of a node this view does not show (an event selected in a
    // transcript): the nearest node that does.
    if (v < 0) {
      const i = eventTreeIndexOf(tree, key);
      if (i >= 0) v = spanTreeViewNodeOf(shown, i);
    }
    hint.current[which] = v;
    return v;
  };
  const selectedKey = props.selectedId !== undefined ? props.selectedId : sel.selected;
  const focusedView = viewOfKey(sel.focused, 'focused');
  const selectedView = viewOfKey(selectedKey, 'selected');
  const focusedRow = focusedView < 0 ? -1 : spanTreeRowOf(rows, focusedView);
  const selectedRow = selectedView < 0 ? -1 : spanTreeRowOf(rows, selectedView);

  // --- the list ----------------------------------------------------------------
  const rowHeight = props.rowHeight ?? 28;
  const estimateSize = useCallback(() => rowHeight, [rowHeight]);
  const keyOfRow = useCallback((r: number) => spanTreeViewKey(shown, rows.view[r]!), [shown, rows]);
  const indexOfKey = useCallback(
    (key: string, rowHint: number) => {
      const v = spanTreeViewIndexOf(
        shown,
        key,
        rowHint >= 0 && rowHint < rows.length ? rows.view[rowHint]! : -1,
      );
      return v < 0 ? -1 : spanTreeRowOf(rows, v);
    },
    [shown, rows],
  );
  const scrollRef = useRef<HTMLDivElement | null>(null);
  const list = useListVirtualizer({
    count: rows.length,
    rows,
    estimateSize,
    getKey: keyOfRow,
    indexOfKey,
    scrollRef,
    overscan: OVERSCAN,
    keepIndex: focusedRow,
    measure: false,
    initialViewportSize: SSR_VIEWPORT,
  });

  // --- actions -------------------------------------------------------------------
  const select = useCallback(
    (key: string | null) => {
      if (props.selectedId === undefined) store.select(key);
      props.onSelect?.(key);
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [store, props.selectedId, props.onSelect],
  );
  const wantDomFocus = useRef(false);
  const focusRow = (r: number) => {
    if (!(r >= 0 && r < rows.length)) return;
    store.focus(keyOfRow(r));
    wantDomFocus.current = true;
    list.scrollToIndex(r);
  };
  const toggleRow = (r: number, expanded?: boolean) => {
    const v = rows.view[r]!;
    if (shown.childCount[v] === 0) return;
    store.toggle(
      spanTreeViewKey(shown, v),
      expanded ?? rows.expanded[r] !== 1,
      shown.folded[v] === 1,
    );
  };

  // The selection, wherever it was set (here, another view sharing the
  // store, a prop): expand to it and scroll it into view, once per key — as
  // soon as the feed has the node (a key may be selected before it loads). A
  // later collapse by the user is left alone.
  const revealed = useRef<string | null>(null);
  useEffect(() => {
    if (selectedKey === null || selectedView < 0 || revealed.current === selectedKey) return;
    if (selectedRow < 0) {
      store.setExpanded(expandToViewNode(shown, store.getSnapshot().expanded, selectedView));
      return;
    }
    revealed.current = selectedKey;
    list.scrollToIndex(selectedRow);
  });

  // Keyboard focus follows the store's focused row after it is drawn.
  useIsomorphicLayoutEffect(() => {
    if (!wantDomFocus.current) return;
    wantDomFocus.current = false;
    const el = scrollRef.current?.querySelector<HTMLElement>(`[data-row="${focusedRow}"]`);
    el?.focus({ preventScroll: true });
  });

  const typeahead = useRef(TREE_TYPEAHEAD_START);
  const onKeyDown = (e: ReactKeyboardEvent<HTMLDivElement>) => {
    if (!(e.target instanceof HTMLElement) || e.target.getAttribute('role') !== 'row') return;
    const at = focusedRow >= 0 ? focusedRow : Number(e.target.dataset['row']);
    const keyRows: TreeKeyRows = {
      count: rows.length,
      focused: at,
      parent: (r) => {
        const p = shown.parent[rows.view[r]!]!;
        return p < 0 ? -1 : spanTreeRowOf(rows, p);
      },
      hasChildren: (r) => shown.childCount[rows.view[r]!]! > 0,
      expanded: (r) => rows.expanded[r] === 1,
      label: (r) => rowFacts(shown, rows.view[r]!, extent, Date.now()).name,
      page: (r, d) => list.pageFrom(r, d),
    };
    const result = treeKeyAction(
      {
        key: e.key,
        ctrlKey: e.ctrlKey,
        metaKey: e.metaKey,
        altKey: e.altKey,
        rtl: props.dir === 'rtl',
        time: e.timeStamp,
      },
      keyRows,
      typeahead.current,
    );
    typeahead.current = result.typeahead;
    const action = result.action;
    if (action.type === 'none') return;
    e.preventDefault();
    if (action.type === 'focus') focusRow(action.row);
    else if (action.type === 'expand') toggleRow(action.row, true);
    else if (action.type === 'collapse') toggleRow(action.row, false);
    else if (action.type === 'select') select(keyOfRow(action.row));
    else if (action.type === 'expand-siblings')
      store.setExpanded(
        expandSiblings(shown, store.getSnapshot().expanded, rows.view[action.row]!),
      );
  };

  // --- running spans tick ------------------------------------------------------------
  const clock = props.now ?? Date.now;
  const [tickNow, setNow] = useState(() => clock());
  // While a player replays the run, running spans are measured to
  // its playhead (recorded time), not to the wall clock.
  const now = sel.playhead ?? tickNow;
  const replaying = sel.playhead !== null;
  const drawnFacts = list.items.map((item) => rowFacts(shown, rows.view[item.index]!, extent, now));
  // Tick only while the run is live (a span left open in an old log is not).
  const anyRunning =
    now - extent.end <= LIVE_WINDOW_MS && drawnFacts.some((f) => f.status === 'running');
  useEffect(() => {
    if (!anyRunning || replaying) return;
    const timer = setInterval(() => setNow(clock()), 1000);
    return () => clearInterval(timer);
  }, [anyRunning, clock, replaying]);

  // --- layout ------------------------------------------------------------------------
  const template = columnTemplate(columns, widths);
  const tabRow = focusedRow >= 0 ? focusedRow : (list.items[0]?.index ?? -1);
  const id = useId();
  const label = props['aria-label'] ?? 'Span tree';

  return (
    <div
      className={`skein-span-tree${props.className ? ` ${props.className}` : ''}`}
      dir={props.dir}
      style={props.style}
    >
      {props.toolbar !== false && (
        <Toolbar
          filter={filter}
          setFilter={setFilter}
          mode={mode}
          setMode={setMode}
          columns={columns}
          setColumns={setColumns}
          widths={widths}
          setWidth={(c, w) => setWidths((prev) => ({ ...prev, [c]: w }))}
          onExpandAll={() => store.expandAll()}
          onCollapseAll={() => store.collapseAll()}
          onExpandToSelection={() => {
            if (selectedView < 0) return;
            revealed.current = null;
            store.setExpanded(expandToViewNode(shown, store.getSnapshot().expanded, selectedView));
          }}
          canExpandToSelection={selectedView >= 0}
          shownCount={rows.length}
        />
      )}
      <div
        role="treegrid"
        // Focus lives on its rows (roving tabindex); the grid itself is only
        // focusable by script.
        tabIndex={-1}
        aria-label={label}
        aria-busy={snapshot.loading && hydrated}
        aria-rowcount={rows.length + 1}
        aria-colcount={columns.length + 1}
        aria-multiselectable={false}
        className="skein-span-tree__grid"
        // The tracks read the container-query variables on this element
        // (styles.css), so the columns give way by the tree's width.
        style={{ ['--skein-span-tree-columns' as string]: template }}
        onKeyDown={onKeyDown}
      >
        <div role="rowgroup" className="skein-span-tree__head">
          <div
            role="row"
            aria-rowindex={1}
            className="skein-span-tree__row skein-span-tree__row--head"
          >
            <span role="columnheader" aria-colindex={1} className="skein-span-tree__cell">
              Name
            </span>
            {columns.map((c, k) => (
              <span
                role="columnheader"
                key={c}
                aria-colindex={k + 2}
                className={`skein-span-tree__cell skein-span-tree__cell--num skein-span-tree__col--${c}`}
                style={{ gridColumn: k + 2 }}
                title={COLUMN_LABELS[c]}
              >
                {COLUMN_LABELS[c]}
                <ResizeHandle
                  width={widths[c]}
                  onResize={(w) => setWidths((prev) => ({ ...prev, [c]: w }))}
                />
              </span>
            ))}
          </div>
        </div>
        <div
          ref={scrollRef}
          className="skein-span-tree__scroller"
          onScroll={list.onScroll}
          // Layout-critical, so it holds with any stylesheet: the scroller
          // takes the room it is given and never grows with its content.
          style={{ overflow: 'auto', contain: 'size', flex: '1 1 0', minHeight: 0 }}
        >
          <div
            role="rowgroup"
            className="skein-span-tree__body"
            style={{ position: 'relative', height: list.scrollSize }}
          >
            {list.items.map((item, k) => (
              <TreeRow
                key={item.key}
                gridId={id}
                row={item.index}
                top={item.top}
                height={rowHeight}
                view={shown}
                rows={rows}
                facts={drawnFacts[k]!}
                extent={extent}
                columns={columns}
                focusable={item.index === tabRow}
                selected={item.index === selectedRow}
                hovered={sel.hovered !== null && sel.hovered === item.key}
                onClick={(r) => {
                  store.focus(keyOfRow(r));
                  select(keyOfRow(r));
                }}
                onToggle={toggleRow}
                onFocus={(r) => {
                  if (r !== focusedRow) store.focus(keyOfRow(r));
                }}
                onHover={(key) => store.hover(key)}
              />
            ))}
          </div>
        </div>
      </div>
      {rows.length === 0 && !snapshot.loading && (
        <p className="skein-span-tree__empty">
          {filter.query.trim() !== '' ? 'Nothing matches the filter.' : 'No spans yet.'}
        </p>
      )}
    </div>
  );
}
