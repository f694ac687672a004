// Fuzzing the AG-UI importer (as the other importers: test/core/helpers/import-fuzz.ts),
// seeded from schema-valid runs (every outcome, subagents, the deprecated THINKING
// events); `npm run fuzz` runs 10,000 inputs.
import { agUiFormat } from '../../src/core/import/ag-ui/ag-ui.js';
import { describe, it } from 'vitest';
import { importAgUi, importAny } from '../../src/index.js';
import { agUiRun, validAgUi } from './helpers/ag-ui-runs.js';
import { fuzzImporter, fuzzShare, streamedAsWhole } from './helpers/import-fuzz.js';

const subagents = validAgUi([
  { type: 'RUN_STARTED', threadId: 't', runId: 'r', timestamp: 1767225600000 },
  { type: 'TOOL_CALL_START', toolCallId: 'task', toolCallName: 'research' },
  { type: 'SUBAGENT_STARTED', subagentRunId: 's1', name: 'researcher', parentToolCallId: 'task' },
  { type: 'STEP_STARTED', stepName: 'search', subagentRunId: 's1' },
  { type: 'TEXT_MESSAGE_CHUNK', messageId: 'sm', delta: 'found', subagentRunId: 's1' },
  { type: 'STEP_FINISHED', stepName: 'search', subagentRunId: 's1' },
  {
    type: 'SUBAGENT_FINISHED',
    subagentRunId: 's1',
    outcome: { type: 'suspended', interruptIds: ['i'] },
  },
  { type: 'SUBAGENT_STARTED', subagentRunId: 's2', name: 'checker', parentSubagentRunId: 's1' },
  { type: 'SUBAGENT_ERROR', subagentRunId: 's2', message: 'no source' },
  {
    type: 'REASONING_ENCRYPTED_VALUE',
    subtype: 'tool-call',
    entityId: 'task',
    encryptedValue: 'x',
  },
  { type: 'RUN_FINISHED', threadId: 't', runId: 'r' },
]);
const thinking = [
  { type: 'THINKING_START', title: 'plan' },
  { type: 'THINKING_TEXT_MESSAGE_START' },
  { type: 'THINKING_TEXT_MESSAGE_CONTENT', delta: 'hmm' },
  { type: 'THINKING_TEXT_MESSAGE_END' },
  { type: 'THINKING_END' },
];

const seeds = [
  agUiRun({ start: 1767225600000, tokens: 3, tools: 2 }),
  agUiRun({ outcome: 'interrupt' }),
  [
    ...agUiRun({ outcome: 'cancelled', tokens: 1 }),
    ...agUiRun({ runId: 'run-2', outcome: 'error' }),
  ],
  [...subagents, ...thinking],
] as never[][];

// FUZZ_RUNS inputs for the importer, shared by its 3 properties.
const runs = fuzzShare(3);

describe('fuzz: AG-UI importer', () => {
  it(`gives a result or an ImportError for ${runs} mutated runs`, async () => {
    await fuzzImporter((input) => importAgUi(input), seeds, 'jsonl', runs);
  }, 300_000);

  it(`detection and import through importAny agree without throwing (${runs} inputs)`, async () => {
    await fuzzImporter((input) => importAny(input), seeds, 'jsonl', runs);
  }, 300_000);

  it(`runs streamed a line at a time end as the whole-file import (${runs} inputs)`, async () => {
    await fuzzImporter(streamedAsWhole(agUiFormat, importAgUi), seeds, 'jsonl', runs);
  }, 300_000);
});
