// AG-UI in React: subscribe to an `@ag-ui/client` agent (`HttpAgent`, or any
// `AbstractAgent`; the package is an optional peer — only its shape is used
// here) and render its runs with any skein view.
import { useEffect, useState } from 'react';
import { fromAgUi, type AgUiEventInput, type EventStream, type LiveAdapter } from '../../index.js';
import { nextFrame } from './frame.js';

/**
 * The part of an `@ag-ui/client` agent `useAgUiStream` uses: `subscribe` with
 * an `AgentSubscriber`, and the `messages` it already holds.
 *
 * @example
 * import { HttpAgent } from '@ag-ui/client';
 * const agent: AgUiAgentLike = new HttpAgent({ url: '/api/agent' });
 */
export interface AgUiAgentLike {
  subscribe(subscriber: {
    onEvent?(params: { event: AgUiEventInput }): unknown;
    onRunInitialized?(params: { input: unknown }): unknown;
  }): { unsubscribe(): void };
  readonly messages?: readonly unknown[];
}

/**
 * Options of {@link useAgUiStream}.
 *
 * @example
 * const options: UseAgUiStreamOptions = { history: false };
 */
export interface UseAgUiStreamOptions {
  /**
   * Show the messages the agent already holds when the hook subscribes (its
   * thread so far), as a `MESSAGES_SNAPSHOT` would. Default `true`.
   */
  history?: boolean;
}

/**
 * The runs of an AG-UI agent as an `EventStream`, live: every event the agent
 * receives from now on (and, by default, the thread it already holds) is
 * mapped by `fromAgUi` and appended once per frame — a message streamed token
 * by token is one row that grows. A run whose `RUN_STARTED` does not echo its
 * input gets the input the client sent (so the user's prompt shows). The same
 * stream for the same agent; a new agent, a new stream.
 *
 * @example
 * import { HttpAgent } from '@ag-ui/client';
 * const agent = new HttpAgent({ url: '/api/agent' });
 * function Run() {
 *   const stream = useAgUiStream(agent);
 *   return <Transcript stream={stream} />;
 * }
 */
export function useAgUiStream(
  agent: AgUiAgentLike | null | undefined,
  options: UseAgUiStreamOptions = {},
): EventStream {
  const history = options.history ?? true;
  // One adapter per agent, made during render (objects only, no effects) so
  // the first render already has the stream; subscribing waits for the effect.
  const [state, setState] = useState(() => ({ agent, adapter: newAdapter() }));
  let current = state;
  if (state.agent !== agent) {
    current = { agent, adapter: newAdapter() };
    setState(current);
  }
  const { adapter } = current;
  useEffect(() => {
    if (agent === null || agent === undefined) return undefined;
    let input: unknown;
    const push = (event: AgUiEventInput) => adapter.push(event);
    if (history && agent.messages !== undefined && agent.messages.length > 0)
      push({ type: 'MESSAGES_SNAPSHOT', messages: agent.messages as never });
    const subscription = agent.subscribe({
      onRunInitialized: ({ input: sent }) => {
        input = sent;
      },
      onEvent: ({ event }) => {
        if (event.type === 'RUN_STARTED' && event['input'] === undefined && input !== undefined)
          push({ ...event, input } as AgUiEventInput);
        else push(event);
      },
    });
    return () => subscription.unsubscribe();
  }, [agent, adapter, history]);
  return adapter.stream;
}

function newAdapter(): LiveAdapter<AgUiEventInput> {
  return fromAgUi({ schedule: nextFrame, closeOnEnd: false });
}
