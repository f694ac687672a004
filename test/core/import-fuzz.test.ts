// Fuzzing the shared import path (front door, JSON Lines reader, skein events).
// Each format's own fuzz test lives beside its importer test and uses the same
// helper; `npm run fuzz` runs them all with FUZZ_RUNS=10000.
import { describe, it } from 'vitest';
import { generateRun, importAny } from '../../src/index.js';
import { fuzzImporter, fuzzShare } from './helpers/import-fuzz.js';

const seed = JSON.parse(JSON.stringify(generateRun({ seed: 3, events: 40 }))) as never[];

// FUZZ_RUNS inputs for the importer, shared by its 2 properties.
const runs = fuzzShare(2);

describe('fuzz: skein events through importAny', () => {
  it(`gives a result or an ImportError for ${runs} mutated JSONL inputs`, async () => {
    await fuzzImporter((input) => importAny(input, { format: 'skein' }), [seed], 'jsonl', runs, {
      uniqueUuids: false,
    });
  }, 120_000);

  it(`never throws anything but ImportError when detecting (${runs} inputs)`, async () => {
    await fuzzImporter((input) => importAny(input), [seed], 'jsonl', runs, {
      uniqueUuids: false,
    });
  }, 120_000);
});
