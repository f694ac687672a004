import type { Meta, StoryObj } from '@storybook/react-vite';
import { useChat } from '@ai-sdk/react';
import {
  simulateReadableStream,
  stepCountIs,
  streamText,
  tool,
  type ChatTransport,
  type UIMessage,
} from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { useState, type FormEvent } from 'react';
import { expect, waitFor, within } from 'storybook/test';
import { z } from 'zod';
import { Transcript, useUIMessagesStream } from '../src/react.js';
import { playLiveRun } from './live-run-play.js';

const meta = {
  title: 'Sources/Vercel AI SDK',
  component: Transcript,
  // The transcript it draws is checked in both themes by the Views stories;
  // a second pass here would replay the whole run again.
  tags: ['light-only'],
  parameters: { layout: 'fullscreen' },
} satisfies Meta<typeof Transcript>;

export default meta;
type Story = StoryObj<typeof meta>;

const usage = {
  inputTokens: { total: 40, noCache: 40, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 30, text: 30, reasoning: 0 },
};

/** The AI SDK's mock model: a tool call, then an answer streamed word by word. */
function model() {
  let call = 0;
  return new MockLanguageModelV3({
    doStream: async () => {
      call++;
      const words =
        'The forecast says sunny skies over Oslo all week, about 21 °C.\n\nEnjoy the fjord!'.split(
          /(?<= )/,
        );
      const chunks: unknown[] =
        call % 2 === 1
          ? [
              { type: 'stream-start', warnings: [] },
              { type: 'reasoning-start', id: 'r' },
              { type: 'reasoning-delta', id: 'r', delta: 'I should look up the forecast.' },
              { type: 'reasoning-end', id: 'r' },
              { type: 'tool-input-start', id: `c${call}`, toolName: 'forecast' },
              { type: 'tool-input-delta', id: `c${call}`, delta: '{"city":"Oslo"}' },
              { type: 'tool-input-end', id: `c${call}` },
              {
                type: 'tool-call',
                toolCallId: `c${call}`,
                toolName: 'forecast',
                input: '{"city":"Oslo"}',
              },
              { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage },
            ]
          : [
              { type: 'stream-start', warnings: [] },
              { type: 'text-start', id: 't' },
              ...words.map((delta) => ({ type: 'text-delta', id: 't', delta })),
              { type: 'text-end', id: 't' },
              { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
            ];
      return { stream: simulateReadableStream({ chunks: chunks as never[], chunkDelayInMs: 45 }) };
    },
  });
}

/**
 * `useChat`'s transport, served in the page: `streamText` on the mock model
 * with a real tool, sent as its UI message stream (`toUIMessageStream`), as a
 * route handler would send it.
 */
function transport(): ChatTransport<UIMessage> {
  const mock = model();
  return {
    sendMessages: async ({ messages }) =>
      streamText({
        model: mock,
        prompt: 'Weather in Oslo?',
        stopWhen: stepCountIs(3),
        tools: {
          forecast: tool({
            description: 'The forecast for a city',
            inputSchema: z.object({ city: z.string() }),
            execute: async ({ city }) => ({ city, sky: 'sunny', celsius: 21 }),
          }),
        },
      }).toUIMessageStream({ originalMessages: messages, sendReasoning: true }),
    reconnectToStream: async () => null,
  };
}

function LiveChat() {
  const [chatTransport] = useState(transport);
  const { messages, status, sendMessage } = useChat({ transport: chatTransport });
  const stream = useUIMessagesStream(messages, { status });
  const [text, setText] = useState('How is the weather in Oslo this week?');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void sendMessage({ text });
  };
  return (
    <div style={{ display: 'grid', gridTemplateRows: 'auto 1fr', gap: 8, height: 600 }}>
      <form onSubmit={submit} style={{ display: 'flex', flexWrap: 'wrap', gap: 8 }}>
        <label>
          Message{' '}
          <input
            value={text}
            onChange={(e) => setText(e.target.value)}
            style={{ width: 'min(24rem, 80vw)' }}
          />
        </label>
        <button type="submit" disabled={status === 'streaming' || status === 'submitted'}>
          Send
        </button>
        <span role="status">{status}</span>
      </form>
      <Transcript stream={stream} aria-label="Chat run" />
    </div>
  );
}

/**
 * A live chat arriving: `useChat` (from `@ai-sdk/react`) with its `messages`
 * turned into a stream by `useUIMessagesStream` — each token grows one row,
 * the tool call shows with its input and output, steps are spans.
 */
export const LiveChatRun: Story = {
  args: { events: [] },
  render: () => <LiveChat />,
  play: async ({ canvasElement }) => {
    await playLiveRun(canvasElement, {
      button: 'Send',
      feed: 'Chat run',
      texts: ['How is the weather in Oslo', 'forecast', 'Enjoy the fjord'],
    });
    const status = within(canvasElement).getByRole('status');
    await waitFor(() => expect(status.textContent).toBe('ready'));
  },
};
