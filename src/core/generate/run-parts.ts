// The run generator's building blocks: settings, ids and the clock, agent plans, lanes,
// and the frozen payloads every generated run shares.

import { deepFreeze } from '../events/freeze.js';
import type {
  ChatMessage,
  Content,
  Event,
  GenerateConfig,
  ToolCall,
  ToolInfo,
} from '../events/types.js';
import * as corpus from './corpus.js';
import type { Prng } from './prng.js';

/** The options with defaults filled, as the generator uses them. */
export interface Settings {
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

// ---------------------------------------------------------------------------
// ids and times
// ---------------------------------------------------------------------------

// shortuuid's alphabet: inspect's uuids and span ids are 22 characters of it.
export const ALPHABET_CODES: readonly number[] = Array.from(
  '23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz',
  (c) => c.charCodeAt(0),
);

// Strings are built from char codes with String.fromCharCode.apply, which
// makes one flat string. Concatenating pieces would make V8 cons-strings, a
// tree of nodes per id: four times the memory at a million events.
export const ID_CODES = new Array<number>(22).fill(0);
export const TOOL_ID_CODES: number[] = [...'toolu_01']
  .map((c) => c.charCodeAt(0))
  .concat(new Array<number>(22).fill(0));
export const ISO_CODES = new Array<number>(32).fill(0);
export const ISO_SHORT_CODES = new Array<number>(25).fill(0);

/** Fills `codes[from…from+22)` with a random shortuuid (five base-57 digits per 32-bit draw). */
export function fillShortUuid(rng: Prng, codes: number[], from: number): void {
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

export function fromCodes(codes: number[]): string {
  return String.fromCharCode.apply(null, codes);
}

/**
 * Formats epoch microseconds the way inspect's writer does: UTC, `+00:00`,
 * microseconds dropped when zero (Python's `isoformat`). The
 * `YYYY-MM-DDTHH:MM:SS` prefix is cached per second: parallel agents move
 * the clock back and forth, so a small map, not a single slot.
 */
export class IsoClock {
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

export interface AgentPlan {
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

export interface GroupPlan {
  agents: AgentPlan[];
  /** Whether the launching model call is streamed (pending copy first). */
  modelPending: boolean;
  /** Per agent: whether its tool call is streamed. */
  toolPending: boolean[];
}

/** Events a group costs its parent: the launching model call plus, per agent, tool span begin/end and the ToolEvent. */
export function groupOverhead(group: GroupPlan): number {
  let n = group.modelPending ? 2 : 1;
  for (let i = 0; i < group.agents.length; i++) n += group.toolPending[i] === true ? 4 : 3;
  return n;
}

/** The smallest `own` an agent can have: span begin, final answer, span end. */
export const MIN_OWN = 3;

// ---------------------------------------------------------------------------
// the generator
// ---------------------------------------------------------------------------

/** Where events go: a list plus each event's emission time (µs), for merging parallel lanes. */
export class Sink {
  readonly events: Event[] = [];
  readonly at: number[] = [];

  push(event: Event, us: number): void {
    this.events.push(event);
    this.at.push(us);
  }
}

/** One thread of execution: where its events go and its own clock. */
export interface Lane {
  sink: Sink;
  /** Current time, epoch µs. */
  t: number;
}

/** A running agent's state. */
export interface AgentState {
  plan: AgentPlan;
  spanId: string;
  tools: ToolInfo[];
  conversation: ChatMessage[];
  turns: number;
  lastAssistantId: string;
  /** Store key this agent writes its turn count to. */
  storePath: string;
}

export const BASH_VIEW = deepFreeze({
  title: 'bash',
  format: 'markdown' as const,
  content: '```bash\n{{cmd}}\n```\n',
});
export const PYTHON_VIEW = deepFreeze({
  title: 'python',
  format: 'markdown' as const,
  content: '```python\n{{code}}\n```\n',
});

export const BASE_TOOLS: readonly ToolInfo[] = deepFreeze([
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

export function tool(name: string, description: string, params: Record<string, string>): ToolInfo {
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

export const TEXT_PARTS = deepFreeze(
  corpus.ASSISTANT_TEXTS.map((text): Content => ({ type: 'text', text })),
);
export const FINAL_PARTS = deepFreeze(
  corpus.FINAL_ANSWERS.map((text): Content => ({ type: 'text', text })),
);
export const REASONING_PARTS = deepFreeze(
  corpus.REASONING_TEXTS.map((reasoning, i): Content => ({
    type: 'reasoning',
    reasoning,
    signature: `EqQBCkYIBxgCKkC${i}sig`,
    redacted: false,
  })),
);
export const SANDBOX_OPTIONS = deepFreeze({ timeout: 180 });
export const WHICH_BASH: SandboxPlan = deepFreeze({
  action: 'exec',
  cmd: 'which bash',
  input: null,
  output: '/usr/bin/bash\n',
  exit: 0,
  file: null,
});
export const EMPTY_OPTIONS = deepFreeze({});
export const MAIN_CONFIG: GenerateConfig = deepFreeze({
  max_tokens: 16384,
  parallel_tool_calls: true,
});
export const SUB_CONFIG: GenerateConfig = deepFreeze({ max_tokens: 8192 });
export const GRADER_CONFIG: GenerateConfig = deepFreeze({});
export const NO_TOOLS: ToolInfo[] = deepFreeze([]);

// Arguments and the sandbox command line of each corpus entry, built once and
// frozen: calls of the same command share them, as immutable data may.
export const BASH_CALLS = corpus.COMMANDS.map((c) =>
  deepFreeze({
    args: { cmd: c.cmd },
    exec: `bash --login -c '${c.cmd}'`,
    output: c.output,
    exit: c.exit,
  }),
);
export const PYTHON_CALLS = corpus.PYTHON_SNIPPETS.map((c) =>
  deepFreeze({ args: { code: c.cmd }, code: c.cmd, output: c.output, exit: c.exit }),
);
export const EDITOR_FILES = corpus.FILE_PATHS.map((p) => {
  const path = `/root/${p}`;
  return deepFreeze({
    path,
    view: { command: 'view', path },
    creates: corpus.FILE_CONTENTS.map((file_text) => ({ command: 'create', path, file_text })),
    created: `File created successfully at: ${path}`,
  });
});
export const SEARCH_ARGS = deepFreeze(corpus.SEARCH_QUERIES.map((query) => ({ query })));
export const THINK_ARGS = deepFreeze(corpus.THOUGHTS.map((thought) => ({ thought })));
export const AGENT_ARGS = deepFreeze(
  corpus.THOUGHTS.map((t) => ({ input: `${t} Report back with what you find.` })),
);
export const COMPACTION_SUMMARIES = corpus.ASSISTANT_TEXTS.map(
  (t) => `Summary of the work so far: ${t}`,
);
/** Assistant content: every text alone and after every reasoning part, shared. */
export const TEXT_ONLY: Content[][] = TEXT_PARTS.map((p) => deepFreeze([p]));
export const REASONED: Content[][] = REASONING_PARTS.flatMap((r) =>
  TEXT_PARTS.map((p) => deepFreeze([r, p])),
);
export const FINAL_ONLY: Content[][] = FINAL_PARTS.map((p) => deepFreeze([p]));

/** Which {@link corpus.TOOL_ERRORS} fit which tool (a search cannot hit a missing file). */
export const ERRORS_BY_TOOL: Readonly<Record<string, readonly number[]>> = {
  bash: [0, 2, 3],
  python: [0, 3],
  text_editor: [1, 2, 3],
  web_search: [0, 3],
  think: [3],
};

export type ToolKind = 'bash' | 'python' | 'text_editor' | 'web_search' | 'think';
export const TOOL_KINDS: readonly ToolKind[] = [
  'bash',
  'bash',
  'bash',
  'python',
  'text_editor',
  'text_editor',
  'web_search',
  'think',
];

/** A tool call, the result it will produce and the sandbox actions it takes. */
export interface PlannedCall {
  call: ToolCall;
  result: string;
  sandbox: SandboxPlan[];
}

export interface SandboxPlan {
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
export function mergeLanes(into: Sink, lanes: readonly Lane[]): number {
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

export function assertSpent(remaining: number, name: string): void {
  // A bookkeeping bug, never an input problem: fail loudly rather than
  // return a run with the wrong count.
  if (remaining !== 0)
    throw new Error(`generateRun: internal budget error in agent "${name}" (${remaining} left)`);
}

export function hash(text: string): number {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
  return h >>> 0;
}
