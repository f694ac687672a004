import type { Meta } from '@storybook/react-vite';
import { importAgex } from '../src/index.js';
import { Transcript } from '../src/react.js';
import { importedRunStory } from './imported-run.js';
import agexTs from '../test/fixtures/agex/agex-ts.jsonl?raw';
import pythonEvents from '../test/fixtures/agex/python-events.jsonl?raw';

// The project's own agex fixtures, imported at module load as a user would.
const tsRun = importAgex(agexTs).events;
const pythonRun = importAgex(pythonEvents).events;

const meta = {
  title: 'Import/agex',
  component: Transcript,
  tags: ['light-only'],
  parameters: { layout: 'fullscreen' },
} satisfies Meta<typeof Transcript>;

export default meta;

/** The agex-ts union: a task with streamed chunks, an action, outputs (text, image, error), outcomes. */
export const AgexTs = importedRunStory(
  { events: tsRun, defaultFilter: [], 'aria-label': 'agex-ts run' },
  [/analyst/],
);

/** The Python class-name shape: an orchestrator calling nested sub-agents (`full_namespace`). */
export const PythonNested = importedRunStory(
  { events: pythonRun, defaultFilter: [], 'aria-label': 'agex Python run' },
  [/worker_a/],
);
