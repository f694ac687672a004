import type { Meta } from '@storybook/react-vite';
import { importDefect } from '../src/index.js';
import { Transcript } from '../src/react.js';
import { importedRunStory } from './imported-run.js';
import log from '../test/fixtures/defect/events.jsonl?raw';

/** The project's own defect fixture (test/fixtures/defect/events.jsonl), imported at module load. */
const imported = importDefect(log, { filename: 'events.jsonl' });

const meta = {
  title: 'Import/defect',
  component: Transcript,
  tags: ['light-only'],
  parameters: { layout: 'fullscreen' },
} satisfies Meta<typeof Transcript>;

export default meta;

/** Turns, a retried model call, tools with policy decisions, nested sub-agents, compactions and an aborted turn. */
export const AgentEvents = importedRunStory({ events: imported.events, defaultFilter: [] }, [
  'read_file',
]);
