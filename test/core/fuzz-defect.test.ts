// Fuzzing the defect importer (issue 19, "Fuzzing"): seeded from the project's
// own fixtures (events with sub-agents and aborts, the journal); `npm run fuzz`
// runs 10,000 inputs.
import { defectFormat } from '../../src/core/import/defect/defect.js';
import { readFileSync } from 'node:fs';
import { describe, it } from 'vitest';
import { importAny, importDefect } from '../../src/index.js';
import { fuzzImporter, fuzzShare, streamedAsWhole } from './helpers/import-fuzz.js';

const seed = (name: string) =>
  readFileSync(new URL(`../fixtures/defect/${name}`, import.meta.url), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as never);

const seeds = [seed('events.jsonl'), seed('journal.jsonl')];

// FUZZ_RUNS inputs for the importer, shared by its 3 properties.
const runs = fuzzShare(3);

describe('fuzz: defect importer', () => {
  it(`gives a result or an ImportError for ${runs} mutated logs`, async () => {
    await fuzzImporter((input) => importDefect(input), seeds, 'jsonl', runs);
  }, 300_000);

  it(`detection and import through importAny agree without throwing (${runs} inputs)`, async () => {
    await fuzzImporter((input) => importAny(input), seeds, 'jsonl', runs);
  }, 300_000);

  it(`logs streamed a line at a time end as the whole-file import (${runs} inputs)`, async () => {
    await fuzzImporter(streamedAsWhole(defectFormat, importDefect), seeds, 'jsonl', runs);
  }, 300_000);
});
