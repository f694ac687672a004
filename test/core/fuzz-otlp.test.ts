// Fuzzing the OpenTelemetry traces importer (issue 20): mutated OTLP/JSON
// exports, JSONL of exports and flat span lists seeded from the project's own
// fixtures. `npm run fuzz` runs 10,000 inputs (FUZZ_RUNS).
import { otlpFormat } from '../../src/core/import/otlp/otlp.js';
import { readFileSync } from 'node:fs';
import { describe, it } from 'vitest';
import { importAny, importOtlp } from '../../src/index.js';
import { fuzzImporter, fuzzShare, streamedAsWhole } from './helpers/import-fuzz.js';

const read = (name: string) =>
  readFileSync(new URL(`../fixtures/otlp/${name}`, import.meta.url), 'utf8');

const docs = [
  'agent-chat-tool.otlp.json',
  'openinference-agent.otlp.json',
  'numeric-nanos.otlp.json',
  'hand-written-spans.json',
].map((f) => [JSON.parse(read(f)) as never]);
const lines = read('exports-children-first.json.txt')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as never);

// FUZZ_RUNS inputs for the importer, shared by its 3 properties.
const runs = fuzzShare(3);

/** The JSON Lines stream importer (`otlpIncremental`). */
const lineFormat = { incremental: otlpFormat.incremental! };

describe('fuzz: otlp', () => {
  it(`gives a result or an ImportError for ${runs} mutated exports`, async () => {
    await fuzzImporter((input) => importAny(input, { format: 'otlp' }), docs, 'json', runs);
  }, 300_000);

  it(`… and for ${runs} mutated JSONL of exports`, async () => {
    await fuzzImporter((input) => importAny(input, { format: 'otlp' }), [lines], 'jsonl', runs);
  }, 300_000);

  it(`JSONL of exports streamed a line at a time end as the whole-file import (${runs} inputs)`, async () => {
    // In any order: a span placed later may sort before one already handed
    // out (an append-only stream cannot move it back; otlp-stream.ts).
    await fuzzImporter(streamedAsWhole(lineFormat, importOtlp, 'any'), [lines], 'jsonl', runs);
  }, 300_000);
});
