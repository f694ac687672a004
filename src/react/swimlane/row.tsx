import { Fragment, memo } from 'react';
import {
  swimlaneBarDetails,
  type SwimlaneDrawBar,
  type SwimlaneDrawRow,
  type SwimlaneRow,
  type swimlaneTicks,
} from '../../index.js';
import { formatDuration, formatTokens } from '../../core/format.js';

/** Opacity of the three density levels of strips. */
const STRIP_OPACITY = [0.35, 0.6, 0.9];

/**
 * A row's density strips as one SVG path per density level (bars per px:
 * under 1, under 4, more), so a row of 100k sub-pixel bars is 3 elements.
 */
function stripPaths(row: SwimlaneDrawRow, y: number, h: number): string[] {
  const out = ['', '', ''];
  for (const s of row.strips) {
    const w = Math.max(1, s.x1 - s.x0);
    const perPx = s.count / w;
    const level = perPx < 1 ? 0 : perPx < 4 ? 1 : 2;
    out[level] += `M${s.x0.toFixed(1)} ${y}h${w.toFixed(1)}v${h}h${(-w).toFixed(1)}Z`;
  }
  return out;
}

/** A bar's accessible name: name, duration, tokens. */
export function barText(bar: SwimlaneDrawBar['bar'], rowLabel: string): string {
  const name = rowLabel === bar.name ? bar.name : `${bar.name} (${rowLabel})`;
  return `${name}: ${formatDuration(bar.timeEnd - bar.timeStart)}, ${formatTokens(bar.tokens)} tokens`;
}

/**
 * A bar's tooltip: its accessible name plus idle time and status.
 * Only on hover: the status walks the span's subtree (once, cached), which
 * for the root bar of a 100k-agent run is the whole run — never at mount.
 */
export function barTooltip(bar: SwimlaneDrawBar['bar'], row: SwimlaneRow, index: number): string {
  const text = barText(bar, row.label);
  const details = swimlaneBarDetails(row, index);
  if (details === null) return text;
  const errors =
    details.errors > 0 ? ` (${details.errors} error${details.errors === 1 ? '' : 's'})` : '';
  return `${text}, ${formatDuration(details.idleMs)} idle, ${details.status}${errors}`;
}

/** Rows drawn this tall and up keep a band above their bars for markers, so no marker covers a bar's label. */
const MARKER_BAND_FROM = 10;

interface RowProps {
  row: SwimlaneDrawRow;
  top: number;
  height: number;
  labelWidth: number;
  width: number;
  compact: boolean;
  /** Draw the lane's label at its start (`labelWidth` px). */
  labelled: boolean;
  selected: string | null;
  focused: string | null;
  breaks: ReturnType<typeof swimlaneTicks>['breaks'];
  onFocusBar: (key: string) => void;
  onSelectBar: (key: string) => void;
}

/**
 * One row's drawing. Memoized: a re-render that changes no row (a hover's
 * tooltip, the playhead) skips every row.
 */
export const Row = memo(function Row({
  row,
  top,
  height,
  labelWidth,
  width,
  compact,
  labelled,
  selected,
  focused,
  breaks,
  onFocusBar,
  onSelectBar,
}: RowProps) {
  const data = row.data;
  // Markers sit in a band above the bar (never over its label or its
  // activity) in rows tall enough for one; in thinner tile rows, on the bar.
  const band = height >= MARKER_BAND_FROM ? (compact ? 4 : 7) : 0;
  const barHeight = Math.max(2, Math.min(height - band - (compact ? 1 : 3), 16));
  const y = band > 0 ? band : (height - barHeight) / 2;
  const markerY = band > 0 ? band / 2 : height / 2;
  const markerR = band > 0 ? band / 2 - 0.5 : Math.max(1.5, barHeight / 3);
  return (
    <div
      className="skein-swimlane__row"
      data-key={data.key}
      data-kind={data.kind}
      style={{
        position: 'absolute',
        top: 0,
        left: 0,
        right: 0,
        height,
        transform: `translateY(${top}px)`,
        display: 'flex',
      }}
    >
      {labelled && (
        <div
          className="skein-swimlane__label"
          style={{
            width: labelWidth,
            // Nesting shows in the indent, up to a third of the label column.
            paddingLeft: 4 + Math.min(data.depth * (compact ? 6 : 10), labelWidth / 3),
          }}
          title={data.label}
        >
          {data.kind === 'branch' ? `\u21b3 ${data.label}` : data.label}
        </div>
      )}
      <svg width={width} height={height} className="skein-swimlane__lane">
        {breaks.map((b) => (
          <rect
            key={b.timeStart}
            className="skein-swimlane__idle"
            x={b.x0}
            y={0}
            width={Math.max(1, b.x1 - b.x0)}
            height={height}
          />
        ))}
        {stripPaths(row, y, barHeight).map((d, level) =>
          d === '' ? null : (
            <path
              key={level}
              className="skein-swimlane__strip"
              data-density={level}
              d={d}
              style={{ opacity: STRIP_OPACITY[level] }}
            />
          ),
        )}
        {row.bars.map((b) => {
          const x0 = Math.max(-2, b.x0);
          const x1 = Math.min(width + 2, b.x1);
          const id = b.bar.spanId;
          return (
            <Fragment key={`${id}:${b.index}`}>
              <rect
                className="skein-swimlane__bar"
                data-span-id={id}
                data-kind={data.kind}
                data-utility={b.bar.utility ? '' : undefined}
                data-selected={selected === id ? '' : undefined}
                role="button"
                aria-label={barText(b.bar, data.label)}
                aria-pressed={selected === id}
                tabIndex={compact ? -1 : 0}
                x={x0}
                y={y}
                width={Math.max(1, x1 - x0)}
                height={barHeight}
                rx={2}
                onFocus={() => {
                  if (focused !== id) onFocusBar(id);
                }}
                onClick={() => onSelectBar(id)}
              />
              {b.label !== null && !compact && (
                <text
                  className="skein-swimlane__bar-label"
                  x={Math.max(x0, 0) + 4}
                  y={y + barHeight / 2}
                  dominantBaseline="central"
                  aria-hidden="true"
                >
                  {b.label}
                </text>
              )}
            </Fragment>
          );
        })}
        {row.activity.map((a, k) => (
          <rect
            key={`a${k}`}
            className="skein-swimlane__activity"
            data-kind={a.kind}
            x={Math.max(-2, a.x0)}
            y={y}
            width={Math.max(1, Math.min(width + 2, a.x1) - Math.max(-2, a.x0))}
            height={barHeight}
          />
        ))}
        {row.markers.map((m) => {
          // One element per marker (no wrapper, no <title>: the tooltip
          // comes from hit-testing), so a dense row stays cheap.
          const cx = m.x;
          const r = markerR;
          const cy = markerY;
          const kind = m.marker.kind;
          const key = `m${m.index}`;
          const common = {
            className: 'skein-swimlane__marker',
            'data-kind': kind,
            'data-count': m.count,
          };
          return kind === 'error' ? (
            <circle key={key} {...common} cx={cx} cy={cy} r={r} />
          ) : kind === 'compaction' ? (
            <line
              key={key}
              {...common}
              x1={cx}
              x2={cx}
              y1={band > 0 ? 0.5 : y - 1}
              y2={band > 0 ? band : y + barHeight + 1}
            />
          ) : (
            <path
              key={key}
              {...common}
              d={`M${cx} ${cy - r}L${cx + r} ${cy}L${cx} ${cy + r}L${cx - r} ${cy}Z`}
            />
          );
        })}
      </svg>
    </div>
  );
});
