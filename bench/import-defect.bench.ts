import { importDefect } from '../src/core/import/defect/defect.js';
import { defineFormatBench } from './import-format.js';

/**
 * A generated defect `AgentEvent` log of about `n` lines: turns with a prompt,
 * a retried model call, text and thought deltas, tool calls with policy
 * decisions and permissions, a sub-agent per few turns, compactions, and an
 * aborted turn now and then.
 */
export function makeDefectLog(n: number): string {
  const lines: string[] = [];
  const push = (e: object) => lines.push(JSON.stringify(e));
  let turn = 0;
  while (lines.length < n) {
    turn++;
    push({ type: 'turn_started' });
    push({
      type: 'user_prompt_committed',
      content: [{ type: 'text', text: `Task ${turn}: refactor module ${turn % 13}` }],
    });
    push({ type: 'llm_call_started', model: 'claude-sonnet-4', attempt: 1 });
    if (turn % 5 === 0) {
      push({
        type: 'llm_call_finished',
        model: 'claude-sonnet-4',
        attempt: 1,
        usage: null,
        error: 'overloaded',
      });
      push({ type: 'llm_call_started', model: 'claude-sonnet-4', attempt: 2 });
    }
    for (let k = 0; k < 3; k++)
      push({
        type: 'assistant_thought',
        content: { type: 'text', text: `considering option ${k}. ` },
      });
    for (let k = 0; k < 4; k++)
      push({
        type: 'assistant_text',
        content: { type: 'text', text: `Part ${k} of the answer for turn ${turn}. ` },
      });
    push({
      type: 'llm_call_finished',
      model: 'claude-sonnet-4',
      attempt: turn % 5 === 0 ? 2 : 1,
      usage: { input_tokens: 1000 + turn, output_tokens: 80 },
      error: null,
    });
    for (let t = 0; t < 2; t++) {
      const id = `toolu_${turn}_${t}`;
      push({
        type: 'tool_call_started',
        id,
        name: 'read_file',
        fields: {
          kind: 'read',
          status: 'pending',
          title: `Read src/m${t}.rs`,
          rawInput: { path: `src/m${t}.rs` },
        },
      });
      push({
        type: 'policy_decision',
        id,
        decision:
          t === 0
            ? { kind: 'allow' }
            : {
                kind: 'ask',
                options: [{ id: 'once', name: 'Allow once', kind: 'allow_once', allows: true }],
              },
      });
      if (t === 1)
        push({ type: 'permission_resolved', id, outcome: { kind: 'selected', option_id: 'once' } });
      push({ type: 'tool_call_progress', id, fields: { status: 'in_progress' } });
      if (turn % 4 === 0 && t === 1) {
        const sub = (inner: object) =>
          push({ type: 'subagent', ancestor_path: [id], agent_type: 'helper', inner });
        sub({ type: 'turn_started' });
        sub({ type: 'assistant_text', content: { type: 'text', text: 'sub-agent output' } });
        sub({
          type: 'turn_ended',
          reason: 'end_turn',
          usage: { input_tokens: 10, output_tokens: 2 },
        });
      }
      push({
        type: 'tool_call_finished',
        id,
        fields: {
          status: 'completed',
          content: [{ type: 'content', content: { type: 'text', text: `fn m${t}() {}` } }],
        },
      });
    }
    if (turn % 10 === 0)
      push({ type: 'context_compressed', tokens_before: 150000, tokens_after: 40000 });
    if (turn % 7 === 0) push({ type: 'turn_aborted', reason: 'interrupted' });
    else
      push({
        type: 'turn_ended',
        reason: 'end_turn',
        usage: { input_tokens: 1000, output_tokens: 80 },
      });
  }
  return lines.join('\n');
}

/** `core.import.defect.<n>`: a defect AgentEvent log through the defect importer, as a ratio to line-by-line JSON.parse. */
export default defineFormatBench({
  name: 'core.import.defect',
  encoding: 'jsonl',
  make: makeDefectLog,
  run: (text) => importDefect(text).events.length,
});
