// A model call's content under every dialect's spelling: messages and their
// parts, tool calls and definitions, usage, config, and the GenAI span events
// that carry content (https://github.com/open-telemetry/semantic-conventions-genai).
import type {
  ChatMessage,
  ChatMessageAssistant,
  Content,
  GenerateConfig,
  ModelUsage,
  ToolCall,
  ToolInfo,
} from '../../events/types.js';
import { EMPTY_ARRAY, EMPTY_OBJECT } from '../../events/freeze.js';
import { isRecord, own, stringOf } from '../guards.js';
import { type Attrs, put, anyValue, keyValues, num, jsonish, asText, asArgs } from './values.js';
import { readNanos, nanosToIso, isoTime, timeOf } from './time.js';
import { type Span, spanPath } from './read.js';
import type { Used } from './dialects.js';

const ROLES = new Set(['system', 'user', 'assistant', 'tool']);

function roleOf(v: unknown): ChatMessage['role'] {
  const r = typeof v === 'string' ? v.toLowerCase() : '';
  if (ROLES.has(r)) return r as ChatMessage['role'];
  if (r === 'developer') return 'system';
  if (r === 'model' || r === 'ai') return 'assistant';
  if (r === 'function' || r === 'ipython') return 'tool';
  return 'user';
}

function toolCall(id: unknown, name: unknown, args: unknown): ToolCall {
  return { id: asText(id), function: asText(name), arguments: asArgs(args), type: 'function' };
}

/** One content part (GenAI `parts[]`, Vercel `content[]`, OpenAI content arrays) as inspect content. */
function contentPart(p: unknown): Content | undefined {
  if (typeof p === 'string') return { type: 'text', text: p };
  if (!isRecord(p)) return undefined;
  const type = stringOf(p['type']);
  switch (type) {
    case 'text':
    case 'input_text':
    case 'output_text':
      return { type: 'text', text: asText(p['content'] ?? p['text']) };
    case 'reasoning':
    case 'thinking':
      return { type: 'reasoning', reasoning: asText(p['content'] ?? p['text'] ?? p['thinking']) };
    case 'uri':
    case 'image_url':
    case 'image': {
      const uri = stringOf(p['uri']) ?? stringOf(p['url']) ?? stringOf(p['image']);
      const url = isRecord(p['image_url']) ? stringOf(p['image_url']['url']) : undefined;
      const modality = stringOf(p['modality']) ?? 'image';
      if (modality === 'image' && (uri ?? url)) return { type: 'image', image: (uri ?? url)! };
      return { type: 'data', data: p };
    }
    case 'blob': {
      const modality = stringOf(p['modality']);
      const mime = stringOf(p['mime_type']) ?? (modality === 'image' ? 'image/png' : undefined);
      const content = stringOf(p['content']);
      if (modality === 'image' && content && mime)
        return { type: 'image', image: `data:${mime};base64,${content}` };
      return { type: 'data', data: p };
    }
    default:
      return { type: 'data', data: p };
  }
}

function messageContent(parts: Content[]): string | Content[] {
  if (parts.length === 0) return '';
  const only = parts.length === 1 ? parts[0]! : undefined;
  if (only?.type === 'text') return only.text;
  return parts;
}

/**
 * GenAI messages (`[{role, parts, finish_reason?}]`) and the common chat
 * shapes (`{role, content: string | parts, tool_calls?}` of OpenAI and the
 * Vercel AI SDK) as inspect messages. A tool-call response becomes its own
 * `tool` message.
 */
function chatMessages(list: unknown): { messages: ChatMessage[]; finish: string[] } {
  // Lists made at their first item, as one-item literals: a list pushed to
  // from empty gets room for seventeen, and the messages are kept.
  let messages: ChatMessage[] | undefined;
  let finish: string[] | undefined;
  if (!Array.isArray(list)) return { messages: [], finish: [] };
  for (let i = 0; i < list.length; i++) {
    const m: unknown = list[i];
    if (!isRecord(m)) continue;
    const role = roleOf(m['role']);
    const fr = stringOf(m['finish_reason']);
    if (fr !== undefined) finish = append(finish, fr);
    const rawParts = Array.isArray(m['parts'])
      ? m['parts']
      : Array.isArray(m['content'])
        ? m['content']
        : m['content'] !== undefined && m['content'] !== null
          ? [asText(m['content'])]
          : [];
    let parts: Content[] | undefined;
    let calls: ToolCall[] | undefined;
    let responses: ChatMessage[] | undefined;
    for (let j = 0; j < rawParts.length; j++) {
      const p: unknown = rawParts[j];
      const type = isRecord(p) ? stringOf(p['type']) : undefined;
      if (
        isRecord(p) &&
        (type === 'tool_call' || type === 'tool-call' || type === 'function_call')
      ) {
        calls = append(
          calls,
          toolCall(
            p['id'] ?? p['toolCallId'] ?? p['call_id'],
            p['name'] ?? p['toolName'],
            p['arguments'] ?? p['args'] ?? p['input'],
          ),
        );
      } else if (
        isRecord(p) &&
        (type === 'tool_call_response' || type === 'tool-result' || type === 'function_call_output')
      ) {
        const id = asText(p['id'] ?? p['toolCallId'] ?? p['call_id']);
        const name = stringOf(p['toolName']) ?? stringOf(p['name']);
        responses = append<ChatMessage>(responses, {
          role: 'tool',
          content: asText(p['response'] ?? p['result'] ?? p['output']),
          tool_call_id: id,
          ...(name !== undefined ? { function: name } : {}),
        });
      } else {
        const c = contentPart(p);
        if (c) parts = append(parts, c);
      }
    }
    if (Array.isArray(m['tool_calls'])) {
      for (const c of m['tool_calls']) {
        if (!isRecord(c)) continue;
        const fn = isRecord(c['function']) ? c['function'] : c;
        calls = append(calls, toolCall(c['id'], fn['name'], fn['arguments']));
      }
    }
    if (responses && !parts && !calls) {
      for (let j = 0; j < responses.length; j++) messages = append(messages, responses[j]!);
      continue;
    }
    const content = parts ? messageContent(parts) : '';
    const name = stringOf(m['name']);
    if (role === 'assistant') {
      const msg: ChatMessageAssistant = { role, content };
      if (calls) msg.tool_calls = calls;
      messages = append(messages, msg);
    } else if (role === 'tool') {
      const id = stringOf(m['tool_call_id']) ?? stringOf(m['id']);
      messages = append<ChatMessage>(messages, {
        role,
        content,
        ...(id !== undefined ? { tool_call_id: id } : {}),
        ...(name !== undefined ? { function: name } : {}),
      });
    } else messages = append<ChatMessage>(messages, { role, content });
    if (responses)
      for (let j = 0; j < responses.length; j++) messages = append(messages, responses[j]!);
  }
  return { messages: messages ?? [], finish: finish ?? [] };
}

/** `list` with `item` added: a one-item list when there is none yet. */
function append<T>(list: T[] | undefined, item: T): T[] {
  if (list === undefined) return [item];
  list.push(item);
  return list;
}

/** OpenInference's un-flattened `llm.*_messages` (`[{message: {role, content, contents, tool_calls}}]`). */
function oiMessages(list: unknown): ChatMessage[] {
  if (!Array.isArray(list)) return [];
  const plain = list.map((entry) => {
    const m = isRecord(entry) && isRecord(entry['message']) ? entry['message'] : {};
    const contents = Array.isArray(m['contents'])
      ? m['contents'].map((c) => {
          const mc = isRecord(c) && isRecord(c['message_content']) ? c['message_content'] : {};
          const image =
            isRecord(mc['image']) && isRecord(mc['image']['image'])
              ? mc['image']['image']
              : undefined;
          return image ? { type: 'image', url: image['url'] } : { type: 'text', text: mc['text'] };
        })
      : undefined;
    const calls = Array.isArray(m['tool_calls'])
      ? m['tool_calls'].map((c) => {
          const tc = isRecord(c) && isRecord(c['tool_call']) ? c['tool_call'] : {};
          return { id: tc['id'], function: tc['function'] };
        })
      : undefined;
    return {
      role: m['role'],
      name: m['name'],
      tool_call_id: m['tool_call_id'],
      content: contents ?? m['content'],
      tool_calls: calls,
    };
  });
  return chatMessages(plain).messages;
}

/** Legacy indexed `gen_ai.prompt.N.*` / `gen_ai.completion.N.*` (pre-1.36, OpenLLMetry). */
function indexedMessages(list: unknown): { messages: ChatMessage[]; finish: string[] } {
  if (!Array.isArray(list)) return { messages: [], finish: [] };
  const plain = list.map((m) => {
    if (!isRecord(m)) return {};
    const calls = Array.isArray(m['tool_calls'])
      ? m['tool_calls'].map((c) => (isRecord(c) ? { id: c['id'], function: c } : {}))
      : undefined;
    return { ...m, content: m['content'], tool_calls: calls };
  });
  return chatMessages(plain);
}

function toolInfos(v: unknown): ToolInfo[] {
  const list = jsonish(v);
  if (!Array.isArray(list)) return NO_TOOLS;
  const out: ToolInfo[] = [];
  for (const raw of list) {
    let t = jsonish(raw);
    if (isRecord(t) && isRecord(t['tool']) && t['tool']['json_schema'] !== undefined)
      t = jsonish(t['tool']['json_schema']);
    if (!isRecord(t)) continue;
    const fn = isRecord(t['function']) ? t['function'] : t;
    const params = isRecord(fn['parameters'])
      ? fn['parameters']
      : isRecord(fn['inputSchema'])
        ? fn['inputSchema']
        : { type: 'object', properties: {} };
    out.push({
      name: asText(fn['name']),
      description: asText(fn['description']),
      parameters: {
        ...params,
        properties: isRecord(params['properties']) ? params['properties'] : {},
      } as ToolInfo['parameters'],
    });
  }
  return out.length ? out : NO_TOOLS;
}

/**
 * A model call's `tools` when it declares none (most calls): one frozen list
 * for all (never added to: `modelParts` replaces it), not an array per event
 * kept and frozen.
 */
const NO_TOOLS = EMPTY_ARRAY as ToolInfo[];

/** A finish reason under any dialect's spelling as inspect's stop reason. */
export function stopReason(v: string | undefined): string {
  if (v === undefined) return 'unknown';
  const lower = v.toLowerCase();
  // No regex replace (and its match state) for the usual reason without a dash.
  const r = lower.includes('-') ? lower.replace(/-/g, '_') : lower;
  if (r === 'tool_call' || r === 'tool_calls' || r === 'function_call' || r === 'tool_use')
    return 'tool_calls';
  if (r === 'length' || r === 'max_tokens' || r === 'max_output_tokens') return 'max_tokens';
  if (r === 'stop' || r === 'end_turn' || r === 'stop_sequence') return 'stop';
  if (r === 'content_filter' || r === 'safety') return 'content_filter';
  return r;
}

/** Usage under every spelling (OpenTelemetry GenAI semantic conventions and OpenInference; Vercel). */
export function usageOf(u: Used): ModelUsage | undefined {
  const input = num(
    u.first(
      'gen_ai.usage.input_tokens',
      'gen_ai.usage.prompt_tokens',
      'llm.token_count.prompt',
      'ai.usage.inputTokens',
      'ai.usage.promptTokens',
      'llm.usage.prompt_tokens',
    ),
  );
  const output = num(
    u.first(
      'gen_ai.usage.output_tokens',
      'gen_ai.usage.completion_tokens',
      'llm.token_count.completion',
      'ai.usage.outputTokens',
      'ai.usage.completionTokens',
      'llm.usage.completion_tokens',
    ),
  );
  const total = num(
    u.first(
      'gen_ai.usage.total_tokens',
      'llm.usage.total_tokens',
      'llm.token_count.total',
      'ai.usage.totalTokens',
    ),
  );
  const cacheRead = num(
    u.first(
      'gen_ai.usage.cache_read.input_tokens',
      'gen_ai.usage.cache_read_input_tokens',
      'llm.token_count.prompt_details.cache_read',
      'ai.usage.cachedInputTokens',
    ),
  );
  const cacheWrite = num(
    u.first(
      'gen_ai.usage.cache_creation.input_tokens',
      'gen_ai.usage.cache_write.input_tokens',
      'gen_ai.usage.cache_creation_input_tokens',
      'llm.token_count.prompt_details.cache_write',
    ),
  );
  const reasoning = num(
    u.first(
      'gen_ai.usage.reasoning.output_tokens',
      'gen_ai.usage.reasoning_tokens',
      'llm.token_count.completion_details.reasoning',
      'ai.usage.reasoningTokens',
    ),
  );
  if (input === undefined && output === undefined && total === undefined) return undefined;
  // GenAI, OpenInference and the AI SDK count cached tokens inside the input
  // count; inspect's `input_tokens` excludes them (types.ts ModelUsage).
  const usage: ModelUsage = {
    input_tokens: Math.max(0, (input ?? 0) - (cacheRead ?? 0) - (cacheWrite ?? 0)),
    output_tokens: output ?? 0,
    total_tokens: total ?? (input ?? 0) + (output ?? 0),
  };
  if (cacheRead !== undefined) usage.input_tokens_cache_read = cacheRead;
  if (cacheWrite !== undefined) usage.input_tokens_cache_write = cacheWrite;
  if (reasoning !== undefined) usage.reasoning_tokens = reasoning;
  return usage;
}

// The attribute names whole, not built per span (a string per read, looked up
// as a property name).
const CONFIG_KEYS: [string, keyof GenerateConfig][] = [
  ['gen_ai.request.max_tokens', 'max_tokens'],
  ['gen_ai.request.temperature', 'temperature'],
  ['gen_ai.request.top_p', 'top_p'],
  ['gen_ai.request.top_k', 'top_k'],
  ['gen_ai.request.frequency_penalty', 'frequency_penalty'],
  ['gen_ai.request.presence_penalty', 'presence_penalty'],
  ['gen_ai.request.seed', 'seed'],
  ['gen_ai.request.choice.count', 'num_choices'],
];

/** A model call's generation config from its request attributes (GenAI, Vercel, OpenInference). */
export function configOf(u: Used): GenerateConfig {
  // Made at its first setting: a call with none (most) shares the one frozen
  // empty config, not an object per event kept and frozen.
  let config: GenerateConfig | undefined;
  for (let i = 0; i < CONFIG_KEYS.length; i++) {
    // Indexed, not destructured: `const [name, key] = …` runs the iterator
    // protocol, an iterator and its results per key per span.
    const entry = CONFIG_KEYS[i]!;
    const v = num(u.get(entry[0]));
    if (v !== undefined) (config ??= {})[entry[1]] = v;
  }
  const stops = u.get('gen_ai.request.stop_sequences');
  if (Array.isArray(stops)) (config ??= {}).stop_seqs = stops.map(asText);
  if (config?.max_tokens === undefined) {
    const mt = num(u.first('ai.settings.maxOutputTokens', 'ai.settings.maxTokens'));
    if (mt !== undefined) (config ??= {}).max_tokens = mt;
  }
  const oi = jsonish(u.get('llm.invocation_parameters'));
  if (isRecord(oi)) {
    for (const [k, v] of Object.entries(oi))
      if (k !== 'model' && k !== 'messages' && k !== 'tools' && config?.[k] === undefined)
        put((config ??= {}), k, v);
  }
  return config ?? (EMPTY_OBJECT as GenerateConfig);
}

// GenAI content on span events: the current details event, and the older
// per-message events.
const DETAILS_EVENT = 'gen_ai.client.inference.operation.details';
const MESSAGE_EVENTS: Record<string, ChatMessage['role']> = {
  'gen_ai.system.message': 'system',
  'gen_ai.user.message': 'user',
  'gen_ai.assistant.message': 'assistant',
  'gen_ai.tool.message': 'tool',
};

/** A span event, read (its attributes as an object, its time exact). */
export interface SpanEventRead {
  name: string;
  time: { iso: string; ms: number } | undefined;
  timeNs: string | undefined;
  attrs: Attrs;
  body: unknown;
  path: string;
}

/** No span events: one list for all spans without any (never added to). */
const NO_EVENTS_READ: SpanEventRead[] = Object.freeze([]) as unknown as SpanEventRead[];

/** The span events of `s`, read. */
export function readSpanEvents(s: Span): SpanEventRead[] {
  if (s.events.length === 0) return NO_EVENTS_READ;
  const out: SpanEventRead[] = [];
  for (let i = 0; i < s.events.length; i++) {
    const e: unknown = s.events[i];
    if (!isRecord(e)) continue;
    const ns = readNanos(own(e, 'timeUnixNano'));
    out.push({
      name: stringOf(own(e, 'name')) ?? '',
      time: timeOf(ns !== undefined ? nanosToIso(ns) : isoTime(own(e, 'timestamp'))),
      timeNs: ns,
      attrs: keyValues(own(e, 'attributes')),
      body: own(e, 'body'),
      path: `${spanPath(s)}.events[${i}]`,
    });
  }
  return out;
}

interface ModelParts {
  input: ChatMessage[];
  output: ChatMessage[];
  finish: string[];
  tools: ToolInfo[];
  consumedEvents: ReadonlySet<SpanEventRead>;
}

/**
 * A model call's messages in and out, finish reasons and tool definitions, from
 * whichever dialect's attributes or span events hold them.
 */
export function modelParts(u: Used, events: SpanEventRead[]): ModelParts {
  // Made when a span event is consumed (most spans have none).
  let consumed: Set<SpanEventRead> | undefined;
  let input: ChatMessage[] = [];
  let output: ChatMessage[] = [];
  let finish: string[] = [];
  let tools = toolInfos(u.get('gen_ai.tool.definitions'));

  let src: Attrs = u.attrs;
  let inRaw = u.get('gen_ai.input.messages');
  let outRaw = u.get('gen_ai.output.messages');
  let sysRaw = u.get('gen_ai.system_instructions');
  if (inRaw === undefined && outRaw === undefined) {
    const details = events.find((e) => e.name === DETAILS_EVENT);
    if (details) {
      (consumed ??= new Set()).add(details);
      src = details.attrs;
      inRaw = own(src, 'gen_ai.input.messages');
      outRaw = own(src, 'gen_ai.output.messages');
      sysRaw = own(src, 'gen_ai.system_instructions');
      if (tools.length === 0) tools = toolInfos(own(src, 'gen_ai.tool.definitions'));
    }
  }
  if (inRaw !== undefined || outRaw !== undefined || sysRaw !== undefined) {
    const sys = jsonish(sysRaw);
    if (sys !== undefined) {
      const parts = (Array.isArray(sys) ? sys : [sys]).map(contentPart).filter((c) => c);
      input.push({ role: 'system', content: messageContent(parts as Content[]) });
    }
    // The lists chatMessages made, taken as they are when nothing came before
    // (not spread into another: a copy, and an arguments list, per call).
    const messages = chatMessages(jsonish(inRaw)).messages;
    if (input.length === 0) input = messages;
    else input.push(...messages);
    const o = chatMessages(jsonish(outRaw));
    output = o.messages;
    finish = o.finish; // nothing in it yet
  }
  // Legacy indexed attributes.
  if (input.length === 0) input = indexedMessages(u.tree('gen_ai.prompt')).messages;
  if (output.length === 0) {
    const o = indexedMessages(u.tree('gen_ai.completion'));
    output = o.messages;
    finish.push(...o.finish);
  }
  // Older per-message events.
  if (input.length === 0 || output.length === 0) {
    const fromEvents: unknown[] = [];
    const choices: unknown[] = [];
    for (const e of events) {
      const role = MESSAGE_EVENTS[e.name];
      const body = isRecord(e.body) ? anyValue(e.body) : undefined;
      const fields = isRecord(body) ? body : e.attrs;
      if (role) {
        (consumed ??= new Set()).add(e);
        fromEvents.push({ role, ...fields });
      } else if (e.name === 'gen_ai.choice') {
        (consumed ??= new Set()).add(e);
        const message = isRecord(fields['message']) ? fields['message'] : fields;
        choices.push({
          role: 'assistant',
          ...message,
          finish_reason: fields['finish_reason'],
        });
      }
    }
    if (input.length === 0) input = chatMessages(fromEvents).messages;
    if (output.length === 0) {
      const o = chatMessages(choices);
      output = o.messages;
      finish.push(...o.finish);
    }
  }
  // OpenInference.
  if (input.length === 0) input = oiMessages(u.tree('llm.input_messages'));
  if (output.length === 0) output = oiMessages(u.tree('llm.output_messages'));
  if (tools.length === 0) tools = toolInfos(u.tree('llm.tools'));
  // Vercel AI SDK.
  if (input.length === 0) {
    const prompt = jsonish(u.get('ai.prompt.messages'));
    if (Array.isArray(prompt)) input = chatMessages(prompt).messages;
  }
  if (tools.length === 0) tools = toolInfos(u.get('ai.prompt.tools'));
  if (output.length === 0) {
    const text = stringOf(u.get('ai.response.text'));
    const calls = jsonish(u.get('ai.response.toolCalls'));
    const parts: unknown[] = text ? [{ type: 'text', text }] : [];
    if (Array.isArray(calls))
      for (const c of calls) parts.push({ type: 'tool-call', ...(isRecord(c) ? c : {}) });
    if (parts.length > 0 || text !== undefined)
      output = chatMessages([{ role: 'assistant', content: parts }]).messages;
  }
  const fr = u.first(
    'gen_ai.response.finish_reasons',
    'llm.finish_reason',
    'ai.response.finishReason',
  );
  if (Array.isArray(fr)) for (const f of fr) if (typeof f === 'string') finish.push(f);
  if (typeof fr === 'string') finish.push(fr);
  return { input, output, finish, tools, consumedEvents: consumed ?? NONE_CONSUMED };
}

/** The span events a span that is no model consumed: none (one set, never added to). */
export const NONE_CONSUMED: ReadonlySet<SpanEventRead> = new Set();
