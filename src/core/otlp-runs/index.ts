// The OTLP run registry (what the receiver in `skein/server` feeds).
export { createOtlpRunRegistry } from './registry.js';
export type {
  OtlpIngestResult,
  OtlpRun,
  OtlpRunInfo,
  OtlpRunRegistry,
  OtlpRunRegistryOptions,
  OtlpRunSpill,
  OtlpRunStatus,
  OtlpRunsSnapshot,
} from './types.js';
export type { OtlpRunKind } from './run-key.js';
