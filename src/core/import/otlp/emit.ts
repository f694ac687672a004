// Spans as events: a model call or tool run as one event, any other span as a
// begin/end pair, each with its OTLP ids, times and unconsumed attributes in
// metadata; then tool events paired with the model calls that asked for them.
import type {
  ChatMessageAssistant,
  Event,
  JsonObject,
  ModelEvent,
  SpanBeginEvent,
  SpanEndEvent,
  ToolCall,
  ToolEvent,
} from '../../events/types.js';
import type { ImportContext } from '../guards.js';
import { stringOf } from '../guards.js';
import type { EventSink } from '../sink.js';
import {
  type Attrs,
  anyValue,
  keyValues,
  keyMask,
  jsonish,
  asText,
  asArgs,
  NO_ARGS,
  NO_ATTRS,
} from './values.js';
import { type Span, spanPath } from './read.js';
import type { Used } from './dialects.js';
import { classify } from './dialects.js';
import {
  stopReason,
  usageOf,
  configOf,
  type SpanEventRead,
  readSpanEvents,
  modelParts,
  NONE_CONSUMED,
} from './messages.js';

/** Whether an object has an own enumerable key, without an `Object.keys` array. */
function hasKeys(o: object): boolean {
  for (const key in o) if (Object.prototype.hasOwnProperty.call(o, key)) return true;
  return false;
}

/** A span with trace id, kind, both times, scope and resource, and no status nor links. */
function isUsual(s: Span): boolean {
  return (
    s.traceId !== '' &&
    s.kind !== undefined &&
    s.startNs !== undefined &&
    s.endNs !== undefined &&
    !s.status &&
    !s.links &&
    s.scope !== undefined &&
    s.resource !== undefined
  );
}

/**
 * A model or tool call's metadata: {@link baseMetadata} without attributes,
 * then the model's provider and finish reasons and the attributes left. The
 * usual cases (a usual span with all three, or a tool's with attributes) in
 * one literal each, as in {@link baseMetadata}.
 */
function callMetadata(
  s: Span,
  dialect: string,
  provider: string | undefined,
  finish: string[] | undefined,
  rest: Attrs,
): JsonObject {
  if (provider !== undefined && finish !== undefined && hasKeys(rest) && isUsual(s)) {
    const { spanId, traceId, parentSpanId, name, kind, startNs, endNs, scope, resource } = s;
    return parentSpanId
      ? {
          span_id: spanId,
          trace_id: traceId,
          parent_span_id: parentSpanId,
          span_name: name,
          span_kind: kind!,
          start_time_unix_nano: startNs!,
          end_time_unix_nano: endNs!,
          dialect,
          scope: scope!,
          resource: resource as JsonObject,
          provider,
          finish_reasons: finish,
          attributes: rest as JsonObject,
        }
      : {
          span_id: spanId,
          trace_id: traceId,
          span_name: name,
          span_kind: kind!,
          start_time_unix_nano: startNs!,
          end_time_unix_nano: endNs!,
          dialect,
          scope: scope!,
          resource: resource as JsonObject,
          provider,
          finish_reasons: finish,
          attributes: rest as JsonObject,
        };
  }
  if (provider === undefined && finish === undefined && hasKeys(rest) && isUsual(s)) {
    const { spanId, traceId, parentSpanId, name, kind, startNs, endNs, scope, resource } = s;
    return parentSpanId
      ? {
          span_id: spanId,
          trace_id: traceId,
          parent_span_id: parentSpanId,
          span_name: name,
          span_kind: kind!,
          start_time_unix_nano: startNs!,
          end_time_unix_nano: endNs!,
          dialect,
          scope: scope!,
          resource: resource as JsonObject,
          attributes: rest as JsonObject,
        }
      : {
          span_id: spanId,
          trace_id: traceId,
          span_name: name,
          span_kind: kind!,
          start_time_unix_nano: startNs!,
          end_time_unix_nano: endNs!,
          dialect,
          scope: scope!,
          resource: resource as JsonObject,
          attributes: rest as JsonObject,
        };
  }
  const metadata = baseMetadata(s, dialect, NO_ATTRS);
  if (provider !== undefined) metadata.provider = provider;
  if (finish !== undefined) metadata.finish_reasons = finish;
  if (hasKeys(rest)) metadata.attributes = rest as JsonObject;
  return metadata;
}

function baseMetadata(s: Span, dialect: string, rest: Attrs): JsonObject {
  const { spanId, traceId, parentSpanId, kind, startNs, endNs, scope, resource } = s;
  // The usual span (trace id, kind, both times, scope and resource, no status
  // nor links) in one literal per case: an object built key by key grows its
  // property store three times, and each event keeps one.
  if (isUsual(s)) {
    const name = s.name;
    if (hasKeys(rest))
      return parentSpanId
        ? {
            span_id: spanId,
            trace_id: traceId,
            parent_span_id: parentSpanId,
            span_name: name,
            span_kind: kind,
            start_time_unix_nano: startNs,
            end_time_unix_nano: endNs,
            dialect,
            attributes: rest,
            scope,
            resource,
          }
        : {
            span_id: spanId,
            trace_id: traceId,
            span_name: name,
            span_kind: kind,
            start_time_unix_nano: startNs,
            end_time_unix_nano: endNs,
            dialect,
            attributes: rest,
            scope,
            resource,
          };
    return parentSpanId
      ? {
          span_id: spanId,
          trace_id: traceId,
          parent_span_id: parentSpanId,
          span_name: name,
          span_kind: kind,
          start_time_unix_nano: startNs,
          end_time_unix_nano: endNs,
          dialect,
          scope,
          resource,
        }
      : {
          span_id: spanId,
          trace_id: traceId,
          span_name: name,
          span_kind: kind,
          start_time_unix_nano: startNs,
          end_time_unix_nano: endNs,
          dialect,
          scope,
          resource,
        };
  }
  const m: JsonObject = { span_id: s.spanId };
  if (s.traceId) m.trace_id = s.traceId;
  if (s.parentSpanId) m.parent_span_id = s.parentSpanId;
  m.span_name = s.name;
  if (s.kind !== undefined) m.span_kind = s.kind;
  if (s.startNs !== undefined) m.start_time_unix_nano = s.startNs;
  if (s.endNs !== undefined) m.end_time_unix_nano = s.endNs;
  if (s.status) m.status = s.status;
  m.dialect = dialect;
  if (hasKeys(rest)) m.attributes = rest;
  if (s.links) m.links = s.links;
  if (s.scope) m.scope = s.scope;
  if (s.resource) m.resource = s.resource;
  return m;
}

/** The state of one import's emission: its sink, the model calls' tool calls, the tools to pair. */
export interface Emit {
  ctx: ImportContext;
  sink: EventSink;
  /**
   * The skein ids of the spans emitted so far, to make a span id shared by
   * two traces unique; undefined when no two spans share one (each span's id
   * is then its span id, and no lookups per span are needed).
   */
  usedIds: Set<string> | undefined;
  calls: Map<string, { call: ToolCall; answered: boolean }>;
  tools: { event: ToolEvent; span: Span; hasId: boolean }[];
  /** The attribute reads of the span being emitted. */
  used: Used;
  /** Frozen one-reason `finish_reasons` lists, by reason ({@link oneReason}). */
  reasons: Map<string, string[]>;
  /**
   * The uuids of the spans of one trace ({@link spanUuid}): those of
   * `${traceId}/${spanId}${suffix}`, the trace's prefix hashed once while its
   * spans come one after another, and no joined key made per event (some
   * sixty characters, made and then flattened again to be read).
   */
  uuids?: { sink: EventSink; trace: string; of: (key: string, suffix?: string) => string };
}

/**
 * `[reason]`, one frozen list per reason for the import: a model call usually
 * gives one, of a handful, and a list per event was kept and frozen.
 */
function oneReason(em: Emit, reason: string): string[] {
  let list = em.reasons.get(reason);
  if (list === undefined) em.reasons.set(reason, (list = Object.freeze([reason]) as string[]));
  return list;
}

/** The uuid of span `s`'s event of `suffix` (`/model`, `/tool`, `/begin`, `/end`). */
function spanUuid(em: Emit, s: Span, suffix: string): string {
  let by = em.uuids;
  if (by === undefined || by.sink !== em.sink || by.trace !== s.traceId)
    em.uuids = by = {
      sink: em.sink,
      trace: s.traceId,
      of: em.sink.uuidsUnder(`${s.traceId}/`),
    };
  return by.of(s.spanId, suffix);
}

function invent(sink: EventSink, e: Event, s: Span): void {
  const invented = s.invented;
  for (let i = 0; i < invented.length; i++) sink.invent(e, invented[i]!, spanPath(s));
}

/** A tool event's empty `events`: one frozen array for all (events are deep-frozen anyway). */
const NO_EVENTS = Object.freeze([]) as unknown as ToolEvent['events'];

/**
 * What is left of a span once its own events are out ({@link emitSpanHead}):
 * its children, mapped in `inner` (the skein span they sit in), then
 * {@link emitSpanChildDone} after each child's subtree and
 * {@link emitSpanEnd} after the last. A walk keeps one per span on its
 * stack: a parent chain 100,000 deep does not overflow the call stack. A
 * small object, not a generator per span (whose suspended frame held every
 * local of the mapping: the largest allocation of an import after the
 * parse).
 */
export interface SpanTail {
  readonly span: Span;
  /** The skein span the children are mapped in. */
  readonly inner: string | null;
  /** The tool event of a tool span, named a sub-agent by its first agent child. */
  readonly tool: ToolEvent | undefined;
  /** The span_begin of a span mapped as a begin/end pair, closed by {@link emitSpanEnd}. */
  readonly begin: SpanBeginEvent | undefined;
  /** The next child to map (for the walk's use). */
  next: number;
}

/**
 * Emits span `s` and its subtree (children in their list's order), with a
 * loop: a parent chain 100,000 deep does not overflow the call stack.
 *
 * @example
 * import { emitSpanTree, type Emit } from 'src/core/import/otlp/emit.js';
 * import type { Span } from 'src/core/import/otlp/read.js';
 * declare const em: Emit;
 * declare const root: Span;
 * emitSpanTree(em, root, null);
 */
export function emitSpanTree(em: Emit, s: Span, enclosing: string | null): void {
  const stack: SpanTail[] = [emitSpanHead(em, s, enclosing)];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    const children = top.span.children;
    if (top.next < children.length) {
      stack.push(emitSpanHead(em, children[top.next++]!, top.inner));
      continue;
    }
    stack.pop();
    emitSpanEnd(em, top);
    if (stack.length > 0) emitSpanChildDone(em, stack[stack.length - 1]!, top.span);
  }
}

/**
 * Emits span `s`'s own events (a model or tool event, or a span_begin, and
 * its span events) in skein span `enclosing`; what is left for after its
 * children is the {@link SpanTail} returned.
 */
export function emitSpanHead(em: Emit, s: Span, enclosing: string | null): SpanTail {
  const attrs = keyValues(s.attributes);
  const cls = classify(s, attrs);
  // Reused: this span's reads end before its children are emitted.
  const used = em.used.reset(attrs, keyMask);
  const events = readSpanEvents(s);
  const failed = s.status?.code === 'ERROR';
  let consumed: ReadonlySet<SpanEventRead> = NONE_CONSUMED;
  let childEnclosing = enclosing;
  let tool: ToolEvent | undefined;
  let begin: SpanBeginEvent | undefined;

  if (cls.role === 'model') {
    const parts = modelParts(used, events);
    consumed = parts.consumedEvents;
    const requestModel = stringOf(used.first('gen_ai.request.model', 'ai.model.id'));
    const responseModel = stringOf(
      used.first('gen_ai.response.model', 'llm.model_name', 'ai.response.model'),
    );
    const model = responseModel ?? requestModel ?? '';
    const provider = stringOf(
      used.first(
        'gen_ai.provider.name',
        'gen_ai.system',
        'llm.provider',
        'llm.system',
        'ai.model.provider',
      ),
    );
    const usage = usageOf(used);
    let content: ChatMessageAssistant['content'] = '';
    let calls: ToolCall[] | undefined;
    for (let i = 0; i < parts.output.length; i++) {
      const m = parts.output[i]!;
      if (m.role !== 'assistant') continue;
      if (content === '') content = m.content;
      else if (m.content !== '')
        content = [
          ...(typeof content === 'string' ? [{ type: 'text' as const, text: content }] : content),
          ...(typeof m.content === 'string'
            ? [{ type: 'text' as const, text: m.content }]
            : m.content),
        ];
      // The first message's list as it is (made for it by chatMessages).
      if (m.tool_calls?.length) calls = calls ? [...calls, ...m.tool_calls] : m.tool_calls;
    }
    // At its final size, one literal per case (keys added to a literal move
    // them to a separate property store, an object more per event).
    const message: ChatMessageAssistant = calls
      ? model
        ? { role: 'assistant', content, tool_calls: calls, model }
        : { role: 'assistant', content, tool_calls: calls }
      : model
        ? { role: 'assistant', content, model }
        : { role: 'assistant', content };
    if (calls)
      for (let i = 0; i < calls.length; i++) {
        const c = calls[i]!;
        if (c.id && !em.calls.has(c.id)) em.calls.set(c.id, { call: c, answered: false });
      }
    const completion =
      typeof message.content === 'string'
        ? message.content
        : message.content
            .filter((c) => c.type === 'text')
            .map((c) => (c as { text: string }).text)
            .join('');
    const responseId = stringOf(used.first('gen_ai.response.id', 'ai.response.id'));
    const config = configOf(used);
    const metadata = callMetadata(
      s,
      cls.dialect,
      provider,
      parts.finish.length === 0
        ? undefined
        : parts.finish.length === 1
          ? oneReason(em, parts.finish[0]!)
          : parts.finish,
      used.rest(),
    );
    const time = (s.endMs - s.startMs) / 1000;
    const choices =
      parts.output.length || message.tool_calls
        ? [{ message, stop_reason: stopReason(parts.finish[0]) }]
        : [];
    // One literal each, with and without usage (a spread builds key by key).
    const output: ModelEvent['output'] = usage
      ? { model, choices, completion, usage, time }
      : { model, choices, completion, time };
    const event: ModelEvent = {
      event: 'model',
      uuid: spanUuid(em, s, '/model'),
      span_id: enclosing,
      timestamp: s.start,
      model,
      input: parts.input,
      tools: parts.tools,
      tool_choice: 'auto',
      config,
      output,
      completed: s.end,
      working_time: time,
      metadata,
    };
    if (responseId !== undefined) event.call_id = responseId;
    if (failed) event.error = s.status?.message ?? 'error';
    em.sink.add(event);
    invent(em.sink, event, s);
  } else if (cls.role === 'tool') {
    const id = stringOf(used.first('gen_ai.tool.call.id', 'tool_call.id', 'ai.toolCall.id'));
    const name = stringOf(
      used.first('gen_ai.tool.name', 'tool.name', 'ai.toolCall.name', 'traceloop.entity.name'),
    );
    const args = used.first(
      'gen_ai.tool.call.arguments',
      'tool.parameters',
      'ai.toolCall.args',
      'ai.toolCall.input',
      'traceloop.entity.input',
      'input.value',
    );
    const result = used.first(
      'gen_ai.tool.call.result',
      'ai.toolCall.result',
      'ai.toolCall.output',
      'traceloop.entity.output',
      'output.value',
    );
    const metadata = callMetadata(s, cls.dialect, undefined, undefined, used.rest());
    tool = {
      event: 'tool',
      uuid: spanUuid(em, s, '/tool'),
      span_id: enclosing,
      timestamp: s.start,
      type: 'function',
      id: id ?? '',
      function: name ?? s.name.replace(/^execute_tool\s+/, ''),
      arguments: args === undefined ? NO_ARGS : asArgs(args),
      result: result === undefined ? '' : asText(jsonishText(result)),
      events: NO_EVENTS,
      completed: s.end,
      working_time: (s.endMs - s.startMs) / 1000,
      metadata,
    };
    if (failed) {
      const exception = events.find((e) => e.name === 'exception');
      tool.error = {
        type: 'unknown',
        message: s.status?.message ?? stringOf(exception?.attrs['exception.message']) ?? 'error',
      };
      tool.failed = true;
    }
    em.sink.add(tool);
    invent(em.sink, tool, s);
    em.tools.push({ event: tool, span: s, hasId: id !== undefined });
  } else {
    let id = s.spanId;
    if (em.usedIds) {
      if (em.usedIds.has(id)) id = `${s.traceId}:${s.spanId}`;
      em.usedIds.add(id);
    }
    const name = stringOf(
      used.first(
        'gen_ai.agent.name',
        'agent.name',
        'traceloop.entity.name',
        'gen_ai.workflow.name',
      ),
    );
    begin = em.sink.openSpan({
      id,
      uuid: spanUuid(em, s, '/begin'),
      timestamp: s.start,
      parent_id: enclosing,
      type: cls.type,
      name: name ?? s.name,
      metadata: baseMetadata(s, cls.dialect, used.rest()),
    });
    invent(em.sink, begin, s);
    childEnclosing = id;
    addSpanEvents(em, s, events, consumed, id);
  }

  if (cls.role !== 'span') addSpanEvents(em, s, events, consumed, enclosing);
  return { span: s, inner: childEnclosing, tool, begin, next: 0 };
}

/**
 * After child `c` of `tail`'s span and its subtree are out: the first agent
 * span under a tool is that tool's sub-agent.
 */
export function emitSpanChildDone(em: Emit, tail: SpanTail, c: Span): void {
  const tool = tail.tool;
  if (tool && !tool.agent_span_id && c.cls!.type === 'agent')
    tool.agent_span_id = em.usedIds?.has(`${c.traceId}:${c.spanId}`)
      ? `${c.traceId}:${c.spanId}`
      : c.spanId;
}

/** After the last child of `tail`'s span: the span_end of a begin/end pair. */
export function emitSpanEnd(em: Emit, tail: SpanTail): void {
  const begin = tail.begin;
  const s = tail.span;
  if (begin) {
    // What `closeSpan` adds (the begin was never open), with its metadata in
    // the literal: added afterwards, it took a property store per span_end.
    const id = begin.id;
    const end: SpanEndEvent = {
      event: 'span_end',
      uuid: spanUuid(em, s, '/end'),
      timestamp: s.end,
      span_id: id,
      id,
      // The OTLP id, for a span whose skein id had to be made unique.
      metadata: { span_id: s.spanId },
    };
    em.sink.add(end);
    if (s.invented.includes('end')) em.sink.invent(end, 'end', spanPath(s));
  }
}

/** Tool results are often JSON strings; keep them as text, unwrapping a JSON-encoded string. */
function jsonishText(v: unknown): unknown {
  if (typeof v === 'string' && v.charCodeAt(0) === 34) {
    const parsed = jsonish(v);
    return typeof parsed === 'string' ? parsed : v;
  }
  return v;
}

function addSpanEvents(
  em: Emit,
  s: Span,
  events: SpanEventRead[],
  consumed: ReadonlySet<SpanEventRead>,
  spanId: string | null,
): void {
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    if (consumed.has(e)) continue;
    const data: JsonObject = { name: e.name };
    if (Object.keys(e.attrs).length) data.attributes = e.attrs;
    if (e.body !== undefined) data.body = anyValue(e.body);
    const info = em.sink.add({
      event: 'info',
      uuid: em.sink.uuid(`${s.traceId}/${s.spanId}/event/${i}`),
      span_id: spanId,
      timestamp: e.time?.iso ?? s.start,
      source: 'otlp',
      data,
      metadata: {
        span_id: s.spanId,
        ...(e.timeNs !== undefined ? { time_unix_nano: e.timeNs } : {}),
      },
    });
    if (!e.time) em.sink.invent(info, 'timestamp', e.path);
  }
}

/** Tool events: name and arguments from the model's call of that id; an id from the first unanswered call of that name. */
export function pairTools(em: Emit): void {
  const tools = em.tools;
  for (let i = 0; i < tools.length; i++) {
    const t = tools[i]!;
    if (t.hasId) {
      const c = em.calls.get(t.event.id);
      if (!c) continue;
      c.answered = true;
      if (t.event.function === '' || t.event.function === t.span.name)
        t.event.function = c.call.function;
      if (!hasKeys(t.event.arguments)) t.event.arguments = c.call.arguments;
    }
  }
  for (let i = 0; i < tools.length; i++) {
    const t = tools[i]!;
    if (t.hasId) continue;
    for (const [id, c] of em.calls) {
      if (c.answered || c.call.function !== t.event.function) continue;
      c.answered = true;
      t.event.id = id;
      if (Object.keys(t.event.arguments).length === 0) t.event.arguments = c.call.arguments;
      t.hasId = true;
      break;
    }
    if (!t.hasId) {
      t.event.id = t.span.spanId;
      em.sink.invent(t.event, 'id', spanPath(t.span));
    }
  }
}
