// Long on purpose (past 600 lines): events and the journal share one scope, turn and call state machine, which sub-agents recurse through.
// defect `AgentEvent` logs (serde, internally tagged `type`, snake_case, with
// nested camelCase ACP structs) and defect's stored `journal.jsonl`.
// Spec: https://docs.rs/defect-agent/latest/defect_agent/enum.AgentEvent.html
//
// Mapping (the one representation every importer maps to):
// - `turn_started` … `turn_ended` = a `turn` span; `span_begin` carries
//   `metadata.stop_reason` and `metadata.usage` (as given);
//   `user_prompt_committed` = a `user` message.
// - `assistant_text` / `assistant_thought` deltas append to one `message`
//   (text / reasoning) while they follow each other.
// - `tool_call_started` / `_progress` / `_finished` upsert one `tool` event,
//   `id` = the call id, `function` = `name`; the ACP fields (`kind`, `status`,
//   `title`, `content`, `locations`, `rawOutput`) are in `metadata.acp`,
//   `rawInput` is `arguments`, a `failed` status is the `error`.
// - `policy_decision` (+ `permission_resolved` for `ask`) = one `approval`.
// - `llm_call_started` / `_finished` = a `model` event per attempt; attempts of
//   one call share `call_id` (`retries` = attempt − 1), with usage and error.
// - `context_compressed` = a `compaction` (`summary`), `context_microcompacted`
//   a `compaction` (`edit`, `metadata.cleared`), with the token counts.
// - `subagent` = the inner event inside an `agent` span that sits under the
//   spawning tool call (resolved by the last id of `ancestor_path`, whether
//   the path comes flattened or as recursive `inner` sub-agents); the tool's
//   `agent_span_id` names the span, which closes with the tool.
// - `turn_aborted`, and a `turn_ended` whose reason is `cancelled`, mark every
//   event of the turn (and its span) with `metadata.aborted: true`: kept and
//   shown, skipped by totals.
// - journal lines `{schema_version, seq, record}`: `seq` gaps are diagnosed;
//   `message` records give a message (text, thinking, images) and their
//   `tool_use` / `tool_result` parts one tool event per id.
// - Unknown `type`s are kept as `info` events (`source: 'defect'`, `data` =
//   the raw record) with a diagnostic. defect writes no times: they are
//   synthesized, strictly increasing, and flagged.
import { cloneJson, EMPTY_ARRAY, EMPTY_OBJECT } from '../../events/freeze.js';
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
  Event,
  JsonObject,
  JsonValue,
  MessageEvent,
  ModelEvent,
  ModelUsage,
  SpanBeginEvent,
  ToolEvent,
} from '../../events/types.js';
import { acpContent, appendAcpBlock } from '../acp/acp.js';
import { isAbortStopReason, markAborted } from '../aborted.js';
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
  stringOf,
} from '../guards.js';
import { Probe, type ImportInput } from '../probe.js';
import {
  INVENTED_KEY,
  SyntheticClock,
  inventedOnly,
  inventedOnlyMetadata,
  type EventSink,
} from '../sink.js';

const EVENT_TYPES = new Set([
  'turn_started',
  'user_prompt_committed',
  'turn_ended',
  'turn_aborted',
  'assistant_text',
  'assistant_thought',
  'tool_call_started',
  'tool_call_progress',
  'tool_call_finished',
  'policy_decision',
  'permission_resolved',
  'llm_call_started',
  'llm_call_finished',
  'context_compressed',
  'context_microcompacted',
  'subagent',
]);

/** One agent's state: the root agent, or a sub-agent under its spawning tool call. */
interface Scope {
  /** The agent span (`undefined` for the root agent). */
  agent: SpanBeginEvent | undefined;
  prefix: string;
  turn: SpanBeginEvent | undefined;
  /** Events of the open turn (or of the last one), for `turn_aborted`. */
  turnEvents: Event[];
  /** The objects in `turnEvents` (a tool updated a million times is looked up, not scanned for). */
  turnSeen: Set<Event>;
  turns: number;
  run: { thought: boolean; draft: MessageEvent } | undefined;
  calls: number;
  llm: ModelEvent[];
}

/**
 * What is known of one call id: its tool event, its approval, the sub-agent
 * it spawned. One entry per id holds all three, so a record that names the id
 * finds them with one lookup (usually none: see `#call`).
 */
interface Call {
  readonly id: string;
  tool: ToolEvent | undefined;
  approval: ApprovalEvent | undefined;
  agent: Scope | undefined;
}

function newScope(agent: SpanBeginEvent | undefined, prefix: string): Scope {
  return {
    agent,
    prefix,
    turn: undefined,
    turnEvents: [],
    turnSeen: new Set(),
    turns: 0,
    run: undefined,
    calls: 0,
    llm: [],
  };
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** defect `Usage` (`Option<u64>` per field) → skein `ModelUsage`. */
function modelUsage(usage: unknown): ModelUsage | undefined {
  if (!isRecord(usage)) return undefined;
  const input = num(own(usage, 'input_tokens')) ?? 0;
  const output = num(own(usage, 'output_tokens')) ?? 0;
  const out: ModelUsage = {
    input_tokens: input,
    output_tokens: output,
    total_tokens: input + output,
  };
  const read = num(own(usage, 'cache_read_input_tokens'));
  const write = num(own(usage, 'cache_creation_input_tokens'));
  if (read !== undefined) out.input_tokens_cache_read = read;
  if (write !== undefined) out.input_tokens_cache_write = write;
  return out;
}

/** ToolResultBody (`tag = "kind"`: text, json, content) → text. */
function resultBodyText(body: unknown): string {
  if (!isRecord(body)) return typeof body === 'string' ? body : (safeJson(body) ?? '');
  const kind = own(body, 'kind');
  if (kind === 'text') return stringOf(own(body, 'text')) ?? '';
  if (kind === 'json') return safeJson(own(body, 'value')) ?? '';
  if (kind === 'content') {
    const blocks = own(body, 'blocks');
    if (Array.isArray(blocks))
      return blocks
        .map((b) =>
          isRecord(b) && typeof own(b, 'text') === 'string'
            ? (own(b, 'text') as string)
            : safeJson(b),
        )
        .join('\n');
  }
  return safeJson(body);
}

/** ACP ToolCallContent[] → text (text blocks, diffs by path, terminals by id). */
function toolContentText(content: unknown[]): string {
  const out: string[] = [];
  for (const item of content) {
    if (!isRecord(item)) continue;
    const inner = own(item, 'content');
    if (
      own(item, 'type') === 'content' &&
      isRecord(inner) &&
      typeof own(inner, 'text') === 'string'
    )
      out.push(own(inner, 'text') as string);
    else if (own(item, 'type') === 'diff') out.push(`diff ${valueText(own(item, 'path'))}`);
    else out.push(safeJson(item));
  }
  return out.join('\n');
}

/** The tool fields kept in a tool's `metadata.acp`. */
const TOOL_FIELDS = ['kind', 'status', 'title', 'name', 'content', 'locations', 'rawOutput'];

class DefectImporter implements IncrementalImporter {
  readonly #ctx: ImportContext;
  readonly #sink: EventSink;
  readonly #clock: SyntheticClock;
  readonly #root = newScope(undefined, '');
  readonly #calls = new Map<string, Call>();
  /** The calls in the order their tool events, sub-agents and approvals were made (for `end`). */
  readonly #toolCalls: Call[] = [];
  readonly #agentCalls: Call[] = [];
  readonly #approvalCalls: Call[] = [];
  // The call the last lookup found: a call's records mostly follow each other
  // (started, policy, permission, progress, finished), and comparing two short
  // strings is cheaper than a Map probe into a table of every call so far.
  #lastId: string | undefined;
  #last: Call | undefined;
  #seq: number | undefined;

  constructor(options: ImportOptions) {
    const { ctx, sink } = importerParts('defect', options);
    this.#ctx = ctx;
    this.#sink = sink;
    this.#clock = new SyntheticClock(options.baseTime);
  }

  push(record: unknown, path: string): void {
    if (isRecord(record)) {
      if (typeof own(record, 'seq') === 'number' && isRecord(own(record, 'record'))) {
        this.#journal(record, path);
        return;
      }
      const type = own(record, 'type');
      if (typeof type === 'string') {
        this.#event(record, type, path, this.#root);
        return;
      }
    }
    this.#ctx.info(path, 'defect_unknown_event', isRecord(record) ? '(no type)' : typeof record);
    this.#add(
      { event: 'info', ...this.#base(path, this.#root), source: 'defect', data: record as never },
      path,
      this.#root,
    );
  }

  drain(): Event[] {
    return this.#sink.drain();
  }

  end(): Event[] {
    for (const call of this.#agentCalls) {
      const scope = call.agent!;
      if (scope.agent && this.#sink.isOpen(scope.agent)) {
        this.#ctx.info('$', 'defect_unclosed', `Sub-agent of tool call ${call.id}`);
        this.#closeAgent(scope, '$');
      }
    }
    this.#endScope(this.#root, '$');
    for (const call of this.#toolCalls) {
      const tool = call.tool!;
      if (!this.#sink.isOpen(tool)) continue;
      this.#ctx.info('$', 'defect_unclosed', `Tool call ${call.id}`);
      this.#sink.close(tool);
    }
    for (const call of this.#approvalCalls) {
      const a = call.approval!;
      if (this.#sink.isOpen(a)) this.#sink.close(a);
    }
    return this.#sink.drain();
  }

  diagnostics() {
    return this.#ctx.finish();
  }

  /** The call of `id`, or `undefined` if no record named it yet. */
  #call(id: string): Call | undefined {
    if (id === this.#lastId) return this.#last;
    const call = this.#calls.get(id);
    if (call !== undefined) {
      this.#lastId = id;
      this.#last = call;
    }
    return call;
  }

  /** The call of `id`, made if new. */
  #callOf(id: string): Call {
    let call = this.#call(id);
    if (call === undefined) {
      call = { id, tool: undefined, approval: undefined, agent: undefined };
      this.#calls.set(id, call);
      this.#lastId = id;
      this.#last = call;
    }
    return call;
  }

  // --- events ----------------------------------------------------------------

  /** The span an event of `scope` goes in, as #base gives it (`undefined` for none). */
  #spanOf(scope: Scope): string | undefined {
    return (scope.turn?.id ?? scope.agent?.id) || undefined;
  }

  // The hot events are built as literals with and without `span_id` (#base's
  // keys, in its order), not as `{ ...this.#base(path, scope), … }`: a spread
  // inside a literal builds it key by key, several times slower (measured).
  #base(path: string, scope: Scope): { uuid: string; timestamp: string; span_id?: string } {
    const base: { uuid: string; timestamp: string; span_id?: string } = {
      uuid: this.#sink.uuid(path),
      timestamp: this.#clock.next(),
    };
    const span = scope.turn?.id ?? scope.agent?.id;
    if (span) base.span_id = span;
    return base;
  }

  /** Adds an event with its invented time flagged, and counts it in the scope's turn. */
  #add<E extends Event>(draft: E, path: string, scope: Scope, open = false): E {
    const metadata = draft.metadata;
    if (metadata) metadata[INVENTED_KEY] = inventedOnly('timestamp');
    else draft.metadata = inventedOnlyMetadata('timestamp');
    this.#ctx.invent('timestamp', path);
    this.#sink.add(draft, open ? OPEN_DRAFT : undefined);
    return this.#track(draft, scope);
  }

  /** Counts an added event in the scope's open turn (for `turn_aborted`). */
  #track<E extends Event>(draft: E, scope: Scope): E {
    if (scope.turn) {
      scope.turnEvents.push(draft);
      scope.turnSeen.add(draft);
    }
    return draft;
  }

  /** A record whose `type` is `type` (read by the caller). */
  #event(rec: JsonRecord, type: string, path: string, scope: Scope): void {
    if (type !== 'assistant_text' && type !== 'assistant_thought') this.#endRun(scope);
    switch (type) {
      case 'turn_started':
        this.#openTurn(scope, path);
        return;
      case 'turn_ended':
        if (!scope.turn) {
          this.#ctx.info(path, 'defect_no_turn', type);
          this.#openTurn(scope, path);
        }
        this.#closeTurn(scope, rec, path, false);
        // Stopped by the user (`cancelled`): aborted too (events/outcome.ts, "Aborted");
        // a `turn_aborted` may still follow for this turn.
        if (isAbortStopReason(own(rec, 'reason')))
          markAborted(this.#sink, scope.turnEvents, own(rec, 'reason'));
        return;
      case 'turn_aborted':
        this.#abort(scope, rec, path);
        return;
      case 'user_prompt_committed': {
        const content = own(rec, 'content');
        const body = Array.isArray(content) ? acpContent(content) : '';
        const uuid = this.#sink.uuid(path);
        const timestamp = this.#clock.next();
        const span = this.#spanOf(scope);
        const draft = messageDraft(uuid, timestamp, span, 'user', body, uuid, 'input');
        this.#add(draft, path, scope);
        return;
      }
      case 'assistant_text':
      case 'assistant_thought':
        this.#delta(scope, type === 'assistant_thought', own(rec, 'content'), path);
        return;
      case 'tool_call_started':
      case 'tool_call_progress':
      case 'tool_call_finished':
        this.#tool(scope, rec, path, type);
        return;
      case 'policy_decision':
        this.#policy(scope, rec, path);
        return;
      case 'permission_resolved':
        this.#resolved(scope, rec, path);
        return;
      case 'llm_call_started':
        this.#llmStarted(scope, rec, path);
        return;
      case 'llm_call_finished':
        this.#llmFinished(scope, rec, path);
        return;
      case 'context_compressed':
      case 'context_microcompacted': {
        const cleared = num(own(rec, 'cleared'));
        this.#add(
          {
            event: 'compaction',
            ...this.#base(path, scope),
            type: type === 'context_compressed' ? 'summary' : 'edit',
            tokens_before: num(own(rec, 'tokens_before')) ?? null,
            tokens_after: num(own(rec, 'tokens_after')) ?? null,
            source: 'defect',
            ...(cleared !== undefined ? { metadata: { cleared } } : {}),
          },
          path,
          scope,
        );
        return;
      }
      case 'subagent':
        this.#subagent(rec, path);
        return;
      default:
        this.#ctx.info(path, 'defect_unknown_event', type);
        this.#add(
          { event: 'info', ...this.#base(path, scope), source: 'defect', data: rec },
          path,
          scope,
        );
    }
  }

  // --- turns -----------------------------------------------------------------

  #openTurn(scope: Scope, path: string): void {
    if (scope.turn) {
      this.#ctx.warn(path, 'defect_unclosed', `Turn ${scope.turn.name}`);
      this.#closeTurn(scope, undefined, path, false);
    }
    const n = ++scope.turns;
    const id = `${scope.prefix}turn-${n}`;
    const begin = this.#sink.openSpan(
      {
        id,
        uuid: this.#sink.uuid(`turn:${id}`),
        timestamp: this.#clock.next(),
        parent_id: scope.agent?.id,
        type: 'turn',
        name: `turn ${n}`,
      },
      { open: true, timeInvented: path },
    );
    scope.turnEvents = [begin];
    scope.turnSeen = new Set(scope.turnEvents);
    scope.turn = begin;
  }

  #closeTurn(scope: Scope, rec: JsonRecord | undefined, path: string, aborted: boolean): void {
    const turn = scope.turn;
    if (!turn) return;
    this.#endRun(scope);
    for (const m of scope.llm) this.#sink.close(m);
    scope.llm.length = 0;
    const begin = this.#sink.revise(turn);
    const metadata: JsonObject = begin.metadata ?? {};
    const reason = rec ? own(rec, 'reason') : undefined;
    metadata['stop_reason'] = aborted
      ? 'aborted'
      : (stringOf(reason) ?? (rec ? null : 'unfinished'));
    const usage = rec ? own(rec, 'usage') : undefined;
    if (usage !== undefined) metadata['usage'] = usage;
    begin.metadata = metadata;
    const end = this.#sink.closeSpan(begin, {
      uuid: this.#sink.uuid(`turn-end:${begin.id}`),
      timestamp: this.#clock.next(),
      timeInvented: path,
    });
    this.#track(end, scope);
    scope.turn = undefined;
  }

  /**
   * `turn_aborted`: the turn's events stay in the log, each marked
   * `metadata.aborted` (and the span), so views show them as rolled back and
   * totals skip them. An abort after `turn_ended` applies to that last turn.
   */
  #abort(scope: Scope, rec: JsonRecord, path: string): void {
    if (scope.turn) this.#closeTurn(scope, rec, path, true);
    else if (scope.turnEvents.length === 0) {
      this.#ctx.info(path, 'defect_no_turn', 'turn_aborted');
      this.#add(
        { event: 'info', ...this.#base(path, scope), source: 'defect', data: rec },
        path,
        scope,
      );
      return;
    }
    markAborted(this.#sink, scope.turnEvents, own(rec, 'reason'));
    scope.turnEvents = [];
    scope.turnSeen = new Set();
  }

  #endScope(scope: Scope, path: string): void {
    this.#endRun(scope);
    if (scope.turn) {
      this.#ctx.warn(path, 'defect_unclosed', `Turn ${scope.turn.name}`);
      this.#closeTurn(scope, undefined, path, false);
    }
    for (const m of scope.llm) this.#sink.close(m);
    scope.llm = [];
  }

  // --- text --------------------------------------------------------------------

  #endRun(scope: Scope): void {
    if (!scope.run) return;
    this.#sink.close(scope.run.draft);
    scope.run = undefined;
  }

  #delta(scope: Scope, thought: boolean, block: unknown, path: string): void {
    if (scope.run && scope.run.thought !== thought) this.#endRun(scope);
    let draft = scope.run?.draft;
    if (!draft) {
      const uuid = this.#sink.uuid(path);
      const timestamp = this.#clock.next();
      const span = this.#spanOf(scope);
      const content = thought ? [] : '';
      draft =
        span !== undefined
          ? {
              event: 'message',
              uuid,
              timestamp,
              span_id: span,
              role: 'assistant',
              content,
              message_id: uuid,
              source: 'defect',
            }
          : {
              event: 'message',
              uuid,
              timestamp,
              role: 'assistant',
              content,
              message_id: uuid,
              source: 'defect',
            };
      this.#add(draft, path, scope, true);
      scope.run = { thought, draft };
    } else this.#sink.touch(draft);
    appendAcpBlock(draft, block, thought);
  }

  // --- tools and approvals -----------------------------------------------------

  #tool(scope: Scope, rec: JsonRecord, path: string, type: string): void {
    const id = stringOf(own(rec, 'id'));
    if (!id) {
      this.#ctx.warn(path, 'missing_field', 'id');
      this.#add(
        { event: 'info', ...this.#base(path, scope), source: 'defect', data: rec },
        path,
        scope,
      );
      return;
    }
    const call = this.#callOf(id);
    let tool = call.tool;
    if (!tool) {
      // #base's keys, its uuid replaced by the tool's (#base's own was unused).
      const uuid = this.#sink.uuid(`tool:${id}`);
      const timestamp = this.#clock.next();
      const span = this.#spanOf(scope);
      tool = this.#add<ToolEvent>(
        pendingToolDraft(uuid, timestamp, span, id, { acp: {} }),
        path,
        scope,
        true,
      );
      call.tool = tool;
      this.#toolCalls.push(call);
    } else {
      // A draft not frozen is the sink's current version (only a sealed one
      // is ever replaced): `revise` would return it as it is.
      if (Object.isFrozen(tool)) call.tool = tool = this.#sink.revise(tool);
      this.#sink.touch(tool);
      if (scope.turn && !scope.turnSeen.has(tool)) {
        scope.turnEvents.push(tool);
        scope.turnSeen.add(tool);
      }
    }
    const name = stringOf(own(rec, 'name'));
    if (name) tool.function = name;
    const fields = own(rec, 'fields');
    const metadata = (tool.metadata ??= {});
    let acp = metadata['acp'] as JsonObject | undefined;
    if (!isRecord(acp)) metadata['acp'] = acp = {};
    if (isRecord(fields)) {
      for (const key of TOOL_FIELDS) {
        const v = own(fields, key);
        if (v !== undefined) acp[key] = v;
      }
      const rawInput = own(fields, 'rawInput');
      if (rawInput !== undefined)
        tool.arguments = isRecord(rawInput) ? rawInput : { value: rawInput as never };
    }
    if (!name && tool.function === 'tool' && typeof acp['title'] === 'string')
      tool.function = acp['title'];
    if (type === 'tool_call_finished' && acp['status'] === undefined) acp['status'] = 'completed';
    const content = acp['content'];
    const raw = acp['rawOutput'];
    const text =
      Array.isArray(content) && content.length
        ? toolContentText(content)
        : typeof raw === 'string'
          ? raw
          : raw != null
            ? safeJson(raw)
            : '';
    tool.result = text;
    if (acp['status'] === 'failed') tool.error = { type: 'unknown', message: text || 'failed' };
    if (type === 'tool_call_finished' && this.#sink.isOpen(tool)) {
      tool.completed = this.#clock.next();
      inventEnd(this.#sink, this.#ctx, tool, path);
      this.#sink.close(tool);
      const agent = call.agent;
      if (agent?.agent && this.#sink.isOpen(agent.agent)) this.#closeAgent(agent, path);
    }
  }

  /** The approval of `call`, made if new (the caller stores the returned version in `call`). */
  #approval(scope: Scope, call: Call, path: string): ApprovalEvent {
    let approval = call.approval;
    if (approval) return Object.isFrozen(approval) ? this.#sink.revise(approval) : approval;
    const id = call.id;
    const tool = call.tool;
    const uuid = this.#sink.uuid(`${path}:approval`);
    const timestamp = this.#clock.next();
    const span = this.#spanOf(scope);
    const message = tool ? tool.function : `Tool call ${id}`;
    const toolCall = { id, function: tool?.function ?? 'tool', arguments: tool?.arguments ?? {} };
    approval = this.#add<ApprovalEvent>(
      pendingApprovalDraft(uuid, timestamp, span, message, toolCall, 'policy'),
      path,
      scope,
      true,
    );
    call.approval = approval;
    this.#approvalCalls.push(call);
    return approval;
  }

  #policy(scope: Scope, rec: JsonRecord, path: string): void {
    const call = this.#callOf(stringOf(own(rec, 'id')) ?? '');
    const decision = own(rec, 'decision');
    const kind = isRecord(decision) ? own(decision, 'kind') : undefined;
    const approval = this.#approval(scope, call, path);
    setMetadata(approval, 'defect_decision', (decision ?? null) as JsonValue);
    const options = isRecord(decision) ? own(decision, 'options') : undefined;
    if (kind === 'allow') approval.decision = 'approve';
    else if (kind === 'deny' || (kind === 'ask' && Array.isArray(options) && options.length === 0))
      approval.decision = 'reject';
    else {
      approval.decision = 'escalate';
      approval.approver = 'user';
      call.approval = approval;
      this.#sink.touch(approval);
      return;
    }
    call.approval = approval;
    this.#sink.close(approval);
  }

  #resolved(scope: Scope, rec: JsonRecord, path: string): void {
    const call = this.#callOf(stringOf(own(rec, 'id')) ?? '');
    const approval = this.#approval(scope, call, path);
    const outcome = own(rec, 'outcome');
    const o = isRecord(outcome) ? outcome : {};
    const decision = approval.metadata?.['defect_decision'];
    const options =
      isRecord(decision) && Array.isArray(own(decision, 'options'))
        ? (own(decision, 'options') as unknown[])
        : [];
    const optionId = own(o, 'option_id');
    let option: unknown;
    for (const x of options)
      if (isRecord(x) && own(x, 'id') === optionId) {
        option = x;
        break;
      }
    approval.approver = 'user';
    if (own(o, 'kind') === 'cancelled') approval.decision = 'terminate';
    else if (isRecord(option) && typeof own(option, 'allows') === 'boolean')
      approval.decision = own(option, 'allows') ? 'approve' : 'reject';
    else approval.decision = /reject|deny/i.test(valueText(optionId)) ? 'reject' : 'approve';
    if (isRecord(option) && typeof own(option, 'name') === 'string')
      approval.explanation = own(option, 'name') as string;
    setMetadata(approval, 'defect_outcome', (outcome ?? null) as JsonValue);
    call.approval = approval;
    this.#sink.close(approval);
  }

  // --- model calls ---------------------------------------------------------------

  #llmStarted(scope: Scope, rec: JsonRecord, path: string): void {
    const model = stringOf(own(rec, 'model')) ?? 'unknown';
    const attempt = num(own(rec, 'attempt')) ?? 1;
    // Attempt 1 starts a call; later attempts are retries of the same one.
    if (attempt <= 1 || scope.calls === 0) scope.calls++;
    const uuid = this.#sink.uuid(path);
    const timestamp = this.#clock.next();
    const span = this.#spanOf(scope);
    const output = { model, choices: EMPTY_ARRAY as [], completion: '' };
    const callId = `${scope.prefix}llm-${scope.calls}`;
    // `input`, `tools`, `config` and `choices` are the shared frozen empties
    // (no model call here ever fills them).
    const draft = this.#add<ModelEvent>(
      span !== undefined
        ? {
            event: 'model',
            uuid,
            timestamp,
            span_id: span,
            model,
            input: EMPTY_ARRAY as [],
            tools: EMPTY_ARRAY as [],
            tool_choice: 'auto',
            config: EMPTY_OBJECT,
            output,
            attempt,
            retries: attempt - 1,
            call_id: callId,
          }
        : {
            event: 'model',
            uuid,
            timestamp,
            model,
            input: EMPTY_ARRAY as [],
            tools: EMPTY_ARRAY as [],
            tool_choice: 'auto',
            config: EMPTY_OBJECT,
            output,
            attempt,
            retries: attempt - 1,
            call_id: callId,
          },
      path,
      scope,
      true,
    );
    scope.llm.push(draft);
  }

  #llmFinished(scope: Scope, rec: JsonRecord, path: string): void {
    const attempt = num(own(rec, 'attempt')) ?? 1;
    let i = scope.llm.length - 1;
    while (i >= 0 && scope.llm[i]!.attempt !== attempt) i--;
    if (i < 0) {
      this.#llmStarted(scope, rec, path);
      i = scope.llm.length - 1;
    }
    const draft = scope.llm[i]!;
    scope.llm.splice(i, 1);
    this.#sink.touch(draft);
    const usage = modelUsage(own(rec, 'usage'));
    if (usage) draft.output.usage = usage;
    const error = own(rec, 'error');
    if (typeof error === 'string') {
      draft.error = error;
      draft.output.error = error;
    }
    draft.completed = this.#clock.next();
    inventEnd(this.#sink, this.#ctx, draft, path);
    this.#sink.close(draft);
  }

  // --- sub-agents ------------------------------------------------------------------

  /**
   * `subagent { ancestor_path, agent_type, inner }`. The innermost event
   * belongs to the agent spawned by the tool call named last in the deepest
   * path seen: nested `subagent`s (the recursive form) and one flattened
   * multi-id path resolve alike.
   */
  #subagent(rec: JsonRecord, path: string): void {
    let ancestors = own(rec, 'ancestor_path');
    let agentType = stringOf(own(rec, 'agent_type'));
    let inner = own(rec, 'inner');
    let innerPath = `${path}.inner`;
    for (
      let depth = 0;
      isRecord(inner) && own(inner, 'type') === 'subagent' && depth < 10_000;
      depth++
    ) {
      const p = own(inner, 'ancestor_path');
      if (Array.isArray(p) && p.length) ancestors = p;
      agentType = stringOf(own(inner, 'agent_type')) ?? agentType;
      inner = own(inner, 'inner');
      innerPath += '.inner';
    }
    const last = Array.isArray(ancestors) ? stringOf(ancestors[ancestors.length - 1]) : undefined;
    const type = isRecord(inner) ? own(inner, 'type') : undefined;
    if (!last || !isRecord(inner) || typeof type !== 'string') {
      this.#ctx.info(path, 'defect_unknown_event', 'subagent without a path or an inner event');
      this.#add(
        { event: 'info', ...this.#base(path, this.#root), source: 'defect', data: rec },
        path,
        this.#root,
      );
      return;
    }
    this.#event(inner, type, innerPath, this.#agentScope(last, agentType ?? 'agent', path));
  }

  #agentScope(toolId: string, agentType: string, path: string): Scope {
    const call = this.#callOf(toolId);
    if (call.agent) return call.agent;
    let tool = call.tool;
    if (!tool) this.#ctx.warn(path, 'defect_unresolved_parent', toolId);
    const id = `agent:${toolId}`;
    const begin = this.#sink.openSpan(
      {
        id,
        uuid: this.#sink.uuid(`agent:${toolId}`),
        timestamp: this.#clock.next(),
        parent_id: tool?.span_id || undefined,
        type: 'agent',
        name: agentType,
      },
      { open: true, timeInvented: path },
    );
    this.#track(begin, this.#root);
    const scope = newScope(begin, `${toolId}/`);
    call.agent = scope;
    this.#agentCalls.push(call);
    if (tool) {
      call.tool = tool = this.#sink.revise(tool);
      tool.agent_span_id = id;
      tool.agent = agentType;
      this.#sink.touch(tool);
    }
    return scope;
  }

  #closeAgent(scope: Scope, path: string): void {
    this.#endScope(scope, path);
    const end = this.#sink.closeSpan(scope.agent!, {
      uuid: this.#sink.uuid(`agent-end:${scope.agent!.id}`),
      timestamp: this.#clock.next(),
      timeInvented: path,
    });
    this.#track(end, this.#root);
  }

  // --- journal.jsonl ----------------------------------------------------------------

  #journal(line: JsonRecord, path: string): void {
    const seq = own(line, 'seq') as number;
    if (this.#seq !== undefined && seq !== this.#seq + 1)
      this.#ctx.warn(`${path}.seq`, 'defect_seq_gap', this.#seq + 1, seq);
    this.#seq = seq;
    const rec = own(line, 'record') as JsonRecord;
    const rpath = `${path}.record`;
    const type = own(rec, 'type');
    const scope = this.#root;
    if (type === 'message') {
      this.#endRun(scope);
      this.#journalMessage(scope, own(rec, 'message'), rpath);
      return;
    }
    if (type === 'snapshot') {
      this.#endRun(scope);
      this.#add(
        { event: 'info', ...this.#base(rpath, scope), source: 'defect', data: rec },
        rpath,
        scope,
      );
      return;
    }
    if (typeof type === 'string') this.#event(rec, type, rpath, scope);
    else {
      this.#ctx.info(rpath, 'defect_unknown_event', '(no type)');
      this.#add(
        { event: 'info', ...this.#base(rpath, scope), source: 'defect', data: rec },
        rpath,
        scope,
      );
    }
  }

  /** A stored message: its text, thinking and images as one message; tool uses and results as tool events. */
  #journalMessage(scope: Scope, message: unknown, path: string): void {
    const m = isRecord(message) ? message : {};
    const role = own(m, 'role') === 'user' ? 'user' : 'assistant';
    const content = own(m, 'content');
    const parts: Content[] = [];
    const list = Array.isArray(content) ? content : [];
    for (let i = 0; i < list.length; i++) {
      const part = list[i];
      const ppath = `${path}.message.content[${i}]`;
      const type = isRecord(part) ? own(part, 'type') : undefined;
      if (!isRecord(part)) continue;
      if (type === 'text') parts.push({ type: 'text', text: stringOf(own(part, 'text')) ?? '' });
      else if (type === 'thinking') {
        const signature = stringOf(own(part, 'signature'));
        parts.push({
          type: 'reasoning',
          reasoning: stringOf(own(part, 'text')) ?? '',
          ...(signature ? { signature } : {}),
        });
      } else if (type === 'image' && typeof own(part, 'data') === 'string')
        parts.push({
          type: 'image',
          image: `data:${stringOf(own(part, 'mime')) ?? 'image/png'};base64,${own(part, 'data') as string}`,
        });
      else if (type === 'tool_use') {
        const args = own(part, 'args');
        this.#tool(
          scope,
          { id: own(part, 'id'), name: own(part, 'name'), fields: { rawInput: args ?? {} } },
          ppath,
          'tool_call_started',
        );
      } else if (type === 'tool_result') {
        const id = own(part, 'tool_use_id');
        const isError = own(part, 'is_error') === true;
        const text = resultBodyText(own(part, 'output'));
        this.#tool(
          scope,
          { id, fields: { status: isError ? 'failed' : 'completed', rawOutput: text } },
          ppath,
          'tool_call_finished',
        );
      } else parts.push({ type: 'data', data: cloneJson(part) });
    }
    if (parts.length === 0) return;
    const draft: MessageEvent = {
      event: 'message',
      ...this.#base(path, scope),
      role,
      content: textOrParts(parts),
      message_id: '',
      source: 'defect',
    };
    draft.message_id = draft.uuid;
    this.#add(draft, path, scope);
  }
}

function looksLikeDefect(record: unknown): boolean {
  if (!isRecord(record)) return false;
  const type = own(record, 'type');
  if (typeof type === 'string') return EVENT_TYPES.has(type);
  const inner = own(record, 'record');
  return (
    typeof own(record, 'seq') === 'number' &&
    isRecord(inner) &&
    typeof own(inner, 'type') === 'string'
  );
}

/**
 * defect `AgentEvent` logs (JSON Lines or an array) and `journal.jsonl`.
 *
 * @example
 * import { Probe } from '../probe.js';
 * import { defectFormat } from './defect.js';
 * defectFormat.detect(new Probe('{"type":"turn_started"}\n')); // true
 */
export const defectFormat: FormatImporter & {
  incremental(options: ImportOptions): IncrementalImporter;
} = {
  id: 'defect',
  name: 'defect AgentEvent',
  extensions: ['.jsonl', '.json'],
  detect(probe) {
    const records = probe.records(4);
    return records.length > 0 && records.some(looksLikeDefect) && records.every(isRecord);
  },
  // A parsed value given by the caller is copied: events embed raw records and are deep-frozen.
  import: (probe, options) =>
    importLines(defectFormat, probe.isRaw ? probe : new Probe(cloneJson(probe.json())), options),
  incremental: (options) => new DefectImporter(options),
};

/**
 * A cheap check whether an input is a defect `AgentEvent` log or journal.
 *
 * @example
 * isDefect('{"type":"assistant_text","content":{"type":"text","text":"Hi"}}'); // true
 */
export const isDefect: (input: ImportInput, filename?: string) => boolean = sniffer(defectFormat);

/**
 * Imports a defect `AgentEvent` log (one event per line, or a JSON array) or a
 * stored session `journal.jsonl`: turns as spans, merged text, one tool event
 * per call id, approvals, model calls with attempts, compactions, sub-agents
 * under their tool calls, aborted turns marked (see the top of this file).
 *
 * @example
 * import { readFileSync } from 'node:fs';
 * const { events, diagnostics } = importDefect(readFileSync('events.jsonl', 'utf8'));
 */
export function importDefect(input: ImportInput, options: ImportOptions = {}): ImportResult {
  return defectFormat.import(new Probe(input, options.filename), options) as ImportResult;
}
