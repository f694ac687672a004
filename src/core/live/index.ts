// Live feeds: the client, the source interface the server reads, the wire protocol.
export { connectEventStream } from './connect.js';
export type {
  ConnectEventStreamOptions,
  LiveConnection,
  LiveConnectionSnapshot,
  LiveStatus,
} from './connect.js';
export {
  LiveError,
  eventSourceTransport,
  fetchTransport,
  webSocketTransport,
} from './transports.js';
export type {
  EventSourceConstructor,
  FetchLike,
  LiveTransport,
  LiveTransportHandlers,
  WebSocketConstructor,
} from './transports.js';
export { eventStreamSource } from './source.js';
export type {
  AbortSignalLike,
  EventStreamSourceOptions,
  SequencedEntry,
  SequencedSource,
  SourceReadOptions,
} from './source.js';
export { compareSeq, createStreamId, formatEventId, parseEventId } from './sequence.js';
export { createSseParser } from './sse-parser.js';
export type { SseMessage } from './sse-parser.js';
export { LIVE_PROTOCOL, entryJson } from './wire.js';
export type { LiveCaughtUp, LiveClose, LiveCloseReason, LiveHello } from './wire.js';
