// The display protocol: MIME bundles, the representation cascade, event
// describers, mimeStream and the pure renderer choice.
export { DISPLAY } from './types.js';
export type {
  MimeBundle,
  Displayable,
  Trust,
  DisplaySource,
  DisplayMetadata,
  DisplayOptions,
  EventStatus,
  EventTokens,
  EventDisplay,
  DescribeEventOptions,
  DescribeContext,
  EventDescriber,
  DescriberRegistry,
  RendererInfo,
  RendererEntry,
  MimeRegistry,
  SelectMimeTypeOptions,
} from './types.js';
export { displayNotes, displayOf, isMimeType } from './display-of.js';
export { describeEvent, createDescriberRegistry } from './describe-event.js';
export { mimeStream, toMimeStream } from './mime-stream.js';
export { markdownToPlainText, markdownSummary } from './markdown-text.js';
export type {
  DisplayDataRecord,
  EventRecord,
  JsonSafe,
  MimeStreamOptions,
  MimeStreamRecord,
} from './mime-stream.js';
export { createMimeRegistry, selectMimeType } from './mime-registry.js';
export type { MimeRegistryLike } from './mime-registry.js';
