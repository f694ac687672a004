// Sharing what you selected: events as Markdown for people, and as skein's
// own JSON Lines / JSON for every skein command to read back.
export { eventsToJsonArray, eventsToJsonLines } from './json.js';
export { codeFence, escapeMarkdownInline, eventsToMarkdown } from './markdown.js';
export type { EventsToMarkdownOptions } from './markdown.js';
