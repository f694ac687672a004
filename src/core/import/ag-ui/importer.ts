// Long on purpose (past 600 lines): one run state (runs, steps, subagents, open streams, messages and tool calls by id) that every AG-UI event updates.
//
// AG-UI events → canonical events, one event at a time (docs.ag-ui.com
// concepts/events; `@ag-ui/core` 1.0 `src/generated/types.ts`). The mapping:
// - `RUN_STARTED` … `RUN_FINISHED`/`RUN_ERROR` = a span (`turn`, or `agent`
//   when `parentRunId` names the run that spawned it, which is its parent);
//   its `span_begin` keeps the outcome, result and usage in
//   `metadata.ag_ui`. An `interrupt` outcome is a run that paused, not an
//   error; `cancelled` marks the run aborted (events/outcome.ts, "Aborted");
//   `RUN_ERROR` is an `error` event that ends the run. The run's `input`
//   messages not seen before become its first events.
// - `STEP_STARTED` … `STEP_FINISHED` = a `step` span inside the run;
//   `SUBAGENT_STARTED` … `SUBAGENT_FINISHED`/`_ERROR` = an `agent` span, and
//   events carrying a `subagentRunId` go in it (a subagent only attributed,
//   never started, gets its span on first sight).
// - `TEXT_MESSAGE_*` = one `message` event per `messageId`, re-emitted as it
//   grows (`pending` until its end); `REASONING_MESSAGE_*` and the deprecated
//   `THINKING_TEXT_MESSAGE_*` the same with reasoning content.
// - `TOOL_CALL_*` = one `tool` event whose `id` is the `toolCallId`: its
//   arguments are the streamed text parsed at `TOOL_CALL_END`, its result the
//   `TOOL_CALL_RESULT` (or a tool message of a later input or snapshot).
// - `*_CHUNK` events open, continue and close streams as `@ag-ui/client`
//   expands them (chunks/transform.ts), so a run read from its recording and
//   the same run received through the client give the same events.
// - `STATE_SNAPSHOT` / `STATE_DELTA` = `state` events whose changes are the
//   difference from the previous state / the patch (./state.ts).
// - `MESSAGES_SNAPSHOT` is reconciled with what streamed: a message seen
//   before is updated to the snapshot's content, one never seen is added.
// - `ACTIVITY_*` (an activity's content, patched in place), `RAW`, `CUSTOM`,
//   `REASONING_ENCRYPTED_VALUE` for an unknown entity, and unknown types =
//   `info` events with source `ag-ui`.
// Identity comes from the source's ids (message, tool call, run, subagent)
// and from ordinals of what the stream creates (the n-th state event), never
// from positions, which chunk expansion shifts.
import type {
  Content,
  ContentReasoning,
  Event,
  InfoEvent,
  JsonChange,
  JsonObject,
  JsonValue,
  MessageEvent,
  SpanBeginEvent,
  ToolEvent,
} from '../../events/types.js';
import { markSpanAborted } from '../aborted.js';
import { OPEN_DRAFT, messageDraft, pendingToolDraft } from '../drafts.js';
import { importerParts, type IncrementalImporter } from '../format.js';
import { isRecord, typeName, type ImportContext, type JsonRecord, stringOf } from '../guards.js';
import { SourceClock, type LiveImportOptions } from '../live.js';
import type { EventSink } from '../sink.js';
import { agUiContent } from './content.js';
import { applyPatch, jsonEqual, snapshotChanges } from './state.js';

/**
 * Options of the AG-UI importer; `now` makes it live (arrival times for undated events).
 *
 * @example
 * import type { AgUiImportOptions } from './importer.js';
 * const options: AgUiImportOptions = { now: Date.now };
 */
export type AgUiImportOptions = LiveImportOptions;

type Kind = 'text' | 'reasoning' | 'tool';

/** A run, or a subagent: what owns steps and open chunk streams. */
interface Owner {
  begin: SpanBeginEvent;
  /** Open steps, innermost last. */
  steps: { name: string; begin: SpanBeginEvent }[];
}

interface Run extends Owner {
  runId: string;
}

interface Message {
  draft: MessageEvent;
  kind: 'text' | 'reasoning';
}

interface Call {
  draft: ToolEvent;
  /** The arguments' text as streamed. */
  args: string;
  /** Whether `args` was parsed into the event (`TOOL_CALL_END`, a result, a snapshot). */
  parsed: boolean;
}

const ROLES = new Set(['user', 'assistant', 'system', 'tool']);

/** Events that end the open chunk stream of their own lane (`@ag-ui/client` transformChunks). */
const CLOSES_LANE = new Set([
  'TEXT_MESSAGE_START',
  'TEXT_MESSAGE_CONTENT',
  'TEXT_MESSAGE_END',
  'TOOL_CALL_START',
  'TOOL_CALL_ARGS',
  'TOOL_CALL_END',
  'TOOL_CALL_RESULT',
  'STATE_SNAPSHOT',
  'STATE_DELTA',
  'CUSTOM',
  'STEP_STARTED',
  'STEP_FINISHED',
  'REASONING_START',
  'REASONING_MESSAGE_START',
  'REASONING_MESSAGE_CONTENT',
  'REASONING_MESSAGE_END',
  'REASONING_END',
]);

/** Events that end every open chunk stream. */
const CLOSES_ALL = new Set(['RUN_STARTED', 'RUN_FINISHED', 'RUN_ERROR', 'MESSAGES_SNAPSHOT']);

/**
 * The incremental AG-UI importer behind `importAgUi`, `fromAgUi` and
 * `streamImport`.
 */
export class AgUiImporter implements IncrementalImporter {
  readonly #ctx: ImportContext;
  readonly #sink: EventSink;
  readonly #clock: SourceClock;
  /** Runs begun, by run id (the last run of an id). */
  readonly #runs = new Map<string, Run>();
  #run: Run | undefined;
  #runCount = 0;
  #stepCount = 0;
  readonly #agents = new Map<string, Owner & { open: boolean }>();
  readonly #messages = new Map<string, Message>();
  /** Messages and calls opened since the last run ended (what its end may have to close). */
  readonly #opened: (Message | Call)[] = [];
  /** Subagents started since the last run ended. */
  readonly #openAgents: (Owner & { open: boolean })[] = [];
  readonly #calls = new Map<string, Call>();
  readonly #activities = new Map<string, { draft: InfoEvent; content: unknown }>();
  /** The open chunk stream of each lane (`subagentRunId`, `''` for the parent agent). */
  readonly #lanes = new Map<string, { kind: Kind; id: string }>();
  /** The reasoning message the deprecated THINKING events are writing. */
  #thinking: string | undefined;
  #counts = new Map<string, number>();
  #state: unknown = undefined;

  constructor(options: AgUiImportOptions) {
    const { ctx, sink } = importerParts('ag-ui', options);
    this.#ctx = ctx;
    this.#sink = sink;
    this.#clock = new SourceClock(options);
  }

  push(record: unknown, path: string): void {
    if (!isRecord(record) || typeof record['type'] !== 'string') {
      this.#ctx.info(path, 'ag_ui_not_an_event', isRecord(record) ? '(no type)' : typeName(record));
      this.#info(isRecord(record) ? record : { value: record as JsonValue }, path);
      return;
    }
    const type = record['type'];
    if (CLOSES_ALL.has(type)) this.#closeLanes();
    else if (CLOSES_LANE.has(type)) this.#closeLane(this.#laneOf(record));
    this.#event(record, type, path);
  }

  drain(): Event[] {
    return this.#sink.drain();
  }

  end(): Event[] {
    this.#closeLanes();
    if (this.#run !== undefined) {
      this.#ctx.info('$', 'ag_ui_unclosed', `Run ${this.#run.runId}`);
      this.#endRun(this.#run, undefined, '$');
    }
    this.#closeRest('$');
    return this.#sink.drain();
  }

  diagnostics() {
    return this.#ctx.finish();
  }

  // --- dispatch ----------------------------------------------------------------

  #event(rec: JsonRecord, type: string, path: string): void {
    switch (type) {
      case 'TEXT_MESSAGE_START':
        this.#openMessage(rec, stringOf(rec['messageId']), 'text', path);
        return;
      case 'TEXT_MESSAGE_CONTENT':
        this.#append(rec, stringOf(rec['messageId']), 'text', rec['delta'], path);
        return;
      case 'TEXT_MESSAGE_END':
        this.#closeMessage(rec, stringOf(rec['messageId']), path);
        return;
      case 'TEXT_MESSAGE_CHUNK':
        this.#chunk(rec, 'text', path);
        return;
      case 'REASONING_MESSAGE_START':
        this.#openMessage(rec, stringOf(rec['messageId']), 'reasoning', path);
        return;
      case 'REASONING_MESSAGE_CONTENT':
        this.#append(rec, stringOf(rec['messageId']), 'reasoning', rec['delta'], path);
        return;
      case 'REASONING_MESSAGE_END':
        this.#closeMessage(rec, stringOf(rec['messageId']), path);
        return;
      case 'REASONING_MESSAGE_CHUNK':
        this.#chunk(rec, 'reasoning', path);
        return;
      case 'REASONING_START':
      case 'REASONING_END':
      case 'THINKING_START':
      case 'THINKING_END':
        // Brackets around reasoning messages: the messages are the content.
        return;
      case 'THINKING_TEXT_MESSAGE_START':
        this.#thinking = `thinking-${this.#count('thinking')}`;
        this.#openMessage(rec, this.#thinking, 'reasoning', path);
        return;
      case 'THINKING_TEXT_MESSAGE_CONTENT':
        this.#append(rec, this.#thinking, 'reasoning', rec['delta'], path);
        return;
      case 'THINKING_TEXT_MESSAGE_END':
        this.#closeMessage(rec, this.#thinking, path);
        this.#thinking = undefined;
        return;
      case 'REASONING_ENCRYPTED_VALUE':
        this.#encrypted(rec, path);
        return;
      case 'TOOL_CALL_START':
        this.#openCall(rec, stringOf(rec['toolCallId']), path);
        return;
      case 'TOOL_CALL_ARGS':
        this.#args(rec, stringOf(rec['toolCallId']), rec['delta'], path);
        return;
      case 'TOOL_CALL_END':
        this.#endArgs(stringOf(rec['toolCallId']), path);
        return;
      case 'TOOL_CALL_CHUNK':
        this.#chunk(rec, 'tool', path);
        return;
      case 'TOOL_CALL_RESULT':
        this.#result(rec, path);
        return;
      case 'STATE_SNAPSHOT':
        this.#snapshot(rec, rec['snapshot'], path);
        return;
      case 'STATE_DELTA':
        this.#delta(rec, path);
        return;
      case 'MESSAGES_SNAPSHOT':
        this.#messagesSnapshot(rec, path);
        return;
      case 'ACTIVITY_SNAPSHOT':
      case 'ACTIVITY_DELTA':
        this.#activity(rec, type, path);
        return;
      case 'RAW':
      case 'CUSTOM':
        this.#info(rec, path);
        return;
      case 'RUN_STARTED':
        this.#startRun(rec, path);
        return;
      case 'RUN_FINISHED':
      case 'RUN_ERROR':
        this.#finishRun(rec, type, path);
        return;
      case 'STEP_STARTED':
        this.#startStep(rec, path);
        return;
      case 'STEP_FINISHED':
        this.#finishStep(rec, path);
        return;
      case 'SUBAGENT_STARTED':
        this.#startAgent(rec, path);
        return;
      case 'SUBAGENT_FINISHED':
      case 'SUBAGENT_ERROR':
        this.#finishAgent(rec, type, path);
        return;
      default:
        this.#ctx.info(path, 'ag_ui_unknown_event', type);
        this.#info(rec, path);
    }
  }

  // --- shared helpers --------------------------------------------------------------

  #count(key: string): number {
    const n = (this.#counts.get(key) ?? 0) + 1;
    this.#counts.set(key, n);
    return n;
  }

  /** The event's time: its own, or an invented one (flagged on `draft` by #add). */
  #time(rec: JsonRecord): { iso: string; invented: boolean } {
    const iso = this.#clock.source(rec['timestamp']);
    return iso !== undefined
      ? { iso, invented: false }
      : { iso: this.#clock.invented(), invented: true };
  }

  /** Adds a draft, flagging an invented time. */
  #add<E extends Event>(draft: E, invented: boolean, path: string, open = false): E {
    this.#sink.add(draft, open ? OPEN_DRAFT : undefined);
    if (invented) this.#sink.invent(draft, 'timestamp', path);
    return draft;
  }

  /** The lane of an event: its subagent, or `''` for the parent agent. */
  #laneOf(rec: JsonRecord): string {
    return stringOf(rec['subagentRunId']) ?? '';
  }

  /** The span an event of `rec`'s lane goes in: the innermost open step of its owner. */
  #spanOf(rec: JsonRecord, path: string): string | undefined {
    const lane = this.#laneOf(rec);
    const owner: Owner | undefined = lane === '' ? this.#run : this.#agent(lane, path);
    if (owner === undefined) return undefined;
    const step = owner.steps[owner.steps.length - 1];
    return (step ?? owner).begin.id;
  }

  /** `metadata.ag_ui` of an event made from `rec`: the source's metadata and raw event. */
  #meta(rec: JsonRecord, extra?: JsonObject): JsonObject | undefined {
    let ag: JsonObject | undefined = extra;
    const metadata = rec['metadata'];
    if (metadata !== undefined) (ag ??= {})['metadata'] = metadata;
    const raw = rec['rawEvent'];
    if (raw !== undefined) (ag ??= {})['raw_event'] = raw;
    return ag === undefined ? undefined : { ag_ui: ag };
  }

  /** An `info` event keeping `rec` whole. */
  #info(rec: JsonRecord, path: string): InfoEvent {
    const { iso, invented } = this.#time(rec);
    const draft: InfoEvent = {
      event: 'info',
      uuid: this.#sink.uuid(`info:${this.#count('info')}`),
      timestamp: iso,
      source: 'ag-ui',
      data: rec,
    };
    const span = this.#spanOf(rec, path);
    if (span !== undefined) draft.span_id = span;
    return this.#add(draft, invented, path);
  }

  /** A writable version of a draft (closed drafts are frozen once drained). */
  #writable<E extends Event>(draft: E): E {
    return Object.isFrozen(draft) ? this.#sink.revise(draft) : draft;
  }

  // --- open chunk streams ------------------------------------------------------------

  #closeLane(lane: string): void {
    const open = this.#lanes.get(lane);
    if (open === undefined) return;
    this.#lanes.delete(lane);
    if (open.kind === 'tool') this.#endArgs(open.id, '$');
    else {
      const m = this.#messages.get(open.id);
      if (m !== undefined && this.#sink.isOpen(m.draft)) this.#sink.close(m.draft);
    }
  }

  #closeLanes(): void {
    for (const lane of [...this.#lanes.keys()]) this.#closeLane(lane);
  }

  /**
   * A `*_CHUNK`: continues the stream it names (or, without an id, the open
   * one of its lane, else the parent's, else the only open one of its kind),
   * or opens a new one after closing its lane's (`@ag-ui/client` chunks).
   */
  #chunk(rec: JsonRecord, kind: Kind, path: string): void {
    const idKey = kind === 'tool' ? 'toolCallId' : 'messageId';
    let id = stringOf(rec[idKey]);
    const tag = stringOf(rec['subagentRunId']);
    let lane: string | undefined;
    if (id !== undefined) {
      // A named stream continues wherever it is open.
      for (const [l, open] of this.#lanes)
        if (open.kind === kind && open.id === id) {
          lane = l;
          break;
        }
    } else if (tag !== undefined) {
      if (this.#lanes.get(tag)?.kind === kind) lane = tag;
    } else if (this.#lanes.get('')?.kind === kind) lane = '';
    else {
      // No id and no subagent: the only open stream of this kind, if one.
      const candidates = [...this.#lanes].filter(([, open]) => open.kind === kind);
      if (candidates.length === 1) lane = candidates[0]![0];
    }
    const open = lane === undefined ? undefined : this.#lanes.get(lane);
    if (open === undefined) {
      lane = tag ?? '';
      this.#closeLane(lane);
      if (id === undefined) {
        this.#ctx.warn(path, 'ag_ui_no_id', String(rec['type']));
        id = `${kind}-chunk-${this.#count(`chunk:${kind}`)}`;
      }
      this.#lanes.set(lane, { kind, id });
      if (kind === 'tool') this.#openCall(rec, id, path);
      else this.#openMessage(rec, id, kind, path);
    } else id = open.id;
    const delta = rec['delta'];
    if (delta === undefined) return;
    if (kind === 'tool') this.#args(rec, id, delta, path);
    else this.#append(rec, id, kind, delta, path);
  }

  // --- messages ------------------------------------------------------------------------

  #openMessage(
    rec: JsonRecord,
    id: string | undefined,
    kind: 'text' | 'reasoning',
    path: string,
  ): Message {
    const messageId = id ?? this.#inventId(rec, path);
    const known = this.#messages.get(messageId);
    if (known !== undefined) return known;
    const { iso, invented } = this.#time(rec);
    const rawRole = stringOf(rec['role']);
    const role: MessageEvent['role'] =
      kind === 'reasoning'
        ? 'assistant'
        : rawRole !== undefined && ROLES.has(rawRole)
          ? (rawRole as MessageEvent['role'])
          : rawRole === 'developer'
            ? 'system'
            : 'assistant';
    const content: MessageEvent['content'] =
      kind === 'reasoning' ? [{ type: 'reasoning', reasoning: '' }] : '';
    const draft = messageDraft(
      this.#sink.uuid(`message:${messageId}`),
      iso,
      this.#spanOf(rec, path),
      role,
      content,
      messageId,
      'ag-ui',
    );
    const extra: JsonObject = {};
    if (rawRole === 'developer') extra['role'] = 'developer';
    const name = stringOf(rec['name']);
    if (name !== undefined) extra['name'] = name;
    const metadata = rec['metadata'];
    if (metadata !== undefined) extra['metadata'] = metadata;
    if (Object.keys(extra).length > 0) draft.metadata = { ag_ui: extra };
    this.#add(draft, invented, path, true);
    const message: Message = { draft, kind };
    this.#messages.set(messageId, message);
    this.#opened.push(message);
    return message;
  }

  #inventId(rec: JsonRecord, path: string): string {
    this.#ctx.warn(path, 'ag_ui_no_id', String(rec['type']));
    return `message-${this.#count('message-id')}`;
  }

  #append(
    rec: JsonRecord,
    id: string | undefined,
    kind: 'text' | 'reasoning',
    delta: unknown,
    path: string,
  ): void {
    let message = id === undefined ? undefined : this.#messages.get(id);
    if (message === undefined) {
      this.#ctx.info(path, 'ag_ui_unopened', `Message ${id ?? '(no id)'}`);
      message = this.#openMessage(rec, id, kind, path);
    }
    if (typeof delta !== 'string') {
      if (delta !== undefined)
        this.#ctx.warn(`${path}.delta`, 'wrong_type', 'string', typeName(delta));
      return;
    }
    const draft = (message.draft = this.#writable(message.draft));
    const content = draft.content;
    if (typeof content === 'string') draft.content = content + delta;
    else {
      const last = content[content.length - 1];
      if (last !== undefined && last.type === 'reasoning') last.reasoning += delta;
      else if (last !== undefined && last.type === 'text') last.text += delta;
      else content.push({ type: 'text', text: delta });
    }
    // Metadata accumulates over a message's events, last write per key winning
    // (`@ag-ui/core` mergeMetadata).
    const metadata = rec['metadata'];
    if (isRecord(metadata)) this.#mergeMetadata(draft, metadata);
    this.#sink.touch(draft);
  }

  #mergeMetadata(draft: Event, metadata: JsonRecord): void {
    const ag = isRecord(draft.metadata?.['ag_ui']) ? (draft.metadata['ag_ui'] as JsonObject) : {};
    const before = isRecord(ag['metadata']) ? ag['metadata'] : {};
    draft.metadata = { ...draft.metadata, ag_ui: { ...ag, metadata: { ...before, ...metadata } } };
  }

  #closeMessage(rec: JsonRecord, id: string | undefined, path: string): void {
    const message = id === undefined ? undefined : this.#messages.get(id);
    if (message === undefined) {
      this.#ctx.info(path, 'ag_ui_unopened', `Message ${id ?? '(no id)'}`);
      if (id !== undefined) this.#sink.close(this.#openMessage(rec, id, 'text', path).draft);
      return;
    }
    const metadata = rec['metadata'];
    if (isRecord(metadata)) {
      message.draft = this.#writable(message.draft);
      this.#mergeMetadata(message.draft, metadata);
    }
    if (this.#sink.isOpen(message.draft)) this.#sink.close(message.draft);
  }

  #encrypted(rec: JsonRecord, path: string): void {
    const id = stringOf(rec['entityId']);
    const target =
      id === undefined
        ? undefined
        : rec['subtype'] === 'tool-call'
          ? this.#calls.get(id)
          : this.#messages.get(id);
    if (target === undefined) {
      this.#info(rec, path);
      return;
    }
    const draft = (target.draft = this.#writable(target.draft as Event) as never) as Event;
    const ag = isRecord(draft.metadata?.['ag_ui']) ? (draft.metadata['ag_ui'] as JsonObject) : {};
    draft.metadata = {
      ...draft.metadata,
      ag_ui: { ...ag, encrypted_value: rec['encryptedValue'] },
    };
    this.#sink.touch(draft);
  }

  // --- tool calls ------------------------------------------------------------------------

  #openCall(rec: JsonRecord, id: string | undefined, path: string): Call {
    const callId = id ?? `call-${this.#count('call-id')}`;
    if (id === undefined) this.#ctx.warn(path, 'ag_ui_no_id', String(rec['type']));
    const name = stringOf(rec['toolCallName']);
    const known = this.#calls.get(callId);
    if (known !== undefined) {
      if (name !== undefined && known.draft.function !== name) {
        known.draft = this.#writable(known.draft);
        known.draft.function = name;
        this.#sink.touch(known.draft);
      }
      return known;
    }
    const { iso, invented } = this.#time(rec);
    const extra: JsonObject = {};
    const parent = stringOf(rec['parentMessageId']);
    if (parent !== undefined) extra['parent_message_id'] = parent;
    const metadata = rec['metadata'];
    if (metadata !== undefined) extra['metadata'] = metadata;
    const draft = pendingToolDraft(
      this.#sink.uuid(`tool:${callId}`),
      iso,
      this.#spanOf(rec, path),
      callId,
      { ag_ui: extra },
    );
    if (name !== undefined) draft.function = name;
    this.#add(draft, invented, path, true);
    const call: Call = { draft, args: '', parsed: false };
    this.#calls.set(callId, call);
    this.#opened.push(call);
    return call;
  }

  #args(rec: JsonRecord, id: string | undefined, delta: unknown, path: string): void {
    let call = id === undefined ? undefined : this.#calls.get(id);
    if (call === undefined) {
      this.#ctx.info(path, 'ag_ui_unopened', `Tool call ${id ?? '(no id)'}`);
      call = this.#openCall(rec, id, path);
    }
    if (typeof delta === 'string') call.args += delta;
    else if (delta !== undefined)
      this.#ctx.warn(`${path}.delta`, 'wrong_type', 'string', typeName(delta));
  }

  /** The streamed arguments parsed into the call (once). */
  #endArgs(id: string | undefined, path: string): void {
    const call = id === undefined ? undefined : this.#calls.get(id);
    if (call === undefined || call.parsed) return;
    call.parsed = true;
    if (call.args === '') return;
    const draft = (call.draft = this.#writable(call.draft));
    let value: unknown;
    let why: string | undefined;
    try {
      value = JSON.parse(call.args) as unknown;
    } catch (e) {
      why = e instanceof Error ? e.message : String(e);
    }
    if (why === undefined && isRecord(value)) draft.arguments = value;
    else {
      this.#ctx.warn(path, 'ag_ui_bad_arguments', draft.id, why ?? `a JSON ${typeName(value)}`);
      this.#setAg(draft, 'arguments_text', call.args);
    }
    this.#sink.touch(draft);
  }

  #setAg(draft: Event, key: string, value: unknown): void {
    const ag = isRecord(draft.metadata?.['ag_ui']) ? (draft.metadata['ag_ui'] as JsonObject) : {};
    draft.metadata = { ...draft.metadata, ag_ui: { ...ag, [key]: value } };
  }

  #result(rec: JsonRecord, path: string): void {
    const id = stringOf(rec['toolCallId']);
    let call = id === undefined ? undefined : this.#calls.get(id);
    if (call === undefined) {
      this.#ctx.info(path, 'ag_ui_unopened', `Tool call ${id ?? '(no id)'}`);
      call = this.#openCall(rec, id, path);
    }
    this.#endArgs(call.draft.id, path);
    const { iso, invented } = this.#time(rec);
    const draft = (call.draft = this.#writable(call.draft));
    draft.result = agUiContent(rec['content']) as ToolEvent['result'];
    draft.completed = iso;
    const messageId = stringOf(rec['messageId']);
    if (messageId !== undefined) draft.message_id = messageId;
    if (invented) this.#sink.invent(draft, 'end', path);
    const raw = rec['rawEvent'];
    if (raw !== undefined) this.#setAg(draft, 'result_raw_event', raw);
    this.#sink.close(draft);
  }

  // --- runs, steps, subagents --------------------------------------------------------------

  #startRun(rec: JsonRecord, path: string): void {
    if (this.#run !== undefined) {
      this.#ctx.warn(path, 'ag_ui_unclosed', `Run ${this.#run.runId}`);
      this.#endRun(this.#run, undefined, path);
    }
    const runId = stringOf(rec['runId']) ?? `run-${this.#runCount + 1}`;
    const n = ++this.#runCount;
    const { iso, invented } = this.#time(rec);
    const parent = stringOf(rec['parentRunId']);
    const extra: JsonObject = { run_id: runId };
    for (const [key, name] of [
      ['threadId', 'thread_id'],
      ['parentRunId', 'parent_run_id'],
      ['protocolVersion', 'protocol_version'],
    ] as const) {
      if (rec[key] !== undefined) extra[name] = rec[key];
    }
    const input = rec['input'];
    if (isRecord(input)) {
      const { messages: _messages, state: _state, ...rest } = input;
      extra['input'] = rest;
    }
    const begin = this.#sink.openSpan(
      {
        id: `run:${runId}`,
        uuid: this.#sink.uuid(`run:${n}`),
        timestamp: iso,
        parent_id: parent !== undefined ? `run:${parent}` : undefined,
        type: parent !== undefined ? 'agent' : 'turn',
        name: `run ${n}`,
        metadata: this.#meta(rec, extra),
      },
      invented ? { open: true, timeInvented: path } : { open: true },
    );
    const run: Run = { runId, begin, steps: [] };
    this.#run = run;
    this.#runs.set(runId, run);
    if (isRecord(input)) {
      const messages = input['messages'];
      if (Array.isArray(messages))
        this.#reconcile(messages, `${path}.input.messages`, 'input', rec);
      if (input['state'] !== undefined)
        this.#snapshot(rec, input['state'], `${path}.input.state`, true);
    }
  }

  #finishRun(rec: JsonRecord, type: string, path: string): void {
    const runId = stringOf(rec['runId']);
    let run = this.#run;
    if (runId !== undefined && run?.runId !== runId) {
      const named = this.#runs.get(runId);
      if (named !== undefined) run = named;
      // A stream carries one run at a time (@ag-ui/client's verifier refuses
      // a RUN_STARTED before the open run finishes), so a finish naming a run
      // that never started still ends the open one, and says so.
      else if (run !== undefined && this.#sink.isOpen(run.begin))
        this.#ctx.warn(path, 'ag_ui_other_run', type, runId, run.runId);
    }
    if (type === 'RUN_ERROR') {
      const { iso, invented } = this.#time(rec);
      const draft: Event = {
        event: 'error',
        uuid: this.#sink.uuid(`error:${this.#count('error')}`),
        timestamp: iso,
        error: { message: stringOf(rec['message']) ?? '', traceback: '', traceback_ansi: '' },
      };
      const span = this.#spanOf(rec, path);
      if (span !== undefined) draft.span_id = span;
      const meta = this.#meta(
        rec,
        stringOf(rec['code']) !== undefined ? { code: rec['code'] } : undefined,
      );
      if (meta !== undefined) draft.metadata = meta;
      this.#add(draft, invented, path);
    }
    if (run === undefined || !this.#sink.isOpen(run.begin)) {
      this.#ctx.info(path, 'ag_ui_no_run', type);
      if (type === 'RUN_FINISHED') this.#info(rec, path);
      return;
    }
    this.#endRun(run, rec, path);
  }

  /** Ends a run: what is open in it closes, the outcome goes on its span_begin. */
  #endRun(run: Run, rec: JsonRecord | undefined, path: string): void {
    this.#closeRest(path);
    for (const step of run.steps) this.#closeStep(step.begin, path);
    run.steps = [];
    const begin = this.#sink.revise(run.begin);
    const ag = isRecord(begin.metadata?.['ag_ui'])
      ? { ...(begin.metadata['ag_ui'] as JsonObject) }
      : {};
    let cancelled = false;
    if (rec === undefined) ag['outcome'] = 'unfinished';
    else if (rec['type'] === 'RUN_ERROR') {
      ag['outcome'] = 'error';
      if (rec['code'] !== undefined) ag['error_code'] = rec['code'];
    } else {
      const outcome = rec['outcome'];
      const kind = isRecord(outcome) ? stringOf(outcome['type']) : undefined;
      ag['outcome'] = kind ?? 'success';
      if (isRecord(outcome)) {
        if (outcome['interrupts'] !== undefined) ag['interrupts'] = outcome['interrupts'];
        if (outcome['pendingToolCallIds'] !== undefined)
          ag['pending_tool_call_ids'] = outcome['pendingToolCallIds'];
      }
      if (rec['result'] !== undefined) ag['result'] = rec['result'];
      cancelled = kind === 'cancelled';
    }
    if (rec?.['usage'] !== undefined) ag['usage'] = rec['usage'];
    if (rec?.['metadata'] !== undefined) ag['finish_metadata'] = rec['metadata'];
    begin.metadata = { ...begin.metadata, ag_ui: ag };
    run.begin = begin;
    const time =
      rec === undefined ? { iso: this.#clock.invented(), invented: true } : this.#time(rec);
    this.#sink.closeSpan(begin, {
      timestamp: time.iso,
      uuid: this.#sink.uuid(`run-end:${run.begin.uuid}`),
      ...(time.invented ? { timeInvented: path } : {}),
    });
    if (cancelled) markSpanAborted(this.#sink, begin, 'cancelled');
    if (this.#run === run) this.#run = undefined;
  }

  /** Closes the open messages, tool calls and subagents (a run ended, or the input did). */
  #closeRest(path: string): void {
    // Only what was opened since the last time: a long thread's earlier
    // messages and calls are not walked again at every run's end.
    for (const item of this.#opened) {
      if (!this.#sink.isOpen(item.draft)) continue;
      if ('args' in item) this.#endArgs(item.draft.id, path);
      this.#sink.close(item.draft);
    }
    this.#opened.length = 0;
    for (const agent of this.#openAgents) {
      if (!agent.open) continue;
      for (const step of agent.steps) this.#closeStep(step.begin, path);
      agent.steps = [];
      agent.open = false;
      this.#sink.closeSpan(agent.begin, {
        timestamp: this.#clock.invented(),
        uuid: this.#sink.uuid(`subagent-end:${agent.begin.id}`),
        timeInvented: path,
      });
    }
    this.#openAgents.length = 0;
  }

  #startStep(rec: JsonRecord, path: string): void {
    const lane = this.#laneOf(rec);
    const owner: Owner | undefined = lane === '' ? this.#run : this.#agent(lane, path);
    const name = stringOf(rec['stepName']) ?? '';
    const { iso, invented } = this.#time(rec);
    const k = ++this.#stepCount;
    const begin = this.#sink.openSpan(
      {
        id: `step:${k}`,
        uuid: this.#sink.uuid(`step:${k}`),
        timestamp: iso,
        parent_id: this.#spanOf(rec, path),
        type: 'step',
        name,
        metadata: this.#meta(rec),
      },
      invented ? { open: true, timeInvented: path } : { open: true },
    );
    if (owner === undefined) this.#ctx.info(path, 'ag_ui_no_run', 'STEP_STARTED');
    (owner ?? this.#orphanSteps).steps.push({ name, begin });
  }

  /** Steps outside any run (a recording that starts mid-run). */
  readonly #orphanSteps: Owner = { begin: undefined as never, steps: [] };

  #finishStep(rec: JsonRecord, path: string): void {
    const lane = this.#laneOf(rec);
    const owner = (lane === '' ? this.#run : this.#agents.get(lane)) ?? this.#orphanSteps;
    const name = stringOf(rec['stepName']) ?? '';
    let at = owner.steps.length - 1;
    while (at >= 0 && owner.steps[at]!.name !== name) at--;
    if (at < 0) {
      this.#ctx.info(path, 'ag_ui_unmatched_step', name);
      this.#info(rec, path);
      return;
    }
    const [step] = owner.steps.splice(at, 1);
    const { iso, invented } = this.#time(rec);
    this.#sink.closeSpan(step!.begin, {
      timestamp: iso,
      uuid: this.#sink.uuid(`step-end:${step!.begin.id}`),
      ...(invented ? { timeInvented: path } : {}),
    });
  }

  #closeStep(begin: SpanBeginEvent, path: string): void {
    this.#ctx.info(path, 'ag_ui_unclosed', `Step "${begin.name}"`);
    this.#sink.closeSpan(begin, {
      timestamp: this.#clock.invented(),
      uuid: this.#sink.uuid(`step-end:${begin.id}`),
      timeInvented: path,
    });
  }

  /** The subagent of `id`: started, or opened now for an event that only names it. */
  #agent(id: string, path: string, rec?: JsonRecord): Owner & { open: boolean } {
    const known = this.#agents.get(id);
    if (known !== undefined) return known;
    const source = rec ?? {};
    const { iso, invented } = this.#time(source);
    const parentAgent = stringOf(source['parentSubagentRunId']);
    // A subagent naming itself as its parent keeps that parent id (the
    // event tree places such a span and reports it): looked up as a lane, it
    // would open this subagent a first time, without its fields, under the
    // same span id as this one.
    const parent =
      parentAgent === id
        ? `subagent:${id}`
        : parentAgent !== undefined
          ? this.#spanOf({ subagentRunId: parentAgent }, path)
          : this.#spanOf({}, path);
    const extra: JsonObject = { subagent_run_id: id };
    for (const [key, name] of [
      ['description', 'description'],
      ['parentToolCallId', 'parent_tool_call_id'],
      ['parentMessageId', 'parent_message_id'],
    ] as const) {
      if (source[key] !== undefined) extra[name] = source[key];
    }
    const begin = this.#sink.openSpan(
      {
        id: `subagent:${id}`,
        uuid: this.#sink.uuid(`subagent:${id}`),
        timestamp: iso,
        parent_id: parent,
        type: 'agent',
        name: stringOf(source['name']) ?? id,
        metadata: this.#meta(source, extra),
      },
      invented ? { open: true, timeInvented: path } : { open: true },
    );
    const agent = { begin, steps: [], open: true };
    this.#agents.set(id, agent);
    this.#openAgents.push(agent);
    const callId = stringOf(source['parentToolCallId']);
    const call = callId === undefined ? undefined : this.#calls.get(callId);
    if (call !== undefined) {
      const draft = (call.draft = this.#writable(call.draft));
      draft.agent = begin.name;
      draft.agent_span_id = begin.id;
      this.#sink.touch(draft);
    }
    return agent;
  }

  #startAgent(rec: JsonRecord, path: string): void {
    const id = stringOf(rec['subagentRunId']);
    if (id === undefined) {
      this.#ctx.warn(path, 'missing_field', 'subagentRunId');
      this.#info(rec, path);
      return;
    }
    if (this.#agents.has(id)) {
      // Opened already: by an event that named it before its start (a step,
      // a message or a child's parentSubagentRunId), or by an earlier start.
      // Its span is out with what opened it; this start's fields (name,
      // description, parent) are kept whole, not dropped.
      this.#ctx.warn(path, 'ag_ui_late_start', `Subagent ${id}`);
      this.#info(rec, path);
      return;
    }
    this.#agent(id, path, rec);
  }

  #finishAgent(rec: JsonRecord, type: string, path: string): void {
    const id = stringOf(rec['subagentRunId']) ?? '';
    this.#closeLane(id);
    const agent = this.#agents.get(id);
    if (agent === undefined || !agent.open) {
      this.#ctx.info(path, 'ag_ui_unopened', `Subagent ${id}`);
      this.#info(rec, path);
      return;
    }
    if (type === 'SUBAGENT_ERROR') {
      const { iso, invented } = this.#time(rec);
      const draft: Event = {
        event: 'error',
        uuid: this.#sink.uuid(`error:${this.#count('error')}`),
        timestamp: iso,
        span_id: agent.begin.id,
        error: { message: stringOf(rec['message']) ?? '', traceback: '', traceback_ansi: '' },
      };
      const meta = this.#meta(rec, rec['code'] !== undefined ? { code: rec['code'] } : undefined);
      if (meta !== undefined) draft.metadata = meta;
      this.#add(draft, invented, path);
    }
    for (const step of agent.steps) this.#closeStep(step.begin, path);
    agent.steps = [];
    agent.open = false;
    const begin = this.#sink.revise(agent.begin);
    const ag = isRecord(begin.metadata?.['ag_ui'])
      ? { ...(begin.metadata['ag_ui'] as JsonObject) }
      : {};
    const outcome = rec['outcome'];
    ag['outcome'] =
      type === 'SUBAGENT_ERROR'
        ? 'error'
        : isRecord(outcome)
          ? (outcome['type'] ?? 'success')
          : 'success';
    if (isRecord(outcome) && outcome['interruptIds'] !== undefined)
      ag['interrupt_ids'] = outcome['interruptIds'];
    if (rec['result'] !== undefined) ag['result'] = rec['result'];
    begin.metadata = { ...begin.metadata, ag_ui: ag };
    agent.begin = begin;
    const { iso, invented } = this.#time(rec);
    this.#sink.closeSpan(begin, {
      timestamp: iso,
      uuid: this.#sink.uuid(`subagent-end:${begin.id}`),
      ...(invented ? { timeInvented: path } : {}),
    });
  }

  // --- state and activities --------------------------------------------------------------------

  /** A state event from a new whole value (`STATE_SNAPSHOT`, a run's input state). */
  #snapshot(rec: JsonRecord, value: unknown, path: string, quietWhenEqual = false): void {
    // Before the first state, an object counts as changed from `{}` (a run's
    // input state is `{}` by default: no change to show).
    const before = this.#state === undefined && isRecord(value) ? {} : this.#state;
    const changes = snapshotChanges(before, value);
    this.#state = value;
    if (changes.length === 0 && quietWhenEqual) return;
    this.#stateEvent(rec, changes, path, { snapshot: true });
  }

  #delta(rec: JsonRecord, path: string): void {
    const { value, changes, error } = applyPatch(this.#state ?? {}, rec['delta']);
    if (error !== undefined) this.#ctx.warn(`${path}.delta`, 'ag_ui_bad_patch', error);
    this.#state = value;
    this.#stateEvent(rec, changes, path, error !== undefined ? { patch_error: error } : undefined);
  }

  #stateEvent(rec: JsonRecord, changes: JsonChange[], path: string, extra?: JsonObject): void {
    const { iso, invented } = this.#time(rec);
    const draft: Event = {
      event: 'state',
      uuid: this.#sink.uuid(`state:${this.#count('state')}`),
      timestamp: iso,
      changes,
    };
    const span = this.#spanOf(rec, path);
    if (span !== undefined) draft.span_id = span;
    const meta = this.#meta(rec, extra);
    if (meta !== undefined) draft.metadata = meta;
    this.#add(draft, invented, path);
  }

  #activity(rec: JsonRecord, type: string, path: string): void {
    const id = stringOf(rec['messageId']);
    if (id === undefined) {
      this.#ctx.warn(path, 'missing_field', 'messageId');
      this.#info(rec, path);
      return;
    }
    const known = this.#activities.get(id);
    let content: unknown;
    if (type === 'ACTIVITY_SNAPSHOT') {
      if (known !== undefined && rec['replace'] === false) return;
      content = rec['content'];
    } else {
      const patched = applyPatch(known?.content ?? {}, rec['patch']);
      if (patched.error !== undefined)
        this.#ctx.warn(`${path}.patch`, 'ag_ui_bad_patch', patched.error);
      content = patched.value;
    }
    const data: JsonObject = {
      type: 'ACTIVITY',
      messageId: id,
      activityType: rec['activityType'] ?? null,
      content,
    };
    this.#setActivity(id, rec, data, content, path);
  }

  #setActivity(
    id: string,
    rec: JsonRecord,
    data: JsonObject,
    content: unknown,
    path: string,
  ): void {
    const known = this.#activities.get(id);
    if (known !== undefined) {
      const draft = (known.draft = this.#writable(known.draft));
      draft.data = data;
      known.content = content;
      this.#sink.touch(draft);
      return;
    }
    const { iso, invented } = this.#time(rec);
    const draft: InfoEvent = {
      event: 'info',
      uuid: this.#sink.uuid(`activity:${id}`),
      timestamp: iso,
      source: 'ag-ui',
      data,
    };
    const span = this.#spanOf(rec, path);
    if (span !== undefined) draft.span_id = span;
    this.#add(draft, invented, path);
    this.#activities.set(id, { draft, content });
  }

  // --- messages snapshots and run input ----------------------------------------------------------

  #messagesSnapshot(rec: JsonRecord, path: string): void {
    const messages = rec['messages'];
    if (!Array.isArray(messages)) {
      this.#ctx.warn(`${path}.messages`, 'wrong_type', 'array', typeName(messages));
      this.#info(rec, path);
      return;
    }
    this.#reconcile(messages, `${path}.messages`, 'ag-ui', rec);
  }

  /**
   * Materialised messages (a snapshot, a run's input) against what is known:
   * a message seen before is brought to this content, one never seen is
   * added; tool calls and tool results update their tool events.
   */
  #reconcile(messages: unknown[], base: string, source: string, rec: JsonRecord = {}): void {
    const time: JsonRecord = { timestamp: rec['timestamp'] };
    for (let i = 0; i < messages.length; i++) {
      const m = messages[i];
      const path = `${base}[${i}]`;
      if (!isRecord(m) || typeof m['id'] !== 'string') {
        this.#ctx.warn(
          path,
          'ag_ui_not_an_event',
          isRecord(m) ? '(a message without an id)' : typeName(m),
        );
        continue;
      }
      const id = m['id'];
      const at = { ...time, subagentRunId: m['subagentRunId'] };
      switch (m['role']) {
        case 'tool':
          this.#toolMessage(m, at, path);
          break;
        case 'activity':
          this.#setActivity(
            id,
            at,
            {
              type: 'ACTIVITY',
              messageId: id,
              activityType: m['activityType'] ?? null,
              content: m['content'] as JsonValue,
            },
            m['content'],
            path,
          );
          break;
        case 'assistant': {
          const calls = m['toolCalls'];
          if (typeof m['content'] === 'string' && m['content'] !== '')
            this.#settle(m, at, 'text', source, path);
          if (Array.isArray(calls))
            calls.forEach((c, k) => this.#settleCall(c, at, `${path}.toolCalls[${k}]`));
          break;
        }
        case 'reasoning':
          this.#settle(m, at, 'reasoning', source, path);
          break;
        case 'user':
        case 'system':
        case 'developer':
          this.#settle(m, at, 'text', source, path);
          break;
        default:
          this.#ctx.info(
            path,
            'ag_ui_unknown_event',
            `message role ${typeof m['role'] === 'string' ? m['role'] : typeName(m['role'])}`,
          );
          this.#info({ ...m, type: 'MESSAGE' }, path);
      }
    }
  }

  /** A materialised text, user or reasoning message: added, or its known event brought up to date. */
  #settle(
    m: JsonRecord,
    at: JsonRecord,
    kind: 'text' | 'reasoning',
    source: string,
    path: string,
  ): void {
    const id = m['id'] as string;
    const content: string | Content[] =
      kind === 'reasoning'
        ? [
            {
              type: 'reasoning',
              reasoning: stringOf(m['content']) ?? '',
            } satisfies ContentReasoning,
          ]
        : agUiContent(m['content']);
    const known = this.#messages.get(id);
    if (known !== undefined) {
      if (jsonEqual(known.draft.content, content)) return;
      const draft = (known.draft = this.#writable(known.draft));
      draft.content = content;
      this.#sink.touch(draft);
      return;
    }
    const role = m['role'] === 'developer' ? 'developer' : stringOf(m['role']);
    const message = this.#openMessage(
      { ...at, role, name: m['name'], metadata: m['metadata'] },
      id,
      kind,
      path,
    );
    const draft = message.draft;
    draft.content = content;
    draft.source = source;
    if (m['encryptedValue'] !== undefined)
      this.#setAg(draft, 'encrypted_value', m['encryptedValue']);
    this.#sink.close(draft);
  }

  /** A tool call of a materialised assistant message. */
  #settleCall(c: unknown, at: JsonRecord, path: string): void {
    if (!isRecord(c) || typeof c['id'] !== 'string') {
      this.#ctx.warn(
        path,
        'ag_ui_not_an_event',
        isRecord(c) ? '(a tool call without an id)' : typeName(c),
      );
      return;
    }
    const fn = isRecord(c['function']) ? c['function'] : {};
    const known = this.#calls.has(c['id']);
    const call = this.#openCall({ ...at, toolCallName: fn['name'] }, c['id'], path);
    if (known && call.parsed) return;
    if (!call.parsed && call.args === '' && typeof fn['arguments'] === 'string')
      call.args = fn['arguments'];
    this.#endArgs(c['id'], path);
  }

  /** A materialised tool message: its call's result. */
  #toolMessage(m: JsonRecord, at: JsonRecord, path: string): void {
    const id = stringOf(m['toolCallId']);
    if (id === undefined) {
      this.#ctx.warn(path, 'missing_field', 'toolCallId');
      return;
    }
    const known = this.#calls.get(id);
    const result = agUiContent(m['content']) as ToolEvent['result'];
    const error = stringOf(m['error']);
    if (
      known !== undefined &&
      !this.#sink.isOpen(known.draft) &&
      jsonEqual(known.draft.result, result) &&
      (error === undefined || known.draft.error?.message === error)
    )
      return;
    const call = known ?? this.#openCall(at, id, path);
    this.#endArgs(id, path);
    const draft = (call.draft = this.#writable(call.draft));
    draft.result = result;
    draft.message_id = m['id'] as string;
    if (error !== undefined) draft.error = { type: 'unknown', message: error };
    if (draft.completed === undefined || draft.completed === null) {
      const { iso, invented } = this.#time(at);
      draft.completed = iso;
      if (invented) this.#sink.invent(draft, 'end', path);
    }
    this.#sink.close(draft);
  }
}
