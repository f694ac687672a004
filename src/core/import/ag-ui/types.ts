// The AG-UI event protocol (https://docs.ag-ui.com/concepts/events), version
// 1.0 as `@ag-ui/core` 1.0.0 defines it (`src/generated/types.ts`), mirrored
// as local types so that the core imports nothing from `@ag-ui/*` at run time
// or in its declarations. `test/core/ag-ui-types.test.ts` checks that every
// event of the real package is assignable to {@link AgUiEvent}. The deprecated
// `THINKING_*` events (protocol 0.0.45 and before) are included: recordings
// of older agents have them.

/** Extra information on an event or a message: any JSON under any key. @example const m: AgUiMetadata = { tag: 1 }; */
export type AgUiMetadata = Record<string, unknown>;

/** Fields every AG-UI event carries. @example const b: AgUiBase = { timestamp: 1767225600000 }; */
export interface AgUiBase {
  /** Epoch milliseconds, by every SDK's convention (the protocol leaves the unit open). */
  timestamp?: number;
  /** The provider-native event this one was translated from. */
  rawEvent?: unknown;
  metadata?: AgUiMetadata;
}

/** Fields of events a subagent may produce. @example const a: AgUiAttributed = { subagentRunId: 's1' }; */
export interface AgUiAttributed extends AgUiBase {
  /** The subagent invocation this belongs to; absent means the parent agent. */
  subagentRunId?: string;
}

/** A content part of a user or tool message. @example const p: AgUiContentPart = { type: 'text', text: 'hi' }; */
export type AgUiContentPart =
  | { type: 'text'; text: string; id?: string; metadata?: unknown }
  | {
      type: 'image' | 'audio' | 'video' | 'document';
      source: AgUiPartSource;
      id?: string;
      metadata?: unknown;
    };

/** Where a media part's bytes are. @example const s: AgUiPartSource = { type: 'url', value: 'https://x/y.png' }; */
export type AgUiPartSource =
  | { type: 'data'; value: string; mimeType: string }
  | { type: 'url'; value: string; mimeType?: string }
  | { type: 'file'; value: string; provider?: string; mimeType?: string };

/** A tool call inside an assistant message. @example const c: AgUiToolCall = { id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }; */
export interface AgUiToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
  encryptedValue?: string;
  metadata?: AgUiMetadata;
}

/** A materialised message (`MESSAGES_SNAPSHOT`, `RunAgentInput.messages`). @example const m: AgUiMessage = { id: 'u1', role: 'user', content: 'hi' }; */
export type AgUiMessage =
  | {
      id: string;
      role: 'developer' | 'system';
      content: string;
      name?: string;
      subagentRunId?: string;
      encryptedValue?: string;
      metadata?: AgUiMetadata;
    }
  | {
      id: string;
      role: 'assistant';
      content?: string;
      toolCalls?: AgUiToolCall[];
      name?: string;
      subagentRunId?: string;
      encryptedValue?: string;
      metadata?: AgUiMetadata;
    }
  | {
      id: string;
      role: 'user';
      content: string | AgUiContentPart[];
      name?: string;
      subagentRunId?: string;
      encryptedValue?: string;
      metadata?: AgUiMetadata;
    }
  | {
      id: string;
      role: 'tool';
      content: string | AgUiContentPart[];
      toolCallId: string;
      error?: string;
      subagentRunId?: string;
      encryptedValue?: string;
      metadata?: AgUiMetadata;
    }
  | {
      id: string;
      role: 'activity';
      activityType: string;
      content: Record<string, unknown>;
      subagentRunId?: string;
      metadata?: AgUiMetadata;
    }
  | {
      id: string;
      role: 'reasoning';
      content: string;
      subagentRunId?: string;
      encryptedValue?: string;
      metadata?: AgUiMetadata;
    };

/** One JSON Patch operation (RFC 6902). @example const op: AgUiPatchOperation = { op: 'add', path: '/a', value: 1 }; */
export type AgUiPatchOperation =
  | { op: 'add' | 'replace' | 'test'; path: string; value: unknown }
  | { op: 'remove'; path: string }
  | { op: 'move' | 'copy'; from: string; path: string };

/** Token counts for one provider and model. @example const u: AgUiTokenUsage = { model: 'gpt', inputTokens: 10, outputTokens: 2 }; */
export interface AgUiTokenUsage {
  provider?: string;
  model?: string;
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
  reasoningTokens?: number;
  cachedInputTokens?: number;
  cacheWriteInputTokens?: number;
}

/** Something a run waits for. @example const i: AgUiInterrupt = { id: 'i1', reason: 'approval', toolCallId: 'c1' }; */
export interface AgUiInterrupt {
  id: string;
  reason: string;
  message?: string;
  toolCallId?: string;
  responseSchema?: Record<string, unknown>;
  expiresAt?: string;
  subagentRunId?: string;
  metadata?: AgUiMetadata;
}

/** Why a run ended; absent means success. @example const o: AgUiRunOutcome = { type: 'cancelled' }; */
export type AgUiRunOutcome =
  | { type: 'success'; pendingToolCallIds?: string[] }
  | { type: 'interrupt'; interrupts: AgUiInterrupt[] }
  | { type: 'cancelled' };

/** The request a run was started from. @example const i: AgUiRunInput = { threadId: 't', runId: 'r', messages: [], tools: [], context: [] }; */
export interface AgUiRunInput {
  threadId: string;
  runId: string;
  protocolVersion?: string;
  parentRunId?: string;
  state?: unknown;
  messages: AgUiMessage[];
  tools: { name: string; description: string; parameters?: unknown; metadata?: AgUiMetadata }[];
  context: { description: string; value: string }[];
  forwardedProps?: unknown;
  resume?: {
    interruptId: string;
    status: 'resolved' | 'cancelled';
    payload?: unknown;
    metadata?: AgUiMetadata;
  }[];
}

/**
 * Every AG-UI event, discriminated by `type`.
 *
 * @example
 * const e: AgUiEvent = { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm1', delta: 'Hel' };
 */
export type AgUiEvent =
  | (AgUiAttributed & {
      type: 'TEXT_MESSAGE_START';
      messageId: string;
      role?: 'developer' | 'system' | 'assistant' | 'user';
      name?: string;
    })
  | (AgUiAttributed & { type: 'TEXT_MESSAGE_CONTENT'; messageId: string; delta: string })
  | (AgUiAttributed & { type: 'TEXT_MESSAGE_END'; messageId: string })
  | (AgUiAttributed & {
      type: 'TEXT_MESSAGE_CHUNK';
      messageId?: string;
      role?: 'developer' | 'system' | 'assistant' | 'user';
      delta?: string;
      name?: string;
    })
  | (AgUiAttributed & {
      type: 'TOOL_CALL_START';
      toolCallId: string;
      toolCallName: string;
      parentMessageId?: string;
    })
  | (AgUiAttributed & { type: 'TOOL_CALL_ARGS'; toolCallId: string; delta: string })
  | (AgUiAttributed & { type: 'TOOL_CALL_END'; toolCallId: string })
  | (AgUiAttributed & {
      type: 'TOOL_CALL_CHUNK';
      toolCallId?: string;
      toolCallName?: string;
      parentMessageId?: string;
      delta?: string;
    })
  | (AgUiAttributed & {
      type: 'TOOL_CALL_RESULT';
      messageId: string;
      toolCallId: string;
      content: string | AgUiContentPart[];
      role?: 'tool';
    })
  | (AgUiAttributed & { type: 'STATE_SNAPSHOT'; snapshot: unknown })
  | (AgUiAttributed & { type: 'STATE_DELTA'; delta: AgUiPatchOperation[] })
  | (AgUiBase & { type: 'MESSAGES_SNAPSHOT'; messages: AgUiMessage[] })
  | (AgUiAttributed & {
      type: 'ACTIVITY_SNAPSHOT';
      messageId: string;
      activityType: string;
      content: Record<string, unknown>;
      replace?: boolean;
    })
  | (AgUiAttributed & {
      type: 'ACTIVITY_DELTA';
      messageId: string;
      activityType: string;
      patch: AgUiPatchOperation[];
    })
  | (AgUiAttributed & { type: 'RAW'; event: unknown; source?: string })
  | (AgUiAttributed & { type: 'CUSTOM'; name: string; value: unknown })
  | (AgUiBase & {
      type: 'RUN_STARTED';
      threadId: string;
      runId: string;
      protocolVersion?: string;
      parentRunId?: string;
      input?: AgUiRunInput;
    })
  | (AgUiBase & {
      type: 'RUN_FINISHED';
      threadId: string;
      runId: string;
      result?: unknown;
      outcome?: AgUiRunOutcome;
      usage?: AgUiTokenUsage[];
    })
  | (AgUiBase & { type: 'RUN_ERROR'; message: string; code?: string; usage?: AgUiTokenUsage[] })
  | (AgUiAttributed & { type: 'STEP_STARTED'; stepName: string })
  | (AgUiAttributed & { type: 'STEP_FINISHED'; stepName: string })
  | (AgUiAttributed & { type: 'REASONING_START'; messageId: string })
  | (AgUiAttributed & { type: 'REASONING_MESSAGE_START'; messageId: string; role: 'reasoning' })
  | (AgUiAttributed & { type: 'REASONING_MESSAGE_CONTENT'; messageId: string; delta: string })
  | (AgUiAttributed & { type: 'REASONING_MESSAGE_END'; messageId: string })
  | (AgUiAttributed & { type: 'REASONING_MESSAGE_CHUNK'; messageId?: string; delta?: string })
  | (AgUiAttributed & { type: 'REASONING_END'; messageId: string })
  | (AgUiAttributed & {
      type: 'REASONING_ENCRYPTED_VALUE';
      subtype: 'tool-call' | 'message';
      entityId: string;
      encryptedValue: string;
    })
  | (AgUiBase & {
      type: 'SUBAGENT_STARTED';
      subagentRunId: string;
      name: string;
      description?: string;
      parentSubagentRunId?: string;
      parentToolCallId?: string;
      parentMessageId?: string;
    })
  | (AgUiBase & {
      type: 'SUBAGENT_FINISHED';
      subagentRunId: string;
      result?: unknown;
      outcome?: { type: 'success' } | { type: 'suspended'; interruptIds?: string[] };
    })
  | (AgUiBase & { type: 'SUBAGENT_ERROR'; subagentRunId: string; message: string; code?: string })
  | (AgUiBase & { type: 'THINKING_START'; title?: string })
  | (AgUiBase & { type: 'THINKING_END' })
  | (AgUiBase & { type: 'THINKING_TEXT_MESSAGE_START' })
  | (AgUiBase & { type: 'THINKING_TEXT_MESSAGE_CONTENT'; delta: string })
  | (AgUiBase & { type: 'THINKING_TEXT_MESSAGE_END' });

/**
 * What the adapters accept: an {@link AgUiEvent}, or any object with a string
 * `type` (an event of a newer protocol, kept as `info`).
 *
 * @example
 * const e: AgUiEventInput = { type: 'FUTURE_EVENT', payload: 1 };
 */
export type AgUiEventInput = AgUiEvent | { type: string; [key: string]: unknown };
