import type { Meta } from '@storybook/react-vite';
import { importClaudeCode } from '../src/index.js';
import { Transcript } from '../src/react.js';
import { importedRunStory } from './imported-run.js';
import session from '../test/fixtures/claude-code/session.jsonl?raw';
import withSubagent from '../test/fixtures/claude-code/with-subagent.jsonl?raw';
import agentFile from '../test/fixtures/claude-code/agent-f00d.jsonl?raw';

// The project's own Claude Code fixtures, imported once at module load (issue 20).
const sidechain = importClaudeCode(session, { filename: 'sess-1.jsonl' }).events;
const subagentFile = importClaudeCode(withSubagent, { subagents: { f00d: agentFile } }).events;

const meta = {
  title: 'Import/Claude Code',
  component: Transcript,
  tags: ['light-only'],
  parameters: { layout: 'fullscreen' },
} satisfies Meta<typeof Transcript>;

export default meta;

/**
 * A session: turns, assistant records merged into one model event per
 * response, tool calls paired with their results (one failed, one never
 * answered), an inline sidechain as a sub-agent under its Task call, a
 * compaction and a rewound branch.
 */
export const Session = importedRunStory(
  { events: sidechain, 'aria-label': 'Claude Code session' },
  ['Bash'],
);

/** A newer session whose sub-agent lives in `<sessionId>/subagents/agent-f00d.jsonl`. */
export const SubAgentFile = importedRunStory({
  events: subagentFile,
  'aria-label': 'Claude Code session with a sub-agent file',
});
