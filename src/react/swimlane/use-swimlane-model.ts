import { useMemo } from 'react';
import {
  buildTimeline,
  createEventTreeFeed,
  createSwimlaneIndex,
  drillTimeline,
  layoutSwimlane,
  type Timeline,
} from '../../index.js';
import { useStoreSelector } from '../use-store-selector.js';
import { useControllable } from '../use-controllable.js';
import { useViewFeed } from '../view-source.js';
import { DEFER_MARKERS_ITEMS, holdsAtLeast } from './geometry.js';
import type { SwimlaneProps, SwimlaneSourceProps } from './props.js';

function useSourceTimeline(props: SwimlaneSourceProps): { timeline: Timeline; loading: boolean } {
  const feed = useViewFeed(props);
  const snapshot = useStoreSelector(feed ?? NO_FEED, (s) => s);
  const fromFeed = useMemo(
    () => (feed === null ? null : buildTimeline(snapshot.tree.events)),
    [feed, snapshot.tree],
  );
  return {
    timeline: props.timeline ?? fromFeed ?? EMPTY_TIMELINE,
    loading: feed !== null && snapshot.loading,
  };
}

const EMPTY_TIMELINE: Timeline = buildTimeline([]);
const EMPTY_SNAPSHOT = createEventTreeFeed([]).getSnapshot();
const NO_FEED = { getSnapshot: () => EMPTY_SNAPSHOT, subscribe: () => () => {} };

/**
 * What the swimlane draws, before any pixel: the run from its source, the
 * span drilled into (controlled or not), the branches toggle, and the
 * layout and its index for that view.
 */
export function useSwimlaneModel(props: SwimlaneProps) {
  const { timeline: run, loading } = useSourceTimeline(props);
  const layoutOptions = props.layout;
  const [showBranches, setShowBranches] = useControllable(
    props.showBranches,
    props.defaultShowBranches ?? layoutOptions?.showBranches ?? false,
    props.onShowBranchesChange,
  );
  const [drillId, setDrillId] = useControllable(
    props.drill,
    props.defaultDrill ?? null,
    props.onDrillChange,
  );
  const drill = useMemo(() => drillTimeline(run, drillId), [run, drillId]);
  const timeline = drill.timeline;
  const layout = useMemo(
    () => layoutSwimlane(timeline, { ...layoutOptions, showBranches }),
    [timeline, layoutOptions, showBranches],
  );
  const big = useMemo(() => holdsAtLeast(timeline, DEFER_MARKERS_ITEMS), [timeline]);
  const index = useMemo(() => createSwimlaneIndex(layout), [layout]);
  return { loading, showBranches, setShowBranches, setDrillId, drill, layout, big, index };
}
