import type { Meta } from '@storybook/react-vite';
import { importOtlp } from '../src/index.js';
import { Transcript } from '../src/react.js';
import { importedRunStory } from './imported-run.js';
import agentRun from '../test/fixtures/otlp/agent-chat-tool.otlp.json';
import openInference from '../test/fixtures/otlp/openinference-agent.otlp.json';

// The project's own OTLP fixtures, imported once at module load (issue 20):
// a GenAI agent run with a sub-agent under a tool call, and an OpenInference
// agent with flattened message attributes.
const genai = importOtlp(agentRun).events;
const oi = importOtlp(openInference).events;

const meta = {
  title: 'Import/OpenTelemetry traces',
  component: Transcript,
  tags: ['light-only'],
  parameters: { layout: 'fullscreen' },
} satisfies Meta<typeof Transcript>;

export default meta;

/** invoke_agent → chat → execute_tool, a refund sub-agent whose tool call failed. */
export const GenAiAgentRun = importedRunStory({ events: genai, 'aria-label': 'GenAI agent run' }, [
  'lookup_order',
]);

/** OpenInference AGENT, RETRIEVER, LLM, TOOL and CHAIN spans. */
export const OpenInferenceAgent = importedRunStory({
  events: oi,
  'aria-label': 'OpenInference agent run',
});
