/**
 * The canonical event model: inspect_ai's event vocabulary, field for field as
 * it appears on the wire (snake_case, `exclude_none`), plus skein's additions
 * (`message`, `display`) and a catch-all for kinds nobody here knows yet.
 *
 * Field lists follow inspect_ai's `event/_base.py` (envelope), its `event/` models (the 23
 * kinds) and its `model/` and `tool/` types (nested payloads). Conventions, inherited from inspect's own
 * viewer (ts-mono `generated.ts`):
 * - a field inspect declares nullable is `field?: T | null` — the writer omits
 *   nulls, hand-written fixtures sometimes spell them out;
 * - a field inspect declares required is required here, even though old logs
 *   and minimal fixtures omit some of them: {@link parseEvent} fills those with
 *   inspect's defaults and reports a diagnostic (inspect's declared types are no promise);
 * - `uuid` and `timestamp` are required on canonical events even though the
 *   wire may lack them: the parser derives a deterministic `uuid` and repairs a
 *   missing `timestamp`, so every consumer can rely on identity and time.
 *
 * Parsed events are deep-frozen. The interfaces are not `readonly` so that
 * producers (generators, importers) can build them with plain literals.
 */

// ---------------------------------------------------------------------------
// JSON helpers
// ---------------------------------------------------------------------------

/**
 * Any JSON value. Numbers may be `NaN` or `±Infinity`: inspect writes those as
 * bare tokens in scores (inspect_ai's `log/_log.py`).
 *
 * @example
 * const data: JsonValue = { rows: [1, 2, 3], ok: true };
 */
export type JsonValue =
  string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/**
 * A JSON object with free-form keys (`metadata`, provider payloads, …).
 *
 * @example
 * const metadata: JsonObject = { attempt: 2 };
 */
export type JsonObject = { [key: string]: unknown };

// ---------------------------------------------------------------------------
// Envelope
// ---------------------------------------------------------------------------

/**
 * Fields every event carries (inspect_ai's `event/_base.py`).
 *
 * @example
 * const envelope: BaseEvent = {
 *   event: 'info', uuid: 'hVv1xX2Mn8sZ4iT7Qe3rKd', timestamp: '2026-06-10T18:23:50.198559+00:00',
 * };
 */
export interface BaseEvent {
  /** The discriminator. */
  event: string;
  /**
   * Identity (inspect writes a 22-char shortuuid). Old logs have none; the
   * parser then derives a deterministic one (see `deriveEventUuid`).
   */
  uuid: string;
  /**
   * Id of the enclosing span, assigned when the event object was created, not
   * when it was emitted (inspect_ai's `span()`). Absent → the root.
   */
  span_id?: string | null;
  /**
   * Start time, ISO 8601 as given (`Z` or `±hh:mm`, 0–9 fractional digits).
   * The derived epoch milliseconds are read with `eventTime(event)`.
   */
  timestamp: string;
  /**
   * Sample working time in seconds at the start of the event: monotonic minus
   * waiting time, **not** a wall clock — never sort on it.
   */
  working_start?: number;
  /** `true` while the event is in flight; re-emitted under the same `uuid` when final. */
  pending?: boolean | null;
  /** Free-form metadata. */
  metadata?: JsonObject | null;
}

// ---------------------------------------------------------------------------
// Content parts
// ---------------------------------------------------------------------------

/**
 * A citation attached to text (provider-specific shapes, kept as given).
 *
 * @example
 * const c: Citation = { type: 'url', url: 'https://example.com', cited_text: 'x' };
 */
export interface Citation {
  type?: string;
  cited_text?: string | [number, number] | null;
  title?: string | null;
  url?: string | null;
  internal?: JsonObject | null;
  [key: string]: unknown;
}

/** Fields every content part may carry. @example const b: ContentBase = { internal: null }; */
export interface ContentBase {
  /** Provider-specific payload (opaque; inspect_ai's `model/` and `tool/` types). */
  internal?: unknown;
}

/**
 * Text content.
 *
 * @example
 * const part: ContentText = { type: 'text', text: 'Hello' };
 */
export interface ContentText extends ContentBase {
  type: 'text';
  text: string;
  /** Whether the text is a refusal. */
  refusal?: boolean | null;
  citations?: Citation[] | null;
}

/**
 * Model reasoning ("thinking").
 *
 * @example
 * const part: ContentReasoning = { type: 'reasoning', reasoning: 'Let me think…', redacted: false };
 */
export interface ContentReasoning extends ContentBase {
  type: 'reasoning';
  reasoning: string;
  summary?: string | null;
  signature?: string | null;
  /** Default `false`. When true `reasoning` holds an encrypted blob. */
  redacted?: boolean;
}

/**
 * An image (URL or data URI).
 *
 * @example
 * const part: ContentImage = { type: 'image', image: 'data:image/png;base64,…', detail: 'auto' };
 */
export interface ContentImage extends ContentBase {
  type: 'image';
  image: string;
  /** Default `'auto'`. */
  detail?: 'auto' | 'low' | 'high' | 'original';
}

/**
 * Audio (URL or data URI).
 *
 * @example
 * const part: ContentAudio = { type: 'audio', audio: 'data:audio/wav;base64,…', format: 'wav' };
 */
export interface ContentAudio extends ContentBase {
  type: 'audio';
  audio: string;
  format: 'wav' | 'mp3';
}

/**
 * Video (URL or data URI).
 *
 * @example
 * const part: ContentVideo = { type: 'video', video: 'https://example.com/v.mp4', format: 'mp4' };
 */
export interface ContentVideo extends ContentBase {
  type: 'video';
  video: string;
  format: 'mp4' | 'mpeg' | 'mov';
}

/**
 * A document (URL, data URI or path).
 *
 * @example
 * const part: ContentDocument = { type: 'document', document: 'data:application/pdf;base64,…', filename: 'a.pdf', mime_type: 'application/pdf' };
 */
export interface ContentDocument extends ContentBase {
  type: 'document';
  document: string;
  filename: string;
  mime_type: string;
  /** Default `false`. */
  citations?: boolean;
}

/**
 * Opaque model-specific data.
 *
 * @example
 * const part: ContentData = { type: 'data', data: { kind: 'x' } };
 */
export interface ContentData extends ContentBase {
  type: 'data';
  data: JsonObject;
}

/**
 * Server-side tool use reported by the model provider (web search, MCP, code
 * execution).
 *
 * @example
 * const part: ContentToolUse = {
 *   type: 'tool_use', tool_type: 'web_search', id: 'ws_1', name: 'web_search',
 *   arguments: '{"q":"inspect"}', result: '…',
 * };
 */
export interface ContentToolUse extends ContentBase {
  type: 'tool_use';
  tool_type: 'web_search' | 'mcp_call' | 'code_execution' | (string & {});
  id: string;
  name: string;
  context?: string | null;
  /** Arguments as a JSON string. */
  arguments: string;
  result: string;
  error?: string | null;
}

/**
 * A content part of a message (discriminated by `type`).
 *
 * @example
 * const parts: Content[] = [{ type: 'text', text: 'See image' }, { type: 'image', image: 'https://x/y.png' }];
 */
export type Content =
  | ContentText
  | ContentReasoning
  | ContentImage
  | ContentAudio
  | ContentVideo
  | ContentDocument
  | ContentData
  | ContentToolUse;

// ---------------------------------------------------------------------------
// Tool calls
// ---------------------------------------------------------------------------

/**
 * Content shown for a tool call (may contain `{{arg}}` placeholders filled
 * from the call's arguments, inspect_ai's `model/` and `tool/` types).
 *
 * @example
 * const view: ToolCallContent = { format: 'markdown', content: '```bash\n{{cmd}}\n```' };
 */
export interface ToolCallContent {
  title?: string | null;
  format: 'text' | 'markdown';
  content: string;
}

/**
 * Custom rendering of a tool call for approval.
 *
 * @example
 * const view: ToolCallView = { call: { format: 'text', content: 'ls' } };
 */
export interface ToolCallView {
  context?: ToolCallContent | null;
  call?: ToolCallContent | null;
}

/**
 * A tool call requested by the model.
 *
 * @example
 * const call: ToolCall = { id: 'call_1', function: 'bash', arguments: { cmd: 'ls' }, type: 'function' };
 */
export interface ToolCall {
  id: string;
  function: string;
  arguments: JsonObject;
  /** Error parsing the model's arguments, if any. */
  parse_error?: string | null;
  view?: ToolCallContent | null;
  /** `'function'` (default) or `'custom'`. */
  type?: 'function' | 'custom';
  internal?: unknown;
}

/**
 * Kinds of tool call error (inspect_ai's `model/` and `tool/` types; `output_limit` is legacy).
 *
 * @example
 * const t: ToolCallErrorType = 'timeout';
 */
export type ToolCallErrorType =
  | 'parsing'
  | 'timeout'
  | 'unicode_decode'
  | 'permission'
  | 'file_not_found'
  | 'is_a_directory'
  | 'limit'
  | 'approval'
  | 'cancelled'
  | 'sandbox_unavailable'
  | 'unknown'
  | 'output_limit'
  | (string & {});

/**
 * An error from a tool call. `type: 'cancelled'` with `ToolEvent.failed` means
 * an operator cancel.
 *
 * @example
 * const err: ToolCallError = { type: 'timeout', message: 'Command timed out after 180s' };
 */
export interface ToolCallError {
  type: ToolCallErrorType;
  message: string;
}

/**
 * A tool offered to the model.
 *
 * @example
 * const tool: ToolInfo = {
 *   name: 'bash', description: 'Run a command',
 *   parameters: { type: 'object', properties: { cmd: { type: 'string' } }, required: ['cmd'] },
 * };
 */
export interface ToolInfo {
  name: string;
  description: string;
  parameters: ToolParams;
  options?: JsonObject | null;
}

/**
 * JSON-Schema-like tool parameters.
 *
 * @example
 * const params: ToolParams = { type: 'object', properties: {}, required: [] };
 */
export interface ToolParams {
  type?: 'object';
  properties: JsonObject;
  required?: string[];
  additionalProperties?: boolean;
}

/**
 * How the model may choose tools: `'auto'`, `'any'`, `'none'` or a named function.
 *
 * @example
 * const choice: ToolChoice = { name: 'submit' };
 */
export type ToolChoice = 'auto' | 'any' | 'none' | ToolFunction;

/**
 * A named tool, as used by {@link ToolChoice}.
 *
 * @example
 * const f: ToolFunction = { name: 'bash' };
 */
export interface ToolFunction {
  name: string;
}

// ---------------------------------------------------------------------------
// Chat messages
// ---------------------------------------------------------------------------

/**
 * Fields shared by every chat message.
 *
 * @example
 * const base: ChatMessageBase = { content: 'Hi', source: 'input' };
 */
export interface ChatMessageBase {
  id?: string | null;
  content: string | Content[];
  source?: 'input' | 'generate' | 'operator' | (string & {}) | null;
  metadata?: JsonObject | null;
  internal?: unknown;
}

/**
 * A system message.
 *
 * @example
 * const m: ChatMessageSystem = { role: 'system', content: 'You are helpful.' };
 */
export interface ChatMessageSystem extends ChatMessageBase {
  role: 'system';
}

/**
 * A user message.
 *
 * @example
 * const m: ChatMessageUser = { role: 'user', content: 'What is 2+2?' };
 */
export interface ChatMessageUser extends ChatMessageBase {
  role: 'user';
  /** Ids of the tool calls this message answers (some providers fold tool output into user turns). */
  tool_call_id?: string[] | null;
}

/**
 * An assistant message, possibly with tool calls.
 *
 * @example
 * const m: ChatMessageAssistant = { role: 'assistant', content: '', tool_calls: [{ id: 'c1', function: 'bash', arguments: { cmd: 'ls' } }] };
 */
export interface ChatMessageAssistant extends ChatMessageBase {
  role: 'assistant';
  tool_calls?: ToolCall[] | null;
  model?: string | null;
}

/**
 * A tool result message (legacy `tool_error` is migrated to `error` by inspect).
 *
 * @example
 * const m: ChatMessageTool = { role: 'tool', content: 'file.txt', tool_call_id: 'c1', function: 'bash' };
 */
export interface ChatMessageTool extends ChatMessageBase {
  role: 'tool';
  tool_call_id?: string | null;
  function?: string | null;
  error?: ToolCallError | null;
}

/**
 * A chat message, discriminated by `role`.
 *
 * @example
 * const conversation: ChatMessage[] = [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello!' }];
 */
export type ChatMessage =
  ChatMessageSystem | ChatMessageUser | ChatMessageAssistant | ChatMessageTool;

// ---------------------------------------------------------------------------
// Model output
// ---------------------------------------------------------------------------

/**
 * Token usage of a model call. `input_tokens` excludes the cache read/write
 * counts (inspect_ai's `model/` and `tool/` types).
 *
 * @example
 * const usage: ModelUsage = { input_tokens: 97, output_tokens: 263, total_tokens: 16488, input_tokens_cache_read: 16128 };
 */
export interface ModelUsage {
  /**
   * The three counts default to 0 in inspect and its writer always emits them,
   * but hand-made fixtures omit some (often `total_tokens`) and the parser does
   * not invent them: read them with `?? 0`.
   */
  input_tokens?: number;
  /** Default 0. */
  output_tokens?: number;
  /** Default 0. */
  total_tokens?: number;
  input_tokens_cache_write?: number | null;
  input_tokens_cache_read?: number | null;
  reasoning_tokens?: number | null;
  total_cost?: number | null;
}

/**
 * Why the model stopped.
 *
 * @example
 * const r: StopReason = 'tool_calls';
 */
export type StopReason =
  | 'stop'
  | 'max_tokens'
  | 'model_length'
  | 'tool_calls'
  | 'content_filter'
  | 'unknown'
  | (string & {});

/**
 * Log probabilities of the output tokens (provider-shaped; kept as given).
 *
 * @example
 * const lp: Logprobs = { content: [{ token: 'Hi', logprob: -0.1, top_logprobs: [] }] };
 */
export interface Logprobs {
  content: Logprob[];
}

/**
 * The log probability of one token.
 *
 * @example
 * const lp: Logprob = { token: 'Hi', logprob: -0.1 };
 */
export interface Logprob {
  token: string;
  logprob: number;
  bytes?: number[] | null;
  top_logprobs?: { token: string; logprob: number; bytes?: number[] | null }[] | null;
}

/**
 * One choice of a model output.
 *
 * @example
 * const choice: ChatCompletionChoice = { message: { role: 'assistant', content: '4' }, stop_reason: 'stop' };
 */
export interface ChatCompletionChoice {
  message: ChatMessageAssistant;
  /** Default `'unknown'`. */
  stop_reason?: StopReason;
  stop_details?: string | null;
  logprobs?: Logprobs | null;
  prompt_logprobs?: unknown;
}

/**
 * The output of a model call.
 *
 * @example
 * const out: ModelOutput = {
 *   model: 'openai/gpt-5.4', completion: '4',
 *   choices: [{ message: { role: 'assistant', content: '4' }, stop_reason: 'stop' }],
 *   usage: { input_tokens: 10, output_tokens: 1, total_tokens: 11 },
 * };
 */
export interface ModelOutput {
  /** Default `''`. */
  model: string;
  choices: ChatCompletionChoice[];
  /** Text of choice 0 (default `''`). */
  completion: string;
  usage?: ModelUsage | null;
  /** Set when a fallback model produced the output. */
  fallback?: string | null;
  /** Seconds the call took. */
  time?: number | null;
  metadata?: JsonObject | null;
  error?: string | null;
}

/**
 * The raw provider request/response of a model call. When pooled, the
 * messages array is removed from `request` and referenced by `call_refs`
 * under `call_key` (inspect_ai's `condense_sample`).
 *
 * @example
 * const call: ModelCall = { request: { model: 'gpt-5.4', messages: [] }, response: { id: 'r1' }, time: 1.2 };
 */
export interface ModelCall {
  request: JsonObject;
  response?: JsonObject | null;
  /** A message in older logs, a flag in newer ones. */
  error?: string | boolean | null;
  time?: number | null;
  /** Half-open `[start, end)` ranges into the sample's call pool. */
  call_refs?: [number, number][] | null;
  /** The request key the pooled messages lived under (`messages`, `contents`, `input`, `inputs`). */
  call_key?: string | null;
}

/**
 * Generation options (about 40 optional knobs; usually `{}` or a few keys).
 *
 * @example
 * const config: GenerateConfig = { max_tokens: 4096, temperature: 0 };
 */
export interface GenerateConfig {
  max_retries?: number | null;
  timeout?: number | null;
  max_connections?: number | null;
  system_message?: string | null;
  max_tokens?: number | null;
  top_p?: number | null;
  temperature?: number | null;
  stop_seqs?: string[] | null;
  best_of?: number | null;
  frequency_penalty?: number | null;
  presence_penalty?: number | null;
  logit_bias?: Record<string, number> | null;
  seed?: number | null;
  top_k?: number | null;
  num_choices?: number | null;
  logprobs?: boolean | null;
  top_logprobs?: number | null;
  parallel_tool_calls?: boolean | null;
  internal_tools?: boolean | null;
  max_tool_output?: number | null;
  cache_prompt?: 'auto' | boolean | null;
  reasoning_effort?: string | null;
  reasoning_tokens?: number | null;
  reasoning_summary?: string | null;
  reasoning_history?: string | null;
  response_schema?: JsonObject | null;
  extra_body?: JsonObject | null;
  [key: string]: unknown;
}

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

// ---------------------------------------------------------------------------
// The 23 inspect_ai event kinds (in inspect's `Event` union order)
// ---------------------------------------------------------------------------

/**
 * The beginning of a sample: the dataset sample and the initial TaskState.
 *
 * @example
 * const e: SampleInitEvent = { event: 'sample_init', uuid: 'u1', timestamp: '2026-06-10T18:23:50Z', sample: { input: 'hi', target: '' }, state: {} };
 */
export interface SampleInitEvent extends BaseEvent {
  event: 'sample_init';
  sample: DatasetSample;
  /** JSON snapshot of the TaskState (messages, tools, tool_choice, store, output, completed, metadata). */
  state: JsonObject;
}

/**
 * A limit stopped the sample.
 *
 * @example
 * const e: SampleLimitEvent = { event: 'sample_limit', uuid: 'u2', timestamp: '2026-06-10T18:30:00Z', type: 'token', message: 'Token limit exceeded', limit: 100000 };
 */
export interface SampleLimitEvent extends BaseEvent {
  event: 'sample_limit';
  type:
    | 'message'
    | 'time'
    | 'working'
    | 'token'
    | 'turn'
    | 'cost'
    | 'operator'
    | 'custom'
    | (string & {});
  message: string;
  limit?: number | null;
}

/**
 * A sandbox operation (`input`/`output` truncated to 100 lines by inspect).
 *
 * @example
 * const e: SandboxEvent = { event: 'sandbox', uuid: 'u3', timestamp: '2026-06-10T18:23:52Z', action: 'exec', cmd: 'ls', result: 0, output: 'a.txt' };
 */
export interface SandboxEvent extends BaseEvent {
  event: 'sandbox';
  action: 'exec' | 'read_file' | 'write_file' | (string & {});
  cmd?: string | null;
  options?: JsonObject | null;
  file?: string | null;
  input?: string | null;
  /** Exit code of `exec`. */
  result?: number | null;
  output?: string | null;
  /** End time (ISO 8601). */
  completed?: string | null;
}

/**
 * Changes to the TaskState, as JSON-Patch operations.
 *
 * @example
 * const e: StateEvent = { event: 'state', uuid: 'u4', timestamp: '2026-06-10T18:23:52Z', changes: [{ op: 'add', path: '/completed', value: true }] };
 */
export interface StateEvent extends BaseEvent {
  event: 'state';
  changes: JsonChange[];
}

/**
 * Changes to the sample Store, as JSON-Patch operations.
 *
 * @example
 * const e: StoreEvent = { event: 'store', uuid: 'u5', timestamp: '2026-06-10T18:23:52Z', changes: [{ op: 'add', path: '/port', value: 3001 }] };
 */
export interface StoreEvent extends BaseEvent {
  event: 'store';
  changes: JsonChange[];
}

/**
 * A model call. `input` is `[]` and `input_refs` set when the log pooled the
 * messages (inspect_ai's `condense_sample`); an importer resolves them.
 * An `error` of exactly "Cancelled by operator|limit|system" is an interrupted
 * generation.
 *
 * @example
 * const e: ModelEvent = {
 *   event: 'model', uuid: 'u6', timestamp: '2026-06-10T18:24:10Z', model: 'openai/gpt-5.4',
 *   input: [{ role: 'user', content: 'hi' }], tools: [], tool_choice: 'auto', config: {},
 *   output: { model: 'openai/gpt-5.4', choices: [], completion: '' },
 * };
 */
export interface ModelEvent extends BaseEvent {
  event: 'model';
  model: string;
  /** Model role (e.g. `grader`), when the model was bound to one. */
  role?: string | null;
  input: ChatMessage[];
  /** Half-open `[start, end)` ranges into the sample's message pool. */
  input_refs?: [number, number][] | null;
  tools: ToolInfo[];
  tool_choice: ToolChoice;
  config: GenerateConfig;
  output: ModelOutput;
  /** Number of retries before success. */
  retries?: number | null;
  error?: string | null;
  traceback?: string | null;
  traceback_ansi?: string | null;
  cache?: 'read' | 'write' | null;
  call?: ModelCall | null;
  /** End time (ISO 8601). */
  completed?: string | null;
  /** Working seconds the call took. */
  working_time?: number | null;
  /** Attempt number when the call was retried. */
  attempt?: number | null;
  /** Provider call id. */
  call_id?: string | null;
  /** When the final provider call started (ISO 8601); `timestamp` includes queueing and retries. */
  call_started_at?: string | null;
  /** When the final provider call completed (ISO 8601). */
  call_completed_at?: string | null;
  call_working_start?: number | null;
  call_working_time?: number | null;
  call_retries?: number | null;
  http_retries?: number | null;
}

/**
 * A tool call and its result. It sits **outside** its own tool span: created
 * (and given its `span_id`) in the enclosing span, emitted after
 * `span_begin(type=tool)` (inspect_ai's `span()`).
 *
 * @example
 * const e: ToolEvent = {
 *   event: 'tool', uuid: 'u7', timestamp: '2026-06-10T18:24:12Z', type: 'function', id: 'call_1',
 *   function: 'bash', arguments: { cmd: 'ls' }, result: 'a.txt', events: [],
 * };
 */
export interface ToolEvent extends BaseEvent {
  event: 'tool';
  /** Default `'function'`. */
  type: 'function' | (string & {});
  /** The tool-call id. */
  id: string;
  function: string;
  arguments: JsonObject;
  view?: ToolCallContent | null;
  /** Default `''`. */
  result: string | number | boolean | Content | Content[];
  /** `[from, to]` sizes when the output was truncated. */
  truncated?: [number, number] | null;
  error?: ToolCallError | null;
  /**
   * Legacy nested events (now always in the main list); usually `[]`.
   * Kept as raw wire objects: an importer flattens them before parsing.
   */
  events: unknown[];
  /** End time (ISO 8601). */
  completed?: string | null;
  working_time?: number | null;
  /** Set when the call was an agent handoff. */
  agent?: string | null;
  /** Span id of the agent the call spawned. */
  agent_span_id?: string | null;
  failed?: boolean | null;
  /** Id of the resulting ChatMessageTool. */
  message_id?: string | null;
}

/**
 * A roll-back point in a replayable trajectory; hidden by default in inspect's viewer.
 *
 * @example
 * const e: AnchorEvent = { event: 'anchor', uuid: 'u8', timestamp: '2026-06-10T18:24:13Z', anchor_id: 'a1' };
 */
export interface AnchorEvent extends BaseEvent {
  event: 'anchor';
  anchor_id: string;
  source?: string | null;
}

/**
 * A tool call approval decision.
 *
 * @example
 * const e: ApprovalEvent = {
 *   event: 'approval', uuid: 'u9', timestamp: '2026-06-10T18:24:14Z', message: 'ok?',
 *   call: { id: 'c1', function: 'bash', arguments: { cmd: 'rm -rf /' } }, approver: 'human', decision: 'reject',
 * };
 */
export interface ApprovalEvent extends BaseEvent {
  event: 'approval';
  message: string;
  call: ToolCall;
  view?: ToolCallView | null;
  approver: string;
  decision: 'approve' | 'modify' | 'reject' | 'escalate' | 'terminate';
  modified?: ToolCall | null;
  explanation?: string | null;
}

/**
 * Where a branched trajectory's genuine (non-replayed) content begins. Legacy
 * `from_message` is migrated by inspect, `from_span` dropped.
 *
 * @example
 * const e: BranchEvent = { event: 'branch', uuid: 'u10', timestamp: '2026-06-10T18:24:15Z', from_anchor: 'a1' };
 */
export interface BranchEvent extends BaseEvent {
  event: 'branch';
  /** Default `''`. */
  from_anchor: string;
}

/**
 * Size and timing of a host or sandbox snapshot in a checkpoint.
 *
 * @example
 * const s: CheckpointSnapshot = { snapshot_id: '93f9…', size_bytes: 59255, duration_ms: 768 };
 */
export interface CheckpointSnapshot {
  snapshot_id?: string;
  size_bytes?: number;
  duration_ms?: number;
  /** Files captured (sandboxes only). */
  files?: string[];
  [key: string]: unknown;
}

/**
 * A flattened checkpoint record; extra keys are allowed.
 *
 * @example
 * const e: CheckpointEvent = {
 *   event: 'checkpoint', uuid: 'u11', timestamp: '2026-06-10T18:24:28Z', checkpoint_id: 1, trigger: 'token',
 *   turn: 2, created_at: '2026-06-10T18:24:28.542453Z', duration_ms: 3598, size_bytes: 245385,
 * };
 */
export interface CheckpointEvent extends BaseEvent {
  event: 'checkpoint';
  checkpoint_id: number | string;
  trigger: string;
  trigger_metadata?: JsonObject | null;
  turn: number;
  created_at: string;
  duration_ms: number;
  size_bytes: number;
  host?: CheckpointSnapshot | null;
  sandboxes?: Record<string, CheckpointSnapshot> | null;
  [key: string]: unknown;
}

/**
 * The conversation was compacted (summarized, edited or trimmed).
 *
 * @example
 * const e: CompactionEvent = { event: 'compaction', uuid: 'u12', timestamp: '2026-06-10T18:25:00Z', type: 'summary', tokens_before: 180000, tokens_after: 12000 };
 */
export interface CompactionEvent extends BaseEvent {
  event: 'compaction';
  /** Default `'summary'`. */
  type: 'summary' | 'edit' | 'trim' | (string & {});
  role?: string | null;
  tokens_before?: number | null;
  tokens_after?: number | null;
  source?: string | null;
}

/**
 * Input asked of (or given by) a human operator.
 *
 * @example
 * const e: InputEvent = { event: 'input', uuid: 'u13', timestamp: '2026-06-10T18:25:01Z', input: 'yes', input_ansi: 'yes' };
 */
export interface InputEvent extends BaseEvent {
  event: 'input';
  input: string;
  input_ansi: string;
  message?: string | null;
  fields?: InputField[] | null;
  outcome?: 'accepted' | 'declined' | 'cancelled' | null;
  content?: unknown;
}

/**
 * The run was interrupted.
 *
 * @example
 * const e: InterruptEvent = { event: 'interrupt', uuid: 'u14', timestamp: '2026-06-10T18:25:02Z', source: 'user_cancel', interrupted: 'generate', interrupted_model_event_id: 'u6' };
 */
export interface InterruptEvent extends BaseEvent {
  event: 'interrupt';
  source: 'user_cancel' | 'limit' | 'system' | (string & {});
  interrupted: 'generate' | 'tool_call' | 'between_turns' | (string & {});
  interrupted_tool_call_id?: string | null;
  /** The `uuid` of the interrupted ModelEvent. */
  interrupted_model_event_id?: string | null;
}

/**
 * A score (final or intermediate).
 *
 * @example
 * const e: ScoreEvent = { event: 'score', uuid: 'u15', timestamp: '2026-06-10T18:26:27Z', score: { value: 'C' }, intermediate: false };
 */
export interface ScoreEvent extends BaseEvent {
  event: 'score';
  score: Score;
  target?: string | string[] | null;
  /** Default `false`. */
  intermediate: boolean;
  scorer?: string | null;
  scorer_args?: JsonObject | null;
  model_usage?: Record<string, ModelUsage> | null;
  role_usage?: Record<string, ModelUsage> | null;
}

/**
 * An edit of a named score.
 *
 * @example
 * const e: ScoreEditEvent = { event: 'score_edit', uuid: 'u16', timestamp: '2026-06-11T09:00:00Z', score_name: 'model_graded_qa', edit: { value: 'I' } };
 */
export interface ScoreEditEvent extends BaseEvent {
  event: 'score_edit';
  score_name: string;
  edit: ScoreEdit;
}

/**
 * The sample failed with an error.
 *
 * @example
 * const e: ErrorEvent = { event: 'error', uuid: 'u17', timestamp: '2026-06-10T18:26:30Z', error: { message: 'boom', traceback: '…', traceback_ansi: '…' } };
 */
export interface ErrorEvent extends BaseEvent {
  event: 'error';
  error: EvalError;
}

/**
 * A Python log record.
 *
 * @example
 * const e: LoggerEvent = { event: 'logger', uuid: 'u18', timestamp: '2026-06-10T18:24:25Z', message: { level: 'warning', message: 'slow', created: 1781115865077.473 } };
 */
export interface LoggerEvent extends BaseEvent {
  event: 'logger';
  message: LoggingMessage;
}

/**
 * Free-form information (any JSON; markdown when `data` is a string).
 *
 * @example
 * const e: InfoEvent = { event: 'info', uuid: 'u19', timestamp: '2026-06-10T18:24:26Z', source: 'agent', data: 'Planning step 2' };
 */
export interface InfoEvent extends BaseEvent {
  event: 'info';
  source?: string | null;
  /** Any JSON. Absent when inspect wrote `null` (`exclude_none`). */
  data?: unknown;
}

/**
 * A span begins. In real logs `span_id === id` and the parent is `parent_id`
 * only; `type` defaults to `name` at creation (inspect_ai's `span()`).
 *
 * @example
 * const e: SpanBeginEvent = { event: 'span_begin', uuid: 'u20', timestamp: '2026-06-10T18:23:50Z', id: 's1', span_id: 's1', name: 'init', type: 'init' };
 */
export interface SpanBeginEvent extends BaseEvent {
  event: 'span_begin';
  id: string;
  parent_id?: string | null;
  type?: string | null;
  name: string;
}

/**
 * A span ends (`span_id === id` in real logs).
 *
 * @example
 * const e: SpanEndEvent = { event: 'span_end', uuid: 'u21', timestamp: '2026-06-10T18:23:52Z', id: 's1', span_id: 's1' };
 */
export interface SpanEndEvent extends BaseEvent {
  event: 'span_end';
  id: string;
}

/**
 * Legacy structure (pre-span logs): begin/end pairs instead of spans.
 *
 * @example
 * const e: StepEvent = { event: 'step', uuid: 'u22', timestamp: '2024-11-05T13:32:37-05:00', action: 'begin', type: 'solver', name: 'generate' };
 */
export interface StepEvent extends BaseEvent {
  event: 'step';
  action: 'begin' | 'end';
  type?: string | null;
  name: string;
}

/**
 * A subtask (a function run as its own unit). `events` is legacy.
 *
 * @example
 * const e: SubtaskEvent = { event: 'subtask', uuid: 'u23', timestamp: '2026-06-10T18:25:10Z', name: 'research', input: { q: 'x' }, result: 'done', events: [] };
 */
export interface SubtaskEvent extends BaseEvent {
  event: 'subtask';
  name: string;
  type?: string | null;
  input: JsonObject;
  /** Any JSON; absent when inspect wrote `null` (`exclude_none`). */
  result?: unknown;
  /** Legacy nested raw events; usually `[]`. An importer flattens them. */
  events: unknown[];
  /** End time (ISO 8601). */
  completed?: string | null;
  working_time?: number | null;
}

// ---------------------------------------------------------------------------
// skein additions
// ---------------------------------------------------------------------------

/**
 * A chat message seen outside a model call (ACP chunks, Claude Code,
 * OpenHands). Events with the same `message_id` are chunks of one message:
 * their `content` appends in order.
 *
 * Added in 0.1.
 *
 * @example
 * const chunk: MessageEvent = { event: 'message', uuid: 'm1', timestamp: '2026-06-10T18:25:00Z', role: 'assistant', content: 'Hel', message_id: 'msg_1' };
 */
export interface MessageEvent extends BaseEvent {
  event: 'message';
  role: 'system' | 'user' | 'assistant' | 'tool';
  /** A chunk of the message; chunks with the same `message_id` append. */
  content: string | Content[];
  /** Groups chunks of one message. */
  message_id: string;
  /** Where the message came from (`input`, `generate`, `operator`, or a source's own name). */
  source?: string | null;
  /** The model that wrote an assistant message. */
  model?: string | null;
  /** Tool calls requested by an assistant message. */
  tool_calls?: ToolCall[] | null;
  /** The tool call a `tool` message answers. */
  tool_call_id?: string | null;
}

/**
 * A MIME bundle, as in Jupyter's `display_data`: representations keyed by
 * MIME type (`text/plain`, `text/markdown`, `image/png`, …).
 *
 * Added in 0.1.
 *
 * @example
 * const bundle: MimeBundle = { data: { 'text/markdown': '**done**', 'text/plain': 'done' } };
 */
export interface MimeBundle {
  data: Record<string, unknown>;
  metadata?: Record<string, unknown> | null;
}

/**
 * Output produced by the agent (agex `OutputEvent`, Jupyter `display_data`):
 * a list of MIME bundles. A later event with the same `display_id` replaces
 * the earlier display in place.
 *
 * Added in 0.1.
 *
 * @example
 * const e: DisplayEvent = { event: 'display', uuid: 'd1', timestamp: '2026-06-10T18:25:00Z', outputs: [{ data: { 'text/plain': '42' } }], display_id: 'plot' };
 */
export interface DisplayEvent extends BaseEvent {
  event: 'display';
  outputs: MimeBundle[];
  /** Displays with the same id update in place. */
  display_id?: string | null;
}

/**
 * The brand of {@link UnknownEvent}: a type-only key (nothing sets it at run
 * time, and it is not exported), so an object literal can never be an
 * `UnknownEvent` by accident — a misspelled kind (`{ event: 'modle', … }`) fails
 * to type-check as an `Event` instead of passing as an unknown one.
 */
declare const unknownEventBrand: unique symbol;

/**
 * An event whose `event` string skein does not know. Preserved exactly as it
 * came (every field kept) and rendered generically.
 *
 * It is **branded**: values of this type come from `parseEvent`/`parseEvents`
 * (untyped input, checked), from `events.unknown(kind, fields)` (a deliberate
 * unknown kind), or from a cast. A literal is not one, so a typo in a known
 * kind is a type error rather than a silently generic row.
 *
 * @example
 * const e: UnknownEvent = events.unknown('future_kind', { payload: 1 });
 */
export interface UnknownEvent extends BaseEvent {
  /** Type-only brand; see the interface comment. */
  readonly [unknownEventBrand]: true;
  event: string;
  [key: string]: unknown;
}

// ---------------------------------------------------------------------------
// Unions and kinds
// ---------------------------------------------------------------------------

/**
 * The 23 inspect_ai event kinds, in inspect's `Event` union order.
 *
 * @example
 * const e: InspectEvent = { event: 'span_end', uuid: 'u', timestamp: '2026-01-01T00:00:00Z', id: 's' };
 */
export type InspectEvent =
  | SampleInitEvent
  | SampleLimitEvent
  | SandboxEvent
  | StateEvent
  | StoreEvent
  | ModelEvent
  | ToolEvent
  | AnchorEvent
  | ApprovalEvent
  | BranchEvent
  | CheckpointEvent
  | CompactionEvent
  | InputEvent
  | InterruptEvent
  | ScoreEvent
  | ScoreEditEvent
  | ErrorEvent
  | LoggerEvent
  | InfoEvent
  | SpanBeginEvent
  | SpanEndEvent
  | StepEvent
  | SubtaskEvent;

/**
 * Every kind skein knows: inspect's 23 plus `message` and `display`. Narrow
 * an {@link Event} to this with `isKnownEvent` before a `switch` on `event`.
 *
 * @example
 * function title(e: KnownEvent) { return e.event === 'model' ? e.model : e.event; }
 */
export type KnownEvent = InspectEvent | MessageEvent | DisplayEvent;

/**
 * A canonical event: one of the known kinds, or an {@link UnknownEvent}.
 *
 * The union is closed: an object literal must match a known kind exactly
 * (`{ event: 'modle', … }` is a type error), and an unknown kind is made on
 * purpose with `events.unknown(kind, fields)` (or comes from `parseEvent`).
 *
 * Because `UnknownEvent.event` is any string, `e.event === 'model'` alone
 * narrows to `ModelEvent | UnknownEvent`; narrow with `isKnownEvent(e)` first
 * (then `switch (e.event)` narrows each case), or use `isEventOfKind(e, 'model')`.
 *
 * @example
 * const events: Event[] = parseEvents(json).events;
 */
export type Event = KnownEvent | UnknownEvent;

/**
 * The `event` string of a known kind.
 *
 * @example
 * const k: EventKind = 'tool';
 */
export type EventKind = KnownEvent['event'];

/**
 * The `event` string of one of inspect_ai's 23 kinds.
 *
 * @example
 * const k: InspectEventKind = 'span_begin';
 */
export type InspectEventKind = InspectEvent['event'];

/**
 * The event interface for a kind: `EventOfKind<'model'>` is `ModelEvent`.
 *
 * @example
 * const m: EventOfKind<'model'> | undefined = undefined;
 */
export type EventOfKind<K extends EventKind> = Extract<KnownEvent, { event: K }>;

/**
 * inspect_ai's 23 kinds, in its `Event` union order (inspect_ai's `event/` models).
 *
 * @example
 * INSPECT_EVENT_KINDS.includes('model'); // true
 */
export const INSPECT_EVENT_KINDS = [
  'sample_init',
  'sample_limit',
  'sandbox',
  'state',
  'store',
  'model',
  'tool',
  'anchor',
  'approval',
  'branch',
  'checkpoint',
  'compaction',
  'input',
  'interrupt',
  'score',
  'score_edit',
  'error',
  'logger',
  'info',
  'span_begin',
  'span_end',
  'step',
  'subtask',
] as const satisfies readonly InspectEvent['event'][];

/**
 * Every known kind: inspect's 23, then skein's `message` and `display`.
 *
 * @example
 * KNOWN_EVENT_KINDS.length; // 25
 */
export const KNOWN_EVENT_KINDS = [
  ...INSPECT_EVENT_KINDS,
  'message',
  'display',
] as const satisfies readonly EventKind[];

// Compile-time check that the lists cover the unions exactly (a kind added to
// a union but not to the list fails here).
type Missing<U, L> = Exclude<U, L>;
const _allKindsListed: [Missing<EventKind, (typeof KNOWN_EVENT_KINDS)[number]>] extends [never]
  ? true
  : never = true;
void _allKindsListed;

const knownKindSet: ReadonlySet<string> = new Set<string>(KNOWN_EVENT_KINDS);

/**
 * Whether a string is a known event kind.
 *
 * @example
 * isEventKind('model'); // true
 * isEventKind('future_kind'); // false
 */
export function isEventKind(kind: string): kind is EventKind {
  return knownKindSet.has(kind);
}

/**
 * Narrows an event to the known kinds, after which a `switch (e.event)`
 * narrows each case to its interface.
 *
 * @example
 * declare function show(name: string): void;
 * if (isKnownEvent(event) && event.event === 'tool') show(event.function);
 */
export function isKnownEvent(event: Event): event is KnownEvent {
  return knownKindSet.has(event.event);
}

/**
 * Narrows an event to one kind (an {@link UnknownEvent} never matches).
 *
 * @example
 * const models = stream.toArray().filter((e) => isEventOfKind(e, 'model')); // ModelEvent[]
 */
export function isEventOfKind<K extends EventKind>(event: Event, kind: K): event is EventOfKind<K> {
  return event.event === kind;
}

/**
 * Whether a value has the shape every canonical event has: a plain object
 * with string `event`, `uuid` and `timestamp`. A structural check only (it
 * does not validate kind fields); `parseEvent` is the full check.
 *
 * @example
 * const value: unknown = JSON.parse('{"event":"info","uuid":"u1","timestamp":"2024-01-01T00:00:00Z"}');
 * if (!isEvent(value)) throw new TypeError(`not an event: ${typeof value}`);
 */
export function isEvent(value: unknown): value is Event {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const candidate = value as { event?: unknown; uuid?: unknown; timestamp?: unknown };
  return (
    typeof candidate.event === 'string' &&
    typeof candidate.uuid === 'string' &&
    typeof candidate.timestamp === 'string'
  );
}
