import {
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type CSSProperties,
  type KeyboardEvent as ReactKeyboardEvent,
} from 'react';
import {
  EventStream,
  buildRunDiffView,
  createRunDiff,
  runDiffKeyAction,
  runDiffRowKey,
  runStepText,
  sharedEventTreeFeed,
  type Event,
  type EventTreeFeed,
  type RunDiffResult,
  type RunDiffOptions,
  type RunDiffView,
  type SelectionStore,
} from '../../index.js';
import { runDiffStepEvent } from '../../core/diff/diff-runs.js';
import { useListVirtualizer } from '../list/use-list-virtualizer.js';
import { useIsomorphicLayoutEffect } from '../list/use-isomorphic-layout-effect.js';
import { useHydrated } from '../use-hydrated.js';
import { DiffHeader } from './header.js';
import { DiffOverview } from './overview.js';
import { DiffRow, FoldRow, type RowHandlers } from './rows.js';

/**
 * One run to compare: its events (a finished run), an `EventStream` (live or
 * complete) or an event-tree feed shared with the run's other views.
 *
 * @example
 * declare const events: Event[];
 * const input: RunDiffInput = EventStream.from(events);
 */
export type RunDiffInput = readonly Event[] | EventStream | EventTreeFeed;

/**
 * Props of {@link RunDiff}.
 *
 * @example
 * declare const a: Event[], b: Event[];
 * const props: RunDiffProps = { a, b, names: ['epoch 1', 'epoch 2'], context: 3 };
 */
export interface RunDiffProps {
  /** Run A (the left column). */
  a: RunDiffInput;
  /** Run B (the right column); it may still be running. */
  b: RunDiffInput;
  /** How steps are compared (core `diffRuns` options); keep the object stable. */
  options?: RunDiffOptions;
  /** Column names (default `A`, `B`). */
  names?: readonly [string, string];
  /**
   * Selection stores shared with run A's and run B's `<SpanTree>` and
   * `<Transcript>`: a row selects its steps there, and a step selected
   * there is scrolled to here.
   */
  selectionA?: SelectionStore;
  selectionB?: SelectionStore;
  /** Identical rows kept on each side of a difference (default 2). */
  context?: number;
  /** Both runs' swimlanes on the shared step axis, above the rows (default `true`). */
  overview?: boolean;
  /** Height of a one-line row, px (default 28). */
  rowHeight?: number;
  /** Accessible name (default `'Run comparison'`). */
  'aria-label'?: string;
  className?: string;
  style?: CSSProperties;
}

const OVERSCAN = 6;
/** Budget of one slice of a diff update, ms. */
const DIFF_SLICE_MS = 16;
/** Rows the server renders (no viewport is known there). */
const SSR_VIEWPORT = 600;

function isFeed(input: RunDiffInput): input is EventTreeFeed {
  return !Array.isArray(input) && !(input instanceof EventStream);
}

/**
 * Run against run: two runs aligned step by step in two columns,
 * one scroll — gaps where a step is in one run only, changed steps with a
 * word-level diff of their arguments, outputs and messages, runs of
 * identical steps folded ("37 identical steps", Enter or a click opens
 * them), a header with the deltas, and both runs' swimlanes on the shared
 * step axis. Keyboard: arrows, Home/End, PageUp/PageDown; `n` / `p` next
 * and previous difference, `f` the first divergence; Enter or Space opens a
 * fold or a changed row's full diff.
 *
 * The alignment is core's `createRunDiff` over the runs' shared event-tree
 * feeds: a large run shows its first rows before it is all read, and a run
 * still going is followed as it grows. Virtualized on the shared list
 * engine (100k-step runs draw tens of rows). Self-contained: needs only
 * `skein/styles.css`, fills its parent (or `--skein-run-diff-min-height`,
 * 24rem, in a parent without a height), renders on the server. Agent text is
 * drawn as text, never as HTML.
 *
 * @example
 * import { RunDiff } from 'skein/react';
 * import 'skein/styles.css';
 * declare const epoch1: { events: Event[] }, epoch2: { events: Event[] };
 * <RunDiff a={epoch1.events} b={epoch2.events} names={['epoch 1', 'epoch 2']} />
 */
export function RunDiff(props: RunDiffProps) {
  const { a, b, options } = props;
  const feedA = useMemo(() => (isFeed(a) ? a : sharedEventTreeFeed(a)), [a]);
  const feedB = useMemo(() => (isFeed(b) ? b : sharedEventTreeFeed(b)), [b]);
  // Creating it follows nothing (a render may be thrown away); subscribing does.
  // Updates in slices: the last one, once both runs are read, is the whole
  // diff again (seconds at 100k steps), and it must not hold the page.
  const store = useMemo(
    () => createRunDiff(feedA, feedB, { ...options, sliceMs: DIFF_SLICE_MS }),
    [feedA, feedB, options],
  );
  useEffect(() => () => store.dispose(), [store]);
  const diff = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  const hydrated = useHydrated();
  // Busy while a run is being read, and while the diff is behind a run
  // read to its end (its last update is under way).
  const loading = isBusy(feedA, diff.a.complete) || isBusy(feedB, diff.b.complete);
  // One array while the names stay the same: rows and the header are memoized on it.
  const [nameA = 'A', nameB = 'B'] = props.names ?? [];
  const names = useMemo(() => [nameA, nameB] as const, [nameA, nameB]);

  // --- what is shown -----------------------------------------------------------
  const [folds, setFolds] = useState<ReadonlySet<string>>(() => new Set());
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set());
  const context = props.context ?? 2;
  const view = useMemo(
    () => buildRunDiffView(diff, { context, expanded: folds }),
    [diff, context, folds],
  );
  const indexOfKey = useMemo(() => keyIndex(view), [view]);

  // --- focus (roving, by key, so it survives live updates) ---------------------
  const [focusKey, setFocusKey] = useState<string | null>(null);
  const focusHint = useRef(-1);
  const focused = focusKey === null ? -1 : indexOfKey(focusKey, focusHint.current);
  focusHint.current = focused;

  const rowHeight = props.rowHeight ?? 28;
  const estimateSize = useCallback(
    (v: number) => {
      const r = view.row[v]!;
      if (r < 0) return rowHeight;
      // Three kinds of row, each its own estimate (the list engine learns
      // each one's measured height): one line; a changed step, with a line
      // of notes; a changed step whose texts differ, with three more of
      // them. One estimate for the first two had every changed row measured
      // off and the rows placed again in each scrolled frame.
      if (diff.rows[r]!.status !== 'changed') return rowHeight;
      return hasWords(diff, r) ? rowHeight * 3.6 : rowHeight * 1.8;
    },
    [view, diff, rowHeight],
  );
  const scrollRef = useRef<HTMLDivElement | null>(null);
  const list = useListVirtualizer({
    count: view.length,
    rows: view,
    estimateSize,
    getKey: view.keyOf,
    indexOfKey,
    scrollRef,
    overscan: OVERSCAN,
    keepIndex: focused,
    initialViewportSize: SSR_VIEWPORT,
  });

  const wantDomFocus = useRef(false);
  const focusRow = (v: number) => {
    if (!(v >= 0 && v < view.length)) return;
    setFocusKey(view.keyOf(v));
    wantDomFocus.current = true;
    list.scrollToIndex(v, 'center');
  };
  // Keyboard focus follows the focused row once it is drawn (a far row may
  // take a render: the list keeps the focused row mounted, `keepIndex`).
  useIsomorphicLayoutEffect(() => {
    if (!wantDomFocus.current) return;
    if (focused < 0) {
      wantDomFocus.current = false;
      return;
    }
    const el = scrollRef.current?.querySelector<HTMLElement>(`[data-index="${focused}"]`);
    if (el == null) return;
    wantDomFocus.current = false;
    el.focus({ preventScroll: true });
  });

  const toggle = (v: number) => {
    const r = view.row[v]!;
    const key = view.keyOf(v);
    if (r < 0) {
      // Opened: the focus moves to its first step (the fold row goes away).
      setFolds((prev) => new Set(prev).add(key));
      setFocusKey(runDiffRowKey(diff, view.start[v]!));
      wantDomFocus.current = true;
      return;
    }
    if (diff.rows[r]!.status !== 'changed') return;
    setOpen((prev) => {
      const next = new Set(prev);
      if (!next.delete(key)) next.add(key);
      return next;
    });
  };

  // --- the runs' other views ---------------------------------------------------
  const { selectionA, selectionB } = props;
  // What this view selected itself: not scrolled to again.
  const ownSelection = useRef<{ a: string | null; b: string | null }>({ a: null, b: null });
  const select = (v: number) => {
    const r = view.row[v]!;
    if (r < 0) return;
    const row = diff.rows[r]!;
    if (row.a !== null) {
      ownSelection.current.a = diff.a.steps[row.a]!.uuid;
      selectionA?.select(ownSelection.current.a);
    }
    if (row.b !== null) {
      ownSelection.current.b = diff.b.steps[row.b]!.uuid;
      selectionB?.select(ownSelection.current.b);
    }
  };
  // A step selected in another view of either run: scrolled to here.
  const reveal = (v: number) => {
    setFocusKey(view.keyOf(v));
    list.scrollToIndex(v, 'center');
  };
  useSelectionFollow(selectionA, diff, 'a', view, ownSelection, reveal);
  useSelectionFollow(selectionB, diff, 'b', view, ownSelection, reveal);

  const onKeyDown = (e: ReactKeyboardEvent<HTMLDivElement>) => {
    const action = runDiffKeyAction(
      { key: e.key, ctrlKey: e.ctrlKey, metaKey: e.metaKey, altKey: e.altKey },
      view,
      focused,
      (v, d) => list.pageFrom(v, d),
    );
    if (action.type === 'none') return;
    e.preventDefault();
    if (action.type === 'focus') focusRow(action.row);
    else toggle(action.row);
  };
  const jump = (key: 'n' | 'p' | 'f') => {
    const action = runDiffKeyAction({ key }, view, focused, (v) => v);
    if (action.type === 'focus') focusRow(action.row);
  };
  // The rows' and the header's handlers: stable objects reading the latest
  // render's closures, so memoized rows and the header skip a scroll's render.
  const latest = useRef({ focused, view, setFocusKey, select, toggle, jump, diff });
  latest.current = { focused, view, setFocusKey, select, toggle, jump, diff };
  const handlers = useMemo<RowHandlers>(
    () => ({
      focus(v) {
        const l = latest.current;
        if (v !== l.focused) l.setFocusKey(l.view.keyOf(v));
      },
      click(v) {
        const l = latest.current;
        l.setFocusKey(l.view.keyOf(v));
        l.select(v);
      },
      toggle: (v) => latest.current.toggle(v),
      hover(r, on) {
        const { diff: d } = latest.current;
        const row = d.rows[r];
        if (row === undefined) return;
        if (row.a !== null) selectionA?.hover(on ? d.a.steps[row.a]!.uuid : null);
        if (row.b !== null) selectionB?.hover(on ? d.b.steps[row.b]!.uuid : null);
      },
    }),
    [selectionA, selectionB],
  );
  const onJump = useCallback((key: 'n' | 'p' | 'f') => latest.current.jump(key), []);

  // --- the texts a changed row compares ----------------------------------------
  const words = useWordTexts(diff);
  const anyChanged = diff.counts.changed > 0;
  const tabRow = focused >= 0 ? focused : (list.items[0]?.index ?? -1);
  const label = props['aria-label'] ?? 'Run comparison';
  const rootStyle: CSSProperties = {
    display: 'flex',
    flexDirection: 'column',
    minWidth: 0,
    ...props.style,
  };

  return (
    <section
      className={`skein-run-diff${props.className ? ` ${props.className}` : ''}`}
      aria-label={label}
      style={rootStyle}
    >
      <DiffHeader
        diff={diff}
        names={names}
        loading={loading && hydrated}
        onJump={onJump}
        canJump={diff.firstDivergence !== null}
      />
      {props.overview !== false && diff.rows.length > 0 && (
        <DiffOverview
          diff={diff}
          feedA={feedA}
          feedB={feedB}
          names={names}
          first={list.items[0]?.index ?? 0}
          last={list.items[list.items.length - 1]?.index ?? 0}
          view={view}
          loading={loading}
          onJump={(r) => focusRow(view.displayOf(r))}
        />
      )}
      <div
        role="treegrid"
        tabIndex={-1}
        aria-label={`${label}: ${names[0]} and ${names[1]}, step by step`}
        aria-busy={loading && hydrated}
        aria-rowcount={view.length + 1}
        aria-colcount={3}
        className="skein-run-diff__grid"
        onKeyDown={onKeyDown}
        style={{ display: 'flex', flexDirection: 'column', flex: '1 1 0', minHeight: 0 }}
      >
        <div role="rowgroup" className="skein-run-diff__head">
          <div
            role="row"
            aria-rowindex={1}
            className="skein-run-diff__row skein-run-diff__row--head"
          >
            <span role="columnheader" className="skein-run-diff__cell">
              {names[0]}
            </span>
            <span role="columnheader" className="skein-run-diff__mark">
              <span className="skein-run-diff__visually-hidden">difference</span>
            </span>
            <span role="columnheader" className="skein-run-diff__cell">
              {names[1]}
            </span>
          </div>
        </div>
        <div
          ref={scrollRef}
          className="skein-run-diff__scroller"
          onScroll={list.onScroll}
          // Layout-critical, so it holds with any stylesheet: the scroller
          // takes the room it is given and never grows with its content.
          style={{ overflow: 'auto', contain: 'size', flex: '1 1 0', minHeight: 0 }}
        >
          <div
            role="rowgroup"
            className="skein-run-diff__body"
            style={{ position: 'relative', height: list.ready ? list.scrollSize : undefined }}
          >
            {list.items.map((item) => {
              const v = item.index;
              const r = view.row[v]!;
              const common = {
                v,
                placed: list.ready,
                top: item.top,
                measureRow: list.measureRow,
                focusable: v === tabRow,
                on: handlers,
              };
              if (r < 0) {
                return <FoldRow key={item.key} {...common} count={view.count[v]!} />;
              }
              return (
                <DiffRow
                  key={item.key}
                  {...common}
                  diff={diff}
                  r={r}
                  names={names}
                  first={diff.firstDivergence?.row === r}
                  open={open.has(item.key)}
                  texts={anyChanged ? words : null}
                />
              );
            })}
          </div>
        </div>
      </div>
      {diff.rows.length === 0 && !loading && (
        <p className="skein-run-diff__empty">Neither run has any steps yet.</p>
      )}
    </section>
  );
}

/** Whether a run is still being read, or read to its end while its side of the diff is not. */
function isBusy(feed: EventTreeFeed, diffed: boolean): boolean {
  const s = feed.getSnapshot();
  return s.loading || (s.complete && !diffed);
}

/** Whether row `r` of `diff` is a changed step whose content (not only its steps) differs. */
function hasWords(diff: RunDiffResult, r: number): boolean {
  const row = diff.rows[r]!;
  return row.status === 'changed' && !(row.fields?.length === 1 && row.fields[0] === 'steps');
}

/** `view`'s key → display row lookup: the hint first, else an index built once per view. */
function keyIndex(view: RunDiffView): (key: string, hint: number) => number {
  let map: Map<string, number> | null = null;
  return (key, hint) => {
    if (hint >= 0 && hint < view.length && view.keyOf(hint) === key) return hint;
    if (map === null) {
      map = new Map();
      for (let v = 0; v < view.length; v++) map.set(view.keyOf(v), v);
    }
    return map.get(key) ?? -1;
  };
}

/**
 * The text a changed step's word diff compares, by step (core
 * `runStepText` of the step's event, found in its run's tree).
 */
export interface StepTexts {
  text(side: 'a' | 'b', step: number): string;
}

function useWordTexts(diff: RunDiffResult): StepTexts {
  return useMemo(() => {
    const cache = new Map<string, string>();
    return {
      text(side, step) {
        const key = `${side}${step}`;
        let t = cache.get(key);
        if (t === undefined) {
          // The event the diff compared (not looked up by uuid in the run's
          // tree: that builds an index of the whole tree, a long frame at
          // 100k events).
          const e = runDiffStepEvent(diff, side, step);
          t = e === undefined ? '' : runStepText(e);
          cache.set(key, t);
        }
        return t;
      },
    };
  }, [diff]);
}

/** Scrolls to the row of a step selected elsewhere (another view of the same run). */
function useSelectionFollow(
  store: SelectionStore | undefined,
  diff: RunDiffResult,
  side: 'a' | 'b',
  view: RunDiffView,
  own: { readonly current: { a: string | null; b: string | null } },
  reveal: (v: number) => void,
) {
  const selected = useSyncExternalStore(
    store?.subscribe ?? noSubscribe,
    () => store?.getSnapshot().selected ?? null,
    () => store?.getSnapshot().selected ?? null,
  );
  const shown = useRef<string | null>(null);
  const revealRef = useRef(reveal);
  revealRef.current = reveal;
  useEffect(() => {
    if (selected === null || selected === shown.current || selected === own.current[side]) return;
    const steps = side === 'a' ? diff.a.steps : diff.b.steps;
    const step = steps.findIndex((s) => s.uuid === selected);
    if (step < 0) return;
    const r = diff.rows.findIndex((row) => (side === 'a' ? row.a : row.b) === step);
    if (r < 0) return;
    shown.current = selected;
    revealRef.current(view.displayOf(r));
  }, [selected, diff, side, view, own]);
}

const noSubscribe = () => () => {};
