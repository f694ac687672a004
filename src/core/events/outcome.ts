/**
 * An event's outcome: whether it failed, why, when it ended, how long it took
 * and how many tokens it used — derived in this one place, so the transcript
 * rows, the span headers, the span tree, the timeline and the swimlane never
 * disagree about whether a step failed: each fact is computed in one place.
 *
 * The rules follow inspect_ai wherever it defines one:
 * - **End time** (inspect_ai's `event/_timeline.py`): `completed` for model and
 *   tool events; every other kind is an instant (inspect ignores the
 *   `completed` of sandbox and subtask events, and the timeline must keep
 *   inspect's numbers).
 * - **Tokens** (inspect's `TimelineEvent.total_tokens`): model events only, `input + cache read + cache write +
 *   output` — not the provider's `usage.total_tokens`, and reasoning is not
 *   added separately.
 * - **Failure** (as inspect's viewer marks it): a model event with an `error` (not
 *   `ModelOutput.error`, which inspect's viewer ignores: a refusal is an
 *   answer), a tool event with an `error` or `failed: true`, and an `error`
 *   event. Two deliberate refinements, both from inspect's own notes: a model
 *   error that is exactly one of the cancel sentinels ("Cancelled by
 *   operator|limit|system") and a tool error of type `cancelled` are
 *   `cancelled`, not `error`. Limits, interrupts, rejected approvals and
 *   declined input are `cancelled` too. An unknown kind fails when it carries
 *   a non-empty `error` field. A sandbox command's non-zero exit code and a
 *   log record at level `error` are information, not a failed step (`grep`
 *   exits 1 on no match; inspect marks neither).
 * - **In flight**: `pending: true` is `running`, whatever else it carries.
 * - **Aborted** (the one rule every importer applies): a turn or
 *   task is aborted when it ended without finishing — rolled back by the
 *   agent, or stopped by the user or the client. Today: defect `turn_aborted`
 *   and a `turn_ended` whose reason is `cancelled`; an ACP turn whose prompt
 *   response says `stopReason: "cancelled"`, or that got a `session/cancel`
 *   and ended with no stop reason at all (a capture cut off); OpenHands'
 *   agent state `stopped`; agex's `cancelled` closing a task. Every event of
 *   it — its `span_begin` and `span_end`, everything inside, spans nested in
 *   it (a sub-agent it called), and the `interrupt` that stopped it — carries
 *   `metadata.aborted === true` (the `span_begin` also `abort_reason` when
 *   the source gives one); no other event does. They stay in the log and
 *   every view shows them, marked; totals (tokens, failure counts of a span,
 *   a run's tokens) skip them — {@link eventCountedTokens} — so a total is
 *   the work of the turns that finished. A turn that finished badly (an
 *   error, a limit, a refusal, `max_tokens`) is not aborted, nor is a cancel
 *   the agent answered with a normal stop (it finished first), nor one sent
 *   between turns. Importers apply it through `import/aborted.ts`.
 */
import type { Event, ModelEvent, ModelUsage, ToolEvent } from './types.js';
import { isEventKind } from './types.js';
import { eventCompletedTime, eventTime } from './event-time.js';

/**
 * Status of an event, as every view shows it.
 *
 * @example
 * const s: EventStatus = eventStatus(event); // 'running' | 'ok' | 'error' | 'cancelled'
 */
export type EventStatus = 'running' | 'ok' | 'error' | 'cancelled';

/**
 * Token counts of an event (model calls only). `total` is inspect's total:
 * input + cache read + cache write + output.
 *
 * @example
 * const t: EventTokens = { input: 97, output: 263, total: 16488, cacheRead: 16128 };
 */
export interface EventTokens {
  input: number;
  output: number;
  total: number;
  cacheRead?: number;
  cacheWrite?: number;
  reasoning?: number;
}

/**
 * Why an event failed or was cancelled, as its source said.
 *
 * @example
 * const err: EventError = { message: 'Command timed out after 180s', type: 'timeout' };
 */
export interface EventError {
  /** The message (first line is the summary). */
  message: string;
  /** A category when the source gives one (a tool error's `type`, a limit's `type`). */
  type?: string;
  /** A plain traceback, when the source kept one. */
  traceback?: string;
  /** The same traceback with ANSI colour escapes. */
  tracebackAnsi?: string;
}

/**
 * Everything {@link eventOutcome} derives about one event.
 *
 * @example
 * declare function showError(message: string | undefined): void;
 * const o = eventOutcome(toolEvent);
 * if (o.status === 'error') showError(o.error?.message);
 */
export interface EventOutcome {
  readonly status: EventStatus;
  /** Why it failed or was cancelled; absent when it did not, or the source gave no reason. */
  readonly error?: EventError;
  /** Start in epoch ms; `NaN` without a valid timestamp. */
  readonly startTime: number;
  /** End in epoch ms: `completed` of a model or tool event; absent otherwise. */
  readonly endTime?: number;
  /** `endTime - startTime` in ms, when both are known. */
  readonly duration?: number;
  /** Token counts of a model call with usage. */
  readonly tokens?: EventTokens;
  /** Set when the event belongs to a rolled-back turn ({@link isAbortedEvent}). */
  readonly aborted?: true;
}

// A model `error` of exactly one of these is an interrupted generation, not a
// failure (inspect_ai's `event/` models).
const CANCEL_SENTINELS: ReadonlySet<string> = new Set([
  'Cancelled by operator',
  'Cancelled by limit',
  'Cancelled by system',
]);

/** Whether an `error` field counts as present: not absent, null, false or empty. */
function present(value: unknown): boolean {
  return value !== undefined && value !== null && value !== false && value !== '';
}

function field(event: Event, key: string): unknown {
  return (event as unknown as Record<string, unknown>)[key];
}

/**
 * The status of an event, without allocating (hot paths: span sums over a
 * whole tree, swimlane markers). The same answer as `eventOutcome(e).status`.
 *
 * @example
 * eventStatus({ event: 'error', uuid: 'e', timestamp: '2026-01-01T00:00:00Z', error: { message: 'x', traceback: '', traceback_ansi: '' } }); // 'error'
 */
export function eventStatus(event: Event): EventStatus {
  if (event.pending === true) return 'running';
  switch (event.event) {
    case 'model': {
      const error = field(event, 'error');
      if (!present(error)) return 'ok';
      return typeof error === 'string' && CANCEL_SENTINELS.has(error) ? 'cancelled' : 'error';
    }
    case 'tool': {
      const error = field(event, 'error') as ToolEvent['error'] | undefined;
      if (present(error)) return error?.type === 'cancelled' ? 'cancelled' : 'error';
      return field(event, 'failed') === true ? 'error' : 'ok';
    }
    case 'error':
      return 'error';
    case 'sample_limit':
    case 'interrupt':
      return 'cancelled';
    case 'approval': {
      const decision = field(event, 'decision');
      // A rejected or terminated call did not run.
      return decision === 'reject' || decision === 'terminate' ? 'cancelled' : 'ok';
    }
    case 'input': {
      const outcome = field(event, 'outcome');
      return outcome === 'declined' || outcome === 'cancelled' ? 'cancelled' : 'ok';
    }
    default:
      // Unknown kinds: a non-empty `error` field is a failure. Known kinds not
      // listed above never fail, whatever extra fields they carry.
      if (!isEventKind(event.event) && present(field(event, 'error'))) return 'error';
      return 'ok';
  }
}

/**
 * Whether an event failed (`eventStatus(e) === 'error'`): what a span header
 * counts, what the swimlane marks.
 *
 * @example
 * const failures = stream.latest().filter(isFailedEvent).length;
 */
export function isFailedEvent(event: Event): boolean {
  return eventStatus(event) === 'error';
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function stringify(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function withTraceback(err: EventError, plain: unknown, ansi: unknown): EventError {
  const traceback = text(plain);
  const tracebackAnsi = text(ansi);
  if (traceback !== undefined) err.traceback = traceback;
  if (tracebackAnsi !== undefined) err.tracebackAnsi = tracebackAnsi;
  return err;
}

/**
 * Why an event failed or was cancelled, or `undefined` when it did not (or
 * the source gave no reason). Read defensively: wire data lies.
 *
 * @example
 * eventError(toolEvent)?.message; // 'Command timed out after 180s'
 */
export function eventError(event: Event): EventError | undefined {
  const status = eventStatus(event);
  if (status !== 'error' && status !== 'cancelled') return undefined;
  const error = field(event, 'error');
  switch (event.event) {
    case 'model': {
      if (!present(error)) return undefined;
      return withTraceback(
        { message: stringify(error) },
        field(event, 'traceback'),
        field(event, 'traceback_ansi'),
      );
    }
    case 'tool': {
      if (!present(error)) return { message: 'failed' };
      const e = error as { type?: unknown; message?: unknown };
      const out: EventError = { message: text(e.message) ?? stringify(error) };
      if (typeof e.type === 'string') out.type = e.type;
      return out;
    }
    case 'error': {
      const e = (error ?? {}) as {
        message?: unknown;
        traceback?: unknown;
        traceback_ansi?: unknown;
      };
      return withTraceback({ message: text(e.message) ?? 'error' }, e.traceback, e.traceback_ansi);
    }
    case 'sample_limit': {
      const out: EventError = { message: text(field(event, 'message')) ?? 'limit reached' };
      const type = field(event, 'type');
      if (typeof type === 'string') out.type = type;
      return out;
    }
    case 'interrupt': {
      const source = text(field(event, 'source'));
      const during = text(field(event, 'interrupted'));
      return {
        message: `interrupted${during ? ` during ${during}` : ''}${source ? ` (${source})` : ''}`,
      };
    }
    case 'approval':
    case 'input':
      return undefined;
    default: {
      if (!present(error)) return undefined;
      const e = error as { message?: unknown; type?: unknown };
      const message =
        typeof error === 'object' && text(e.message) !== undefined
          ? (e.message as string)
          : stringify(error);
      const out: EventError = { message };
      if (typeof error === 'object' && typeof e.type === 'string') out.type = e.type;
      return out;
    }
  }
}

/**
 * Whether events of this kind have an end time (`completed`): model and tool
 * events, as inspect's `TimelineEvent.end_time` (inspect_ai's `event/_timeline.py`).
 *
 * @example
 * hasEndTime('tool'); // true
 * hasEndTime('sandbox'); // false (inspect ignores its `completed`)
 */
export function hasEndTime(kind: string): boolean {
  return kind === 'model' || kind === 'tool';
}

/**
 * The end of an event in epoch ms, or `undefined` when it has none (every
 * kind but model and tool, a call still in flight, a bad `completed`).
 *
 * @example
 * const end = eventEnd(toolEvent); // Date.parse(toolEvent.completed)
 */
export function eventEnd(event: Event): number | undefined {
  if (!hasEndTime(event.event)) return undefined;
  const completed = eventCompletedTime(event);
  return completed !== undefined && Number.isFinite(completed) ? completed : undefined;
}

/**
 * End time of one event (epoch ms) as the timeline measures it: `completed`
 * for model and tool events, else its start.
 *
 * @example
 * eventEndTime(toolEvent) - eventTime(toolEvent); // duration in ms
 */
export function eventEndTime(event: Event): number {
  return eventEnd(event) ?? eventTime(event);
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function usageOf(event: Event): ModelUsage | undefined {
  if (event.event !== 'model') return undefined;
  const usage = (event as ModelEvent).output?.usage;
  return usage !== null && typeof usage === 'object' ? usage : undefined;
}

/**
 * Tokens of one event: model events only, input + cache read + cache write +
 * output (not `usage.total_tokens`; reasoning is not added separately). 0 for
 * every other event.
 *
 * @example
 * eventTotalTokens(modelEvent); // 16488
 */
export function eventTotalTokens(event: Event): number {
  const usage = usageOf(event);
  if (usage === undefined) return 0;
  return (
    (count(usage.input_tokens) ?? 0) +
    (count(usage.input_tokens_cache_read) ?? 0) +
    (count(usage.input_tokens_cache_write) ?? 0) +
    (count(usage.output_tokens) ?? 0)
  );
}

/**
 * Token counts of a model call with usage, or `undefined`. `total` equals
 * {@link eventTotalTokens}.
 *
 * @example
 * eventTokens(modelEvent)?.total; // 16488
 */
export function eventTokens(event: Event): EventTokens | undefined {
  const usage = usageOf(event);
  if (usage === undefined) return undefined;
  const input = count(usage.input_tokens) ?? 0;
  const output = count(usage.output_tokens) ?? 0;
  const cacheRead = count(usage.input_tokens_cache_read);
  const cacheWrite = count(usage.input_tokens_cache_write);
  const reasoning = count(usage.reasoning_tokens);
  const tokens: EventTokens = {
    input,
    output,
    total: input + (cacheRead ?? 0) + (cacheWrite ?? 0) + output,
  };
  if (cacheRead !== undefined) tokens.cacheRead = cacheRead;
  if (cacheWrite !== undefined) tokens.cacheWrite = cacheWrite;
  if (reasoning !== undefined) tokens.reasoning = reasoning;
  return tokens;
}

/**
 * The cost of one event in the provider's currency, when its source says:
 * a model call's `usage.total_cost` (inspect's `ModelUsage`). `undefined`
 * for every other event and for a call without a cost; skein never prices
 * tokens itself.
 *
 * @example
 * eventCost(modelEvent); // 0.0123, or undefined when the log has no cost
 */
export function eventCost(event: Event): number | undefined {
  const usage = usageOf(event);
  return usage === undefined ? undefined : count(usage.total_cost);
}

/**
 * Whether an event belongs to an aborted turn — rolled back, or stopped
 * before it finished (the rule at the top of this module):
 * `metadata.aborted === true`, set by the importers. Shown, marked, and left
 * out of totals.
 *
 * @example
 * isAbortedEvent({ event: 'info', uuid: 'i', timestamp: '2026-01-01T00:00:00Z', data: 1, metadata: { aborted: true } }); // true
 */
export function isAbortedEvent(event: Event): boolean {
  const metadata = (event as { metadata?: unknown }).metadata;
  return (
    metadata !== null &&
    typeof metadata === 'object' &&
    (metadata as Record<string, unknown>)['aborted'] === true
  );
}

/**
 * The tokens an event adds to a total: {@link eventTotalTokens}, or 0 for an
 * aborted event (its turn was rolled back or stopped). Every total (span headers, the
 * span tree, the timeline's span tokens) sums this.
 *
 * @example
 * declare const run: Event[];
 * const total = run.reduce((sum, e) => sum + eventCountedTokens(e), 0);
 */
export function eventCountedTokens(event: Event): number {
  return isAbortedEvent(event) ? 0 : eventTotalTokens(event);
}

/**
 * The outcome of an event: status, error, start, end, duration and tokens,
 * by the rules at the top of this module. Every view reads these facts from
 * here (or from the single-fact functions it is built from).
 *
 * @example
 * const { status, error, duration, tokens } = eventOutcome(event);
 */
export function eventOutcome(event: Event): EventOutcome {
  let startTime = Number.NaN;
  let endTime: number | undefined;
  try {
    startTime = eventTime(event);
    endTime = eventEnd(event);
  } catch {
    // A malformed timestamp on a hand-made event: leave the times unknown.
  }
  const outcome: {
    status: EventStatus;
    error?: EventError;
    startTime: number;
    endTime?: number;
    duration?: number;
    tokens?: EventTokens;
    aborted?: true;
  } = { status: eventStatus(event), startTime };
  if (isAbortedEvent(event)) outcome.aborted = true;
  const error = eventError(event);
  if (error !== undefined) outcome.error = error;
  if (endTime !== undefined) {
    outcome.endTime = endTime;
    if (Number.isFinite(startTime)) outcome.duration = endTime - startTime;
  }
  const tokens = eventTokens(event);
  if (tokens !== undefined) outcome.tokens = tokens;
  return outcome;
}
