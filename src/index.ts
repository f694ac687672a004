/**
 * `skein` — the headless core. Runs in browsers, workers and Node.
 *
 * The public names are listed here one by one, on purpose: test/node/public-api.test.ts
 * holds the same list, so adding or removing one is a visible decision.
 * @packageDocumentation
 */
export { VERSION } from './core/version.js';
export {
  countDiagnostics,
  errorMessage,
  errorMessages,
  ImportError,
  jsonPath,
  SkeinError,
  SkeinTypeError,
} from './core/errors.js';
export type { Diagnostic, ErrorCode, ImportErrorArgs, SkeinErrorArgs } from './core/errors.js';
export { skeinTracingProcessor } from './core/import/openai-agents/processor.js';
export type {
  SkeinTracingProcessor,
  SkeinTracingProcessorOptions,
  SkeinTracingTarget,
} from './core/import/openai-agents/processor.js';
export type { OpenAiAgentsImportOptions } from './core/import/openai-agents/importer.js';
export type {
  OpenAiAgentsSpan,
  OpenAiAgentsSpanRecord,
  OpenAiAgentsTrace,
  OpenAiAgentsTraceRecord,
} from './core/import/openai-agents/types.js';
export type { ChunkSource, ReadableStreamLike } from './core/chunks.js';
export { importInspectLog, isInspectLog } from './core/import/inspect/inspect-log.js';
export { streamEvalSample, streamInspectSample } from './core/import/inspect/inspect-stream.js';
export type {
  InspectStreamEnd,
  InspectStreamItem,
  InspectStreamOptions,
} from './core/import/inspect/inspect-stream.js';
export { growingSource } from './core/import/growing.js';
export type { GrowingSource } from './core/import/growing.js';
export type {
  InspectEvalSpec,
  InspectLog,
  InspectLogHeader,
  InspectLogOptions,
  InspectSampleEvents,
  InspectSampleSummary,
} from './core/import/inspect/inspect-log.js';
export { EventStream } from './core/stream/event-stream.js';
export type { EventStreamListener, EventStreamSnapshot } from './core/stream/event-stream.js';
export { generateRun } from './core/generate/generate-run.js';
export type { GenerateRunOptions } from './core/generate/generate-run.js';
export { generateRunVariant } from './core/generate/run-variant.js';
export type { RunVariantOptions } from './core/generate/run-variant.js';
export {
  formatBytes,
  formatCount,
  formatDuration,
  formatScore,
  formatTokens,
} from './core/format.js';
export { DISPLAY } from './core/display/types.js';
export type {
  DescribeContext,
  DescribeEventOptions,
  DescriberRegistry,
  Displayable,
  DisplayMetadata,
  DisplayOptions,
  DisplaySource,
  EventDescriber,
  EventDisplay,
  MimeRegistry,
  RendererEntry,
  RendererInfo,
  SelectMimeTypeOptions,
  Trust,
} from './core/display/types.js';
export { displayOf } from './core/display/display-of.js';
export { createDescriberRegistry, describeEvent } from './core/display/describe-event.js';
export { mimeStream, toMimeStream } from './core/display/mime-stream.js';
export type {
  DisplayDataRecord,
  EventRecord,
  JsonSafe,
  MimeStreamOptions,
  MimeStreamRecord,
} from './core/display/mime-stream.js';
export { createMimeRegistry, selectMimeType } from './core/display/mime-registry.js';
export type { MimeRegistryLike } from './core/display/mime-registry.js';
export {
  eventCost,
  eventCountedTokens,
  eventEnd,
  eventEndTime,
  eventError,
  eventOutcome,
  eventStatus,
  eventTokens,
  eventTotalTokens,
  hasEndTime,
  isAbortedEvent,
  isFailedEvent,
} from './core/events/outcome.js';
export type { EventError, EventOutcome, EventStatus, EventTokens } from './core/events/outcome.js';
export { replayStream } from './core/stream/replay.js';
export type { ReplayClock, ReplayStreamOptions } from './core/stream/replay.js';
export { buildReplayTimeline, createReplayPlayer } from './core/stream/replay-player.js';
export type {
  ReplayPlayer,
  ReplayPlayerClock,
  ReplayPlayerOptions,
  ReplayPlayerSnapshot,
  ReplayTimeline,
  ReplayTimelineOptions,
} from './core/stream/replay-player.js';
export { parseEvent, parseEvents } from './core/events/parse.js';
export type {
  ParseEventOptions,
  ParseEventResult,
  ParseEventsResult,
} from './core/events/parse.js';
export { eventTime } from './core/events/event-time.js';
export { deepFreeze, MAX_VALUE_DEPTH, VALUE_CUT_MARKER } from './core/events/freeze.js';
export { createEventBuilders, events } from './core/events/builders.js';
export type { EventBuilderOptions, EventBuilders, EventInit } from './core/events/builders.js';
export {
  INSPECT_EVENT_KINDS,
  isEvent,
  isEventKind,
  isEventOfKind,
  isKnownEvent,
  KNOWN_EVENT_KINDS,
} from './core/events/types.js';
export type {
  AnchorEvent,
  ApprovalEvent,
  BaseEvent,
  BranchEvent,
  ChatCompletionChoice,
  ChatMessage,
  ChatMessageAssistant,
  ChatMessageBase,
  ChatMessageSystem,
  ChatMessageTool,
  ChatMessageUser,
  CheckpointEvent,
  CheckpointSnapshot,
  Citation,
  CompactionEvent,
  Content,
  ContentAudio,
  ContentBase,
  ContentData,
  ContentDocument,
  ContentImage,
  ContentReasoning,
  ContentText,
  ContentToolUse,
  ContentVideo,
  DatasetSample,
  DisplayEvent,
  ErrorEvent,
  EvalError,
  Event,
  EventKind,
  EventOfKind,
  GenerateConfig,
  InfoEvent,
  InputEvent,
  InputField,
  InspectEvent,
  InspectEventKind,
  InterruptEvent,
  JsonChange,
  JsonObject,
  JsonValue,
  KnownEvent,
  LoggerEvent,
  LoggingLevel,
  LoggingMessage,
  Logprob,
  Logprobs,
  MessageEvent,
  MimeBundle,
  ModelCall,
  ModelEvent,
  ModelOutput,
  ModelUsage,
  ProvenanceData,
  SampleInitEvent,
  SampleLimitEvent,
  SandboxEvent,
  Score,
  ScoreEdit,
  ScoreEditEvent,
  ScoreEvent,
  ScoreValue,
  SpanBeginEvent,
  SpanEndEvent,
  StateEvent,
  StepEvent,
  StopReason,
  StoreEvent,
  SubtaskEvent,
  ToolCall,
  ToolCallContent,
  ToolCallError,
  ToolCallErrorType,
  ToolCallView,
  ToolChoice,
  ToolEvent,
  ToolFunction,
  ToolInfo,
  ToolParams,
  UnknownEvent,
} from './core/events/types.js';
export {
  detectFormat,
  formats,
  importAny,
  streamImport,
  summarizeLog,
} from './core/import/index.js';
export type { DetectedFormat, SummarizeLogOptions } from './core/import/index.js';
export type { ImportInput } from './core/import/probe.js';
export { ImportContext, isRecord, own, safeJson } from './core/import/guards.js';
export type { ImportOptions, InventedValue, JsonRecord } from './core/import/guards.js';
export { readJsonLinesAsync } from './core/import/lines.js';
export type { JsonLine } from './core/import/lines.js';
export { EventSink } from './core/import/sink.js';
export type {
  AnyImportOptions,
  FormatId,
  FormatImporter,
  ImportedSample,
  ImportResult,
  IncrementalImporter,
} from './core/import/format.js';
export { importJupyter, isJupyter } from './core/import/jupyter/jupyter.js';
export { importClaudeCode, isClaudeCode } from './core/import/claude-code/claude-code.js';
export { importAcp, isAcp } from './core/import/acp/acp.js';
export { importDefect, isDefect } from './core/import/defect/defect.js';
export { importSkeinEvents, isSkeinEvents } from './core/import/skein-events/skein-events.js';
export { importAgex, isAgex } from './core/import/agex/agex.js';
export { importCantus, isCantus } from './core/import/cantus/cantus.js';
export { importOtlp, isOtlp } from './core/import/otlp/otlp.js';
export { compareSamples, summarizeEvents, summarizeInspectSample } from './core/import/summary.js';
export type { LogSummary, SampleStatus, SampleSummary } from './core/import/summary.js';
export { describeInput } from './core/import/describe-input.js';
export { importOpenHands, isOpenHands } from './core/import/openhands/openhands.js';
export {
  importOpenAiAgentsTrace,
  isOpenAiAgentsTrace,
} from './core/import/openai-agents/openai-agents.js';
export { fromAgUi, importAgUi, isAgUi } from './core/import/ag-ui/ag-ui.js';
export type {
  AgUiAttributed,
  AgUiBase,
  AgUiContentPart,
  AgUiEvent,
  AgUiEventInput,
  AgUiInterrupt,
  AgUiMessage,
  AgUiMetadata,
  AgUiPartSource,
  AgUiPatchOperation,
  AgUiRunInput,
  AgUiRunOutcome,
  AgUiTokenUsage,
  AgUiToolCall,
} from './core/import/ag-ui/types.js';
export {
  fromUIMessages,
  fromUIMessageStream,
  importUIMessages,
  isVercelAi,
} from './core/import/vercel-ai/vercel-ai.js';
export type { UIMessagesAdapter } from './core/import/vercel-ai/vercel-ai.js';
export type {
  UIMessage,
  UIMessageChunk,
  UIMessageChunkInput,
  UIMessagePart,
  UIToolPart,
  UIToolState,
  VercelProviderMetadata,
} from './core/import/vercel-ai/types.js';
export { createLiveAdapter } from './core/import/live.js';
export type { LiveAdapter, LiveAdapterOptions } from './core/import/live.js';
export { buildTimeline } from './core/timeline/build.js';
export {
  spanEndTime,
  spanIdleTime,
  spanStartTime,
  spanTotalTokens,
} from './core/timeline/metrics.js';
export type { SpanMetricOptions } from './core/timeline/metrics.js';
export { timelineDump, timelineLoad } from './core/timeline/serialize.js';
export { TimelineDecoder, timelineWireOf } from './core/timeline/wire.js';
export type { TimelineWire } from './core/timeline/wire.js';
export type {
  TimelineEventJson,
  TimelineJson,
  TimelineSpanJson,
} from './core/timeline/serialize.js';
export type {
  BuildTimelineOptions,
  Outline,
  OutlineNode,
  Timeline,
  TimelineBranch,
  TimelineEvent,
  TimelineItem,
  TimelineSpan,
} from './core/timeline/types.js';
export { layoutSwimlane, swimlaneBarDetails } from './core/swimlane/layout.js';
export type {
  SwimlaneBar,
  SwimlaneBarDetails,
  SwimlaneLayout,
  SwimlaneLayoutOptions,
  SwimlaneMarker,
  SwimlaneMarkerKind,
  SwimlaneRow,
  TimeSegment,
} from './core/swimlane/layout.js';
export { canDrillInto, drillTimeline, findSpanPath } from './core/swimlane/drill.js';
export type { SwimlaneCrumb, SwimlaneDrill } from './core/swimlane/drill.js';
export { createTimeScale } from './core/swimlane/time-scale.js';
export type {
  TimeScale,
  TimeScaleOptions,
  TimeScalePiece,
  TimeTick,
} from './core/swimlane/time-scale.js';
export { renderTimelineAscii } from './core/swimlane/ascii.js';
export type { AsciiSwimlaneOptions } from './core/swimlane/ascii.js';
export { renderTimelineSvg, SWIMLANE_SVG_THEMES } from './core/swimlane/svg.js';
export type { SwimlaneSvgOptions, SwimlaneSvgTheme } from './core/swimlane/svg.js';
export {
  createSwimlaneAxis,
  fitViewport,
  isFitted,
  panViewport,
  projectViewport,
  swimlaneTicks,
  zoomViewport,
} from './core/swimlane/viewport.js';
export type {
  SwimlaneAxis,
  SwimlaneBreak,
  SwimlaneProjection,
  SwimlaneTick,
  SwimlaneViewOptions,
  SwimlaneViewport,
} from './core/swimlane/viewport.js';
export {
  createSwimlaneIndex,
  hitTestSwimlane,
  swimlaneDensity,
  windowSwimlane,
} from './core/swimlane/visible.js';
export type {
  SwimlaneDrawActivity,
  SwimlaneDrawBar,
  SwimlaneDrawMarker,
  SwimlaneDrawRow,
  SwimlaneDrawStrip,
  SwimlaneHit,
  SwimlaneIndex,
  SwimlaneWindowOptions,
} from './core/swimlane/visible.js';
export {
  buildEventTree,
  eventSequence,
  eventTreeNode,
  eventTreeNodeKey,
  eventTreeNodeUuid,
} from './core/tree/event-tree.js';
export type {
  EventTree,
  EventTreeChange,
  EventTreeEventNode,
  EventTreeFilter,
  EventTreeNode,
  EventTreeNodeBase,
  EventTreeSpan,
  EventTreeSpanNode,
} from './core/tree/event-tree.js';
export { previousEventTree } from './core/tree/links.js';
export { createEventTreeBuilder } from './core/tree/incremental.js';
export type { EventTreeBuilder, EventTreeBuilderOptions } from './core/tree/incremental.js';
export { visibleRow, visibleRows } from './core/tree/visible-rows.js';
export type { VisibleRow, VisibleRows } from './core/tree/visible-rows.js';
export { createEventTreeFeed } from './core/tree/feed.js';
export type {
  EventTreeFeed,
  EventTreeFeedOptions,
  EventTreeFeedSnapshot,
  EventTreeSource,
} from './core/tree/feed.js';
export { sharedEventTreeFeed } from './core/tree/shared-feed.js';
export { eventTreeIndexOf } from './core/tree/node-index.js';
export {
  buildSpanTreeView,
  spanTreeViewIndexOf,
  spanTreeViewKey,
  spanTreeViewNodeOf,
} from './core/tree/outline.js';
export type { SpanTreeView, SpanTreeViewOptions } from './core/tree/outline.js';
export { filterSpanTreeView } from './core/tree/filter.js';
export type { SpanTreeFilter } from './core/tree/filter.js';
export {
  expandSiblings,
  expandToViewNode,
  spanTreeRowOf,
  spanTreeRows,
} from './core/tree/tree-rows.js';
export type { SpanTreeRows } from './core/tree/tree-rows.js';
export { TREE_TYPEAHEAD_START, treeKeyAction } from './core/tree/keyboard.js';
export type {
  TreeKeyAction,
  TreeKeyInput,
  TreeKeyRows,
  TreeTypeahead,
} from './core/tree/keyboard.js';
export { LIVE_WINDOW_MS, liveEnd, rowFacts, runExtent } from './core/tree/row-facts.js';
export type { RowFacts } from './core/tree/row-facts.js';
export { renderSpanTreeText } from './core/tree/span-tree-text.js';
export type { SpanTreeTextOptions } from './core/tree/span-tree-text.js';
export {
  buildTranscriptRows,
  DEFAULT_HIDDEN_KINDS,
  spanSummary,
  transcriptRowOf,
  transcriptRowOfEvent,
} from './core/transcript/rows.js';
export type { SpanSummary, TranscriptRows, TranscriptRowsOptions } from './core/transcript/rows.js';
export { createTranscriptFind, findMatchOffsets, stepMatch } from './core/transcript/find.js';
export type {
  TranscriptFind,
  TranscriptFindOptions,
  TranscriptFindState,
} from './core/transcript/find.js';
export { transcriptKeyAction } from './core/transcript/keys.js';
export type { TranscriptKeyAction, TranscriptKeyInput } from './core/transcript/keys.js';
export { formatEventHash, parseEventHash } from './core/transcript/hash.js';
export type {
  TranscriptFeed,
  TranscriptFeedOptions,
  TranscriptFeedSnapshot,
  TranscriptSource,
} from './core/transcript/feed.js';
export type { ScrollSpace } from './core/list/scroll-space.js';
export type { KeptHeights, RowHeights } from './core/list/heights.js';
export { sectionCounts } from './core/transcript/sections.js';
export type { SectionCount } from './core/transcript/sections.js';
export { selectedTranscriptEvents, transcriptRowRange } from './core/transcript/selected-events.js';
export {
  alignOffset,
  FIRST_WINDOW_ROWS,
  firstWindow,
  pageTarget,
  resolveAnchor,
  takeAnchor,
  visibleRange,
} from './core/list/window.js';
export type { ListAlign, ScrollAnchor } from './core/list/window.js';
export { carrySizes } from './core/list/carry.js';
export type { KeyedSizes } from './core/list/carry.js';
export { ListEngine } from './core/list/engine.js';
export type {
  LayoutProblem,
  ListDom,
  ListEngineOptions,
  ListItem,
  ListRow,
  ListRowObserver,
  ListScroller,
  ListView,
  ListViewport,
  MeasuredSizes,
} from './core/list/engine.js';
export { createSelectionStore } from './core/selection/selection-store.js';
export type {
  Expansion,
  SelectionSnapshot,
  SelectionStore,
  SelectionStoreOptions,
} from './core/selection/selection-store.js';
export { connectEventStream } from './core/live/connect.js';
export type {
  ConnectEventStreamOptions,
  LiveConnection,
  LiveConnectionSnapshot,
  LiveStatus,
} from './core/live/connect.js';
export {
  eventSourceTransport,
  fetchTransport,
  LiveError,
  webSocketTransport,
} from './core/live/transports.js';
export type {
  EventSourceConstructor,
  FetchLike,
  LiveTransport,
  LiveTransportHandlers,
  WebSocketConstructor,
} from './core/live/transports.js';
export { eventStreamSource } from './core/live/source.js';
export type {
  AbortSignalLike,
  EventStreamSourceOptions,
  SequencedEntry,
  SequencedSource,
  SourceReadOptions,
} from './core/live/source.js';
export { formatEventId, parseEventId } from './core/live/sequence.js';
export type { SseMessage } from './core/live/sse-parser.js';
export { entryJson, LIVE_PROTOCOL } from './core/live/wire.js';
export type { LiveCaughtUp, LiveClose, LiveCloseReason, LiveHello } from './core/live/wire.js';
export { createOtlpRunRegistry } from './core/otlp-runs/registry.js';
export type {
  OtlpIngestResult,
  OtlpRun,
  OtlpRunInfo,
  OtlpRunRegistry,
  OtlpRunRegistryOptions,
  OtlpRunSpill,
  OtlpRunsSnapshot,
  OtlpRunStatus,
} from './core/otlp-runs/types.js';
export type { OtlpRunKind } from './core/otlp-runs/run-key.js';
export { diffRuns, isRunDiffDivergence } from './core/diff/diff-runs.js';
export { createRunDiff } from './core/diff/live.js';
export type { CreateRunDiffOptions, RunDiffStore } from './core/diff/live.js';
export { renderRunDiffText, runDiffDeltas, runDiffSideFacts } from './core/diff/text.js';
export type { RunDiffTextOptions } from './core/diff/text.js';
export {
  buildRunDiffView,
  runDiffKeyAction,
  runDiffRowKey,
  runDiffStepAxis,
  runStepText,
} from './core/diff/view.js';
export type { RunDiffKeyAction, RunDiffView, RunDiffViewOptions } from './core/diff/view.js';
export { DEFAULT_DIFF_IGNORE } from './core/diff/normalize.js';
export { DEFAULT_DIFF_HIDDEN } from './core/diff/steps.js';
export type {
  RunDiffDelta,
  RunDiffOptions,
  RunDiffResult,
  RunDiffRow,
  RunDiffScore,
  RunDiffSide,
  RunDiffSource,
  RunDiffStatus,
  RunDiffTotal,
  RunDiffTotals,
  RunDivergence,
  RunStep,
} from './core/diff/types.js';
export { eventsToJsonArray, eventsToJsonLines } from './core/share/json.js';
export { eventsToMarkdown } from './core/share/markdown.js';
export type { EventsToMarkdownOptions } from './core/share/markdown.js';
