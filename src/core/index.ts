// The core entry point (`skein`): headless, no DOM, no React, no Node built-ins.
export { VERSION } from './version.js';
export {
  ImportError,
  SkeinError,
  SkeinTypeError,
  errorMessages,
  errorMessage,
  jsonPath,
  makeDiagnostic,
  truncatedDiagnostic,
  countDiagnostics,
} from './errors.js';
export type { Diagnostic, ErrorCode, ImportErrorArgs, SkeinErrorArgs } from './errors.js';
export * from './events/index.js';
export * from './import/index.js';
export {
  skeinTracingProcessor,
  type SkeinTracingProcessor,
  type SkeinTracingProcessorOptions,
  type SkeinTracingTarget,
} from './import/openai-agents/processor.js';
export {
  OpenAiAgentsImporter,
  type OpenAiAgentsImportOptions,
} from './import/openai-agents/importer.js';
export type {
  OpenAiAgentsSpan,
  OpenAiAgentsSpanRecord,
  OpenAiAgentsTrace,
  OpenAiAgentsTraceRecord,
} from './import/openai-agents/types.js';
export { chunksOf, isAsyncIterable, isChunkSource, isReadableStreamLike } from './chunks.js';
export type { ChunkSource, ReadableStreamLike } from './chunks.js';
export type {
  InspectLog,
  InspectLogHeader,
  InspectLogOptions,
  InspectEvalSpec,
  InspectSampleSummary,
  InspectSampleEvents,
} from './import/inspect/inspect-log.js';
export * from './timeline/index.js';
export * from './swimlane/index.js';
export { EventStream } from './stream/event-stream.js';
export type { EventStreamSnapshot, EventStreamListener } from './stream/event-stream.js';
export { generateRun } from './generate/generate-run.js';
export type { GenerateRunOptions } from './generate/generate-run.js';
export { generateRunVariant } from './generate/run-variant.js';
export type { RunVariantOptions } from './generate/run-variant.js';
export * from './tree/index.js';
export {
  DISPLAY,
  displayOf,
  displayNotes,
  describeEvent,
  createDescriberRegistry,
  markdownToPlainText,
  markdownSummary,
  mimeStream,
  toMimeStream,
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
export * from './list/index.js';
export * from './selection/index.js';
export * from './live/index.js';
export * from './otlp-runs/index.js';
export { replayStream } from './stream/replay.js';
export type { ReplayStreamOptions, ReplayClock } from './stream/replay.js';
export {
  buildReplayTimeline,
  createReplayPlayer,
  replayCountAt,
  replayPositionOf,
  replayTimeAt,
} from './stream/replay-player.js';
export type {
  ReplayPlayer,
  ReplayPlayerClock,
  ReplayPlayerOptions,
  ReplayPlayerSnapshot,
  ReplayTimeline,
  ReplayTimelineOptions,
} from './stream/replay-player.js';
export * from './diff/index.js';
export * from './share/index.js';
