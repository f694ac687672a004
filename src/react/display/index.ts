// `<Display>` and the renderers behind it.
export { Display, DisplayProvider, createRendererRegistry } from './display.js';
export type { DisplayProps, DisplayProviderProps } from './display.js';
export {
  defaultRenderers,
  markdownRenderer,
  htmlRenderer,
  svgRenderer,
  imageRenderer,
  latexRenderer,
  jsonRenderer,
  diffRenderer,
  plainTextRenderer,
} from './default-renderers.js';
export { BudgetNotice, defaultDisplayBudget } from './budget.js';
export type { BudgetNoticeProps } from './budget.js';
export { RendererErrorBoundary } from './error-boundary.js';
export type { RendererErrorBoundaryProps } from './error-boundary.js';
export { CopyButton } from './copy-button.js';
export type { CopyButtonProps } from './copy-button.js';
export { MarkdownRenderer, markdownDepth, splitMarkdown } from './renderers/markdown.js';
export { HtmlRenderer, SandboxedFrame, sandboxDocument, SANDBOX_CSP } from './renderers/html.js';
export type { SandboxedFrameProps } from './renderers/html.js';
export { ImageRenderer, SvgRenderer } from './renderers/image.js';
export { JsonRenderer, ValueTree } from './renderers/json-tree.js';
export type { ValueTreeProps } from './renderers/json-tree.js';
export { PlainTextRenderer, PlainText } from './renderers/plain-text.js';
export { ansiToReact } from './renderers/ansi.js';
export type { PlainTextProps } from './renderers/plain-text.js';
export { DiffRenderer, parseUnifiedDiff } from './renderers/diff.js';
export type { DiffLine, DiffLineKind } from './renderers/diff.js';
export { LatexRenderer } from './renderers/latex.js';
export { preloadDisplay, loadSanitizer } from './loaders.js';
export type { PreloadDisplayOptions } from './loaders.js';
export { safeLinkUrl, safeImageUrl, imageUrlKind } from './url-policy.js';
export type { ImageUrlKind } from './url-policy.js';
export type {
  MimeBundle,
  Trust,
  DisplayBudget,
  DisplayRenderer,
  RendererComponent,
  RendererProps,
  RendererRegistry,
} from './types.js';
