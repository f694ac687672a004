// OpenTelemetry logs in the OTLP importer: OTLP/JSON logs exports
// (`resourceLogs` → `scopeLogs` → `logRecords`,
// https://opentelemetry.io/docs/specs/otlp/#json-protobuf-encoding), beside
// the traces of otlp.ts.
//
// Agents send events as log records: the GenAI conventions' events
// (`gen_ai.user.message`, `gen_ai.choice`,
// `gen_ai.client.inference.operation.details`, …;
// https://github.com/open-telemetry/semantic-conventions-genai) and Claude
// Code's (`claude_code.user_prompt`, `claude_code.api_request`,
// `claude_code.tool_result`, …; https://docs.claude.com/en/docs/claude-code/monitoring-usage).
// The rule:
// - a record with a trace and span id whose span is in the input is that
//   span's event, read exactly as a span event is (so a model span consumes
//   its message and details events into its `model` event; any other becomes
//   an `info` event in the span), after the span's own events;
// - any other record is an event of its own at the root, in time order among
//   the root spans: Claude Code's prompt → a user `message`, API request → a
//   `model` event (model, usage, cost, duration), API error → a failed
//   `model` event, tool result → a `tool` event (name, parameters, success,
//   duration); a GenAI message event → a `message` of its role; anything
//   else → an `info` event with its name, attributes and body. Each keeps
//   the record in `metadata.log` (ids, event name, severity, times) and its
//   attributes, resource and scope. While its span may still come (a live
//   run), a record that names a span waits for it (otlp-stream.ts).
//
// The event name is the record's `eventName` (OTLP 1.5), else its
// `event.name` attribute, else a string body that reads like one
// (`claude_code.*`, `gen_ai.*`).
import type {
  ChatMessage,
  Event,
  JsonObject,
  MessageEvent,
  ModelEvent,
  ModelUsage,
  ToolEvent,
} from '../../events/types.js';
import { jsonPath } from '../../errors.js';
import { isRecord, own, typeName, type ImportContext } from '../guards.js';
import type { EventSink } from '../sink.js';
import { nanosToIso, readId, readMs, readNanos } from './time.js';
import { anyValue, keyValues } from './values.js';

/** One log record, read: ids and times normalised, attributes and body as they came. */
export interface LogRead {
  traceId: string;
  spanId: string;
  /** The event name ('' when the record has none). */
  name: string;
  timeNs: string | undefined;
  observedNs: string | undefined;
  /** ISO time (`timeUnixNano`, else `observedTimeUnixNano`), '' when neither. */
  time: string;
  ms: number;
  /** `[{key, value}]` as in the record. */
  attributes: unknown;
  /** The record's `body` (an AnyValue), if any. */
  body: unknown;
  severityText: string | undefined;
  severityNumber: number | undefined;
  resource: unknown;
  scope: JsonObject | undefined;
  path: string;
}

const EVENT_NAME = /^(claude_code|gen_ai)\.[\w.]+$/;

/** Reads `resourceLogs` (an array) into `out`. */
export function readResourceLogs(
  list: unknown[],
  path: string,
  ctx: ImportContext,
  out: LogRead[],
): void {
  for (let i = 0; i < list.length; i++) {
    const r: unknown = list[i];
    const rPath = jsonPath(path, i);
    if (!isRecord(r)) {
      ctx.warn(rPath, 'wrong_type', 'object', typeName(r));
      continue;
    }
    const res = own(r, 'resource');
    const resource = isRecord(res) ? own(res, 'attributes') : undefined;
    const scopes = ctx.array(r, 'scopeLogs', rPath) ?? [];
    const scopesPath = jsonPath(rPath, 'scopeLogs');
    for (let j = 0; j < scopes.length; j++) {
      const sc: unknown = scopes[j];
      const scPath = jsonPath(scopesPath, j);
      if (!isRecord(sc)) {
        ctx.warn(scPath, 'wrong_type', 'object', typeName(sc));
        continue;
      }
      const scopeRaw = own(sc, 'scope');
      let scope: JsonObject | undefined;
      if (isRecord(scopeRaw)) {
        scope = {};
        const name = own(scopeRaw, 'name');
        const version = own(scopeRaw, 'version');
        if (typeof name === 'string') scope.name = name;
        if (typeof version === 'string') scope.version = version;
      }
      const records = ctx.array(sc, 'logRecords', scPath) ?? [];
      const recordsPath = jsonPath(scPath, 'logRecords');
      for (let k = 0; k < records.length; k++) {
        const lr: unknown = records[k];
        const lrPath = jsonPath(recordsPath, k);
        if (!isRecord(lr)) {
          ctx.warn(lrPath, 'wrong_type', 'object', typeName(lr));
          continue;
        }
        out.push(readRecord(lr, lrPath, resource, scope));
      }
    }
  }
}

function readRecord(
  lr: Record<string, unknown>,
  path: string,
  resource: unknown,
  scope: JsonObject | undefined,
): LogRead {
  const timeNs = readNanos(own(lr, 'timeUnixNano'));
  const observedNs = readNanos(own(lr, 'observedTimeUnixNano'));
  const ns = timeNs ?? observedNs;
  const iso = ns === undefined ? undefined : nanosToIso(ns);
  const t = iso === undefined ? undefined : { iso, ms: readMs };
  const attributes = own(lr, 'attributes');
  const body = own(lr, 'body');
  let name = own(lr, 'eventName');
  if (typeof name !== 'string' || name === '') name = attributeString(attributes, 'event.name');
  if (name === undefined || name === '') {
    const text = isRecord(body) ? own(body, 'stringValue') : undefined;
    name = typeof text === 'string' && EVENT_NAME.test(text) ? text : '';
  }
  // Claude Code writes the bare name (`user_prompt`) in `event.name` and the
  // full one in the body.
  if (!String(name).includes('.')) {
    const text = isRecord(body) ? own(body, 'stringValue') : undefined;
    if (typeof text === 'string' && EVENT_NAME.test(text) && text.endsWith(`.${String(name)}`))
      name = text;
  }
  const severityNumber = own(lr, 'severityNumber');
  const severityText = own(lr, 'severityText');
  return {
    traceId: readId(own(lr, 'traceId')),
    spanId: readId(own(lr, 'spanId')),
    name: String(name),
    timeNs,
    observedNs,
    time: t?.iso ?? '',
    ms: t?.ms ?? Number.NaN,
    attributes,
    body,
    severityText:
      typeof severityText === 'string' && severityText !== '' ? severityText : undefined,
    severityNumber:
      typeof severityNumber === 'number'
        ? severityNumber
        : typeof severityNumber === 'string' && severityNumber !== ''
          ? Number.isFinite(Number(severityNumber))
            ? Number(severityNumber)
            : undefined
          : undefined,
    resource,
    scope,
    path,
  };
}

/** The string value of one attribute of a raw `[{key, value}]` list, without decoding the rest. */
function attributeString(list: unknown, key: string): string | undefined {
  if (!Array.isArray(list)) return undefined;
  for (const kv of list) {
    if (!isRecord(kv) || own(kv, 'key') !== key) continue;
    const v = own(kv, 'value');
    const s = isRecord(v) ? own(v, 'stringValue') : undefined;
    return typeof s === 'string' ? s : undefined;
  }
  return undefined;
}

/**
 * A record as a span event (`{name, timeUnixNano, attributes, body}`, the
 * shape read.ts reads span events in), for a record attached to its span.
 */
export function asSpanEvent(log: LogRead): Record<string, unknown> {
  const e: Record<string, unknown> = { name: log.name };
  if (log.timeNs !== undefined || log.observedNs !== undefined)
    e['timeUnixNano'] = log.timeNs ?? log.observedNs;
  if (log.attributes !== undefined) e['attributes'] = log.attributes;
  if (log.body !== undefined) e['body'] = log.body;
  return e;
}

/** Records by time (stable; a record without a time keeps its place after the timed ones before it). */
export function sortLogs(logs: LogRead[]): LogRead[] {
  let last = Number.NEGATIVE_INFINITY;
  const keyed = logs.map((log, i) => {
    if (Number.isFinite(log.ms)) last = log.ms;
    return { log, at: Number.isFinite(log.ms) ? log.ms : last, i };
  });
  keyed.sort((a, b) => a.at - b.at || a.i - b.i);
  return keyed.map((k) => k.log);
}

const GENAI_ROLES: Record<string, ChatMessage['role']> = {
  'gen_ai.system.message': 'system',
  'gen_ai.user.message': 'user',
  'gen_ai.assistant.message': 'assistant',
  'gen_ai.tool.message': 'tool',
  'gen_ai.choice': 'assistant',
};

function num(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

function text(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** A JSON string parsed, else the value. */
function jsonish(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  const c = v.trimStart().charAt(0);
  if (c !== '{' && c !== '[') return v;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return v;
  }
}

/** Removes and returns attribute `key` (so what is left is kept in metadata once). */
function take(attrs: Record<string, unknown>, key: string): unknown {
  const v = attrs[key];
  if (Object.prototype.hasOwnProperty.call(attrs, key)) delete attrs[key];
  return v;
}

/** Message content from a GenAI event body: a string, `{content}`, or `{message: {content}}`. */
function messageText(body: unknown): string | undefined {
  if (typeof body === 'string') return body;
  if (!isRecord(body)) return undefined;
  const message = isRecord(body['message']) ? body['message'] : body;
  const content = message['content'];
  if (typeof content === 'string') return content;
  if (content !== undefined) return JSON.stringify(content);
  return undefined;
}

/**
 * Emits a record that has no span in the input as an event of its own at
 * the root (see the rule at the top of this file). `clockIso` is the time
 * for a record without one (flagged as invented).
 */
export function emitLog(sink: EventSink, log: LogRead, clockIso: () => string): Event {
  const attrs = keyValues(log.attributes);
  const body = log.body === undefined ? undefined : anyValue(log.body);
  const uuid = sink.uuid(`log/${log.path}`);
  const end = log.time !== '' ? log.time : clockIso();
  const endMs = Number.isFinite(log.ms) ? log.ms : Date.parse(end);
  const logMeta: JsonObject = { event_name: log.name };
  if (log.traceId) logMeta.trace_id = log.traceId;
  if (log.spanId) logMeta.span_id = log.spanId;
  if (log.severityText !== undefined) logMeta.severity_text = log.severityText;
  if (log.severityNumber !== undefined) logMeta.severity_number = log.severityNumber;
  if (log.timeNs !== undefined) logMeta.time_unix_nano = log.timeNs;
  if (log.observedNs !== undefined) logMeta.observed_time_unix_nano = log.observedNs;
  const metadata = (): JsonObject => {
    const m: JsonObject = { log: logMeta, dialect: dialectOf(log.name) };
    if (Object.keys(attrs).length > 0) m.attributes = attrs as JsonObject;
    const resource = keyValues(log.resource);
    if (Object.keys(resource).length > 0) m.resource = resource as JsonObject;
    if (log.scope) m.scope = log.scope;
    return m;
  };
  // Times: the record's time is when the event ended (Claude Code logs a
  // request or a tool run when it completes); a duration moves the start back.
  const startedAt = (durationMs: number | undefined): string =>
    durationMs !== undefined && durationMs > 0 && Number.isFinite(endMs)
      ? new Date(endMs - durationMs).toISOString()
      : end;
  const name = log.name;
  let event: Event;
  if (name === 'claude_code.user_prompt') {
    const prompt = text(take(attrs, 'prompt'));
    const length = num(attrs['prompt_length']);
    const e: MessageEvent = {
      event: 'message',
      uuid,
      span_id: null,
      timestamp: end,
      role: 'user',
      content:
        prompt ??
        `(prompt not logged${length !== undefined ? `: ${length} characters` : ''}; OTEL_LOG_USER_PROMPTS=1 logs it)`,
      message_id: uuid,
      source: 'claude_code',
      metadata: metadata(),
    };
    event = e;
  } else if (name === 'claude_code.api_request' || name === 'claude_code.api_error') {
    const model = text(take(attrs, 'model')) ?? '';
    const durationMs = num(take(attrs, 'duration_ms'));
    const usage: ModelUsage = {};
    const input = num(take(attrs, 'input_tokens'));
    const output = num(take(attrs, 'output_tokens'));
    const cacheRead = num(take(attrs, 'cache_read_tokens'));
    const cacheWrite = num(take(attrs, 'cache_creation_tokens'));
    const cost = num(take(attrs, 'cost_usd'));
    if (input !== undefined) usage.input_tokens = input;
    if (output !== undefined) usage.output_tokens = output;
    if (input !== undefined || output !== undefined)
      usage.total_tokens = (input ?? 0) + (output ?? 0) + (cacheRead ?? 0) + (cacheWrite ?? 0);
    if (cacheRead !== undefined) usage.input_tokens_cache_read = cacheRead;
    if (cacheWrite !== undefined) usage.input_tokens_cache_write = cacheWrite;
    if (cost !== undefined) usage.total_cost = cost;
    const time = durationMs !== undefined ? durationMs / 1000 : 0;
    const e: ModelEvent = {
      event: 'model',
      uuid,
      span_id: null,
      timestamp: startedAt(durationMs),
      model,
      input: [],
      tools: [],
      tool_choice: 'auto',
      config: {},
      output: Object.keys(usage).length
        ? { model, choices: [], completion: '', usage, time }
        : { model, choices: [], completion: '', time },
      completed: end,
      working_time: time,
      metadata: metadata(),
    };
    if (name === 'claude_code.api_error') {
      const status = text(attrs['status_code']);
      e.error = text(take(attrs, 'error')) ?? (status ? `HTTP ${status}` : 'error');
    }
    event = e;
  } else if (name === 'claude_code.tool_result') {
    const durationMs = num(take(attrs, 'duration_ms'));
    const success = take(attrs, 'success');
    const failed = success === false || success === 'false';
    const error = text(take(attrs, 'error'));
    const params = jsonish(take(attrs, 'tool_parameters'));
    const id = text(take(attrs, 'tool_use_id')) ?? text(attrs['gen_ai.tool.call.id']);
    const e: ToolEvent = {
      event: 'tool',
      uuid,
      span_id: null,
      timestamp: startedAt(durationMs),
      type: 'function',
      id: id ?? uuid,
      function: text(take(attrs, 'tool_name')) ?? 'tool',
      arguments: isRecord(params)
        ? (params as JsonObject)
        : params === undefined
          ? {}
          : { value: params as never },
      result: '',
      events: [],
      completed: end,
      working_time: durationMs !== undefined ? durationMs / 1000 : 0,
      metadata: metadata(),
    };
    if (failed) {
      e.failed = true;
      e.error = { type: 'unknown', message: error ?? 'failed' };
    }
    event = e;
    if (id === undefined) sink.invent(e, 'id', log.path);
  } else if (GENAI_ROLES[name] !== undefined) {
    const role = GENAI_ROLES[name]!;
    const content = messageText(body) ?? text(attrs['content']) ?? '';
    const e: MessageEvent = {
      event: 'message',
      uuid,
      span_id: null,
      timestamp: end,
      role,
      content,
      message_id: uuid,
      source: 'otlp',
      metadata: metadata(),
    };
    event = e;
  } else {
    const data: JsonObject = { name };
    if (Object.keys(attrs).length > 0) data.attributes = attrs as JsonObject;
    if (body !== undefined) data.body = body as never;
    event = {
      event: 'info',
      uuid,
      span_id: null,
      timestamp: end,
      source: 'otlp',
      data,
      metadata: metadata(),
    };
  }
  sink.add(event);
  if (log.time === '') sink.invent(event, 'timestamp', log.path);
  return event;
}

function dialectOf(name: string): string {
  if (name.startsWith('claude_code.')) return 'claude_code';
  if (name.startsWith('gen_ai.')) return 'gen_ai';
  return 'otlp';
}
