// Fuzzing the Claude Code importer (issue 20): mutated session JSONL seeded
// from the project's own fixtures (a session with a sidechain, a rewind and
// compaction; a session with a sub-agent; a sub-agent file on its own).
// `npm run fuzz` runs 10,000 inputs (FUZZ_RUNS).
import { claudeCodeFormat } from '../../src/core/import/claude-code/claude-code.js';
import { readFileSync } from 'node:fs';
import { describe, it } from 'vitest';
import { importAny, importClaudeCode } from '../../src/index.js';
import { fuzzImporter, fuzzShare, streamedAsWhole } from './helpers/import-fuzz.js';

const lines = (name: string) =>
  readFileSync(new URL(`../fixtures/claude-code/${name}`, import.meta.url), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as never);

const seeds = ['session.jsonl', 'with-subagent.jsonl', 'agent-f00d.jsonl'].map(lines);

// FUZZ_RUNS inputs for the importer, shared by its 4 properties.
const runs = fuzzShare(4);

describe('fuzz: claude-code', () => {
  it(`gives a result or an ImportError for ${runs} mutated sessions`, async () => {
    await fuzzImporter((input) => importClaudeCode(input), seeds, 'jsonl', runs);
  }, 300_000);

  it(`… with sub-agent files folded in (${runs} inputs)`, async () => {
    const session = readFileSync(
      new URL('../fixtures/claude-code/with-subagent.jsonl', import.meta.url),
      'utf8',
    );
    await fuzzImporter(
      (input) =>
        importClaudeCode(session, {
          subagents: { f00d: typeof input === 'string' ? input : new TextDecoder().decode(input) },
        }),
      [seeds[2]!],
      'jsonl',
      runs,
    );
  }, 300_000);

  it(`through the front door (${runs} inputs)`, async () => {
    await fuzzImporter((input) => importAny(input), seeds, 'jsonl', runs);
  }, 300_000);

  it(`sessions streamed a line at a time end as the whole-file import (${runs} inputs)`, async () => {
    await fuzzImporter(streamedAsWhole(claudeCodeFormat, importClaudeCode), seeds, 'jsonl', runs);
  }, 300_000);
});
