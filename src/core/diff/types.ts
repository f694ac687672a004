/**
 * The run diff's public shapes. A {@link RunDiff} is plain JSON: numbers,
 * strings, arrays and plain objects only, so it survives `JSON.stringify`,
 * `structuredClone` and a worker boundary unchanged.
 */
import type { EventStatus } from '../events/outcome.js';
import type { Event } from '../events/types.js';
import type { EventStream } from '../stream/event-stream.js';
import type { EventTreeFeed } from '../tree/feed.js';

/**
 * What a run diff compares: canonical events from any format, as an array
 * (a finished run), an `EventStream` (live or complete) or an event-tree
 * feed (shared with the other views of that run, so its tree is built once).
 *
 * @example
 * declare const events: Event[];
 * const source: RunDiffSource = EventStream.from(events);
 */
export type RunDiffSource = readonly Event[] | EventStream | EventTreeFeed;

/**
 * One step of a run, as the diff aligns it: a span (a sub-agent, a solver, a
 * user turn…), a **turn** (a model call and the steps after it, up to the
 * next model call — skein's grouping, like inspect's outline), a model call,
 * a tool call (merged with the tool span that holds what it did), a message,
 * an error, a score, or any other event kind the diff does not hide.
 *
 * Steps are in pre-order: step `i`'s subtree is `[i, end)`.
 *
 * @example
 * const step: RunStep = {
 *   index: 4, kind: 'tool', name: 'bash', label: 'bash {"cmd":"ls"}', depth: 3, parent: 3, end: 5,
 *   uuid: 'e-12', status: 'ok', tokens: 0, start: 1781115830000, durationMs: 120, cost: null,
 * };
 */
export interface RunStep {
  /** Position in the run's step list (pre-order). */
  readonly index: number;
  /** `'span'`, `'turn'`, or the event kind (`'model'`, `'tool'`, `'message'`, `'error'`, …). */
  readonly kind: string;
  /** A span's name, a tool's function, a model's name, a message's role; `''` when none. */
  readonly name: string;
  /** A one-line description for text and rows (at most 120 characters). */
  readonly label: string;
  /** Nesting in the step tree (0 at the top). */
  readonly depth: number;
  /** Index of the enclosing step, `-1` at the top. */
  readonly parent: number;
  /** Exclusive end of the subtree. */
  readonly end: number;
  /**
   * The node key of the step's event in the run's span tree
   * (`eventTreeNodeKey`: a span's id, an event's uuid), which the selection
   * store and the other views use; a turn's is `turn:` + its model call's.
   */
  readonly uuid: string;
  /** From the events' outcome (core `eventStatus`; a span's from its contents). */
  readonly status: EventStatus;
  /** Tokens counted (aborted work left out): the call's, or the sum inside a span or turn. */
  readonly tokens: number;
  /** Start, epoch ms, when known. */
  readonly start: number | null;
  /** Duration in ms, when known. */
  readonly durationMs: number | null;
  /** Cost as the log reports it (`usage.total_cost`), summed inside a span or turn; `null` when unknown. */
  readonly cost: number | null;
  /** Set when the step belongs to an aborted turn (core `isAbortedEvent`). */
  readonly aborted?: true;
}

/**
 * How two aligned steps relate.
 * - `same`: the same step with the same content (volatile fields ignored);
 * - `changed`: the same step (same kind, and the same tool, model or span)
 *   whose content or outcome differs;
 * - `only-a`, `only-b`: a step one run has and the other does not.
 *
 * @example
 * const status: RunDiffStatus = 'changed';
 */
export type RunDiffStatus = 'same' | 'changed' | 'only-a' | 'only-b';

/**
 * Differences in numbers between the two steps of a row, `b − a`; a field is
 * present only when it is not zero (and known on both sides).
 *
 * @example
 * const delta: RunDiffDelta = { tokens: 1200, durationMs: -350 };
 */
export interface RunDiffDelta {
  readonly tokens?: number;
  readonly durationMs?: number;
  readonly cost?: number;
}

/**
 * One aligned row: a step of run A beside a step of run B (or a gap).
 *
 * @example
 * declare function show(...values: unknown[]): void;
 * declare const diff: RunDiff;
 * for (const row of diff.rows) if (row.status === 'changed') show(diff.b.steps[row.b!]!.label);
 */
export interface RunDiffRow {
  readonly status: RunDiffStatus;
  /** Step index in run A, `null` for `only-b`. */
  readonly a: number | null;
  /** Step index in run B, `null` for `only-a`. */
  readonly b: number | null;
  /** For `changed`: how alike the two steps' contents are, 0–1 (word-level Dice coefficient). */
  readonly similarity?: number;
  /**
   * For `changed`: what differs — the event fields (`arguments`, `result`,
   * `output`, `error`, …), `status` when the outcome differs, `aborted`,
   * `name` when the step matched only by kind, `steps` for a span or turn
   * whose own content is equal but whose steps differ.
   */
  readonly fields?: readonly string[];
  /** For a row with both sides: numbers that differ. */
  readonly delta?: RunDiffDelta;
  /**
   * For a one-sided span or turn: it was opened so that the steps inside it
   * could align with steps the other run has without it (a wrapper one
   * format or run has and the other lacks). Its steps have rows of their own.
   */
  readonly wrapper?: true;
}

/**
 * Where the runs first differ: the first row whose content or outcome
 * differs, past spans and turns that differ only inside.
 *
 * @example
 * declare function show(...values: unknown[]): void;
 * declare const diff: RunDiff;
 * const at = diff.firstDivergence;
 * if (at) show(`diverged at ${at.path.join(' › ')}: row ${at.row}`);
 */
export interface RunDivergence {
  /** Index in `rows`. */
  readonly row: number;
  /** Labels of the enclosing steps, outermost first (run B's where it has the row, else A's). */
  readonly path: readonly string[];
  /** Indexes in `rows` of up to three rows before it (the context, oldest first). */
  readonly context: readonly number[];
}

/**
 * A number on both sides and its change `b − a` (`null` when unknown on either side).
 *
 * @example
 * const tokens: RunDiffTotal = { a: 1200, b: 2400, delta: 1200 };
 */
export interface RunDiffTotal {
  readonly a: number | null;
  readonly b: number | null;
  readonly delta: number | null;
}

/**
 * One scorer's values in both runs (`null` where a run has no such score).
 *
 * @example
 * const s: RunDiffScore = { name: 'match', a: 'C', b: 'I' };
 */
export interface RunDiffScore {
  readonly name: string;
  readonly a: unknown;
  readonly b: unknown;
}

/**
 * Run-level figures: tokens, time, cost (where the logs say), failed steps,
 * scores, and each run's status (`summarizeEvents`).
 *
 * @example
 * declare function show(...values: unknown[]): void;
 * declare const diff: RunDiff;
 * show(`tokens ${diff.totals.tokens.delta}`);
 */
export interface RunDiffTotals {
  readonly tokens: RunDiffTotal;
  readonly durationMs: RunDiffTotal;
  readonly cost: RunDiffTotal;
  /** Steps that failed (not counting aborted ones). */
  readonly errors: RunDiffTotal;
  readonly scores: readonly RunDiffScore[];
  /** Each run's status: `ok`, `error`, `limit`, `cancelled` or `running`. */
  readonly status: { readonly a: string; readonly b: string };
}

/**
 * One run as the diff saw it.
 *
 * @example
 * declare const diff: RunDiff;
 * const first = diff.a.steps[0];
 */
export interface RunDiffSide {
  readonly steps: readonly RunStep[];
  /** Events (latest versions) the steps come from. */
  readonly events: number;
  /** `false` while the run is still growing (a live stream). */
  readonly complete: boolean;
}

/**
 * The result of {@link diffRuns}: the two runs' steps, the aligned rows
 * (pre-order on each side), counts, the first divergence and the totals.
 * Plain JSON.
 *
 * @example
 * declare function show(...values: unknown[]): void;
 * declare const a: Event[], b: Event[];
 * const diff = diffRuns(a, b);
 * if (!diff.identical) show(renderRunDiffText(diff));
 */
export interface RunDiff {
  readonly a: RunDiffSide;
  readonly b: RunDiffSide;
  readonly rows: readonly RunDiffRow[];
  readonly counts: {
    readonly same: number;
    readonly changed: number;
    readonly onlyA: number;
    readonly onlyB: number;
  };
  /** `true` when every row is `same`. */
  readonly identical: boolean;
  readonly firstDivergence: RunDivergence | null;
  readonly totals: RunDiffTotals;
  /**
   * `'exact'`, or `'coarse'` when some stretch was too different to align
   * within the edit budget (`maxEdits`) and was aligned position by position
   * instead; `coarseSteps` counts the steps in such stretches.
   */
  readonly alignment: 'exact' | 'coarse';
  readonly coarseSteps: number;
}

/**
 * Options of {@link diffRuns} and {@link createRunDiff}.
 *
 * @example
 * const options: RunDiffOptions = { ignore: [...DEFAULT_DIFF_IGNORE, 'seed'], hide: ['sample_init'] };
 */
export interface RunDiffOptions {
  /**
   * Fields left out of every comparison (default {@link DEFAULT_DIFF_IGNORE}):
   * a bare name at any depth, or a path from the event's root such as
   * `$.output.usage` (`*` for any array index). Replaces the default; spread
   * it to add to it.
   */
  ignore?: readonly string[];
  /**
   * Event kinds that are not steps (default {@link DEFAULT_DIFF_HIDDEN}:
   * sandbox commands, state and store changes, log records, info, anchors,
   * branches markers and checkpoints). Replaces the default.
   */
  hide?: readonly string[];
  /**
   * A custom signature: steps with equal keys are the same step. Return
   * `undefined` to keep skein's (kind, tool, model, span name, normalised
   * arguments). Called once per step; `event` is `undefined` for a turn.
   */
  key?: (step: RunStep, event: Event | undefined) => string | undefined;
  /**
   * Edit budget of the exact alignment (default 2,000): a stretch between
   * two matched steps that needs more insertions and deletions than this (or
   * more work than the diff's overall bound) is aligned position by position
   * instead, and the result says so (`alignment: 'coarse'`). Bounds the time
   * a diff of totally different runs takes.
   */
  maxEdits?: number;
}
