import type { Meta } from '@storybook/react-vite';
import { importAcp } from '../src/index.js';
import { Transcript } from '../src/react.js';
import { importedRunStory } from './imported-run.js';
import session from '../test/fixtures/acp/session.jsonl?raw';
import agentOnly from '../test/fixtures/acp/agent-only.jsonl?raw';

/** The project's own ACP fixtures (test/fixtures/acp), imported at module load. */
const imported = importAcp(session, { filename: 'session.jsonl' });
const agentSide = importAcp(agentOnly, { filename: 'agent-only.jsonl' });

const meta = {
  title: 'Import/ACP',
  component: Transcript,
  tags: ['light-only'],
  parameters: { layout: 'fullscreen' },
} satisfies Meta<typeof Transcript>;

export default meta;

/** A two-sided session: turns, merged chunks, tool calls, a permission, fs and terminal requests, a cancel and an error. */
export const Session = importedRunStory({ events: imported.events, defaultFilter: [] }, [
  'Read config.json',
]);

/** A capture of the agent's side only: implicit turns, the repeated final chunk kept, a turn cut off. */
export const AgentSideOnly = importedRunStory({ events: agentSide.events, defaultFilter: [] }, [
  'Hello!Hello!',
]);
