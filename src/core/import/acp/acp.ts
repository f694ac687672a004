// Long on purpose (past 600 lines): one JSON-RPC session state (turns, requests and responses, tool upserts, permissions) that every ACP message updates.
// Agent Client Protocol (ACP) sessions: JSON-RPC 2.0 as JSON Lines, both
// directions. Spec: https://agentclientprotocol.com/protocol/overview
// (schema/v1/schema.json; the v2 draft's shapes too).
//
// Mapping (the one representation every importer maps to):
// - `session/prompt` request … its response = a `turn` span (`span_begin`
//   carries `metadata.stop_reason`, and `metadata.usage` when the response has
//   it); the prompt is a `user` message event. A capture holding only the
//   agent's side has no request: the first update after a turn opens an
//   implicit turn, closed by the response that carries `stopReason`.
// - `agent_message_chunk` / `user_message_chunk` / `agent_thought_chunk`
//   append to one `message` event: by `messageId` where present, else while
//   chunks of the same kind follow each other. Chunks are never de-duplicated
//   (a final chunk repeating the whole text is kept: some agents send one).
// - `tool_call`, `tool_call_update` (v2: the upsert alone) and
//   `tool_call_content_chunk` upsert one `tool` event whose `id` is the
//   `toolCallId`: `function` = `name` ?? `title` ?? `kind`, `arguments` =
//   `rawInput`, `result` = the content as text (text, diffs, terminals) or
//   `rawOutput`; `failed` status = `error`. The raw ACP fields are in
//   `metadata.acp` (`kind`, `status`, `title`, `content`, `locations`,
//   `rawOutput`). A tool first seen in `session/request_permission` or in a
//   lone update is created there.
// - `session/request_permission` + its answer = one `approval` event
//   (`escalate` until answered; then `approve`, `reject`, or `terminate` for a
//   cancelled prompt).
// - `plan` / `plan_update` = a `display` event with a markdown checklist
//   (`display_id` `plan`, or the plan's id), replaced in place.
// - `fs/*` and `terminal/*` requests from the agent = `sandbox` events,
//   completed by their response; `session/cancel` = an `interrupt`; a JSON-RPC
//   error = an `error` event.
// - A turn that ends `cancelled` (or, without a stop reason, after a
//   `session/cancel`) is aborted: all its events marked `metadata.aborted`.
// - Everything else (usage, mode, command and config updates, setup requests,
//   extension methods, records that are not ACP at all) is kept as an `info`
//   event with `source: 'acp'` and `data` = the raw update or message (with
//   its response under `data.response`). Unknown kinds add a diagnostic.
// - ACP has no timestamps: every event gets a synthesized, strictly increasing
//   time, flagged via `metadata.skein_invented` and one `value_invented`
//   diagnostic.
import { cloneJson } from '../../events/freeze.js';
import {
  OPEN_DRAFT,
  inventEnd,
  messageDraft,
  pendingApprovalDraft,
  pendingToolDraft,
  setMetadata,
  textOrParts,
} from '../drafts.js';
import type {
  ApprovalEvent,
  Content,
  DisplayEvent,
  Event,
  InfoEvent,
  JsonObject,
  JsonValue,
  MessageEvent,
  SandboxEvent,
  SpanBeginEvent,
  ToolEvent,
} from '../../events/types.js';
import { isAbortStopReason, markSpanAborted } from '../aborted.js';
import { importLines, importerParts, sniffer } from '../format.js';
import type { FormatImporter, ImportResult, IncrementalImporter } from '../format.js';
import {
  isRecord,
  own,
  type ImportContext,
  type ImportOptions,
  type JsonRecord,
  safeJson,
  valueText,
} from '../guards.js';
import { Probe, type ImportInput } from '../probe.js';
import {
  INVENTED_KEY,
  SyntheticClock,
  inventedOnly,
  inventedOnlyMetadata,
  type EventSink,
} from '../sink.js';

/** Methods the agent serves (requests from the client); every other method is served by the client. */
const AGENT_METHODS = new Set([
  'initialize',
  'authenticate',
  'logout',
  'session/new',
  'session/load',
  'session/resume',
  'session/close',
  'session/list',
  'session/delete',
  'session/set_mode',
  'session/set_model',
  'session/set_config_option',
  'session/prompt',
  'session/cancel',
]);

/** `sessionUpdate` kinds kept as info events without a diagnostic (known, nothing more to map). */
const INFO_UPDATES = new Set([
  'usage_update',
  'current_mode_update',
  'available_commands_update',
  'config_option_update',
  'session_info_update',
  'plan_removed',
  'notice',
  'compaction_update',
  'compaction_summary_chunk',
  'terminal_update',
  'terminal_output_chunk',
]);

/**
 * The kind of message a `sessionUpdate` kind streams into, if it is one.
 * A switch, not a lookup in an object: a key that is a string just parsed
 * (not an interned one) costs a string-table probe per lookup.
 */
function chunkKind(kind: string): ChunkKind | undefined {
  switch (kind) {
    case 'agent_message_chunk':
      return 'agent';
    case 'user_message_chunk':
      return 'user';
    case 'agent_thought_chunk':
      return 'thought';
    // v2 draft: messages patched by `messageId`.
    case 'agent_message':
      return 'agent';
    case 'user_message':
      return 'user';
    case 'agent_thought':
      return 'thought';
    default:
      return undefined;
  }
}

/** Updates that belong to a turn: in an agent-only capture they open an implicit one. */
const TURN_UPDATES = new Set([
  'agent_message_chunk',
  'user_message_chunk',
  'agent_thought_chunk',
  'agent_message',
  'agent_thought',
  'tool_call',
  'tool_call_update',
  'tool_call_content_chunk',
  'plan',
  'plan_update',
]);

type ChunkKind = 'agent' | 'user' | 'thought';

interface Pending {
  method: string;
  params: JsonRecord | undefined;
  order: number;
  /** When its id was first pending (the order `end` reports unanswered requests in). */
  seq: number;
  /** The event the response completes (turn span, approval, sandbox, info). */
  draft: Event | undefined;
  /** For `session/request_permission`: the options offered. */
  options: unknown[] | undefined;
}

/** A JSON-RPC id that can pair a request with its response. */
type RpcId = string | number;

function isRpcId(id: unknown): id is RpcId {
  return typeof id === 'string' || typeof id === 'number';
}

interface Turn {
  begin: SpanBeginEvent;
  request: RpcId | undefined;
  /** A `session/cancel` arrived during the turn. */
  cancelled?: true;
}

/** A tool call: its tool event and the approval last asked for it. */
interface Call {
  tool: ToolEvent;
  approval: ApprovalEvent | undefined;
}

/** Whether a tool call's status is final (compared: a status just parsed is not hashed yet). */
function isTerminalStatus(status: unknown): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

function idText(id: unknown): string {
  return typeof id === 'string' ? id : safeJson(id);
}

/**
 * ACP ContentBlock → skein content part (the schema's "ContentBlock"):
 * text, image and audio map to their kinds; resources, links and unknown
 * blocks are kept whole as `data` parts. Shared with the defect importer.
 *
 * @example
 * import { acpContentPart } from 'src/core/import/acp/acp.js';
 * acpContentPart({ type: 'text', text: 'Hi' }); // { type: 'text', text: 'Hi' }
 */
export function acpContentPart(block: unknown): Content {
  if (!isRecord(block)) return { type: 'data', data: { value: block as never } };
  const type = own(block, 'type');
  if (type === 'text') {
    const text = own(block, 'text');
    if (typeof text === 'string') return { type: 'text', text };
  } else if (type === 'image') {
    const data = own(block, 'data');
    const mime = own(block, 'mimeType');
    const uri = own(block, 'uri');
    if (typeof data === 'string' && typeof mime === 'string')
      return { type: 'image', image: `data:${mime};base64,${data}` };
    if (typeof uri === 'string') return { type: 'image', image: uri };
  } else if (type === 'audio') {
    const data = own(block, 'data');
    const mime = own(block, 'mimeType');
    const format =
      mime === 'audio/wav' || mime === 'audio/x-wav'
        ? 'wav'
        : mime === 'audio/mpeg' || mime === 'audio/mp3'
          ? 'mp3'
          : undefined;
    if (typeof data === 'string' && format)
      return { type: 'audio', audio: `data:${String(mime)};base64,${data}`, format };
  }
  // resource, resource_link, unknown block types: kept whole.
  return { type: 'data', data: block };
}

/**
 * The text of an ACP text block (`{ type: 'text', text }`, what
 * {@link acpContentPart} makes a text part of), else `undefined`.
 */
export function acpBlockText(block: unknown): string | undefined {
  if (!isRecord(block) || own(block, 'type') !== 'text') return undefined;
  const text = own(block, 'text');
  return typeof text === 'string' ? text : undefined;
}

/**
 * ACP ContentBlock[] → a message's content: the text when every block is
 * text, else the parts ({@link acpContentPart}). Shared with the defect
 * importer.
 *
 * @example
 * import { acpContent } from 'src/core/import/acp/acp.js';
 * acpContent([{ type: 'text', text: 'Hi' }]); // 'Hi'
 */
export function acpContent(blocks: readonly unknown[]): string | Content[] {
  // The usual prompt, one text block, without a part made and dropped.
  if (blocks.length === 1) {
    const text = acpBlockText(blocks[0]);
    if (text !== undefined) return text;
  }
  return textOrParts(blocks.map(acpContentPart));
}

/** The text of a block for plain-text summaries (tool results, plans). */
function blockText(block: unknown): string {
  if (isRecord(block)) {
    const text = own(block, 'text');
    if (typeof text === 'string') return text;
    const resource = own(block, 'resource');
    if (isRecord(resource) && typeof own(resource, 'text') === 'string')
      return own(resource, 'text') as string;
    const uri = own(block, 'uri');
    if (typeof uri === 'string') return uri;
  }
  return safeJson(block) ?? '';
}

/**
 * ToolCallContent[] → one text: text as is, diffs as a unified-style patch
 * (each line marked `-` or `+`), terminals by id, items a line apart. Built
 * as pieces joined once, into one flat string: no string per diff line.
 */
function toolContentText(content: unknown[]): string {
  const out: string[] = [];
  for (const item of content) {
    if (!isRecord(item)) continue;
    if (out.length > 0) out.push('\n');
    const type = own(item, 'type');
    if (type === 'content') out.push(blockText(own(item, 'content')));
    else if (type === 'diff') {
      const path = valueText(own(item, 'path'));
      const oldText = own(item, 'oldText');
      const newText = own(item, 'newText');
      if (typeof oldText === 'string')
        out.push('--- ', path, '\n+++ ', path, '\n-', oldText.replaceAll('\n', '\n-'));
      else out.push('--- /dev/null\n+++ ', path);
      if (typeof newText === 'string') out.push('\n+', newText.replaceAll('\n', '\n+'));
    } else if (type === 'terminal') out.push('[terminal ', valueText(own(item, 'terminalId')), ']');
    else out.push(safeJson(item));
  }
  return out.length === 1 ? out[0]! : out.join('');
}

/** A plan's entries as a markdown checklist. */
function planMarkdown(entries: unknown[]): string {
  const lines: string[] = [];
  for (const e of entries) {
    if (!isRecord(e)) continue;
    const status = own(e, 'status');
    const box = status === 'completed' ? '[x]' : '[ ]';
    const text = valueText(own(e, 'content')).replaceAll('\n', ' ');
    const priority = own(e, 'priority');
    const ranked = typeof priority === 'string';
    const notes =
      status === 'in_progress'
        ? ranked
          ? `in progress, ${priority} priority`
          : 'in progress'
        : ranked
          ? `${priority} priority`
          : '';
    lines.push(`- ${box} ${text}${notes ? ` _(${notes})_` : ''}`);
  }
  return lines.join('\n');
}

/** The `tool_call`/`tool_call_update` fields kept in a tool's `metadata.acp`. */
const TOOL_FIELDS = [
  'kind',
  'status',
  'title',
  'name',
  'content',
  'locations',
  'rawOutput',
  '_meta',
];

class AcpImporter implements IncrementalImporter {
  readonly #ctx: ImportContext;
  readonly #sink: EventSink;
  readonly #clock: SyntheticClock;
  // Requests awaiting their response, by id, one map per direction (ids are
  // per direction): keyed by the id itself, a string or a number (a Map
  // tells `5` from `'5'`), no key string built per request and response.
  /** Requests the agent serves (AGENT_METHODS), sent by the client. */
  readonly #pendingToAgent = new Map<RpcId, Pending>();
  /** Requests the client serves, sent by the agent. */
  readonly #pendingToClient = new Map<RpcId, Pending>();
  #pendingSeq = 0;
  /** Tool calls by id, in the order their tool events were made. */
  readonly #calls = new Map<string, Call>();
  readonly #messages = new Map<string, MessageEvent>();
  // What the last lookup by id found, in #calls and #messages: a call's or a
  // message's updates mostly follow each other, and comparing two short
  // strings is cheaper than a Map probe into a table of every id so far.
  #lastCallId: string | undefined;
  #lastCall: Call | undefined;
  #lastMessageId: string | undefined;
  #lastMessage: MessageEvent | undefined;
  /** Messages with a `messageId`, open until their turn ends. */
  #openMessages: MessageEvent[] = [];
  #run: { kind: ChunkKind; draft: MessageEvent } | undefined;
  #turn: Turn | undefined;
  #turns = 0;
  #order = 0;
  #sawPrompt = false;
  #loading = 0;

  constructor(options: ImportOptions) {
    const { ctx, sink } = importerParts('acp', options);
    this.#ctx = ctx;
    this.#sink = sink;
    this.#clock = new SyntheticClock(options.baseTime);
  }

  push(record: unknown, path: string): void {
    this.#order++;
    if (!isRecord(record)) {
      this.#endRun();
      this.#unknown(record, path, 'not an object');
      return;
    }
    const method = own(record, 'method');
    if (typeof method === 'string') {
      const params = own(record, 'params');
      const p = isRecord(params) ? params : undefined;
      const id = own(record, 'id');
      if (method === 'session/update' && p && id === undefined) {
        this.#update(p, `${path}.params`);
        return;
      }
      this.#endRun();
      if (id === undefined) this.#notification(method, p, record, path);
      else this.#request(method, id, p, record, path);
      return;
    }
    if (own(record, 'id') !== undefined && ('result' in record || 'error' in record)) {
      this.#endRun();
      this.#response(record, path);
      return;
    }
    // A bare `{sessionId, update}` line (a logger that drops the envelope).
    if (isRecord(own(record, 'update'))) {
      this.#update(record, path);
      return;
    }
    this.#endRun();
    this.#unknown(record, path, 'no method, result or update');
  }

  drain(): Event[] {
    return this.#sink.drain();
  }

  end(): Event[] {
    this.#endRun();
    if (this.#turn) {
      this.#ctx.warn('$', 'acp_unclosed', `Turn ${this.#turn.begin.name}`);
      this.#closeTurn(undefined, '$');
    }
    for (const m of this.#openMessages) this.#sink.close(m);
    this.#openMessages = [];
    for (const [id, { tool }] of this.#calls) {
      if (!this.#sink.isOpen(tool)) continue;
      this.#ctx.info('$', 'acp_unclosed', `Tool call ${id}`);
      this.#sink.close(tool);
    }
    // Unanswered requests of both directions, in the order their ids were first pending.
    const unanswered = [...this.#pendingToAgent.values(), ...this.#pendingToClient.values()];
    unanswered.sort((x, y) => x.seq - y.seq);
    for (const p of unanswered) {
      if (!p.draft || !this.#sink.isOpen(p.draft)) continue;
      this.#ctx.info('$', 'acp_unclosed', `Request ${p.method}`);
      this.#sink.close(p.draft);
    }
    this.#pendingToAgent.clear();
    this.#pendingToClient.clear();
    return this.#sink.drain();
  }

  diagnostics() {
    return this.#ctx.finish();
  }

  /** The tool call of `id`, if one was made. */
  #call(id: string): Call | undefined {
    if (id === this.#lastCallId) return this.#lastCall;
    const call = this.#calls.get(id);
    if (call !== undefined) {
      this.#lastCallId = id;
      this.#lastCall = call;
    }
    return call;
  }

  /** The current version of the message with `messageId` `id`, if any. */
  #message(id: string): MessageEvent | undefined {
    if (id === this.#lastMessageId) return this.#lastMessage;
    const draft = this.#messages.get(id);
    if (draft !== undefined) {
      this.#lastMessageId = id;
      this.#lastMessage = draft;
    }
    return draft;
  }

  #setMessage(id: string, draft: MessageEvent): void {
    this.#messages.set(id, draft);
    this.#lastMessageId = id;
    this.#lastMessage = draft;
  }

  // --- events ----------------------------------------------------------------

  #base(path: string): { uuid: string; timestamp: string; span_id?: string } {
    const base: { uuid: string; timestamp: string; span_id?: string } = {
      uuid: this.#sink.uuid(path),
      timestamp: this.#clock.next(),
    };
    if (this.#turn) base.span_id = this.#turn.begin.id;
    return base;
  }

  // Every ACP event's time is invented. The flag is written here directly
  // (what `sink.invent` writes, without its copy of the metadata per event)
  // and counted for the file's one diagnostic.
  #add<E extends Event>(draft: E, path: string, open = false): E {
    const metadata = draft.metadata;
    if (metadata) metadata[INVENTED_KEY] = inventedOnly('timestamp');
    else draft.metadata = inventedOnlyMetadata('timestamp');
    this.#ctx.invent('timestamp', path);
    this.#sink.add(draft, open ? OPEN_DRAFT : undefined);
    return draft;
  }

  #info(data: unknown, path: string, open = false): Event {
    const uuid = this.#sink.uuid(path);
    const timestamp = this.#clock.next();
    const span = this.#turn?.begin.id;
    // Literals with and without `span_id`, in #base's key order: a spread
    // `...this.#base(path)` inside a literal builds it key by key, several
    // times slower than a literal (measured), for every event.
    const info: InfoEvent =
      span !== undefined
        ? { event: 'info', uuid, timestamp, span_id: span, source: 'acp', data: data as never }
        : { event: 'info', uuid, timestamp, source: 'acp', data: data as never };
    return this.#add(info, path, open);
  }

  #unknown(record: unknown, path: string, why: string): void {
    this.#ctx.info(path, 'acp_unknown_record', why);
    this.#info(record, path);
  }

  // --- turns -----------------------------------------------------------------

  #openTurn(path: string, request: RpcId | undefined, sessionId: unknown): Turn {
    if (this.#turn) {
      this.#ctx.warn(path, 'acp_unclosed', `Turn ${this.#turn.begin.name}`);
      this.#closeTurn(undefined, path);
    }
    const n = ++this.#turns;
    const begin = this.#sink.openSpan(
      {
        id: `turn-${n}`,
        uuid: this.#sink.uuid(`turn:${n}`),
        timestamp: this.#clock.next(),
        type: 'turn',
        name: `turn ${n}`,
        metadata: typeof sessionId === 'string' ? { session_id: sessionId } : undefined,
      },
      { open: true, timeInvented: path },
    );
    this.#turn = { begin, request };
    return this.#turn;
  }

  #closeTurn(result: JsonRecord | undefined, path: string): void {
    const turn = this.#turn;
    if (!turn) return;
    this.#endRun();
    for (const m of this.#openMessages) this.#sink.close(m);
    this.#openMessages = [];
    const begin = this.#sink.revise(turn.begin);
    const stop = result ? own(result, 'stopReason') : undefined;
    setMetadata(
      begin,
      'stop_reason',
      typeof stop === 'string' ? stop : result ? null : 'unfinished',
    );
    const usage = result ? own(result, 'usage') : undefined;
    if (usage !== undefined) begin.metadata!['usage'] = usage as JsonValue;
    this.#turn = undefined;
    this.#sink.closeSpan(begin, {
      uuid: this.#sink.uuid(`turn-end:${begin.id}`),
      timestamp: this.#clock.next(),
      timeInvented: path,
    });
    // Stopped before it finished (the rule: events/outcome.ts, "Aborted").
    if (isAbortStopReason(stop) || (turn.cancelled && typeof stop !== 'string'))
      markSpanAborted(this.#sink, begin);
  }

  // --- JSON-RPC --------------------------------------------------------------

  #request(
    method: string,
    id: unknown,
    params: JsonRecord | undefined,
    record: JsonRecord,
    path: string,
  ): void {
    const key = isRpcId(id) ? id : undefined;
    let draft: Event | undefined;
    let options: unknown[] | undefined;
    const base = `${path}.params`;
    if (method === 'session/prompt') {
      this.#sawPrompt = true;
      const turn = this.#openTurn(path, key, params ? own(params, 'sessionId') : undefined);
      draft = turn.begin;
      const prompt = params ? this.#ctx.array(params, 'prompt', base) : undefined;
      if (prompt) {
        const body = acpContent(prompt);
        const uuid = this.#sink.uuid(`${path}:prompt`);
        const timestamp = this.#clock.next();
        const span = this.#turn?.begin.id;
        const messageId = `prompt-${idText(id)}`;
        this.#add<MessageEvent>(
          messageDraft(uuid, timestamp, span, 'user', body, messageId, 'input'),
          path,
        );
      }
    } else if (method === 'session/request_permission') {
      const approval = this.#permission(params, base);
      draft = approval;
      options = params ? this.#ctx.array(params, 'options', base) : undefined;
    } else if (method.startsWith('fs/') || method.startsWith('terminal/')) {
      draft = this.#sandbox(method, params, path);
    } else {
      if (method === 'session/load') this.#loading++;
      const data = params ? { method, params, id: id as never } : { method, id: id as never };
      draft = this.#info(data, path, true);
    }
    if (key === undefined) {
      if (draft && draft.event !== 'span_begin') this.#sink.close(draft);
      return;
    }
    const pending = AGENT_METHODS.has(method) ? this.#pendingToAgent : this.#pendingToClient;
    const previous = pending.get(key);
    if (
      previous?.draft &&
      previous.draft.event !== 'span_begin' &&
      this.#sink.isOpen(previous.draft)
    )
      this.#sink.close(previous.draft);
    // A request reusing a pending id takes its place (a Map's `set` keeps the key's).
    const seq = previous ? previous.seq : ++this.#pendingSeq;
    pending.set(key, { method, params, order: this.#order, seq, draft, options });
    void record;
  }

  #notification(
    method: string,
    params: JsonRecord | undefined,
    record: JsonRecord,
    path: string,
  ): void {
    if (method === 'session/cancel') {
      if (this.#turn) this.#turn.cancelled = true;
      this.#add(
        {
          event: 'interrupt',
          ...this.#base(path),
          source: 'user_cancel',
          interrupted: this.#turn ? 'generate' : 'between_turns',
        },
        path,
      );
      return;
    }
    // `$/cancel_request`, extension notifications (`_vendor/…`) and others.
    this.#info(record, path);
  }

  #response(record: JsonRecord, path: string): void {
    const id = own(record, 'id');
    const result = own(record, 'result');
    const error = own(record, 'error');
    const res = isRecord(result) ? result : undefined;
    let pending: Pending | undefined;
    if (isRpcId(id)) {
      // Ids are per direction: the same number may be pending both ways. The
      // shape decides when it can, else the later request.
      const c = this.#pendingToAgent.get(id);
      const a = this.#pendingToClient.get(id);
      let from: Map<RpcId, Pending> | undefined;
      if (c && a) {
        const prompt = res && own(res, 'stopReason') !== undefined;
        const outcome = res && own(res, 'outcome') !== undefined;
        const pickC = prompt
          ? c.method === 'session/prompt'
          : outcome
            ? a.method !== 'session/request_permission'
            : c.order > a.order;
        from = pickC ? this.#pendingToAgent : this.#pendingToClient;
      } else if (c) from = this.#pendingToAgent;
      else if (a) from = this.#pendingToClient;
      // A capture missing one side: a `stopReason` only ever answers a prompt,
      // an `outcome` only a permission request.
      const chosen = from === this.#pendingToAgent ? c : from ? a : undefined;
      if (
        chosen &&
        res &&
        ((own(res, 'stopReason') !== undefined && chosen.method !== 'session/prompt') ||
          (own(res, 'outcome') !== undefined && chosen.method !== 'session/request_permission'))
      )
        from = undefined;
      if (from) {
        pending = chosen;
        from.delete(id);
      }
    }
    if (isRecord(error)) {
      const message =
        typeof own(error, 'message') === 'string' ? (own(error, 'message') as string) : 'error';
      const code = own(error, 'code');
      this.#add(
        {
          event: 'error',
          ...this.#base(path),
          error: {
            message: `${pending ? `${pending.method}: ` : ''}${message}${code !== undefined ? ` (code ${valueText(code)})` : ''}`,
            traceback: '',
            traceback_ansi: '',
          },
          metadata: { acp_error: error },
        },
        `${path}:error`,
      );
    }
    if (!pending) {
      if (res && own(res, 'stopReason') !== undefined) {
        // Agent-only capture: the response alone marks the end of the turn.
        if (!this.#turn) this.#openTurn(path, undefined, undefined);
        this.#closeTurn(res, path);
        return;
      }
      this.#ctx.info(path, 'acp_unpaired_response', idText(own(record, 'id')));
      // An error response made an error event of this path's uuid above: the
      // record kept beside it needs one of its own.
      this.#info(record, isRecord(error) ? `${path}:response` : path);
      return;
    }
    const draft = pending.draft;
    if (pending.method === 'session/prompt') {
      if (this.#turn && draft === this.#turn.begin)
        this.#closeTurn(res ?? { stopReason: isRecord(error) ? 'error' : null }, path);
      return;
    }
    if (pending.method === 'session/load') this.#loading = Math.max(0, this.#loading - 1);
    if (!draft) return;
    if (draft.event === 'approval')
      this.#answer(draft as ApprovalEvent, res, pending.options, path);
    else if (draft.event === 'sandbox')
      this.#sandboxDone(draft as SandboxEvent, pending.method, res, path);
    else {
      const info = this.#sink.revise(draft) as Event & { data?: unknown };
      info.data = { ...(info.data as JsonObject), response: record };
      this.#sink.close(info);
    }
  }

  // --- permissions -----------------------------------------------------------

  #permission(params: JsonRecord | undefined, base: string): ApprovalEvent {
    const asked = params ? this.#ctx.record(params, 'toolCall', base) : undefined;
    const call = asked ? this.#toolUpsert(asked, `${base}.toolCall`, false) : undefined;
    const tool = call?.tool;
    const id = tool?.id ?? '';
    const title =
      asked && typeof own(asked, 'title') === 'string'
        ? (own(asked, 'title') as string)
        : tool?.function;
    const uuid = this.#sink.uuid(`${base}:approval`);
    const timestamp = this.#clock.next();
    const span = this.#turn?.begin.id;
    const message = title ?? `Permission for tool call ${id}`;
    // A copy: an event's values are cut at MAX_VALUE_DEPTH below its own root
    // when it is frozen, so two events sharing one object would be cut where
    // the first frozen put it (the streamed import and the whole file differ).
    const toolCall = {
      id,
      function: tool?.function ?? 'tool',
      arguments: cloneJson(tool?.arguments ?? {}),
    };
    const metadata = { acp: { options: (params && own(params, 'options')) ?? [] } as JsonObject };
    const approval = this.#add<ApprovalEvent>(
      pendingApprovalDraft(uuid, timestamp, span, message, toolCall, 'user', metadata),
      base,
      true,
    );
    if (id) call!.approval = approval;
    return approval;
  }

  #answer(
    draft: ApprovalEvent,
    res: JsonRecord | undefined,
    options: unknown[] | undefined,
    path: string,
  ): void {
    const approval = this.#sink.revise(draft);
    const outcome = res ? own(res, 'outcome') : undefined;
    const o = isRecord(outcome) ? outcome : undefined;
    const kind = o ? own(o, 'outcome') : undefined;
    const optionId = o ? own(o, 'optionId') : undefined;
    let option: unknown;
    if (options)
      for (const x of options)
        if (isRecord(x) && own(x, 'optionId') === optionId) {
          option = x;
          break;
        }
    const optionKind = isRecord(option) ? own(option, 'kind') : undefined;
    if (kind === 'cancelled') approval.decision = 'terminate';
    else if (typeof optionKind === 'string')
      approval.decision = optionKind.startsWith('allow') ? 'approve' : 'reject';
    else if (typeof optionId === 'string')
      approval.decision = /reject|deny|no/i.test(optionId) ? 'reject' : 'approve';
    if (isRecord(option) && typeof own(option, 'name') === 'string')
      approval.explanation = own(option, 'name') as string;
    setMetadata(approval, 'acp_outcome', (outcome ?? null) as JsonValue);
    this.#sink.close(approval);
    void path;
  }

  // --- fs/* and terminal/* ---------------------------------------------------

  #sandbox(method: string, params: JsonRecord | undefined, path: string): SandboxEvent {
    const p = params ?? {};
    const action =
      method === 'fs/read_text_file'
        ? 'read_file'
        : method === 'fs/write_text_file'
          ? 'write_file'
          : method === 'terminal/create'
            ? 'exec'
            : method;
    const uuid = this.#sink.uuid(path);
    const timestamp = this.#clock.next();
    const span = this.#turn?.begin.id;
    const draft: SandboxEvent =
      span !== undefined
        ? { event: 'sandbox', uuid, timestamp, span_id: span, action }
        : { event: 'sandbox', uuid, timestamp, action };
    const file = own(p, 'path');
    if (typeof file === 'string') draft.file = file;
    const content = own(p, 'content');
    if (typeof content === 'string') draft.input = content;
    const command = own(p, 'command');
    if (typeof command === 'string') {
      const args = own(p, 'args');
      draft.cmd = [command, ...(Array.isArray(args) ? args.map(valueText) : [])].join(' ');
    }
    draft.metadata = { acp: { method, params: p } as JsonObject };
    return this.#add(draft, path, true);
  }

  #sandboxDone(
    draft: SandboxEvent,
    method: string,
    res: JsonRecord | undefined,
    path: string,
  ): void {
    const sandbox = this.#sink.revise(draft);
    if (res) {
      const content = own(res, 'content');
      if (typeof content === 'string') sandbox.output = content;
      const output = own(res, 'output');
      if (typeof output === 'string') sandbox.output = output;
      const exit = own(res, 'exitStatus');
      const code = own(isRecord(exit) ? exit : res, 'exitCode');
      if (typeof code === 'number') sandbox.result = code;
      setMetadata(sandbox, 'acp_result', res as never);
    }
    sandbox.completed = this.#clock.next();
    inventEnd(this.#sink, this.#ctx, sandbox, path);
    this.#sink.close(sandbox);
    void method;
  }

  // --- session/update ----------------------------------------------------------

  #update(params: JsonRecord, base: string): void {
    const update = this.#ctx.record(params, 'update', base);
    const upath = `${base}.update`;
    if (!update) {
      this.#endRun();
      this.#unknown(params, base, 'session/update without an update');
      return;
    }
    const kind = own(update, 'sessionUpdate');
    const chunk = typeof kind === 'string' ? chunkKind(kind) : undefined;
    if (!chunk) this.#endRun();
    if (typeof kind !== 'string') {
      this.#ctx.warn(upath, 'missing_field', 'sessionUpdate');
      this.#info(update, upath);
      return;
    }
    if (!this.#turn && !this.#sawPrompt && this.#loading === 0 && TURN_UPDATES.has(kind))
      this.#openTurn(base, undefined, own(params, 'sessionId'));
    if (chunk) {
      this.#chunk(chunk, kind, update, upath);
      return;
    }
    switch (kind) {
      case 'tool_call':
      case 'tool_call_update':
        this.#toolUpsert(update, upath, true);
        return;
      case 'tool_call_content_chunk':
        this.#toolContentChunk(update, upath);
        return;
      case 'plan':
      case 'plan_update':
        this.#plan(update, upath);
        return;
      case 'state_update':
        this.#state(params, update, upath);
        return;
      default:
        if (!INFO_UPDATES.has(kind) && !kind.startsWith('_'))
          this.#ctx.info(upath, 'acp_unknown_update', kind);
        this.#info(update, upath);
    }
  }

  #endRun(): void {
    if (!this.#run) return;
    this.#sink.close(this.#run.draft);
    this.#run = undefined;
  }

  #chunk(kind: ChunkKind, name: string, update: JsonRecord, path: string): void {
    const messageId = own(update, 'messageId');
    const block = own(update, 'content');
    const v2 = !name.endsWith('_chunk');
    let draft: MessageEvent | undefined;
    if (typeof messageId === 'string') {
      this.#endRun();
      draft = this.#message(messageId);
      // Only a sealed (frozen) draft needs a new version: sealed means closed,
      // and `revise` gives a closed one not sealed back as it is.
      if (draft && Object.isFrozen(draft)) {
        const revised = this.#sink.revise(draft);
        this.#setMessage(messageId, revised);
        draft = revised;
      }
    } else if (this.#run && this.#run.kind === kind) draft = this.#run.draft;
    else this.#endRun();
    if (!draft) {
      const uuid = this.#sink.uuid(path);
      const timestamp = this.#clock.next();
      const span = this.#turn?.begin.id;
      const role = kind === 'user' ? 'user' : 'assistant';
      const content = kind === 'thought' ? [] : '';
      const id = typeof messageId === 'string' ? messageId : '';
      draft = this.#add<MessageEvent>(
        messageDraft(uuid, timestamp, span, role, content, id, 'acp'),
        path,
        true,
      );
      if (typeof messageId === 'string') {
        this.#setMessage(messageId, draft);
        this.#openMessages.push(draft);
      } else {
        draft.message_id = draft.uuid;
        this.#sink.invent(draft, 'id', path);
        this.#run = { kind, draft };
      }
    } else this.#sink.touch(draft);
    // v2 patches: the content given replaces what was there.
    if (v2 && block !== undefined) draft.content = kind === 'thought' ? [] : '';
    // One block (the usual chunk) without a one-element array around it.
    if (Array.isArray(block)) for (const b of block) appendAcpBlock(draft, b, kind === 'thought');
    else if (block !== undefined) appendAcpBlock(draft, block, kind === 'thought');
  }

  // --- tool calls ------------------------------------------------------------

  #toolUpsert(update: JsonRecord, path: string, fromUpdate: boolean): Call | undefined {
    const id = own(update, 'toolCallId');
    if (typeof id !== 'string' || id === '') {
      this.#ctx.warn(path, 'missing_field', 'toolCallId');
      this.#info(update, path);
      return undefined;
    }
    let call = this.#call(id);
    let tool: ToolEvent;
    if (!call) {
      // #base's keys (its uuid replaced by the tool's), as literals.
      const uuid = this.#sink.uuid(`tool:${id}`);
      const timestamp = this.#clock.next();
      const span = this.#turn?.begin.id;
      const metadata = { acp: { status: 'pending' } };
      tool = this.#add<ToolEvent>(
        pendingToolDraft(uuid, timestamp, span, id, metadata),
        path,
        true,
      );
      call = { tool, approval: undefined };
      this.#calls.set(id, call);
      this.#lastCallId = id;
      this.#lastCall = call;
    } else {
      tool = call.tool;
      // A draft not frozen is the sink's current version (only a sealed one
      // is ever replaced): `revise` would return it as it is.
      if (Object.isFrozen(tool)) call.tool = tool = this.#sink.revise(tool);
      this.#sink.touch(tool);
    }
    // Drafts are ours until sealed (a frozen one was revised above): patch in place.
    const metadata = (tool.metadata ??= {});
    let acp = metadata['acp'] as JsonObject | undefined;
    if (!isRecord(acp)) metadata['acp'] = acp = {};
    for (const key of TOOL_FIELDS) {
      const v = own(update, key);
      // Patch semantics: present fields change (null clears), absent ones stay.
      if (v !== undefined) acp[key] = v;
    }
    const name = acp['name'] ?? acp['title'] ?? acp['kind'];
    if (typeof name === 'string' && name !== '') tool.function = name;
    const rawInput = own(update, 'rawInput');
    if (rawInput !== undefined)
      tool.arguments = isRecord(rawInput) ? rawInput : { value: rawInput as never };
    this.#toolResult(tool, acp);
    const status = acp['status'];
    if (fromUpdate && isTerminalStatus(status) && this.#sink.isOpen(tool)) {
      tool.completed = this.#clock.next();
      inventEnd(this.#sink, this.#ctx, tool, path);
      this.#sink.close(tool);
    }
    const approval = call.approval;
    if (approval && this.#sink.isOpen(approval)) {
      approval.call = { id, function: tool.function, arguments: cloneJson(tool.arguments) };
      this.#sink.touch(approval);
    }
    return call;
  }

  #toolResult(tool: ToolEvent, acp: JsonObject): void {
    const content = acp['content'];
    const raw = acp['rawOutput'];
    let text = '';
    if (Array.isArray(content) && content.length) text = toolContentText(content);
    else if (typeof raw === 'string') text = raw;
    else if (raw !== undefined && raw !== null) text = safeJson(raw);
    tool.result = text;
    const status = acp['status'];
    if (status === 'failed') tool.error = { type: 'unknown', message: text || 'failed' };
    else if (status === 'cancelled')
      tool.error = { type: 'cancelled', message: text || 'cancelled' };
    else if ('error' in tool) delete tool.error;
  }

  #toolContentChunk(update: JsonRecord, path: string): void {
    const id = own(update, 'toolCallId');
    const tool = typeof id === 'string' ? this.#call(id)?.tool : undefined;
    const item = own(update, 'content');
    if (!tool) {
      this.#toolUpsert({ toolCallId: id, content: [item] }, path, true);
      return;
    }
    const acp = tool.metadata?.['acp'] as JsonObject | undefined;
    const content = Array.isArray(acp?.['content']) ? (acp['content'] as unknown[]) : [];
    this.#toolUpsert({ toolCallId: id, content: [...content, item] }, path, true);
  }

  // v2 draft: `state_update` moves the turn's end into the stream
  // (`running | idle{stopReason?} | requires_action`).
  #state(params: JsonRecord, update: JsonRecord, path: string): void {
    const raw = own(update, 'state');
    const state = isRecord(raw) ? (own(raw, 'type') ?? own(raw, 'state')) : raw;
    const stopReason =
      own(update, 'stopReason') ?? (isRecord(raw) ? own(raw, 'stopReason') : undefined);
    if (state === 'running' && !this.#turn)
      this.#openTurn(path, undefined, own(params, 'sessionId'));
    this.#info(update, path);
    if (state === 'idle' && this.#turn)
      this.#closeTurn({ stopReason: typeof stopReason === 'string' ? stopReason : null }, path);
  }

  // --- plans -----------------------------------------------------------------

  #plan(update: JsonRecord, path: string): void {
    const plan = own(update, 'plan');
    const holder = isRecord(plan) ? plan : update;
    const entries =
      this.#ctx.array(holder, 'entries', isRecord(plan) ? `${path}.plan` : path) ?? [];
    const planId = own(holder, 'planId') ?? own(holder, 'id');
    const md = planMarkdown(entries);
    const uuid = this.#sink.uuid(path);
    const timestamp = this.#clock.next();
    const span = this.#turn?.begin.id;
    const outputs = [
      {
        data: { 'text/markdown': md || '_(empty plan)_', 'text/plain': md },
        metadata: { acp_plan: entries as never },
      },
    ];
    const displayId = typeof planId === 'string' ? `plan:${planId}` : 'plan';
    this.#add<DisplayEvent>(
      span !== undefined
        ? { event: 'display', uuid, timestamp, span_id: span, outputs, display_id: displayId }
        : { event: 'display', uuid, timestamp, outputs, display_id: displayId },
      path,
    );
  }
}

/**
 * Appends an ACP ContentBlock to a streamed message: text to its text, a
 * thought's text (`thought`) to its reasoning, anything else as a part of its
 * own. Shared with the defect importer.
 */
export function appendAcpBlock(draft: MessageEvent, block: unknown, thought: boolean): void {
  // A text block onto text of its kind (the usual chunk): no part made for it.
  const text = acpBlockText(block);
  if (text !== undefined) {
    const content = draft.content;
    if (typeof content === 'string') {
      if (!thought) {
        draft.content = content + text;
        return;
      }
    } else {
      const last = content[content.length - 1];
      if (thought && last?.type === 'reasoning') {
        last.reasoning += text;
        return;
      }
      if (!thought && last?.type === 'text') {
        last.text += text;
        return;
      }
    }
  }
  appendContent(draft, acpContentPart(block), thought);
}

function appendContent(draft: MessageEvent, part: Content, thought: boolean): void {
  if (thought && part.type === 'text') part = { type: 'reasoning', reasoning: part.text };
  const content = draft.content;
  if (typeof content === 'string') {
    if (part.type === 'text') {
      draft.content = content + part.text;
      return;
    }
    draft.content = content === '' ? [] : [{ type: 'text', text: content }];
  }
  const parts = draft.content as Content[];
  const last = parts[parts.length - 1];
  if (last && last.type === 'text' && part.type === 'text') last.text += part.text;
  else if (last && last.type === 'reasoning' && part.type === 'reasoning')
    last.reasoning += part.reasoning;
  else parts.push(part);
}

function looksLikeAcp(record: unknown): boolean {
  if (!isRecord(record)) return false;
  if (own(record, 'jsonrpc') === '2.0') {
    const method = own(record, 'method');
    if (typeof method === 'string')
      return (
        AGENT_METHODS.has(method) ||
        method.startsWith('session/') ||
        method.startsWith('fs/') ||
        method.startsWith('terminal/') ||
        method.startsWith('elicitation/')
      );
    const result = own(record, 'result');
    return (
      isRecord(result) &&
      ['stopReason', 'sessionId', 'agentCapabilities', 'outcome'].some(
        (k) => own(result, k) !== undefined,
      )
    );
  }
  const update = own(record, 'update');
  return (
    typeof own(record, 'sessionId') === 'string' &&
    isRecord(update) &&
    typeof own(update, 'sessionUpdate') === 'string'
  );
}

/**
 * ACP sessions (JSON-RPC 2.0 JSON Lines, either or both directions).
 *
 * @example
 * import { Probe } from '../probe.js';
 * import { acpFormat } from './acp.js';
 * acpFormat.detect(new Probe('{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn"}}')); // true
 */
export const acpFormat: FormatImporter & {
  incremental(options: ImportOptions): IncrementalImporter;
} = {
  id: 'acp',
  name: 'Agent Client Protocol',
  extensions: ['.jsonl', '.ndjson'],
  detect(probe) {
    return probe.records(4).some(looksLikeAcp);
  },
  // A parsed value given by the caller is copied: events embed raw records
  // (info `data`, tool metadata) and are deep-frozen, which must not freeze
  // the caller's objects.
  import: (probe, options) =>
    importLines(acpFormat, probe.isRaw ? probe : new Probe(cloneJson(probe.json())), options),
  incremental: (options) => new AcpImporter(options),
};

/**
 * A cheap check whether an input is an ACP session capture.
 *
 * @example
 * isAcp('{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[]}}}'); // true
 */
export const isAcp: (input: ImportInput, filename?: string) => boolean = sniffer(acpFormat);

/**
 * Imports an ACP session from JSON Lines text, bytes, or a parsed array of
 * messages: turns as spans, merged messages, one tool event per tool call,
 * approvals, plans as displays (see the mapping at the top of this file).
 *
 * @example
 * import { readFileSync } from 'node:fs';
 * const { events, diagnostics } = importAcp(readFileSync('session.jsonl', 'utf8'));
 */
export function importAcp(input: ImportInput, options: ImportOptions = {}): ImportResult {
  return acpFormat.import(new Probe(input, options.filename), options) as ImportResult;
}
