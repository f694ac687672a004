/**
 * The catalogue of error and diagnostic codes. Every thrown {@link ImportError}
 * and every {@link Diagnostic} carries one of these codes, so callers (and
 * tests) can branch on a stable string instead of parsing messages.
 *
 * Each entry maps a code to a function that builds its human message from the
 * details of the case. Add new codes here, never inline strings elsewhere.
 * (Pattern: xyflow's `errorMessages`.)
 */
export const errorMessages = {
  // --- generic input errors -------------------------------------------------
  invalid_json: (detail: string) => `Invalid JSON: ${detail}`,
  wrong_type: (expected: string, got: string) => `Expected ${expected}, got ${got}`,
  missing_field: (field: string) => `Required field "${field}" is missing`,
  // --- inspect_ai log import (src/core/import/inspect/inspect-log.ts, zip.ts) ---------
  not_inspect_log: (detail: string) => `Not an inspect_ai log: ${detail}`,
  unsupported_version: (version: string) => `Unsupported inspect_ai log version ${version}`,
  zip_truncated: (detail: string) => `Truncated zip archive: ${detail}`,
  zip_corrupt: (detail: string) => `Corrupt zip archive: ${detail}`,
  zip_unsupported: (detail: string) => `Unsupported zip feature: ${detail}`,
  missing_member: (name: string) => `The archive has no member "${name}"`,
  sample_not_found: (id: string, epoch: number | string) =>
    `No sample with id ${id} and epoch ${epoch}`,
  dangling_attachment: (ref: string) => `Unresolved attachment reference "${ref}" (kept as is)`,
  dangling_pool_ref: (pool: string, start: number, end: number, size: number) =>
    `Reference [${start}, ${end}) is outside the ${pool} pool of ${size} entries`,
  missing_events: (where: string) => `${where} has no events`,
  chunk_gap: (sequence: string, expected: number, got: number) =>
    `Chunk of "${sequence}" starts at ${got}, expected ${expected}`,
  // --- importers, shared (src/core/import/guards.ts, lines.ts, index.ts) -------
  invalid_json_line: (line: number, detail: string) =>
    `Line ${line} is not valid JSON (${detail}); skipped`,
  value_invented: (what: string, count: number) =>
    `${count} ${what} value${count === 1 ? ' was' : 's were'} not in the source and ${count === 1 ? 'was' : 'were'} invented (flagged in each event's metadata.skein_invented)`,
  value_too_deep: (count: number, limit: number, first: string) =>
    `${count} value${count === 1 ? ' was' : 's were'} nested more than ${limit} levels deep; cut at that depth and marked "[value_too_deep: …]" (first in event ${first})`,
  unrecognized_format: (tried: string) => `Not a format skein reads (tried: ${tried})`,
  unsupported_input: (format: string, got: string) => `The ${format} importer cannot read ${got}`,
  truncated_input: (detail: string) => `The input ends early: ${detail}`,
  input_too_large: (size: string) =>
    `The input is one JSON document of ${size}, more than a JavaScript string can hold (about 512 MiB); JSON Lines of any size are read line by line`,
  line_too_long: (line: number, size: string) =>
    `Line ${line} is ${size}, more than a JavaScript string can hold (about 512 MiB); skipped`,
  // --- OpenHands importer (src/core/import/openhands/openhands.ts) -----------------------
  openhands_not_an_event: (got: string) =>
    `Expected an OpenHands event (an action, an observation or a "kind" event), got ${got}; kept as an info event`,
  openhands_duplicate_id: (id: string) =>
    `Event id ${JSON.stringify(id)} appeared before; this event gets a derived identity`,
  openhands_duplicate_call: (id: string) =>
    `Tool call ${JSON.stringify(id)} is used by a second action before the first was answered; observations pair with the later one`,
  openhands_observation_unpaired: (ref: string) =>
    `Observation for action ${JSON.stringify(ref)}, which is not in the log; kept on its own`,
  openhands_tools_unanswered: (count: number) =>
    `${count} tool call${count === 1 ? '' : 's'} never got an observation; left open`,
  openhands_delegate_unfinished: (agent: string) =>
    `Delegate ${JSON.stringify(agent)} never returned; its span is closed where the log ends`,
  // --- OpenTelemetry importer (src/core/import/otlp/otlp.ts) -------------------------
  otlp_not_a_span: (got: string) =>
    `Not an OTLP export, resource, scope or span (${got}); kept as an info event`,
  otlp_duplicate_span: (id: string) => `Span "${id}" appears more than once; the first is kept`,
  otlp_orphan_span: (id: string, parent: string) =>
    `Span "${id}" names parent "${parent}", which is not in the input; placed at the root`,
  otlp_parent_cycle: (id: string) => `Span "${id}" is part of a parent cycle; placed at the root`,
  // --- Jupyter importer (src/core/import/jupyter/jupyter.ts) ---------------------------
  jupyter_unsupported_nbformat: (version: string) =>
    `nbformat ${version} notebooks are not supported (4.x only); convert with \`jupyter nbconvert --to notebook\``,
  jupyter_unknown_output: (type: string) =>
    `Unknown output type ${JSON.stringify(type)}; kept as an info event`,
  jupyter_unknown_cell: (type: string) =>
    `Unknown cell type ${JSON.stringify(type)}; kept as an info event`,
  jupyter_not_a_message: (got: string) => `Expected a Jupyter kernel message, got ${got}; skipped`,
  jupyter_update_unknown_display: (id: string) =>
    `update_display_data for display ${JSON.stringify(id)}, which was never shown; shown as a new display`,
  jupyter_request_unfinished: (parent: string) =>
    `Execution ${JSON.stringify(parent)} never went idle; closed at the end of the log`,
  // --- Claude Code importer (src/core/import/claude-code/claude-code.ts) -------------------
  claude_code_not_a_record: (got: string) =>
    `Expected a Claude Code record (an object with a "type"), got ${got}; kept as an info event`,
  claude_code_bad_message: (got: string) =>
    `Expected "message" to be an object, got ${got}; the record is kept as an info event`,
  claude_code_duplicate_uuid: (uuid: string) =>
    `Record uuid ${JSON.stringify(uuid)} appeared before; this record gets a derived id`,
  claude_code_result_unpaired: (id: string) =>
    `tool_result for ${JSON.stringify(id)}, a tool call not in the log; kept as an info event`,
  claude_code_agent_unlinked: (agent: string) =>
    `Sub-agent ${JSON.stringify(agent)} has no Task call that spawned it in the log; placed at the root`,
  claude_code_tools_unanswered: (count: number) =>
    `${count} tool call${count === 1 ? '' : 's'} never got a result; left open`,
  claude_code_session_not_found: (why: string) => `No Claude Code session there: ${why}`,
  // --- ACP importer (src/core/import/acp/acp.ts) ---------------------------------
  acp_unknown_record: (detail: string) =>
    `Not an ACP message (${detail}); kept as an info event with source "acp"`,
  acp_unknown_update: (kind: string) =>
    `Unknown session update "${kind}"; kept as an info event with source "acp"`,
  acp_unpaired_response: (id: string) =>
    `Response to request ${id}, which is not in the capture; kept as an info event`,
  acp_unclosed: (what: string) => `${what} was still open when the session ended; closed`,
  // --- defect importer (src/core/import/defect/defect.ts) ---------------------------
  defect_unknown_event: (type: string) =>
    `Unknown defect event "${type}"; kept as an info event with source "defect"`,
  defect_seq_gap: (expected: number, got: number) =>
    `Journal seq jumps from the expected ${expected} to ${got}: records are missing`,
  defect_unclosed: (what: string) => `${what} was still open when the log ended; closed`,
  defect_unresolved_parent: (id: string) =>
    `Sub-agent path names tool call "${id}", which is not in the log; its agent span sits at the root`,
  defect_no_turn: (type: string) => `"${type}" outside any turn`,
  // --- agex importer (src/core/import/agex/agex.ts) -------------------------------
  agex_unmatched_outcome: (kind: string, namespace: string) =>
    `${kind} in agent "${namespace}" closes no open task; kept in the agent's span`,
  agex_task_unclosed: (task: string) =>
    `Task "${task}" was never closed by a success, fail, clarify or cancelled event; ended at the agent's last event`,
  // --- cantus importer (src/core/import/cantus/cantus.ts) ---------------------------
  cantus_unpaired_observation: (type: string) => `${type} follows no action; kept as its own event`,
  cantus_unanswered_action: (skill: string) =>
    `The call of "${skill}" has no observation; kept without a result`,
  // --- recorded event streams and live adapters (src/core/import/sse.ts, live.ts) ---
  invalid_sse_data: (message: number, detail: string) =>
    `Event-stream message ${message} is not valid JSON (${detail}); skipped`,
  adapter_ended: (adapter: string) => `${adapter}: push after end(); the adapter has finished`,
  // --- AG-UI (src/core/import/ag-ui/) ----------------------------------------
  ag_ui_not_an_event: (got: string) =>
    `Expected an AG-UI event (an object with a string "type"), got ${got}; kept as an info event`,
  ag_ui_unknown_event: (type: string) =>
    `Unknown AG-UI event "${type}"; kept as an info event with source "ag-ui"`,
  ag_ui_unopened: (what: string) => `${what} was never started; started here`,
  ag_ui_unclosed: (what: string) => `${what} was still open at the end; closed`,
  ag_ui_no_run: (type: string) => `"${type}" comes outside any run`,
  ag_ui_other_run: (type: string, named: string, open: string) =>
    `${type} names run "${named}", which never started; it ends the open run "${open}"`,
  ag_ui_late_start: (what: string) =>
    `${what} was started again, or after events that named it had opened it; the span keeps what opened it, this start is kept as an info event`,
  ag_ui_no_id: (type: string) =>
    `${type} names no id and continues no open stream; given an invented id`,
  ag_ui_bad_arguments: (id: string, detail: string) =>
    `The arguments of tool call "${id}" are not a JSON object (${detail}); their text is kept in metadata.ag_ui.arguments_text`,
  ag_ui_bad_patch: (detail: string) =>
    `JSON Patch operation not applied (${detail}); kept as given`,
  ag_ui_unmatched_step: (name: string) =>
    `STEP_FINISHED "${name}" closes no open step; kept as an info event`,
  // --- Vercel AI SDK (src/core/import/vercel-ai/) -----------------------------
  vercel_ai_not_a_chunk: (got: string) =>
    `Expected a UI message stream chunk (an object with a string "type"), got ${got}; kept as an info event`,
  vercel_ai_unknown_chunk: (type: string) =>
    `Unknown UI message stream chunk "${type}"; kept as an info event with source "vercel-ai"`,
  vercel_ai_not_a_message: (got: string) =>
    `Expected a UIMessage (an object with "id", "role" and "parts"), got ${got}; kept as an info event`,
  vercel_ai_unopened: (what: string) => `${what} was never started; started here`,
  vercel_ai_unclosed: (what: string) => `${what} was still open at the end; closed`,
  // --- canonical events (src/core/events/parse.ts) ----------------------------
  invalid_timestamp: (value: string) => `Not an ISO 8601 date-time: ${JSON.stringify(value)}`,
  invalid_value: (expected: string, got: string) => `Expected one of ${expected}, got ${got}`,
  uuid_derived: (uuid: string) =>
    `Event has no uuid; derived "${uuid}" from its position and content`,
  default_filled: (field: string, value: string) => `Missing "${field}"; filled with ${value}`,
  field_inferred: (field: string, from: string) => `Missing "${field}"; taken from "${from}"`,
  timestamp_missing: (used: string) => `Event has no timestamp; used ${used}`,
  timestamp_no_offset: (value: string) =>
    `Timestamp ${JSON.stringify(value)} has no UTC offset; read as UTC`,
  unknown_event_kind: (kind: string) => `Unknown event kind ${JSON.stringify(kind)}; kept as is`,
  diagnostics_truncated: (code: string, count: number) =>
    `${count} more "${code}" diagnostics not listed`,
  // --- EventStream (src/core/stream/event-stream.ts) -------------------------
  not_an_event: (got: string) =>
    `EventStream.append expects a canonical event (an object with string "event", "uuid" and "timestamp"), got ${got}`,
  stream_closed: (length: number) =>
    `EventStream.append after close(): the stream is complete (${length} events)`,
  // --- timeline (src/core/timeline/) -----------------------------------------
  timeline_unresolved_event: (uuid: string) =>
    `Timeline refers to event "${uuid}", which is not in the event list`,
  // --- span tree (src/core/tree/) ---------------------------------------------
  span_end_unknown: (id: string) => `span_end for span "${id}", which never began; dropped`,
  span_end_duplicate: (id: string) =>
    `Span "${id}" has already ended; this later span_end replaces the earlier one (inspect's rule: the last end wins)`,
  span_duplicate_id: (id: string) =>
    `Span id "${id}" was already begun; as in inspect, the span is shown once per begin, named by its last begin, each copy holding every event of the id`,
  span_parent_cycle: (id: string, parent: string) =>
    `Span "${id}" would close a parent cycle through "${parent}"; placed at the root instead`,
  span_copy_cycle: (id: string) =>
    `This begin of span "${id}" would show the span inside itself; that copy is left out`,
  span_copies_capped: (limit: string) =>
    `Spans begun more than once nest copies past ${limit} nodes; later copies are shown without their contents`,
  step_end_unmatched: (name: string) =>
    `step end "${name}" has no open step of that name; kept as a plain event`,
  step_unclosed: (name: string, outer: string) =>
    `step "${name}" was still open when the outer step "${outer}" ended; left without an end`,
  // --- OpenAI Agents SDK traces (src/core/import/openai-agents/) -------------
  openai_agents_not_a_record: (got: string) =>
    `Expected an OpenAI Agents trace or span record, got ${got}; skipped`,
  openai_agents_orphan_span: (id: string, parent: string) =>
    `Span "${id}" names parent "${parent}", which was not seen; placed at its trace's root`,
  openai_agents_unclosed: (what: string) => `${what} was still open when the trace ended; closed`,
  openai_agents_processor_failed: (hook: string, detail: string) =>
    `skeinTracingProcessor ${hook} failed (${detail}); the agent run goes on`,
  // --- swimlane (src/core/swimlane/) -----------------------------------------
  invalid_option: (option: string, expected: string, got: string) =>
    `Option "${option}" must be ${expected}, got ${got}`,
  // --- arguments and options of the API (misuse, not bad input data) ---------
  invalid_argument: (fn: string, name: string, expected: string, got: string) =>
    `${fn}: "${name}" must be ${expected}, got ${got}`,
  index_out_of_range: (where: string, index: number, length: number) =>
    `${where} ${index} is outside [0, ${length})`,
  builder_empty_kind: () => 'events.unknown: the kind must be a non-empty string',
  builder_known_kind: (kind: string) =>
    `events.unknown: "${kind}" is a known kind; use events.${kind}(…)`,
  // --- <Transcript> layout warnings (src/react/transcript/layout.ts) ---------
  layout_no_height: () =>
    'The transcript has no height: its parent is 0 px tall. Give the parent a height (or flex: 1 in a flex column), or remove the height: 0 rule.',
  layout_unbounded: (height: number) =>
    `The transcript's scroller grows with its rows (${Math.round(height)} px) instead of scrolling: a style overrides its height or overflow. Only the rows in the window are drawn; remove the override.`,
  // --- live feeds (src/core/live/) --------------------------------------------
  live_http_status: (status: number, detail: string) =>
    `The live server answered HTTP ${status}${detail === '' ? '' : `: ${detail}`}`,
  live_connection_lost: (detail: string) => `The live connection was lost: ${detail}`,
  live_idle_timeout: (ms: number) => `Nothing arrived for ${ms} ms; reconnecting`,
  live_server_closed: (reason: string, detail: string) =>
    `The live server closed the connection (${reason})${detail === '' ? '' : `: ${detail}`}`,
  live_protocol: (detail: string) => `Unexpected live message: ${detail}`,
  live_gap: (expected: string, got: string) =>
    `Expected sequence ${expected}, got ${got}; resuming from the last one received`,
  live_no_transport: (name: string) =>
    `No ${name} in this runtime; pass one in the options or choose another transport`,
  live_bad_position: (after: string, why: string) =>
    `Cannot read after ${JSON.stringify(after)}: ${why}`,
  redis_no_blocking_client: () =>
    'createRedisSource needs blockingClient, or a client with duplicate()',
  // --- files a server opens (src/node/files.ts) ---------------------------------
  file_not_regular: (path: string, what: string) =>
    `${path} is ${what}, not a regular file; not opened`,
  file_replaced: (path: string) => `${path} is no longer the file that was listed; not opened`,
  // --- command line (src/node/cli.ts): printed as `skein: <message>` ----------
  cli_unknown_command: (command: string) => `unknown command '${command}'`,
  cli_no_such_command: (topic: string) => `no command '${topic}'`,
  cli_unknown_option: (option: string) => `unknown option '${option}'`,
  cli_option_needs_value: (option: string) => `${option} needs a value`,
  cli_bad_option: (option: string, rule: string) => `${option} ${rule}`,
  cli_missing_argument: (what: string) => `missing ${what}`,
  cli_unexpected_argument: (arg: string) => `unexpected argument '${arg}'`,
  cli_no_stdin: () => '- (standard input) is not available here',
  cli_view_stdin: () => 'view serves a file, a folder or a URL, not standard input',
  cli_live_needs_url: () => '--live applies to a URL (a live event stream)',
  cli_one_run: (name: string, format: string) =>
    `--sample and --epoch apply to logs with several samples (inspect_ai); ${name} (${format}) holds one run`,
  cli_port_in_use: (port: number, host: string) =>
    `port ${port} on ${host} is in use; pick another with --port (0: any free port)`,
  cli_no_address: (host: string) => `cannot listen on ${host}: no such local address`,
  cli_no_such_file: (path: string) => `${path}: no such file`,
  cli_permission_denied: (path: string) => `${path}: permission denied`,
  cli_unreadable: (path: string, why: string) => `${path}: cannot be read (${why})`,
  cli_is_directory: (path: string, supported: string) =>
    `${path} is a directory; expected a log file (${supported}). 'skein info ${path}' lists the logs in it, 'skein view ${path}' opens them.`,
  cli_not_a_file: (path: string) => `${path} is not a regular file`,
  cli_not_file_or_folder: (path: string) => `${path} is neither a file nor a folder`,
  cli_no_samples: (name: string) => `${name}: the log has no samples`,
  cli_input_error: (name: string, message: string, code: string) => `${name}: ${message} [${code}]`,
  cli_sample_not_found: (name: string, message: string, code: string, samples: string) =>
    `${name}: ${message} [${code}]. ${samples}`,
  cli_not_a_log: (name: string, what: string, supported: string) =>
    `${name}: not a log skein can read: it is ${what}. Expected one of: ${supported}.`,
  cli_zip_unreadable: (name: string, message: string, code: string) =>
    `${name}: a zip archive (an inspect_ai .eval?) that cannot be opened: ${message} [${code}]. The file may have been cut short while it was written or copied.`,
  // --- single-file export (src/node/export.ts) ----------------------------------
  export_too_big: (name: string, size: number, limit: number) =>
    `${name}: the page would be ${(size / 2 ** 20).toFixed(1)} MiB, more than one file should hold (${(limit / 2 ** 20).toFixed(1)} MiB). Share it as a static site with 'skein bundle', export one sample (--sample), or raise the limit (--max-size).`,
  export_no_viewer: (file: string) =>
    `The viewer is not built (${file} is missing); run 'npm run build'`,
  export_not_a_page: () => 'Not a page written by skein export (no embedded run)',
  // --- display renderers (src/react/display/) --------------------------------
  display_no_renderer: (mimeType: string) => `No component registered for ${mimeType}`,
  display_not_text: (mimeType: string, got: string) =>
    `${mimeType} data must be a string, got ${got}`,
  display_not_raster: (mimeType: string) => `Not a raster image type: ${mimeType}`,
  display_not_base64: (mimeType: string) => `${mimeType} data is not base64`,
  sanitize_no_dom: () => 'sanitizeHtml needs a DOM (DOMPurify is not supported here)',
} satisfies Record<string, (...args: never[]) => string>;

/** A stable error or diagnostic code from {@link errorMessages}. */
export type ErrorCode = keyof typeof errorMessages;

/** Builds the message for `code` from its arguments. */
export function errorMessage<C extends ErrorCode>(
  code: C,
  ...args: Parameters<(typeof errorMessages)[C]>
): string {
  const build = errorMessages[code] as (...a: unknown[]) => string;
  return build(...args);
}

/**
 * Something an importer or parser repaired or noticed without failing: a
 * filled default, a dropped duplicate, an unresolved reference it kept as is.
 * Diagnostics are returned next to the data, never logged.
 *
 * @example
 * const { events, diagnostics } = parseEvents(json);
 * declare function report(line: string): void;
 * for (const d of diagnostics) report(`${d.path}: ${d.message}`);
 */
export interface Diagnostic {
  /** Stable code from the catalogue. */
  readonly code: ErrorCode;
  /** `'warning'` for repairs that may change meaning, `'info'` for defaults filled. */
  readonly severity: 'info' | 'warning';
  /** Human-readable message. */
  readonly message: string;
  /** JSON path of the place, e.g. `$.samples[0].events[12].timestamp`. */
  readonly path: string;
  /**
   * On a `diagnostics_truncated`: the code over the cap and how many of it
   * were not listed, so a count by kind ({@link countDiagnostics}) is exact.
   */
  readonly omitted?: { readonly code: ErrorCode; readonly count: number };
}

/** The arguments of `new ImportError(code, path, ...details)`: the details are those of the code's message. */
export type ImportErrorArgs = {
  [C in ErrorCode]: [code: C, path: string, ...details: Parameters<(typeof errorMessages)[C]>];
}[ErrorCode];

/** The arguments of `new SkeinError(code, ...details)`. */
export type SkeinErrorArgs = {
  [C in ErrorCode]: [code: C, ...details: Parameters<(typeof errorMessages)[C]>];
}[ErrorCode];

/**
 * The base of every error skein throws. Its message is derived from its
 * `code` and `details` through the one catalogue ({@link errorMessages}),
 * so a throw site never writes a second string, and callers branch on `code`.
 *
 * @example
 * declare function showHint(details: readonly unknown[]): void;
 * try {
 *   renderTimelineAscii(buildTimeline(stream.toArray()), { width: 12.5 });
 * } catch (e) {
 *   if (e instanceof SkeinError && e.code === 'invalid_option') showHint(e.details);
 * }
 */
export class SkeinError extends Error {
  override name = 'SkeinError';

  /**
   * `instanceof SkeinError` also holds for a {@link SkeinTypeError}, which has
   * to extend `TypeError` instead (a class has one prototype chain). Only the
   * base class widens the check: `instanceof ImportError` stays exact.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (Function.prototype[Symbol.hasInstance].call(this, value)) return true;
    return this === SkeinError && value instanceof SkeinTypeError;
  }

  /** Stable code from the catalogue. */
  readonly code: ErrorCode;
  /** The arguments the code's message was built from. */
  readonly details: readonly unknown[];

  constructor(...args: SkeinErrorArgs) {
    super(messageFor(args));
    [this.code, ...this.details] = args;
  }

  /**
   * Records what caused this error (`error.cause`), for chaining from a throw site.
   *
   * @example
   * declare const text: string;
   * try {
   *   JSON.parse(text);
   * } catch (e) {
   *   throw new ImportError('invalid_json', '$', String(e)).causedBy(e);
   * }
   */
  causedBy(cause: unknown): this {
    return setCause(this, cause);
  }
}

/** `error.cause`, set as the engine's own `new Error(m, { cause })` sets it. */
/** The catalogue's message for a code and its arguments. */
function messageFor([code, ...details]: SkeinErrorArgs): string {
  return (errorMessages[code] as (...a: unknown[]) => string)(...details);
}

function setCause<E extends Error>(error: E, cause: unknown): E {
  Object.defineProperty(error, 'cause', {
    value: cause,
    writable: true,
    enumerable: false,
    configurable: true,
  });
  return error;
}

/**
 * A {@link SkeinError} for a value of the wrong type handed to skein's API
 * (today: `EventStream.append` given something that is not an event). It
 * extends `TypeError`, as the EventStream contract skein implements asks for
 * other types (cantus `EventStream`: "other types raise TypeError"), and is
 * still `instanceof SkeinError` with a catalogue `code` and `details`, so
 * callers branch on either.
 *
 * @example
 * declare const untrusted: unknown;
 * try {
 *   stream.append(untrusted as never);
 * } catch (e) {
 *   // Either check holds: e instanceof TypeError, e instanceof SkeinError.
 *   if (e instanceof SkeinError && e.code === 'not_an_event') stream.append(parseEvent(untrusted).event);
 * }
 */
export class SkeinTypeError extends TypeError {
  override name = 'SkeinTypeError';
  /** Stable code from the catalogue. */
  readonly code: ErrorCode;
  /** The arguments the code's message was built from. */
  readonly details: readonly unknown[];

  constructor(...args: SkeinErrorArgs) {
    super(messageFor(args));
    [this.code, ...this.details] = args;
  }

  /** Records what caused this error (`error.cause`), as {@link SkeinError.causedBy} does. */
  causedBy(cause: unknown): this {
    return setCause(this, cause);
  }
}

/**
 * Thrown when input cannot be read at all (invalid JSON, a truncated zip, a
 * field of the wrong type). Names the code and the JSON path of the problem;
 * the message comes from the catalogue, with the path appended.
 *
 * @example
 * declare function showAt(path: string): void;
 * try {
 *   parseEvent(json);
 * } catch (e) {
 *   if (e instanceof ImportError && e.code === 'wrong_type') showAt(e.path);
 * }
 * // thrown as: new ImportError('missing_field', '$.events[3]', 'timestamp')
 */
export class ImportError extends SkeinError {
  override name = 'ImportError';
  /** JSON path of the problem (`$` for the whole input). */
  readonly path: string;

  constructor(...args: ImportErrorArgs) {
    const [code, path, ...details] = args;
    super(...([code, ...details] as unknown as SkeinErrorArgs));
    this.message = `${this.message} (at ${path})`;
    this.path = path;
  }
}

/**
 * Builds a {@link Diagnostic} whose message comes from the catalogue.
 *
 * @example
 * import { makeDiagnostic } from './errors.js';
 * const diagnostics: Diagnostic[] = [];
 * diagnostics.push(makeDiagnostic('warning', '$[3].update', 'unknown_event_kind', 'foo'));
 */
export function makeDiagnostic<C extends ErrorCode>(
  severity: Diagnostic['severity'],
  path: string,
  code: C,
  ...details: Parameters<(typeof errorMessages)[C]>
): Diagnostic {
  return { code, severity, message: errorMessage(code, ...details), path };
}

/**
 * The `diagnostics_truncated` diagnostic that stands for the `count`
 * diagnostics of `code` left out over a cap (one per code).
 *
 * @example
 * import { truncatedDiagnostic } from './errors.js';
 * truncatedDiagnostic('uuid_derived', 4900).message; // '4900 more "uuid_derived" diagnostics not listed'
 */
export function truncatedDiagnostic(code: ErrorCode, count: number): Diagnostic {
  return {
    code: 'diagnostics_truncated',
    severity: 'info',
    message: errorMessage('diagnostics_truncated', code, count),
    path: '$',
    omitted: { code, count },
  };
}

/**
 * Diagnostics counted by kind, most frequent first (then by code): what a
 * `diagnostics_truncated` left out counts toward its code, and the
 * truncation itself is not a kind of its own.
 *
 * @example
 * declare const diagnostics: Diagnostic[];
 * declare function report(line: string): void;
 * for (const [code, n] of countDiagnostics(diagnostics)) report(`${n} ${code}`);
 */
export function countDiagnostics(list: readonly Diagnostic[]): [ErrorCode, number][] {
  const counts = new Map<ErrorCode, number>();
  for (const d of list) {
    const [code, n] = d.omitted ? [d.omitted.code, d.omitted.count] : [d.code, 1];
    counts.set(code, (counts.get(code) ?? 0) + n);
  }
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

/**
 * Appends a property name or index to a JSON path, quoting names that are not
 * plain identifiers: `jsonPath('$', 'a')` → `$.a`, `jsonPath('$.a', 3)` → `$.a[3]`,
 * `jsonPath('$', 'x-y')` → `$["x-y"]`.
 */
export function jsonPath(base: string, key: string | number): string {
  if (typeof key === 'number') return `${base}[${key}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${base}.${key}` : `${base}[${JSON.stringify(key)}]`;
}
