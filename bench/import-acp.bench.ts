import { importAcp } from '../src/core/import/acp/acp.js';
import { defineFormatBench } from './import-format.js';

/**
 * A generated ACP session of about `n` JSON-RPC lines, both directions: turns
 * (prompt request … stopReason response), streamed message and thought chunks
 * (with and without `messageId`), tool calls with updates and diffs,
 * permission requests with answers, fs reads, plans and usage updates.
 */
export function makeAcpSession(n: number): string {
  const lines: string[] = [];
  const sessionId = 'sess_bench';
  const update = (u: object) =>
    lines.push(
      JSON.stringify({
        jsonrpc: '2.0',
        method: 'session/update',
        params: { sessionId, update: u },
      }),
    );
  let turn = 0;
  let agentId = 0;
  while (lines.length < n) {
    turn++;
    const promptId = 1000 + turn;
    lines.push(
      JSON.stringify({
        jsonrpc: '2.0',
        id: promptId,
        method: 'session/prompt',
        params: {
          sessionId,
          prompt: [
            { type: 'text', text: `Task ${turn}: fix the failing test in module ${turn % 17}` },
          ],
        },
      }),
    );
    for (let k = 0; k < 4; k++)
      update({
        sessionUpdate: 'agent_thought_chunk',
        content: { type: 'text', text: `thinking about step ${k} of turn ${turn}. ` },
      });
    update({
      sessionUpdate: 'plan',
      entries: [
        { content: 'Read the code', priority: 'high', status: 'completed' },
        { content: 'Edit the file', priority: 'medium', status: 'in_progress' },
      ],
    });
    for (let t = 0; t < 3; t++) {
      const call = `call_${turn}_${t}`;
      for (let k = 0; k < 3; k++)
        update({
          sessionUpdate: 'agent_message_chunk',
          messageId: `msg_${turn}_${t}`,
          content: { type: 'text', text: `Chunk ${k} of message ${t}, turn ${turn}. ` },
        });
      update({
        sessionUpdate: 'tool_call',
        toolCallId: call,
        title: 'Terminal',
        kind: t === 1 ? 'edit' : 'read',
        status: 'pending',
        rawInput: {},
      });
      update({
        sessionUpdate: 'tool_call_update',
        toolCallId: call,
        title: `Read src/file_${t}.ts`,
        status: 'in_progress',
        rawInput: { path: `src/file_${t}.ts` },
        locations: [{ path: `src/file_${t}.ts`, line: 12 }],
      });
      if (t === 1) {
        const id = agentId++;
        lines.push(
          JSON.stringify({
            jsonrpc: '2.0',
            id,
            method: 'session/request_permission',
            params: {
              sessionId,
              toolCall: { toolCallId: call },
              options: [
                { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
                { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
              ],
            },
          }),
        );
        lines.push(
          JSON.stringify({
            jsonrpc: '2.0',
            id,
            result: { outcome: { outcome: 'selected', optionId: 'allow' } },
          }),
        );
        update({
          sessionUpdate: 'tool_call_update',
          toolCallId: call,
          status: 'completed',
          content: [
            {
              type: 'diff',
              path: `src/file_${t}.ts`,
              oldText: 'const a = 1;\nconst b = 2;',
              newText: 'const a = 1;\nconst b = 3;',
            },
          ],
        });
      } else {
        const id = agentId++;
        lines.push(
          JSON.stringify({
            jsonrpc: '2.0',
            id,
            method: 'fs/read_text_file',
            params: { sessionId, path: `src/file_${t}.ts` },
          }),
        );
        lines.push(
          JSON.stringify({
            jsonrpc: '2.0',
            id,
            result: { content: `export const value${t} = ${turn};\n` },
          }),
        );
        update({
          sessionUpdate: 'tool_call_update',
          toolCallId: call,
          status: 'completed',
          content: [
            {
              type: 'content',
              content: { type: 'text', text: `export const value${t} = ${turn};` },
            },
          ],
        });
      }
    }
    update({ sessionUpdate: 'usage_update', used: 1000 * turn, size: 200000 });
    lines.push(
      JSON.stringify({ jsonrpc: '2.0', id: promptId, result: { stopReason: 'end_turn' } }),
    );
  }
  return lines.join('\n');
}

/** `core.import.acp.<n>`: an ACP session through the ACP importer, as a ratio to line-by-line JSON.parse. */
export default defineFormatBench({
  name: 'core.import.acp',
  encoding: 'jsonl',
  make: makeAcpSession,
  run: (text) => importAcp(text).events.length,
});
