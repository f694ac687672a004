// Model input and output of the OpenAI Agents SDK's model spans, as chat
// messages. Three dialects arrive, told apart per item:
// - a `response` span's `_input`: the SDK's own protocol items
//   (`{role:'user', content}`, `{type:'function_call', callId, …}`,
//   `{type:'function_call_result', callId, output}`), or the Responses API's
//   (`call_id`, `function_call_output`) when the Python SDK wrote them;
// - a `response` span's `_response.output`: Responses API output items
//   (https://platform.openai.com/docs/api-reference/responses/object);
// - a `generation` span's `input`/`output`: Chat Completions messages, the
//   JS SDK's output being the whole completion (`{choices, usage}`) and the
//   Python SDK's the message alone.
// Items are flat lists and parts one level deep: no walk here recurses.
import type {
  ChatCompletionChoice,
  ChatMessage,
  ChatMessageAssistant,
  Content,
  JsonObject,
  ModelOutput,
  ModelUsage,
  ToolCall,
} from '../../events/types.js';
import { isRecord, own, typeName, type JsonRecord } from '../guards.js';

/**
 * A value as JSON text for a result or a message; a value too deep for
 * `JSON.stringify` (it recurses natively) is named instead of thrown on.
 *
 * @example
 * import { jsonText } from 'src/core/import/openai-agents/messages.js';
 * jsonText({ ok: true }); // '{"ok":true}'
 */
export function jsonText(value: unknown, indent?: number): string {
  try {
    return JSON.stringify(value, null, indent) ?? '';
  } catch {
    return `(${typeName(value)} too deep to show)`;
  }
}

/**
 * A scalar as text, anything else by its type's name (never `String()` of an
 * array, which recurses as deep as the array nests).
 *
 * @example
 * import { scalarText } from 'src/core/import/openai-agents/messages.js';
 * scalarText(3); // '3'
 * scalarText([[1]]); // 'array'
 */
export function scalarText(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? String(value)
    : typeName(value);
}

/** A tool call the model asked for, waiting for the span that runs it. */
export interface ModelToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

function str(record: JsonRecord, key: string): string | undefined {
  const v = own(record, key);
  return typeof v === 'string' ? v : undefined;
}

function num(record: JsonRecord, key: string): number | undefined {
  const v = own(record, key);
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/**
 * Tool arguments as an object: a JSON object string parsed, anything else
 * kept under `input` (a tool may take a bare string), so nothing is lost.
 *
 * @example
 * import { parseArguments } from 'src/core/import/openai-agents/messages.js';
 * parseArguments('{"a":1}'); // { a: 1 }
 * parseArguments('hello'); // { input: 'hello' }
 */
export function parseArguments(raw: unknown): JsonObject {
  if (isRecord(raw)) return raw;
  if (typeof raw !== 'string' || raw === '') return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    if (isRecord(parsed)) return parsed;
  } catch {
    // Not JSON: kept as the raw text.
  }
  return { input: raw };
}

/** One content part of any dialect. */
function part(raw: unknown): Content {
  if (typeof raw === 'string') return { type: 'text', text: raw };
  if (!isRecord(raw)) return { type: 'data', data: { value: raw as never } };
  const type = str(raw, 'type');
  const text = str(raw, 'text');
  if (
    text !== undefined &&
    (type === 'input_text' || type === 'output_text' || type === 'text' || type === undefined)
  )
    return { type: 'text', text };
  if (type === 'refusal') return { type: 'text', text: str(raw, 'refusal') ?? '', refusal: true };
  if (type === 'summary_text' || type === 'reasoning_text')
    return { type: 'reasoning', reasoning: text ?? '' };
  if (type === 'input_image' || type === 'image_url') {
    const url = own(raw, 'image_url');
    const image =
      str(raw, 'image') ??
      (typeof url === 'string' ? url : isRecord(url) ? str(url, 'url') : undefined);
    if (image !== undefined) return { type: 'image', image };
  }
  return { type: 'data', data: raw };
}

/** Message content: a string as it is, parts mapped one by one. */
function content(raw: unknown): string | Content[] {
  if (typeof raw === 'string') return raw;
  if (!Array.isArray(raw)) return raw === undefined || raw === null ? '' : [part(raw)];
  const parts = raw.map(part);
  if (parts.every((p) => p.type === 'text' && p.refusal !== true))
    return parts.map((p) => (p as { text: string }).text).join('');
  return parts;
}

/**
 * A value as JSON text where a message holds text: {@link jsonText}, or the
 * importer's, which cuts a value too deep for `JSON.stringify` and reports
 * the cut (`cutJsonText`).
 */
export type ValueText = (value: unknown) => string;

/** Tool output of a `function_call_result` (`{type:'text', text}`, a string, or anything). */
function toolOutput(raw: unknown, text: ValueText): string | Content[] {
  if (typeof raw === 'string') return raw;
  if (isRecord(raw) && str(raw, 'type') === 'text' && str(raw, 'text') !== undefined)
    return str(raw, 'text')!;
  if (Array.isArray(raw)) return content(raw);
  return raw === undefined || raw === null ? '' : text(raw);
}

/** The tool call of a Responses `function_call` item (`callId` or `call_id`). */
function responsesCall(item: JsonRecord): ModelToolCall {
  return {
    id: str(item, 'callId') ?? str(item, 'call_id') ?? str(item, 'id') ?? '',
    name: str(item, 'name') ?? 'tool',
    arguments: str(item, 'arguments') ?? '',
  };
}

/** The tool calls of a Chat Completions assistant message. */
function chatCalls(message: JsonRecord): ModelToolCall[] {
  const calls = own(message, 'tool_calls');
  if (!Array.isArray(calls)) return [];
  const out: ModelToolCall[] = [];
  for (const call of calls) {
    if (!isRecord(call)) continue;
    const fn = own(call, 'function');
    const f = isRecord(fn) ? fn : call;
    out.push({
      id: str(call, 'id') ?? '',
      name: str(f, 'name') ?? 'tool',
      arguments: str(f, 'arguments') ?? '',
    });
  }
  return out;
}

function toToolCall(call: ModelToolCall): ToolCall {
  return { id: call.id, function: call.name, arguments: parseArguments(call.arguments) };
}

const ROLES = new Set(['system', 'user', 'assistant', 'tool']);

/**
 * Adds a tool call to the assistant message at the end of `out` (a new one
 * when the last message is another), and to `calls`; returns that message.
 */
function addToolCall(
  out: ChatMessage[],
  assistant: ChatMessageAssistant | undefined,
  call: ModelToolCall,
  calls: ModelToolCall[] | undefined,
): ChatMessageAssistant {
  calls?.push(call);
  if (assistant === undefined || out[out.length - 1] !== assistant) {
    assistant = { role: 'assistant', content: '', tool_calls: [] };
    out.push(assistant);
  }
  (assistant.tool_calls ??= []).push(toToolCall(call));
  return assistant;
}

/**
 * Chat messages from a model span's input or output, any of the three
 * dialects (a bare string is one user message). Consecutive tool calls join
 * the assistant message before them, as Chat Completions writes them.
 * `calls`, when given, collects every tool call the messages make.
 *
 * @example
 * import { toChatMessages } from 'src/core/import/openai-agents/messages.js';
 * toChatMessages([{ role: 'user', content: 'Hi' }]); // [{ role: 'user', content: 'Hi' }]
 */
export function toChatMessages(
  raw: unknown,
  calls?: ModelToolCall[],
  text: ValueText = jsonText,
): ChatMessage[] {
  if (typeof raw === 'string') return [{ role: 'user', content: raw }];
  if (!Array.isArray(raw)) return [];
  const out: ChatMessage[] = [];
  let assistant: ChatMessageAssistant | undefined;
  for (const item of raw) {
    if (!isRecord(item)) continue;
    const type = str(item, 'type');
    const role = str(item, 'role');
    if (type === 'function_call') {
      assistant = addToolCall(out, assistant, responsesCall(item), calls);
    } else if (type === 'function_call_result' || type === 'function_call_output') {
      const message: ChatMessage = {
        role: 'tool',
        content: toolOutput(own(item, 'output'), text),
        tool_call_id: str(item, 'callId') ?? str(item, 'call_id') ?? null,
      };
      const name = str(item, 'name');
      if (name !== undefined) message.function = name;
      out.push(message);
    } else if (type === 'reasoning') {
      const summary = own(item, 'summary');
      const parts = Array.isArray(summary) ? summary : own(item, 'content');
      const texts = Array.isArray(parts)
        ? parts.map((p) => (isRecord(p) ? (str(p, 'text') ?? '') : '')).join('\n')
        : '';
      assistant = { role: 'assistant', content: [{ type: 'reasoning', reasoning: texts }] };
      out.push(assistant);
    } else if (role !== undefined && (type === undefined || type === 'message')) {
      const r = ROLES.has(role) ? role : role === 'developer' ? 'system' : 'user';
      const message = { role: r, content: content(own(item, 'content')) } as ChatMessage;
      if (r === 'assistant') {
        const refusal = str(item, 'refusal');
        if (refusal) message.content = [{ type: 'text', text: refusal, refusal: true }];
        const toolCalls = chatCalls(item);
        // A reasoning item before this message belongs to the same turn.
        if (assistant !== undefined && out[out.length - 1] === assistant && !assistant.tool_calls) {
          const before = assistant.content as Content[];
          const after = message.content;
          assistant.content = [
            ...before,
            ...(typeof after === 'string' ? [{ type: 'text' as const, text: after }] : after),
          ];
          for (const call of toolCalls) assistant = addToolCall(out, assistant, call, calls);
          continue;
        }
        assistant = message as ChatMessageAssistant;
        out.push(message);
        for (const call of toolCalls) assistant = addToolCall(out, assistant, call, calls);
        continue;
      }
      if (r === 'tool') {
        const id = str(item, 'tool_call_id');
        if (id !== undefined) (message as { tool_call_id?: string }).tool_call_id = id;
      }
      out.push(message);
    } else {
      // A hosted tool call, an item of a later API version: kept whole.
      out.push({ role: 'assistant', content: [{ type: 'data', data: item }] });
    }
  }
  return out;
}

/**
 * Token usage under the spellings the SDK writes: Responses
 * (`input_tokens`, `input_tokens_details.cached_tokens`), Chat Completions
 * (`prompt_tokens`, `completion_tokens`) and the SDK's own span usage.
 *
 * @example
 * import { toUsage } from 'src/core/import/openai-agents/messages.js';
 * toUsage({ input_tokens: 10, output_tokens: 2 }); // { input_tokens: 10, output_tokens: 2, total_tokens: 12 }
 */
export function toUsage(raw: unknown): ModelUsage | undefined {
  if (!isRecord(raw)) return undefined;
  const input = num(raw, 'input_tokens') ?? num(raw, 'prompt_tokens');
  const output = num(raw, 'output_tokens') ?? num(raw, 'completion_tokens');
  if (input === undefined && output === undefined) return undefined;
  const usage: ModelUsage = {
    input_tokens: input ?? 0,
    output_tokens: output ?? 0,
    total_tokens: num(raw, 'total_tokens') ?? (input ?? 0) + (output ?? 0),
  };
  const inDetails = own(raw, 'input_tokens_details') ?? own(raw, 'prompt_tokens_details');
  const cached = isRecord(inDetails) ? num(inDetails, 'cached_tokens') : undefined;
  if (cached !== undefined && cached > 0) usage.input_tokens_cache_read = cached;
  const outDetails = own(raw, 'output_tokens_details') ?? own(raw, 'completion_tokens_details');
  const reasoning = isRecord(outDetails) ? num(outDetails, 'reasoning_tokens') : undefined;
  if (reasoning !== undefined && reasoning > 0) usage.reasoning_tokens = reasoning;
  return usage;
}

const STOP: Record<string, string> = {
  stop: 'stop',
  length: 'max_tokens',
  tool_calls: 'tool_calls',
  function_call: 'tool_calls',
  content_filter: 'content_filter',
  completed: 'stop',
  incomplete: 'max_tokens',
};

/**
 * A model output from the messages a model span answered with: one choice,
 * its message the assistant messages joined, its stop reason the source's
 * (or `tool_calls` when it asked for tools).
 *
 * @example
 * import { toModelOutput } from 'src/core/import/openai-agents/messages.js';
 * const out = toModelOutput('gpt-5', [{ role: 'assistant', content: '4' }], undefined, undefined);
 * out.completion; // '4'
 */
export function toModelOutput(
  model: string,
  messages: ChatMessage[],
  usage: ModelUsage | undefined,
  finish: string | undefined,
): ModelOutput {
  const message: ChatMessageAssistant = { role: 'assistant', content: '' };
  const parts: Content[] = [];
  const calls: ToolCall[] = [];
  for (const m of messages) {
    if (m.role !== 'assistant') continue;
    if (typeof m.content === 'string') {
      if (m.content !== '') parts.push({ type: 'text', text: m.content });
    } else parts.push(...m.content);
    if (m.tool_calls) calls.push(...m.tool_calls);
  }
  message.content = parts.every((p) => p.type === 'text' && p.refusal !== true)
    ? parts.map((p) => (p as { text: string }).text).join('')
    : parts;
  if (calls.length) message.tool_calls = calls;
  if (model) message.model = model;
  const completion = parts
    .filter((p) => p.type === 'text')
    .map((p) => (p as { text: string }).text)
    .join('');
  const choice: ChatCompletionChoice = {
    message,
    stop_reason:
      (finish !== undefined ? STOP[finish] : undefined) ?? (calls.length ? 'tool_calls' : 'stop'),
  };
  const output: ModelOutput = { model, choices: [choice], completion };
  if (usage) output.usage = usage;
  return output;
}
