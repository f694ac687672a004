// AG-UI runs for tests, fuzz seeds and benches, written as `@ag-ui/core`
// events and validated by its own schemas (`EventSchema`): every input the
// AG-UI tests feed skein is one the protocol's reference package accepts.
import type { BaseEvent, Message, RunAgentInput } from '@ag-ui/core';
import { EventSchema } from '@ag-ui/core/schemas';

/** Checks every event against `@ag-ui/core`'s schema (throws its ZodError); returns them. */
export function validAgUi<T extends readonly object[]>(events: T): T {
  for (const e of events) EventSchema.parse(e);
  return events;
}

/** Options of {@link agUiRun}. */
export interface AgUiRunOptions {
  threadId?: string;
  runId?: string;
  /** Tokens of the streamed answer (default 6). */
  tokens?: number;
  /** Tool calls (default 1): streamed arguments, then a result. */
  tools?: number;
  /** Epoch ms of the first event; `undefined` leaves every event undated. */
  start?: number;
  /** Date the `*_CHUNK` events too (`@ag-ui/client` drops their time when it expands them). */
  dateChunks?: boolean;
  /** The thread's messages before this run (its input echo). */
  history?: Message[];
  /** How the run ends (default success). */
  outcome?: 'success' | 'interrupt' | 'cancelled' | 'error';
}

/**
 * A realistic run: a step holding reasoning, a streamed answer, tool calls
 * with streamed arguments and results, state (snapshot and patches), an
 * activity, chunked text and tool calls, custom and raw events, a messages
 * snapshot, and the run's end with usage.
 *
 * @example
 * const events = agUiRun({ tokens: 20, start: 1767225600000 });
 */
export function agUiRun(options: AgUiRunOptions = {}): BaseEvent[] {
  const threadId = options.threadId ?? 'thread-1';
  const runId = options.runId ?? 'run-1';
  const tokens = options.tokens ?? 6;
  const tools = options.tools ?? 1;
  let t = options.start;
  const at = (): { timestamp?: number } => (t === undefined ? {} : { timestamp: (t += 7) });
  const chunkAt = () => (options.dateChunks === true ? at() : {});
  const question: Message = {
    id: `${runId}-user`,
    role: 'user',
    content: 'How is the weather in Oslo?',
  };
  const input: RunAgentInput = {
    threadId,
    runId,
    state: {},
    messages: [...(options.history ?? []), question],
    tools: [
      { name: 'weather', description: 'Current weather of a city', parameters: { type: 'object' } },
    ],
    context: [],
    forwardedProps: {},
  };
  const answer = `${runId}-answer`;
  const e: BaseEvent[] = [];
  e.push({ type: 'RUN_STARTED', threadId, runId, input, ...at() } as BaseEvent);
  e.push({ type: 'STEP_STARTED', stepName: 'plan', ...at() } as BaseEvent);
  e.push({ type: 'REASONING_START', messageId: `${runId}-reasoning`, ...at() } as BaseEvent);
  e.push({
    type: 'REASONING_MESSAGE_START',
    messageId: `${runId}-thought`,
    role: 'reasoning',
    ...at(),
  } as BaseEvent);
  e.push({
    type: 'REASONING_MESSAGE_CONTENT',
    messageId: `${runId}-thought`,
    delta: 'The user wants weather; ',
    ...at(),
  } as BaseEvent);
  e.push({
    type: 'REASONING_MESSAGE_CONTENT',
    messageId: `${runId}-thought`,
    delta: 'call the tool.',
    ...at(),
  } as BaseEvent);
  e.push({ type: 'REASONING_MESSAGE_END', messageId: `${runId}-thought`, ...at() } as BaseEvent);
  e.push({ type: 'REASONING_END', messageId: `${runId}-reasoning`, ...at() } as BaseEvent);
  e.push({
    type: 'STATE_SNAPSHOT',
    snapshot: { city: 'Oslo', calls: 0, log: [] },
    ...at(),
  } as BaseEvent);
  e.push({
    type: 'TEXT_MESSAGE_START',
    messageId: answer,
    role: 'assistant',
    ...at(),
  } as BaseEvent);
  for (let k = 0; k < tokens; k++)
    e.push({
      type: 'TEXT_MESSAGE_CONTENT',
      messageId: answer,
      delta: `word${k} `,
      ...at(),
    } as BaseEvent);
  e.push({ type: 'TEXT_MESSAGE_END', messageId: answer, ...at() } as BaseEvent);
  for (let c = 0; c < tools; c++) {
    const id = `${runId}-call-${c}`;
    e.push({
      type: 'TOOL_CALL_START',
      toolCallId: id,
      toolCallName: 'weather',
      parentMessageId: answer,
      ...at(),
    } as BaseEvent);
    e.push({ type: 'TOOL_CALL_ARGS', toolCallId: id, delta: '{"city":', ...at() } as BaseEvent);
    e.push({
      type: 'TOOL_CALL_ARGS',
      toolCallId: id,
      delta: `"Oslo","day":${c}}`,
      ...at(),
    } as BaseEvent);
    e.push({ type: 'TOOL_CALL_END', toolCallId: id, ...at() } as BaseEvent);
    e.push({
      type: 'TOOL_CALL_RESULT',
      messageId: `${id}-result`,
      toolCallId: id,
      content: `Sunny, ${20 + c}°C`,
      role: 'tool',
      ...at(),
    } as BaseEvent);
    e.push({
      type: 'STATE_DELTA',
      delta: [
        { op: 'replace', path: '/calls', value: c + 1 },
        { op: 'add', path: '/log/-', value: id },
      ],
      ...at(),
    } as BaseEvent);
  }
  e.push({ type: 'STEP_FINISHED', stepName: 'plan', ...at() } as BaseEvent);
  e.push({
    type: 'ACTIVITY_SNAPSHOT',
    messageId: `${runId}-plan`,
    activityType: 'PLAN',
    content: { steps: ['look up', 'answer'], done: 0 },
    ...at(),
  } as BaseEvent);
  e.push({
    type: 'ACTIVITY_DELTA',
    messageId: `${runId}-plan`,
    activityType: 'PLAN',
    patch: [{ op: 'replace', path: '/done', value: 2 }],
    ...at(),
  } as BaseEvent);
  const summary = `${runId}-summary`;
  e.push({
    type: 'TEXT_MESSAGE_CHUNK',
    messageId: summary,
    role: 'assistant',
    delta: 'In short: ',
    ...chunkAt(),
  } as BaseEvent);
  e.push({ type: 'TEXT_MESSAGE_CHUNK', delta: 'sunny.', ...chunkAt() } as BaseEvent);
  e.push({
    type: 'TOOL_CALL_CHUNK',
    toolCallId: `${runId}-notify`,
    toolCallName: 'notify',
    parentMessageId: summary,
    delta: '{"to":',
    ...chunkAt(),
  } as BaseEvent);
  e.push({ type: 'TOOL_CALL_CHUNK', delta: '"user"}', ...chunkAt() } as BaseEvent);
  e.push({ type: 'CUSTOM', name: 'progress', value: { percent: 100 }, ...at() } as BaseEvent);
  e.push({
    type: 'RAW',
    event: { provider: 'openai', id: 'resp_1' },
    source: 'openai',
    ...at(),
  } as BaseEvent);
  const text = Array.from({ length: tokens }, (_, k) => `word${k} `).join('');
  e.push({
    type: 'MESSAGES_SNAPSHOT',
    messages: [
      ...input.messages,
      {
        id: answer,
        role: 'assistant',
        content: text,
        toolCalls: Array.from({ length: tools }, (_, c) => ({
          id: `${runId}-call-${c}`,
          type: 'function' as const,
          function: { name: 'weather', arguments: `{"city":"Oslo","day":${c}}` },
        })),
      },
      ...Array.from({ length: tools }, (_, c) => ({
        id: `${runId}-call-${c}-result`,
        role: 'tool' as const,
        toolCallId: `${runId}-call-${c}`,
        content: `Sunny, ${20 + c}°C`,
      })),
      { id: summary, role: 'assistant', content: 'In short: sunny.' },
    ],
    ...at(),
  } as BaseEvent);
  const outcome = options.outcome ?? 'success';
  if (outcome === 'error')
    e.push({
      type: 'RUN_ERROR',
      message: 'The model provider failed',
      code: 'provider_error',
      ...at(),
    } as BaseEvent);
  else
    e.push({
      type: 'RUN_FINISHED',
      threadId,
      runId,
      ...(outcome === 'interrupt'
        ? {
            outcome: {
              type: 'interrupt',
              interrupts: [
                {
                  id: 'approve-1',
                  reason: 'tool_approval',
                  toolCallId: `${runId}-notify`,
                  message: 'Send it?',
                },
              ],
            },
          }
        : outcome === 'cancelled'
          ? { outcome: { type: 'cancelled' } }
          : { outcome: { type: 'success' }, result: { answer: 'sunny' } }),
      usage: [
        {
          provider: 'openai',
          model: 'gpt-5.4',
          inputTokens: 120,
          outputTokens: 40,
          totalTokens: 160,
        },
      ],
      ...at(),
    } as BaseEvent);
  return validAgUi(e);
}
