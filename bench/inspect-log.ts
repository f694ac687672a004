// Lays generated events out as an inspect_ai `.json` log (EvalLog, version 2),
// for benchmarks that import "a real log" of a chosen size.
import { zipSync } from 'fflate';
import type { Event } from '../src/index.js';

const enc = new TextEncoder();

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

/** A one-sample-per-member inspect `.eval` (deflated members) holding `samples`. */
export function inspectEvalLog(
  samples: readonly (readonly Event[])[],
  attachments: Record<string, string> = {},
): Uint8Array {
  const doc = JSON.parse(new TextDecoder().decode(inspectJsonLog(samples[0] ?? []))) as Record<
    string,
    unknown
  > & {
    eval: { dataset: { samples: number } };
  };
  delete doc['samples'];
  doc.eval.dataset.samples = samples.length;
  const files: Record<string, Uint8Array> = {
    '_journal/start.json': enc.encode(JSON.stringify({ version: 2, eval: doc.eval })),
  };
  const summaries = samples.map((_, i) => ({ id: i + 1, epoch: 1, input: 'bench', target: '' }));
  samples.forEach((events, i) => {
    const sample = { ...summaries[i], messages: [], events, attachments };
    files[`samples/${i + 1}_epoch_1.json`] = enc.encode(JSON.stringify(sample));
  });
  files['summaries.json'] = enc.encode(JSON.stringify(summaries));
  files['header.json'] = enc.encode(JSON.stringify(doc));
  return zipSync(files, { level: 6 });
}
