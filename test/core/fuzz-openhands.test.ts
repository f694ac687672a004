// Fuzzing the OpenHands importer (issue 20): mutated V0 trajectories, V1 SDK
// events and wrapped events seeded from the project's own fixtures.
// `npm run fuzz` runs 10,000 inputs (FUZZ_RUNS).
import { openHandsFormat } from '../../src/core/import/openhands/openhands.js';
import { readFileSync } from 'node:fs';
import { describe, it } from 'vitest';
import { importAny, importOpenHands } from '../../src/index.js';
import { fuzzImporter, fuzzShare, streamedAsWhole } from './helpers/import-fuzz.js';

const read = (name: string) =>
  readFileSync(new URL(`../fixtures/openhands/${name}`, import.meta.url), 'utf8');
const lines = (text: string) =>
  text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as never);

const trajectory = JSON.parse(read('trajectory-v0.json')) as never[];
const v1 = lines(read('events-v1.jsonl'));
const wrapped = lines(read('wrapped.jsonl'));
const delegates = lines(read('delegate-v1.jsonl'));

// FUZZ_RUNS inputs for the importer, shared by its 4 properties.
const runs = fuzzShare(4);

describe('fuzz: openhands', () => {
  it(`gives a result or an ImportError for ${runs} mutated V0 trajectories`, async () => {
    await fuzzImporter((input) => importOpenHands(input), [[trajectory]], 'json', runs);
  }, 300_000);

  it(`… and for ${runs} mutated JSON Lines (V0, V1, V1 sub-agents, wrapped)`, async () => {
    await fuzzImporter(
      (input) => importOpenHands(input),
      [trajectory, v1, wrapped, delegates],
      'jsonl',
      runs,
    );
  }, 300_000);

  it(`through the front door (${runs} inputs)`, async () => {
    await fuzzImporter((input) => importAny(input), [v1, trajectory], 'jsonl', runs);
  }, 300_000);

  it(`JSON Lines streamed a line at a time end as the whole-file import (${runs} inputs)`, async () => {
    await fuzzImporter(
      streamedAsWhole(openHandsFormat, importOpenHands),
      [v1, wrapped, delegates],
      'jsonl',
      runs,
    );
  }, 300_000);
});
