import type { Meta } from '@storybook/react-vite';
import { importOpenHands } from '../src/index.js';
import { Transcript } from '../src/react.js';
import { importedRunStory } from './imported-run.js';
import trajectory from '../test/fixtures/openhands/trajectory-v0.json?raw';
import sdkEvents from '../test/fixtures/openhands/events-v1.jsonl?raw';
import delegateEvents from '../test/fixtures/openhands/delegate-v1.jsonl?raw';

// The project's own OpenHands fixtures, imported once at module load (issue 20).
const v0 = importOpenHands(trajectory, { filename: 'trajectory-v0.json' }).events;
const v1 = importOpenHands(sdkEvents, { filename: 'events-v1.jsonl' }).events;
const delegated = importOpenHands(delegateEvents, { filename: 'delegate-v1.jsonl' }).events;

const meta = {
  title: 'Import/OpenHands',
  component: Transcript,
  tags: ['light-only'],
  parameters: { layout: 'fullscreen' },
} satisfies Meta<typeof Transcript>;

export default meta;

/**
 * A V0 trajectory: parallel tool calls of one model response paired with their
 * observations by `cause`, a BrowsingAgent delegate as a sub-agent span, a
 * failed edit, `finish` as the answer, and a second turn the user stopped
 * (marked aborted).
 */
export const V0Trajectory = importedRunStory(
  { events: v0, 'aria-label': 'OpenHands V0 trajectory' },
  ['execute_bash'],
);

/** V1 SDK events: actions grouped by `llm_response_id`, a rejected and a failed call, a condensation. */
export const V1SdkEvents = importedRunStory({ events: v1, 'aria-label': 'OpenHands V1 events' }, [
  'terminal',
]);

/**
 * V1 sub-agents (README "OpenHands V1 sub-agents"): `task` calls and a
 * `delegate` call, each sub-agent an agent span under its call, holding the
 * prompt it was given; one task runs in the background until `task_output`.
 */
export const V1SubAgents = importedRunStory(
  { events: delegated, 'aria-label': 'OpenHands V1 sub-agents' },
  ['code-explorer', 'Run pytest and report which assertion fails'],
);
