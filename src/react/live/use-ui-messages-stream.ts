// The Vercel AI SDK in React: `useChat`'s `messages` (from `@ai-sdk/react`,
// not needed here: only the messages' shape is read) as an `EventStream` for
// any skein view.
import { useEffect, useState } from 'react';
import { fromUIMessages, type EventStream, type UIMessage } from '../../index.js';
import { nextFrame } from './frame.js';

/**
 * Options of {@link useUIMessagesStream}.
 *
 * @example
 * const options: UseUIMessagesStreamOptions = { status: 'streaming' };
 */
export interface UseUIMessagesStreamOptions {
  /**
   * `useChat`'s `status`: while `submitted` or `streaming`, the last message
   * is still being written (its rows stay in flight). Default `ready`.
   */
  status?: 'submitted' | 'streaming' | 'ready' | 'error';
}

/**
 * `useChat`'s messages as an `EventStream`, kept up to date incrementally: a
 * render with new messages touches only the messages that changed (the
 * others are the same objects and are skipped), and in the one being
 * streamed only the parts that changed — a new token re-emits its one text
 * event, once per frame. The run is never rebuilt.
 *
 * @example
 * import { useChat } from '@ai-sdk/react';
 * function Chat() {
 *   const { messages, status } = useChat();
 *   const stream = useUIMessagesStream(messages, { status });
 *   return <Transcript stream={stream} />;
 * }
 */
export function useUIMessagesStream(
  messages: readonly UIMessage[] | readonly unknown[],
  options: UseUIMessagesStreamOptions = {},
): EventStream {
  const [adapter] = useState(() => fromUIMessages({ schedule: nextFrame, closeOnEnd: false }));
  const streaming = options.status === 'streaming' || options.status === 'submitted';
  useEffect(() => {
    adapter.update(messages, { streaming });
  }, [adapter, messages, streaming]);
  return adapter.stream;
}
