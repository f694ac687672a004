import { useMemo, useRef } from 'react';
import {
  findSpanPath,
  type SwimlaneCrumb,
  type SwimlaneDrawRow,
  type SwimlaneProjection,
  type Timeline,
  type swimlaneTicks,
} from '../../index.js';
import { useRovingToolbar } from '../use-roving-toolbar.js';
import { formatDuration } from '../../core/format.js';
import { TICK_CHAR_WIDTH, TOOLBAR_HEIGHT } from './geometry.js';

/** The name of the span with `spanId` under `root`, if any. */
export function findName(root: Timeline['root'], spanId: string): string | null {
  const path = findSpanPath(root, spanId);
  return path === null ? null : path[path.length - 1]!.name;
}

interface ToolbarProps {
  crumbs: readonly SwimlaneCrumb[];
  /** The selected span when it can be drilled into. */
  open: { spanId: string; name: string } | null;
  showBranches: boolean;
  onDrill: (spanId: string | null) => void;
  onShowBranches: (show: boolean) => void;
}

/**
 * Breadcrumbs of the drill (the run's root first, the current view last,
 * `aria-current`), a button to open the selected span, and the branches
 * toggle: one Tab stop (APG toolbar: ← / → between the buttons), Enter
 * and Space press them.
 */
export function Toolbar({ crumbs, open, showBranches, onDrill, onShowBranches }: ToolbarProps) {
  const ref = useRef<HTMLDivElement>(null);
  const roving = useRovingToolbar(ref);
  return (
    <div
      ref={ref}
      role="toolbar"
      aria-label="Swimlane controls"
      className="skein-swimlane__toolbar"
      style={{ height: TOOLBAR_HEIGHT }}
      {...roving}
    >
      <nav aria-label="Drill path" className="skein-swimlane__crumbs">
        <ol>
          {crumbs.map((crumb, i) => (
            <li key={crumb.spanId}>
              {i < crumbs.length - 1 ? (
                <button
                  type="button"
                  className="skein-swimlane__crumb"
                  onClick={() => onDrill(i === 0 ? null : crumb.spanId)}
                >
                  {crumb.label}
                </button>
              ) : (
                <span className="skein-swimlane__crumb" aria-current="location">
                  {crumb.label}
                </span>
              )}
            </li>
          ))}
        </ol>
      </nav>
      {open !== null && (
        <button
          type="button"
          className="skein-swimlane__open"
          aria-label={`Open ${open.name}`}
          onClick={() => onDrill(open.spanId)}
        >
          Open {open.name} ›
        </button>
      )}
      <button
        type="button"
        className="skein-swimlane__toggle"
        aria-pressed={showBranches}
        onClick={() => onShowBranches(!showBranches)}
      >
        Branches
      </button>
    </div>
  );
}

interface AxisProps {
  p: SwimlaneProjection;
  ticks: ReturnType<typeof swimlaneTicks>;
  height: number;
  compact: boolean;
  playheadX: number | null;
  brush: [number, number] | null;
}

export function Axis({ p, ticks, height, compact, playheadX, brush }: AxisProps) {
  return (
    <svg width={p.width} height={height} className="skein-swimlane__axis-svg" aria-hidden="true">
      {ticks.breaks.map((b) => (
        <g key={`b${b.timeStart}`} className="skein-swimlane__break">
          <rect x={b.x0} y={0} width={Math.max(1, b.x1 - b.x0)} height={height} />
          <title>{b.label}</title>
        </g>
      ))}
      {tickLabels(ticks.ticks, p.width, compact).map(({ tick: t, x, anchor }) => (
        <g key={t.time} className="skein-swimlane__tick">
          <line x1={t.viewX} x2={t.viewX} y1={height - 4} y2={height} />
          {x !== null ? (
            <text x={x} y={height - 6} textAnchor={anchor}>
              {t.label}
            </text>
          ) : null}
        </g>
      ))}
      {playheadX !== null && (
        <line
          className="skein-swimlane__playhead-line"
          x1={playheadX}
          x2={playheadX}
          y1={0}
          y2={height}
        />
      )}
      {brush !== null && (
        <rect
          className="skein-swimlane__brush"
          x={Math.min(brush[0], brush[1])}
          y={0}
          width={Math.abs(brush[1] - brush[0])}
          height={height}
        />
      )}
    </svg>
  );
}

/**
 * Where each tick's label goes: after its tick, or before it where the
 * label would run past the axis's end (so the last one is never cut off),
 * or nowhere where it would run into the previous label.
 */
function tickLabels(
  ticks: ReturnType<typeof swimlaneTicks>['ticks'],
  width: number,
  compact: boolean,
): { tick: (typeof ticks)[number]; x: number | null; anchor: 'start' | 'end' }[] {
  const charWidth = compact ? (TICK_CHAR_WIDTH * 9) / 11 : TICK_CHAR_WIDTH;
  let previousEnd = -Infinity;
  return ticks.map((tick) => {
    const w = tick.label.length * charWidth;
    let x0 = tick.viewX + 3;
    let anchor: 'start' | 'end' = 'start';
    if (x0 + w > width - 1) {
      x0 = tick.viewX - 3 - w;
      anchor = 'end';
    }
    if (x0 < previousEnd + 6 || x0 < 0) return { tick, x: null, anchor };
    previousEnd = x0 + w;
    return { tick, x: anchor === 'start' ? x0 : tick.viewX - 3, anchor };
  });
}

/** Legend of a tile: what its colours mean, its length, the rows it has no room for. */
export function Legend({
  height,
  rows,
  duration,
  more,
  labels,
}: {
  height: number;
  rows: readonly SwimlaneDrawRow[];
  duration: number;
  more: number;
  labels: boolean;
}) {
  let model = false;
  let tool = false;
  let error = false;
  for (const row of rows) {
    for (const a of row.activity) {
      if (a.kind === 'model') model = true;
      else tool = true;
    }
    if (!error) error = row.markers.some((m) => m.marker.kind === 'error');
  }
  const agents = rows.length + more;
  return (
    <div className="skein-swimlane__legend" style={{ height }}>
      {model && (
        <span className="skein-swimlane__key" data-kind="model">
          model
        </span>
      )}
      {tool && (
        <span className="skein-swimlane__key" data-kind="tool">
          tool
        </span>
      )}
      {error && (
        <span className="skein-swimlane__key" data-kind="error">
          error
        </span>
      )}
      <span className="skein-swimlane__legend-end">
        {labels && more === 0 ? '' : `${agents} ${agents === 1 ? 'lane' : 'lanes'} · `}
        {formatDuration(duration)}
      </span>
    </div>
  );
}

interface MinimapProps {
  /** Bars per px of the fitted view; `null` until computed. */
  density: Uint32Array | null;
  fitted: SwimlaneProjection;
  p: SwimlaneProjection;
  height: number;
}

export function Minimap({ density, fitted, p, height }: MinimapProps) {
  const path = useMemo(() => {
    if (density === null) return null;
    let max = 1;
    for (const c of density) if (c > max) max = c;
    let d = `M0 ${height}`;
    density.forEach((c, i) => {
      d += `L${i} ${height - 2 - ((height - 4) * c) / max}`;
    });
    return `${d}L${density.length} ${height}Z`;
  }, [density, height]);
  const x0 = fitted.x(p.viewport.start);
  const x1 = fitted.x(p.viewport.end);
  return (
    <svg
      width={fitted.width}
      height={height}
      className="skein-swimlane__minimap-svg"
      aria-hidden="true"
    >
      {path !== null && <path className="skein-swimlane__density" d={path} />}
      <rect
        className="skein-swimlane__window"
        x={x0}
        y={0.5}
        width={Math.max(2, x1 - x0)}
        height={height - 1}
      />
    </svg>
  );
}
