/**
 * `skein/server` — Node-only helpers: files, the command line, and (later) the
 * SSE/WebSocket server.
 * @packageDocumentation
 */
export * from './node/index.js';
