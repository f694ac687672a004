// Swimlane: layout in time space, the time scale, and the ASCII and SVG text renders.
export { layoutSwimlane } from './layout.js';
export type {
  SwimlaneLayout,
  SwimlaneLayoutOptions,
  SwimlaneRow,
  SwimlaneBar,
  SwimlaneMarker,
  SwimlaneMarkerKind,
  TimeSegment,
} from './layout.js';
export { createTimeScale } from './time-scale.js';
export type { TimeScale, TimeScaleOptions, TimeScalePiece, TimeTick } from './time-scale.js';
export { renderTimelineAscii, formatTokenCount } from './ascii.js';
export type { AsciiSwimlaneOptions } from './ascii.js';
export { renderTimelineSvg, SWIMLANE_SVG_THEMES } from './svg.js';
export type { SwimlaneSvgOptions, SwimlaneSvgTheme } from './svg.js';
