export { RunDiff } from './run-diff.js';
export type { RunDiffInput, RunDiffProps } from './run-diff.js';
