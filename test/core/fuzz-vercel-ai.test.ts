// Fuzzing the Vercel AI SDK importer (as the other importers: test/core/helpers/import-fuzz.ts),
// seeded from what the `ai` package makes: UI message stream chunks (a run, a
// failed tool, an aborted stream) and stored UI messages; `npm run fuzz` runs
// 10,000 inputs.
import { vercelAiFormat } from '../../src/core/import/vercel-ai/vercel-ai.js';
import { describe, it } from 'vitest';
import { importAny, importUIMessages } from '../../src/index.js';
import { fuzzImporter, fuzzShare, streamedAsWhole } from './helpers/import-fuzz.js';
import { question, uiMessages, uiRun } from './helpers/vercel-ai-runs.js';

const run = await uiRun({ tokens: 3 });
const chunkSeeds = [
  run,
  await uiRun({ toolError: true, tokens: 1 }),
  await uiRun({ abortAfter: 2, tokens: 1 }),
] as never[][];
const stored = [[[question, (await uiMessages(run)).at(-1)!]]] as never[][];

// FUZZ_RUNS inputs for the importer, shared by its 4 properties.
const runs = fuzzShare(4);

describe('fuzz: Vercel AI SDK importer', () => {
  it(`gives a result or an ImportError for ${runs} mutated streams`, async () => {
    await fuzzImporter((input) => importUIMessages(input), chunkSeeds, 'jsonl', runs);
  }, 300_000);

  it(`gives a result or an ImportError for ${runs} mutated stored conversations`, async () => {
    await fuzzImporter((input) => importUIMessages(input), stored, 'json', runs);
  }, 300_000);

  it(`detection and import through importAny agree without throwing (${runs} inputs)`, async () => {
    await fuzzImporter((input) => importAny(input), chunkSeeds, 'jsonl', runs);
  }, 300_000);

  it(`streams read a line at a time end as the whole-file import (${runs} inputs)`, async () => {
    await fuzzImporter(
      streamedAsWhole(vercelAiFormat, importUIMessages),
      chunkSeeds,
      'jsonl',
      runs,
    );
  }, 300_000);
});
