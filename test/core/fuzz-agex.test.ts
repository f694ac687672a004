// Fuzzing the agex importer (issue 19, "Fuzzing"), seeded from the project's
// own fixtures: the agex-ts union, the Python class-name shape and a mime
// stream. `npm run fuzz` runs FUZZ_RUNS=10000.
import { agexFormat } from '../../src/core/import/agex/agex.js';
import { readFileSync } from 'node:fs';
import { describe, it } from 'vitest';
import { importAgex, importAny } from '../../src/index.js';
import { fuzzImporter, fuzzShare, streamedAsWhole } from './helpers/import-fuzz.js';

const lines = (name: string) =>
  readFileSync(`test/fixtures/agex/${name}`, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as never);
const seeds = [lines('agex-ts.jsonl'), lines('python-events.jsonl')];
const mime = JSON.parse(readFileSync('test/fixtures/agex/mime-stream.json', 'utf8')) as {
  events: never[];
};

// FUZZ_RUNS inputs for the importer, shared by its 3 properties.
const runs = fuzzShare(3);

describe('fuzz: agex', () => {
  it(`gives a result or an ImportError for ${runs} mutated JSONL inputs`, async () => {
    await fuzzImporter((input) => importAgex(input), seeds, 'jsonl', runs);
  }, 300_000);

  it(`gives a result or an ImportError for ${runs} mutated mime-stream documents through detection`, async () => {
    await fuzzImporter((input) => importAny(input), [[mime as never]], 'json', runs);
  }, 300_000);

  it(`JSONL inputs streamed a line at a time end as the whole-file import (${runs} inputs)`, async () => {
    await fuzzImporter(streamedAsWhole(agexFormat, importAgex), seeds, 'jsonl', runs);
  }, 300_000);
});
