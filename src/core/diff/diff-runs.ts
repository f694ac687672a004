/**
 * `diffRuns`: two runs aligned step by step (steps.ts → engine.ts), with
 * counts, the first divergence and run-level totals. The totals come from
 * `summarizeEvents` (tokens, duration, status, scores: the same figures as
 * `skein info`) and the steps' own facts (cost, failures).
 */
import { SkeinError } from '../errors.js';
import type { Event } from '../events/types.js';
import { summarizeEvents } from '../import/summary.js';
import { EventStream } from '../stream/event-stream.js';
import { buildEventTree, type EventTree } from '../tree/event-tree.js';
import { runExtent } from '../tree/row-facts.js';
import { createEventTreeBuilder } from '../tree/incremental.js';
import type { EventTreeFeed } from '../tree/feed.js';
import { createBudget } from './align.js';
import { rowsJob, type AlignMemo } from './engine.js';
import { DEFAULT_DIFF_IGNORE, ignoreSet, type IgnoreSet } from './normalize.js';
import {
  DEFAULT_DIFF_HIDDEN,
  finish,
  stepsJob,
  type Interner,
  type Leaf,
  type StepTable,
} from './steps.js';
import type {
  RunDiffResult,
  RunDiffOptions,
  RunDiffRow,
  RunDiffScore,
  RunDiffSource,
  RunDiffTotal,
  RunDiffTotals,
  RunDivergence,
  RunStep,
} from './types.js';

/** Default of `maxEdits`. */
const DEFAULT_MAX_EDITS = 2000;
/** Rows of context before the first divergence. */
const CONTEXT_ROWS = 3;

/** Options with defaults applied. Internal. */
export interface ResolvedDiffOptions {
  readonly ignore: IgnoreSet;
  readonly hidden: ReadonlySet<string>;
  readonly key: RunDiffOptions['key'];
  readonly maxEdits: number;
}

/** Checks and fills in `options`. Internal. */
export function resolveDiffOptions(fn: string, options: RunDiffOptions = {}): ResolvedDiffOptions {
  const list = (name: string, value: unknown, fallback: readonly string[]): readonly string[] => {
    if (value === undefined) return fallback;
    if (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))
      throw new SkeinError('invalid_argument', fn, name, 'an array of strings', typeof value);
    return value as string[];
  };
  const maxEdits = options.maxEdits ?? DEFAULT_MAX_EDITS;
  if (!Number.isInteger(maxEdits) || maxEdits < 1)
    throw new SkeinError(
      'invalid_argument',
      fn,
      'maxEdits',
      'a whole number ≥ 1',
      String(maxEdits),
    );
  if (options.key !== undefined && typeof options.key !== 'function')
    throw new SkeinError('invalid_argument', fn, 'key', 'a function', typeof options.key);
  return {
    ignore: ignoreSet(list('ignore', options.ignore, DEFAULT_DIFF_IGNORE)),
    hidden: new Set(list('hide', options.hide, DEFAULT_DIFF_HIDDEN)),
    key: options.key,
    maxEdits,
  };
}

/** One run at one moment: its span tree and whether it is finished. Internal. */
export interface RunSnapshot {
  readonly tree: EventTree;
  readonly complete: boolean;
}

function isFeed(source: unknown): source is EventTreeFeed {
  return (
    typeof source === 'object' &&
    source !== null &&
    typeof (source as EventTreeFeed).getSnapshot === 'function' &&
    typeof (source as EventTreeFeed).subscribe === 'function' &&
    typeof (source as EventTreeFeed).dispose === 'function'
  );
}

/** The tree of a finished list: the latest version of each uuid when it holds pending copies. */
export function treeOfEvents(events: readonly Event[]): EventTree {
  for (let i = 0; i < events.length; i++) {
    if (events[i]!.pending === true) return createEventTreeBuilder({ events }).getSnapshot();
  }
  return buildEventTree(events);
}

/** A source as it is now. Internal. */
export function snapshotOf(fn: string, name: string, source: RunDiffSource): RunSnapshot {
  if (source instanceof EventStream) {
    return { tree: buildEventTree(source.latest()), complete: source.complete };
  }
  if (Array.isArray(source)) return { tree: treeOfEvents(source as Event[]), complete: true };
  if (isFeed(source)) {
    const s = source.getSnapshot();
    return { tree: s.tree, complete: s.complete && !s.loading };
  }
  throw new SkeinError(
    'invalid_argument',
    fn,
    name,
    'an array of events, an EventStream or an event-tree feed',
    source === null ? 'null' : typeof source,
  );
}

/**
 * Compares two runs step by step: aligns their steps (spans, turns, model
 * calls, tool calls, messages, errors, …) hierarchically, marks each row
 * `same`, `changed` (with a similarity score and what differs), `only-a` or
 * `only-b`, names the first divergence with its context, and gives per-step
 * and total deltas (tokens, time, cost where the logs have it, failures,
 * scores). The result is plain JSON.
 *
 * Signatures (what makes two steps "the same step"): kind; a tool's function
 * and normalised arguments; a model's name (provider prefix and date
 * dropped); a span's type and name; a message's role and opening words.
 * Ids, times and other volatile fields are ignored (`options.ignore`).
 * Bounded: runs that share nothing are aligned in linear time past an edit
 * budget, and `alignment: 'coarse'` says so. Iterative throughout, whatever
 * the runs' nesting depth.
 *
 * @example
 * const a = generateRun({ seed: 1, events: 400 });
 * const b = generateRun({ seed: 2, events: 400 });
 * const diff = diffRuns(a, b);
 * diff.counts; // { same, changed, onlyA, onlyB }
 * diff.firstDivergence?.row; // index into diff.rows
 */
export function diffRuns(
  a: RunDiffSource,
  b: RunDiffSource,
  options: RunDiffOptions = {},
): RunDiffResult {
  const resolved = resolveDiffOptions('diffRuns', options);
  const sa = snapshotOf('diffRuns', 'a', a);
  const sb = snapshotOf('diffRuns', 'b', b);
  return computeDiff(sa, sb, resolved);
}

/** Reusable pieces between two diffs of growing runs. Internal (`createRunDiff`). */
export interface DiffCache {
  intern: Interner;
  /** Steps of events already seen. */
  leaves?: WeakMap<Event, Leaf>;
  /** Levels and rows of the last diff. */
  memo?: AlignMemo;
  a?: { tree: EventTree; table: StepTable };
  b?: { tree: EventTree; table: StepTable };
}

/** The diff of two snapshots. Internal. */
export function computeDiff(
  sa: RunSnapshot,
  sb: RunSnapshot,
  options: ResolvedDiffOptions,
  cache: DiffCache = { intern: { ids: new Map(), texts: [], hashes: [] } },
): RunDiffResult {
  return finish(diffJob(sa, sb, options, cache));
}

/**
 * {@link computeDiff} as a job: it pauses (yields) every thousand or so
 * steps and rows, so that `createRunDiff` can spread the diff of two large
 * runs over several tasks. A job left unfinished leaves `cache` usable (the
 * memo is replaced only at the end, and every entry is checked before use).
 * Internal.
 */
export function* diffJob(
  sa: RunSnapshot,
  sb: RunSnapshot,
  options: ResolvedDiffOptions,
  cache: DiffCache,
): Generator<void, RunDiffResult> {
  const stepOptions = {
    hidden: options.hidden,
    ignore: options.ignore,
    key: options.key,
    intern: cache.intern,
    ...(cache.leaves !== undefined ? { leaves: cache.leaves } : {}),
  };
  const A =
    cache.a !== undefined && cache.a.tree === sa.tree
      ? cache.a.table
      : yield* stepsJob(sa.tree, stepOptions);
  const B =
    cache.b !== undefined && cache.b.tree === sb.tree
      ? cache.b.table
      : yield* stepsJob(sb.tree, stepOptions);
  cache.a = { tree: sa.tree, table: A };
  cache.b = { tree: sb.tree, table: B };
  const budget = createBudget(
    A.steps.length + B.steps.length,
    options.maxEdits,
    cache.intern.texts,
  );
  const rows = yield* rowsJob(A, B, options.ignore, budget, cache.memo);
  let same = 0;
  let changed = 0;
  let onlyA = 0;
  let onlyB = 0;
  // Indexed: this runs once per diff, too few times to be optimised, and a
  // `for…of` left unoptimised allocates an iterator result per row (8 MB
  // at 200k rows).
  for (let r = 0; r < rows.length; r++) {
    const status = rows[r]!.status;
    if (status === 'same') same++;
    else if (status === 'changed') changed++;
    else if (status === 'only-a') onlyA++;
    else onlyB++;
  }
  yield;
  const firstDivergence = divergenceOf(rows, A.steps, B.steps);
  yield;
  const fa = runFacts(A);
  yield;
  const totals = totalsOf(fa, runFacts(B));
  const result: RunDiffResult = {
    a: { steps: A.steps, events: sa.tree.length, complete: sa.complete },
    b: { steps: B.steps, events: sb.tree.length, complete: sb.complete },
    rows,
    counts: { same, changed, onlyA, onlyB },
    identical: same === rows.length,
    firstDivergence,
    totals,
    alignment: budget.coarse > 0 ? 'coarse' : 'exact',
    coarseSteps: budget.coarse,
  };
  stepEvents.set(result, { a: A.event, b: B.event });
  return result;
}

/**
 * Each diff's step events, by side, beside the result (which stays plain
 * JSON): what `<RunDiff>` reads a changed row's texts from, without
 * looking the step's uuid up in its run's tree (an index of every node,
 * built again for each new tree of a run still being read).
 */
const stepEvents = new WeakMap<
  RunDiffResult,
  { a: readonly (Event | undefined)[]; b: readonly (Event | undefined)[] }
>();

/**
 * The event of step `step` of run `side` in `diff` (a span's begin, the
 * first chunk of a merged message; `undefined` for a turn, or for a diff
 * this module did not make). Internal: `<RunDiff>`'s word diff.
 */
export function runDiffStepEvent(
  diff: RunDiffResult,
  side: 'a' | 'b',
  step: number,
): Event | undefined {
  return stepEvents.get(diff)?.[side][step];
}

/**
 * Whether a row differs in itself: not `same`, not a wrapper opened only to
 * align what is inside it, not a span or turn that differs only inside.
 *
 * @example
 * declare const diff: RunDiffResult;
 * const differences = diff.rows.filter(isRunDiffDivergence);
 */
export function isRunDiffDivergence(row: RunDiffRow): boolean {
  if (row.status === 'same' || row.wrapper === true) return false;
  if (row.status === 'changed' && row.fields?.length === 1 && row.fields[0] === 'steps')
    return false;
  return true;
}

/**
 * The first divergence: the first row that differs in itself, or an earlier
 * wrapper that holds a step which does (a wrapper whose steps all match —
 * a format's scaffold — is not one); moved back to the start of the stretch
 * of one-sided rows it is in. Either order of the runs then finds the same
 * row (a stretch lists A's steps first).
 */
function divergenceOf(
  rows: readonly RunDiffRow[],
  a: readonly RunStep[],
  b: readonly RunStep[],
): RunDivergence | null {
  const first = rows.findIndex(isRunDiffDivergence);
  if (first < 0) return null;
  // Steps with a differing row inside them, per side.
  const holdsA = new Uint8Array(a.length);
  const holdsB = new Uint8Array(b.length);
  const mark = (steps: readonly RunStep[], holds: Uint8Array, s: number) => {
    for (let p = steps[s]!.parent; p >= 0 && holds[p] === 0; p = steps[p]!.parent) holds[p] = 1;
  };
  for (let r = first; r < rows.length; r++) {
    const row = rows[r]!;
    if (!isRunDiffDivergence(row)) continue;
    if (row.a !== null) mark(a, holdsA, row.a);
    if (row.b !== null) mark(b, holdsB, row.b);
  }
  let at = first;
  for (let r = 0; r < first; r++) {
    const row = rows[r]!;
    if (row.wrapper !== true) continue;
    if ((row.a !== null && holdsA[row.a] === 1) || (row.b !== null && holdsB[row.b] === 1)) {
      at = r;
      break;
    }
  }
  // The start of its stretch of one-sided rows (the wrappers there come
  // first or not depending on which run is A).
  while (at > 0 && (rows[at - 1]!.a === null || rows[at - 1]!.b === null)) at--;
  const row = rows[at]!;
  const steps = row.b !== null ? b : a;
  const path: string[] = [];
  for (let p = steps[(row.b ?? row.a)!]!.parent; p >= 0; p = steps[p]!.parent) {
    path.push(steps[p]!.label);
  }
  path.reverse();
  const context: number[] = [];
  for (let r = Math.max(0, at - CONTEXT_ROWS); r < at; r++) context.push(r);
  return { row: at, path, context };
}

function total(a: number | null, b: number | null): RunDiffTotal {
  return { a, b, delta: a !== null && b !== null ? b - a : null };
}

/** Step kinds a run's summary reads (tokens, how it ended, scores). */
const SUMMARY_KINDS: ReadonlySet<string> = new Set([
  'model',
  'error',
  'sample_limit',
  'interrupt',
  'score',
]);

/**
 * One run's figures: `summarizeEvents` (the figures `skein info` shows) over
 * the events it reads — model calls, errors, limits, interrupts, scores, and
 * the run's last event (a pending one means running) — with the duration
 * from the span tree's extent (`runExtent`), and cost and failures from
 * the steps.
 */
type RunFacts = ReturnType<typeof runFacts>;

function runFacts(table: StepTable) {
  const picked: Event[] = [];
  let cost: number | null = null;
  let errors = 0;
  const { steps, event } = table;
  for (let s = 0; s < steps.length; s++) {
    const step = steps[s]!;
    if (step.kind === 'span' || step.kind === 'turn') continue;
    if (step.status === 'error' && step.aborted !== true) errors++;
    if (step.kind === 'model' && step.cost !== null) cost = (cost ?? 0) + step.cost;
    const e = event[s];
    if (e !== undefined && SUMMARY_KINDS.has(e.event)) picked.push(e);
  }
  const events = table.tree.events;
  const last = events[events.length - 1];
  if (last !== undefined && picked[picked.length - 1] !== last) picked.push(last);
  const summary = summarizeEvents(picked);
  const extent = runExtent(table.tree);
  return {
    summary,
    durationMs: events.length === 0 ? null : extent.end - extent.start,
    cost,
    errors,
  };
}

function totalsOf(fa: RunFacts, fb: RunFacts): RunDiffTotals {
  const sa = fa.summary;
  const sb = fb.summary;
  const names = [...new Set([...Object.keys(sa.scores), ...Object.keys(sb.scores)])];
  const scores: RunDiffScore[] = names.map((name) => ({
    name,
    a: name in sa.scores ? sa.scores[name] : null,
    b: name in sb.scores ? sb.scores[name] : null,
  }));
  return {
    tokens: total(sa.tokens, sb.tokens),
    durationMs: total(fa.durationMs, fb.durationMs),
    cost: total(fa.cost, fb.cost),
    errors: total(fa.errors, fb.errors),
    scores,
    status: { a: sa.status, b: sb.status },
  };
}
