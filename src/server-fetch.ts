/**
 * `skein/server/fetch` — the Fetch form of the live handler (`Request →
 * Response`) alone, for edge runtimes (Cloudflare Workers, Vercel Edge, Deno,
 * Bun) and Next.js route handlers. Its import graph holds no Node built-ins
 * (`skein/server` also exports the file helpers and the CLI, which import
 * `node:fs`); test/node/server-fetch-graph.test.ts keeps it so.
 * @packageDocumentation
 */
export { createEventStreamFetchHandler } from './node/server/fetch.js';
export type { EventStreamFetchHandler } from './node/server/fetch.js';
export type { LiveSourceInput } from './node/server/resolve-source.js';
export type {
  AuthDecision,
  ConnectionCloseInfo,
  ConnectionCloseReason,
  CorsOptions,
  EventStreamHandlerOptions,
} from './node/server/options.js';
export { createHostCheck, hostName, HOST_REFUSED } from './node/server/host-check.js';
export type { AllowedHosts } from './node/server/host-check.js';
export { createOtlpFetchHandler } from './node/otlp/fetch-handler.js';
export type { OtlpFetchHandler } from './node/otlp/fetch-handler.js';
export type { OtlpExportInfo, OtlpHandlerOptions, OtlpTarget } from './node/otlp/receiver.js';
