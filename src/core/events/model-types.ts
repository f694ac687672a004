// A model call's output, usage and config (inspect_ai's `model/_model_output.py`, `model/_generate_config.py`).

import type { JsonObject } from './content-types.js';
import type { ChatMessageAssistant } from './message-types.js';

// ---------------------------------------------------------------------------
// Model output
// ---------------------------------------------------------------------------

/**
 * Token usage of a model call. `input_tokens` excludes the cache read/write
 * counts (inspect_ai's `model/` and `tool/` types).
 *
 * @example
 * const usage: ModelUsage = { input_tokens: 97, output_tokens: 263, total_tokens: 16488, input_tokens_cache_read: 16128 };
 */
export interface ModelUsage {
  /**
   * The three counts default to 0 in inspect and its writer always emits them,
   * but hand-made fixtures omit some (often `total_tokens`) and the parser does
   * not invent them: read them with `?? 0`.
   */
  input_tokens?: number;
  /** Default 0. */
  output_tokens?: number;
  /** Default 0. */
  total_tokens?: number;
  input_tokens_cache_write?: number | null;
  input_tokens_cache_read?: number | null;
  reasoning_tokens?: number | null;
  total_cost?: number | null;
}

/**
 * Why the model stopped.
 *
 * @example
 * const r: StopReason = 'tool_calls';
 */
export type StopReason =
  | 'stop'
  | 'max_tokens'
  | 'model_length'
  | 'tool_calls'
  | 'content_filter'
  | 'unknown'
  | (string & {});

/**
 * Log probabilities of the output tokens (provider-shaped; kept as given).
 *
 * @example
 * const lp: Logprobs = { content: [{ token: 'Hi', logprob: -0.1, top_logprobs: [] }] };
 */
export interface Logprobs {
  content: Logprob[];
}

/**
 * The log probability of one token.
 *
 * @example
 * const lp: Logprob = { token: 'Hi', logprob: -0.1 };
 */
export interface Logprob {
  token: string;
  logprob: number;
  bytes?: number[] | null;
  top_logprobs?: { token: string; logprob: number; bytes?: number[] | null }[] | null;
}

/**
 * One choice of a model output.
 *
 * @example
 * const choice: ChatCompletionChoice = { message: { role: 'assistant', content: '4' }, stop_reason: 'stop' };
 */
export interface ChatCompletionChoice {
  message: ChatMessageAssistant;
  /** Default `'unknown'`. */
  stop_reason?: StopReason;
  stop_details?: string | null;
  logprobs?: Logprobs | null;
  prompt_logprobs?: unknown;
}

/**
 * The output of a model call.
 *
 * @example
 * const out: ModelOutput = {
 *   model: 'openai/gpt-5.4', completion: '4',
 *   choices: [{ message: { role: 'assistant', content: '4' }, stop_reason: 'stop' }],
 *   usage: { input_tokens: 10, output_tokens: 1, total_tokens: 11 },
 * };
 */
export interface ModelOutput {
  /** Default `''`. */
  model: string;
  choices: ChatCompletionChoice[];
  /** Text of choice 0 (default `''`). */
  completion: string;
  usage?: ModelUsage | null;
  /** Set when a fallback model produced the output. */
  fallback?: string | null;
  /** Seconds the call took. */
  time?: number | null;
  metadata?: JsonObject | null;
  error?: string | null;
}

/**
 * The raw provider request/response of a model call. When pooled, the
 * messages array is removed from `request` and referenced by `call_refs`
 * under `call_key` (inspect_ai's `condense_sample`).
 *
 * @example
 * const call: ModelCall = { request: { model: 'gpt-5.4', messages: [] }, response: { id: 'r1' }, time: 1.2 };
 */
export interface ModelCall {
  request: JsonObject;
  response?: JsonObject | null;
  /** A message in older logs, a flag in newer ones. */
  error?: string | boolean | null;
  time?: number | null;
  /** Half-open `[start, end)` ranges into the sample's call pool. */
  call_refs?: [number, number][] | null;
  /** The request key the pooled messages lived under (`messages`, `contents`, `input`, `inputs`). */
  call_key?: string | null;
}

/**
 * Generation options (about 40 optional knobs; usually `{}` or a few keys).
 *
 * @example
 * const config: GenerateConfig = { max_tokens: 4096, temperature: 0 };
 */
export interface GenerateConfig {
  max_retries?: number | null;
  timeout?: number | null;
  max_connections?: number | null;
  system_message?: string | null;
  max_tokens?: number | null;
  top_p?: number | null;
  temperature?: number | null;
  stop_seqs?: string[] | null;
  best_of?: number | null;
  frequency_penalty?: number | null;
  presence_penalty?: number | null;
  logit_bias?: Record<string, number> | null;
  seed?: number | null;
  top_k?: number | null;
  num_choices?: number | null;
  logprobs?: boolean | null;
  top_logprobs?: number | null;
  parallel_tool_calls?: boolean | null;
  internal_tools?: boolean | null;
  max_tool_output?: number | null;
  cache_prompt?: 'auto' | boolean | null;
  reasoning_effort?: string | null;
  reasoning_tokens?: number | null;
  reasoning_summary?: string | null;
  reasoning_history?: string | null;
  response_schema?: JsonObject | null;
  extra_body?: JsonObject | null;
  [key: string]: unknown;
}
