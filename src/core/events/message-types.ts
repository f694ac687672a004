// Tool calls and chat messages (inspect_ai's `tool/` and `model/_chat_message.py`).

import type { Content, JsonObject } from './content-types.js';

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
