import { createLazyModule } from './lazy.js';

// The parts of the display stack that load on first use, each a chunk of its
// own: a transcript without markdown, escape codes, trusted HTML or
// rich media never downloads them.

/** react-markdown + remark-gfm and skein's markdown components. */
export const markdownModule = createLazyModule(() => import('./renderers/markdown-body.js'));

/** The ANSI colour parser (anser) for text/plain with escape codes. */
export const ansiModule = createLazyModule(() => import('./renderers/ansi.js'));

/** DOMPurify with skein's rules (trusted HTML and SVG only). */
export const sanitizerModule = createLazyModule(() => import('./sanitize.js'));

/** The HTML, image, SVG and diff renderers (see `renderers/media.ts`). */
export const mediaModule = createLazyModule(() => import('./renderers/media.js'));

/**
 * Which parts {@link preloadDisplay} loads (all by default).
 *
 * @example
 * const options: PreloadDisplayOptions = { markdown: true, sanitizer: false };
 */
export interface PreloadDisplayOptions {
  /** The markdown parser and renderer (`text/markdown`). */
  markdown?: boolean;
  /** The HTML sanitizer (trusted `text/html` and `image/svg+xml`). */
  sanitizer?: boolean;
  /** The ANSI colour parser (`text/plain` with escape codes). */
  ansi?: boolean;
  /** The HTML, image, SVG and diff renderers. */
  media?: boolean;
}

/**
 * Loads the parts of `<Display>` that otherwise load on first use: the
 * markdown renderer (until it arrives, markdown shows as plain text), the ANSI
 * colour parser (until then, text/plain shows without its escape codes), the
 * HTML sanitizer (until it arrives, trusted HTML waits) and the HTML, image,
 * SVG and diff renderers (until they arrive, a one-line "loading" status holds
 * their place). Await it before
 * `renderToString` on the server to send rendered markdown, and before
 * `hydrateRoot` on the client so both sides render the same; or call it early
 * in a client app to skip the plain-text first paint.
 *
 * @example
 * import { renderToString } from 'react-dom/server';
 * import { hydrateRoot } from 'react-dom/client';
 * declare const events: Event[];
 * declare const container: HTMLElement;
 * await preloadDisplay();
 * const html = renderToString(<Transcript events={events} />);
 * // in the browser, before hydrating:
 * await preloadDisplay();
 * hydrateRoot(container, <Transcript events={events} />);
 */
export async function preloadDisplay(options: PreloadDisplayOptions = {}): Promise<void> {
  const { markdown = true, sanitizer = true, ansi = true, media = true } = options;
  await Promise.all([
    media ? mediaModule.load() : undefined,
    markdown ? markdownModule.load() : undefined,
    sanitizer ? sanitizerModule.load() : undefined,
    ansi ? ansiModule.load() : undefined,
  ]);
}

/**
 * The sanitizer skein uses for trusted HTML (see `sanitizeHtml`), loaded on
 * demand: DOMPurify is not part of the initial bundle.
 *
 * @example
 * declare const element: HTMLElement;
 * declare const trustedButUncheckedHtml: string;
 * const sanitizeHtml = await loadSanitizer();
 * element.innerHTML = sanitizeHtml(trustedButUncheckedHtml);
 */
export async function loadSanitizer(): Promise<
  (html: string, options?: { svg?: boolean }) => string
> {
  return (await sanitizerModule.load()).sanitizeHtml;
}
