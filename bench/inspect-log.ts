// Lays generated events out as an inspect_ai `.json` log (EvalLog, version 2),
// for benchmarks that import "a real log" of a chosen size.
import type { Event } from '../src/index.js';

/** The bytes of a one-sample inspect_ai `.json` log holding `events`. */
export function inspectJsonLog(events: readonly Event[]): Uint8Array {
  const first = events[0];
  const log = {
    version: 2,
    status: 'success',
    eval: {
      task: 'bench',
      task_id: 'bench',
      run_id: 'bench',
      created: first?.timestamp ?? '2026-01-01T00:00:00Z',
      model: 'anthropic/claude-sonnet-4-5',
      dataset: { samples: 1 },
      config: {},
    },
    results: { total_samples: 1, completed_samples: 1, scores: [] },
    stats: {},
    samples: [{ id: 1, epoch: 1, input: 'bench', target: '', messages: [], events }],
  };
  return new TextEncoder().encode(JSON.stringify(log));
}
