import { useMemo, useState } from 'react';
import { createSelectionStore } from '../../index.js';
import { useStoreSelector } from '../use-store-selector.js';
import { formatDuration } from '../../core/format.js';
import { Axis, Legend, Minimap, Toolbar, findName } from './parts.js';
import type { SwimlaneProps } from './props.js';
import { Row } from './row.js';
import { useSwimlaneKeys } from './use-swimlane-keys.js';
import { useSwimlaneMinimap } from './use-swimlane-minimap.js';
import { useSwimlaneModel } from './use-swimlane-model.js';
import { useSwimlanePointer } from './use-swimlane-pointer.js';
import { useSwimlaneRows } from './use-swimlane-rows.js';
import { useSwimlaneSize } from './use-swimlane-size.js';
import { useSwimlaneViewport } from './use-swimlane-viewport.js';

export type { SwimlaneProps, SwimlaneRange, SwimlaneSourceProps } from './props.js';

/**
 * The swimlane: the run's timeline, one row per agent (parallel
 * same-name agents in numbered lanes), bars for agent runs, markers for
 * errors, compaction and branches, compressed idle gaps labelled with their
 * real duration, an axis whose ticks fit the zoom, and an overview strip.
 *
 * Only the visible window is drawn: rows virtualize through the list
 * engine, and core's `windowSwimlane` gives the bars of those rows inside
 * the visible time range, merging bars thinner than a pixel into density
 * strips — the DOM stays bounded at any zoom on any run size.
 *
 * Interaction: wheel (or pinch) zooms around the pointer, Shift+wheel and
 * drag pan, dragging on the axis brushes a range to zoom to, double-click
 * fits, the minimap moves the view; keyboard: ←/→ pan, `+`/`-` zoom, `0`
 * fits, Tab walks the bars, Enter selects. In compact mode the wheel stays
 * the page's until the tile is clicked or focused.
 *
 * Self-contained (only `skein/styles.css`), themable through
 * `--skein-swimlane-*` variables, renders on the server (the fitted view at
 * `initialSize`) and hydrates cleanly.
 *
 * @example
 * import 'skein/styles.css';
 * const selection = createSelectionStore();
 * declare function showRange(range: SwimlaneRange | null): void;
 * <Swimlane stream={stream} selection={selection} onRangeChange={showRange} />
 */
export function Swimlane(props: SwimlaneProps) {
  const { loading, showBranches, setShowBranches, setDrillId, drill, layout, big, index } =
    useSwimlaneModel(props);
  const axis = index.axis;
  const rows = layout.rows;

  const [ownStore] = useState(() => createSelectionStore());
  const store = props.selection ?? ownStore;
  const sel = useStoreSelector(store, (s) => s);
  const playhead = props.playhead !== undefined ? props.playhead : sel.playhead;
  const selected = sel.selected;

  const {
    rootRef,
    initial,
    size,
    hydrated,
    drawRows,
    compact,
    axisHeight,
    minimapHeight,
    toolbarHeight,
    legendHeight,
    bodyHeight,
    rowHeight,
    labelWidth,
    barWidth,
    viewOptions,
  } = useSwimlaneSize({
    compact: props.compact,
    initialSize: props.initialSize,
    rowCount: rows.length,
    rowHeight: props.rowHeight,
    idleWidth: props.idleWidth,
  });
  const { p, fitted, setViewport, drillTo, drillable } = useSwimlaneViewport({
    axis,
    viewOptions,
    drill,
    setDrillId,
    range: props.range,
    defaultRange: props.defaultRange,
    onRangeChange: props.onRangeChange,
  });
  const { scrollRef, list, first, drawn, ticks } = useSwimlaneRows({
    rows,
    index,
    p,
    rowHeight,
    compact,
    drawRows,
    hydrated,
    big,
    initialViewportSize: Math.max(1, initial.height - toolbarHeight - axisHeight - minimapHeight),
  });
  const pointer = useSwimlanePointer({
    rootRef,
    scrollRef,
    items: list.items,
    index,
    rows,
    p,
    viewOptions,
    compact,
    labelWidth,
    store,
    onSelect: props.onSelect,
    setViewport,
    drillable,
    drillTo,
  });
  const { hover, active, setActive, brush } = pointer;
  const onKeyDown = useSwimlaneKeys({
    axis,
    p,
    viewOptions,
    drill,
    store,
    select: pointer.select,
    setViewport,
    drillTo,
    setBrush: pointer.setBrush,
    setActive,
  });
  const { fittedProjection, density, onMinimap } = useSwimlaneMinimap({
    index,
    p,
    viewOptions,
    compact,
    labelWidth,
    setViewport,
    setActive,
  });

  const selectedKey = sel.selected;
  // The selected span, if it can be opened: one search per selection, not per frame.
  const openable = useMemo(() => {
    const id = drillable(selected);
    return id === null ? null : { spanId: id, name: findName(drill.timeline.root, id) ?? id };
  }, [drillable, selected, drill]);
  const playheadX = playhead == null ? null : p.x(playhead - axis.origin);
  const label = props['aria-label'] ?? 'Swimlane';
  const hiddenRows = compact ? Math.max(0, rows.length - Math.floor(bodyHeight / rowHeight)) : 0;

  return (
    // The swimlane is one composite widget that handles its own keys and
    // pointer (an `application`, which jsx-a11y does not count as interactive).
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions
    <div
      ref={rootRef}
      // Its own keys (arrows pan, +/- zoom): an application widget.
      role="application"
      aria-roledescription="swimlane"
      aria-label={label}
      aria-busy={loading}
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
      tabIndex={0}
      className={`skein-swimlane${props.className ? ` ${props.className}` : ''}`}
      data-compact={compact ? '' : undefined}
      data-active={active ? '' : undefined}
      data-fitted={fitted ? '' : undefined}
      style={props.style}
      onKeyDown={onKeyDown}
      onFocus={() => setActive(true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setActive(false);
      }}
      onDoubleClick={pointer.onDoubleClick}
    >
      {!compact && (
        <Toolbar
          crumbs={drill.crumbs}
          open={openable}
          showBranches={showBranches}
          onDrill={drillTo}
          onShowBranches={setShowBranches}
        />
      )}
      <div
        className="skein-swimlane__axis"
        style={{ height: axisHeight, paddingLeft: labelWidth }}
        onPointerDown={(e) => pointer.onPointerDown(e, 'brush')}
        onPointerMove={pointer.onPointerMove}
        onPointerUp={pointer.onPointerUp}
        onPointerCancel={pointer.onAxisPointerCancel}
      >
        <Axis
          p={p}
          ticks={ticks}
          height={axisHeight}
          compact={compact}
          playheadX={playheadX}
          brush={brush}
        />
      </div>
      <div
        ref={scrollRef}
        className="skein-swimlane__body"
        onScroll={list.onScroll}
        style={{
          overflowY: compact ? 'hidden' : 'auto',
          overflowX: 'hidden',
          contain: 'size',
          // The rows fill what the swimlane's box leaves them; in a parent
          // with no height, the whole swimlane takes
          // --skein-swimlane-min-height (12rem): never more than its box.
          flex: `1 1 calc(var(--skein-swimlane-min-height, 12rem) - ${toolbarHeight + axisHeight + minimapHeight + legendHeight + 2}px)`,
          minHeight: 0,
          position: 'relative',
        }}
        onPointerDown={(e) => pointer.onPointerDown(e, 'pan')}
        onPointerMove={pointer.onPointerMove}
        onPointerUp={pointer.onPointerUp}
        onPointerLeave={pointer.onBodyPointerLeave}
        onPointerCancel={pointer.onBodyPointerCancel}
      >
        <div style={{ position: 'relative', height: list.scrollSize }}>
          {(drawRows ? list.items : []).map((item) => {
            const row = drawn[item.index - first];
            if (row === undefined) return null;
            return (
              <Row
                key={item.key}
                row={row}
                top={item.top}
                height={rowHeight}
                labelWidth={labelWidth}
                width={barWidth}
                compact={compact}
                labelled={labelWidth > 0}
                selected={selectedKey}
                focused={sel.focused}
                breaks={ticks.breaks}
                onFocusBar={pointer.onFocusBar}
                onSelectBar={pointer.onSelectBar}
              />
            );
          })}
        </div>
        {playheadX !== null && playheadX >= 0 && playheadX <= p.width && (
          <div
            className="skein-swimlane__playhead"
            aria-hidden="true"
            style={{
              position: 'absolute',
              top: 0,
              bottom: 0,
              left: labelWidth + playheadX,
              width: 0,
            }}
          />
        )}
      </div>
      {!compact && (
        <div
          className="skein-swimlane__minimap"
          style={{ height: minimapHeight, paddingLeft: labelWidth }}
          onPointerDown={onMinimap}
          onPointerMove={onMinimap}
        >
          <Minimap density={density} fitted={fittedProjection} p={p} height={minimapHeight} />
        </div>
      )}
      {legendHeight > 0 && (
        <Legend
          height={legendHeight}
          rows={drawn}
          duration={axis.duration}
          more={hiddenRows}
          labels={labelWidth > 0}
        />
      )}
      {hiddenRows > 0 && legendHeight === 0 && (
        <span className="skein-swimlane__more" aria-hidden="true">
          +{hiddenRows}
        </span>
      )}
      {hover !== null && (
        <div
          role="tooltip"
          className="skein-swimlane__tooltip"
          style={{
            position: 'absolute',
            left: Math.min(hover.x + 12, Math.max(0, size.width - 220)),
            top: hover.y + 14,
          }}
        >
          {hover.text}
        </div>
      )}
      <span className="skein-swimlane__visually-hidden" aria-live="polite">
        {fitted
          ? ''
          : `Showing ${formatDuration(p.viewport.end - p.viewport.start)} of ${formatDuration(axis.duration)}`}
      </span>
    </div>
  );
}
