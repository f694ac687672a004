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

import type {
  AnchorEvent,
  ApprovalEvent,
  BranchEvent,
  CheckpointEvent,
  CompactionEvent,
  DisplayEvent,
  ErrorEvent,
  InfoEvent,
  InputEvent,
  InterruptEvent,
  LoggerEvent,
  MessageEvent,
  ModelEvent,
  SampleInitEvent,
  SampleLimitEvent,
  SandboxEvent,
  ScoreEditEvent,
  ScoreEvent,
  SpanBeginEvent,
  SpanEndEvent,
  StateEvent,
  StepEvent,
  StoreEvent,
  SubtaskEvent,
  ToolEvent,
  UnknownEvent,
} from './event-types.js';

export type {
  JsonValue,
  JsonObject,
  Citation,
  ContentBase,
  ContentText,
  ContentReasoning,
  ContentImage,
  ContentAudio,
  ContentVideo,
  ContentDocument,
  ContentData,
  ContentToolUse,
  Content,
} from './content-types.js';
export type {
  ToolCallContent,
  ToolCallView,
  ToolCall,
  ToolCallErrorType,
  ToolCallError,
  ToolInfo,
  ToolParams,
  ToolChoice,
  ToolFunction,
  ChatMessageBase,
  ChatMessageSystem,
  ChatMessageUser,
  ChatMessageAssistant,
  ChatMessageTool,
  ChatMessage,
} from './message-types.js';
export type {
  ModelUsage,
  StopReason,
  Logprobs,
  Logprob,
  ChatCompletionChoice,
  ModelOutput,
  ModelCall,
  GenerateConfig,
} from './model-types.js';
export type {
  JsonChange,
  ScoreValue,
  ScoreEdit,
  ProvenanceData,
  Score,
  EvalError,
  LoggingMessage,
  LoggingLevel,
  DatasetSample,
  InputField,
} from './payload-types.js';
export type {
  BaseEvent,
  SampleInitEvent,
  SampleLimitEvent,
  SandboxEvent,
  StateEvent,
  StoreEvent,
  ModelEvent,
  ToolEvent,
  AnchorEvent,
  ApprovalEvent,
  BranchEvent,
  CheckpointSnapshot,
  CheckpointEvent,
  CompactionEvent,
  InputEvent,
  InterruptEvent,
  ScoreEvent,
  ScoreEditEvent,
  ErrorEvent,
  LoggerEvent,
  InfoEvent,
  SpanBeginEvent,
  SpanEndEvent,
  StepEvent,
  SubtaskEvent,
  MessageEvent,
  MimeBundle,
  DisplayEvent,
  UnknownEvent,
} from './event-types.js';

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
