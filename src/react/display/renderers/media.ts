// The renderers for the rarer MIME types of agent output — HTML, images, SVG
// and diffs — as one chunk that loads the first time one is shown ("pay for
// what you use"): most transcripts hold none of them, and together
// they were what kept `<Transcript>`'s initial chunk above 45 kB gzip.
export { DiffRenderer } from './diff.js';
export { HtmlRenderer } from './html.js';
export { ImageRenderer, SvgRenderer } from './image.js';
