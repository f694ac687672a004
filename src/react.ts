/**
 * `skein/react` — React components and hooks. Requires `react` and `react-dom`
 * (optional peer dependencies of the package). Components only draw: all
 * derived data comes from the core (`skein`).
 *
 * The public names are listed here one by one, on purpose: test/node/public-api.test.ts
 * holds the same list, so adding or removing one is a visible decision.
 * @packageDocumentation
 */
export { SkeinTheme } from './react/theme.js';
export type { SkeinThemeName, SkeinThemeProps } from './react/theme.js';
export { useStoreSelector } from './react/use-store-selector.js';
export type { ExternalStore } from './react/use-store-selector.js';
export type { ViewSourceProps } from './react/view-source.js';
export { useControllable } from './react/use-controllable.js';
export { useEventStream } from './react/use-event-stream.js';
export { useAgUiStream } from './react/live/use-ag-ui-stream.js';
export type { AgUiAgentLike, UseAgUiStreamOptions } from './react/live/use-ag-ui-stream.js';
export { useUIMessagesStream } from './react/live/use-ui-messages-stream.js';
export type { UseUIMessagesStreamOptions } from './react/live/use-ui-messages-stream.js';
export { createRendererRegistry, Display, DisplayProvider } from './react/display/display.js';
export type { DisplayProps, DisplayProviderProps } from './react/display/display.js';
export {
  defaultRenderers,
  diffRenderer,
  htmlRenderer,
  imageRenderer,
  jsonRenderer,
  latexRenderer,
  markdownRenderer,
  plainTextRenderer,
  svgRenderer,
} from './react/display/default-renderers.js';
export { BudgetNotice, defaultDisplayBudget } from './react/display/budget.js';
export type { BudgetNoticeProps } from './react/display/budget.js';
export { RendererErrorBoundary } from './react/display/error-boundary.js';
export type { RendererErrorBoundaryProps } from './react/display/error-boundary.js';
export { CopyButton } from './react/display/copy-button.js';
export type { CopyButtonProps } from './react/display/copy-button.js';
export { MarkdownRenderer } from './react/display/renderers/markdown.js';
export {
  HtmlRenderer,
  SANDBOX_CSP,
  sandboxDocument,
  SandboxedFrame,
} from './react/display/renderers/html.js';
export type { SandboxedFrameProps } from './react/display/renderers/html.js';
export { ImageRenderer, SvgRenderer } from './react/display/renderers/image.js';
export { JsonRenderer, ValueTree } from './react/display/renderers/json-tree.js';
export type { ValueTreeProps } from './react/display/renderers/json-tree.js';
export { PlainText, PlainTextRenderer } from './react/display/renderers/plain-text.js';
export type { PlainTextProps } from './react/display/renderers/plain-text.js';
export { ansiToReact } from './react/display/renderers/ansi.js';
export { DiffRenderer, parseUnifiedDiff } from './react/display/renderers/diff.js';
export type { DiffLine, DiffLineKind } from './react/display/renderers/diff.js';
export { LatexRenderer } from './react/display/renderers/latex.js';
export { loadSanitizer, preloadDisplay } from './react/display/loaders.js';
export type { PreloadDisplayOptions } from './react/display/loaders.js';
export { imageUrlKind, safeImageUrl, safeLinkUrl } from './react/display/url-policy.js';
export type { ImageUrlKind } from './react/display/url-policy.js';
export type { MimeBundle } from './core/events/types.js';
export type { Trust } from './core/display/types.js';
export type {
  DisplayBudget,
  DisplayRenderer,
  RendererComponent,
  RendererProps,
  RendererRegistry,
} from './react/display/types.js';
export { Transcript } from './react/transcript/transcript.js';
export type {
  TranscriptHandle,
  TranscriptProps,
  TranscriptSourceProps,
} from './react/transcript/props.js';
export { readEventHash, writeEventHash } from './react/transcript/hash.js';
export type { ScrollToEventOptions } from './react/transcript/navigation.js';
export type { TranscriptWarning } from './react/transcript/layout.js';
export type { RenderRowBody, RowBodyRenderProps } from './react/transcript/row.js';
export type { TranscriptConnection } from './react/transcript/connection-status.js';
export { PRINT_MAX_EVENTS } from './react/transcript/print-view.js';
export { SpanTree } from './react/span-tree/span-tree.js';
export type {
  SpanTreeColumn,
  SpanTreeFilterState,
  SpanTreeProps,
  SpanTreeSourceProps,
} from './react/span-tree/span-tree.js';
export { useListVirtualizer } from './react/list/use-list-virtualizer.js';
export type { ListVirtualizer, ListVirtualizerOptions } from './react/list/use-list-virtualizer.js';
export type { LayoutProblem, ListItem, MeasuredSizes } from './core/list/engine.js';
export { Player } from './react/player/player.js';
export type { PlayerProps } from './react/player/player.js';
export { useReplayPlayer } from './react/player/use-replay-player.js';
export type { UseReplayPlayerOptions } from './react/player/use-replay-player.js';
export { Swimlane } from './react/swimlane/swimlane.js';
export type {
  SwimlaneProps,
  SwimlaneRange,
  SwimlaneSourceProps,
} from './react/swimlane/swimlane.js';
export { AsciiSwimlane } from './react/swimlane/ascii-swimlane.js';
export type { AsciiSwimlaneProps } from './react/swimlane/ascii-swimlane.js';
export { RunDiff } from './react/run-diff/run-diff.js';
export type { RunDiffInput, RunDiffProps } from './react/run-diff/run-diff.js';
