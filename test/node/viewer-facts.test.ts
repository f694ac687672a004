// The viewer header's facts for a sample (viewer/load/loader.ts): its own
// tokens and duration — not "0 ms" from a log header stamped in whole
// seconds, nor the whole log's totals beside one sample's name.
import { describe, expect, it } from 'vitest';
import { createLoader } from '../../viewer/load/loader.js';
import type { LoadMessage, RunFacts } from '../../viewer/load/protocol.js';
import { buildZip } from '../core/helpers/zip-builder.js';

const at = (ms: number) => new Date(Date.UTC(2025, 1, 11, 20, 18, 4) + ms).toISOString();

function sample(id: number, ms: number, tokens: [number, number]) {
  return {
    id,
    epoch: 1,
    input: 'Is the sky blue?',
    target: '',
    messages: [],
    scores: { match: { value: 'C' } },
    events: [
      { event: 'sample_init', uuid: `s${id}-0`, timestamp: at(0), sample: { id }, state: {} },
      {
        event: 'model',
        uuid: `s${id}-1`,
        timestamp: at(2),
        completed: at(ms),
        model: 'openai/gpt-4o-mini',
        input: [],
        tools: [],
        tool_choice: 'none',
        config: {},
        output: {
          model: 'gpt-4o-mini',
          choices: [{ message: { role: 'assistant', content: 'Yes' }, stop_reason: 'stop' }],
          usage: { input_tokens: tokens[0], output_tokens: tokens[1] },
        },
      },
    ],
  };
}

/** Whole-second stamps in one second, as inspect_ai logs of early 2025 write them. */
const header = {
  version: 2,
  status: 'success',
  eval: { task: 'popularity', model: 'openai/gpt-4o-mini', created: at(0) },
  plan: { name: 'plan', steps: [] },
  stats: {
    started_at: '2025-02-11T15:18:04-05:00',
    completed_at: '2025-02-11T15:18:04-05:00',
    model_usage: { 'openai/gpt-4o-mini': { input_tokens: 120, output_tokens: 16 } },
  },
};

async function doneFacts(file: Blob, name: string, pick?: { id: number; epoch: number }) {
  const messages: LoadMessage[] = [];
  const loader = createLoader((m) => messages.push(m));
  await loader.handle({
    type: 'open',
    source: { kind: 'file', file, name },
    ...(pick ? { sample: pick } : {}),
  });
  const done = messages.find((m) => m.type === 'done');
  expect(done).toBeDefined();
  return (done as { facts: RunFacts }).facts;
}

describe('viewer header facts', () => {
  it('a one-sample .json log that ran 325 ms says 325 ms, not 0 ms', async () => {
    const log = { ...header, samples: [sample(1, 325, [60, 8])] };
    const facts = await doneFacts(new Blob([JSON.stringify(log)]), 'run.json');
    expect(facts.durationMs).toBe(325);
    expect(facts.tokens).toBe(68);
    expect(facts.task).toBe('popularity');
  });

  it('a sample of an .eval shows its own tokens and duration, not the log totals', async () => {
    const summaries = [1, 2].map((id) => ({ id, epoch: 1, input: 'q', target: '', scores: {} }));
    const zip = new Blob([
      buildZip([
        { name: 'header.json', data: JSON.stringify(header), method: 8 },
        { name: 'summaries.json', data: JSON.stringify(summaries), method: 8 },
        {
          name: 'samples/1_epoch_1.json',
          data: JSON.stringify(sample(1, 325, [60, 8])),
          method: 8,
        },
        {
          name: 'samples/2_epoch_1.json',
          data: JSON.stringify(sample(2, 900, [50, 18])),
          method: 8,
        },
      ]) as Uint8Array<ArrayBuffer>,
    ]);
    const second = await doneFacts(zip, 'run.eval', { id: 2, epoch: 1 });
    expect(second.durationMs).toBe(900);
    expect(second.tokens).toBe(68);
    const first = await doneFacts(zip, 'run.eval');
    expect(first.durationMs).toBe(325);
  });
});
