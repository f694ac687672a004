// The live server (`skein/server`).
export { createEventStreamHandler } from './sse.js';
export type { EventStreamHandler } from './sse.js';
export { createEventStreamFetchHandler } from './fetch.js';
export type { EventStreamFetchHandler } from './fetch.js';
export { createEventStreamWebSocketHandler } from './websocket.js';
export type { EventStreamWebSocketHandler, EventStreamWebSocketOptions } from './websocket.js';
export type { LiveSourceInput } from './resolve-source.js';
export type {
  AuthDecision,
  ConnectionCloseInfo,
  ConnectionCloseReason,
  CorsOptions,
  EventStreamHandlerOptions,
} from './options.js';
export { createHostCheck, hostName, HOST_REFUSED } from './host-check.js';
export type { AllowedHosts } from './host-check.js';
