// Long on purpose (past 600 lines): one record graph (uuid and parentUuid, branches, sidechains, merged message ids) that every record type updates.
// Claude Code session logs: `~/.claude/projects/<encoded-cwd>/<sessionId>.jsonl`,
// one record per line, plus `<sessionId>/subagents/agent-<id>.jsonl` for
// sub-agents in newer versions. There is no published spec; the shapes here
// are those of real sessions (1.0.x to 2.1).
//
// Mapping (the one representation every importer maps to):
// - a user prompt (text, not a tool result, not meta) opens a `turn` span that
//   runs to the next prompt; the prompt itself is a `message` (role user);
//   the user's interrupt (`[Request interrupted by user]`) stays in the turn it
//   stopped, which is aborted (every event marked `metadata.aborted`);
// - assistant records with the same `message.id` (one API response split per
//   content block) merge into one `model` event: text, thinking and tool_use
//   blocks in order, usage, stop reason;
// - each `tool_use` block is a `tool` event whose `id` is the tool_use id,
//   completed by the `tool_result` with that `tool_use_id` (error when
//   `is_error`), the structured `toolUseResult` kept in `metadata.tool_use_result`;
//   a call never answered stays open (pending);
// - sidechain records (`isSidechain: true`, older versions inline) and
//   sub-agent files (newer) are an `agent` span under the Task/Agent tool call
//   that spawned them (paired by `agentId`, else the latest unpaired Task call);
// - `system` `compact_boundary` → `compaction`; `summary`, other `system`
//   subtypes and every record type the docs don't list (`queue-operation`,
//   `attachment`, `permission-mode`, `last-prompt`, `file-history-snapshot`,
//   `progress`, …) → `info` events (`source: 'claude-code'`), kept quietly;
// - branches: the active branch is the chain the session ended on
//   (`parentUuid`, and `logicalParentUuid` across compaction); records on a
//   branch abandoned at a fork (a rewind) stay, marked
//   `metadata.claude_code.branch: 'rewound'`; a side branch of only `info`
//   records (`progress` of a running tool, next to its result) is no rewind.
// Lines that are not records are kept as `info` events with a diagnostic.
import type {
  Content,
  Event,
  JsonObject,
  MessageEvent,
  ModelEvent,
  ModelUsage,
  SpanBeginEvent,
  ToolCall,
  ToolEvent,
} from '../../events/types.js';
import type { Diagnostic } from '../../errors.js';
import {
  isRecord,
  own,
  typeName,
  type ImportOptions,
  type JsonRecord,
  safeJson,
} from '../guards.js';
import {
  importLines,
  importerParts,
  sniffer,
  type FormatImporter,
  type ImportResult,
  type IncrementalImporter,
} from '../format.js';
import { Probe, type ImportInput } from '../probe.js';
import { markSpanAborted } from '../aborted.js';
import { SyntheticClock } from '../sink.js';
import { OPEN_DRAFT } from '../drafts.js';
import { StringMap } from '../string-map.js';
import { timestampMs } from '../../events/timestamp.js';

const RECORD_TYPES = new Set([
  'user',
  'assistant',
  'system',
  'summary',
  'file-history-snapshot',
  'queue-operation',
  'attachment',
  'permission-mode',
  'last-prompt',
  'progress',
]);

/** True for a record in a Claude Code session's shape. */
function looksLikeRecord(value: unknown): boolean {
  if (!isRecord(value)) return false;
  const type = value['type'];
  if (typeof type !== 'string' || !RECORD_TYPES.has(type)) return false;
  if (type === 'summary') return typeof value['summary'] === 'string' && 'leafUuid' in value;
  // Every conversation record carries a session id and a uuid (or sits in a
  // sidechain); that tells it from other JSONL that happens to use `type`.
  return typeof value['sessionId'] === 'string' || typeof value['uuid'] === 'string';
}

function blocksOf(message: JsonRecord): unknown[] {
  const content = message['content'];
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? content : [];
}

/** Claude's content blocks (text, thinking, image…) as skein content parts. */
function toContent(block: JsonRecord): Content | undefined {
  switch (block['type']) {
    case 'text':
      return { type: 'text', text: typeof block['text'] === 'string' ? block['text'] : '' };
    case 'thinking':
    case 'redacted_thinking': {
      // One literal per shape, not spreads of conditional objects (a literal
      // with spreads is built key by key).
      const reasoning = typeof block['thinking'] === 'string' ? block['thinking'] : '';
      const signature = block['signature'];
      if (block['type'] === 'redacted_thinking')
        return typeof signature === 'string'
          ? { type: 'reasoning', reasoning, signature, redacted: true }
          : { type: 'reasoning', reasoning, redacted: true };
      return typeof signature === 'string'
        ? { type: 'reasoning', reasoning, signature }
        : { type: 'reasoning', reasoning };
    }
    case 'image': {
      const source = isRecord(block['source']) ? block['source'] : {};
      const data = typeof source['data'] === 'string' ? source['data'] : '';
      const media = typeof source['media_type'] === 'string' ? source['media_type'] : 'image/png';
      const url =
        typeof source['url'] === 'string' ? source['url'] : `data:${media};base64,${data}`;
      return { type: 'image', image: url };
    }
    default:
      return undefined;
  }
}

/** A tool_result's content as a tool event's `result`. */
function toolResult(content: unknown): string | Content[] {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content))
    return content === undefined || content === null ? '' : safeJson(content);
  const parts: Content[] = [];
  for (const b of content)
    if (isRecord(b)) parts.push(toContent(b) ?? { type: 'text', text: safeJson(b) });
  return parts;
}

/** A token count of a usage record, 0 when absent. */
function tokens(raw: JsonRecord, key: string): number {
  const n = raw[key];
  return typeof n === 'number' ? n : 0;
}

// No closure per call (under tsx each one also costs a `__name`).
function usageOf(raw: unknown): ModelUsage | undefined {
  if (!isRecord(raw)) return undefined;
  const input = tokens(raw, 'input_tokens');
  const output = tokens(raw, 'output_tokens');
  const cacheWrite = tokens(raw, 'cache_creation_input_tokens');
  const cacheRead = tokens(raw, 'cache_read_input_tokens');
  return {
    input_tokens: input,
    output_tokens: output,
    total_tokens: input + output + cacheWrite + cacheRead,
    input_tokens_cache_write: cacheWrite,
    input_tokens_cache_read: cacheRead,
  };
}

function promptText(message: JsonRecord): string | Content[] | undefined {
  const content = message['content'];
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const parts: Content[] = [];
  for (const b of content) {
    if (!isRecord(b)) {
      if (typeof b === 'string') parts.push({ type: 'text', text: b });
      continue;
    }
    if (b['type'] === 'tool_result') return undefined; // a tool result, not a prompt
    const c = toContent(b);
    if (c) parts.push(c);
  }
  return parts;
}

/** The text Claude Code writes as a user record when the user stops a turn. */
function isInterruptMarker(prompt: string | Content[]): boolean {
  const only = typeof prompt === 'string' ? prompt : prompt.length === 1 ? prompt[0] : undefined;
  const text = typeof only === 'string' ? only : only?.type === 'text' ? only.text : undefined;
  return (
    text !== undefined && /^\[Request interrupted by user( for tool use)?\]$/.test(text.trim())
  );
}

const SPAWNING_TOOLS = new Set(['Task', 'Agent']);

// Fields every model or tool event has empty: one frozen value shared by all
// (events are deep-frozen anyway, and a frozen value is not walked again), not
// an array or object built, kept and frozen per event.
const NO_MESSAGES = Object.freeze([]) as unknown as ModelEvent['input'];
const NO_TOOLS = Object.freeze([]) as unknown as ModelEvent['tools'];
const NO_CONFIG = Object.freeze({}) as ModelEvent['config'];
const NO_EVENTS = Object.freeze([]) as unknown as ToolEvent['events'];

interface Agent {
  span: string;
  begin: SpanBeginEvent;
  lastTime: string;
}

function claudeCodeImporter(options: ImportOptions): IncrementalImporter {
  const { ctx, sink } = importerParts('claude-code', options);
  const clock = new SyntheticClock(options.baseTime);
  // One entry a record or a response: StringMap, not Map (string-map.ts).
  const tools = new StringMap<ToolEvent>(); // tool_use id → tool event
  const spawners: string[] = []; // ids of Task/Agent calls, in the order first seen
  const models = new StringMap<ModelEvent>(); // message.id → model event (merging)
  // The records with a uuid, by index (in order): their uuid, parent, how
  // many children name them; and one map from uuid to index, the first record
  // of that uuid. Three map operations a record, not seven on four maps: at
  // 100k records those hash-table probes were half of `push`. The events each
  // record mapped to are two flat lists in push order (the event, its
  // record's index), not a list per record. The maps the rewind walk needs
  // are built from these only when the chain forked.
  const indexOf = new StringMap<number>();
  const recUuids: string[] = [];
  const recParents: (string | undefined)[] = [];
  const kidCounts: number[] = [];
  const remembered: Event[] = [];
  const rememberedBy: number[] = [];
  const unseenParents = new Map<string, number>(); // children of uuids not seen yet
  let current = -1; // index of the record being pushed, -1 without a uuid
  let prevUuid: string | undefined; // the last indexed uuid
  let prevIndex = -1;
  let forks = 0; // parents with two children or more
  const eventsOfRecord = new Map<string, Event | Event[]>();
  const parentOf = new Map<string, string>();
  const children = new Map<string, string | string[]>();
  const agents = new Map<string, Agent>(); // agent key → span
  const agentOfTool = new Map<string, string>(); // tool_use id → agent key
  const toolOfAgent = new Map<string, ToolEvent>(); // agentId → spawning tool
  const agentOfRecord = new Map<string, string>(); // record uuid → agent key
  let lastSidechainAgent: string | undefined;
  let turn:
    { span: string; begin: SpanBeginEvent; lastTime: string; interrupted?: true } | undefined;
  let turnCount = 0;
  let lastUuid: string | undefined;
  let allSidechain = true;
  let lastTime = '';
  let currentModel: ModelEvent | undefined; // the response whose blocks may still arrive
  let currentModelKey = ''; // its key in `models` (each key has its own model)

  /** Notes that the record being pushed mapped to `e`. */
  const remember = (e: Event) => {
    if (current < 0) return;
    remembered.push(e);
    rememberedBy.push(current);
  };

  /** Counts a child of `parent` (a uuid), and a fork at its second. */
  const countChild = (parent: string) => {
    const at = parent === prevUuid ? prevIndex : indexOf.get(parent);
    if (at === undefined) {
      const n = (unseenParents.get(parent) ?? 0) + 1;
      unseenParents.set(parent, n);
      if (n === 2) forks++;
    } else if (++kidCounts[at]! === 2) forks++;
  };

  /** The span a record's events go in: its sub-agent's, else the turn's. */
  const spanOf = (agent: Agent | undefined) => agent?.span ?? turn?.span ?? null;

  const closeTurn = () => {
    if (!turn) return;
    sink.closeSpan(turn.begin, { timestamp: turn.lastTime });
    if (turn.interrupted) markSpanAborted(sink, turn.begin); // events/outcome.ts, "Aborted"
    turn = undefined;
  };

  /** The agent span a sidechain record belongs to, created on first sight. */
  const agentFor = (
    rec: JsonRecord,
    uuid: string | undefined,
    time: string,
    path: string,
  ): Agent => {
    const agentId = typeof rec['agentId'] === 'string' ? rec['agentId'] : undefined;
    const parent = typeof rec['parentUuid'] === 'string' ? rec['parentUuid'] : undefined;
    let key = agentId ?? (parent ? agentOfRecord.get(parent) : undefined);
    if (!key && parent === undefined)
      key = undefined; // a new chain's root: a new agent
    else key ??= lastSidechainAgent;
    key ??= `agent-${agents.size + 1}`;
    if (uuid) agentOfRecord.set(uuid, key);
    lastSidechainAgent = key;
    // An agentId whose call already has a sub-agent (an earlier part of the same
    // sidechain that carried no agentId) names that sub-agent.
    let tool = agentId ? toolOfAgent.get(agentId) : undefined;
    const known = tool ? agentOfTool.get(tool.id) : undefined;
    if (known && known !== key) {
      key = known;
      if (uuid) agentOfRecord.set(uuid, key);
      lastSidechainAgent = key;
    }
    let agent = agents.get(key);
    if (agent) {
      agent.lastTime = time;
      return agent;
    }
    // The spawning call: by agentId, else the latest Task/Agent call with no sub-agent yet.
    if (!tool) {
      // Paired calls leave the top of the list for good: amortized O(1) a
      // sub-agent, where a scan of every tool made nested sub-agents quadratic.
      while (spawners.length > 0 && agentOfTool.has(spawners[spawners.length - 1]!)) spawners.pop();
      const id = spawners[spawners.length - 1];
      if (id !== undefined) tool = tools.get(id);
    }
    const input = tool?.arguments ?? {};
    const name =
      (typeof input['subagent_type'] === 'string' && input['subagent_type']) ||
      (typeof input['description'] === 'string' && input['description']) ||
      'sub-agent';
    if (!tool) ctx.info(path, 'claude_code_agent_unlinked', key);
    const begin = sink.openSpan({
      key: `agent:${key}`,
      timestamp: time,
      parent_id: tool?.span_id ?? null,
      type: 'agent',
      name,
      metadata: { claude_code: { agent_id: agentId ?? key } },
    });
    const span = begin.id;
    agent = { span, begin, lastTime: time };
    agents.set(key, agent);
    if (tool) {
      agentOfTool.set(tool.id, key);
      // A stream may have drained the call (sealed) before its sub-agent's
      // records: a sidechain written after the call's result.
      if (Object.isFrozen(tool)) tools.set(tool.id, (tool = sink.revise(tool)));
      tool.agent = name;
      tool.agent_span_id = span;
      sink.touch(tool);
    }
    return agent;
  };

  const info = (
    path: string,
    time: string,
    invented: boolean,
    spanId: string | null,
    data: unknown,
    uuid?: string,
  ) => {
    const e = sink.add({
      event: 'info',
      uuid: uuid ?? sink.uuid(path),
      timestamp: time,
      span_id: spanId,
      source: 'claude-code',
      data,
    });
    if (invented) sink.invent(e, 'timestamp', path);
    return e;
  };

  return {
    push(value, path) {
      if (!isRecord(value)) {
        ctx.warn(path, 'claude_code_not_a_record', typeName(value));
        const t = lastTime || clock.next();
        info(path, t, !lastTime, turn?.span ?? null, value);
        return;
      }
      const rec = value;
      const type = typeof rec['type'] === 'string' ? rec['type'] : undefined;
      const msg = rec['message'];
      const msgIdHere =
        type === 'assistant' && isRecord(msg) && typeof msg['id'] === 'string'
          ? msg['id']
          : undefined;
      if (currentModel && msgIdHere !== currentModelKey) {
        sink.close(currentModel);
        currentModel = undefined;
      }
      const stamp = rec['timestamp'];
      let rawTime: string | undefined;
      let ms = Number.NaN;
      if (typeof stamp === 'string') {
        ms = timestampMs(stamp);
        if (isDateTimeString(stamp, ms) || Number.isFinite(Date.parse(stamp))) rawTime = stamp;
      }
      let time: string;
      if (rawTime) {
        clock.observe(rawTime, ms);
        time = rawTime;
      } else time = clock.next();
      const invented = !rawTime;
      lastTime = time;
      // An empty uuid is none (it would make an event without an id).
      let uuid = typeof rec['uuid'] === 'string' && rec['uuid'] !== '' ? rec['uuid'] : undefined;
      current = -1;
      if (uuid) {
        // Indexed as this record unless seen before (one probe either way).
        const at = recUuids.length;
        let first = indexOf.setIfAbsent(uuid, at);
        if (first !== undefined) {
          ctx.info(path, 'claude_code_duplicate_uuid', uuid);
          uuid = `${uuid}#${path}`;
          // A renamed duplicate may still be a uuid seen before: the first keeps it.
          first = indexOf.setIfAbsent(uuid, at);
        }
        current = at;
        recUuids.push(uuid);
        kidCounts.push(0);
        if (first === undefined) {
          first = current;
          const early = unseenParents.size ? unseenParents.get(uuid) : undefined;
          if (early !== undefined) {
            kidCounts[current] = early;
            unseenParents.delete(uuid);
          }
        }
        const parent =
          typeof rec['parentUuid'] === 'string'
            ? rec['parentUuid']
            : typeof rec['logicalParentUuid'] === 'string'
              ? rec['logicalParentUuid']
              : undefined;
        recParents.push(parent || undefined);
        if (parent) countChild(parent);
        prevUuid = uuid;
        prevIndex = first;
        if (rec['isSidechain'] !== true) lastUuid = uuid;
      }
      const sidechain = rec['isSidechain'] === true;
      if (!sidechain && (type === 'user' || type === 'assistant')) allSidechain = false;
      const agent =
        sidechain && (type === 'user' || type === 'assistant') && !allSidechainMode()
          ? agentFor(rec, uuid, time, path)
          : undefined;
      if (turn && !agent) turn.lastTime = time;
      const baseUuid = uuid ?? sink.uuid(path);

      if (type === 'user' || type === 'assistant') {
        const message = own(rec, 'message');
        if (!isRecord(message)) {
          ctx.warn(path, 'claude_code_bad_message', typeName(message));
          remember(info(path, time, invented, spanOf(agent), rec, baseUuid));
          return;
        }
        if (type === 'user') {
          const prompt = promptText(message);
          const isMeta = rec['isMeta'] === true;
          if (prompt !== undefined) {
            // The user's interrupt ends the turn it stopped, inside it.
            if (turn && !agent && !sidechain && isInterruptMarker(prompt)) turn.interrupted = true;
            else if (!agent && !isMeta && !sidechain) {
              closeTurn();
              turnCount++;
              const begin = sink.openSpan(
                {
                  key: `turn:${baseUuid}`,
                  timestamp: time,
                  parent_id: null,
                  type: 'turn',
                  name: `turn ${turnCount}`,
                },
                { timeInvented: invented ? path : undefined },
              );
              turn = { span: begin.id, begin, lastTime: time };
            }
            const m: MessageEvent = {
              event: 'message',
              uuid: baseUuid,
              timestamp: time,
              span_id: spanOf(agent),
              role: 'user',
              content: prompt,
              message_id: uuid ?? baseUuid,
              ...(isMeta ? { metadata: { claude_code: { meta: true } } } : {}),
            };
            sink.add(m);
            if (invented) sink.invent(m, 'timestamp', path);
            remember(m);
            return;
          }
          // Tool results complete their calls.
          for (const block of blocksOf(message)) {
            if (!isRecord(block) || block['type'] !== 'tool_result') continue;
            const id = typeof block['tool_use_id'] === 'string' ? block['tool_use_id'] : '';
            let tool = tools.get(id);
            if (!tool) {
              ctx.info(path, 'claude_code_result_unpaired', id);
              remember(info(path, time, invented, spanOf(agent), block));
              continue;
            }
            // A second result for a call a stream has drained since (sealed).
            if (Object.isFrozen(tool)) tools.set(id, (tool = sink.revise(tool)));
            tool.result = toolResult(block['content']);
            tool.completed = time;
            if (block['is_error'] === true) {
              tool.error = {
                type: 'unknown',
                message: typeof tool.result === 'string' ? tool.result : 'tool error',
              };
              tool.failed = true;
            }
            const structured = own(rec, 'toolUseResult');
            if (structured !== undefined)
              tool.metadata =
                tool.metadata === undefined
                  ? { tool_use_result: structured as never }
                  : { ...tool.metadata, tool_use_result: structured as never };
            const agentId =
              typeof rec['agentId'] === 'string'
                ? rec['agentId']
                : isRecord(structured) && typeof structured['agentId'] === 'string'
                  ? structured['agentId']
                  : undefined;
            if (agentId && SPAWNING_TOOLS.has(tool.function)) toolOfAgent.set(agentId, tool);
            sink.close(tool);
            remember(tool);
          }
          return;
        }
        // assistant
        const msgId = typeof message['id'] === 'string' ? message['id'] : baseUuid;
        let model =
          currentModel !== undefined && msgId === currentModelKey
            ? currentModel
            : models.get(msgId);
        // A response another record interrupted, which a stream has drained
        // (sealed) since: its later records go into a writable version.
        if (model !== undefined && Object.isFrozen(model))
          models.set(msgId, (model = sink.revise(model)));
        if (!model) {
          const requestId = rec['requestId'];
          model = {
            event: 'model',
            uuid: baseUuid,
            timestamp: time,
            span_id: spanOf(agent),
            model: typeof message['model'] === 'string' ? message['model'] : 'unknown',
            input: NO_MESSAGES,
            tools: NO_TOOLS,
            tool_choice: 'auto',
            config: NO_CONFIG,
            output: {
              model: typeof message['model'] === 'string' ? message['model'] : 'unknown',
              choices: [{ message: { role: 'assistant', content: [], tool_calls: [] } }],
              completion: '',
            },
            completed: time,
            metadata: {
              claude_code:
                typeof requestId === 'string'
                  ? { message_id: msgId, request_id: requestId }
                  : { message_id: msgId },
            },
          };
          sink.add(model, OPEN_DRAFT);
          if (invented) sink.invent(model, 'timestamp', path);
          models.set(msgId, model);
        }
        const choice = model.output.choices[0]!;
        const parts = choice.message.content as Content[];
        const calls = choice.message.tool_calls as ToolCall[];
        // The completion is the text of every part, in order; parts are only
        // appended, so only this record's are added to it (a response merged
        // from n records was quadratic when every record rejoined them all).
        const partsBefore = parts.length;
        for (const block of blocksOf(message)) {
          if (!isRecord(block)) continue;
          if (block['type'] === 'tool_use') {
            const id = typeof block['id'] === 'string' ? block['id'] : sink.uuid(`${path}:tool`);
            const fn = typeof block['name'] === 'string' ? block['name'] : 'tool';
            const args = isRecord(block['input']) ? (block['input'] as JsonObject) : {};
            calls.push({ id, function: fn, arguments: args, type: 'function' });
            const tool: ToolEvent = {
              event: 'tool',
              uuid: sink.uuid(`tool:${id}`),
              timestamp: time,
              span_id: spanOf(agent),
              type: 'function',
              id,
              function: fn,
              arguments: args,
              result: '',
              events: NO_EVENTS,
            };
            if (tools.setIfAbsent(id, tool) === undefined) {
              if (SPAWNING_TOOLS.has(fn)) spawners.push(id);
              sink.add(tool, OPEN_DRAFT);
              if (invented) sink.invent(tool, 'timestamp', path);
              remember(tool);
            }
            continue;
          }
          const c = toContent(block);
          if (c) parts.push(c);
          else parts.push({ type: 'text', text: safeJson(block) });
        }
        let completion = model.output.completion;
        for (let i = partsBefore; i < parts.length; i++) {
          const p = parts[i]!;
          if (p.type === 'text') completion += p.text;
        }
        model.output.completion = completion;
        const usage = usageOf(message['usage']);
        if (usage) model.output.usage = usage;
        if (typeof message['stop_reason'] === 'string')
          choice.stop_reason = message['stop_reason'] as never;
        model.completed = time;
        sink.touch(model);
        currentModel = model;
        currentModelKey = msgId;
        remember(model);
        return;
      }

      if (type === 'system' && rec['subtype'] === 'compact_boundary') {
        const meta = isRecord(rec['compactMetadata']) ? rec['compactMetadata'] : {};
        const e = sink.add({
          event: 'compaction',
          uuid: baseUuid,
          timestamp: time,
          span_id: spanOf(agent),
          type: 'summary',
          tokens_before: typeof meta['preTokens'] === 'number' ? meta['preTokens'] : null,
          source: typeof meta['trigger'] === 'string' ? meta['trigger'] : null,
        });
        if (invented) sink.invent(e, 'timestamp', path);
        remember(e);
        return;
      }
      if (type === undefined)
        ctx.warn(path, 'claude_code_not_a_record', 'an object without a "type"');
      // summary, system subtypes, and every record type the docs don't list: kept quietly.
      remember(info(path, time, invented, spanOf(agent), rec, baseUuid));
    },
    // Merged model responses stay open while their blocks may still arrive:
    // closed once a later record is not part of them.
    drain: () => sink.drain(),
    end() {
      for (const model of models.values()) sink.close(model);
      closeTurn();
      for (const agent of agents.values())
        sink.closeSpan(agent.begin, { timestamp: agent.lastTime });
      let open = 0;
      for (const tool of tools.values()) if (sink.isOpen(tool)) open++;
      if (open) ctx.info('$', 'claude_code_tools_unanswered', open);
      markRewound();
      return sink.drain();
    },
    diagnostics: (): Diagnostic[] => ctx.finish(),
  };

  function allSidechainMode(): boolean {
    // A sub-agent file opened on its own: every conversation record so far is a
    // sidechain one. Treat it as a normal run rather than nest it under nothing.
    return allSidechain;
  }

  /** Fills `parentOf`, `children` and `eventsOfRecord` from the records' lists. */
  function indexRecords(): void {
    eventsOfRecord.clear();
    parentOf.clear();
    children.clear();
    for (let i = 0; i < recUuids.length; i++) {
      const uuid = recUuids[i]!;
      const parent = recParents[i];
      if (parent !== undefined) {
        parentOf.set(uuid, parent);
        const kids = children.get(parent);
        if (kids === undefined) children.set(parent, uuid);
        else if (typeof kids !== 'string') kids.push(uuid);
        else children.set(parent, [kids, uuid]);
      }
    }
    // In push order, so record by record: a uuid two records share (a renamed
    // duplicate that was taken) lists both's events.
    for (let k = 0; k < remembered.length; k++) {
      const uuid = recUuids[rememberedBy[k]!]!;
      const e = remembered[k]!;
      const list = eventsOfRecord.get(uuid);
      if (list === undefined) eventsOfRecord.set(uuid, e);
      else if (Array.isArray(list)) list.push(e);
      else eventsOfRecord.set(uuid, [list, e]);
    }
  }

  /** The events record `u` mapped to (none, one, or several: see `eventsOfRecord`). */
  function eventsOf(u: string): readonly Event[] {
    const events = eventsOfRecord.get(u);
    return events === undefined ? [] : Array.isArray(events) ? events : [events];
  }

  /**
   * Visits every record on the branches from `roots` once (depth first),
   * until `visit` returns true; says whether it did.
   */
  function someOnBranch(roots: readonly string[], visit: (u: string) => boolean): boolean {
    const stack = [...roots];
    const seen = new Set<string>();
    while (stack.length) {
      const u = stack.pop()!;
      if (seen.has(u)) continue;
      seen.add(u);
      if (visit(u)) return true;
      const kids = children.get(u);
      if (typeof kids === 'string') stack.push(kids);
      else if (kids) for (const kid of kids) stack.push(kid);
    }
    return false;
  }

  /**
   * Whether the branch from `root` holds a record that mapped to more than an
   * `info` event (a prompt, a response, a tool result, a compaction). Only
   * such a branch was rewound: side records hanging off the chain (`progress`
   * of a running tool or hook, attachments) fork it without anyone going back.
   */
  function holdsConversation(root: string): boolean {
    return someOnBranch([root], (u) => eventsOf(u).some((e) => e.event !== 'info'));
  }

  /** Marks every record on a branch abandoned at a fork (a rewind). */
  function markRewound(): void {
    if (!lastUuid || forks === 0) return; // no fork, no rewind: no walk of the chain
    indexRecords();
    const active = new Set<string>();
    for (let u: string | undefined = lastUuid; u && !active.has(u); u = parentOf.get(u))
      active.add(u);
    const roots: string[] = [];
    for (const [parent, kids] of children) {
      if (typeof kids === 'string' || !active.has(parent)) continue;
      for (const kid of kids) if (!active.has(kid) && holdsConversation(kid)) roots.push(kid);
    }
    someOnBranch(roots, (u) => {
      for (const e of eventsOf(u)) {
        const draft = sink.revise(e);
        const cc = isRecord(draft.metadata?.['claude_code'])
          ? (draft.metadata['claude_code'] as JsonObject)
          : {};
        draft.metadata = { ...(draft.metadata ?? {}), claude_code: { ...cc, branch: 'rewound' } };
        sink.touch(draft);
      }
      return false;
    });
  }
}

/**
 * Whether `Date.parse` surely reads `s`, given `ms = timestampMs(s)`: it is in
 * the date-time string format ECMAScript requires every engine to read
 * (`YYYY-MM-DDTHH:mm:ss.sssZ`, or without the fraction) and names a real
 * moment. What this leaves out goes to `Date.parse` itself, which reads more
 * (other forms, engine-specific): the slow path, for the odd record.
 */
function isDateTimeString(s: string, ms: number): boolean {
  const len = s.length;
  if (len !== 24 && len !== 20) return false;
  if (!Number.isFinite(ms)) return false;
  if (s.charCodeAt(10) !== 84 /* T */ || s.charCodeAt(16) !== 58 /* : */) return false;
  if (s.charCodeAt(17) > 53 /* seconds below 60: no leap second */) return false;
  if (s.charCodeAt(len - 1) !== 90 /* Z */) return false;
  if (len === 20) return true;
  return s.charCodeAt(19) === 46 /* . */ && isDigit(s, 20) && isDigit(s, 21) && isDigit(s, 22);
}

function isDigit(s: string, at: number): boolean {
  const c = s.charCodeAt(at);
  return c >= 48 && c <= 57;
}

/**
 * The first record time of a file, so records before it that have none (a
 * leading `file-history-snapshot`) get times just before it, not in 1970.
 */
function firstTime(probe: Probe): string | undefined {
  for (const r of probe.records(64)) {
    if (!isRecord(r) || typeof r['timestamp'] !== 'string') continue;
    const ms = Date.parse(r['timestamp']);
    if (Number.isFinite(ms)) return new Date(ms - 64).toISOString();
  }
  return undefined;
}

/**
 * Claude Code session JSONL (and a sub-agent file opened on its own).
 *
 * @example
 * import { Probe } from '../probe.js';
 * import { claudeCodeFormat } from './claude-code.js';
 * declare const sessionText: string; // ~/.claude/projects/…/<session>.jsonl
 * claudeCodeFormat.detect(new Probe(sessionText)); // true
 */
export const claudeCodeFormat: FormatImporter & {
  incremental(options: ImportOptions): IncrementalImporter;
} = {
  id: 'claude-code',
  name: 'Claude Code session',
  extensions: ['.jsonl'],
  detect(probe) {
    const records = probe.records(8).filter(isRecord);
    return (
      records.length > 0 && records.filter(looksLikeRecord).length >= Math.ceil(records.length / 2)
    );
  },
  import: (probe, options): ImportResult =>
    importLines(claudeCodeFormat, probe, { baseTime: firstTime(probe), ...options }),
  incremental: claudeCodeImporter,
};

/**
 * A cheap check whether an input is a Claude Code session log.
 *
 * @example
 * declare const text: string;
 * isClaudeCode(text); // true for ~/.claude/projects/…/<session>.jsonl
 */
export const isClaudeCode: (input: ImportInput, filename?: string) => boolean =
  sniffer(claudeCodeFormat);

/**
 * Imports a Claude Code session: turns, merged model responses, tool calls
 * paired with their results, sub-agents nested under the call that spawned
 * them. Pass `subagents` (file text by agent id, from
 * `<sessionId>/subagents/agent-<id>.jsonl`) to fold newer versions' sub-agent
 * files in; `readClaudeCodeSession(path)` in `skein/server` reads them for you.
 *
 * @example
 * declare const sessionText: string; // <session>.jsonl
 * declare const agentText: string; // <session>/subagents/agent-a1b2.jsonl
 * const { events } = importClaudeCode(sessionText, { subagents: { a1b2: agentText } });
 */
export function importClaudeCode(
  input: ImportInput,
  options: ImportOptions & { subagents?: Readonly<Record<string, string>> } = {},
): ImportResult {
  const probe = new Probe(input, options.filename);
  if (!options.subagents || Object.keys(options.subagents).length === 0)
    return claudeCodeFormat.import(probe, options) as ImportResult;
  // Sub-agent files hold sidechain records with their agentId: read after the
  // session so each finds the Task call whose result names it.
  const text = probe.text() ?? safeJson(probe.json());
  const parts = [text.trimEnd()];
  for (const [agentId, body] of Object.entries(options.subagents)) {
    for (const line of body.split('\n')) {
      const t = line.trim();
      if (!t) continue;
      try {
        const rec = JSON.parse(t) as unknown;
        if (isRecord(rec))
          parts.push(safeJson({ ...rec, isSidechain: true, agentId: rec['agentId'] ?? agentId }));
        else parts.push(t);
      } catch {
        parts.push(t);
      }
    }
  }
  return claudeCodeFormat.import(
    new Probe(parts.join('\n'), options.filename),
    options,
  ) as ImportResult;
}
