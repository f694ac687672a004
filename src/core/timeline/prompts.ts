/**
 * Reading model events the way timeline_build's classification passes do
 * (inspect_ai's `event/_timeline.py`): system prompts (normalized), tool calls,
 * warm-up calls and message text. Defensive: pooled events whose `input` was
 * never resolved simply read as having no prompt (as in inspect's utility-agent pass).
 */
import type { ChatMessage, Event, ModelEvent, ToolEvent } from '../events/types.js';

const BILLING_HEADER = 'x-anthropic-billing-header:';

/**
 * Strips Claude Code's per-call billing header (a first line starting with
 * `x-anthropic-billing-header:`), whose varying hash would otherwise make
 * every prompt differ. An empty result is `null` (no prompt).
 * @internal
 * @example
 * import { normalizeSystemPrompt } from 'src/core/timeline/prompts.js';
 * normalizeSystemPrompt('x-anthropic-billing-header: cch=1\nYou are…'); // 'You are…'
 */
export function normalizeSystemPrompt(prompt: string): string | null {
  let out = prompt;
  if (out.startsWith(BILLING_HEADER)) {
    const nl = out.indexOf('\n');
    out = nl === -1 ? '' : out.slice(nl + 1);
  }
  return out === '' ? null : out;
}

/**
 * Text of a message or tool result: a string as is, or the `text` of its
 * parts joined with "\n" (inspect's `ChatMessage.text`).
 * @internal
 * @example
 * import { contentText } from 'src/core/timeline/prompts.js';
 * contentText([{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }]); // 'a\nb'
 */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let out = '';
  let first = true;
  for (const part of content as unknown[]) {
    if (part !== null && typeof part === 'object' && (part as { type?: unknown }).type === 'text') {
      const text = (part as { text?: unknown }).text;
      if (typeof text === 'string') {
        out = first ? text : `${out}\n${text}`;
        first = false;
      }
    }
  }
  return out;
}

function inputOf(event: ModelEvent): readonly ChatMessage[] {
  return Array.isArray(event.input) ? event.input : [];
}

const promptCache = new WeakMap<object, string | null>();

/**
 * The normalized system prompt of one model call: its first `system`
 * message, parts joined with "\n"; `null` when it has none or it normalizes
 * to empty. Cached per event (both utility passes read it).
 * @internal
 * @example
 * import { systemPromptOf } from 'src/core/timeline/prompts.js';
 * systemPromptOf(modelEvent); // 'You are a helpful assistant.'
 */
export function systemPromptOf(event: ModelEvent): string | null {
  const cached = promptCache.get(event);
  if (cached !== undefined) return cached;
  let prompt: string | null = null;
  for (const msg of inputOf(event)) {
    if (msg !== null && typeof msg === 'object' && msg.role === 'system') {
      if (typeof msg.content === 'string') prompt = normalizeSystemPrompt(msg.content);
      else {
        // Parts without text (images, reasoning) are skipped; no text parts → no prompt.
        const raw = contentText(msg.content);
        prompt = raw === '' ? null : normalizeSystemPrompt(raw);
      }
      break;
    }
  }
  promptCache.set(event, prompt);
  return prompt;
}

/**
 * Whether the first choice of a model call's output requested tool calls.
 * @internal
 * @example
 * import { hasToolCalls } from 'src/core/timeline/prompts.js';
 * hasToolCalls(modelEvent); // true for an agent-loop turn
 */
export function hasToolCalls(event: ModelEvent): boolean {
  const choices = event.output?.choices;
  if (!Array.isArray(choices) || choices.length === 0) return false;
  const calls = choices[0]?.message?.tool_calls;
  return Array.isArray(calls) && calls.length > 0;
}

/**
 * A cache-priming warm-up call: `config.max_tokens` ≤ 1 and the last user
 * message is a plain string of at most one whitespace-separated word
 * (inspect_ai's `event/_timeline.py`). Independent of prompts.
 * @internal
 * @example
 * import { isWarmupCall } from 'src/core/timeline/prompts.js';
 * isWarmupCall(modelEvent); // true for max_tokens: 1, user: "hi"
 */
export function isWarmupCall(event: ModelEvent): boolean {
  const maxTokens = event.config?.max_tokens;
  if (typeof maxTokens !== 'number' || maxTokens > 1) return false;
  const input = inputOf(event);
  for (let i = input.length - 1; i >= 0; i--) {
    const msg = input[i];
    if (msg !== undefined && msg !== null && msg.role === 'user') {
      if (typeof msg.content !== 'string') return false;
      const words = msg.content.trim();
      // Python's str.split(): any run of whitespace separates words.
      return words === '' || !/\s/.test(words);
    }
  }
  return false;
}

/**
 * inspect's `_extract_tool_event_result`: a non-empty string result as is; a
 * list of parts → the `text` of those that have one, joined with "\n";
 * anything else (including a single part object) → `null`.
 * @internal
 * @example
 * import { toolResultText } from 'src/core/timeline/prompts.js';
 * toolResultText({ ...toolEvent, result: 'done' }); // 'done'
 */
export function toolResultText(event: ToolEvent): string | null {
  const result: unknown = event.result;
  if (typeof result === 'string') return result === '' ? null : result;
  if (Array.isArray(result)) {
    const parts: string[] = [];
    for (const item of result as unknown[]) {
      if (item !== null && typeof item === 'object' && 'text' in item) {
        const text = (item as { text?: unknown }).text;
        if (typeof text === 'string') parts.push(text);
      }
    }
    return parts.length > 0 ? parts.join('\n') : null;
  }
  return null;
}

/**
 * @internal Narrowing helpers.
 * @example
 * import { isModel } from 'src/core/timeline/prompts.js';
 * if (isModel(event)) event.model; // a ModelEvent
 */
export function isModel(event: Event): event is ModelEvent {
  return event.event === 'model';
}
/**
 * @internal
 * @example
 * import { isTool } from 'src/core/timeline/prompts.js';
 * if (isTool(event)) event.function; // a ToolEvent
 */
export function isTool(event: Event): event is ToolEvent {
  return event.event === 'tool';
}
