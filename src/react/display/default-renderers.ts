import { createElement } from 'react';
import { useLazyModule } from './lazy.js';
import { mediaModule } from './loaders.js';
import { JsonRenderer } from './renderers/json-tree.js';
import { LatexRenderer } from './renderers/latex.js';
import { MarkdownRenderer } from './renderers/markdown.js';
import type * as Media from './renderers/media.js';
import { PlainTextRenderer } from './renderers/plain-text.js';
import type { DisplayRenderer, RendererComponent, RendererProps } from './types.js';

/**
 * A renderer from the media chunk (`renderers/media.ts`), loaded the first
 * time one is shown. Until it arrives, a one-line status holds the
 * place: not the raw data, which for an image is a page of base64 and for
 * HTML is markup that reads as if it were the output. `preloadDisplay()`
 * loads the chunk ahead (server rendering, or no swap on first paint).
 */
function fromMedia(name: keyof typeof Media, what: string): RendererComponent {
  function MediaRenderer(props: RendererProps) {
    const media = useLazyModule(mediaModule);
    if (media) return createElement(media[name], props);
    return createElement(
      'div',
      { className: 'skein-display__loading', role: 'status', 'aria-busy': true },
      `Loading the ${what} renderer…`,
    );
  }
  MediaRenderer.displayName = name;
  return MediaRenderer;
}

const HtmlRenderer = fromMedia('HtmlRenderer', 'HTML');
const SvgRenderer = fromMedia('SvgRenderer', 'SVG');
const ImageRenderer = fromMedia('ImageRenderer', 'image');
const DiffRenderer = fromMedia('DiffRenderer', 'diff');

// Ranks: lower wins (JupyterLab). Rich, readable forms first; markdown before
// HTML because untrusted HTML only gets a fixed-height sandboxed frame, while
// markdown flows with the transcript; text/plain is the last resort.

/**
 * `text/markdown` renderer entry.
 *
 * @example
 * createRendererRegistry([markdownRenderer]);
 */
export const markdownRenderer: DisplayRenderer = {
  name: 'markdown',
  mimeTypes: ['text/markdown'],
  rank: 40,
  safe: true,
  renderer: MarkdownRenderer,
};

/**
 * `text/html` renderer entry (sandboxed frame when untrusted, sanitized when trusted).
 *
 * @example
 * createRendererRegistry([htmlRenderer]);
 */
export const htmlRenderer: DisplayRenderer = {
  name: 'html',
  mimeTypes: ['text/html'],
  rank: 50,
  safe: true,
  renderer: HtmlRenderer,
};

/**
 * `image/svg+xml` renderer entry (an `<img>` when untrusted).
 *
 * @example
 * createRendererRegistry([svgRenderer]);
 */
export const svgRenderer: DisplayRenderer = {
  name: 'svg',
  mimeTypes: ['image/svg+xml'],
  rank: 60,
  safe: true,
  renderer: SvgRenderer,
};

/**
 * Base64 raster image renderer entry.
 *
 * @example
 * createRendererRegistry([imageRenderer]);
 */
export const imageRenderer: DisplayRenderer = {
  name: 'image',
  mimeTypes: ['image/png', 'image/jpeg', 'image/gif', 'image/webp'],
  rank: 70,
  safe: true,
  renderer: ImageRenderer,
};

/**
 * `text/latex` renderer entry (source as code).
 *
 * @example
 * createRendererRegistry([latexRenderer]);
 */
export const latexRenderer: DisplayRenderer = {
  name: 'latex',
  mimeTypes: ['text/latex'],
  rank: 80,
  safe: true,
  renderer: LatexRenderer,
};

/**
 * `application/json` tree renderer entry.
 *
 * @example
 * createRendererRegistry([jsonRenderer]);
 */
export const jsonRenderer: DisplayRenderer = {
  name: 'json',
  mimeTypes: ['application/json'],
  rank: 90,
  safe: true,
  renderer: JsonRenderer,
};

/**
 * Unified diff renderer entry (`text/x-diff`, `text/x-patch`).
 *
 * @example
 * createRendererRegistry([diffRenderer]);
 */
export const diffRenderer: DisplayRenderer = {
  name: 'diff',
  mimeTypes: ['text/x-diff', 'text/x-patch'],
  rank: 95,
  safe: true,
  renderer: DiffRenderer,
};

/**
 * `text/plain` renderer entry (ANSI colours).
 *
 * @example
 * createRendererRegistry([plainTextRenderer]);
 */
export const plainTextRenderer: DisplayRenderer = {
  name: 'plain-text',
  mimeTypes: ['text/plain'],
  rank: 120,
  safe: true,
  renderer: PlainTextRenderer,
};

/**
 * Every built-in renderer, in rank order. All are safe for untrusted data:
 * each one changes how it draws with `trust` instead of refusing.
 *
 * @example
 * import { defaultRenderers } from 'src/react/display/default-renderers.js';
 * declare const myPlotRenderer: DisplayRenderer;
 * createRendererRegistry([...defaultRenderers, myPlotRenderer]);
 */
export const defaultRenderers: readonly DisplayRenderer[] = Object.freeze([
  markdownRenderer,
  htmlRenderer,
  svgRenderer,
  imageRenderer,
  latexRenderer,
  jsonRenderer,
  diffRenderer,
  plainTextRenderer,
]);
