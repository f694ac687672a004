// `<Transcript>`: the virtualized, live, searchable transcript (issue 6).
export { Transcript } from './transcript.js';
export type { TranscriptHandle, TranscriptProps, TranscriptSourceProps } from './transcript.js';
export { readEventHash, writeEventHash } from './hash.js';
