import { importOpenHands } from '../src/core/import/openhands/openhands.js';
import { defineFormatBench } from './import-format.js';

/**
 * A generated OpenHands V0 trajectory of about `n` events (one JSON array, as
 * OpenHands saves it): a user message every ten steps, then per step a `run`
 * action with its `tool_call_metadata` (the model response, usage) and
 * `llm_metrics` running totals, and the observation paired by `cause`; ids
 * gappy as in real streams.
 */
export function makeOpenHands(n: number): string {
  const events: unknown[] = [];
  const t0 = Date.parse('2026-03-02T10:00:00.000Z');
  let id = 0;
  let cost = 0;
  let prompt = 0;
  let completion = 0;
  const at = (i: number) => new Date(t0 + i * 1000).toISOString().slice(0, -1);
  for (let step = 0; events.length < n; step++) {
    if (step % 10 === 0)
      events.push({
        id: id,
        timestamp: at(id),
        source: 'user',
        message: `Task ${step / 10}`,
        action: 'message',
        args: {
          content: `Task ${step / 10}: fix pkg${step}`,
          image_urls: null,
          wait_for_response: false,
        },
      });
    id += 2;
    const call = `call_${step}`;
    const command = `pytest -q pkg${step}`;
    cost += 0.004;
    prompt += 3000 + step;
    completion += 60;
    const action = id;
    events.push({
      id: action,
      timestamp: at(action),
      source: 'agent',
      message: `Running command: ${command}`,
      action: 'run',
      tool_call_metadata: {
        function_name: 'execute_bash',
        tool_call_id: call,
        model_response: {
          id: `chatcmpl-${step}`,
          created: 1780000000 + step,
          model: 'gpt-4o',
          object: 'chat.completion',
          choices: [
            {
              finish_reason: 'tool_calls',
              index: 0,
              message: {
                content: `Step ${step}: run the tests of pkg${step}.`,
                role: 'assistant',
                tool_calls: [
                  {
                    id: call,
                    type: 'function',
                    function: { name: 'execute_bash', arguments: JSON.stringify({ command }) },
                  },
                ],
              },
            },
          ],
          usage: {
            prompt_tokens: 3000 + step,
            completion_tokens: 60,
            total_tokens: 3060 + step,
            prompt_tokens_details: { cached_tokens: 2800 },
          },
        },
        total_calls_in_response: 1,
      },
      llm_metrics: {
        accumulated_cost: cost,
        accumulated_token_usage: {
          model: 'gpt-4o',
          prompt_tokens: prompt,
          completion_tokens: completion,
        },
      },
      args: {
        command,
        is_input: false,
        thought: `Step ${step}: run the tests of pkg${step}.`,
        blocking: false,
      },
      timeout: 120,
    });
    id += 1;
    events.push({
      id,
      timestamp: at(id),
      source: 'agent',
      message: `Command \`${command}\` executed with exit code 0.`,
      cause: action,
      observation: 'run',
      content: `..........\n10 passed in 0.${step % 10}s`,
      extras: {
        command,
        metadata: { exit_code: 0, pid: -1, working_dir: '/workspace' },
        hidden: false,
      },
      success: true,
    });
    id += 1;
  }
  events.length = n;
  return JSON.stringify(events);
}

/**
 * `core.import.openhands.<n>`: a V0 trajectory of n events, as a ratio to one
 * JSON.parse of the same bytes.
 */
export default defineFormatBench({
  name: 'core.import.openhands',
  encoding: 'json',
  make: makeOpenHands,
  run: (text) => importOpenHands(text).events.length,
});
