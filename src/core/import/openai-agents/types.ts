// The shapes the OpenAI Agents SDK traces with, as local types: skein never
// imports the SDK (it is an optional peer), so these describe what its
// tracing processors receive (`Trace`, `Span` in `@openai/agents-core`
// `src/tracing/`) and what its exporter writes (`trace.toJSON()`,
// `span.toJSON()`: `{ object: "trace" | "trace.span", … }`), the Python
// SDK's `export()` included (same field names).
// https://openai.github.io/openai-agents-js/guides/tracing/

/**
 * A trace as the SDK hands it to a tracing processor (`Trace` of
 * `@openai/agents-core`): only what skein reads.
 *
 * @example
 * const trace: OpenAiAgentsTrace = { traceId: 'trace_1', name: 'Agent workflow', groupId: null };
 */
export interface OpenAiAgentsTrace {
  readonly traceId: string;
  readonly name: string;
  readonly groupId?: string | null;
  readonly metadata?: Record<string, unknown>;
}

/**
 * A span as the SDK hands it to a tracing processor (`Span` of
 * `@openai/agents-core`): only what skein reads. `spanData` is read directly
 * (not through `toJSON()`), so a response span's `_input` and `_response`
 * — the request and the model's answer, which the exporter leaves out — show.
 *
 * @example
 * const span: OpenAiAgentsSpan = {
 *   spanId: 'span_1', traceId: 'trace_1', parentId: null,
 *   startedAt: '2026-01-01T00:00:00.000Z', endedAt: null, error: null,
 *   spanData: { type: 'agent', name: 'Assistant' },
 * };
 */
export interface OpenAiAgentsSpan {
  readonly spanId: string;
  readonly traceId: string;
  readonly parentId: string | null;
  readonly startedAt: string | null;
  readonly endedAt: string | null;
  readonly error: { message: string; data?: Record<string, unknown> } | null;
  readonly spanData: { type: string; [key: string]: unknown };
}

/**
 * An exported trace record (`trace.toJSON()`, the Python SDK's `export()`).
 * Traces carry no times of their own.
 *
 * @example
 * const rec: OpenAiAgentsTraceRecord = { object: 'trace', id: 'trace_1', workflow_name: 'Agent workflow' };
 */
export interface OpenAiAgentsTraceRecord {
  object: 'trace';
  id: string;
  workflow_name?: string;
  group_id?: string | null;
  metadata?: Record<string, unknown> | null;
}

/**
 * An exported span record (`span.toJSON()`, the Python SDK's `export()`).
 *
 * @example
 * const rec: OpenAiAgentsSpanRecord = {
 *   object: 'trace.span', id: 'span_1', trace_id: 'trace_1', parent_id: null,
 *   started_at: '2026-01-01T00:00:00.000Z', ended_at: '2026-01-01T00:00:01.000Z',
 *   span_data: { type: 'function', name: 'add', input: '{"a":1}', output: '2' }, error: null,
 * };
 */
export interface OpenAiAgentsSpanRecord {
  object: 'trace.span';
  id: string;
  trace_id: string;
  parent_id?: string | null;
  started_at?: string | null;
  ended_at?: string | null;
  span_data: { type: string; [key: string]: unknown };
  error?: { message: string; data?: Record<string, unknown> | null } | null;
}
