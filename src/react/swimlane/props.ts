import type { Timeline } from '../../index.js';
import type { SelectionStore, SwimlaneLayoutOptions } from '../../index.js';
import type { CSSProperties } from 'react';
import type { ViewSourceProps } from '../view-source.js';

/**
 * Where the swimlane's run comes from: the props every view takes
 * ({@link ViewSourceProps}), or a ready `timeline` (a `buildTimeline`
 * result, drawn as it is).
 *
 * @example
 * declare const run: Event[];
 * const source: SwimlaneSourceProps = { timeline: buildTimeline(run) };
 */
export type SwimlaneSourceProps =
  | (ViewSourceProps & { timeline?: never })
  | { timeline: Timeline; stream?: never; events?: never; iterable?: never; feed?: never };

/** A visible time range, epoch ms `[start, end]`. */
export type SwimlaneRange = readonly [number, number];

/** Props of {@link Swimlane}. */
export type SwimlaneProps = SwimlaneSourceProps & {
  /**
   * A selection store shared with `<Transcript>` and `<SpanTree>`: a click
   * selects the bar's span id, the selected span is highlighted, and the
   * store's `playhead` is drawn. Default: a store of its own.
   */
  selection?: SelectionStore;
  onSelect?: (key: string | null) => void;
  /** The visible range, controlled (epoch ms). `null` shows the whole run. */
  range?: SwimlaneRange | null;
  /** The initial visible range (default: the whole run). */
  defaultRange?: SwimlaneRange | null;
  /** Called with the new range after every zoom, pan, brush or fit (`null`: the whole run). */
  onRangeChange?: (range: SwimlaneRange | null) => void;
  /**
   * Compact tile mode (no toolbar, no minimap, rows squeezed to fit with
   * short lane labels, each agent's model and tool calls drawn in its bars,
   * a legend, the wheel left to the page until the tile is clicked or
   * focused). Default `'auto'`: compact below 420×160 px; once compact, it
   * stays so until 460×200 px, so a container that shrinks and grows by a
   * few pixels (a header that wraps) does not flip it back and forth.
   */
  compact?: boolean | 'auto';
  /** Layout options (`includeUtility`, `idleThresholdMs`, …; `showBranches` is the prop below). */
  layout?: SwimlaneLayoutOptions;
  /**
   * Show each branch as a row under the span it forked from, controlled.
   * Default (uncontrolled): `defaultShowBranches`, else `layout.showBranches`, else `false`;
   * the "Branches" button toggles it.
   */
  showBranches?: boolean;
  defaultShowBranches?: boolean;
  onShowBranchesChange?: (show: boolean) => void;
  /**
   * The span drilled into (its id), controlled: it becomes the view's root and
   * breadcrumbs lead back out. `null` shows the whole run. An id not in the
   * timeline shows the whole run too.
   */
  drill?: string | null;
  /** The initial drilled span (default `null`). */
  defaultDrill?: string | null;
  /** Called with the span drilled into (`null`: back to the whole run). */
  onDrillChange?: (spanId: string | null) => void;
  /** The replay time to draw (epoch ms); overrides the store's `playhead`. */
  playhead?: number | null;
  /** Row height, px (default 24; compact: what fits, 4–16). */
  rowHeight?: number;
  /** Width of each compressed idle gap, px (default 10). */
  idleWidth?: number;
  /** Size assumed before the element is measured (and on the server). Default 800×320. */
  initialSize?: { width: number; height: number };
  /** Accessible name (default `'Swimlane'`). */
  'aria-label'?: string;
  className?: string;
  style?: CSSProperties;
};
