import type { Meta, StoryObj } from '@storybook/react-vite';
import OpenAI from 'openai';
import {
  Agent,
  OpenAIResponsesModel,
  run,
  setTraceProcessors,
  setTracingDisabled,
  tool,
} from '@openai/agents';
import { useEffect, useState } from 'react';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { z } from 'zod';
import { EventStream, skeinTracingProcessor } from '../src/index.js';
import { SpanTree, Transcript } from '../src/react.js';

const meta = {
  title: 'Sources/OpenAI Agents SDK',
  component: Transcript,
  // The views it draws are checked in both themes by the Views stories.
  tags: ['light-only'],
  parameters: { layout: 'fullscreen' },
} satisfies Meta<typeof Transcript>;

export default meta;
type Story = StoryObj<typeof meta>;

/**
 * The model's answers, in order, as the Responses API sends them
 * (https://platform.openai.com/docs/api-reference/responses/object): a
 * handoff, a tool call, then the answer.
 */
function answers(): object[] {
  const usage = (input: number, output: number) => ({
    input_tokens: input,
    output_tokens: output,
    total_tokens: input + output,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens_details: { reasoning_tokens: 0 },
  });
  const fn = (name: string, args: object, id: string) => ({
    type: 'function_call',
    id: `fc_${id}`,
    call_id: id,
    name,
    arguments: JSON.stringify(args),
    status: 'completed',
  });
  return [
    { output: [fn('transfer_to_Weather', {}, 'call_handoff')], usage: usage(60, 9) },
    { output: [fn('forecast', { city: 'Oslo' }, 'call_forecast')], usage: usage(80, 12) },
    {
      output: [
        {
          type: 'message',
          id: 'msg_answer',
          role: 'assistant',
          status: 'completed',
          content: [
            {
              type: 'output_text',
              text: 'Sunny over Oslo all week, about **21 °C**. Enjoy the fjord!',
              annotations: [],
            },
          ],
        },
      ],
      usage: usage(110, 18),
    },
  ];
}

/**
 * An `openai` client answered in the page (no network): each request waits
 * 400 ms, as a model would, so the run arrives step by step.
 */
function client(): OpenAI {
  const queue = answers();
  let n = 0;
  return new OpenAI({
    apiKey: 'sk-story',
    baseURL: 'https://api.invalid/v1',
    dangerouslyAllowBrowser: true,
    maxRetries: 0,
    fetch: async (_url: unknown, init?: { body?: unknown }) => {
      const request = JSON.parse(String(init?.body)) as Record<string, unknown>;
      await new Promise((r) => setTimeout(r, 400));
      const body = queue.shift() ?? { output: [] };
      n++;
      return new Response(
        JSON.stringify({
          id: `resp_${n}`,
          object: 'response',
          created_at: Math.floor(Date.now() / 1000),
          model: 'gpt-story',
          status: 'completed',
          instructions: request['instructions'] ?? null,
          tools: request['tools'] ?? [],
          ...body,
        }),
        { headers: { 'content-type': 'application/json' } },
      );
    },
  });
}

function AgentRun() {
  const [stream, setStream] = useState(() => new EventStream());
  const [status, setStatus] = useState<'idle' | 'running' | 'done' | 'failed'>('idle');
  useEffect(
    () => () => {
      setTraceProcessors([]);
      setTracingDisabled(true);
    },
    [],
  );
  const start = async () => {
    const next = new EventStream();
    setStream(next);
    setStatus('running');
    // The SDK disables tracing in browsers by default; the processor is its only sink here.
    setTracingDisabled(false);
    setTraceProcessors([skeinTracingProcessor(next)]);
    const model = new OpenAIResponsesModel(client(), 'gpt-story');
    const forecast = tool({
      name: 'forecast',
      description: 'The forecast for a city',
      parameters: z.object({ city: z.string() }),
      execute: async ({ city }) => {
        await new Promise((r) => setTimeout(r, 300));
        return JSON.stringify({ city, sky: 'sunny', celsius: 21 });
      },
    });
    const weather = new Agent({
      name: 'Weather',
      instructions: 'Answer with the forecast.',
      model,
      tools: [forecast],
    });
    const triage = new Agent({
      name: 'Triage',
      instructions: 'Route the question.',
      model,
      handoffs: [weather],
    });
    try {
      await run(triage, 'How is the weather in Oslo this week?');
      setStatus('done');
    } catch {
      setStatus('failed');
    }
  };
  return (
    <div style={{ display: 'grid', gridTemplateRows: 'auto 1fr', gap: 8, height: 600 }}>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8, alignItems: 'center' }}>
        <button type="button" onClick={() => void start()} disabled={status === 'running'}>
          Run the agent
        </button>
        <span role="status">{status}</span>
      </div>
      <div
        style={{
          display: 'grid',
          gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 320px), 1fr))',
          gap: 8,
          minHeight: 0,
        }}
      >
        <SpanTree stream={stream} aria-label="Agent spans" />
        <Transcript stream={stream} aria-label="Agent run" />
      </div>
    </div>
  );
}

/**
 * A run of the real `@openai/agents` SDK arriving live: `skeinTracingProcessor`
 * is its trace processor, and the span tree and transcript show the agents,
 * the handoff (a sub-agent span), the model calls and the tool call as the SDK
 * starts and ends them. The model is answered in the page (no network).
 */
export const LiveAgentRun: Story = {
  args: { events: [] },
  render: () => <AgentRun />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Run the agent' }));
    const feed = await canvas.findByRole('feed', { name: 'Agent run' }, { timeout: 10_000 });
    // The first agent's span shows before the run ends: the view is live.
    await waitFor(() => expect(feed.textContent).toContain('Triage'), { timeout: 10_000 });
    expect(canvas.getByRole('status').textContent).toBe('running');
    await waitFor(() => expect(canvas.getByRole('status').textContent).toBe('done'), {
      timeout: 15_000,
    });
    await waitFor(() => expect(feed.textContent).toContain('Enjoy the fjord'));
    expect(feed.textContent).toContain('forecast');
    const tree = canvas.getByRole('treegrid', { name: 'Agent spans' });
    await waitFor(() => expect(tree.textContent).toContain('Weather'));
  },
};
