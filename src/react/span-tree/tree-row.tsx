// One row of the span tree's grid and the cells it draws (status, holds, time bar), and a column's resize handle.

import type { PointerEvent as ReactPointerEvent } from 'react';
import { formatDuration, formatTokens } from '../../core/format.js';
import { MAX_INDENT } from '../../core/indent.js';
import { type SpanTreeRows, type SpanTreeView, spanTreeViewKey } from '../../index.js';
import { clampWidth } from './columns.js';
import type { RowFacts } from './facts.js';
import type { SpanTreeColumn } from './span-tree.js';

export interface TreeRowProps {
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

export function TreeRow(p: TreeRowProps) {
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
export function Holds({ facts }: { facts: RowFacts }) {
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
export function columnTemplate(
  columns: readonly SpanTreeColumn[],
  widths: Readonly<Record<SpanTreeColumn, number>>,
): string {
  const tracks = columns.map((c) => {
    const width = c === 'bar' ? `min(${widths[c]}px, 25cqi)` : `${widths[c]}px`;
    return `var(--skein-span-tree-${c}-track, ${width})`;
  });
  return ['minmax(min(8rem, 100%), 1fr)', ...tracks].join(' ');
}

export function StatusIcon({ status }: { status: RowFacts['status'] }) {
  const glyph =
    status === 'error' ? '✕' : status === 'running' ? '●' : status === 'cancelled' ? '◌' : '✓';
  const text = status === 'error' ? 'failed' : status;
  return (
    <span className="skein-span-tree__status" role="img" aria-label={text}>
      {glyph}
    </span>
  );
}

export function TimeBar({
  facts,
  extent,
}: {
  facts: RowFacts;
  extent: { start: number; end: number };
}) {
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
export function ResizeHandle(p: { width: number; onResize: (width: number) => void }) {
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
