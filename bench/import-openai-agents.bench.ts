import { importOpenAiAgentsTrace } from '../src/core/import/openai-agents/openai-agents.js';
import { defineFormatBench } from './import-format.js';

// A generated OpenAI Agents SDK export of n records as JSON Lines, in the
// order its exporter writes them (a span when it ends: children first): one
// trace, an agent span per 40 records, turns holding a model call (a
// generation with messages and usage) and a function tool. Deterministic.
function makeExport(n: number): string {
  const lines: string[] = [];
  const t0 = Date.UTC(2026, 0, 1);
  const iso = (ms: number) => new Date(t0 + ms).toISOString();
  const trace = 'trace_bench';
  lines.push(
    JSON.stringify({ object: 'trace', id: trace, workflow_name: 'bench', group_id: null }),
  );
  const span = (id: string, parent: string | null, start: number, end: number, data: object) =>
    JSON.stringify({
      object: 'trace.span',
      id,
      trace_id: trace,
      parent_id: parent,
      started_at: iso(start),
      ended_at: iso(end),
      span_data: data,
      error: null,
    });
  let t = 0;
  let a = 0;
  while (lines.length < n) {
    const agent = `span_agent_${a}`;
    const agentStart = t;
    for (let k = 0; k < 10 && lines.length < n - 1; k++) {
      const turn = `span_turn_${a}_${k}`;
      const turnStart = t;
      const call = `call_${a}_${k}`;
      lines.push(
        span(`span_gen_${a}_${k}`, turn, t, (t += 20), {
          type: 'generation',
          model: 'gpt-bench',
          input: [{ role: 'user', content: `Question ${k} of agent ${a}` }],
          output: [
            {
              role: 'assistant',
              content: null,
              tool_calls: [
                {
                  id: call,
                  type: 'function',
                  function: { name: 'lookup', arguments: `{"q":${k}}` },
                },
              ],
            },
          ],
          usage: { input_tokens: 100 + k, output_tokens: 20 },
        }),
      );
      lines.push(
        span(`span_fn_${a}_${k}`, turn, t, (t += 5), {
          type: 'function',
          name: 'lookup',
          input: `{"q":${k}}`,
          output: `answer ${k}`,
        }),
      );
      lines.push(
        span(turn, agent, turnStart, t++, { type: 'turn', turn: k + 1, agent_name: `A${a}` }),
      );
    }
    lines.push(
      span(agent, null, agentStart, t++, { type: 'agent', name: `A${a}`, tools: ['lookup'] }),
    );
    a++;
  }
  lines.length = n;
  return lines.join('\n') + '\n';
}

/**
 * `core.import.openai-agents.<n>`: an OpenAI Agents SDK export (JSON Lines,
 * children first) through `importOpenAiAgentsTrace`, as a ratio to one
 * JSON.parse of the same bytes.
 */
export default defineFormatBench({
  name: 'core.import.openai-agents',
  encoding: 'jsonl',
  make: makeExport,
  run: (text) => importOpenAiAgentsTrace(text).events.length,
});
