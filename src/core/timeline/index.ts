// The timeline: inspect_ai's timeline_build model, metrics, dump/load/filter
// and the branch-recording helper.
export { buildTimeline } from './build.js';
export {
  spanStartTime,
  spanEndTime,
  spanTotalTokens,
  spanIdleTime,
  eventTotalTokens,
  eventEndTime,
  IDLE_THRESHOLD_MS,
} from './metrics.js';
export type { SpanMetricOptions } from './metrics.js';
export { timelineDump, timelineLoad, timelineFilter } from './serialize.js';
export type { TimelineJson, TimelineSpanJson, TimelineEventJson } from './serialize.js';
export { recordBranch } from './branch.js';
export type { RecordBranchOptions, RecordedBranch } from './branch.js';
export type {
  Timeline,
  TimelineSpan,
  TimelineBranch,
  TimelineEvent,
  TimelineItem,
  Outline,
  OutlineNode,
  BuildTimelineOptions,
} from './types.js';
