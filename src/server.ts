/**
 * `skein/server` — Node-only helpers: reading log files, the live SSE/WebSocket
 * handlers, the OTLP receiver, the `skein view` handler, export and the CLI.
 *
 * The public names are listed here one by one, on purpose: test/node/public-api.test.ts
 * holds the same list, so adding or removing one is a visible decision.
 * @packageDocumentation
 */
export { openRegularFile, readLogFile } from './node/files.js';
export type { FileIdentity, OpenedFile } from './node/files.js';
export { readClaudeCodeSession } from './node/claude-code-session.js';
export type { ClaudeCodeSessionFiles } from './node/claude-code-session.js';
export { runCli } from './node/cli.js';
export type { CliIO } from './node/cli.js';
export {
  describeLogFile,
  listLogs,
  LOG_EXTENSIONS,
  MAX_WHOLE_DETECTION_BYTES,
} from './node/log-list.js';
export type { LogEntry } from './node/log-list.js';
export { createViewHandler, findViewerDir, VIEWER_CSP } from './node/view-server.js';
export type { ViewHandler, ViewHandlerOptions } from './node/view-server.js';
export {
  EXPORT_MAX_BYTES,
  exportRunHtml,
  findExportViewerDir,
  readExportedRun,
} from './node/export.js';
export type { ExportOptions, ExportResult } from './node/export.js';
export { REDACTED, redactLog } from './node/redact.js';
export type { RedactResult } from './node/redact.js';
export { bundleSite } from './node/bundle.js';
export type { BundleOptions, BundleResult } from './node/bundle.js';
export { createEventStreamHandler } from './node/server/sse.js';
export type { EventStreamHandler } from './node/server/sse.js';
export { createEventStreamFetchHandler } from './node/server/fetch.js';
export type { EventStreamFetchHandler } from './node/server/fetch.js';
export { createEventStreamWebSocketHandler } from './node/server/websocket.js';
export type {
  EventStreamWebSocketHandler,
  EventStreamWebSocketOptions,
} from './node/server/websocket.js';
export type { LiveSourceInput } from './node/server/resolve-source.js';
export type {
  AuthDecision,
  ConnectionCloseInfo,
  ConnectionCloseReason,
  CorsOptions,
  EventStreamHandlerOptions,
} from './node/server/options.js';
export { createHostCheck, HOST_REFUSED, hostName } from './node/server/host-check.js';
export type { AllowedHosts } from './node/server/host-check.js';
export { createOtlpHandler } from './node/otlp/node-handler.js';
export type { OtlpHandler } from './node/otlp/node-handler.js';
export { createOtlpFetchHandler } from './node/otlp/fetch-handler.js';
export type { OtlpFetchHandler } from './node/otlp/fetch-handler.js';
export type { OtlpExportInfo, OtlpHandlerOptions, OtlpTarget } from './node/otlp/receiver.js';
export { createOtlpRunsHandler } from './node/otlp/runs-handler.js';
export type {
  OtlpRunEntry,
  OtlpRunsHandler,
  OtlpRunsHandlerOptions,
} from './node/otlp/runs-handler.js';
export { createOtlpFileSpill } from './node/otlp/spill.js';
export type { OtlpFileSpill, OtlpFileSpillOptions } from './node/otlp/spill.js';
