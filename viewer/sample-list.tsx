// The sample list of a multi-sample log: sortable by id, input, epoch, score, tokens,
// duration and errors, filterable; the selected sample is the current one.
// Virtualized on the shared list engine (useListVirtualizer): a log of 10k
// samples draws the rows in view, not 10k (issue 22). An ARIA table of rows
// (divs on a CSS grid: table rows cannot be positioned one by one), with
// `aria-rowcount`/`aria-rowindex` saying where each drawn row is.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useListVirtualizer } from '../src/react.js';
import type { SampleRef, SampleRow } from './load/protocol.js';
import { formatDuration, formatTokens } from './format.js';
import { filterSamples, sortSamples, type SampleSort, type SampleSortKey } from './samples.js';
import { sameSample } from './load/loader.js';
import { useElementSize } from './panes.js';

/** The columns, each with its track in the rows' shared CSS grid template. */
const COLUMNS: {
  key: SampleSortKey;
  label: string;
  track: string;
  /** The least width of the track, em. */
  minEm: number;
  numeric?: boolean;
  /** Whether a row says anything in this column (a column no row fills is left out). */
  has?: (r: SampleRow) => boolean;
}[] = [
  { key: 'id', label: 'Id', track: 'minmax(3em, 1fr)', minEm: 3 },
  { key: 'input', label: 'Input', track: 'minmax(6em, 3fr)', minEm: 6, has: (r) => r.input !== '' },
  {
    key: 'epoch',
    label: 'Epoch',
    track: '4.3em',
    minEm: 4.3,
    numeric: true,
    has: (r) => r.epoch !== 1,
  },
  {
    key: 'score',
    label: 'Score',
    track: '4.3em',
    minEm: 4.3,
    numeric: true,
    has: (r) => r.score !== null,
  },
  {
    key: 'tokens',
    label: 'Tokens',
    track: '4.8em',
    minEm: 4.8,
    numeric: true,
    has: (r) => r.tokens !== null,
  },
  {
    key: 'duration',
    label: 'Time',
    track: '4.5em',
    minEm: 4.5,
    numeric: true,
    has: (r) => r.duration !== null,
  },
  {
    key: 'error',
    label: 'Error',
    track: '4.3em',
    minEm: 4.3,
    has: (r) => r.error !== null || r.limit !== null,
  },
];

export interface SampleListProps {
  samples: readonly SampleRow[];
  selected: SampleRef | null;
  onSelect: (sample: SampleRef) => void;
}

/** Height of a sample row, px (one line; rows are not measured). */
const ROW_HEIGHT = 26;
/** Stable across renders: the virtualizer rebuilds its heights when it changes. */
const rowHeight = () => ROW_HEIGHT;

export function SampleList({ samples, selected, onSelect }: SampleListProps) {
  const [sort, setSort] = useState<SampleSort>({ key: 'id', dir: 'asc' });
  const [query, setQuery] = useState('');
  const rows = useMemo(
    () => sortSamples(filterSamples(samples, query), sort),
    [samples, query, sort],
  );
  const toggle = (key: SampleSortKey) =>
    setSort((s) =>
      s.key === key
        ? { key, dir: s.dir === 'asc' ? 'desc' : 'asc' }
        : { key, dir: key === 'error' ? 'desc' : 'asc' },
    );
  const keyOf = (r: SampleRow) => `${String(r.id)}\u0000${r.epoch}`;
  const current = useMemo(
    () => (selected === null ? -1 : rows.findIndex((r) => sameSample(r, selected))),
    [rows, selected],
  );
  // Columns that would say nothing are left out, so the rest fit a sidebar:
  // Epoch when every sample is epoch 1, Error when none failed or hit a
  // limit, Tokens and Time when the log's summaries lack them. Input is shown
  // only where it has room for a few words beside the others.
  const [measureTable, tableSize] = useElementSize<HTMLDivElement>();
  const [tableEl, setTableEl] = useState<HTMLDivElement | null>(null);
  const tableRef = useCallback(
    (el: HTMLDivElement | null) => {
      measureTable(el);
      setTableEl(el);
    },
    [measureTable],
  );
  const filled = useMemo(() => COLUMNS.filter((c) => !c.has || samples.some(c.has)), [samples]);
  const columns = useMemo(() => {
    if (!filled.some((c) => c.key === 'input')) return filled;
    const em = tableEl ? Number.parseFloat(getComputedStyle(tableEl).fontSize) : NaN;
    const need = filled.reduce((sum, c) => sum + c.minEm, 0) * em;
    const fits = tableSize !== null && need <= tableSize.width;
    return fits ? filled : filled.filter((c) => c.key !== 'input');
  }, [filled, tableEl, tableSize]);
  const visible = new Set(columns.map((c) => c.key));
  const grid = { gridTemplateColumns: columns.map((c) => c.track).join(' ') };
  const scrollRef = useRef<HTMLDivElement>(null);
  const list = useListVirtualizer({
    count: rows.length,
    rows,
    estimateSize: rowHeight,
    getKey: (i) => keyOf(rows[i]!),
    scrollRef,
    measure: false,
    // The current sample's row stays drawn (its button keeps focus).
    keepIndex: current,
  });
  // A deep link to sample 9,000 of 10,000 opens with its row in view.
  const shown = useRef<string | null>(null);
  useEffect(() => {
    const row = rows[current];
    if (!row || shown.current === keyOf(row)) return;
    shown.current = keyOf(row);
    // In view already (a click in the list): stay put. Else to the top: the
    // viewport may not be measured yet at mount, so 'auto' could aim below
    // its real bottom.
    const el = scrollRef.current;
    const drawn = list.items.find((it) => it.index === current);
    const visible =
      el !== null &&
      drawn !== undefined &&
      drawn.top + drawn.size > el.scrollTop &&
      drawn.top < el.scrollTop + el.clientHeight;
    if (!visible) list.scrollToIndex(current, 'start');
    // Only when the current sample changes, not on every scroll.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [current, rows]);

  return (
    <div className="viewer-samples">
      <div className="viewer-samples-bar">
        <input
          type="search"
          className="viewer-input"
          placeholder="Filter: text, has:error"
          aria-label="Filter samples"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
        <span className="viewer-muted" aria-live="polite" data-testid="sample-count">
          {rows.length === samples.length
            ? `${samples.length} samples`
            : `${rows.length} of ${samples.length}`}
        </span>
      </div>
      <div
        ref={tableRef}
        className="viewer-sample-table"
        role="table"
        aria-label="Samples"
        aria-rowcount={rows.length + 1}
      >
        <div role="rowgroup">
          <div
            role="row"
            aria-rowindex={1}
            className="viewer-sample-row viewer-sample-head"
            style={grid}
          >
            {columns.map((c) => (
              <div
                key={c.key}
                role="columnheader"
                aria-sort={
                  sort.key === c.key ? (sort.dir === 'asc' ? 'ascending' : 'descending') : 'none'
                }
                data-numeric={c.numeric ? '' : undefined}
              >
                <button
                  type="button"
                  className="viewer-sort"
                  onClick={() => toggle(c.key)}
                  title={c.label}
                >
                  {c.label}
                  <span aria-hidden="true">
                    {sort.key === c.key ? (sort.dir === 'asc' ? ' ▲' : ' ▼') : ''}
                  </span>
                </button>
              </div>
            ))}
          </div>
        </div>
        <div
          ref={scrollRef}
          className="viewer-scroll"
          role="rowgroup"
          onScroll={list.onScroll}
          data-testid="sample-rows"
        >
          <div style={{ height: list.scrollSize, position: 'relative' }}>
            {list.items.map((item) => {
              const r = rows[item.index]!;
              const isCurrent = item.index === current;
              return (
                <div
                  key={item.key}
                  role="row"
                  aria-rowindex={item.index + 2}
                  className="viewer-sample-row"
                  data-current={isCurrent ? '' : undefined}
                  data-sample={String(r.id)}
                  data-index={item.index}
                  title={r.input}
                  style={{ ...grid, transform: `translateY(${item.top}px)`, height: ROW_HEIGHT }}
                >
                  <div role="rowheader">
                    <button
                      type="button"
                      className="viewer-link"
                      aria-current={isCurrent ? 'true' : undefined}
                      onClick={() => onSelect({ id: r.id, epoch: r.epoch })}
                    >
                      {String(r.id)}
                    </button>
                  </div>
                  {visible.has('input') ? (
                    <div role="cell" className="viewer-muted">
                      {r.input}
                    </div>
                  ) : null}
                  {visible.has('epoch') ? (
                    <div role="cell" data-numeric="">
                      {r.epoch}
                    </div>
                  ) : null}
                  {visible.has('score') ? (
                    <div role="cell" data-numeric="" title={r.scores}>
                      {r.score === null ? '' : String(r.score)}
                    </div>
                  ) : null}
                  {visible.has('tokens') ? (
                    <div role="cell" data-numeric="">
                      {r.tokens === null ? '' : formatTokens(r.tokens)}
                    </div>
                  ) : null}
                  {visible.has('duration') ? (
                    <div role="cell" data-numeric="">
                      {r.duration === null ? '' : formatDuration(r.duration * 1000)}
                    </div>
                  ) : null}
                  {visible.has('error') ? (
                    <div role="cell" className="viewer-error-cell" title={r.error ?? r.limit ?? ''}>
                      {r.error ? 'error' : r.limit ? `${r.limit} limit` : ''}
                    </div>
                  ) : null}
                </div>
              );
            })}
          </div>
        </div>
      </div>
    </div>
  );
}
