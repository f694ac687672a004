/**
 * A deterministic generator of realistic inspect_ai runs, for the demo,
 * stories, tests and benchmarks.
 *
 * Shapes follow what inspect writes (inspect_ai's `event/` models and `span()`, checked
 * against the ais-decoder and browser logs in ../shared/fixtures):
 * - phases: `init` (with `sample_init`), `solvers` → a `solver` span → the
 *   main `agent` span, then `scorers` → `scorer` (a grader model call, `score`);
 * - every span event has `span_id === id`; parents are `parent_id` only;
 * - a `tool` event sits outside its own tool span: its `span_id` is the
 *   enclosing agent's, it is stamped slightly before the tool span begins and
 *   listed right after it; the tool span holds what the tool did (sandbox
 *   events, a sub-agent's `agent` span);
 * - sub-agents are tools (`as_tool`): `ToolEvent.agent` and `agent_span_id`
 *   link the call to the agent span; parallel calls run concurrently, so their
 *   events interleave in file order by time and their spans overlap;
 * - branches are `timeline_branch()`'s shape: an `anchor` in the
 *   current span, a `branch`-typed span whose first event is `branch`;
 * - a model call that fails carries `error`, `traceback` and `traceback_ansi`
 *   and is followed by its retry; a crashed sub-agent ends with an `error`
 *   event and its tool call fails;
 * - pending events (re-sent until complete): the same `uuid` first with `pending: true` at the
 *   start of the call, then final when it completes. Without pending copies
 *   (`pendingRate: 0`) the output is a finished log.
 *
 * Time comes from a fixed start (`startTime`) plus seeded latencies, never
 * from the clock, so the same options always give the same events.
 */
import { SkeinError } from '../errors.js';
import { stampEventTime } from '../events/event-time.js';
import { timestampMs } from '../events/timestamp.js';
import type { ChatMessageUser, Event, ModelUsage, ScoreEvent } from '../events/types.js';
import * as corpus from './corpus.js';
import { AgentGenerator } from './run-agents.js';
import {
  type AgentPlan,
  GRADER_CONFIG,
  type GroupPlan,
  type Lane,
  MIN_OWN,
  NO_TOOLS,
  type Settings,
  Sink,
  groupOverhead,
} from './run-parts.js';

/**
 * Options of {@link generateRun}. Every option has a default; the same options
 * always produce the same events.
 *
 * @example
 * const options: GenerateRunOptions = { seed: 7, events: 10_000, agents: 12, depth: 3, parallelism: 4 };
 */
export interface GenerateRunOptions {
  /** PRNG seed (any finite number). Default `1`. */
  seed?: number;
  /**
   * Exactly how many events to produce, at least 10. Default `200`. Tested up
   * to 1,000,000.
   */
  events?: number;
  /**
   * Sub-agents to spawn besides the main agent. Default grows with `events`
   * (about `√events / 4`, at least 2). Small runs hold fewer when the budget
   * is too small for all of them (each needs a few dozen events).
   */
  agents?: number;
  /** Deepest sub-agent nesting (the main agent is depth 0). Default `2`; `0` disables sub-agents. */
  depth?: number;
  /** Most sub-agents launched together by one model turn (parallel tool calls). Default `3`. */
  parallelism?: number;
  /**
   * Probability that a model call or tool call fails, and that a sub-agent
   * crashes (0–1). Default `0.05`. Runs of 150+ events with a positive rate
   * include at least one of each failure.
   */
  errorRate?: number;
  /**
   * Probability that a model or tool call is streamed: emitted first with
   * `pending: true`, then again, final, under the same `uuid` (0–1). Default
   * `0.1`. `0` gives the shape of a finished log.
   */
  pendingRate?: number;
  /** Messages in a conversation before it is compacted (a `compaction` event). Default `24`. */
  compactAfter?: number;
  /** ISO 8601 time of the first event. Default `2026-06-10T18:23:50Z`. */
  startTime?: string;
  /** Model of the main agent, as inspect names it. Default `anthropic/claude-sonnet-4-5`. */
  model?: string;
  /**
   * Cut the run at `events` as a live view sees it mid-run: open spans and
   * pending events whose final version has not arrived yet. Default `false`.
   */
  inProgress?: boolean;
}

/**
 * Generates a realistic inspect_ai run of exactly `options.events` canonical
 * events (default 200): phases, nested and parallel agents, model calls with
 * markdown, reasoning, tool calls and usage, tool spans with sandbox events,
 * failures with ANSI tracebacks, compaction, branches, info and logger events,
 * scores, and pending events re-emitted under the same uuid.
 *
 * Deterministic: the same options give identical events. The events are not
 * frozen, but they share immutable (frozen) sub-objects — tool lists, configs,
 * system prompts, message texts — as a real parsed log shares pooled messages;
 * treat them as read-only. 1M events take a few seconds.
 *
 * @example
 * const stream = EventStream.from(generateRun({ seed: 42, events: 5_000, agents: 6, parallelism: 3 }));
 */
export function generateRun(options: GenerateRunOptions = {}): Event[] {
  const settings = resolveOptions(options);
  if (options.inProgress === true) {
    // A live view mid-run is a prefix of a longer run: generate a run that
    // continues past the cut (same seed), then cut it.
    const longer = new RunGenerator({
      ...settings,
      events: Math.ceil(settings.events * 1.25) + 20,
    }).run();
    longer.length = settings.events;
    return stampTimes(longer);
  }
  return stampTimes(new RunGenerator(settings).run());
}

/**
 * Stamps each event's epoch-ms start time the way `parseEvent` does, so
 * `eventTime` on generated events is a property load rather than a WeakMap
 * lookup (every builder and bench reads it once per event or more).
 */
function stampTimes(events: Event[]): Event[] {
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    stampEventTime(e, timestampMs(e.timestamp));
  }
  return events;
}

function resolveOptions(options: GenerateRunOptions): Settings {
  const events = options.events ?? 200;
  if (!Number.isSafeInteger(events) || events < 10) {
    throw new SkeinError(
      'invalid_argument',
      'generateRun',
      'events',
      'an integer of at least 10',
      String(events),
    );
  }
  const seed = options.seed ?? 1;
  if (!Number.isFinite(seed))
    throw new SkeinError(
      'invalid_argument',
      'generateRun',
      'seed',
      'a finite number',
      String(seed),
    );
  const start = Date.parse(options.startTime ?? '2026-06-10T18:23:50Z');
  if (Number.isNaN(start)) {
    throw new SkeinError(
      'invalid_argument',
      'generateRun',
      'startTime',
      'an ISO 8601 time',
      JSON.stringify(options.startTime),
    );
  }
  const model = options.model ?? 'anthropic/claude-sonnet-4-5';
  const slash = model.indexOf('/');
  const bare = slash === -1 ? model : model.slice(slash + 1);
  return {
    seed,
    events,
    agents: Math.max(
      0,
      Math.floor(options.agents ?? Math.max(2, Math.round(Math.sqrt(events) / 4))),
    ),
    depth: Math.max(0, Math.floor(options.depth ?? 2)),
    parallelism: Math.min(64, Math.max(1, Math.floor(options.parallelism ?? 3))),
    errorRate: clamp01(options.errorRate ?? 0.05),
    pendingRate: clamp01(options.pendingRate ?? 0.1),
    compactAfter: Math.max(6, Math.floor(options.compactAfter ?? 24)),
    startUs: start * 1000,
    model,
    // Providers answer with a dated model id (ais-decoder: gpt-5.4 → gpt-5.4-2026-03-05).
    outputModel: bare.startsWith('claude') ? `${bare}-20250929` : `${bare}-2026-03-05`,
  };
}

function clamp01(x: number): number {
  return Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0;
}

class RunGenerator extends AgentGenerator {
  run(): Event[] {
    const s = this.s;
    const lane: Lane = { sink: new Sink(), t: s.startUs };
    const n = s.events;
    const scorers = n >= 60 ? 6 : 5;
    const extras = n >= 60 ? 2 : 0;
    const rest = n - 3 - 2 - scorers - extras;

    this.init(lane);
    const solversId = this.id();
    this.spanBegin(lane, solversId, null, 'solvers', 'solvers');
    if (rest >= MIN_OWN + 2) {
      const solverId = this.id();
      this.spanBegin(lane, solverId, solversId, 'react', 'solver');
      const main = this.plan(rest - 2);
      if (main.total >= 150) {
        for (const f of ['branch', 'compaction', 'info', 'logger']) this.owed.add(f);
        if (s.errorRate > 0) this.owed.add('model_error').add('tool_error');
        if (s.pendingRate > 0) this.owed.add('pending_model').add('pending_tool');
      }
      const answer = this.runAgent(lane, main, solverId, this.id(), this.task.input);
      if (extras > 0) this.stateAfter(lane, solverId, answer);
      this.spanEnd(lane, solverId);
      if (extras > 0) this.store(lane, solversId, '/completed', true);
    } else {
      for (let i = 0; i < rest; i++) this.store(lane, solversId, `/setup/${i}`, i);
      for (let i = 0; i < extras; i++) this.store(lane, solversId, `/completed/${i}`, true);
    }
    this.spanEnd(lane, solversId);
    this.scorers(lane, scorers === 6);
    return lane.sink.events;
  }

  // --- planning -------------------------------------------------------------

  /** Lays out the agent tree for a main agent of `total` events and splits the budget. */
  protected plan(total: number): AgentPlan {
    const s = this.s;
    const rng = this.rng;
    const main: AgentPlan = {
      name: 'react',
      depth: 0,
      groups: [],
      own: 0,
      total,
      crashes: false,
      weight: 2,
    };
    const all: AgentPlan[] = [main];
    // Each sub-agent needs room for its own turns plus its launch overhead.
    const count = s.depth === 0 ? 0 : Math.min(s.agents, Math.floor(total / 30));
    for (let i = 0; i < count; i++) {
      let parent = rng.pick(all);
      for (let tries = 0; parent.depth >= s.depth && tries < 8; tries++) parent = rng.pick(all);
      if (parent.depth >= s.depth) parent = main;
      const last = parent.groups[parent.groups.length - 1];
      const joinLast = last !== undefined && last.agents.length < s.parallelism && rng.chance(0.6);
      const group: GroupPlan = joinLast
        ? last
        : { agents: [], modelPending: rng.chance(s.pendingRate), toolPending: [] };
      if (!joinLast) parent.groups.push(group);
      // Parallel agents are often the same agent fanned out (three explorers),
      // which is what makes swimlanes show numbered lanes.
      const first = group.agents[0];
      const name =
        first !== undefined && rng.chance(0.5) ? first.name : rng.pick(corpus.AGENT_NAMES);
      const agent: AgentPlan = {
        name,
        depth: parent.depth + 1,
        groups: [],
        own: 0,
        total: 0,
        crashes: rng.chance(s.errorRate),
        weight: 0.4 + rng.next() * 1.2,
      };
      group.agents.push(agent);
      group.toolPending.push(rng.chance(s.pendingRate));
      all.push(agent);
    }
    // A run with failures shows a crashed sub-agent at least once.
    if (s.errorRate > 0 && count > 0 && total >= 150 && !all.some((a) => a.crashes))
      all[all.length - 1]!.crashes = true;

    // Fixed costs first (minimum own + launch overheads), then the rest by weight.
    let fixed = 0;
    let weights = 0;
    for (const a of all) {
      a.own = MIN_OWN;
      for (const g of a.groups) a.own += groupOverhead(g);
      fixed += a.own;
      weights += a.weight;
    }
    const spread = total - fixed;
    let given = 0;
    for (const a of all) {
      const share = Math.floor((spread * a.weight) / weights);
      a.own += share;
      given += share;
    }
    main.own += spread - given;
    const sum = (a: AgentPlan): number => {
      let t = a.own;
      for (const g of a.groups) for (const c of g.agents) t += sum(c);
      a.total = t;
      return t;
    };
    sum(main);
    return main;
  }

  // --- phases -----------------------------------------------------------------

  protected init(lane: Lane): void {
    const id = this.id();
    this.spanBegin(lane, id, null, 'init', 'init');
    lane.t += this.rng.range(200, 2000);
    const message: ChatMessageUser = {
      id: this.id(),
      content: this.task.input,
      source: 'input',
      role: 'user',
    };
    lane.sink.push(
      {
        uuid: this.id(),
        span_id: id,
        timestamp: this.clock.iso(lane.t),
        working_start: this.working(lane.t),
        event: 'sample_init',
        sample: { input: this.task.input, target: this.task.target, id: 1 },
        state: {
          messages: [message],
          tools: [],
          tool_choice: null,
          store: {},
          output: { model: this.s.model, choices: [], completion: '' },
          completed: false,
          metadata: {},
        },
      },
      lane.t,
    );
    lane.t += this.rng.range(300_000, 2_000_000);
    this.spanEnd(lane, id);
  }

  protected scorers(lane: Lane, withGrader: boolean): void {
    const scorersId = this.id();
    this.spanBegin(lane, scorersId, null, 'scorers', 'scorers');
    const scorerId = this.id();
    this.spanBegin(lane, scorerId, scorersId, 'model_graded_qa', 'scorer');
    const correct = this.rng.chance(0.6);
    const explanation = corpus.SCORE_EXPLANATIONS[correct ? 0 : 1]!;
    let usage: ModelUsage | undefined;
    if (withGrader) {
      const prompt: ChatMessageUser = {
        id: this.id(),
        content: `You are assessing a submitted answer on a given task.\n\n[Task]: ${this.task.input}\n\n[Criterion]: ${this.task.target}\n\nReply with GRADE: C or GRADE: I.`,
        role: 'user',
      };
      const event = this.model(lane, scorerId, [prompt], NO_TOOLS, GRADER_CONFIG, {
        parts: [{ type: 'text', text: explanation }],
        toolCalls: null,
        pending: false,
        role: 'grader',
        toolChoice: 'none',
      });
      usage = event.output.usage ?? undefined;
    }
    const score: ScoreEvent = {
      uuid: this.id(),
      span_id: scorerId,
      timestamp: this.clock.iso(lane.t),
      working_start: this.working(lane.t),
      event: 'score',
      score: {
        value: correct ? 'C' : 'I',
        answer: this.task.target,
        explanation,
        metadata: {},
        history: [],
      },
      target: this.task.target,
      intermediate: false,
      scorer: 'model_graded_qa',
      scorer_args: {},
    };
    if (usage !== undefined) score.model_usage = { [this.s.model]: usage };
    lane.sink.push(score, lane.t);
    lane.t += this.rng.range(200, 1500);
    this.spanEnd(lane, scorerId);
    this.spanEnd(lane, scorersId);
  }
}
