// What a log holds, per sample, without showing it: the facts
// `inspect log` users look for — id, epoch, scores, tokens, duration, status,
// error — for every format. inspect logs list their samples with summaries
// (read without loading any sample's events); every other format is one run,
// summarised from its events by the same outcome rules every view uses
// (`events/outcome.ts`), so `skein info` and the viewer's sample list agree.
import type { Diagnostic } from '../errors.js';
import { eventTime } from '../events/event-time.js';
import { eventEndTime, eventError, eventTokens, isAbortedEvent } from '../events/outcome.js';
import type { Event } from '../events/types.js';
import type { FormatId } from './format.js';
import { isRecord, valueText } from './guards.js';
import type { InspectSampleSummary } from './inspect/inspect-log.js';

/**
 * How a sample ended: `ok`, `error` (it raised), `limit` (a token, time or
 * message limit stopped it), `cancelled`, or `running` (not finished yet).
 */
export type SampleStatus = 'ok' | 'error' | 'limit' | 'cancelled' | 'running';

/**
 * One sample's summary. `id` is `null` for a single-run log (every format but
 * inspect); `tokens` and `durationMs` are `null` when the log does not say.
 *
 * @example
 * const s: SampleSummary = { id: 1, epoch: 1, scores: { match: 'C' }, tokens: 1200, durationMs: 8400, status: 'ok', error: null };
 */
export interface SampleSummary {
  readonly id: string | number | null;
  readonly epoch: number;
  /** Score values by scorer name (`value` of inspect's `Score`), as in the log. */
  readonly scores: Readonly<Record<string, unknown>>;
  /** Input + cache read + cache write + output tokens (the core token rule). */
  readonly tokens: number | null;
  readonly durationMs: number | null;
  readonly status: SampleStatus;
  /** Why it failed or stopped (first line of the message), else `null`. */
  readonly error: string | null;
  /** Events in the sample, when they were read (single-run formats). */
  readonly events?: number;
}

/**
 * A whole log's summary: its format, what ran, and one {@link SampleSummary}
 * per sample, sorted by {@link compareSamples}.
 *
 * @example
 * declare const bytes: Uint8Array;
 * const log: LogSummary = await summarizeLog(bytes, { filename: 'run.eval' });
 * const line = `${log.formatName}: ${log.samples.length} samples`;
 */
export interface LogSummary {
  readonly format: FormatId;
  readonly formatName: string;
  readonly task: string | null;
  readonly model: string | null;
  /** The log's own status (inspect: `success`, `error`, …), else derived from its samples. */
  readonly status: string;
  readonly samples: readonly SampleSummary[];
  /** Repairs made while reading what the summary needed. */
  readonly diagnostics: readonly Diagnostic[];
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/**
 * The summary of a run from its events: tokens (`null` when no model call
 * reports usage) and duration by the core outcome rules; status `error` when the run raised (an `error` event),
 * `limit` for a `sample_limit`, `cancelled` for an `interrupt`, `running`
 * when its last event is still pending; scores from the final (not
 * intermediate) `score` events, the last per scorer.
 *
 * @example
 * const { tokens, durationMs, status } = summarizeEvents(stream.latest());
 */
export function summarizeEvents(events: readonly Event[]): SampleSummary {
  let tokens = 0;
  let usage = false;
  let start = Number.POSITIVE_INFINITY;
  let end = Number.NEGATIVE_INFINITY;
  let status: SampleStatus = 'ok';
  let error: string | null = null;
  const scores: Record<string, unknown> = {};
  for (const e of events) {
    // A rolled-back turn's calls are left out of totals, as in every view.
    const used = isAbortedEvent(e) ? undefined : eventTokens(e);
    if (used !== undefined) {
      tokens += used.total;
      usage = true;
    }
    const t = eventTime(e);
    if (Number.isFinite(t)) {
      if (t < start) start = t;
      if (t > end) end = t;
    }
    const t1 = eventEndTime(e);
    if (Number.isFinite(t1) && t1 > end) end = t1;
    const r = e as unknown as Record<string, unknown>;
    if (e.event === 'error' || e.event === 'sample_limit' || e.event === 'interrupt') {
      const next: SampleStatus =
        e.event === 'error' ? 'error' : e.event === 'sample_limit' ? 'limit' : 'cancelled';
      // The first stop wins, but a raised error outranks a limit or cancel.
      if (status === 'ok' || (next === 'error' && status !== 'error')) {
        status = next;
        error = firstLine(eventError(e)?.message ?? e.event);
      }
    } else if (e.event === 'score' && r['intermediate'] !== true) {
      const score = r['score'];
      const name = typeof r['scorer'] === 'string' ? r['scorer'] : 'score';
      scores[name] = isRecord(score) && 'value' in score ? score['value'] : score;
    }
  }
  const last = events[events.length - 1];
  if (status === 'ok' && last?.pending === true) status = 'running';
  return {
    id: null,
    epoch: 1,
    scores,
    tokens: usage ? tokens : null,
    durationMs: Number.isFinite(start) && Number.isFinite(end) ? end - start : null,
    status,
    error,
    events: events.length,
  };
}

function usageTokens(usage: unknown): number | undefined {
  if (!isRecord(usage)) return undefined;
  let total = 0;
  let any = false;
  for (const perModel of Object.values(usage)) {
    if (!isRecord(perModel)) continue;
    // The same sum as eventTotalTokens (outcome.ts), over a ModelUsage.
    for (const key of [
      'input_tokens',
      'input_tokens_cache_read',
      'input_tokens_cache_write',
      'output_tokens',
    ]) {
      const n = num(perModel[key]);
      if (n !== undefined) {
        total += n;
        any = true;
      }
    }
  }
  return any ? total : undefined;
}

function errorText(error: unknown): string | null {
  if (error === undefined || error === null || error === '' || error === false) return null;
  if (typeof error === 'string') return firstLine(error);
  if (isRecord(error) && typeof error['message'] === 'string') return firstLine(error['message']);
  return firstLine(valueText(error));
}

/**
 * A {@link SampleSummary} from an inspect sample summary (`EvalSampleSummary`
 * or the fields of an `EvalSample`), without reading the sample's events:
 * tokens from `model_usage`, duration from `total_time` (else `started_at` →
 * `completed_at`), status from `error`, `limit` and `completed`.
 *
 * @example
 * declare const bytes: Uint8Array;
 * const log = await importInspectLog(bytes);
 * const rows = log.samples.map(summarizeInspectSample);
 */
export function summarizeInspectSample(summary: InspectSampleSummary): SampleSummary {
  const scores: Record<string, unknown> = {};
  if (isRecord(summary.scores)) {
    for (const [name, score] of Object.entries(summary.scores)) {
      scores[name] = isRecord(score) && 'value' in score ? score['value'] : score;
    }
  }
  let durationMs: number | null = null;
  const total = num(summary['total_time']);
  if (total !== undefined) durationMs = total * 1000;
  else {
    const a = Date.parse(valueText(summary['started_at']));
    const b = Date.parse(valueText(summary['completed_at']));
    if (Number.isFinite(a) && Number.isFinite(b)) durationMs = b - a;
  }
  let status: SampleStatus = 'ok';
  let error = errorText(summary['error']);
  const limit = summary['limit'];
  if (error !== null) status = 'error';
  else if (isRecord(limit)) {
    status = 'limit';
    const type = typeof limit['type'] === 'string' ? limit['type'] : 'a';
    const value = valueText(limit['limit']);
    error = `${type} limit${value ? ` (${value})` : ''}`;
  } else if (summary['completed'] === false) status = 'running';
  return {
    id: summary.id,
    epoch: summary.epoch,
    scores,
    tokens: usageTokens(summary['model_usage']) ?? null,
    durationMs,
    status,
    error,
  };
}

/**
 * The order samples are listed in: by id (numbers numerically before
 * strings, strings in natural order), then epoch.
 *
 * @example
 * declare const rows: SampleSummary[];
 * rows.sort(compareSamples);
 */
export function compareSamples(a: SampleSummary, b: SampleSummary): number {
  const ka = a.id;
  const kb = b.id;
  if (ka !== kb) {
    if (ka === null) return -1;
    if (kb === null) return 1;
    if (typeof ka === 'number' && typeof kb === 'number') return ka - kb;
    if (typeof ka === 'number') return -1;
    if (typeof kb === 'number') return 1;
    const c = ka.localeCompare(kb, 'en', { numeric: true });
    if (c !== 0) return c;
  }
  return a.epoch - b.epoch;
}

/**
 * A log's status derived from its samples (for formats whose logs carry
 * none): `started` while one runs, else `error`, `cancelled` or `success`.
 *
 * @example
 * import { overallStatus } from './summary.js';
 * overallStatus([summarizeEvents(stream.latest())]); // 'success'
 */
export function overallStatus(samples: readonly SampleSummary[]): string {
  if (samples.some((s) => s.status === 'running')) return 'started';
  if (samples.some((s) => s.status === 'error')) return 'error';
  if (samples.some((s) => s.status === 'cancelled')) return 'cancelled';
  return 'success';
}
