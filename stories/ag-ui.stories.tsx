import type { Meta, StoryObj } from '@storybook/react-vite';
import { HttpAgent } from '@ag-ui/client';
import type { BaseEvent, RunAgentInput } from '@ag-ui/core';
import { EventEncoder } from '@ag-ui/encoder';
import { useState } from 'react';
import { playLiveRun } from './live-run-play.js';
import { Transcript, useAgUiStream } from '../src/react.js';

const meta = {
  title: 'Sources/AG-UI',
  component: Transcript,
  // The transcript it draws is checked in both themes by the Views stories;
  // a second pass here would replay the whole run again.
  tags: ['light-only'],
  parameters: { layout: 'fullscreen' },
} satisfies Meta<typeof Transcript>;

export default meta;
type Story = StoryObj<typeof meta>;

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * An AG-UI agent in the page: the real `@ag-ui/client` `HttpAgent`, whose
 * `fetch` is answered by a mock server writing a run with `@ag-ui/encoder`
 * (Server-Sent Events) over time — a step, reasoning, an answer token by
 * token, a tool call with streamed arguments, state updates, the run's end.
 */
function mockAgent(): HttpAgent {
  const encoder = new EventEncoder();
  const bytes = new TextEncoder();
  const run = (input: RunAgentInput) =>
    new ReadableStream<Uint8Array>({
      async start(c) {
        const send = (e: object) => c.enqueue(bytes.encode(encoder.encode(e as BaseEvent)));
        const { threadId, runId } = input;
        const answer = `${runId}-answer`;
        send({ type: 'RUN_STARTED', threadId, runId, input, timestamp: Date.now() });
        send({ type: 'STEP_STARTED', stepName: 'research', timestamp: Date.now() });
        send({ type: 'REASONING_MESSAGE_START', messageId: `${runId}-thought`, role: 'reasoning' });
        send({
          type: 'REASONING_MESSAGE_CONTENT',
          messageId: `${runId}-thought`,
          delta: 'Check the forecast first.',
        });
        send({ type: 'REASONING_MESSAGE_END', messageId: `${runId}-thought` });
        const call = `${runId}-call`;
        send({
          type: 'TOOL_CALL_START',
          toolCallId: call,
          toolCallName: 'forecast',
          timestamp: Date.now(),
        });
        for (const part of ['{"city":', '"Oslo",', '"days":3}']) {
          await pause(120);
          send({ type: 'TOOL_CALL_ARGS', toolCallId: call, delta: part });
        }
        send({ type: 'TOOL_CALL_END', toolCallId: call });
        await pause(300);
        send({
          type: 'TOOL_CALL_RESULT',
          messageId: `${call}-result`,
          toolCallId: call,
          content: 'Sunny, 21°C, light wind',
          timestamp: Date.now(),
        });
        send({
          type: 'STATE_SNAPSHOT',
          snapshot: { city: 'Oslo', forecasts: 1 },
          timestamp: Date.now(),
        });
        send({ type: 'STEP_FINISHED', stepName: 'research', timestamp: Date.now() });
        send({
          type: 'TEXT_MESSAGE_START',
          messageId: answer,
          role: 'assistant',
          timestamp: Date.now(),
        });
        const words =
          'In **Oslo** it will be sunny for the next three days, around 21 °C with a light wind.\n\nA good week for a walk by the fjord.'.split(
            /(?<= )/,
          );
        for (const word of words) {
          await pause(40);
          send({
            type: 'TEXT_MESSAGE_CONTENT',
            messageId: answer,
            delta: word,
            timestamp: Date.now(),
          });
        }
        send({ type: 'TEXT_MESSAGE_END', messageId: answer, timestamp: Date.now() });
        send({
          type: 'RUN_FINISHED',
          threadId,
          runId,
          usage: [{ model: 'mock-1', inputTokens: 320, outputTokens: 41 }],
          timestamp: Date.now(),
        });
        c.close();
      },
    });
  return new HttpAgent({
    url: 'https://agent.example/ag-ui',
    threadId: 'story-thread',
    fetch: async (_url, init) =>
      new Response(run(JSON.parse(String(init?.body)) as RunAgentInput), {
        headers: { 'content-type': 'text/event-stream' },
      }),
  });
}

function LiveAgUi() {
  const [agent] = useState(mockAgent);
  const stream = useAgUiStream(agent);
  const [runs, setRuns] = useState(0);
  const ask = () => {
    agent.addMessage({
      id: `ask-${runs + 1}`,
      role: 'user',
      content: 'What is the weather in Oslo this week?',
    });
    setRuns((n) => n + 1);
    void agent.runAgent({ runId: `run-${runs + 1}` });
  };
  return (
    <div style={{ display: 'grid', gridTemplateRows: 'auto 1fr', gap: 8, height: 600 }}>
      <div>
        <button type="button" onClick={ask}>
          Ask the agent
        </button>
      </div>
      <Transcript stream={stream} aria-label="AG-UI run" />
    </div>
  );
}

/**
 * A live AG-UI run arriving: `useAgUiStream(agent)` subscribed to an
 * `HttpAgent`; the answer grows in one row, the tool call fills in, the run
 * ends with its usage. Ask again for a second run of the thread.
 */
export const LiveRun: Story = {
  args: { events: [] },
  render: () => <LiveAgUi />,
  play: ({ canvasElement }) =>
    playLiveRun(canvasElement, {
      button: 'Ask the agent',
      feed: 'AG-UI run',
      texts: ['What is the weather in Oslo', 'forecast', 'walk by the fjord'],
    }),
};
