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
import { deepFreeze } from '../events/freeze.js';
import { stampEventTime } from '../events/event-time.js';
import { timestampMs } from '../events/timestamp.js';
import type {
  ChatMessage,
  ChatMessageAssistant,
  ChatMessageSystem,
  ChatMessageTool,
  ChatMessageUser,
  CompactionEvent,
  Content,
  ErrorEvent,
  Event,
  GenerateConfig,
  InfoEvent,
  LoggerEvent,
  ModelEvent,
  ModelOutput,
  ModelUsage,
  SandboxEvent,
  ScoreEvent,
  SpanBeginEvent,
  SpanEndEvent,
  StoreEvent,
  ToolCall,
  ToolEvent,
  ToolInfo,
} from '../events/types.js';
import * as corpus from './corpus.js';
import { Prng } from './prng.js';

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

/** The options with defaults filled, as the generator uses them. */
interface Settings {
  seed: number;
  events: number;
  agents: number;
  depth: number;
  parallelism: number;
  errorRate: number;
  pendingRate: number;
  compactAfter: number;
  startUs: number;
  model: string;
  outputModel: string;
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

// ---------------------------------------------------------------------------
// ids and times
// ---------------------------------------------------------------------------

// shortuuid's alphabet: inspect's uuids and span ids are 22 characters of it.
const ALPHABET_CODES: readonly number[] = Array.from(
  '23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz',
  (c) => c.charCodeAt(0),
);

// Strings are built from char codes with String.fromCharCode.apply, which
// makes one flat string. Concatenating pieces would make V8 cons-strings, a
// tree of nodes per id: four times the memory at a million events.
const ID_CODES = new Array<number>(22).fill(0);
const TOOL_ID_CODES: number[] = [...'toolu_01']
  .map((c) => c.charCodeAt(0))
  .concat(new Array<number>(22).fill(0));
const ISO_CODES = new Array<number>(32).fill(0);
const ISO_SHORT_CODES = new Array<number>(25).fill(0);

/** Fills `codes[from…from+22)` with a random shortuuid (five base-57 digits per 32-bit draw). */
function fillShortUuid(rng: Prng, codes: number[], from: number): void {
  let k = from;
  for (let lane = 0; lane < 4; lane++) {
    let v = rng.uint32();
    for (let j = 0; j < 5; j++) {
      codes[k++] = ALPHABET_CODES[v % 57]!;
      v = Math.floor(v / 57);
    }
  }
  const v = rng.uint32();
  codes[k++] = ALPHABET_CODES[v % 57]!;
  codes[k] = ALPHABET_CODES[Math.floor(v / 57) % 57]!;
}

function fromCodes(codes: number[]): string {
  return String.fromCharCode.apply(null, codes);
}

/**
 * Formats epoch microseconds the way inspect's writer does: UTC, `+00:00`,
 * microseconds dropped when zero (Python's `isoformat`). The
 * `YYYY-MM-DDTHH:MM:SS` prefix is cached per second: parallel agents move
 * the clock back and forth, so a small map, not a single slot.
 */
class IsoClock {
  readonly #prefixes = new Map<number, number[]>();

  iso(us: number): string {
    const sec = Math.floor(us / 1_000_000);
    let prefix = this.#prefixes.get(sec);
    if (prefix === undefined) {
      if (this.#prefixes.size > 4096) this.#prefixes.clear();
      const text = new Date(sec * 1000).toISOString();
      prefix = [];
      for (let i = 0; i < 19; i++) prefix.push(text.charCodeAt(i));
      this.#prefixes.set(sec, prefix);
    }
    let micro = us - sec * 1_000_000;
    const codes = micro === 0 ? ISO_SHORT_CODES : ISO_CODES;
    for (let i = 0; i < 19; i++) codes[i] = prefix[i]!;
    let k = 19;
    if (micro !== 0) {
      codes[k] = 46; // '.'
      for (let i = 25; i >= 20; i--) {
        codes[i] = 48 + (micro % 10);
        micro = Math.floor(micro / 10);
      }
      k = 26;
    }
    codes[k++] = 43; // '+'
    codes[k++] = 48;
    codes[k++] = 48;
    codes[k++] = 58; // ':'
    codes[k++] = 48;
    codes[k] = 48;
    return fromCodes(codes);
  }
}

// ---------------------------------------------------------------------------
// plan: the agent tree and its event budgets
// ---------------------------------------------------------------------------

interface AgentPlan {
  name: string;
  depth: number;
  /** Sub-agents, in launch groups: the agents of one group run in parallel. */
  groups: GroupPlan[];
  /** Events this agent emits itself (its spans, turns, the overhead of launching its groups). */
  own: number;
  /** `own` plus every descendant's events. */
  total: number;
  /** Whether it crashes (ends with an `error` event instead of an answer). */
  crashes: boolean;
  /** Relative size among siblings. */
  weight: number;
}

interface GroupPlan {
  agents: AgentPlan[];
  /** Whether the launching model call is streamed (pending copy first). */
  modelPending: boolean;
  /** Per agent: whether its tool call is streamed. */
  toolPending: boolean[];
}

/** Events a group costs its parent: the launching model call plus, per agent, tool span begin/end and the ToolEvent. */
function groupOverhead(group: GroupPlan): number {
  let n = group.modelPending ? 2 : 1;
  for (let i = 0; i < group.agents.length; i++) n += group.toolPending[i] === true ? 4 : 3;
  return n;
}

/** The smallest `own` an agent can have: span begin, final answer, span end. */
const MIN_OWN = 3;

// ---------------------------------------------------------------------------
// the generator
// ---------------------------------------------------------------------------

/** Where events go: a list plus each event's emission time (µs), for merging parallel lanes. */
class Sink {
  readonly events: Event[] = [];
  readonly at: number[] = [];

  push(event: Event, us: number): void {
    this.events.push(event);
    this.at.push(us);
  }
}

/** One thread of execution: where its events go and its own clock. */
interface Lane {
  sink: Sink;
  /** Current time, epoch µs. */
  t: number;
}

/** A running agent's state. */
interface AgentState {
  plan: AgentPlan;
  spanId: string;
  tools: ToolInfo[];
  conversation: ChatMessage[];
  turns: number;
  lastAssistantId: string;
  /** Store key this agent writes its turn count to. */
  storePath: string;
}

const BASH_VIEW = deepFreeze({
  title: 'bash',
  format: 'markdown' as const,
  content: '```bash\n{{cmd}}\n```\n',
});
const PYTHON_VIEW = deepFreeze({
  title: 'python',
  format: 'markdown' as const,
  content: '```python\n{{code}}\n```\n',
});

const BASE_TOOLS: readonly ToolInfo[] = deepFreeze([
  tool('bash', 'Use this function to execute bash commands.', {
    cmd: 'The bash command to execute.',
  }),
  tool('python', 'Use the python function to execute Python code. Print what you want to see.', {
    code: 'The python code to execute.',
  }),
  tool('text_editor', 'View, create and edit files.', {
    command: 'One of `view`, `create`, `str_replace`.',
    path: 'Absolute path to the file.',
  }),
  tool('web_search', 'Search the web and return the top results.', { query: 'The search query.' }),
  tool(
    'think',
    'Think about something without acting. Use it to plan or to reason about results.',
    {
      thought: 'A thought to think about.',
    },
  ),
]);

function tool(name: string, description: string, params: Record<string, string>): ToolInfo {
  const properties: Record<string, unknown> = {};
  for (const key in params) properties[key] = { type: 'string', description: params[key] };
  return {
    name,
    description,
    parameters: {
      type: 'object',
      properties,
      required: Object.keys(params),
      additionalProperties: false,
    },
  };
}

const TEXT_PARTS = deepFreeze(
  corpus.ASSISTANT_TEXTS.map((text): Content => ({ type: 'text', text })),
);
const FINAL_PARTS = deepFreeze(
  corpus.FINAL_ANSWERS.map((text): Content => ({ type: 'text', text })),
);
const REASONING_PARTS = deepFreeze(
  corpus.REASONING_TEXTS.map((reasoning, i): Content => ({
    type: 'reasoning',
    reasoning,
    signature: `EqQBCkYIBxgCKkC${i}sig`,
    redacted: false,
  })),
);
const SANDBOX_OPTIONS = deepFreeze({ timeout: 180 });
const WHICH_BASH: SandboxPlan = deepFreeze({
  action: 'exec',
  cmd: 'which bash',
  input: null,
  output: '/usr/bin/bash\n',
  exit: 0,
  file: null,
});
const EMPTY_OPTIONS = deepFreeze({});
const MAIN_CONFIG: GenerateConfig = deepFreeze({ max_tokens: 16384, parallel_tool_calls: true });
const SUB_CONFIG: GenerateConfig = deepFreeze({ max_tokens: 8192 });
const GRADER_CONFIG: GenerateConfig = deepFreeze({});
const NO_TOOLS: ToolInfo[] = deepFreeze([]);

// Arguments and the sandbox command line of each corpus entry, built once and
// frozen: calls of the same command share them, as immutable data may.
const BASH_CALLS = corpus.COMMANDS.map((c) =>
  deepFreeze({
    args: { cmd: c.cmd },
    exec: `bash --login -c '${c.cmd}'`,
    output: c.output,
    exit: c.exit,
  }),
);
const PYTHON_CALLS = corpus.PYTHON_SNIPPETS.map((c) =>
  deepFreeze({ args: { code: c.cmd }, code: c.cmd, output: c.output, exit: c.exit }),
);
const EDITOR_FILES = corpus.FILE_PATHS.map((p) => {
  const path = `/root/${p}`;
  return deepFreeze({
    path,
    view: { command: 'view', path },
    creates: corpus.FILE_CONTENTS.map((file_text) => ({ command: 'create', path, file_text })),
    created: `File created successfully at: ${path}`,
  });
});
const SEARCH_ARGS = deepFreeze(corpus.SEARCH_QUERIES.map((query) => ({ query })));
const THINK_ARGS = deepFreeze(corpus.THOUGHTS.map((thought) => ({ thought })));
const AGENT_ARGS = deepFreeze(
  corpus.THOUGHTS.map((t) => ({ input: `${t} Report back with what you find.` })),
);
const COMPACTION_SUMMARIES = corpus.ASSISTANT_TEXTS.map((t) => `Summary of the work so far: ${t}`);
/** Assistant content: every text alone and after every reasoning part, shared. */
const TEXT_ONLY: Content[][] = TEXT_PARTS.map((p) => deepFreeze([p]));
const REASONED: Content[][] = REASONING_PARTS.flatMap((r) =>
  TEXT_PARTS.map((p) => deepFreeze([r, p])),
);
const FINAL_ONLY: Content[][] = FINAL_PARTS.map((p) => deepFreeze([p]));

/** Which {@link corpus.TOOL_ERRORS} fit which tool (a search cannot hit a missing file). */
const ERRORS_BY_TOOL: Readonly<Record<string, readonly number[]>> = {
  bash: [0, 2, 3],
  python: [0, 3],
  text_editor: [1, 2, 3],
  web_search: [0, 3],
  think: [3],
};

type ToolKind = 'bash' | 'python' | 'text_editor' | 'web_search' | 'think';
const TOOL_KINDS: readonly ToolKind[] = [
  'bash',
  'bash',
  'bash',
  'python',
  'text_editor',
  'text_editor',
  'web_search',
  'think',
];

class RunGenerator {
  readonly #s: Settings;
  readonly #rng: Prng;
  /** A separate stream for ids, so an id never shifts a structural decision. */
  readonly #idRng: Prng;
  readonly #clock = new IsoClock();
  readonly #pendingModelOutput: ModelOutput;
  readonly #agentTools = new Map<string, ToolInfo>();
  /** Features a medium run must show at least once: still owed by the main agent. */
  readonly #owed = new Set<string>();
  #task: corpus.TaskText;

  constructor(settings: Settings) {
    this.#s = settings;
    this.#rng = new Prng(settings.seed);
    this.#idRng = new Prng(settings.seed + 0x5bd1e995);
    this.#pendingModelOutput = deepFreeze({
      model: settings.outputModel,
      choices: [],
      completion: '',
    });
    this.#task = this.#rng.pick(corpus.TASKS);
  }

  run(): Event[] {
    const s = this.#s;
    const lane: Lane = { sink: new Sink(), t: s.startUs };
    const n = s.events;
    const scorers = n >= 60 ? 6 : 5;
    const extras = n >= 60 ? 2 : 0;
    const rest = n - 3 - 2 - scorers - extras;

    this.#init(lane);
    const solversId = this.#id();
    this.#spanBegin(lane, solversId, null, 'solvers', 'solvers');
    if (rest >= MIN_OWN + 2) {
      const solverId = this.#id();
      this.#spanBegin(lane, solverId, solversId, 'react', 'solver');
      const main = this.#plan(rest - 2);
      if (main.total >= 150) {
        for (const f of ['branch', 'compaction', 'info', 'logger']) this.#owed.add(f);
        if (s.errorRate > 0) this.#owed.add('model_error').add('tool_error');
        if (s.pendingRate > 0) this.#owed.add('pending_model').add('pending_tool');
      }
      const answer = this.#runAgent(lane, main, solverId, this.#id(), this.#task.input);
      if (extras > 0) this.#stateAfter(lane, solverId, answer);
      this.#spanEnd(lane, solverId);
      if (extras > 0) this.#store(lane, solversId, '/completed', true);
    } else {
      for (let i = 0; i < rest; i++) this.#store(lane, solversId, `/setup/${i}`, i);
      for (let i = 0; i < extras; i++) this.#store(lane, solversId, `/completed/${i}`, true);
    }
    this.#spanEnd(lane, solversId);
    this.#scorers(lane, scorers === 6);
    return lane.sink.events;
  }

  // --- planning -------------------------------------------------------------

  /** Lays out the agent tree for a main agent of `total` events and splits the budget. */
  #plan(total: number): AgentPlan {
    const s = this.#s;
    const rng = this.#rng;
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

  #init(lane: Lane): void {
    const id = this.#id();
    this.#spanBegin(lane, id, null, 'init', 'init');
    lane.t += this.#rng.range(200, 2000);
    const message: ChatMessageUser = {
      id: this.#id(),
      content: this.#task.input,
      source: 'input',
      role: 'user',
    };
    lane.sink.push(
      {
        uuid: this.#id(),
        span_id: id,
        timestamp: this.#clock.iso(lane.t),
        working_start: this.#working(lane.t),
        event: 'sample_init',
        sample: { input: this.#task.input, target: this.#task.target, id: 1 },
        state: {
          messages: [message],
          tools: [],
          tool_choice: null,
          store: {},
          output: { model: this.#s.model, choices: [], completion: '' },
          completed: false,
          metadata: {},
        },
      },
      lane.t,
    );
    lane.t += this.#rng.range(300_000, 2_000_000);
    this.#spanEnd(lane, id);
  }

  #scorers(lane: Lane, withGrader: boolean): void {
    const scorersId = this.#id();
    this.#spanBegin(lane, scorersId, null, 'scorers', 'scorers');
    const scorerId = this.#id();
    this.#spanBegin(lane, scorerId, scorersId, 'model_graded_qa', 'scorer');
    const correct = this.#rng.chance(0.6);
    const explanation = corpus.SCORE_EXPLANATIONS[correct ? 0 : 1]!;
    let usage: ModelUsage | undefined;
    if (withGrader) {
      const prompt: ChatMessageUser = {
        id: this.#id(),
        content: `You are assessing a submitted answer on a given task.\n\n[Task]: ${this.#task.input}\n\n[Criterion]: ${this.#task.target}\n\nReply with GRADE: C or GRADE: I.`,
        role: 'user',
      };
      const event = this.#model(lane, scorerId, [prompt], NO_TOOLS, GRADER_CONFIG, {
        parts: [{ type: 'text', text: explanation }],
        toolCalls: null,
        pending: false,
        role: 'grader',
        toolChoice: 'none',
      });
      usage = event.output.usage ?? undefined;
    }
    const score: ScoreEvent = {
      uuid: this.#id(),
      span_id: scorerId,
      timestamp: this.#clock.iso(lane.t),
      working_start: this.#working(lane.t),
      event: 'score',
      score: {
        value: correct ? 'C' : 'I',
        answer: this.#task.target,
        explanation,
        metadata: {},
        history: [],
      },
      target: this.#task.target,
      intermediate: false,
      scorer: 'model_graded_qa',
      scorer_args: {},
    };
    if (usage !== undefined) score.model_usage = { [this.#s.model]: usage };
    lane.sink.push(score, lane.t);
    lane.t += this.#rng.range(200, 1500);
    this.#spanEnd(lane, scorerId);
    this.#spanEnd(lane, scorersId);
  }

  // --- agents -----------------------------------------------------------------

  /**
   * Runs one agent: its span, its turns, its sub-agent launches. Emits exactly
   * `plan.total` events into `lane`. Returns its final answer (or error text).
   */
  #runAgent(lane: Lane, plan: AgentPlan, parentId: string, spanId: string, task: string): string {
    const rng = this.#rng;
    const isMain = plan.depth === 0;
    const tools: ToolInfo[] = [...BASE_TOOLS];
    for (const g of plan.groups) for (const a of g.agents) tools.push(this.#agentTool(a.name));
    const system: ChatMessageSystem = {
      id: this.#id(),
      content:
        corpus.SYSTEM_PROMPTS[
          isMain ? 0 : 1 + (hash(plan.name) % (corpus.SYSTEM_PROMPTS.length - 1))
        ]!,
      role: 'system',
    };
    const user: ChatMessageUser = { id: this.#id(), content: task, source: 'input', role: 'user' };
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
    this.#spanBegin(
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
        this.#launch(lane, agent, group);
        remaining -= cost;
        reserve -= cost;
        launched++;
        continue;
      }
      if (free <= 0) break;
      remaining -= this.#step(lane, agent, free, isMain && this.#owed.size > 0 ? progress : -1);
    }

    if (plan.crashes && !isMain) {
      const i = rng.int(corpus.AGENT_ERRORS.length);
      const tb = corpus.AGENT_TRACEBACKS[i]!;
      const error: ErrorEvent = {
        uuid: this.#id(),
        span_id: spanId,
        timestamp: this.#clock.iso(lane.t),
        working_start: this.#working(lane.t),
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
      this.#spanEnd(lane, spanId);
      remaining--;
      assertSpent(remaining, plan.name);
      return corpus.AGENT_ERRORS[i]!;
    }
    const final = rng.int(corpus.FINAL_ANSWERS.length);
    this.#model(
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
    this.#spanEnd(lane, spanId);
    remaining--;
    assertSpent(remaining, plan.name);
    return corpus.FINAL_ANSWERS[final]!;
  }

  /**
   * One step of an agent's loop that costs at most `free` events (≥ 1).
   * Returns the events it emitted. `progress` ≥ 0 asks the main agent to pay
   * owed features when their time comes.
   */
  #step(lane: Lane, agent: AgentState, free: number, progress: number): number {
    const s = this.#s;
    const rng = this.#rng;
    const owed = this.#owed;
    if (progress >= 0) {
      if (owed.has('branch') && progress > 0.3 && free >= 9) {
        owed.delete('branch');
        return this.#branch(lane, agent);
      }
      if (owed.has('compaction') && progress > 0.5) {
        owed.delete('compaction');
        return this.#compaction(lane, agent);
      }
      if (owed.has('info') && progress > 0.15) {
        owed.delete('info');
        return this.#info(lane, agent.spanId);
      }
      if (owed.has('logger') && progress > 0.2) {
        owed.delete('logger');
        return this.#logger(lane, agent.spanId);
      }
      if (owed.has('model_error') && progress > 0.4) {
        owed.delete('model_error');
        return this.#modelFailure(lane, agent);
      }
    }
    // The conversation must not grow without bound (real agents compact too),
    // which also keeps a million-event run's memory linear.
    if (agent.conversation.length >= s.compactAfter) return this.#compaction(lane, agent);
    if (free >= 4) {
      const r = rng.next();
      if (r < s.errorRate * 0.5) return this.#modelFailure(lane, agent);
      if (r < 0.88) return this.#toolTurn(lane, agent, agent.spanId, free, false);
      if (agent.plan.depth === 0 && r < 0.895 && free >= 9) return this.#branch(lane, agent);
    }
    const f = rng.int(4);
    if (f === 0) return this.#info(lane, agent.spanId);
    if (f === 1) return this.#logger(lane, agent.spanId);
    return this.#store(lane, agent.spanId, agent.storePath, agent.turns);
  }

  /** A model call with tool calls, then the tool calls, sequentially. Costs ≤ `free` (≥ 4). */
  #toolTurn(
    lane: Lane,
    agent: AgentState,
    spanId: string,
    free: number,
    inBranch: boolean,
  ): number {
    const s = this.#s;
    const rng = this.#rng;
    const owed = this.#owed;
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
      const planned = this.#toolCall(c.kind);
      plans.push(planned);
      toolCalls.push(planned.call);
    }
    const parts = rng.chance(0.35) ? rng.pick(REASONED) : rng.pick(TEXT_ONLY);
    this.#model(
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
      used += this.#toolUnit(lane, agent, spanId, plans[i]!, c.inner, c.pending, c.fails);
    }
    agent.turns++;
    return used;
  }

  /** A tool call of `kind` with arguments, the result it will produce and its sandbox actions. */
  #toolCall(kind: ToolKind): PlannedCall {
    const rng = this.#rng;
    const id = this.#toolCallId();
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
  #toolUnit(
    lane: Lane,
    agent: AgentState,
    spanId: string,
    planned: PlannedCall,
    inner: number,
    pending: boolean,
    fails: boolean,
  ): number {
    const rng = this.#rng;
    const call = planned.call;
    const toolSpanId = this.#id();
    const created = lane.t;
    lane.t += rng.range(300, 1500);
    this.#spanBegin(lane, toolSpanId, spanId, call.function, 'tool');
    const error = fails
      ? corpus.TOOL_ERRORS[rng.pick(ERRORS_BY_TOOL[call.function] ?? [0, 3])]!
      : null;
    const messageId = this.#id();
    const event: ToolEvent = {
      uuid: this.#id(),
      span_id: spanId,
      timestamp: this.#clock.iso(created),
      working_start: this.#working(created),
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
    this.#emitStart(lane, event, pending);
    for (let i = 0; i < inner; i++) {
      const sb = planned.sandbox[planned.sandbox.length - inner + i];
      if (sb !== undefined) this.#sandbox(lane, toolSpanId, sb);
      else this.#logger(lane, toolSpanId);
    }
    lane.t += rng.range(2_000, 60_000);
    event.completed = this.#clock.iso(lane.t);
    event.working_time = (lane.t - created) / 1e6;
    if (pending) lane.sink.push(event, lane.t);
    lane.t += rng.range(200, 900);
    this.#spanEnd(lane, toolSpanId);
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
  #launch(lane: Lane, agent: AgentState, group: GroupPlan): void {
    const rng = this.#rng;
    const calls: ToolCall[] = group.agents.map((a) => ({
      id: this.#toolCallId(),
      function: a.name,
      arguments: rng.pick(AGENT_ARGS),
      type: 'function',
    }));
    this.#model(
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
        this.#agentUnit(lane, agent, group.agents[0]!, calls[0]!, group.toolPending[0] === true),
      );
    } else {
      const lanes: Lane[] = [];
      for (let i = 0; i < group.agents.length; i++) {
        // asyncio starts them a few ms apart.
        const child: Lane = { sink: new Sink(), t: t0 + i * rng.range(1_000, 40_000) };
        messages.push(
          this.#agentUnit(child, agent, group.agents[i]!, calls[i]!, group.toolPending[i] === true),
        );
        lanes.push(child);
      }
      lane.t = mergeLanes(lane.sink, lanes) + rng.range(500, 5_000);
    }
    for (const m of messages) agent.conversation.push(m);
    agent.turns++;
  }

  /** A sub-agent called as a tool: tool span ⊃ ToolEvent (outside) + agent span. */
  #agentUnit(
    lane: Lane,
    parent: AgentState,
    plan: AgentPlan,
    call: ToolCall,
    pending: boolean,
  ): ChatMessageTool {
    const rng = this.#rng;
    const toolSpanId = this.#id();
    const agentSpanId = this.#id();
    const created = lane.t;
    lane.t += rng.range(300, 1500);
    this.#spanBegin(lane, toolSpanId, parent.spanId, call.function, 'tool');
    const messageId = this.#id();
    const event: ToolEvent = {
      uuid: this.#id(),
      span_id: parent.spanId,
      timestamp: this.#clock.iso(created),
      working_start: this.#working(created),
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
    this.#emitStart(lane, event, pending);
    const input = typeof call.arguments['input'] === 'string' ? call.arguments['input'] : '';
    const answer = this.#runAgent(lane, plan, toolSpanId, agentSpanId, input);
    if (plan.crashes) event.error = { type: 'unknown', message: answer };
    else event.result = answer;
    lane.t += rng.range(200, 2_000);
    event.completed = this.#clock.iso(lane.t);
    event.working_time = (lane.t - created) / 1e6;
    if (pending) lane.sink.push(event, lane.t);
    lane.t += rng.range(100, 600);
    this.#spanEnd(lane, toolSpanId);
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
  #branch(lane: Lane, agent: AgentState): number {
    const anchorId = agent.lastAssistantId;
    lane.sink.push(
      {
        uuid: this.#id(),
        span_id: agent.spanId,
        timestamp: this.#clock.iso(lane.t),
        working_start: this.#working(lane.t),
        event: 'anchor',
        anchor_id: anchorId,
        source: agent.plan.name,
      },
      lane.t,
    );
    lane.t += this.#rng.range(100, 800);
    const branchId = this.#id();
    this.#spanBegin(lane, branchId, agent.spanId, `alternative ${agent.turns + 1}`, 'branch');
    lane.sink.push(
      {
        uuid: this.#id(),
        span_id: branchId,
        timestamp: this.#clock.iso(lane.t),
        working_start: this.#working(lane.t),
        event: 'branch',
        from_anchor: anchorId,
      },
      lane.t,
    );
    lane.t += this.#rng.range(100, 800);
    const fork: AgentState = {
      ...agent,
      conversation: agent.conversation.slice(),
      spanId: branchId,
    };
    const used = this.#toolTurn(lane, fork, branchId, 4, true);
    this.#spanEnd(lane, branchId);
    return 4 + used;
  }

  /** A failed model call (error + tracebacks), retried by the next turn. */
  #modelFailure(lane: Lane, agent: AgentState): number {
    const rng = this.#rng;
    const i = rng.int(corpus.MODEL_ERRORS.length);
    const tb = corpus.MODEL_TRACEBACKS[i]!;
    const t0 = lane.t;
    lane.t += rng.range(200_000, 30_000_000);
    const event: ModelEvent = {
      uuid: this.#id(),
      span_id: agent.spanId,
      timestamp: this.#clock.iso(t0),
      working_start: this.#working(t0),
      event: 'model',
      model: this.#s.model,
      input: agent.conversation.slice(),
      tools: agent.tools,
      tool_choice: 'auto',
      config: agent.plan.depth === 0 ? MAIN_CONFIG : SUB_CONFIG,
      output: this.#pendingModelOutput,
      error: corpus.MODEL_ERRORS[i]!,
      traceback: tb.traceback,
      traceback_ansi: tb.traceback_ansi,
      completed: this.#clock.iso(lane.t),
      working_time: (lane.t - t0) / 1e6,
    };
    lane.sink.push(event, t0);
    lane.t += rng.range(1_000_000, 4_000_000); // backoff before the retry
    return 1;
  }

  #compaction(lane: Lane, agent: AgentState): number {
    const rng = this.#rng;
    const before = 1_200 + agent.conversation.length * 3_500 + rng.int(5_000);
    const event: CompactionEvent = {
      uuid: this.#id(),
      span_id: agent.spanId,
      timestamp: this.#clock.iso(lane.t),
      working_start: this.#working(lane.t),
      event: 'compaction',
      type: 'summary',
      tokens_before: before,
      tokens_after: 4_000 + rng.int(8_000),
      source: 'inspect',
    };
    lane.sink.push(event, lane.t);
    lane.t += rng.range(2_000_000, 9_000_000);
    const summary: ChatMessageUser = {
      id: this.#id(),
      content: rng.pick(COMPACTION_SUMMARIES),
      source: 'generate',
      role: 'user',
    };
    agent.conversation = [agent.conversation[0]!, agent.conversation[1]!, summary];
    return 1;
  }

  // --- single events ------------------------------------------------------------

  /**
   * Emits a model event. With `pending`, a pending copy (same uuid, empty
   * output) goes out at the start and the final version at completion;
   * otherwise the final version is listed at its start, as finished logs do.
   */
  #model(
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
    const rng = this.#rng;
    const t0 = lane.t;
    const hasCalls = o.toolCalls !== null && o.toolCalls.length > 0;
    const latency = rng.range(hasCalls ? 1_500_000 : 800_000, hasCalls ? 14_000_000 : 9_000_000);
    lane.t = t0 + latency;
    const text = o.parts[o.parts.length - 1];
    const completion = text !== undefined && text.type === 'text' ? text.text : '';
    const message: ChatMessageAssistant = {
      id: this.#id(),
      content: o.parts,
      source: 'generate',
      role: 'assistant',
      model: this.#s.outputModel,
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
      uuid: this.#id(),
      span_id: spanId,
      timestamp: this.#clock.iso(t0),
      working_start: this.#working(t0),
      event: 'model',
      model: this.#s.model,
      input,
      tools,
      tool_choice: o.toolChoice ?? 'auto',
      config,
      output: {
        model: this.#s.outputModel,
        choices: [{ message, stop_reason: hasCalls ? 'tool_calls' : 'stop' }],
        completion,
        usage,
        time: latency / 1e6,
      },
      completed: this.#clock.iso(lane.t),
      working_time: latency / 1e6,
    };
    if (o.role !== undefined) event.role = o.role;
    if (o.pending) {
      const { completed: _c, working_time: _w, output: _o, ...rest } = event;
      lane.sink.push({ ...rest, pending: true, output: this.#pendingModelOutput }, t0);
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
  #emitStart(lane: Lane, event: ToolEvent, pending: boolean): void {
    if (pending) {
      const { completed: _c, working_time: _w, result: _r, error: _e, ...rest } = event;
      lane.sink.push({ ...rest, pending: true, result: '' }, lane.t);
    } else {
      lane.sink.push(event, lane.t);
    }
  }

  #sandbox(lane: Lane, spanId: string, sb: SandboxPlan): void {
    const t0 = lane.t;
    lane.t += this.#rng.range(40_000, 3_000_000);
    const event: SandboxEvent = {
      uuid: this.#id(),
      span_id: spanId,
      timestamp: this.#clock.iso(t0),
      working_start: this.#working(t0),
      event: 'sandbox',
      action: sb.action,
    };
    if (sb.cmd !== null) event.cmd = sb.cmd;
    event.options = sb.action === 'exec' ? SANDBOX_OPTIONS : EMPTY_OPTIONS;
    if (sb.file !== null) event.file = sb.file;
    if (sb.input !== null) event.input = sb.input;
    if (sb.exit !== null) event.result = sb.exit;
    if (sb.output !== null) event.output = sb.output;
    event.completed = this.#clock.iso(lane.t);
    lane.sink.push(event, t0);
  }

  #info(lane: Lane, spanId: string): number {
    const event: InfoEvent = {
      uuid: this.#id(),
      span_id: spanId,
      timestamp: this.#clock.iso(lane.t),
      working_start: this.#working(lane.t),
      event: 'info',
      source: 'agent',
      data: this.#rng.pick(corpus.INFO_TEXTS),
    };
    lane.sink.push(event, lane.t);
    lane.t += this.#rng.range(100, 3_000);
    return 1;
  }

  #logger(lane: Lane, spanId: string): number {
    const [name, level, message, filename, module, lineno] = this.#rng.pick(corpus.LOG_LINES);
    const event: LoggerEvent = {
      uuid: this.#id(),
      span_id: spanId,
      timestamp: this.#clock.iso(lane.t),
      working_start: this.#working(lane.t),
      event: 'logger',
      message: { name, level, message, created: lane.t / 1000 - 1.3, filename, module, lineno },
    };
    lane.sink.push(event, lane.t);
    lane.t += this.#rng.range(100, 3_000);
    return 1;
  }

  #store(lane: Lane, spanId: string, path: string, value: unknown): number {
    const event: StoreEvent = {
      uuid: this.#id(),
      span_id: spanId,
      timestamp: this.#clock.iso(lane.t),
      working_start: this.#working(lane.t),
      event: 'store',
      changes: [{ op: 'add', path, value }],
    };
    lane.sink.push(event, lane.t);
    lane.t += this.#rng.range(100, 2_000);
    return 1;
  }

  #stateAfter(lane: Lane, spanId: string, answer: string): void {
    lane.sink.push(
      {
        uuid: this.#id(),
        span_id: spanId,
        timestamp: this.#clock.iso(lane.t),
        working_start: this.#working(lane.t),
        event: 'state',
        changes: [
          { op: 'replace', path: '/output/completion', value: answer, replaced: '' },
          {
            op: 'replace',
            path: '/output/model',
            value: this.#s.outputModel,
            replaced: this.#s.model,
          },
        ],
      },
      lane.t,
    );
    lane.t += this.#rng.range(100, 2_000);
  }

  #spanBegin(
    lane: Lane,
    id: string,
    parentId: string | null,
    name: string,
    type: string,
    description?: string,
  ): void {
    const uuid = this.#id();
    const timestamp = this.#clock.iso(lane.t);
    const working_start = this.#working(lane.t);
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
    lane.t += this.#rng.range(50, 600);
  }

  #spanEnd(lane: Lane, id: string): void {
    const event: SpanEndEvent = {
      uuid: this.#id(),
      span_id: id,
      timestamp: this.#clock.iso(lane.t),
      working_start: this.#working(lane.t),
      event: 'span_end',
      id,
    };
    lane.sink.push(event, lane.t);
    lane.t += this.#rng.range(50, 600);
  }

  #agentTool(name: string): ToolInfo {
    let info = this.#agentTools.get(name);
    if (info === undefined) {
      info = deepFreeze(
        tool(name, corpus.AGENT_DESCRIPTIONS[name] ?? `The ${name} agent.`, {
          input: 'What the agent should do.',
        }),
      );
      this.#agentTools.set(name, info);
    }
    return info;
  }

  #working(us: number): number {
    return (us - this.#s.startUs) / 1e6;
  }

  /** A 22-character shortuuid-style id. */
  #id(): string {
    fillShortUuid(this.#idRng, ID_CODES, 0);
    return fromCodes(ID_CODES);
  }

  /** Anthropic-style tool call id (`toolu_01…`). */
  #toolCallId(): string {
    fillShortUuid(this.#idRng, TOOL_ID_CODES, 8);
    return fromCodes(TOOL_ID_CODES);
  }
}

/** A tool call, the result it will produce and the sandbox actions it takes. */
interface PlannedCall {
  call: ToolCall;
  result: string;
  sandbox: SandboxPlan[];
}

interface SandboxPlan {
  action: 'exec' | 'read_file' | 'write_file';
  cmd: string | null;
  input: string | null;
  output: string | null;
  exit: number | null;
  file: string | null;
}

/**
 * Merges the events of parallel lanes into `into` by emission time (ties keep
 * lane order, so the result is deterministic). Each lane is already in time
 * order. Returns the latest lane clock.
 */
function mergeLanes(into: Sink, lanes: readonly Lane[]): number {
  const heads = new Array<number>(lanes.length).fill(0);
  let end = 0;
  for (const l of lanes) end = Math.max(end, l.t);
  for (;;) {
    let best = -1;
    let bestAt = Infinity;
    for (let i = 0; i < lanes.length; i++) {
      const sink = lanes[i]!.sink;
      const h = heads[i]!;
      if (h < sink.at.length && sink.at[h]! < bestAt) {
        bestAt = sink.at[h]!;
        best = i;
      }
    }
    if (best === -1) return end;
    const sink = lanes[best]!.sink;
    const h = heads[best]!;
    into.push(sink.events[h]!, bestAt);
    heads[best] = h + 1;
  }
}

function assertSpent(remaining: number, name: string): void {
  // A bookkeeping bug, never an input problem: fail loudly rather than
  // return a run with the wrong count.
  if (remaining !== 0)
    throw new Error(`generateRun: internal budget error in agent "${name}" (${remaining} left)`);
}

function hash(text: string): number {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
  return h >>> 0;
}
