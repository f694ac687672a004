import { importAgex } from '../src/core/import/agex/agex.js';
import { defineFormatBench } from './import-format.js';

// A generated agex-ts session of about n records: tasks of an orchestrator and
// a nested worker, each with streamed token chunks, actions with emissions,
// outputs, and an outcome. Deterministic (no randomness, fixed times).
function makeAgex(n: number): string {
  const lines: string[] = [];
  const t0 = Date.parse('2026-03-02T10:00:00Z');
  let t = 0;
  const at = () => new Date(t0 + 250 * t++).toISOString();
  let task = 0;
  while (lines.length < n) {
    const worker = task % 3 === 2;
    const base = worker
      ? { agentName: 'worker', fullNamespace: 'orchestrator/worker' }
      : { agentName: 'orchestrator' };
    lines.push(
      JSON.stringify({
        type: 'taskStart',
        timestamp: at(),
        ...base,
        taskName: `task_${task}`,
        inputs: { n: task },
        message: `Step ${task}: load the table and summarise the monthly totals.`,
      }),
    );
    for (let step = 0; step < 4 && lines.length < n; step++) {
      for (let c = 0; c < 3; c++)
        lines.push(
          JSON.stringify({
            type: c === 0 ? 'thinking' : 'ts',
            content: `chunk ${c} of step ${step} `,
            done: c === 2,
            emissionIndex: c === 0 ? 0 : 1,
          }),
        );
      lines.push(
        JSON.stringify({
          type: 'action',
          timestamp: at(),
          ...base,
          inputTokens: 1200 + step,
          outputTokens: 90,
          emissions: [
            { type: 'thinking', content: 'Group the rows by month, then sum.' },
            { type: 'text', text: `Summarise step ${step}` },
            { type: 'ts', id: `em-${task}-${step}`, code: `print(sum(rows, ${step}));` },
          ],
        }),
      );
      lines.push(
        JSON.stringify({
          type: 'output',
          timestamp: at(),
          ...base,
          emissionId: `em-${task}-${step}`,
          parts: [{ type: 'text', text: `Jan ${1200 + step}\nFeb 1350\nMar 1490` }],
        }),
      );
    }
    lines.push(JSON.stringify({ type: 'success', timestamp: at(), ...base, result: { task } }));
    task++;
  }
  return lines.slice(0, n).join('\n');
}

/**
 * `core.import.agex.<n>`: an agex-ts JSON Lines session through the agex
 * importer, as a ratio to line-by-line JSON.parse.
 */
export default defineFormatBench({
  name: 'core.import.agex',
  encoding: 'jsonl',
  make: makeAgex,
  run: (text) => importAgex(text).events.length,
});
