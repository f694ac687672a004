// The OTLP/HTTP receiver (`skein/server`).
export { createOtlpHandler } from './node-handler.js';
export type { OtlpHandler } from './node-handler.js';
export { createOtlpFetchHandler } from './fetch-handler.js';
export type { OtlpFetchHandler } from './fetch-handler.js';
export type { OtlpExportInfo, OtlpHandlerOptions, OtlpTarget } from './receiver.js';
export { createOtlpRunsHandler } from './runs-handler.js';
export type { OtlpRunEntry, OtlpRunsHandler, OtlpRunsHandlerOptions } from './runs-handler.js';
export { createOtlpFileSpill } from './spill.js';
export type { OtlpFileSpill, OtlpFileSpillOptions } from './spill.js';
