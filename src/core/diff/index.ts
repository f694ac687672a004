// Run against run: two runs aligned step by step (diffRuns), kept up to date
// while one grows (createRunDiff), and printed as a unified-diff-like report.
export { diffRuns, isRunDiffDivergence } from './diff-runs.js';
export { createRunDiff } from './live.js';
export type { CreateRunDiffOptions, RunDiffStore } from './live.js';
export { renderRunDiffText, runDiffDeltas, runDiffSideFacts } from './text.js';
export {
  buildRunDiffView,
  runDiffKeyAction,
  runDiffRowKey,
  runDiffStepAxis,
  runStepText,
} from './view.js';
export type { RunDiffKeyAction, RunDiffView, RunDiffViewOptions } from './view.js';
export type { RunDiffTextOptions } from './text.js';
export { DEFAULT_DIFF_IGNORE } from './normalize.js';
export { DEFAULT_DIFF_HIDDEN } from './steps.js';
export type {
  RunDiff,
  RunDiffDelta,
  RunDiffOptions,
  RunDiffRow,
  RunDiffScore,
  RunDiffSide,
  RunDiffSource,
  RunDiffStatus,
  RunDiffTotal,
  RunDiffTotals,
  RunDivergence,
  RunStep,
} from './types.js';
