import { importClaudeCode } from '../src/core/import/claude-code/claude-code.js';
import { defineFormatBench } from './import-format.js';

/**
 * A generated Claude Code session of about `n` records, as Claude Code writes
 * it: a prompt, then steps of an assistant response split over two records
 * (thinking + text, then tool_use, one `message.id`) and the user record
 * carrying the tool_result with its `toolUseResult`; a new prompt every ten
 * steps. Every record has the common fields (uuid chain, session, cwd,
 * version, git branch).
 */
export function makeClaudeCode(n: number): string {
  const lines: string[] = [];
  const t0 = Date.parse('2026-02-01T09:00:00.000Z');
  let parent: string | null = null;
  let k = 0;
  const record = (fields: Record<string, unknown>) => {
    const uuid = `00000000-0000-4000-8000-${String(k).padStart(12, '0')}`;
    lines.push(
      JSON.stringify({
        parentUuid: parent,
        isSidechain: false,
        userType: 'external',
        cwd: '/home/dev/project',
        sessionId: 'bench-session',
        version: '2.0.46',
        gitBranch: 'main',
        uuid,
        timestamp: new Date(t0 + k * 1000).toISOString(),
        ...fields,
      }),
    );
    parent = uuid;
    k++;
  };
  for (let step = 0; lines.length < n; step++) {
    if (step % 10 === 0)
      record({
        type: 'user',
        message: { role: 'user', content: `Task ${step / 10}: make the tests in pkg${step} pass` },
      });
    const id = `msg_${step}`;
    const tool = `toolu_${step}`;
    const usage = {
      input_tokens: 12,
      cache_creation_input_tokens: 400,
      cache_read_input_tokens: 18000 + step,
      output_tokens: 150,
    };
    const assistant = (content: unknown[]) =>
      record({
        type: 'assistant',
        requestId: `req_${step}`,
        message: {
          id,
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-4-5-20250929',
          content,
          stop_reason: null,
          usage,
        },
      });
    assistant([
      {
        type: 'thinking',
        thinking: `The failure in step ${step} is in the parser.`,
        signature: 'sig',
      },
      { type: 'text', text: `Running the tests of pkg${step} to see what fails.` },
    ]);
    assistant([
      { type: 'tool_use', id: tool, name: 'Bash', input: { command: `npm test -- pkg${step}` } },
    ]);
    record({
      type: 'user',
      message: {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: tool,
            content: `PASS pkg${step}/parser.test.ts\n12 tests passed`,
            is_error: false,
          },
        ],
      },
      toolUseResult: { stdout: '12 tests passed', stderr: '', interrupted: false },
    });
  }
  lines.length = n;
  return lines.join('\n');
}

/**
 * `core.import.claude-code.<n>`: a Claude Code session of n records, as a
 * ratio to line-by-line JSON.parse of the same bytes.
 */
export default defineFormatBench({
  name: 'core.import.claude-code',
  encoding: 'jsonl',
  make: makeClaudeCode,
  run: (text) => importClaudeCode(text).events.length,
});
