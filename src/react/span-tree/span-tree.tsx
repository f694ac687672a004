import {
  useCallback,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type KeyboardEvent as ReactKeyboardEvent,
  type PointerEvent as ReactPointerEvent,
} from 'react';
import { MAX_INDENT } from '../../core/indent.js';
import {
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
  TREE_TYPEAHEAD_START,
  type SelectionStore,
  type SpanTreeRows,
  type SpanTreeView,
  type TreeKeyRows,
} from '../../index.js';
import { useListVirtualizer } from '../list/use-list-virtualizer.js';
import { useIsomorphicLayoutEffect } from '../list/use-isomorphic-layout-effect.js';
import { useControllable } from '../use-controllable.js';
import { useHydrated } from '../use-hydrated.js';
import { useRovingToolbar } from '../use-roving-toolbar.js';
import { useStoreSelector } from '../use-store-selector.js';
import { formatDuration, formatTokens } from '../../core/format.js';
import { useViewFeed, type ViewSourceProps } from '../view-source.js';
import { LIVE_WINDOW_MS, rowFacts, runExtent, type RowFacts } from './facts.js';

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

const ALL_COLUMNS: readonly SpanTreeColumn[] = ['duration', 'tokens', 'start', 'bar'];
const COLUMN_LABELS: Record<SpanTreeColumn, string> = {
  duration: 'Duration',
  tokens: 'Tokens',
  start: 'Start',
  bar: 'Timeline',
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

interface TreeRowProps {
  gridId: string;
  row: number;
  top: number;
  height: number;
  view: SpanTreeView;
  rows: SpanTreeRows;
  facts: RowFacts;
  extent: { start: number; end: number };
  columns: readonly SpanTreeColumn[];
  focusable: boolean;
  selected: boolean;
  hovered: boolean;
  onClick: (row: number) => void;
  onToggle: (row: number) => void;
  onFocus: (row: number) => void;
  onHover: (key: string | null) => void;
}

function TreeRow(p: TreeRowProps) {
  const { view, rows, row, facts } = p;
  const v = rows.view[row]!;
  const parent = view.parent[v]!;
  const hasChildren = view.childCount[v]! > 0;
  const expanded = rows.expanded[row] === 1;
  const depth = view.depth[v]!;
  const key = spanTreeViewKey(view, v);
  const collapsedHint = hasChildren && !expanded;
  return (
    // Keys are the grid's (one treeKeyAction handler for every row).
    // eslint-disable-next-line jsx-a11y/click-events-have-key-events
    <div
      role="row"
      aria-level={depth + 1}
      aria-posinset={view.posInSet[v]}
      aria-setsize={parent < 0 ? view.rootCount : view.childCount[parent]}
      aria-expanded={hasChildren ? expanded : undefined}
      aria-selected={p.selected}
      aria-rowindex={row + 2}
      tabIndex={p.focusable ? 0 : -1}
      data-row={row}
      data-key={key}
      data-status={facts.status}
      data-aborted={facts.aborted ? '' : undefined}
      data-dim={view.dim[v] === 1 ? '' : undefined}
      data-hovered={p.hovered ? '' : undefined}
      className="skein-span-tree__row"
      style={{
        position: 'absolute',
        top: 0,
        left: 0,
        right: 0,
        height: p.height,
        transform: `translateY(${p.top}px)`,
      }}
      onClick={() => p.onClick(row)}
      onFocus={(e) => {
        if (e.target === e.currentTarget) p.onFocus(row);
      }}
      onPointerEnter={() => p.onHover(key)}
      onPointerLeave={() => p.onHover(null)}
    >
      <span
        role="gridcell"
        aria-colindex={1}
        className="skein-span-tree__cell skein-span-tree__name"
        // Indented up to MAX_INDENT levels (aria-level keeps the true depth),
        // and at most half the name column, so the name keeps the rest: a
        // 100,000-deep row would otherwise start 1.4M px to the right.
        style={{
          paddingInlineStart: `calc(min(${Math.min(depth, MAX_INDENT)} * var(--skein-span-tree-indent, 14px), 50%) + 4px)`,
        }}
      >
        {/* The twisty is for the pointer; the keyboard toggles with ← / → on the row. */}
        <span
          className="skein-span-tree__twisty"
          aria-hidden="true"
          onClick={(e) => {
            if (!hasChildren) return;
            e.stopPropagation();
            p.onToggle(row);
          }}
        >
          {hasChildren ? (expanded ? '▾' : '▸') : ''}
        </span>
        <StatusIcon status={facts.status} />
        <span className="skein-span-tree__label" title={facts.name}>
          {facts.name}
        </span>
        {facts.detail !== '' && (
          <span className="skein-span-tree__detail" title={facts.detail}>
            {facts.detail}
          </span>
        )}
        {facts.aborted && (
          <span
            className="skein-span-tree__aborted"
            title="Rolled back by the agent: shown, not counted in totals"
          >
            rolled back
          </span>
        )}
        {collapsedHint && facts.errors > 0 && (
          <span className="skein-span-tree__failed">{facts.errors} failed</span>
        )}
        {collapsedHint && <Holds facts={facts} />}
      </span>
      {p.columns.map((c, k) => (
        <span
          role="gridcell"
          key={c}
          aria-colindex={k + 2}
          className={`skein-span-tree__cell skein-span-tree__cell--${c === 'bar' ? 'bar' : 'num'} skein-span-tree__col--${c}`}
          style={{ gridColumn: k + 2 }}
        >
          {c === 'duration' &&
            (facts.status === 'running'
              ? `${formatDuration(facts.durationMs)}…`
              : formatDuration(facts.durationMs))}
          {c === 'tokens' && (facts.tokens > 0 ? formatTokens(facts.tokens) : '')}
          {c === 'start' &&
            (Number.isFinite(facts.startMs)
              ? `+${formatDuration(facts.startMs - p.extent.start)}`
              : '')}
          {c === 'bar' && <TimeBar facts={facts} extent={p.extent} />}
        </span>
      ))}
    </div>
  );
}

/** What a collapsed row holds. */
function Holds({ facts }: { facts: RowFacts }) {
  const text = `${facts.events} events${facts.tokens > 0 ? ` · ${formatTokens(facts.tokens)} tokens` : ''}`;
  return (
    <span className="skein-span-tree__holds" title={text}>
      {text}
    </span>
  );
}

/**
 * The grid's tracks: the name, then each column at its width. Each column's
 * track goes through `--skein-span-tree-<column>-track`, which the
 * stylesheet's container queries set to `0px` (with the column's cells
 * hidden) when the tree is too narrow for it: the timeline first (after
 * narrowing with the tree), then start, tokens and duration. The name never
 * goes.
 */
function columnTemplate(
  columns: readonly SpanTreeColumn[],
  widths: Readonly<Record<SpanTreeColumn, number>>,
): string {
  const tracks = columns.map((c) => {
    const width = c === 'bar' ? `min(${widths[c]}px, 25cqi)` : `${widths[c]}px`;
    return `var(--skein-span-tree-${c}-track, ${width})`;
  });
  return ['minmax(min(8rem, 100%), 1fr)', ...tracks].join(' ');
}

function StatusIcon({ status }: { status: RowFacts['status'] }) {
  const glyph =
    status === 'error' ? '✕' : status === 'running' ? '●' : status === 'cancelled' ? '◌' : '✓';
  const text = status === 'error' ? 'failed' : status;
  return (
    <span className="skein-span-tree__status" role="img" aria-label={text}>
      {glyph}
    </span>
  );
}

function TimeBar({ facts, extent }: { facts: RowFacts; extent: { start: number; end: number } }) {
  const total = extent.end - extent.start;
  if (!(total > 0) || !Number.isFinite(facts.startMs)) return null;
  const left = Math.max(0, Math.min(1, (facts.startMs - extent.start) / total));
  const width = Number.isFinite(facts.durationMs) ? Math.max(0, facts.durationMs / total) : 0;
  return (
    <span className="skein-span-tree__bar" aria-hidden="true">
      <span
        className="skein-span-tree__bar-fill"
        style={{
          insetInlineStart: `${left * 100}%`,
          width: `max(2px, ${Math.min(1 - left, width) * 100}%)`,
        }}
      />
    </span>
  );
}

/**
 * A column's resize handle, for the pointer. The keyboard sets widths in
 * the Columns menu (a slider per column): a focusable handle per column
 * would put four Tab stops between the toolbar and the first row.
 */
function ResizeHandle(p: { width: number; onResize: (width: number) => void }) {
  const onPointerDown = (e: ReactPointerEvent<HTMLSpanElement>) => {
    e.preventDefault();
    const startX = e.clientX;
    const startW = p.width;
    const target = e.currentTarget;
    target.setPointerCapture?.(e.pointerId);
    const rtl = getComputedStyle(target).direction === 'rtl';
    const move = (ev: PointerEvent) =>
      p.onResize(clampWidth(startW + (rtl ? 1 : -1) * (ev.clientX - startX)));
    const up = () => {
      target.removeEventListener('pointermove', move);
      target.removeEventListener('pointerup', up);
    };
    target.addEventListener('pointermove', move);
    target.addEventListener('pointerup', up);
  };
  return (
    <span className="skein-span-tree__resize" aria-hidden="true" onPointerDown={onPointerDown} />
  );
}

const MIN_WIDTH = 40;
const MAX_WIDTH = 600;
const clampWidth = (w: number) => Math.max(MIN_WIDTH, Math.min(MAX_WIDTH, Math.round(w)));

interface ToolbarProps {
  filter: SpanTreeFilterState;
  setFilter: (f: SpanTreeFilterState) => void;
  mode: 'spans' | 'events' | 'outline';
  setMode: (m: 'spans' | 'events' | 'outline') => void;
  columns: readonly SpanTreeColumn[];
  setColumns: (c: readonly SpanTreeColumn[]) => void;
  widths: Readonly<Record<SpanTreeColumn, number>>;
  setWidth: (c: SpanTreeColumn, width: number) => void;
  onExpandAll: () => void;
  onCollapseAll: () => void;
  onExpandToSelection: () => void;
  canExpandToSelection: boolean;
  shownCount: number;
}

/**
 * Filter, modes, expand/collapse and the Columns menu: one Tab stop (APG
 * toolbar: ← / → between its controls), so the first row is the second stop
 * into the tree.
 */
function Toolbar(p: ToolbarProps) {
  const ref = useRef<HTMLDivElement>(null);
  const roving = useRovingToolbar(ref);
  return (
    <div
      ref={ref}
      className="skein-span-tree__toolbar"
      role="toolbar"
      aria-label="Span tree controls"
      {...roving}
    >
      <input
        type="search"
        className="skein-span-tree__filter"
        aria-label="Filter by name, kind or text"
        placeholder="Filter"
        value={p.filter.query}
        onChange={(e) => p.setFilter({ ...p.filter, query: e.target.value })}
      />
      <select
        aria-label="Filter mode"
        value={p.filter.mode}
        onChange={(e) => p.setFilter({ ...p.filter, mode: e.target.value as 'strict' | 'loose' })}
      >
        <option value="loose">with context</option>
        <option value="strict">matches only</option>
      </select>
      <select
        aria-label="Show"
        value={p.mode}
        onChange={(e) => p.setMode(e.target.value as 'spans' | 'events' | 'outline')}
      >
        <option value="spans">spans</option>
        <option value="events">all events</option>
        <option value="outline">outline</option>
      </select>
      <button type="button" onClick={p.onExpandAll}>
        Expand all
      </button>
      <button type="button" onClick={p.onCollapseAll}>
        Collapse all
      </button>
      <button type="button" onClick={p.onExpandToSelection} disabled={!p.canExpandToSelection}>
        Expand to selection
      </button>
      <details className="skein-span-tree__columns">
        <summary>Columns</summary>
        <fieldset data-toolbar-popup="">
          <legend className="skein-span-tree__visually-hidden">
            Columns shown and their widths
          </legend>
          {ALL_COLUMNS.map((c) => (
            <div key={c} className="skein-span-tree__column-choice">
              <label>
                <input
                  type="checkbox"
                  checked={p.columns.includes(c)}
                  onChange={(e) =>
                    p.setColumns(
                      e.target.checked
                        ? ALL_COLUMNS.filter((x) => x === c || p.columns.includes(x))
                        : p.columns.filter((x) => x !== c),
                    )
                  }
                />
                {COLUMN_LABELS[c]}
              </label>
              <input
                type="range"
                aria-label={`${COLUMN_LABELS[c]} width`}
                aria-valuetext={`${p.widths[c]} px`}
                min={MIN_WIDTH}
                max={MAX_WIDTH}
                step={10}
                value={p.widths[c]}
                disabled={!p.columns.includes(c)}
                onChange={(e) => p.setWidth(c, clampWidth(Number(e.target.value)))}
              />
            </div>
          ))}
        </fieldset>
      </details>
      <span className="skein-span-tree__count" aria-live="polite">
        {p.shownCount} rows
      </span>
    </div>
  );
}
