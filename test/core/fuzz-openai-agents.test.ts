// Fuzzing the OpenAI Agents SDK traces importer: mutated exports seeded from
// a run the real SDK exported (test/fixtures/openai-agents/export.jsonl,
// written by `BatchTraceProcessor` in openai-agents.test.ts's export case),
// as JSON Lines and as a JSON array. `npm run fuzz` runs 10,000 inputs.
import { readFileSync } from 'node:fs';
import { describe, it } from 'vitest';
import { importAny } from '../../src/index.js';
import { fuzzImporter, fuzzShare } from './helpers/import-fuzz.js';

const records = readFileSync(
  new URL('../fixtures/openai-agents/export.jsonl', import.meta.url),
  'utf8',
)
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as never);

// FUZZ_RUNS inputs for the importer, shared by its 2 properties.
const runs = fuzzShare(2);

describe('fuzz: openai-agents', () => {
  it(`gives a result or an ImportError for ${runs} mutated JSON Lines exports`, async () => {
    await fuzzImporter(
      (input) => importAny(input, { format: 'openai-agents' }),
      [records],
      'jsonl',
      runs,
    );
  }, 300_000);

  it(`… and for ${runs} mutated JSON arrays of records`, async () => {
    await fuzzImporter(
      (input) => importAny(input, { format: 'openai-agents' }),
      [[records as never]],
      'json',
      runs,
    );
  }, 300_000);
});
