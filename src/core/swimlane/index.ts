// Swimlane: layout in time space, the time scale, and the ASCII and SVG text renders.
export { layoutSwimlane, swimlaneBarDetails } from './layout.js';
export type {
  SwimlaneBarDetails,
  SwimlaneLayout,
  SwimlaneLayoutOptions,
  SwimlaneRow,
  SwimlaneBar,
  SwimlaneMarker,
  SwimlaneMarkerKind,
  TimeSegment,
} from './layout.js';
export { swimlaneRowActivity } from './activity.js';
export type { SwimlaneActivity, SwimlaneActivityKind } from './activity.js';
export { canDrillInto, drillTimeline, findSpanPath } from './drill.js';
export type { SwimlaneCrumb, SwimlaneDrill } from './drill.js';
export { createTimeScale } from './time-scale.js';
export type { TimeScale, TimeScaleOptions, TimeScalePiece, TimeTick } from './time-scale.js';
export { renderTimelineAscii, formatTokenCount } from './ascii.js';
export type { AsciiSwimlaneOptions } from './ascii.js';
export { renderTimelineSvg, SWIMLANE_SVG_THEMES } from './svg.js';
export type { SwimlaneSvgOptions, SwimlaneSvgTheme } from './svg.js';
export {
  clampViewport,
  createSwimlaneAxis,
  fitViewport,
  formatTickLabel,
  isFitted,
  niceTickStep,
  panViewport,
  projectViewport,
  swimlaneTicks,
  zoomViewport,
} from './viewport.js';
export type {
  SwimlaneAxis,
  SwimlaneBreak,
  SwimlaneProjection,
  SwimlaneTick,
  SwimlaneViewOptions,
  SwimlaneViewport,
} from './viewport.js';
export {
  createSwimlaneIndex,
  hitTestSwimlane,
  swimlaneDensity,
  windowSwimlane,
} from './visible.js';
export type {
  SwimlaneDrawActivity,
  SwimlaneDrawBar,
  SwimlaneDrawMarker,
  SwimlaneDrawRow,
  SwimlaneDrawStrip,
  SwimlaneHit,
  SwimlaneIndex,
  SwimlaneWindowOptions,
} from './visible.js';
