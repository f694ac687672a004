// Fuzzing the cantus importer (issue 19, "Fuzzing"), seeded from the
// project's own fixtures: the keyed `{"events": [...]}` document (with the
// nested partial state) and the tagged JSON Lines. `npm run fuzz` runs
// FUZZ_RUNS=10000.
import { readFileSync } from 'node:fs';
import { describe, it } from 'vitest';
import { importAny, importCantus } from '../../src/index.js';
import { fuzzImporter, fuzzShare } from './helpers/import-fuzz.js';

const read = (name: string) => readFileSync(`test/fixtures/cantus/${name}`, 'utf8');
const tagged = read('tagged.jsonl')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as never);
const run = JSON.parse(read('run.json')) as never;
const steps = JSON.parse(read('introspection.json')) as never;

// FUZZ_RUNS inputs for the importer, shared by its 2 properties.
const runs = fuzzShare(2);

describe('fuzz: cantus', () => {
  it(`gives a result or an ImportError for ${runs} mutated JSONL inputs`, async () => {
    await fuzzImporter((input) => importCantus(input), [tagged], 'jsonl', runs);
  }, 300_000);

  it(`gives a result or an ImportError for ${runs} mutated documents through detection`, async () => {
    await fuzzImporter((input) => importAny(input), [[run], [steps]], 'json', runs);
  }, 300_000);
});
