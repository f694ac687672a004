// The core entry point (`skein`): headless, no DOM, no React, no Node built-ins.
export { VERSION } from './version.js';
export { ImportError, errorMessages, errorMessage, jsonPath } from './errors.js';
export type { Diagnostic, ErrorCode } from './errors.js';
