// The span tree's toolbar: filter, mode, columns, expand and collapse.

import { useRef } from 'react';
import { useRovingToolbar } from '../use-roving-toolbar.js';
import { ALL_COLUMNS, COLUMN_LABELS, MAX_WIDTH, MIN_WIDTH, clampWidth } from './columns.js';
import type { SpanTreeColumn, SpanTreeFilterState } from './span-tree.js';

export interface ToolbarProps {
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
export function Toolbar(p: ToolbarProps) {
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
