// Payloads several events share: state changes, scores, errors, log records, dataset samples.

import type { JsonObject } from './content-types.js';
import type { ChatMessage } from './message-types.js';

// ---------------------------------------------------------------------------
// Shared payloads
// ---------------------------------------------------------------------------

/**
 * One JSON-Patch operation (RFC 6902) on TaskState or the Store. `replaced`
 * is inspect's extra: the value that was overwritten.
 *
 * @example
 * const change: JsonChange = { op: 'replace', path: '/output/model', value: 'gpt-5.4', replaced: 'openai/gpt-5.4' };
 */
export interface JsonChange {
  op: 'remove' | 'add' | 'replace' | 'move' | 'test' | 'copy';
  path: string;
  from?: string | null;
  value?: unknown;
  replaced?: unknown;
}

/**
 * A score value: scalar, list or dict (inspect coerces `null` to `NaN` on read).
 *
 * @example
 * const v: ScoreValue = { accuracy: 1, f1: 0.5 };
 */
export type ScoreValue =
  | string
  | number
  | boolean
  | null
  | (string | number | boolean | null)[]
  | { [key: string]: string | number | boolean | null };

/**
 * An edit to a score. Each of `value`, `answer`, `explanation`, `metadata` may
 * be the literal string `"UNCHANGED"`.
 *
 * @example
 * const edit: ScoreEdit = { value: 'C', answer: 'UNCHANGED', explanation: 'UNCHANGED', metadata: 'UNCHANGED', provenance: { author: 'me', reason: 'typo', timestamp: '2026-01-01T00:00:00Z' } };
 */
export interface ScoreEdit {
  value?: ScoreValue | 'UNCHANGED';
  answer?: string | null;
  explanation?: string | null;
  metadata?: JsonObject | 'UNCHANGED' | null;
  provenance?: ProvenanceData | null;
}

/**
 * Who edited a score, when and why.
 *
 * @example
 * const p: ProvenanceData = { timestamp: '2026-01-01T00:00:00Z', author: 'reviewer', reason: 'rubric fix' };
 */
export interface ProvenanceData {
  timestamp?: string;
  author?: string;
  reason?: string | null;
  metadata?: JsonObject | null;
}

/**
 * A score given by a scorer.
 *
 * @example
 * const score: Score = { value: 'C', answer: '4', explanation: 'Correct' };
 */
export interface Score {
  value: ScoreValue;
  answer?: string | null;
  explanation?: string | null;
  metadata?: JsonObject | null;
  /** Edits applied to this score, oldest first. */
  history?: ScoreEdit[];
}

/**
 * The sample error (inspect_ai's `event/` models `error`).
 *
 * @example
 * const err: EvalError = { message: 'boom', traceback: 'Traceback …', traceback_ansi: '\u001b[31mTraceback…' };
 */
export interface EvalError {
  message: string;
  traceback: string;
  traceback_ansi: string;
}

/**
 * A Python log record captured during the sample. `created` is epoch
 * **milliseconds** (float), unlike the ISO `timestamp` of events.
 *
 * @example
 * const record: LoggingMessage = { level: 'warning', message: 'slow', created: 1781115865077.473, filename: 'a.py', module: 'a', lineno: 3 };
 */
export interface LoggingMessage {
  name?: string | null;
  level: LoggingLevel;
  message: string;
  created: number;
  filename?: string;
  module?: string;
  lineno?: number;
}

/**
 * Log levels, including inspect's custom `trace`, `http` and `sandbox`.
 *
 * @example
 * const l: LoggingLevel = 'info';
 */
export type LoggingLevel =
  | 'debug'
  | 'trace'
  | 'http'
  | 'sandbox'
  | 'info'
  | 'warning'
  | 'error'
  | 'critical'
  | (string & {});

/**
 * The dataset sample a run started from.
 *
 * @example
 * const sample: DatasetSample = { input: 'Decode this AIS message', target: '', id: 1 };
 */
export interface DatasetSample {
  input: string | ChatMessage[];
  /** Default `''`. */
  target?: string | string[];
  id?: string | number | null;
  choices?: string[] | null;
  metadata?: JsonObject | null;
  sandbox?: unknown;
  files?: Record<string, string> | null;
  setup?: string | null;
}

/**
 * One input field of an `input` event form.
 *
 * @example
 * const field: InputField = { name: 'reason', type: 'str', description: 'Why?' };
 */
export interface InputField {
  name: string;
  type: string;
  description?: string | null;
}
