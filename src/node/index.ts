// The Node entry point (`skein/server`): what needs Node built-ins.
export { readLogFile, openRegularFile } from './files.js';
export type { FileIdentity, OpenedFile } from './files.js';
export { readClaudeCodeSession } from './claude-code-session.js';
export type { ClaudeCodeSessionFiles } from './claude-code-session.js';
export { runCli } from './cli.js';
export type { CliIO } from './cli.js';
export * from './server/index.js';
export {
  listLogs,
  describeLogFile,
  LOG_EXTENSIONS,
  MAX_WHOLE_DETECTION_BYTES,
} from './log-list.js';
export type { LogEntry } from './log-list.js';
export { createViewHandler, findViewerDir, VIEWER_CSP } from './view-server.js';
export type { ViewHandler, ViewHandlerOptions } from './view-server.js';
export * from './otlp/index.js';
export { exportRunHtml, readExportedRun, findExportViewerDir, EXPORT_MAX_BYTES } from './export.js';
export type { ExportOptions, ExportResult } from './export.js';
export { redactLog, REDACTED } from './redact.js';
export type { RedactResult } from './redact.js';
export { bundleSite } from './bundle.js';
export type { BundleOptions, BundleResult } from './bundle.js';
