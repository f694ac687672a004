// Past 600 lines: one mapping of every span kind, with the live and the file paths over the same state.
// The OpenAI Agents SDK's traces as canonical events, one span at a time:
// the mapping both the live tracing processor (`skeinTracingProcessor`) and
// the import of exported traces (`importOpenAiAgentsTrace`) go through, so a
// run watched live and the same run's export give the same events.
// Span kinds: https://openai.github.io/openai-agents-js/guides/tracing/
//
// - a trace is a `span_begin`/`span_end` pair of type `trace` named after its
//   workflow; its id is the SDK's trace id. A trace carries no times: it
//   starts with its first span (live: when the SDK starts it) and ends with
//   its last;
// - `generation` and `response` spans are one `model` event each (pending
//   until the span ends): input, output, usage, config; a response span's
//   `_input`/`_response` (the request and the whole answer, kept by the SDK
//   for processors but left out of its export) when present;
// - `function` spans are one `tool` event each; its `id` is the model's
//   tool-call id: the SDK's function span does not carry it, so the tool span
//   takes the first unanswered call of its name that a model event of the
//   same trace made (the id is invented, and flagged, when none matches);
// - `handoff` spans are one `tool` event (the model's `transfer_to_…` call)
//   whose `agent` is the agent handed to and whose `agent_span_id` is that
//   agent's next span: the sub-agent;
// - model and tool events are single events: their child spans sit in the
//   same skein span, and an agent span under a function span (an agent used
//   as a tool) is that tool's sub-agent (`agent_span_id`);
// - every other span (`agent`, `task`, `turn`, `guardrail`, `custom`,
//   `mcp_tools`, speech, unknown kinds) is a `span_begin`/`span_end` pair of
//   its own `type`, its data kept in `metadata`; a span's `error` is an
//   `error` event at its end; a triggered guardrail and a custom span's data
//   are `info` events in the span;
// - every event keeps the SDK's ids (`metadata.trace_id`, `span_id`,
//   `parent_span_id`), so a user can find the span in the OpenAI dashboard.
import type {
  ChatMessage,
  Event,
  JsonObject,
  ModelEvent,
  SpanBeginEvent,
  ToolEvent,
  ToolInfo,
} from '../../events/types.js';
import { EMPTY_ARRAY, EMPTY_OBJECT } from '../../events/freeze.js';
import { timestampMs } from '../../events/timestamp.js';
import type { Diagnostic } from '../../errors.js';
import type { IncrementalImporter } from '../format.js';
import {
  ImportContext,
  cutJsonText,
  isRecord,
  own,
  typeName,
  type ImportOptions,
} from '../guards.js';
import { OPEN_DRAFT } from '../drafts.js';
import { EventSink, SyntheticClock } from '../sink.js';
import {
  parseArguments,
  scalarText,
  toChatMessages,
  toModelOutput,
  toUsage,
  type ModelToolCall,
} from './messages.js';
import type { OpenAiAgentsSpanRecord, OpenAiAgentsTraceRecord } from './types.js';

/** Options of the OpenAI Agents importer. */
export interface OpenAiAgentsImportOptions extends ImportOptions {
  /**
   * The clock (epoch ms) for times the source does not give (a trace's start
   * and end, live). Default: invented times from `baseTime`.
   */
  now?: () => number;
}

interface TraceState {
  readonly id: string;
  readonly begin: SpanBeginEvent;
  open: boolean;
  /** The latest time seen in the trace (ISO). */
  last: string;
  lastMs: number;
  /** Tool calls the trace's models made that no tool span has claimed yet. */
  readonly calls: ModelToolCall[];
  /** Handoffs whose target agent has not started yet. */
  readonly handoffs: ToolEvent[];
}

interface SpanState {
  readonly kind: 'model' | 'tool' | 'span';
  readonly type: string;
  event: Event;
  /** The skein span this span's children go in. */
  readonly place: string;
  readonly trace: TraceState;
  open: boolean;
  /** The model's tool-call id was found (tools only). */
  paired: boolean;
  /** The tool calls of the model's answer so far (models only), offered to tool spans at its end. */
  calls: ModelToolCall[];
  /** The function tool whose sub-agent has not started yet, for spans between the two (a task). */
  subAgentOf?: SpanState;
  /**
   * The `span_data` last applied. Applying the same object again changes
   * nothing (the mapping is a function of it) except for a tool not yet
   * paired with its call, which may pair now.
   */
  applied?: Record<string, unknown>;
}

/**
 * Where a caller that maps span ids itself keeps the importer's state of the
 * first span started with an id (opaque to it).
 *
 * @example
 * import type { SpanSlot } from './importer.js';
 * const slot: SpanSlot = { state: undefined };
 */
export interface SpanSlot {
  state: object | undefined;
}

const MODEL_KINDS = new Set(['generation', 'response']);

/** The calls of a state that makes none (a model's are replaced, never pushed to). */
const NO_CALLS: ModelToolCall[] = Object.freeze([]) as unknown as ModelToolCall[];
const TOOL_KINDS = new Set(['function', 'handoff']);

// A new model or tool event starts from these (frozen, shared; the mapping
// replaces them, never changes them in place): four objects fewer to
// allocate, copy into the old generation and freeze per span.
const NO_OUTPUT: ModelEvent['output'] = Object.freeze({
  model: '',
  choices: EMPTY_ARRAY as [],
  completion: '',
});

/** The SDK's default handoff tool name (`transfer_to_` + the agent name, non-alphanumerics as `_`). */
function handoffToolName(agent: string): string {
  return `transfer_to_${agent.replace(/[^a-zA-Z0-9]/g, '_')}`;
}

/** A JSON-ready copy of what a span reported: `undefined` keys dropped. */
function defined(record: Record<string, unknown>, skip: ReadonlySet<string>): JsonObject {
  const out: JsonObject = {};
  for (const key of Object.keys(record))
    if (!skip.has(key) && record[key] !== undefined && !key.startsWith('_')) out[key] = record[key];
  return out;
}

const NO_SKIP: ReadonlySet<string> = new Set();

/**
 * `event.metadata = { ...event.metadata, ...defined(record, skip) }`, written
 * into the metadata in place when the draft owns it (it is not frozen): the
 * same keys in the same order, without two objects per call.
 */
function mergeDefined(event: Event, record: Record<string, unknown>, skip: ReadonlySet<string>) {
  let metadata = event.metadata;
  for (const key of Object.keys(record)) {
    const value = record[key];
    // (`_`-keys, `__proto__` among them, are the SDK's private ones: skipped.)
    if (skip.has(key) || value === undefined || key.startsWith('_')) continue;
    if (metadata === undefined || metadata === null || Object.isFrozen(metadata))
      event.metadata = metadata = { ...metadata };
    metadata[key] = value as never;
  }
}

const SKIP_TYPE_NAME = new Set(['type', 'name']);
const SKIP_MODEL = new Set([
  'type',
  'input',
  'output',
  'model',
  'model_config',
  'usage',
  'response_id',
]);
const SKIP_TOOL = new Set(['type', 'name', 'input', 'output', 'from_agent', 'to_agent']);

/**
 * The incremental importer of OpenAI Agents SDK traces: exported records
 * through {@link IncrementalImporter.push}, or a live run through
 * `startTrace`/`startSpan`/`endSpan`/`endTrace` (what `skeinTracingProcessor`
 * calls). See the file's head for the mapping.
 *
 * @example
 * import { OpenAiAgentsImporter } from './importer.js';
 * const imp = new OpenAiAgentsImporter({});
 * imp.push({ object: 'trace', id: 'trace_1', workflow_name: 'Agent workflow' }, '$[0]');
 * imp.push({
 *   object: 'trace.span', id: 'span_1', trace_id: 'trace_1', parent_id: null,
 *   started_at: '2026-01-01T00:00:00.000Z', ended_at: '2026-01-01T00:00:01.000Z',
 *   span_data: { type: 'agent', name: 'Assistant' },
 * }, '$[1]');
 * const events = imp.end();
 */
export class OpenAiAgentsImporter implements IncrementalImporter {
  readonly #ctx: ImportContext;
  readonly #sink: EventSink;
  readonly #clock: SyntheticClock;
  readonly #now: (() => number) | undefined;
  readonly #traces = new Map<string, TraceState>();
  /** The state of the first span started with each id, where no slot of the caller keeps it. */
  readonly #spans = new Map<string, SpanState>();
  /** The caller's slots by span id, when it starts spans with {@link startSpanOf}. */
  #slotOf: ((id: string) => SpanSlot | undefined) | undefined;
  /** Spans still open, in start order (closed innermost first at the end). */
  /** Spans started and not ended, in start order (a set: one ends in O(1), whichever it is). */
  readonly #open = new Set<SpanState>();

  constructor(options: OpenAiAgentsImportOptions) {
    this.#ctx = new ImportContext(options);
    this.#sink = new EventSink(this.#ctx, { seed: options.uuidSeed ?? 'openai-agents' });
    this.#clock = new SyntheticClock(options.baseTime);
    this.#now = options.now;
  }

  /** An exported record: a trace, or a span (started, and ended when it has an end). */
  push(record: unknown, path: string): void {
    if (!isRecord(record)) {
      this.#ctx.warn(path, 'openai_agents_not_a_record', typeName(record));
      return;
    }
    const object = own(record, 'object');
    if (object === 'trace' && typeof own(record, 'id') === 'string') {
      this.startTrace(record as unknown as OpenAiAgentsTraceRecord, path);
    } else if (
      object === 'trace.span' &&
      typeof own(record, 'id') === 'string' &&
      typeof own(record, 'trace_id') === 'string' &&
      isRecord(own(record, 'span_data'))
    ) {
      this.startSpan(record as unknown as OpenAiAgentsSpanRecord, path);
    } else {
      this.#ctx.warn(
        path,
        'openai_agents_not_a_record',
        object === undefined ? typeName(record) : scalarText(object),
      );
    }
  }

  /** A trace begins (`time`: when, if the caller knows; else now or invented). */
  startTrace(record: OpenAiAgentsTraceRecord, path: string, time?: string): void {
    if (this.#traces.has(record.id)) return;
    this.#openTrace(record, path, time);
  }

  /** A trace ends: its open spans close (with a diagnostic), then the trace. */
  endTrace(id: string, path: string): void {
    const trace = this.#traces.get(id);
    if (!trace?.open) return;
    for (const state of [...this.#open].reverse())
      if (state.trace === trace) this.#closeUnended(state, path);
    const end = this.#now ? this.#source(new Date(this.#now()).toISOString()) : trace.last;
    trace.open = false;
    this.#sink.closeSpan(trace.begin, { timestamp: end ?? trace.last });
  }

  /** A span begins; a record that has ended already also ends. */
  startSpan(record: OpenAiAgentsSpanRecord, path: string): void {
    this.#start(record, path, true, undefined);
  }

  /**
   * A span of an export begins, its end left to a later `endSpan` (an
   * export's spans are replayed in the order a live run started and ended
   * them); `startMs` is `started_at` read already. `slot` is the caller's
   * slot of the span's id and `parent` of its parent id, where the state of
   * the first span started with that id is kept (what the id map holds, one
   * lookup fewer per span and two per parent).
   */
  startSpanOf(
    record: OpenAiAgentsSpanRecord,
    path: string,
    startMs: number,
    slot: SpanSlot,
    parent: SpanSlot | undefined,
  ): void {
    this.#start(record, path, false, startMs, slot, parent);
  }

  #start(
    record: OpenAiAgentsSpanRecord,
    path: string,
    ends: boolean,
    startMs: number | undefined,
    slot?: SpanSlot,
    parentSlot?: SpanSlot,
  ): void {
    record = sdkSpanType(record);
    if (slot !== undefined ? slot.state !== undefined : this.#stateOf(record.id) !== undefined) {
      if (ends && record.ended_at) this.endSpan(record, path);
      return;
    }
    const trace =
      this.#traces.get(record.trace_id) ??
      this.#openTrace(
        { object: 'trace', id: record.trace_id },
        path,
        record.started_at ?? undefined,
      );
    const parentId = record.parent_id ?? null;
    const parent =
      parentId === null
        ? undefined
        : slot !== undefined
          ? (parentSlot?.state as SpanState | undefined)
          : this.#stateOf(parentId);
    if (parentId !== null && parent === undefined)
      this.#ctx.warn(path, 'openai_agents_orphan_span', record.id, parentId);
    const place = parent !== undefined ? parent.place : trace.id;
    let timestamp = this.#source(record.started_at, startMs);
    let invented = false;
    if (timestamp === undefined) {
      timestamp = this.#invented();
      invented = true;
      this.#seen(trace, timestamp);
    } else this.#seen(trace, timestamp, this.#sourceMs);
    const data = record.span_data;
    const type = data.type;
    const metadata: JsonObject = { trace_id: record.trace_id, span_id: record.id };
    if (parentId !== null) metadata['parent_span_id'] = parentId;
    const uuid = this.#sink.uuid(record.id);
    let state: SpanState;
    if (MODEL_KINDS.has(type)) {
      const model: ModelEvent = {
        event: 'model',
        uuid,
        timestamp,
        span_id: place,
        model: '',
        input: EMPTY_ARRAY as ChatMessage[],
        tools: EMPTY_ARRAY as ToolInfo[],
        tool_choice: 'auto',
        config: EMPTY_OBJECT,
        output: NO_OUTPUT,
        metadata,
      };
      this.#sink.add(model, OPEN_DRAFT);
      state = {
        kind: 'model',
        type,
        event: model,
        place,
        trace,
        open: true,
        paired: false,
        calls: NO_CALLS,
      };
    } else if (TOOL_KINDS.has(type)) {
      const tool: ToolEvent = {
        event: 'tool',
        uuid,
        timestamp,
        span_id: place,
        type: 'function',
        id: record.id,
        function: type === 'handoff' ? 'handoff' : 'tool',
        arguments: EMPTY_OBJECT,
        result: '',
        events: EMPTY_ARRAY as [],
        metadata,
      };
      this.#sink.add(tool, OPEN_DRAFT);
      state = {
        kind: 'tool',
        type,
        event: tool,
        place,
        trace,
        open: true,
        paired: false,
        calls: NO_CALLS,
      };
    } else {
      const name = typeof data['name'] === 'string' ? data['name'] : undefined;
      const begin = this.#sink.openSpan(
        {
          id: record.id,
          uuid: this.#sink.uuid(`${record.id}:begin`),
          timestamp,
          parent_id: place,
          type,
          name:
            name ??
            (type === 'turn'
              ? `turn ${data['turn'] === undefined ? '' : scalarText(data['turn'])}`.trim()
              : type),
          metadata,
        },
        OPEN_DRAFT,
      );
      state = {
        kind: 'span',
        type,
        event: begin,
        place: record.id,
        trace,
        open: true,
        paired: false,
        calls: NO_CALLS,
      };
      // A function tool's sub-agent: the first agent span under it (an agent
      // used as a tool runs inside a task span of its own run).
      const waiting =
        parent?.kind === 'tool' && parent.type === 'function' ? parent : parent?.subAgentOf;
      if (type === 'agent') this.#linkAgent(state, waiting, name);
      else if (waiting) state.subAgentOf = waiting;
    }
    if (invented) this.#sink.invent(state.event, 'timestamp', path);
    // A slot keeps it instead of the id map: one map operation fewer per span.
    if (slot !== undefined) slot.state = state;
    else this.#spans.set(record.id, state);
    this.#open.add(state);
    this.#apply(state, record);
    if (ends && record.ended_at) this.endSpan(record, path);
  }

  /**
   * A span ends, with its final data (a span never started is started
   * first); `endMs`, when the caller has read `ended_at` already, and
   * `slot` as for {@link startSpanOf}.
   */
  endSpan(record: OpenAiAgentsSpanRecord, path: string, endMs?: number, slot?: SpanSlot): void {
    record = sdkSpanType(record);
    const state =
      slot !== undefined ? (slot.state as SpanState | undefined) : this.#stateOf(record.id);
    if (state === undefined) {
      // Ended before it was seen to start: started now (and ended by
      // `startSpan` when the record has its end; else here, at an invented end).
      this.startSpan(record, path);
      if (!record.ended_at) this.endSpan(record, path);
      return;
    }
    if (!state.open) return;
    let end = this.#source(record.ended_at, endMs);
    const invented = end === undefined;
    if (end === undefined) {
      end = this.#invented();
      this.#seen(state.trace, end);
    } else this.#seen(state.trace, end, this.#sourceMs);
    if (state.applied !== record.span_data || (state.kind === 'tool' && !state.paired))
      this.#apply(state, record);
    this.#finish(state, record, end, invented ? path : undefined);
    // The SDK never ends the trace of a run that threw (its `withTrace` ends
    // a trace only on success): a failed run's top-level task ends it.
    const trace = state.trace;
    if (
      state.type === 'task' &&
      isRecord(record.error) &&
      trace.open &&
      (record.parent_id ?? null) === null &&
      ![...this.#open].some((s) => s.trace === trace)
    ) {
      trace.open = false;
      this.#sink.closeSpan(trace.begin, { timestamp: end });
    }
  }

  /**
   * For a caller that starts spans with {@link startSpanOf}: its slot of a
   * span id, where the importer finds the state of a span it started with a
   * slot (it keeps no map of those itself).
   */
  useSlots(slotOf: (id: string) => SpanSlot | undefined): void {
    this.#slotOf = slotOf;
  }

  /** The state of the first span started with `id`. */
  #stateOf(id: string): SpanState | undefined {
    return this.#spans.get(id) ?? (this.#slotOf?.(id)?.state as SpanState | undefined);
  }

  drain(): Event[] {
    return this.#sink.drain();
  }

  /** Closes what is still open (spans with a diagnostic, traces at their last time). */
  end(): Event[] {
    for (const state of [...this.#open].reverse()) if (state.open) this.#closeUnended(state, '$');
    for (const trace of this.#traces.values()) {
      if (!trace.open) continue;
      trace.open = false;
      this.#sink.closeSpan(trace.begin, { timestamp: trace.last });
    }
    return this.#sink.drain();
  }

  diagnostics(): Diagnostic[] {
    return this.#ctx.finish();
  }

  #openTrace(
    record: OpenAiAgentsTraceRecord,
    path: string,
    time: string | null | undefined,
  ): TraceState {
    let timestamp = this.#source(time ?? undefined);
    let invented = false;
    if (timestamp === undefined) {
      if (this.#now) timestamp = this.#source(new Date(this.#now()).toISOString());
      if (timestamp === undefined) {
        timestamp = this.#clock.next();
        invented = true;
      }
    }
    const metadata: JsonObject = { trace_id: record.id };
    if (typeof record.group_id === 'string') metadata['group_id'] = record.group_id;
    if (isRecord(record.metadata)) metadata['trace_metadata'] = record.metadata;
    const begin = this.#sink.openSpan(
      {
        id: record.id,
        uuid: this.#sink.uuid(`${record.id}:begin`),
        timestamp,
        parent_id: null,
        type: 'trace',
        name: typeof record.workflow_name === 'string' ? record.workflow_name : record.id,
        metadata,
      },
      OPEN_DRAFT,
    );
    if (invented) this.#sink.invent(begin, 'timestamp', path);
    const trace: TraceState = {
      id: record.id,
      begin,
      open: true,
      last: timestamp,
      lastMs: timestampMs(timestamp),
      calls: [],
      handoffs: [],
    };
    this.#traces.set(record.id, trace);
    return trace;
  }

  /**
   * A source time as given, or `undefined` when it is not an ISO date-time;
   * its milliseconds in `#sourceMs`. `ms`, when the caller read it already.
   */
  #source(value: unknown, ms?: number): string | undefined {
    if (typeof value !== 'string') return undefined;
    if (ms === undefined) ms = timestampMs(value);
    if (!Number.isFinite(ms)) return undefined;
    this.#clock.observe(value, ms);
    this.#sourceMs = ms;
    return value;
  }

  /** The milliseconds of the time `#source` last accepted. */
  #sourceMs = NaN;

  #invented(): string {
    return this.#now ? new Date(this.#now()).toISOString() : this.#clock.next();
  }

  #seen(trace: TraceState, iso: string, ms = timestampMs(iso)): void {
    if (ms > trace.lastMs) {
      trace.lastMs = ms;
      trace.last = iso;
    }
  }

  /** An agent starts: the sub-agent of the tool it runs under, or of the handoff to it. */
  #linkAgent(state: SpanState, waiting: SpanState | undefined, name: string | undefined): void {
    if (waiting !== undefined) {
      const tool = this.#writable(waiting) as ToolEvent;
      if (!tool.agent_span_id) {
        tool.agent_span_id = state.place;
        this.#sink.touch(tool);
      }
      return;
    }
    const handoffs = state.trace.handoffs;
    const i = handoffs.findIndex((h) => h.agent === name);
    if (i < 0) return;
    let tool = handoffs[i]!;
    handoffs.splice(i, 1);
    tool = this.#sink.revise(tool);
    tool.agent_span_id = state.place;
    this.#sink.touch(tool);
    const owner = this.#stateOf(scalarText(tool.metadata?.['span_id']));
    if (owner) owner.event = tool;
  }

  /** The state's event, writable (revised when it was sealed by a drain after it closed). */
  #writable(state: SpanState): Event {
    if (!state.open) state.event = this.#sink.revise(state.event);
    return state.event;
  }

  /** What the span reports so far, onto its event. */
  #apply(state: SpanState, record: OpenAiAgentsSpanRecord): void {
    const data = record.span_data;
    state.applied = data;
    if (state.kind === 'model') this.#applyModel(state.event as ModelEvent, data, state);
    else if (state.kind === 'tool') this.#applyTool(state, data);
    else {
      const begin = state.event as SpanBeginEvent;
      mergeDefined(begin, data, SKIP_TYPE_NAME);
      if (state.type === 'turn' && typeof data['agent_name'] === 'string' && !data['name'])
        begin.name = `turn ${scalarText(data['turn'] ?? '')} (${data['agent_name']})`;
      this.#sink.touch(begin);
    }
  }

  #applyModel(model: ModelEvent, data: Record<string, unknown>, state: SpanState): void {
    const calls: ModelToolCall[] = [];
    // A tool output in the messages nested too deep for JSON.stringify: cut
    // and reported on this model event, not a placeholder.
    const text = (value: unknown) => cutJsonText(value, this.#ctx, model.uuid);
    let output: ChatMessage[] = [];
    let usage = toUsage(data['usage']);
    let finish: string | undefined;
    let name = typeof data['model'] === 'string' ? data['model'] : '';
    const config = isRecord(data['model_config']) ? defined(data['model_config'], NO_SKIP) : {};
    const response = data['_response'];
    if (state.type === 'response') {
      const input = toChatMessages(data['_input'], undefined, text);
      if (isRecord(response)) {
        const instructions = own(response, 'instructions');
        if (typeof instructions === 'string' && instructions !== '')
          input.unshift({ role: 'system', content: instructions });
        if (typeof own(response, 'model') === 'string') name = own(response, 'model') as string;
        output = toChatMessages(own(response, 'output'), calls, text);
        usage = toUsage(own(response, 'usage')) ?? usage;
        const status = own(response, 'status');
        if (typeof status === 'string') finish = status;
        model.tools = responseTools(own(response, 'tools'));
        for (const key of ['temperature', 'top_p', 'max_output_tokens'] as const) {
          const v = own(response, key);
          if (typeof v === 'number') config[key] = v;
        }
      }
      if (input.length) model.input = input;
      const responseId =
        typeof data['response_id'] === 'string'
          ? data['response_id']
          : isRecord(response) && typeof own(response, 'id') === 'string'
            ? (own(response, 'id') as string)
            : undefined;
      if (responseId !== undefined) model.call_id = responseId;
    } else {
      model.input = toChatMessages(data['input'], undefined, text);
      const out = data['output'];
      const first: unknown = Array.isArray(out) ? out[0] : undefined;
      if (isRecord(first) && Array.isArray(own(first, 'choices'))) {
        // The JS SDK's generation output: the whole Chat Completion.
        const choices = own(first, 'choices') as unknown[];
        output = toChatMessages(
          choices.map((c) => (isRecord(c) ? own(c, 'message') : undefined)),
          calls,
          text,
        );
        const c0 = choices[0];
        if (isRecord(c0) && typeof own(c0, 'finish_reason') === 'string')
          finish = own(c0, 'finish_reason') as string;
        usage = usage ?? toUsage(own(first, 'usage'));
        if (!name && typeof own(first, 'model') === 'string') name = own(first, 'model') as string;
      } else output = toChatMessages(out, calls, text);
    }
    model.model = name;
    model.config = config;
    mergeDefined(model, data, SKIP_MODEL);
    if (output.length || usage) model.output = toModelOutput(name, output, usage, finish);
    state.calls = calls;
    this.#sink.touch(model);
  }

  #applyTool(state: SpanState, data: Record<string, unknown>): void {
    const tool = this.#writable(state) as ToolEvent;
    const calls = state.trace.calls;
    if (state.type === 'function') {
      const name = typeof data['name'] === 'string' ? data['name'] : 'tool';
      tool.function = name;
      if (!state.paired) {
        const i = calls.findIndex((c) => c.name === name);
        if (i >= 0) {
          tool.id = calls[i]!.id;
          calls.splice(i, 1);
          state.paired = true;
        }
      }
      if (data['input'] !== undefined && data['input'] !== '')
        tool.arguments = parseArguments(data['input']);
      const out = data['output'];
      if (out !== undefined && out !== null)
        tool.result = typeof out === 'string' ? out : cutJsonText(out, this.#ctx, tool.uuid);
      if (typeof data['mcp_data'] === 'string') setMeta(tool, 'mcp_data', data['mcp_data']);
    } else {
      const from = typeof data['from_agent'] === 'string' ? data['from_agent'] : undefined;
      const to = typeof data['to_agent'] === 'string' ? data['to_agent'] : undefined;
      if (from !== undefined) setMeta(tool, 'from_agent', from);
      if (to !== undefined) {
        setMeta(tool, 'to_agent', to);
        tool.agent = to;
        if (!state.paired) {
          const wanted = handoffToolName(to).toLowerCase();
          let i = calls.findIndex((c) => c.name.toLowerCase() === wanted);
          if (i < 0) i = calls.findIndex((c) => c.name.startsWith('transfer_to_'));
          if (i >= 0) {
            const call = calls[i]!;
            calls.splice(i, 1);
            tool.id = call.id;
            tool.function = call.name;
            tool.arguments = parseArguments(call.arguments);
            state.paired = true;
          } else tool.function = handoffToolName(to);
        }
      }
    }
    const extra = defined(data, SKIP_TOOL);
    for (const key of Object.keys(extra)) setMeta(tool, key, extra[key] as never);
    this.#sink.touch(tool);
  }

  #finish(
    state: SpanState,
    record: OpenAiAgentsSpanRecord,
    end: string,
    endInvented?: string,
  ): void {
    state.open = false;
    this.#open.delete(state);
    const error = isRecord(record.error) ? record.error : undefined;
    const message =
      error !== undefined && typeof error.message === 'string' ? error.message : undefined;
    if (state.kind === 'model') {
      const model = state.event as ModelEvent;
      model.completed = end;
      if (message !== undefined) {
        model.error = message;
        model.output = { ...model.output, error: message };
      }
      if (endInvented !== undefined) this.#sink.invent(model, 'end', endInvented);
      // The answer is final: its tool calls now wait for the spans that run them.
      state.trace.calls.push(...state.calls);
      this.#sink.close(model);
      return;
    }
    if (state.kind === 'tool') {
      const tool = state.event as ToolEvent;
      tool.completed = end;
      if (message !== undefined) {
        tool.error = { type: 'unknown', message };
        tool.failed = true;
      }
      if (!state.paired && state.type === 'function') this.#sink.invent(tool, 'id', '$');
      if (state.type === 'handoff' && tool.agent) state.trace.handoffs.push(tool);
      if (endInvented !== undefined) this.#sink.invent(tool, 'end', endInvented);
      this.#sink.close(tool);
      return;
    }
    const begin = state.event as SpanBeginEvent;
    const data = record.span_data;
    if (state.type === 'guardrail' && data['triggered'] === true)
      this.#sink.add({
        event: 'info',
        uuid: this.#sink.uuid(`${record.id}:triggered`),
        timestamp: end,
        span_id: begin.id,
        source: 'guardrail',
        data: `Guardrail "${begin.name}" triggered its tripwire`,
      });
    if (state.type === 'custom' && isRecord(data['data']) && Object.keys(data['data']).length)
      this.#sink.add({
        event: 'info',
        uuid: this.#sink.uuid(`${record.id}:data`),
        timestamp: end,
        span_id: begin.id,
        source: begin.name,
        data: data['data'],
      });
    if (message !== undefined) {
      const uuid = this.#sink.uuid(`${record.id}:error`);
      this.#sink.add({
        event: 'error',
        uuid,
        timestamp: end,
        span_id: begin.id,
        error: {
          message,
          traceback: isRecord(error?.data) ? cutJsonText(error.data, this.#ctx, uuid, 2) : '',
          traceback_ansi: '',
        },
      });
    }
    this.#sink.closeSpan(begin, { timestamp: end, timeInvented: endInvented });
  }

  /** A span the source never ended: closed at its trace's last time, flagged. */
  #closeUnended(state: SpanState, path: string): void {
    const name =
      state.kind === 'span'
        ? `${state.type} span "${(state.event as SpanBeginEvent).name}"`
        : `${state.type} span`;
    this.#ctx.warn(path, 'openai_agents_unclosed', name);
    const id = scalarText(state.event.metadata?.['span_id'] ?? '');
    this.#finish(
      state,
      { object: 'trace.span', id, trace_id: state.trace.id, span_data: { type: state.type } },
      state.trace.last,
      path,
    );
  }
}

/**
 * A span as the SDK runs it: its exporter writes `task` and `turn` spans as
 * `custom` spans named after the kind with `data.sdk_span_type` (the
 * OpenAI traces backend knows no such kinds); they are read back as what they are.
 */
function sdkSpanType(record: OpenAiAgentsSpanRecord): OpenAiAgentsSpanRecord {
  // A parent that is not a string (a broken record) is none, a kind that is
  // not a string an unknown kind.
  if (record.parent_id != null && typeof record.parent_id !== 'string')
    record = { ...record, parent_id: null };
  const data = record.span_data;
  if (typeof data.type !== 'string') return { ...record, span_data: { ...data, type: 'unknown' } };
  if (data.type !== 'custom' || !isRecord(data['data'])) return record;
  const inner = data['data'];
  const kind = own(inner, 'sdk_span_type');
  if (kind !== 'task' && kind !== 'turn') return record;
  const { sdk_span_type: _, ...rest } = inner;
  return { ...record, span_data: { ...rest, type: kind } };
}

/** `metadata[key] = value` on a draft that owns its metadata. */
function setMeta(event: Event, key: string, value: unknown): void {
  const metadata = event.metadata;
  if (metadata && !Object.isFrozen(metadata)) metadata[key] = value;
  else event.metadata = { ...metadata, [key]: value };
}

/** The function tools a Responses request offered (`{type:'function', name, description, parameters}`). */
function responseTools(raw: unknown): ToolInfo[] {
  if (!Array.isArray(raw)) return [];
  const out: ToolInfo[] = [];
  for (const tool of raw) {
    if (!isRecord(tool)) continue;
    const name = own(tool, 'name');
    if (typeof name !== 'string') continue;
    const params = own(tool, 'parameters');
    out.push({
      name,
      description:
        typeof own(tool, 'description') === 'string' ? (own(tool, 'description') as string) : '',
      parameters: (isRecord(params) ? params : { type: 'object', properties: {} }) as never,
    });
  }
  return out;
}
