// The core entry point (`skein`): headless, no DOM, no React, no Node built-ins.
export { VERSION } from './version.js';
export { ImportError, errorMessages, errorMessage, jsonPath } from './errors.js';
export type { Diagnostic, ErrorCode } from './errors.js';
export * from './events/index.js';
export { importInspectLog, isInspectLog } from './import/inspect-log.js';
export type {
  InspectLog,
  InspectLogHeader,
  InspectLogOptions,
  InspectEvalSpec,
  InspectSampleSummary,
  InspectSampleEvents,
} from './import/inspect-log.js';
export * from './timeline/index.js';
export * from './swimlane/index.js';
export { EventStream } from './stream/event-stream.js';
export type { EventStreamSnapshot, EventStreamListener } from './stream/event-stream.js';
export { generateRun } from './generate/generate-run.js';
export type { GenerateRunOptions } from './generate/generate-run.js';
export * from './tree/index.js';
export {
  DISPLAY,
  displayOf,
  describeEvent,
  createDescriberRegistry,
  mimeStream,
  selectMimeType,
  createMimeRegistry,
} from './display/index.js';
export type {
  DescribeContext,
  DescribeEventOptions,
  DescriberRegistry,
  Displayable,
  DisplayDataRecord,
  DisplayMetadata,
  DisplayOptions,
  DisplaySource,
  EventDescriber,
  EventDisplay,
  EventRecord,
  EventStatus,
  EventTokens,
  JsonSafe,
  MimeRegistry,
  MimeRegistryLike,
  MimeStreamOptions,
  MimeStreamRecord,
  RendererEntry,
  RendererInfo,
  SelectMimeTypeOptions,
  Trust,
} from './display/index.js';
export * from './transcript/index.js';
