// The source runs the adapter and import benches of issue 33 feed skein:
// AG-UI runs built as `@ag-ui/core` events (validated once, as a template)
// and UI message stream chunks made by the `ai` package's own `streamText`
// on its mock model; repeated under fresh ids up to the size asked for.
import { agUiRun } from '../test/core/helpers/ag-ui-runs.js';
import { question, uiMessages, uiRun } from '../test/core/helpers/vercel-ai-runs.js';

/** One AG-UI run (20 tokens, 3 tool calls, state, activity, chunks, snapshot), its ids marked `tmpl`. */
const agUiTemplate = agUiRun({ runId: 'tmpl', start: 1767225600000, tokens: 20, tools: 3 }).map(
  (e) => JSON.stringify(e),
);

/**
 * About `n` AG-UI events as JSON Lines: the template run again and again,
 * each time as a new run of the same thread.
 *
 * @example
 * const text = makeAgUiLines(100_000);
 */
export function makeAgUiLines(n: number): string {
  const lines: string[] = [];
  for (let k = 0; lines.length < n; k++)
    for (const line of agUiTemplate) lines.push(line.replaceAll('tmpl', `r${k}`));
  return lines.join('\n');
}

const chunkTemplate = (await uiRun({ tokens: 30, messageId: 'tmpl' })).map((c) =>
  JSON.stringify(c).replaceAll('call-1', 'tmpl-call'),
);
const storedTemplate = (await uiMessages(chunkTemplate.map((l) => JSON.parse(l) as never))).at(-1)!;

/**
 * About `n` UI message stream chunks as JSON Lines: the template response
 * (data, reasoning, 30 tokens, a tool call, a source, a file, a last answer)
 * again and again, each a new message.
 *
 * @example
 * const text = makeUIChunkLines(100_000);
 */
export function makeUIChunkLines(n: number): string {
  const lines: string[] = [];
  for (let k = 0; lines.length < n; k++)
    for (const line of chunkTemplate) lines.push(line.replaceAll('tmpl', `m${k}`));
  return lines.join('\n');
}

/**
 * A stored conversation of about `n` UI message parts, as the JSON array
 * `useChat` keeps: the question and the template answer, again and again.
 *
 * @example
 * const json = makeUIMessagesJson(100_000);
 */
export function makeUIMessagesJson(n: number): string {
  const answer = JSON.stringify(storedTemplate);
  const ask = JSON.stringify(question);
  const per = storedTemplate.parts.length + 1;
  const out: string[] = [];
  for (let k = 0; k * per < n; k++)
    out.push(ask.replaceAll('user-1', `u${k}`), answer.replaceAll('tmpl', `m${k}`));
  return `[${out.join(',')}]`;
}
