// The Vercel AI SDK's UI message stream and UI messages (`ai` 5, 6 and 7:
// https://ai-sdk.dev/docs/ai-sdk-ui/stream-protocol; `UIMessageChunk` and
// `UIMessage` in `ai`'s `dist/index.d.ts`), mirrored as local types so the
// core imports nothing from `ai` at run time or in its declarations.
// `test/core/vercel-ai-types.test.ts` checks that the installed package's
// `UIMessageChunk` and `UIMessage` are assignable to these.

/** Provider-specific data on a chunk or part. @example const m: VercelProviderMetadata = { openai: { id: 'x' } }; */
export type VercelProviderMetadata = Record<string, Record<string, unknown>>;

/**
 * One chunk of a UI message stream (what `toUIMessageStream()` yields and
 * `useChat` reads). Chunk types of later versions are accepted by the
 * adapters as `{ type: string }` and kept.
 *
 * @example
 * const c: UIMessageChunk = { type: 'text-delta', id: 't0', delta: 'Hel' };
 */
export type UIMessageChunk =
  | { type: 'text-start'; id: string; providerMetadata?: VercelProviderMetadata }
  | { type: 'text-delta'; id: string; delta: string; providerMetadata?: VercelProviderMetadata }
  | { type: 'text-end'; id: string; providerMetadata?: VercelProviderMetadata }
  | { type: 'reasoning-start'; id: string; providerMetadata?: VercelProviderMetadata }
  | {
      type: 'reasoning-delta';
      id: string;
      delta: string;
      providerMetadata?: VercelProviderMetadata;
    }
  | { type: 'reasoning-end'; id: string; providerMetadata?: VercelProviderMetadata }
  | { type: 'error'; errorText: string }
  | {
      type: 'tool-input-start';
      toolCallId: string;
      toolName: string;
      providerExecuted?: boolean;
      providerMetadata?: VercelProviderMetadata;
      dynamic?: boolean;
      title?: string;
    }
  | { type: 'tool-input-delta'; toolCallId: string; inputTextDelta: string }
  | {
      type: 'tool-input-available';
      toolCallId: string;
      toolName: string;
      input: unknown;
      providerExecuted?: boolean;
      providerMetadata?: VercelProviderMetadata;
      dynamic?: boolean;
      title?: string;
    }
  | {
      type: 'tool-input-error';
      toolCallId: string;
      toolName: string;
      input: unknown;
      errorText: string;
      providerExecuted?: boolean;
      providerMetadata?: VercelProviderMetadata;
      dynamic?: boolean;
      title?: string;
    }
  | { type: 'tool-approval-request'; approvalId: string; toolCallId: string }
  | {
      type: 'tool-output-available';
      toolCallId: string;
      output: unknown;
      providerExecuted?: boolean;
      dynamic?: boolean;
      preliminary?: boolean;
    }
  | {
      type: 'tool-output-error';
      toolCallId: string;
      errorText: string;
      providerExecuted?: boolean;
      dynamic?: boolean;
    }
  | { type: 'tool-output-denied'; toolCallId: string }
  | {
      type: 'source-url';
      sourceId: string;
      url: string;
      title?: string;
      providerMetadata?: VercelProviderMetadata;
    }
  | {
      type: 'source-document';
      sourceId: string;
      mediaType: string;
      title: string;
      filename?: string;
      providerMetadata?: VercelProviderMetadata;
    }
  | { type: 'file'; url: string; mediaType: string; providerMetadata?: VercelProviderMetadata }
  | { type: `data-${string}`; id?: string; data: unknown; transient?: boolean }
  | { type: 'start-step' }
  | { type: 'finish-step' }
  | { type: 'start'; messageId?: string; messageMetadata?: unknown }
  | { type: 'finish'; finishReason?: string; messageMetadata?: unknown }
  | { type: 'abort'; reason?: string }
  | { type: 'message-metadata'; messageMetadata: unknown };

/**
 * What the stream adapter accepts: a {@link UIMessageChunk}, or any object
 * with a string `type` (a chunk of a later version, kept as `info`).
 *
 * @example
 * const c: UIMessageChunkInput = { type: 'reset-step' };
 */
export type UIMessageChunkInput = UIMessageChunk | { type: string; [key: string]: unknown };

/** The state of a tool part. @example const s: UIToolState = 'output-available'; */
export type UIToolState =
  | 'input-streaming'
  | 'input-available'
  | 'approval-requested'
  | 'approval-responded'
  | 'output-available'
  | 'output-error'
  | 'output-denied';

/**
 * A tool part: `tool-<name>` (a static tool) or `dynamic-tool`.
 *
 * @example
 * const p: UIToolPart = { type: 'tool-weather', toolCallId: 'c1', state: 'input-available', input: { city: 'Oslo' } };
 */
export interface UIToolPart {
  type: `tool-${string}` | 'dynamic-tool';
  toolCallId: string;
  toolName?: string;
  state: UIToolState | (string & {});
  input?: unknown;
  output?: unknown;
  errorText?: string;
  rawInput?: unknown;
  providerExecuted?: boolean;
  preliminary?: boolean;
  title?: string;
  approval?: { id: string; approved?: boolean; reason?: string };
  callProviderMetadata?: VercelProviderMetadata;
}

/**
 * One part of a UI message.
 *
 * @example
 * const p: UIMessagePart = { type: 'text', text: 'Hello', state: 'done' };
 */
export type UIMessagePart =
  | {
      type: 'text';
      text: string;
      state?: 'streaming' | 'done';
      providerMetadata?: VercelProviderMetadata;
    }
  | {
      type: 'reasoning';
      text: string;
      state?: 'streaming' | 'done';
      providerMetadata?: VercelProviderMetadata;
    }
  | UIToolPart
  | {
      type: 'source-url';
      sourceId: string;
      url: string;
      title?: string;
      providerMetadata?: VercelProviderMetadata;
    }
  | {
      type: 'source-document';
      sourceId: string;
      mediaType: string;
      title: string;
      filename?: string;
      providerMetadata?: VercelProviderMetadata;
    }
  | {
      type: 'file';
      mediaType: string;
      filename?: string;
      url: string;
      providerMetadata?: VercelProviderMetadata;
    }
  | { type: `data-${string}`; id?: string; data: unknown }
  | { type: 'step-start' };

/**
 * A UI message, as `useChat` keeps it and apps persist it.
 *
 * @example
 * const m: UIMessage = { id: 'm1', role: 'user', parts: [{ type: 'text', text: 'Hi' }] };
 */
export interface UIMessage {
  id: string;
  role: 'system' | 'user' | 'assistant';
  metadata?: unknown;
  parts: UIMessagePart[] | readonly { type: string }[];
}
