import { memo, useEffect, useMemo, useState, type PointerEvent as ReactPointerEvent } from 'react';
import {
  buildTimeline,
  layoutSwimlane,
  runDiffStepAxis,
  type EventTreeFeed,
  type RunDiffResult,
  type RunDiffView,
  type SwimlaneLayout,
  type Timeline,
} from '../../index.js';
import { formatCount } from '../../core/format.js';

/** Width of the drawing in its own units (the SVG stretches to its box). */
const W = 1000;
/** Columns the difference strip is bucketed into. */
const BUCKETS = 250;
/** Swimlane rows drawn per run (the main agent and its first sub-agents). */
const MAX_LANES = 4;
const LANE_H = 6;
const STRIP_H = 8;
const GAP = 3;

interface Lane {
  readonly label: string;
  /** Bars in row-axis units: [x0, x1) pairs. */
  readonly bars: readonly (readonly [number, number])[];
}

/**
 * Both runs' swimlanes on the shared step axis, and a strip of where they
 * differ: x is the diff's row (core `runDiffStepAxis` maps each run's time
 * onto it), so a bar in A and a bar in B at the same x are aligned steps.
 * The rows on screen are outlined; a click scrolls to the row under it
 * (the keyboard has `n`/`p`/`f` on the grid).
 */
export function DiffOverview(p: {
  diff: RunDiffResult;
  feedA: EventTreeFeed;
  feedB: EventTreeFeed;
  names: readonly [string, string];
  /** First and last display rows on screen. */
  first: number;
  last: number;
  view: RunDiffView;
  /** A run is still being read: the swimlanes wait for it (each read would redo them). */
  loading: boolean;
  onJump: (row: number) => void;
}) {
  const { diff, view } = p;
  const n = Math.max(1, diff.rows.length);
  const x = (row: number) => (row / n) * W;

  // The swimlanes are drawn once the runs are read, never on the server,
  // and made in six tasks after the render (each run's timeline, its
  // layout, its bars on the axis): at 100k steps the first two are a few
  // hundred ms each, and in the render with the last diff all six were one
  // task of seconds.
  const [made, setMade] = useState<{ diff: RunDiffResult; a: Lane[]; b: Lane[] } | null>(null);
  const { feedA, feedB, loading } = p;
  useEffect(() => {
    if (loading) return;
    let timeline: Timeline | null = null;
    let layout: SwimlaneLayout | null = null;
    let a: Lane[] = [];
    return inTasks([
      () => void (timeline = timelineOf(feedA)),
      () => void (layout = timeline === null ? null : layoutSwimlane(timeline)),
      () => void (a = lanesOf(diff, 'a', layout)),
      () => void (timeline = timelineOf(feedB)),
      () => void (layout = timeline === null ? null : layoutSwimlane(timeline)),
      () => setMade({ diff, a, b: lanesOf(diff, 'b', layout) }),
    ]);
  }, [loading, diff, feedA, feedB]);
  const lanes = made !== null && made.diff === diff && !loading ? made : null;

  const strip = useMemo(() => diffStrip(diff), [diff]);
  const laneCount = (lanes?.a.length ?? 1) + (lanes?.b.length ?? 1);
  const height = STRIP_H + 2 * GAP + laneCount * (LANE_H + 1) + GAP;

  const shownFrom = view.length > 0 ? view.start[Math.min(p.first, view.length - 1)]! : 0;
  const lastV = Math.min(p.last, view.length - 1);
  const shownTo = view.length > 0 ? view.start[lastV]! + view.count[lastV]! : 0;

  const onPointerDown = (e: ReactPointerEvent<SVGSVGElement>) => {
    const box = e.currentTarget.getBoundingClientRect();
    if (box.width <= 0) return;
    const row = Math.floor(((e.clientX - box.left) / box.width) * diff.rows.length);
    p.onJump(Math.max(0, Math.min(diff.rows.length - 1, row)));
  };

  return (
    <div className="skein-run-diff__overview">
      <div style={{ position: 'relative' }}>
        <svg
          role="img"
          aria-label={`Where ${p.names[0]} and ${p.names[1]} differ, over ${formatCount(diff.rows.length)} aligned steps`}
          viewBox={`0 0 ${W} ${height}`}
          preserveAspectRatio="none"
          width="100%"
          height={height * 2}
          onPointerDown={onPointerDown}
        >
          <Drawing diff={diff} lanes={lanes} strip={strip} names={p.names} />
        </svg>
        {/* The rows on screen: a box over the drawing, not a shape in it, so
          scrolling moves one box and never lays the drawing out again. */}
        <div
          className="skein-run-diff__window"
          aria-hidden="true"
          style={{
            position: 'absolute',
            top: 0,
            bottom: 0,
            pointerEvents: 'none',
            left: `${(x(shownFrom) / W) * 100}%`,
            width: `max(2px, ${((x(shownTo) - x(shownFrom)) / W) * 100}%)`,
          }}
        />
      </div>
    </div>
  );
}

/** The lanes and the strip: drawn again only when the diff or the lanes change (not on scroll). */
const Drawing = memo(function Drawing(p: {
  diff: RunDiffResult;
  lanes: { a: Lane[]; b: Lane[] } | null;
  strip: [number, 'changed' | 'only-a' | 'only-b'][];
  names: readonly [string, string];
}) {
  const { lanes, strip } = p;
  const n = Math.max(1, p.diff.rows.length);
  const x = (row: number) => (row / n) * W;
  let y = GAP;
  const drawLanes = (side: 'a' | 'b', list: readonly Lane[] | undefined) => {
    const out = (list ?? []).map((lane, i) => {
      const top = y;
      y += LANE_H + 1;
      return (
        <g key={`${side}${i}`} className={`skein-run-diff__lane skein-run-diff__lane--${side}`}>
          <title>{`${p.names[side === 'a' ? 0 : 1]}: ${lane.label}`}</title>
          {lane.bars.map(([x0, x1], k) => (
            <rect
              key={k}
              x={x(x0)}
              y={top}
              width={Math.max(1.5, x(x1) - x(x0))}
              height={LANE_H}
              rx={1}
            />
          ))}
        </g>
      );
    });
    if (list === undefined) y += LANE_H + 1;
    return out;
  };
  const lanesA = drawLanes('a', lanes?.a);
  const stripTop = (y += GAP - 1);
  y += STRIP_H + GAP;
  const lanesB = drawLanes('b', lanes?.b);
  return (
    <>
      {lanesA}
      <g className="skein-run-diff__strip">
        <rect className="skein-run-diff__strip-bg" x={0} y={stripTop} width={W} height={STRIP_H} />
        {strip.map(([b, status]) => (
          <rect
            key={b}
            data-status={status}
            x={(b / BUCKETS) * W}
            y={stripTop}
            width={Math.max(1.5, W / BUCKETS)}
            height={STRIP_H}
          />
        ))}
      </g>
      {lanesB}
    </>
  );
});

const RANK = { same: 0, 'only-a': 1, 'only-b': 1, changed: 2 } as const;

/** The buckets of rows that differ, each with its most telling status. */
function diffStrip(diff: RunDiffResult): [number, 'changed' | 'only-a' | 'only-b'][] {
  const n = diff.rows.length;
  const worst = new Map<number, 'changed' | 'only-a' | 'only-b'>();
  for (let r = 0; r < n; r++) {
    const status = diff.rows[r]!.status;
    if (status === 'same') continue;
    const b = Math.floor((r / n) * BUCKETS);
    const had = worst.get(b);
    if (had === undefined || RANK[status] > RANK[had]) worst.set(b, status);
  }
  return [...worst];
}

/**
 * Runs `tasks` in order, each in a task of its own (`setTimeout`); returns
 * what stops the rest.
 */
function inTasks(tasks: readonly (() => void)[]): () => void {
  let next = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const run = () => {
    tasks[next++]!();
    if (next < tasks.length) timer = setTimeout(run, 0);
  };
  timer = setTimeout(run, 0);
  return () => clearTimeout(timer);
}

/** A run's timeline (`null` for a run without events). */
function timelineOf(feed: EventTreeFeed): Timeline | null {
  const tree = feed.getSnapshot().tree;
  return tree.events.length === 0 ? null : buildTimeline(tree.events);
}

/** One run's swimlane rows (its agents), laid out in time, mapped onto the row axis. */
function lanesOf(diff: RunDiffResult, side: 'a' | 'b', layout: SwimlaneLayout | null): Lane[] {
  if (layout === null) return [];
  const axis = runDiffStepAxis(diff, side);
  // Bars closer than a unit of the drawing merge: a lane draws at most W rects.
  const unit = Math.max(1, diff.rows.length) / W;
  return layout.rows.slice(0, MAX_LANES).map((row) => {
    const bars: [number, number][] = [];
    for (const bar of row.bars) {
      const x0 = axis.toRow(bar.timeStart);
      const x1 = axis.toRow(bar.timeEnd) + 1;
      const last = bars[bars.length - 1];
      if (last !== undefined && x0 - last[1] < unit) last[1] = Math.max(last[1], x1);
      else bars.push([x0, x1]);
    }
    return { label: row.label, bars };
  });
}
