// The event interfaces: the envelope every event carries, inspect_ai's 23 kinds and skein's additions (the unions are in `types.ts`).

import type { Content, JsonObject } from './content-types.js';
import type {
  ChatMessage,
  ToolCall,
  ToolCallContent,
  ToolCallError,
  ToolCallView,
  ToolChoice,
  ToolInfo,
} from './message-types.js';
import type { GenerateConfig, ModelCall, ModelOutput, ModelUsage } from './model-types.js';
import type {
  DatasetSample,
  EvalError,
  InputField,
  JsonChange,
  LoggingMessage,
  Score,
  ScoreEdit,
} from './payload-types.js';

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
