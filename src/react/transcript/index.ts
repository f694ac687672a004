// `<Transcript>`: the virtualized, live, searchable transcript.
export { Transcript } from './transcript.js';
export type { TranscriptHandle, TranscriptProps, TranscriptSourceProps } from './props.js';
export { readEventHash, writeEventHash } from './hash.js';
export type { ScrollToEventOptions } from './navigation.js';
export type { TranscriptWarning } from './layout.js';
export type { RenderRowBody, RowBodyRenderProps } from './row.js';
export type { TranscriptConnection } from './connection-status.js';
export { PRINT_MAX_EVENTS } from './print-view.js';
export { copyText, downloadText } from './share-actions.js';
