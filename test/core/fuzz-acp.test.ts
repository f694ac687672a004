// Fuzzing the ACP importer (issue 19, "Fuzzing"): seeded from the project's own
// fixtures; `npm run fuzz` runs 10,000 inputs.
import { acpFormat } from '../../src/core/import/acp/acp.js';
import { readFileSync } from 'node:fs';
import { describe, it } from 'vitest';
import { importAcp, importAny } from '../../src/index.js';
import { fuzzImporter, fuzzShare, streamedAsWhole } from './helpers/import-fuzz.js';

const seed = (name: string) =>
  readFileSync(new URL(`../fixtures/acp/${name}`, import.meta.url), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as never);

const seeds = [seed('session.jsonl'), seed('agent-only.jsonl'), seed('v2-draft.jsonl')];

// FUZZ_RUNS inputs for the importer, shared by its 3 properties.
const runs = fuzzShare(3);

describe('fuzz: ACP importer', () => {
  it(`gives a result or an ImportError for ${runs} mutated sessions`, async () => {
    await fuzzImporter((input) => importAcp(input), seeds, 'jsonl', runs);
  }, 300_000);

  it(`detection and import through importAny agree without throwing (${runs} inputs)`, async () => {
    await fuzzImporter((input) => importAny(input), seeds, 'jsonl', runs);
  }, 300_000);

  it(`sessions streamed a line at a time end as the whole-file import (${runs} inputs)`, async () => {
    await fuzzImporter(streamedAsWhole(acpFormat, importAcp), seeds, 'jsonl', runs);
  }, 300_000);
});
