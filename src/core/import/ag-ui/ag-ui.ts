// AG-UI (https://docs.ag-ui.com, `@ag-ui/core` 1.0): the event protocol
// between an agent and its front end, spoken by CopilotKit, LangGraph,
// CrewAI, Mastra, Pydantic AI, Google ADK, Strands and others. skein reads it
// live (`fromAgUi`, fed by an `@ag-ui/client` agent or any source of events)
// and recorded (`importAgUi`): JSON Lines or a JSON array of events, or the
// Server-Sent Events text `@ag-ui/encoder` writes (`data: {…}\n\n`). Both go
// through one importer (./importer.ts, where the mapping is described).
//
// Quirks (README "Supported formats"):
// - Times are optional (epoch ms when given). Undated events get a
//   synthesized time in an import and their arrival time live, flagged.
// - `@ag-ui/client` expands `*_CHUNK` events into start/content/end events
//   and drops the chunk's own `timestamp`; the importer follows the same
//   rules, so both give the same events when chunks carry no time.
// - `rawEvent` of streamed text, reasoning and argument deltas is not kept
//   (one provider payload per token); every other event keeps it in
//   `metadata.ag_ui.raw_event`.
import { importLines, sniffer, type FormatImporter, type ImportResult } from '../format.js';
import type { ImportOptions } from '../guards.js';
import {
  copySourceEvent,
  createLiveAdapter,
  type LiveAdapter,
  type LiveAdapterOptions,
} from '../live.js';
import { Probe, type ImportInput } from '../probe.js';
import { eachSseRecord, looksLikeSse } from '../sse.js';
import { ImportContext, isRecord } from '../guards.js';
import { AgUiImporter } from './importer.js';
import type { AgUiEventInput } from './types.js';

/** The event types of AG-UI 1.0 (and the deprecated THINKING_* of 0.0.45 and before). */
const TYPES = new Set([
  'TEXT_MESSAGE_START',
  'TEXT_MESSAGE_CONTENT',
  'TEXT_MESSAGE_END',
  'TEXT_MESSAGE_CHUNK',
  'TOOL_CALL_START',
  'TOOL_CALL_ARGS',
  'TOOL_CALL_END',
  'TOOL_CALL_CHUNK',
  'TOOL_CALL_RESULT',
  'STATE_SNAPSHOT',
  'STATE_DELTA',
  'MESSAGES_SNAPSHOT',
  'ACTIVITY_SNAPSHOT',
  'ACTIVITY_DELTA',
  'RAW',
  'CUSTOM',
  'RUN_STARTED',
  'RUN_FINISHED',
  'RUN_ERROR',
  'STEP_STARTED',
  'STEP_FINISHED',
  'REASONING_START',
  'REASONING_MESSAGE_START',
  'REASONING_MESSAGE_CONTENT',
  'REASONING_MESSAGE_END',
  'REASONING_MESSAGE_CHUNK',
  'REASONING_END',
  'REASONING_ENCRYPTED_VALUE',
  'SUBAGENT_STARTED',
  'SUBAGENT_FINISHED',
  'SUBAGENT_ERROR',
  'THINKING_START',
  'THINKING_END',
  'THINKING_TEXT_MESSAGE_START',
  'THINKING_TEXT_MESSAGE_CONTENT',
  'THINKING_TEXT_MESSAGE_END',
]);

/** AG-UI's event type spelling: upper snake case. */
const TYPE_SHAPE = /^[A-Z][A-Z0-9_]*$/;

function isAgUiRecords(records: readonly unknown[]): boolean {
  if (records.length === 0) return false;
  const first = records[0];
  if (!isRecord(first) || !TYPES.has(first['type'] as string)) return false;
  return records.every(
    (r) => isRecord(r) && typeof r['type'] === 'string' && TYPE_SHAPE.test(r['type']),
  );
}

/** The first few records of a recorded event stream (from the probe's head only). */
function sseHeadRecords(probe: Probe): unknown[] {
  const out: unknown[] = [];
  const head = probe.head();
  // The head may end inside a message: only the complete ones count.
  const complete = head.slice(0, head.lastIndexOf('\n\n') + 2);
  eachSseRecord(complete, new ImportContext({}), (value) => {
    if (out.length < 4) out.push(value);
  });
  return out;
}

/**
 * The AG-UI format: JSON Lines, a JSON array, or recorded Server-Sent Events.
 *
 * @example
 * import { Probe } from '../probe.js';
 * import { agUiFormat } from './ag-ui.js';
 * agUiFormat.detect(new Probe('{"type":"RUN_STARTED","threadId":"t","runId":"r"}\n')); // true
 */
export const agUiFormat: FormatImporter & {
  incremental(options: ImportOptions): AgUiImporter;
} = {
  id: 'ag-ui',
  name: 'AG-UI events',
  extensions: ['.jsonl', '.sse', '.json'],
  detect(probe) {
    if (probe.isRaw && looksLikeSse(probe.head())) return isAgUiRecords(sseHeadRecords(probe));
    return isAgUiRecords(probe.records(4));
  },
  import(probe, options): ImportResult {
    if (probe.isRaw && looksLikeSse(probe.head())) {
      const imp = new AgUiImporter(options);
      const ctx = new ImportContext(options);
      eachSseRecord(probe.text() ?? '', ctx, (value, path) => imp.push(value, path));
      const events = imp.end();
      return { format: 'ag-ui', events, diagnostics: [...ctx.finish(), ...imp.diagnostics()] };
    }
    return importLines(agUiFormat, probe, options);
  },
  incremental: (options) => new AgUiImporter(options),
};

/**
 * Whether an input (text, bytes or parsed JSON) is an AG-UI recording.
 *
 * @example
 * isAgUi('data: {"type":"RUN_STARTED","threadId":"t","runId":"r"}\n\n'); // true
 */
export const isAgUi: (input: ImportInput, filename?: string) => boolean = sniffer(agUiFormat);

/**
 * Imports a recorded AG-UI run: JSON Lines or a JSON array of events, or the
 * Server-Sent Events text `@ag-ui/encoder` writes.
 *
 * @example
 * declare const sse: string; // what an AG-UI endpoint sent
 * const { events, diagnostics } = importAgUi(sse);
 * const stream = EventStream.from(events);
 */
export function importAgUi(input: ImportInput, options: ImportOptions = {}): ImportResult {
  return agUiFormat.import(new Probe(input, options.filename), options) as ImportResult;
}

/**
 * A live adapter for AG-UI events: push each event as it arrives (from an
 * `@ag-ui/client` agent's `onEvent`, an SSE reader, a server-side stream)
 * and render `adapter.stream`. A message streamed token by token is one row,
 * re-emitted as it grows. Events are copied when pushed: the caller's objects
 * are never frozen.
 *
 * @example
 * declare const agent: { subscribe(s: { onEvent(p: { event: AgUiEventInput }): void }): unknown };
 * const adapter = fromAgUi();
 * agent.subscribe({ onEvent: ({ event }) => adapter.push(event) });
 * // <Transcript stream={adapter.stream} />
 */
export function fromAgUi(options: LiveAdapterOptions = {}): LiveAdapter<AgUiEventInput> {
  const importer = new AgUiImporter({ ...options, now: options.now ?? Date.now });
  return createLiveAdapter<AgUiEventInput>('fromAgUi', importer, options, copySourceEvent);
}
