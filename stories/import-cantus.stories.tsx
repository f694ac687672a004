import type { Meta } from '@storybook/react-vite';
import { importCantus } from '../src/index.js';
import { Transcript } from '../src/react.js';
import { importedRunStory } from './imported-run.js';
import runJson from '../test/fixtures/cantus/run.json?raw';
import taggedJsonl from '../test/fixtures/cantus/tagged.jsonl?raw';

// The project's own cantus fixtures, imported at module load as a user would.
const run = importCantus(runJson, { baseTime: '2026-05-01T09:00:00Z' }).events;
const tagged = importCantus(taggedJsonl, { baseTime: '2026-05-01T09:00:00Z' }).events;

const meta = {
  title: 'Import/cantus',
  component: Transcript,
  tags: ['light-only'],
  parameters: { layout: 'fullscreen' },
} satisfies Meta<typeof Transcript>;

export default meta;

/** Skill calls paired with observations, a tool error, validation retries and the final answer. */
export const Run = importedRunStory(
  { events: run, defaultFilter: [], 'aria-label': 'cantus run' },
  [/calculator/],
);

/** The tagged form, ending at the iteration limit (with an unanswered call and a stray observation). */
export const IterationLimit = importedRunStory({
  events: tagged,
  defaultFilter: [],
  'aria-label': 'cantus run stopped at the limit',
});
