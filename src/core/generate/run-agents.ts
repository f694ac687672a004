// Past 600 lines: one class, AgentGenerator, whose turns, tool calls and sub-agent launches spend one event budget from one seeded stream.
// The run generator's agents: each agent's span, turns, tool calls, failures,
// compaction, branches and sub-agent launches.

import { deepFreeze } from '../events/freeze.js';
import type {
  ChatMessageSystem,
  ChatMessageTool,
  ChatMessageUser,
  CompactionEvent,
  ErrorEvent,
  ModelEvent,
  ToolCall,
  ToolEvent,
  ToolInfo,
} from '../events/types.js';
import * as corpus from './corpus.js';
import { RunEmitter } from './run-emitter.js';
import {
  AGENT_ARGS,
  type AgentPlan,
  type AgentState,
  BASE_TOOLS,
  BASH_CALLS,
  BASH_VIEW,
  COMPACTION_SUMMARIES,
  EDITOR_FILES,
  ERRORS_BY_TOOL,
  FINAL_ONLY,
  type GroupPlan,
  type Lane,
  MAIN_CONFIG,
  PYTHON_CALLS,
  PYTHON_VIEW,
  type PlannedCall,
  REASONED,
  SEARCH_ARGS,
  SUB_CONFIG,
  Sink,
  TEXT_ONLY,
  THINK_ARGS,
  TOOL_KINDS,
  type ToolKind,
  WHICH_BASH,
  assertSpent,
  groupOverhead,
  hash,
  mergeLanes,
} from './run-parts.js';

/** The agents of a run: their spans, turns, tool calls and sub-agent launches. */
export class AgentGenerator extends RunEmitter {
  // --- agents -----------------------------------------------------------------

  /**
   * Runs one agent: its span, its turns, its sub-agent launches. Emits exactly
   * `plan.total` events into `lane`. Returns its final answer (or error text).
   */
  protected runAgent(
    lane: Lane,
    plan: AgentPlan,
    parentId: string,
    spanId: string,
    task: string,
  ): string {
    const rng = this.rng;
    const isMain = plan.depth === 0;
    const tools: ToolInfo[] = [...BASE_TOOLS];
    for (const g of plan.groups) for (const a of g.agents) tools.push(this.agentTool(a.name));
    const system: ChatMessageSystem = {
      id: this.id(),
      content:
        corpus.SYSTEM_PROMPTS[
          isMain ? 0 : 1 + (hash(plan.name) % (corpus.SYSTEM_PROMPTS.length - 1))
        ]!,
      role: 'system',
    };
    const user: ChatMessageUser = { id: this.id(), content: task, source: 'input', role: 'user' };
    const agent: AgentState = {
      plan,
      spanId,
      tools: deepFreeze(tools),
      conversation: [deepFreeze(system), deepFreeze(user)],
      turns: 0,
      lastAssistantId: user.id!,
      storePath: `/${plan.name}:turn`,
    };

    let remaining = plan.own;
    this.spanBegin(
      lane,
      spanId,
      parentId,
      plan.name,
      'agent',
      isMain ? undefined : corpus.AGENT_DESCRIPTIONS[plan.name],
    );
    remaining--;

    const groups = plan.groups;
    let reserve = 2; // the final answer (or error) and span_end
    for (const g of groups) reserve += groupOverhead(g);
    // Launch points, as fractions of this agent's own work.
    const launchAt = groups.map(() => 0.1 + rng.next() * 0.75).sort((a, b) => a - b);
    let launched = 0;
    const start = remaining;

    for (;;) {
      const free = remaining - reserve;
      const progress = start === 0 ? 1 : 1 - remaining / start;
      const group = groups[launched];
      if (group !== undefined && (progress >= launchAt[launched]! || free < 4)) {
        const cost = groupOverhead(group);
        this.launch(lane, agent, group);
        remaining -= cost;
        reserve -= cost;
        launched++;
        continue;
      }
      if (free <= 0) break;
      remaining -= this.step(lane, agent, free, isMain && this.owed.size > 0 ? progress : -1);
    }

    if (plan.crashes && !isMain) {
      const i = rng.int(corpus.AGENT_ERRORS.length);
      const tb = corpus.AGENT_TRACEBACKS[i]!;
      const error: ErrorEvent = {
        uuid: this.id(),
        span_id: spanId,
        timestamp: this.clock.iso(lane.t),
        working_start: this.working(lane.t),
        event: 'error',
        error: {
          message: corpus.AGENT_ERRORS[i]!,
          traceback: tb.traceback,
          traceback_ansi: tb.traceback_ansi,
        },
      };
      lane.sink.push(error, lane.t);
      lane.t += rng.range(100, 2000);
      remaining--;
      this.spanEnd(lane, spanId);
      remaining--;
      assertSpent(remaining, plan.name);
      return corpus.AGENT_ERRORS[i]!;
    }
    const final = rng.int(corpus.FINAL_ANSWERS.length);
    this.model(
      lane,
      spanId,
      agent.conversation.slice(),
      agent.tools,
      isMain ? MAIN_CONFIG : SUB_CONFIG,
      {
        parts: FINAL_ONLY[final]!,
        toolCalls: null,
        pending: false,
      },
    );
    remaining--;
    this.spanEnd(lane, spanId);
    remaining--;
    assertSpent(remaining, plan.name);
    return corpus.FINAL_ANSWERS[final]!;
  }

  /**
   * One step of an agent's loop that costs at most `free` events (≥ 1).
   * Returns the events it emitted. `progress` ≥ 0 asks the main agent to pay
   * owed features when their time comes.
   */
  protected step(lane: Lane, agent: AgentState, free: number, progress: number): number {
    const s = this.s;
    const rng = this.rng;
    const owed = this.owed;
    if (progress >= 0) {
      if (owed.has('branch') && progress > 0.3 && free >= 9) {
        owed.delete('branch');
        return this.branch(lane, agent);
      }
      if (owed.has('compaction') && progress > 0.5) {
        owed.delete('compaction');
        return this.compaction(lane, agent);
      }
      if (owed.has('info') && progress > 0.15) {
        owed.delete('info');
        return this.info(lane, agent.spanId);
      }
      if (owed.has('logger') && progress > 0.2) {
        owed.delete('logger');
        return this.logger(lane, agent.spanId);
      }
      if (owed.has('model_error') && progress > 0.4) {
        owed.delete('model_error');
        return this.modelFailure(lane, agent);
      }
    }
    // The conversation must not grow without bound (real agents compact too),
    // which also keeps a million-event run's memory linear.
    if (agent.conversation.length >= s.compactAfter) return this.compaction(lane, agent);
    if (free >= 4) {
      const r = rng.next();
      if (r < s.errorRate * 0.5) return this.modelFailure(lane, agent);
      if (r < 0.88) return this.toolTurn(lane, agent, agent.spanId, free, false);
      if (agent.plan.depth === 0 && r < 0.895 && free >= 9) return this.branch(lane, agent);
    }
    const f = rng.int(4);
    if (f === 0) return this.info(lane, agent.spanId);
    if (f === 1) return this.logger(lane, agent.spanId);
    return this.store(lane, agent.spanId, agent.storePath, agent.turns);
  }

  /** A model call with tool calls, then the tool calls, sequentially. Costs ≤ `free` (≥ 4). */
  protected toolTurn(
    lane: Lane,
    agent: AgentState,
    spanId: string,
    free: number,
    inBranch: boolean,
  ): number {
    const s = this.s;
    const rng = this.rng;
    const owed = this.owed;
    let modelPending = !inBranch && (rng.chance(s.pendingRate) || owed.delete('pending_model'));
    let budget = free - (modelPending ? 2 : 1);
    if (budget < 3) {
      modelPending = false;
      budget = free - 1;
    }
    // 1 call usually, 2–3 when the model batches (parallel_tool_calls).
    const wanted = rng.chance(0.8) ? 1 : rng.range(2, 3);
    const calls: { kind: ToolKind; inner: number; pending: boolean; fails: boolean }[] = [];
    for (let i = 0; i < wanted && budget >= 3; i++) {
      const kind = rng.pick(TOOL_KINDS);
      let inner = kind === 'think' ? 0 : kind === 'bash' && rng.chance(0.3) ? 2 : 1;
      let pending = !inBranch && (rng.chance(s.pendingRate) || owed.delete('pending_tool'));
      if (3 + inner + (pending ? 1 : 0) > budget) pending = false;
      inner = Math.min(inner, budget - 3 - (pending ? 1 : 0));
      const fails = rng.chance(s.errorRate) || (!inBranch && owed.delete('tool_error'));
      calls.push({ kind, inner, pending, fails });
      budget -= 3 + inner + (pending ? 1 : 0);
    }
    const toolCalls: ToolCall[] = [];
    const plans: PlannedCall[] = [];
    for (const c of calls) {
      const planned = this.toolCall(c.kind);
      plans.push(planned);
      toolCalls.push(planned.call);
    }
    const parts = rng.chance(0.35) ? rng.pick(REASONED) : rng.pick(TEXT_ONLY);
    this.model(
      lane,
      spanId,
      agent.conversation.slice(),
      agent.tools,
      agent.plan.depth === 0 ? MAIN_CONFIG : SUB_CONFIG,
      {
        parts,
        toolCalls,
        pending: modelPending,
        agent,
      },
    );
    let used = modelPending ? 2 : 1;
    for (let i = 0; i < calls.length; i++) {
      const c = calls[i]!;
      used += this.toolUnit(lane, agent, spanId, plans[i]!, c.inner, c.pending, c.fails);
    }
    agent.turns++;
    return used;
  }

  /** A tool call of `kind` with arguments, the result it will produce and its sandbox actions. */
  protected toolCall(kind: ToolKind): PlannedCall {
    const rng = this.rng;
    const id = this.toolCallId();
    switch (kind) {
      case 'bash': {
        const c = rng.pick(BASH_CALLS);
        return {
          call: { id, function: 'bash', arguments: c.args, type: 'function', view: BASH_VIEW },
          result: c.output,
          sandbox: [
            WHICH_BASH,
            {
              action: 'exec',
              cmd: c.exec,
              input: null,
              output: c.output,
              exit: c.exit,
              file: null,
            },
          ],
        };
      }
      case 'python': {
        const c = rng.pick(PYTHON_CALLS);
        return {
          call: { id, function: 'python', arguments: c.args, type: 'function', view: PYTHON_VIEW },
          result: c.output,
          sandbox: [
            {
              action: 'exec',
              cmd: 'python3 -',
              input: c.code,
              output: c.output,
              exit: c.exit,
              file: null,
            },
          ],
        };
      }
      case 'text_editor': {
        const f = rng.pick(EDITOR_FILES);
        const k = rng.int(corpus.FILE_CONTENTS.length);
        const content = corpus.FILE_CONTENTS[k]!;
        if (rng.chance(0.5)) {
          return {
            call: { id, function: 'text_editor', arguments: f.view, type: 'function' },
            result: content,
            sandbox: [
              {
                action: 'read_file',
                cmd: null,
                input: null,
                output: content,
                exit: null,
                file: f.path,
              },
            ],
          };
        }
        return {
          call: { id, function: 'text_editor', arguments: f.creates[k]!, type: 'function' },
          result: f.created,
          sandbox: [
            {
              action: 'write_file',
              cmd: null,
              input: content,
              output: null,
              exit: null,
              file: f.path,
            },
          ],
        };
      }
      case 'web_search':
        return {
          call: { id, function: 'web_search', arguments: rng.pick(SEARCH_ARGS), type: 'function' },
          result: rng.pick(corpus.SEARCH_RESULTS),
          sandbox: [],
        };
      case 'think':
        return {
          call: { id, function: 'think', arguments: rng.pick(THINK_ARGS), type: 'function' },
          result: '',
          sandbox: [],
        };
    }
  }

  /**
   * A tool span with its ToolEvent (outside the span) and `inner`
   * events inside (sandbox actions; a logger line for web search). Returns
   * the events emitted: 3 + inner, + 1 when pending.
   */
  protected toolUnit(
    lane: Lane,
    agent: AgentState,
    spanId: string,
    planned: PlannedCall,
    inner: number,
    pending: boolean,
    fails: boolean,
  ): number {
    const rng = this.rng;
    const call = planned.call;
    const toolSpanId = this.id();
    const created = lane.t;
    lane.t += rng.range(300, 1500);
    this.spanBegin(lane, toolSpanId, spanId, call.function, 'tool');
    const error = fails
      ? corpus.TOOL_ERRORS[rng.pick(ERRORS_BY_TOOL[call.function] ?? [0, 3])]!
      : null;
    const messageId = this.id();
    const event: ToolEvent = {
      uuid: this.id(),
      span_id: spanId,
      timestamp: this.clock.iso(created),
      working_start: this.working(created),
      event: 'tool',
      type: 'function',
      id: call.id,
      function: call.function,
      arguments: call.arguments,
      result: error === null ? planned.result : '',
      events: [],
      completed: '',
      working_time: 0,
      message_id: messageId,
    };
    if (error !== null) event.error = { type: error[0], message: error[1] };
    this.emitStart(lane, event, pending);
    for (let i = 0; i < inner; i++) {
      const sb = planned.sandbox[planned.sandbox.length - inner + i];
      if (sb !== undefined) this.sandbox(lane, toolSpanId, sb);
      else this.logger(lane, toolSpanId);
    }
    lane.t += rng.range(2_000, 60_000);
    event.completed = this.clock.iso(lane.t);
    event.working_time = (lane.t - created) / 1e6;
    if (pending) lane.sink.push(event, lane.t);
    lane.t += rng.range(200, 900);
    this.spanEnd(lane, toolSpanId);
    const message: ChatMessageTool = {
      id: messageId,
      content: error === null ? planned.result : error[1],
      role: 'tool',
      tool_call_id: call.id,
      function: call.function,
    };
    if (error !== null) message.error = { type: error[0], message: error[1] };
    agent.conversation.push(message);
    return 3 + inner + (pending ? 1 : 0);
  }

  /**
   * A model turn that launches a group of sub-agents as tool calls. With more
   * than one agent they run concurrently: each in its own lane starting at
   * the same moment, merged into the parent's lane by time.
   */
  protected launch(lane: Lane, agent: AgentState, group: GroupPlan): void {
    const rng = this.rng;
    const calls: ToolCall[] = group.agents.map((a) => ({
      id: this.toolCallId(),
      function: a.name,
      arguments: rng.pick(AGENT_ARGS),
      type: 'function',
    }));
    this.model(
      lane,
      agent.spanId,
      agent.conversation.slice(),
      agent.tools,
      agent.plan.depth === 0 ? MAIN_CONFIG : SUB_CONFIG,
      {
        parts: rng.pick(TEXT_ONLY),
        toolCalls: calls,
        pending: group.modelPending,
        agent,
      },
    );
    const t0 = lane.t;
    const messages: ChatMessageTool[] = [];
    if (group.agents.length === 1) {
      messages.push(
        this.agentUnit(lane, agent, group.agents[0]!, calls[0]!, group.toolPending[0] === true),
      );
    } else {
      const lanes: Lane[] = [];
      for (let i = 0; i < group.agents.length; i++) {
        // asyncio starts them a few ms apart.
        const child: Lane = { sink: new Sink(), t: t0 + i * rng.range(1_000, 40_000) };
        messages.push(
          this.agentUnit(child, agent, group.agents[i]!, calls[i]!, group.toolPending[i] === true),
        );
        lanes.push(child);
      }
      lane.t = mergeLanes(lane.sink, lanes) + rng.range(500, 5_000);
    }
    for (const m of messages) agent.conversation.push(m);
    agent.turns++;
  }

  /** A sub-agent called as a tool: tool span ⊃ ToolEvent (outside) + agent span. */
  protected agentUnit(
    lane: Lane,
    parent: AgentState,
    plan: AgentPlan,
    call: ToolCall,
    pending: boolean,
  ): ChatMessageTool {
    const rng = this.rng;
    const toolSpanId = this.id();
    const agentSpanId = this.id();
    const created = lane.t;
    lane.t += rng.range(300, 1500);
    this.spanBegin(lane, toolSpanId, parent.spanId, call.function, 'tool');
    const messageId = this.id();
    const event: ToolEvent = {
      uuid: this.id(),
      span_id: parent.spanId,
      timestamp: this.clock.iso(created),
      working_start: this.working(created),
      event: 'tool',
      type: 'function',
      id: call.id,
      function: call.function,
      arguments: call.arguments,
      result: '',
      events: [],
      completed: '',
      working_time: 0,
      agent: plan.name,
      agent_span_id: agentSpanId,
      message_id: messageId,
    };
    this.emitStart(lane, event, pending);
    const input = typeof call.arguments['input'] === 'string' ? call.arguments['input'] : '';
    const answer = this.runAgent(lane, plan, toolSpanId, agentSpanId, input);
    if (plan.crashes) event.error = { type: 'unknown', message: answer };
    else event.result = answer;
    lane.t += rng.range(200, 2_000);
    event.completed = this.clock.iso(lane.t);
    event.working_time = (lane.t - created) / 1e6;
    if (pending) lane.sink.push(event, lane.t);
    lane.t += rng.range(100, 600);
    this.spanEnd(lane, toolSpanId);
    const message: ChatMessageTool = {
      id: messageId,
      content: plan.crashes ? '' : answer,
      role: 'tool',
      tool_call_id: call.id,
      function: call.function,
    };
    if (plan.crashes) message.error = { type: 'unknown', message: answer };
    return message;
  }

  /**
   * `timeline_branch()` (inspect_ai's `event/_timeline.py`): an anchor in the current span, a
   * `branch` span starting with a BranchEvent, an alternative tool turn on a
   * copy of the conversation, and the span's end. The main conversation goes
   * on from the anchor as if the branch had not happened.
   */
  protected branch(lane: Lane, agent: AgentState): number {
    const anchorId = agent.lastAssistantId;
    lane.sink.push(
      {
        uuid: this.id(),
        span_id: agent.spanId,
        timestamp: this.clock.iso(lane.t),
        working_start: this.working(lane.t),
        event: 'anchor',
        anchor_id: anchorId,
        source: agent.plan.name,
      },
      lane.t,
    );
    lane.t += this.rng.range(100, 800);
    const branchId = this.id();
    this.spanBegin(lane, branchId, agent.spanId, `alternative ${agent.turns + 1}`, 'branch');
    lane.sink.push(
      {
        uuid: this.id(),
        span_id: branchId,
        timestamp: this.clock.iso(lane.t),
        working_start: this.working(lane.t),
        event: 'branch',
        from_anchor: anchorId,
      },
      lane.t,
    );
    lane.t += this.rng.range(100, 800);
    const fork: AgentState = {
      ...agent,
      conversation: agent.conversation.slice(),
      spanId: branchId,
    };
    const used = this.toolTurn(lane, fork, branchId, 4, true);
    this.spanEnd(lane, branchId);
    return 4 + used;
  }

  /** A failed model call (error + tracebacks), retried by the next turn. */
  protected modelFailure(lane: Lane, agent: AgentState): number {
    const rng = this.rng;
    const i = rng.int(corpus.MODEL_ERRORS.length);
    const tb = corpus.MODEL_TRACEBACKS[i]!;
    const t0 = lane.t;
    lane.t += rng.range(200_000, 30_000_000);
    const event: ModelEvent = {
      uuid: this.id(),
      span_id: agent.spanId,
      timestamp: this.clock.iso(t0),
      working_start: this.working(t0),
      event: 'model',
      model: this.s.model,
      input: agent.conversation.slice(),
      tools: agent.tools,
      tool_choice: 'auto',
      config: agent.plan.depth === 0 ? MAIN_CONFIG : SUB_CONFIG,
      output: this.pendingModelOutput,
      error: corpus.MODEL_ERRORS[i]!,
      traceback: tb.traceback,
      traceback_ansi: tb.traceback_ansi,
      completed: this.clock.iso(lane.t),
      working_time: (lane.t - t0) / 1e6,
    };
    lane.sink.push(event, t0);
    lane.t += rng.range(1_000_000, 4_000_000); // backoff before the retry
    return 1;
  }

  protected compaction(lane: Lane, agent: AgentState): number {
    const rng = this.rng;
    const before = 1_200 + agent.conversation.length * 3_500 + rng.int(5_000);
    const event: CompactionEvent = {
      uuid: this.id(),
      span_id: agent.spanId,
      timestamp: this.clock.iso(lane.t),
      working_start: this.working(lane.t),
      event: 'compaction',
      type: 'summary',
      tokens_before: before,
      tokens_after: 4_000 + rng.int(8_000),
      source: 'inspect',
    };
    lane.sink.push(event, lane.t);
    lane.t += rng.range(2_000_000, 9_000_000);
    const summary: ChatMessageUser = {
      id: this.id(),
      content: rng.pick(COMPACTION_SUMMARIES),
      source: 'generate',
      role: 'user',
    };
    agent.conversation = [agent.conversation[0]!, agent.conversation[1]!, summary];
    return 1;
  }
}
