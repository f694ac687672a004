// The run generator's state and the single events it emits (model calls, tool
// starts, sandbox, info, logger, store and state changes, spans).

import { deepFreeze } from '../events/freeze.js';
import type {
  ChatMessage,
  ChatMessageAssistant,
  Content,
  GenerateConfig,
  InfoEvent,
  LoggerEvent,
  ModelEvent,
  ModelOutput,
  ModelUsage,
  SandboxEvent,
  SpanBeginEvent,
  SpanEndEvent,
  StoreEvent,
  ToolCall,
  ToolEvent,
  ToolInfo,
} from '../events/types.js';
import * as corpus from './corpus.js';
import { Prng } from './prng.js';
import {
  type AgentState,
  EMPTY_OPTIONS,
  ID_CODES,
  IsoClock,
  type Lane,
  SANDBOX_OPTIONS,
  type SandboxPlan,
  type Settings,
  TOOL_ID_CODES,
  fillShortUuid,
  fromCodes,
  tool,
} from './run-parts.js';

/**
 * The generator's state (settings, seeded streams, clock) and the single
 * events it emits; {@link AgentGenerator} and `RunGenerator` build runs of them.
 */
export class RunEmitter {
  protected readonly s: Settings;
  protected readonly rng: Prng;
  /** A separate stream for ids, so an id never shifts a structural decision. */
  protected readonly idRng: Prng;
  protected readonly clock = new IsoClock();
  protected readonly pendingModelOutput: ModelOutput;
  protected readonly agentTools = new Map<string, ToolInfo>();
  /** Features a medium run must show at least once: still owed by the main agent. */
  protected readonly owed = new Set<string>();
  protected task: corpus.TaskText;

  constructor(settings: Settings) {
    this.s = settings;
    this.rng = new Prng(settings.seed);
    this.idRng = new Prng(settings.seed + 0x5bd1e995);
    this.pendingModelOutput = deepFreeze({
      model: settings.outputModel,
      choices: [],
      completion: '',
    });
    this.task = this.rng.pick(corpus.TASKS);
  }

  // --- single events ------------------------------------------------------------

  /**
   * Emits a model event. With `pending`, a pending copy (same uuid, empty
   * output) goes out at the start and the final version at completion;
   * otherwise the final version is listed at its start, as finished logs do.
   */
  protected model(
    lane: Lane,
    spanId: string,
    input: ChatMessage[],
    tools: ToolInfo[],
    config: GenerateConfig,
    o: {
      parts: Content[];
      toolCalls: ToolCall[] | null;
      pending: boolean;
      agent?: AgentState;
      role?: string;
      toolChoice?: 'auto' | 'none';
    },
  ): ModelEvent {
    const rng = this.rng;
    const t0 = lane.t;
    const hasCalls = o.toolCalls !== null && o.toolCalls.length > 0;
    const latency = rng.range(hasCalls ? 1_500_000 : 800_000, hasCalls ? 14_000_000 : 9_000_000);
    lane.t = t0 + latency;
    const text = o.parts[o.parts.length - 1];
    const completion = text !== undefined && text.type === 'text' ? text.text : '';
    const message: ChatMessageAssistant = {
      id: this.id(),
      content: o.parts,
      source: 'generate',
      role: 'assistant',
      model: this.s.outputModel,
    };
    if (hasCalls) message.tool_calls = o.toolCalls;
    const prompt = 900 + input.length * 420 + rng.int(400);
    const cacheRead = input.length > 2 ? Math.floor(prompt * 0.85) : 0;
    const cacheWrite = prompt - cacheRead > 1_024 ? rng.range(200, 1_024) : 0;
    const output = rng.range(30, hasCalls ? 400 : 900);
    const reasoning = o.parts[0]?.type === 'reasoning' ? rng.range(80, 1_200) : 0;
    const usage: ModelUsage = {
      input_tokens: prompt - cacheRead - cacheWrite,
      output_tokens: output + reasoning,
      total_tokens: prompt + output + reasoning,
      input_tokens_cache_write: cacheWrite,
      input_tokens_cache_read: cacheRead,
      reasoning_tokens: reasoning,
    };
    const event: ModelEvent = {
      uuid: this.id(),
      span_id: spanId,
      timestamp: this.clock.iso(t0),
      working_start: this.working(t0),
      event: 'model',
      model: this.s.model,
      input,
      tools,
      tool_choice: o.toolChoice ?? 'auto',
      config,
      output: {
        model: this.s.outputModel,
        choices: [{ message, stop_reason: hasCalls ? 'tool_calls' : 'stop' }],
        completion,
        usage,
        time: latency / 1e6,
      },
      completed: this.clock.iso(lane.t),
      working_time: latency / 1e6,
    };
    if (o.role !== undefined) event.role = o.role;
    if (o.pending) {
      const { completed: _c, working_time: _w, output: _o, ...rest } = event;
      lane.sink.push({ ...rest, pending: true, output: this.pendingModelOutput }, t0);
      lane.sink.push(event, lane.t);
    } else {
      lane.sink.push(event, t0);
    }
    if (o.agent !== undefined) {
      o.agent.conversation.push(message);
      o.agent.lastAssistantId = message.id!;
    }
    return event;
  }

  /** Lists a ToolEvent at the start of its call: a pending copy, or the final object (filled in later). */
  protected emitStart(lane: Lane, event: ToolEvent, pending: boolean): void {
    if (pending) {
      const { completed: _c, working_time: _w, result: _r, error: _e, ...rest } = event;
      lane.sink.push({ ...rest, pending: true, result: '' }, lane.t);
    } else {
      lane.sink.push(event, lane.t);
    }
  }

  protected sandbox(lane: Lane, spanId: string, sb: SandboxPlan): void {
    const t0 = lane.t;
    lane.t += this.rng.range(40_000, 3_000_000);
    const event: SandboxEvent = {
      uuid: this.id(),
      span_id: spanId,
      timestamp: this.clock.iso(t0),
      working_start: this.working(t0),
      event: 'sandbox',
      action: sb.action,
    };
    if (sb.cmd !== null) event.cmd = sb.cmd;
    event.options = sb.action === 'exec' ? SANDBOX_OPTIONS : EMPTY_OPTIONS;
    if (sb.file !== null) event.file = sb.file;
    if (sb.input !== null) event.input = sb.input;
    if (sb.exit !== null) event.result = sb.exit;
    if (sb.output !== null) event.output = sb.output;
    event.completed = this.clock.iso(lane.t);
    lane.sink.push(event, t0);
  }

  protected info(lane: Lane, spanId: string): number {
    const event: InfoEvent = {
      uuid: this.id(),
      span_id: spanId,
      timestamp: this.clock.iso(lane.t),
      working_start: this.working(lane.t),
      event: 'info',
      source: 'agent',
      data: this.rng.pick(corpus.INFO_TEXTS),
    };
    lane.sink.push(event, lane.t);
    lane.t += this.rng.range(100, 3_000);
    return 1;
  }

  protected logger(lane: Lane, spanId: string): number {
    const [name, level, message, filename, module, lineno] = this.rng.pick(corpus.LOG_LINES);
    const event: LoggerEvent = {
      uuid: this.id(),
      span_id: spanId,
      timestamp: this.clock.iso(lane.t),
      working_start: this.working(lane.t),
      event: 'logger',
      message: { name, level, message, created: lane.t / 1000 - 1.3, filename, module, lineno },
    };
    lane.sink.push(event, lane.t);
    lane.t += this.rng.range(100, 3_000);
    return 1;
  }

  protected store(lane: Lane, spanId: string, path: string, value: unknown): number {
    const event: StoreEvent = {
      uuid: this.id(),
      span_id: spanId,
      timestamp: this.clock.iso(lane.t),
      working_start: this.working(lane.t),
      event: 'store',
      changes: [{ op: 'add', path, value }],
    };
    lane.sink.push(event, lane.t);
    lane.t += this.rng.range(100, 2_000);
    return 1;
  }

  protected stateAfter(lane: Lane, spanId: string, answer: string): void {
    lane.sink.push(
      {
        uuid: this.id(),
        span_id: spanId,
        timestamp: this.clock.iso(lane.t),
        working_start: this.working(lane.t),
        event: 'state',
        changes: [
          { op: 'replace', path: '/output/completion', value: answer, replaced: '' },
          {
            op: 'replace',
            path: '/output/model',
            value: this.s.outputModel,
            replaced: this.s.model,
          },
        ],
      },
      lane.t,
    );
    lane.t += this.rng.range(100, 2_000);
  }

  protected spanBegin(
    lane: Lane,
    id: string,
    parentId: string | null,
    name: string,
    type: string,
    description?: string,
  ): void {
    const uuid = this.id();
    const timestamp = this.clock.iso(lane.t);
    const working_start = this.working(lane.t);
    // Two literals rather than a conditional assignment: real logs omit a null
    // parent (exclude_none), and a fixed key order keeps object shapes shared.
    const event: SpanBeginEvent =
      parentId === null
        ? { uuid, span_id: id, timestamp, working_start, event: 'span_begin', id, type, name }
        : {
            uuid,
            span_id: id,
            timestamp,
            working_start,
            event: 'span_begin',
            id,
            parent_id: parentId,
            type,
            name,
          };
    // The timeline takes an agent's description from span_begin metadata.
    if (description !== undefined) event.metadata = { description };
    lane.sink.push(event, lane.t);
    lane.t += this.rng.range(50, 600);
  }

  protected spanEnd(lane: Lane, id: string): void {
    const event: SpanEndEvent = {
      uuid: this.id(),
      span_id: id,
      timestamp: this.clock.iso(lane.t),
      working_start: this.working(lane.t),
      event: 'span_end',
      id,
    };
    lane.sink.push(event, lane.t);
    lane.t += this.rng.range(50, 600);
  }

  protected agentTool(name: string): ToolInfo {
    let info = this.agentTools.get(name);
    if (info === undefined) {
      info = deepFreeze(
        tool(name, corpus.AGENT_DESCRIPTIONS[name] ?? `The ${name} agent.`, {
          input: 'What the agent should do.',
        }),
      );
      this.agentTools.set(name, info);
    }
    return info;
  }

  protected working(us: number): number {
    return (us - this.s.startUs) / 1e6;
  }

  /** A 22-character shortuuid-style id. */
  protected id(): string {
    fillShortUuid(this.idRng, ID_CODES, 0);
    return fromCodes(ID_CODES);
  }

  /** Anthropic-style tool call id (`toolu_01…`). */
  protected toolCallId(): string {
    fillShortUuid(this.idRng, TOOL_ID_CODES, 8);
    return fromCodes(TOOL_ID_CODES);
  }
}
