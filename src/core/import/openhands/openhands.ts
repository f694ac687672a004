// Long on purpose (past 600 lines): V0 and V1 events pair through one state (actions and observations, turns, sub-agents) that splitting would have to export.
// OpenHands event logs: https://docs.all-hands.dev/ (V0 event stream,
// `openhands/events/serialization/event.py`) and the V1 software-agent-sdk
// (`openhands-sdk/openhands/sdk/event/`). Shapes and pairing rules are
// those of these two sources.
//
// Three shapes, mixed freely (one record at a time, so a file can be streamed):
// - V0 trajectories: a JSON array (or JSON Lines, or `{ "history": [...] }`) of
//   `{id, timestamp, source, message, action, args}` actions and
//   `{id, timestamp, source, message, observation, content, extras, cause}`
//   observations. Ids are integers, monotonic but gappy.
// - V1 SDK events: `{kind, id, timestamp, source, …}` (`MessageEvent`,
//   `ActionEvent`, `ObservationEvent`, `AgentErrorEvent`, …), string ids.
// - the `{event_type, event_id, source, timestamp, raw}` wrapper some
//   integrations write around either: unwrapped, the wrapper's fields fill
//   what `raw` lacks and stay in `metadata.openhands.wrapper`.
//
// Mapping (the one representation every importer maps to):
// - a user message opens a `turn` span that runs to the next user message;
//   the message itself is a `message` (role user); the system prompt a
//   `message` (role system);
// - the model call behind an action (V0 `tool_call_metadata.model_response`,
//   or `llm_metrics` alone; V1 actions grouped by `llm_response_id`) is one
//   `model` event: thought, reasoning, tool calls, finish reason, usage (from
//   the response, else the `llm_metrics` token usage of that response, else the
//   growth of the accumulated usage) and cost (the growth of
//   `accumulated_cost`);
// - each tool action is a `tool` event whose `id` is the `tool_call_id`
//   (invented and flagged for V0 actions without one), completed by the
//   observation paired by `cause` (V0) or `tool_call_id`/`action_id` (V1);
//   `error` observations, `AgentErrorEvent` and rejections mark it failed;
//   an observation whose action is not in the file is kept as a closed tool
//   event (with a tool call id) or an info event, with a diagnostic; a call
//   never answered stays open (pending);
// - `finish` → the answer, an assistant `message`; agent messages → assistant
//   `message` (a `model` event when the log recorded the call's metrics);
// - `delegate` → a tool event plus an `agent` span under it that holds the
//   delegate's events until the delegate observation; V1 `task` calls
//   (`TaskAction`, `openhands-tools/openhands/tools/task/`) and `delegate`
//   calls (`DelegateAction` with `tasks`, `openhands-tools/.../delegate/`) →
//   an `agent` span per sub-agent under the call, holding the task it was
//   sent, until the observation (or, for a background task, a `task_output`
//   with its `task_id` and a finished status): V1 sub-agents are conversations
//   of their own, persisted apart, so their events are not in this log;
// - condensation → `compaction`; the agent stopped by the user
//   (`agent_state_changed` to `stopped`) → every event of the turn marked
//   `metadata.aborted: true`;
// - everything else (`null` observations, state changes, recalls, unknown
//   kinds) → `info` events (`source: 'openhands'`, `data` = the record), kept
//   quietly.
// Fields the mapping does not consume stay in `metadata.openhands`.
import type {
  Content,
  Event,
  JsonObject,
  MessageEvent,
  ModelEvent,
  ModelUsage,
  SpanBeginEvent,
  ToolCall,
  ToolEvent,
} from '../../events/types.js';
import type { Diagnostic } from '../../errors.js';
import { jsonPath, ImportError } from '../../errors.js';
import { parseTimestampMs, timestampHadOffset } from '../../events/timestamp.js';
import {
  isRecord,
  own,
  safeJson,
  typeName,
  valueText,
  type ImportOptions,
  type JsonRecord,
} from '../guards.js';
import {
  importLines,
  importerParts,
  sniffer,
  type FormatImporter,
  type ImportResult,
  type IncrementalImporter,
} from '../format.js';
import { markAborted, markSpanAborted } from '../aborted.js';
import { Probe, type ImportInput } from '../probe.js';
import { SyntheticClock } from '../sink.js';
import { EMPTY_OBJECT } from '../../events/freeze.js';
import { OPEN_DRAFT } from '../drafts.js';
import { StringMap } from '../string-map.js';

const SOURCES = new Set(['user', 'agent', 'environment']);

/** The V0 actions that run a tool (a tool event even without a tool call id). */
const TOOL_ACTIONS = new Set([
  'run',
  'run_ipython',
  'read',
  'write',
  'edit',
  'browse',
  'browse_interactive',
  'think',
  'call_tool_mcp',
  'mcp',
  'delegate',
  'task_tracking',
]);

type Shape = 'v0' | 'v1' | 'wrapper';

function shapeOf(value: unknown): Shape | undefined {
  if (!isRecord(value)) return undefined;
  const source = value['source'];
  if (typeof value['event_type'] === 'string' && 'raw' in value) return 'wrapper';
  if (typeof source !== 'string' || !SOURCES.has(source)) return undefined;
  if (typeof value['action'] === 'string' || typeof value['observation'] === 'string') return 'v0';
  if (typeof value['kind'] === 'string' && typeof value['id'] === 'string') return 'v1';
  return undefined;
}

/** The records of a `{ "history": [...] }` container (V0 evaluation output), else undefined. */
function historyOf(value: unknown): unknown[] | undefined {
  if (!isRecord(value)) return undefined;
  const history = own(value, 'history');
  return Array.isArray(history) ? history : undefined;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) ? v : undefined;

/** The fields of `rec` the mapping did not consume, or undefined when none are left. */
function rest(rec: JsonRecord, skip: ReadonlySet<string>): JsonObject {
  return restInto({}, rec, skip);
}

/**
 * {@link rest} written into `out` (what `{ ...out, ...rest(rec, skip) }`
 * gives, without the two objects in between), and `out` returned.
 */
function restInto(out: JsonObject, rec: JsonRecord, skip: ReadonlySet<string>): JsonObject {
  for (const key of Object.keys(rec)) {
    if (skip.has(key)) continue;
    const v = rec[key];
    if (v === undefined) continue;
    // `__proto__` as a key is data: define it rather than assign it.
    if (key === '__proto__')
      Object.defineProperty(out, key, { value: v, enumerable: true, writable: true });
    else out[key] = v;
  }
  return out;
}

/** Text of V1 content parts (`TextContent`, `ImageContent`) or a plain string, as skein content. */
function contentOf(value: unknown): string | Content[] {
  if (typeof value === 'string') return value;
  if (!Array.isArray(value)) return value === undefined || value === null ? '' : safeJson(value);
  const parts: Content[] = [];
  for (const p of value) {
    if (typeof p === 'string') parts.push({ type: 'text', text: p });
    else if (isRecord(p) && p['type'] === 'text' && typeof p['text'] === 'string')
      parts.push({ type: 'text', text: p['text'] });
    else if (isRecord(p) && Array.isArray(p['image_urls'])) {
      for (const url of p['image_urls']) if (typeof url === 'string') parts.push(image(url));
    } else parts.push({ type: 'text', text: safeJson(p) });
  }
  // One text part reads best as a string (as OpenHands shows it).
  const only = parts.length === 1 ? parts[0] : undefined;
  if (only?.type === 'text') return only.text;
  return parts;
}

const image = (url: string): Content => ({ type: 'image', image: url });

const textOf = (c: string | Content[]): string => {
  if (typeof c === 'string') return c;
  let text = '';
  for (const p of c) if (p.type === 'text') text += p.text;
  return text;
};

// Fields every model or tool event has empty: one frozen value shared by all
// (events are deep-frozen anyway, and a frozen value is not walked again), not
// an array or object built, kept and frozen per event.
const NO_MESSAGES = Object.freeze([]) as unknown as ModelEvent['input'];
const NO_TOOLS = Object.freeze([]) as unknown as ModelEvent['tools'];
const NO_CONFIG = Object.freeze({}) as ModelEvent['config'];
const NO_EVENTS = Object.freeze([]) as unknown as ToolEvent['events'];

/** A tool call's JSON-string arguments, parsed; a parse failure is kept as `parse_error`. */
function parseArguments(raw: unknown): { args: JsonObject; error?: string } {
  if (isRecord(raw)) return { args: raw as JsonObject };
  if (typeof raw !== 'string' || raw.trim() === '') return { args: {} };
  try {
    const v = JSON.parse(raw) as unknown;
    return isRecord(v) ? { args: v as JsonObject } : { args: { value: v } };
  } catch (e) {
    return { args: { raw }, error: e instanceof Error ? e.message : String(e) };
  }
}

/** Usage of an OpenAI-shaped response (litellm), cached tokens taken out of the input. */
function responseUsage(u: unknown): ModelUsage | undefined {
  if (!isRecord(u)) return undefined;
  const prompt = num(u['prompt_tokens']);
  const completion = num(u['completion_tokens']);
  if (prompt === undefined && completion === undefined) return undefined;
  const details = isRecord(u['prompt_tokens_details']) ? u['prompt_tokens_details'] : EMPTY_OBJECT;
  const outDetails = isRecord(u['completion_tokens_details'])
    ? u['completion_tokens_details']
    : EMPTY_OBJECT;
  const cacheRead = num(u['cache_read_input_tokens']) ?? num(details['cached_tokens']);
  const cacheWrite = num(u['cache_creation_input_tokens']);
  return usage(prompt, completion, cacheRead, cacheWrite, num(outDetails['reasoning_tokens']));
}

function usage(
  prompt: number | undefined,
  completion: number | undefined,
  cacheRead: number | undefined,
  cacheWrite: number | undefined,
  reasoning: number | undefined,
): ModelUsage {
  // litellm's prompt_tokens include cache reads and writes; inspect's
  // `input_tokens` excludes them (types.ts ModelUsage).
  const out: ModelUsage = {
    input_tokens: Math.max(0, (prompt ?? 0) - (cacheRead ?? 0) - (cacheWrite ?? 0)),
    output_tokens: completion ?? 0,
    total_tokens: (prompt ?? 0) + (completion ?? 0),
  };
  if (cacheRead) out.input_tokens_cache_read = cacheRead;
  if (cacheWrite) out.input_tokens_cache_write = cacheWrite;
  if (reasoning) out.reasoning_tokens = reasoning;
  return out;
}

/** An OpenHands `TokenUsage` (`llm_metrics.token_usages[i]`, `accumulated_token_usage`). */
function tokenUsage(u: JsonRecord, minus?: JsonRecord): ModelUsage {
  return usage(
    tokenCount(u, minus, 'prompt_tokens'),
    tokenCount(u, minus, 'completion_tokens'),
    tokenCount(u, minus, 'cache_read_tokens'),
    tokenCount(u, minus, 'cache_write_tokens'),
    tokenCount(u, minus, 'reasoning_tokens'),
  );
}

/** One count of {@link tokenUsage} (a function, not a closure per call). */
function tokenCount(u: JsonRecord, minus: JsonRecord | undefined, k: string): number | undefined {
  const v = num(u[k]);
  if (v === undefined) return undefined;
  return minus ? Math.max(0, v - (num(minus[k]) ?? 0)) : v;
}

function stopReason(v: unknown): string {
  const r = typeof v === 'string' ? v : 'unknown';
  if (r === 'tool_calls' || r === 'function_call' || r === 'tool_use') return 'tool_calls';
  if (r === 'length') return 'max_tokens';
  if (r === 'end_turn') return 'stop';
  return r;
}

/** When and where a record happened: its time (its own or invented) and its JSON path. */
interface At {
  time: string;
  invented: boolean;
  path: string;
}

interface Scope {
  span: string;
  kind: 'turn' | 'agent';
  begin: SpanBeginEvent;
  /** The time it opened at: its end until something is added while it is open. */
  lastTime: string;
  /** The touch count when it opened (`scopeEnd`). */
  seq: number;
  /** The delegate tool call that spawned an agent span. */
  tool?: ToolEvent;
}

/**
 * A V1 sub-agent span (a `task` or `delegate` call). Its events live in a
 * conversation of their own, persisted apart from the parent's log, so the
 * span holds the task it was given and stays off the scope stack.
 */
interface SubAgent {
  begin: SpanBeginEvent;
  /** The TaskToolSet task id, once an observation names it. */
  taskId?: string;
}

/** An observation with no tool to complete. */
interface Observation {
  /** The action it names, when that is not in the file. */
  missing: string | undefined;
  callId: string | undefined;
  toolName: string | undefined;
  result: string | Content[];
  error: { type: string; message: string } | undefined;
  meta: JsonObject;
}

const V0_ACTION_KEYS = new Set([
  'id',
  'timestamp',
  'source',
  'action',
  'args',
  'tool_call_metadata',
  'llm_metrics',
]);
const V0_OBSERVATION_KEYS = new Set([
  'id',
  'timestamp',
  'source',
  'observation',
  'content',
  'cause',
  'tool_call_metadata',
]);
const V1_KEYS = new Set(['id', 'timestamp', 'source', 'kind']);
// Keys left out of metadata on the V0 hot path (sets made once, not per record).
const RESPONSE_KEYS = new Set(['choices', 'model']);
const THOUGHT_KEY = new Set(['thought']);
const MODEL_RESPONSE_KEY = new Set(['model_response']);
// … and on the V1 and wrapper paths.
const KIND_KEY = new Set(['kind']);
const V1_TOOL_SKIP = new Set([
  'thought',
  'tool_call',
  'reasoning_content',
  'thinking_blocks',
  'action',
]);
const LLM_MESSAGE_KEY = new Set(['llm_message']);
const MESSAGE_CONSUMED = new Set(['role', 'content', 'reasoning_content']);
const SYSTEM_PROMPT_KEY = new Set(['system_prompt']);
const OBSERVATION_KEY = new Set(['observation']);
const CONTENT_KEY = new Set(['content']);
const RAW_KEY = new Set(['raw']);
const HISTORY_KEY = new Set(['history']);

function openHandsImporter(options: ImportOptions): IncrementalImporter {
  const { ctx, sink } = importerParts('openhands', options);
  const clock = new SyntheticClock(options.baseTime);
  const stack: Scope[] = [];
  // One entry a record, a call or a response: StringMap, not Map (string-map.ts).
  const toolsByAction = new StringMap<ToolEvent>(); // V0 action id / V1 event id → tool
  const toolsByCall = new StringMap<ToolEvent>(); // tool_call_id → tool
  const finishCalls = new Set<string>(); // finish tool calls (answered by the message)
  const models = new StringMap<ModelEvent>(); // response id → model event
  const seenKeys = new StringMap<true>(); // the records' keys
  const subAgents = new Map<string, SubAgent[]>(); // V1 tool uuid → its sub-agent spans
  const background = new Map<string, SubAgent>(); // task id → a background task still running
  const openSubAgents = new Set<SubAgent>();
  const agentTypes = new Map<string, string>(); // DelegateAction spawn: id → agent type
  let turnEvents: Event[] = [];
  let abortedTurn: SpanBeginEvent | undefined; // stopped by the user
  let turnCount = 0;
  let lastTime = '';
  let noOffsetReported = false;
  let openModel: ModelEvent | undefined; // V1: a response whose actions may still arrive
  // llm_metrics are running totals: per-call figures are their growth.
  let prevAccumulated: JsonRecord | undefined;
  let prevCost = 0;
  let prevCosts = 0;

  const spanId = () => stack[stack.length - 1]?.span ?? null;

  /** Counts an added event in the open turn (for an abort) and its scopes' ends. */
  const track = <E extends Event>(e: E): E => {
    if (stack.length && stack[0]!.kind === 'turn') turnEvents.push(e);
    touchScope(e.timestamp);
    return e;
  };

  const add = <E extends Event>(e: E, open = false): E =>
    track(sink.add(e, open ? OPEN_DRAFT : undefined));

  /** The record's time: its own (an offset added when it has none), else invented. */
  const timeOf = (rec: JsonRecord, path: string): At => {
    const raw = str(own(rec, 'timestamp'));
    if (raw !== undefined) {
      const ms = parseTimestampMs(raw);
      if (!Number.isNaN(ms)) {
        let time = raw;
        if (!timestampHadOffset()) {
          // OpenHands writes `datetime.now().isoformat()`: no offset. Read as
          // UTC (as the canonical parser does), said once per file.
          if (!noOffsetReported) {
            noOffsetReported = true;
            ctx.info(jsonPath(path, 'timestamp'), 'timestamp_no_offset', raw);
          }
          time = `${raw}Z`;
        }
        clock.observe(time, ms);
        lastTime = time;
        return { time, invented: false, path };
      }
    }
    const time = lastTime ? lastTime : clock.next();
    lastTime = time;
    return { time, invented: true, path };
  };

  const stamp = (e: Event, at: At) => {
    if (at.invented) sink.invent(e, 'timestamp', at.path);
  };

  // Every open scope ends at the last event added while it is open: one
  // time and a count for them all, not a write per open scope per event
  // (delegates nest 100,000 deep in hostile logs).
  let touches = 0;
  let touchTime = '';
  const touchScope = (time: string) => {
    touches++;
    touchTime = time;
  };
  const scopeEnd = (scope: Scope) => (touches > scope.seq ? touchTime : scope.lastTime);
  /** Open agent scopes, by the delegate call that opened them. */
  const openAgents = new Map<ToolEvent, Scope>();
  const popScope = () => {
    const scope = stack.pop()!;
    if (scope.tool) openAgents.delete(scope.tool);
    return scope;
  };

  const endSpan = (scope: Scope) => sink.closeSpan(scope.begin, { timestamp: scopeEnd(scope) });

  const closeTurn = () => {
    for (const sub of openSubAgents) {
      ctx.info('$', 'openhands_delegate_unfinished', sub.begin.name);
      endSubAgent(sub, stack[0] ? scopeEnd(stack[0]) : lastTime);
    }
    while (stack.length) {
      const scope = popScope();
      if (scope.kind === 'agent') ctx.info('$', 'openhands_delegate_unfinished', scope.begin.name);
      endSpan(scope);
    }
    if (abortedTurn) markSpanAborted(sink, abortedTurn);
    abortedTurn = undefined;
    turnEvents = [];
  };

  const openTurn = (key: string, at: At) => {
    closeTurn();
    turnCount++;
    const begin = sink.openSpan(
      {
        key: `turn:${key}`,
        timestamp: at.time,
        parent_id: null,
        type: 'turn',
        name: `turn ${turnCount}`,
      },
      { timeInvented: at.invented ? at.path : undefined },
    );
    stack.push({ span: begin.id, kind: 'turn', begin, lastTime: at.time, seq: touches });
    turnEvents.push(begin);
  };

  const closeOpenModel = () => {
    if (openModel) sink.close(openModel);
    openModel = undefined;
  };

  const info = (key: string, at: At, data: unknown, meta?: JsonObject) => {
    const e = add({
      event: 'info',
      uuid: sink.uuid(`info:${key}`),
      timestamp: at.time,
      span_id: spanId(),
      source: 'openhands',
      data,
      ...(meta ? { metadata: { openhands: meta } } : {}),
    });
    stamp(e, at);
    return e;
  };

  const message = (
    key: string,
    role: MessageEvent['role'],
    content: string | Content[],
    at: At,
    meta: JsonObject,
    source?: string,
  ) => {
    const m = add({
      event: 'message',
      uuid: sink.uuid(`message:${key}`),
      timestamp: at.time,
      span_id: spanId(),
      role,
      content,
      message_id: key,
      ...(source ? { source } : {}),
      metadata: { openhands: meta },
    } satisfies MessageEvent);
    stamp(m, at);
    return m;
  };

  /** The run's answer (a `finish` action): an assistant message, its call remembered. */
  const answer = (
    key: string,
    text: string,
    at: At,
    meta: JsonObject,
    callId: string | undefined,
  ) => {
    if (callId !== undefined) finishCalls.add(callId);
    message(
      key,
      'assistant',
      text,
      at,
      { ...meta, ...(callId ? { tool_call_id: callId } : {}) },
      'finish',
    );
  };

  const compaction = (key: string, at: At, meta: JsonObject) =>
    stamp(
      add({
        event: 'compaction',
        uuid: sink.uuid(`compaction:${key}`),
        timestamp: at.time,
        span_id: spanId(),
        type: 'summary',
        metadata: { openhands: meta },
      }),
      at,
    );

  const failure = (key: string, text: string, at: At, meta: JsonObject) =>
    stamp(
      add({
        event: 'error',
        uuid: sink.uuid(`error:${key}`),
        timestamp: at.time,
        span_id: spanId(),
        error: { message: text, traceback: '', traceback_ansi: '' },
        metadata: { openhands: meta },
      }),
      at,
    );

  const newModel = (
    responseId: string,
    name: string,
    at: At,
    meta: JsonObject,
    open: boolean,
    // The choices when the caller has them already (V0): no placeholder
    // choice to build and replace (four objects per model event).
    choices: ModelEvent['output']['choices'] = [
      { message: { role: 'assistant', content: [], tool_calls: [] } },
    ],
  ): ModelEvent => {
    const model = add(
      {
        event: 'model',
        uuid: sink.uuid(`model:${responseId}`),
        timestamp: at.time,
        span_id: spanId(),
        model: name,
        input: NO_MESSAGES,
        tools: NO_TOOLS,
        tool_choice: 'auto',
        config: NO_CONFIG,
        output: { model: name, choices, completion: '' },
        completed: at.time,
        call_id: responseId,
        metadata: { openhands: meta },
      } satisfies ModelEvent,
      open,
    );
    stamp(model, at);
    models.set(responseId, model);
    return model;
  };

  /** Usage and cost of one call from V0 `llm_metrics` (running totals). */
  const metricsOf = (m: JsonRecord, responseId: string | undefined): ModelUsage | undefined => {
    let out: ModelUsage | undefined;
    // A loop, not `find` with a closure made per call.
    let match: unknown;
    if (responseId && Array.isArray(m['token_usages'])) {
      for (const u of m['token_usages'])
        if (isRecord(u) && u['response_id'] === responseId) {
          match = u;
          break;
        }
    }
    const accumulated = isRecord(m['accumulated_token_usage'])
      ? m['accumulated_token_usage']
      : undefined;
    if (isRecord(match)) out = tokenUsage(match);
    else if (accumulated) out = tokenUsage(accumulated, prevAccumulated);
    if (accumulated) prevAccumulated = accumulated;
    const costs = Array.isArray(m['costs']) ? m['costs'] : [];
    const total = num(m['accumulated_cost']);
    let cost: number | undefined;
    if (costs.length > prevCosts && isRecord(costs[costs.length - 1]))
      cost = num((costs[costs.length - 1] as JsonRecord)['cost']);
    else if (total !== undefined && total > prevCost) cost = total - prevCost;
    prevCosts = Math.max(prevCosts, costs.length);
    if (total !== undefined) prevCost = Math.max(prevCost, total);
    if (cost !== undefined) {
      out ??= usage(undefined, undefined, undefined, undefined, undefined);
      out.total_cost = cost;
    }
    return out;
  };

  /** V0: the model event behind an agent action (from its response or its metrics). */
  const v0Model = (
    rec: JsonRecord,
    key: string,
    at: At,
    fallback: { text: string; call?: ToolCall },
  ): ModelEvent | undefined => {
    const meta = isRecord(own(rec, 'tool_call_metadata'))
      ? (rec['tool_call_metadata'] as JsonRecord)
      : undefined;
    const response = meta && isRecord(meta['model_response']) ? meta['model_response'] : undefined;
    const metrics = isRecord(own(rec, 'llm_metrics'))
      ? (rec['llm_metrics'] as JsonRecord)
      : undefined;
    if (!response && !metrics) return undefined;
    const responseId = str(response?.['id']) ?? `action:${key}`;
    const known = models.get(responseId);
    if (known) return known; // parallel calls of one response: the first action built it
    const name = str(response?.['model']) ?? 'unknown';
    const modelMeta = response ? rest(response, RESPONSE_KEYS) : {};
    if (metrics) modelMeta['llm_metrics'] = metrics;
    const choices = response && Array.isArray(response['choices']) ? response['choices'] : [];
    let out: ModelEvent['output']['choices'];
    if (choices.length) {
      out = [];
      for (const c of choices) {
        if (!isRecord(c)) continue;
        const msg = isRecord(c['message']) ? c['message'] : {};
        const calls: ToolCall[] = [];
        for (const tc of Array.isArray(msg['tool_calls']) ? msg['tool_calls'] : []) {
          if (!isRecord(tc)) continue;
          const fn = isRecord(tc['function']) ? tc['function'] : {};
          const { args, error } = parseArguments(fn['arguments']);
          calls.push({
            id: str(tc['id']) ?? '',
            function: str(fn['name']) ?? 'tool',
            arguments: args,
            type: 'function',
            ...(error ? { parse_error: error } : {}),
          });
        }
        const content: Content[] = [];
        const reasoning = str(msg['reasoning_content']);
        if (reasoning) content.push({ type: 'reasoning', reasoning });
        const text = contentOf(msg['content']);
        if (typeof text === 'string') {
          if (text) content.push({ type: 'text', text });
        } else content.push(...text);
        out.push({
          message: { role: 'assistant' as const, content, tool_calls: calls },
          stop_reason: stopReason(c['finish_reason']),
        });
      }
    } else {
      const content: Content[] = fallback.text ? [{ type: 'text', text: fallback.text }] : [];
      out = [
        {
          message: {
            role: 'assistant',
            content,
            tool_calls: fallback.call ? [fallback.call] : [],
          },
          stop_reason: fallback.call ? 'tool_calls' : 'stop',
        },
      ];
    }
    const model = newModel(responseId, name, at, modelMeta, false, out);
    model.output.completion = out[0] ? textOf(out[0].message.content) : '';
    const fromMetrics = metrics ? metricsOf(metrics, str(response?.['id'])) : undefined;
    const used = responseUsage(response?.['usage']) ?? fromMetrics;
    if (used) {
      // The cost is known from the metrics even when the tokens came from the response.
      if (used.total_cost === undefined && fromMetrics?.total_cost !== undefined)
        used.total_cost = fromMetrics.total_cost;
      model.output.usage = used;
    }
    return model;
  };

  const newTool = (
    key: string,
    callId: string | undefined,
    fn: string,
    args: JsonObject,
    at: At,
    meta: JsonObject,
    actionKey: string,
  ): ToolEvent => {
    const tool: ToolEvent = {
      event: 'tool',
      uuid: sink.uuid(`tool:${key}`),
      timestamp: at.time,
      span_id: spanId(),
      type: 'function',
      id: callId ?? `openhands-${key}`,
      function: fn,
      arguments: args,
      result: '',
      events: NO_EVENTS,
      metadata: { openhands: meta },
    };
    add(tool, true);
    stamp(tool, at);
    if (callId === undefined) sink.invent(tool, 'id', at.path);
    toolsByAction.set(actionKey, tool);
    if (callId !== undefined) {
      const before = toolsByCall.get(callId);
      if (before !== undefined && sink.isOpen(before))
        ctx.info(at.path, 'openhands_duplicate_call', callId);
      toolsByCall.set(callId, tool);
    }
    return tool;
  };

  /** Completes a tool with an observation. */
  const complete = (
    found: ToolEvent,
    result: string | Content[],
    time: string,
    error: { type: string; message: string } | undefined,
    meta: JsonObject,
  ) => {
    const tool = sink.revise(found);
    tool.result = result;
    tool.completed = time;
    touchScope(time);
    if (error) {
      tool.error = error;
      tool.failed = true;
    }
    // Every event's metadata object, and the `openhands` object in it, is its
    // own (made with it, or by a revision): set in place, not copied.
    const prior = tool.metadata?.['openhands'];
    if (isRecord(prior) && !Object.isFrozen(prior) && !Object.isFrozen(tool.metadata))
      (prior as JsonObject)['observation'] = meta;
    else {
      const openhands = { ...(isRecord(prior) ? prior : {}), observation: meta };
      if (tool.metadata && !Object.isFrozen(tool.metadata)) tool.metadata['openhands'] = openhands;
      else tool.metadata = { ...(tool.metadata ?? {}), openhands };
    }
    sink.close(tool);
  };

  const openAgent = (tool: ToolEvent, name: string, key: string, time: string) => {
    const begin = track(
      sink.openSpan({
        key: `agent:${key}`,
        timestamp: time,
        parent_id: tool.span_id ?? null,
        type: 'agent',
        name,
      }),
    );
    tool.agent = name;
    tool.agent_span_id = begin.id;
    sink.touch(tool);
    const scope: Scope = {
      span: begin.id,
      kind: 'agent',
      begin,
      lastTime: time,
      seq: touches,
      tool,
    };
    stack.push(scope);
    openAgents.set(tool, scope);
  };

  /**
   * V1: opens a sub-agent span under the `task`/`delegate` call `tool`, with
   * the task it was sent as its first message (the sub-conversation starts
   * with it, `sender` the parent).
   */
  const openSubAgent = (
    tool: ToolEvent,
    name: string,
    task: string,
    key: string,
    at: At,
    meta: JsonObject,
  ): SubAgent => {
    const begin = track(
      sink.openSpan(
        {
          key: `agent:${key}`,
          timestamp: at.time,
          parent_id: tool.span_id ?? null,
          type: 'agent',
          name,
          metadata: { openhands: meta },
        },
        { open: true, timeInvented: at.invented ? at.path : undefined },
      ),
    );
    const m = track(
      sink.add({
        event: 'message',
        uuid: sink.uuid(`message:${key}`),
        timestamp: at.time,
        span_id: begin.id,
        role: 'user',
        content: task,
        message_id: `${key}:task`,
        metadata: { openhands: { task: true } },
      } satisfies MessageEvent),
    );
    stamp(m, at);
    const sub: SubAgent = { begin };
    openSubAgents.add(sub);
    const list = subAgents.get(tool.uuid);
    if (list) list.push(sub);
    else subAgents.set(tool.uuid, [sub]);
    return sub;
  };

  /** V1: the sub-agent spans of a `task` call (`TaskAction`) or a `delegate` call (`DelegateAction`). */
  const v1SubAgents = (
    tool: ToolEvent,
    actionKind: string | undefined,
    args: JsonObject,
    key: string,
    at: At,
  ) => {
    const task = str(args['prompt']);
    if (actionKind === 'TaskAction' || (actionKind === undefined && tool.function === 'task')) {
      if (task === undefined) return;
      const type = str(args['subagent_type']) ?? 'general-purpose';
      const meta: JsonObject = { subagent_type: type };
      for (const k of ['description', 'resume', 'run_in_background'] as const)
        if (args[k] !== undefined && args[k] !== null) meta[k] = args[k];
      openSubAgent(tool, type, task, key, at, meta);
      tool.agent = type;
    } else if (actionKind === 'DelegateAction' || tool.function === 'delegate') {
      const ids = args['ids'];
      const types = args['agent_types'];
      if (args['command'] === 'spawn' && Array.isArray(ids)) {
        // Spawning only creates the sub-conversations; they run when delegated to.
        ids.forEach((id, i) => {
          const type = Array.isArray(types) ? str(types[i])?.trim() : undefined;
          if (typeof id === 'string') agentTypes.set(id, type || 'default');
        });
        return;
      }
      const tasks = args['tasks'];
      if (args['command'] !== 'delegate' || !isRecord(tasks)) return;
      const names: string[] = [];
      for (const id of Object.keys(tasks)) {
        const meta: JsonObject = { agent_id: id, agent_type: agentTypes.get(id) ?? 'default' };
        openSubAgent(tool, id, valueText(tasks[id]), `${key}:${id}`, at, meta);
        names.push(id);
      }
      if (!names.length) return;
      tool.agent = names.join(', ');
    } else return;
    // One span per sub-agent; the call points at the first.
    tool.agent_span_id = subAgents.get(tool.uuid)![0]!.begin.id;
    sink.touch(tool);
  };

  const endSubAgent = (sub: SubAgent, time: string) => {
    if (!openSubAgents.delete(sub)) return;
    if (sub.taskId !== undefined && background.get(sub.taskId) === sub)
      background.delete(sub.taskId);
    sink.closeSpan(sub.begin, { timestamp: time });
  };

  /** Adds what an observation said of a sub-agent (`task_id`, `status`) to its span. */
  const noteSubAgent = (sub: SubAgent, taskId: string | undefined, status: string | undefined) => {
    if (taskId === undefined && status === undefined) return;
    const begin = sink.revise(sub.begin);
    const prior = isRecord(begin.metadata?.['openhands']) ? begin.metadata['openhands'] : {};
    begin.metadata = {
      ...(begin.metadata ?? {}),
      openhands: {
        ...prior,
        ...(taskId !== undefined ? { task_id: taskId } : {}),
        ...(status !== undefined ? { status } : {}),
      },
    };
    sub.begin = begin;
    sink.touch(begin);
  };

  /**
   * V1: an observation of a call with sub-agents ends their spans, unless it
   * says a background task is still running (then a later `task_output` or
   * `task_stop` observation naming its task id ends it).
   */
  const v1SubAgentsAnswered = (tool: ToolEvent, obs: JsonRecord, time: string) => {
    const taskId = str(obs['task_id']);
    const status = str(obs['status']);
    const subs = subAgents.get(tool.uuid);
    if (subs) {
      for (const sub of subs) {
        if (!openSubAgents.has(sub)) continue;
        noteSubAgent(sub, taskId, status);
        if (status === 'running' && taskId !== undefined) {
          sub.taskId = taskId;
          background.set(taskId, sub);
        } else endSubAgent(sub, time);
      }
      return;
    }
    // task_output / task_stop: the status of a background task.
    const sub = taskId !== undefined ? background.get(taskId) : undefined;
    if (sub && status !== undefined && status !== 'running') {
      noteSubAgent(sub, undefined, status);
      endSubAgent(sub, time);
    }
  };

  /** Closes the agent span a delegate tool opened (and any still open inside it). */
  const closeAgent = (tool: ToolEvent) => {
    const open = openAgents.get(tool);
    if (open === undefined) return;
    // From the top: a delegate usually returns before the one that called it.
    const at = stack.lastIndexOf(open);
    while (stack.length > at) {
      const scope = popScope();
      if (stack.length > at) ctx.info('$', 'openhands_delegate_unfinished', scope.begin.name);
      endSpan(scope);
    }
  };

  /** Marks every event of the open turn aborted (the user stopped the agent). */
  const abortTurn = () => {
    markAborted(sink, turnEvents);
    if (stack[0]?.kind === 'turn') abortedTurn = stack[0].begin; // the rest, at its end
  };

  const unpaired = (key: string, at: At, raw: JsonRecord, obs: Observation) => {
    const { callId, toolName } = obs;
    if (callId !== undefined && finishCalls.has(callId)) {
      // The finish call's observation: the answer is already shown.
      info(key, at, raw);
      return;
    }
    if (obs.missing !== undefined) ctx.info(at.path, 'openhands_observation_unpaired', obs.missing);
    if (callId !== undefined || toolName !== undefined) {
      const tool = newTool(key, callId, toolName ?? 'tool', {}, at, {}, `obs:${key}`);
      complete(tool, obs.result, at.time, obs.error, obs.meta);
      return;
    }
    if (obs.error) failure(key, obs.error.message, at, obs.meta);
    else info(key, at, raw);
  };

  // --- V0 ------------------------------------------------------------------

  const v0Action = (rec: JsonRecord, key: string, path: string, meta: JsonObject) => {
    const at = timeOf(rec, path);
    const action = rec['action'] as string;
    const source = str(rec['source']);
    const argsRaw = own(rec, 'args');
    const args: JsonRecord = isRecord(argsRaw) ? argsRaw : {};
    if (argsRaw !== undefined && argsRaw !== null && !isRecord(argsRaw))
      ctx.warn(jsonPath(path, 'args'), 'wrong_type', 'object', typeName(argsRaw));
    const thought = str(args['thought']) ?? '';
    const tcm = isRecord(own(rec, 'tool_call_metadata'))
      ? (rec['tool_call_metadata'] as JsonRecord)
      : undefined;
    const callId = str(tcm?.['tool_call_id']);
    const fnName = str(tcm?.['function_name']);
    // `meta` is this record's own (built for it in `pushRecord`): it becomes
    // the metadata of the one event made, with the arguments (`info0`, for a
    // message, an answer or a compaction) or with the tool's fields (below).
    const info0 = meta;
    if (
      action === 'message' ||
      action === 'system' ||
      action === 'finish' ||
      action === 'condensation'
    )
      info0['args'] = args;
    if (action === 'message' && source === 'user') {
      if (openAgents.size === 0) openTurn(key, at);
      const text = str(args['content']) ?? str(rec['message']) ?? '';
      const images = Array.isArray(args['image_urls'])
        ? args['image_urls'].filter((u) => typeof u === 'string')
        : [];
      const content: string | Content[] = images.length
        ? [{ type: 'text', text }, ...images.map((u) => image(u as string))]
        : text;
      message(key, 'user', content, at, info0);
      return;
    }
    if (action === 'system') {
      message(key, 'system', str(args['content']) ?? str(rec['message']) ?? '', at, info0);
      return;
    }
    if (action === 'message' || action === 'finish') {
      const text =
        action === 'finish'
          ? str(args['final_thought']) || str(args['message']) || str(rec['message']) || thought
          : (str(args['content']) ?? str(rec['message']) ?? '');
      const model = v0Model(rec, key, at, { text });
      if (action === 'finish') answer(key, text, at, info0, callId);
      else if (!model) message(key, 'assistant', text, at, info0);
      return;
    }
    if (action === 'condensation') {
      compaction(key, at, info0);
      return;
    }
    if (callId !== undefined || (source === 'agent' && TOOL_ACTIONS.has(action))) {
      const toolArgs = rest(args, THOUGHT_KEY);
      const fn = fnName ?? action;
      const call: ToolCall = {
        id: callId ?? `openhands-${key}`,
        function: fn,
        arguments: toolArgs as JsonObject,
        type: 'function',
      };
      const model = v0Model(rec, key, at, { text: thought, call });
      if (!model && thought)
        message(key, 'assistant', thought, at, { id: meta['id'] ?? null, thought: true });
      const toolMeta = meta;
      toolMeta['action'] = action;
      if (thought) toolMeta['thought'] = thought;
      if (tcm) toolMeta['tool_call_metadata'] = rest(tcm, MODEL_RESPONSE_KEY);
      const tool = newTool(key, callId, fn, toolArgs as JsonObject, at, toolMeta, key);
      if (action === 'delegate') openAgent(tool, str(args['agent']) ?? 'delegate', key, at.time);
      return;
    }
    // recall, change_agent_state, unknown actions: kept as they came.
    info(key, at, rec);
  };

  const v0Observation = (rec: JsonRecord, key: string, path: string, meta: JsonObject) => {
    const at = timeOf(rec, path);
    const observation = rec['observation'] as string;
    const rawContent = own(rec, 'content');
    const content = str(rawContent) ?? (rawContent === undefined ? '' : safeJson(rawContent));
    const cause = own(rec, 'cause');
    const ref = typeof cause === 'number' || typeof cause === 'string' ? String(cause) : undefined;
    const tcm = isRecord(own(rec, 'tool_call_metadata'))
      ? (rec['tool_call_metadata'] as JsonRecord)
      : undefined;
    const callId = str(tcm?.['tool_call_id']);
    const obsMeta = meta; // this record's own, as in v0Action
    obsMeta['observation'] = observation;
    const error =
      observation === 'error'
        ? { type: 'unknown', message: content }
        : observation === 'user_rejected'
          ? { type: 'approval', message: content || 'rejected' }
          : undefined;
    // A null observation (the runtime's "nothing to report") never answers a
    // call: recorded trajectories hold them next to the real result.
    const tool =
      observation === 'null'
        ? undefined
        : ((ref !== undefined ? toolsByAction.get(`#${ref}`) : undefined) ??
          (callId !== undefined ? toolsByCall.get(callId) : undefined));
    if (tool) {
      if (observation === 'delegate') closeAgent(tool);
      complete(tool, content, at.time, error, obsMeta);
      return;
    }
    if (observation === 'agent_state_changed') {
      const extras = isRecord(rec['extras']) ? rec['extras'] : {};
      if (extras['agent_state'] === 'stopped') abortTurn();
      info(key, at, rec);
      return;
    }
    // The cause is in the file but is no tool (a recall for a user message,
    // a null observation): kept quietly as it came.
    const missing = ref !== undefined && !seenKeys.has(`#${ref}`);
    if (!error && (!missing || observation === 'null')) {
      info(key, at, rec);
      return;
    }
    unpaired(key, at, rec, {
      missing: missing ? ref : undefined,
      callId,
      toolName: str(tcm?.['function_name']),
      result: content,
      error,
      meta: obsMeta,
    });
  };

  // --- V1 ------------------------------------------------------------------

  const v1Event = (rec: JsonRecord, key: string, path: string, meta: JsonObject) => {
    const at = timeOf(rec, path);
    const kind = rec['kind'] as string;
    const source = str(rec['source']);
    const full: JsonObject = { ...meta, ...rest(rec, V1_KEYS) };

    if (kind === 'ActionEvent') {
      const responseId = str(rec['llm_response_id']) ?? `action:${key}`;
      const callRaw = isRecord(own(rec, 'tool_call')) ? (rec['tool_call'] as JsonRecord) : {};
      const callId = str(rec['tool_call_id']) ?? str(callRaw['id']);
      const fn = str(rec['tool_name']) ?? str(callRaw['name']) ?? 'tool';
      const parsed = parseArguments(callRaw['arguments']);
      const actionRaw = own(rec, 'action');
      const args: JsonObject = isRecord(actionRaw) ? rest(actionRaw, KIND_KEY) : parsed.args;
      let model = models.get(responseId);
      if (model !== openModel) closeOpenModel();
      if (!model) {
        model = newModel(responseId, 'unknown', at, { llm_response_id: responseId }, true);
        const content = model.output.choices[0]!.message.content as Content[];
        const reasoning = str(rec['reasoning_content']);
        if (reasoning) content.push({ type: 'reasoning', reasoning });
        for (const b of Array.isArray(rec['thinking_blocks']) ? rec['thinking_blocks'] : []) {
          if (isRecord(b))
            content.push({
              type: 'reasoning',
              reasoning: str(b['thinking']) ?? str(b['data']) ?? '',
              ...(b['type'] === 'redacted_thinking' ? { redacted: true } : {}),
            });
        }
        const thought = contentOf(rec['thought']);
        if (typeof thought === 'string') {
          if (thought) content.push({ type: 'text', text: thought });
        } else content.push(...thought);
        model.output.completion = textOf(content);
      } else {
        // A later action of the same response: the model event may have been
        // handed out (frozen) already.
        model = sink.revise(model);
        models.set(responseId, model);
      }
      openModel = model;
      const choice = model.output.choices[0]!;
      (choice.message.tool_calls as ToolCall[]).push({
        id: callId ?? `openhands-${key}`,
        function: fn,
        arguments: parsed.args,
        type: 'function',
        ...(parsed.error ? { parse_error: parsed.error } : {}),
      });
      choice.stop_reason = 'tool_calls';
      model.completed = at.time;
      sink.touch(model);
      const actionKind = isRecord(actionRaw) ? str(actionRaw['kind']) : undefined;
      if (fn === 'finish' || actionKind === 'FinishAction') {
        const text = str(args['message']) ?? textOf(contentOf(rec['thought']));
        answer(key, text, at, full, callId || undefined);
        return;
      }
      const toolMeta = rest(full, V1_TOOL_SKIP);
      if (actionKind) toolMeta['action_kind'] = actionKind;
      const tool = newTool(key, callId, fn, args, at, toolMeta, key);
      v1SubAgents(tool, actionKind, args, key, at);
      return;
    }
    closeOpenModel();
    if (kind === 'MessageEvent') {
      const msg = isRecord(own(rec, 'llm_message')) ? (rec['llm_message'] as JsonRecord) : {};
      const role = str(msg['role']);
      let content = contentOf(msg['content']);
      const reasoning = str(msg['reasoning_content']);
      if (reasoning)
        content = [
          { type: 'reasoning', reasoning },
          ...(typeof content === 'string' ? [{ type: 'text' as const, text: content }] : content),
        ];
      const keep = rest(full, LLM_MESSAGE_KEY);
      const msgRest = rest(msg, MESSAGE_CONSUMED);
      if (Object.keys(msgRest).length) keep['llm_message'] = msgRest;
      if (source === 'user' && (role === undefined || role === 'user')) {
        if (openAgents.size === 0) openTurn(key, at);
        message(key, 'user', content, at, keep);
      } else {
        const r = role === 'system' || role === 'user' || role === 'tool' ? role : 'assistant';
        message(key, r, content, at, keep);
      }
      return;
    }
    if (kind === 'SystemPromptEvent') {
      message(
        key,
        'system',
        contentOf(isRecord(rec['system_prompt']) ? [rec['system_prompt']] : rec['system_prompt']),
        at,
        rest(full, SYSTEM_PROMPT_KEY),
      );
      return;
    }
    if (
      kind === 'ObservationEvent' ||
      kind === 'UserRejectObservation' ||
      kind === 'AgentErrorEvent'
    ) {
      const callId = str(rec['tool_call_id']);
      const actionId = str(rec['action_id']);
      const obs = isRecord(own(rec, 'observation')) ? (rec['observation'] as JsonRecord) : {};
      let result: string | Content[] = '';
      let error: { type: string; message: string } | undefined;
      if (kind === 'ObservationEvent') {
        result = contentOf(obs['content'] ?? obs['output'] ?? obs['text'] ?? obs['message']);
        if (
          obs['is_error'] === true ||
          (obs['error'] !== undefined && obs['error'] !== null && obs['error'] !== false)
        )
          error = { type: 'unknown', message: textOf(result) || safeJson(obs['error']) };
      } else if (kind === 'UserRejectObservation') {
        result = str(rec['rejection_reason']) ?? 'rejected';
        error = { type: 'approval', message: result };
      } else {
        result = str(rec['error']) ?? '';
        error = { type: 'unknown', message: result };
      }
      const obsMeta: JsonObject = {
        ...rest(full, OBSERVATION_KEY),
        ...(Object.keys(obs).length ? { observation: rest(obs, CONTENT_KEY) } : {}),
      };
      const tool =
        (callId !== undefined ? toolsByCall.get(callId) : undefined) ??
        (actionId !== undefined ? toolsByAction.get(`#${actionId}`) : undefined);
      if (tool) {
        v1SubAgentsAnswered(tool, obs, at.time);
        complete(tool, result, at.time, error, obsMeta);
        return;
      }
      unpaired(key, at, rec, {
        missing: actionId ?? callId,
        callId,
        toolName: str(rec['tool_name']),
        result,
        error,
        meta: obsMeta,
      });
      return;
    }
    if (kind === 'Condensation') {
      compaction(key, at, full);
      return;
    }
    if (kind === 'ConversationErrorEvent') {
      failure(key, str(rec['detail']) ?? str(rec['code']) ?? 'conversation error', at, full);
      return;
    }
    // State updates, pauses, condensation requests, unknown kinds: kept quietly.
    info(key, at, rec);
  };

  /** A unique key for a record: its id (V0 `#n`, V1 `#id`), else its path. */
  const keyOf = (rec: JsonRecord, path: string): string => {
    const id = own(rec, 'id');
    let key = typeof id === 'number' || typeof id === 'string' ? `#${id}` : path;
    // One probe, not `has` then `add`.
    if (seenKeys.setIfAbsent(key, true) !== undefined) {
      ctx.info(path, 'openhands_duplicate_id', String(id));
      key = `${key}@${path}`;
      seenKeys.set(key, true);
    }
    return key;
  };

  const pushRecord = (value: unknown, path: string, wrapper?: JsonObject): void => {
    const shape = shapeOf(value);
    if (shape === 'wrapper') {
      const w = value as JsonRecord;
      let raw = own(w, 'raw');
      if (typeof raw === 'string') {
        try {
          raw = JSON.parse(raw) as unknown;
        } catch {
          // not JSON text: kept below as it came
        }
      }
      if (!isRecord(raw) || !shapeOf({ source: w['source'], ...raw })) {
        ctx.warn(jsonPath(path, 'raw'), 'openhands_not_an_event', typeName(raw));
        closeOpenModel();
        const at = timeOf(w, path);
        info(keyOf(w, path), at, w);
        return;
      }
      // The wrapper's id, source and time fill what the raw event lacks.
      const filled: JsonRecord = { ...raw };
      if (filled['id'] === undefined && w['event_id'] !== undefined) filled['id'] = w['event_id'];
      if (filled['source'] === undefined) filled['source'] = w['source'];
      if (filled['timestamp'] === undefined) filled['timestamp'] = w['timestamp'];
      pushRecord(filled, jsonPath(path, 'raw'), rest(w, RAW_KEY));
      return;
    }
    if (!shape) {
      closeOpenModel();
      const history = historyOf(value);
      if (history) {
        const others = rest(value as JsonRecord, HISTORY_KEY);
        if (Object.keys(others).length) {
          info(`${path}:run`, timeOf(value as JsonRecord, path), others);
        }
        for (let i = 0; i < history.length; i++)
          pushRecord(history[i], jsonPath(jsonPath(path, 'history'), i));
        return;
      }
      ctx.warn(
        path,
        'openhands_not_an_event',
        isRecord(value)
          ? 'an object that is neither an action, an observation nor a "kind" event'
          : typeName(value),
      );
      const rec = isRecord(value) ? value : {};
      const at = timeOf(rec, path);
      info(isRecord(value) ? keyOf(value, path) : path, at, value);
      return;
    }
    const rec = value as JsonRecord;
    const key = keyOf(rec, path);
    const meta: JsonObject = { id: (own(rec, 'id') as never) ?? null, source: rec['source'] };
    if (wrapper) meta['wrapper'] = wrapper;
    if (shape === 'v1') {
      v1Event(rec, key, path, meta);
      return;
    }
    closeOpenModel();
    if (typeof rec['action'] === 'string')
      v0Action(rec, key, path, restInto(meta, rec, V0_ACTION_KEYS));
    else v0Observation(rec, key, path, restInto(meta, rec, V0_OBSERVATION_KEYS));
  };

  return {
    push: (value, path) => pushRecord(value, path),
    drain: () => sink.drain(),
    end() {
      closeOpenModel();
      closeTurn();
      let open = 0;
      // Every tool is in toolsByAction, once (toolsByCall only indexes them).
      for (const tool of toolsByAction.values()) if (sink.isOpen(tool)) open++;
      if (open) ctx.info('$', 'openhands_tools_unanswered', open);
      return sink.drain();
    },
    diagnostics: (): Diagnostic[] => ctx.finish(),
  };
}

function looksLikeOpenHands(records: unknown[]): boolean {
  const objects = records.filter(isRecord);
  if (objects.length === 1) {
    const history = historyOf(objects[0]);
    if (history) return looksLikeOpenHands(history.slice(0, 8));
  }
  return (
    objects.length > 0 && objects.filter((r) => shapeOf(r)).length >= Math.ceil(objects.length / 2)
  );
}

/**
 * OpenHands event logs: V0 trajectories, V1 SDK events and the
 * `{event_type, raw}` wrapper (JSON array, JSON Lines or `{ "history": [...] }`).
 *
 * @example
 * import { Probe } from '../probe.js';
 * import { openHandsFormat } from './openhands.js';
 * declare const trajectoryText: string;
 * openHandsFormat.detect(new Probe(trajectoryText)); // true
 */
export const openHandsFormat: FormatImporter & {
  incremental(options: ImportOptions): IncrementalImporter;
} = {
  id: 'openhands',
  name: 'OpenHands events',
  extensions: ['.json', '.jsonl'],
  detect: (probe) => looksLikeOpenHands(probe.records(8)),
  import(probe, options): ImportResult {
    if (probe.isZip) throw new ImportError('unsupported_input', '$', 'OpenHands', 'a zip archive');
    return importLines(openHandsFormat, probe, options);
  },
  incremental: openHandsImporter,
};

/**
 * A cheap check whether an input is an OpenHands event log.
 *
 * @example
 * declare const trajectoryText: string;
 * isOpenHands(trajectoryText); // true for a saved V0 trajectory
 */
export const isOpenHands: (input: ImportInput, filename?: string) => boolean =
  sniffer(openHandsFormat);

/**
 * Imports an OpenHands event log (V0 trajectory, V1 SDK events, or wrapped
 * events): turns, model calls with usage, tool calls paired with their
 * observations, delegates as sub-agent spans, the final answer.
 *
 * @example
 * declare const trajectoryText: string;
 * const { events, diagnostics } = importOpenHands(trajectoryText);
 */
export function importOpenHands(input: ImportInput, options: ImportOptions = {}): ImportResult {
  return openHandsFormat.import(new Probe(input, options.filename), options) as ImportResult;
}
