// A small inspect_ai eval log (`.json` form), built in code the way inspect
// writes one: an `EvalLog` (version 2) with one `EvalSample` whose events are
// the wire events of a two-turn tool-using run. Shapes follow the pydantic
// models in inspect_ai `src/inspect_ai/log/_log.py` and `event/*`, as
// summarized in research/inspect_ai.md §1 (containers, the envelope, the event
// table, attachments, spans).
//
// Deliberately realistic details:
// - every event has a 22-character shortuuid `uuid`, a `span_id`, an ISO
//   timestamp with microseconds and a `+00:00` offset, and `working_start`;
// - `span_begin.span_id === span_begin.id`, parents only through `parent_id`
//   (§1.6), and the ToolEvent sits in the enclosing solver span, emitted after
//   the `bash` tool span begins, with a timestamp slightly before it;
// - the system prompt (over 100 characters) is condensed into
//   `sample.attachments` and referenced as `attachment://<hash>` (§1.5);
//   `ToolEvent.result` stays inline as inspect leaves it;
// - null fields are omitted (`exclude_none`), defaulted ones are present
//   (`ToolEvent.events: []`, `ScoreEvent.intermediate: false`).

const SHORTUUID_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** A deterministic 22-character shortuuid-looking id for `label`. */
function shortUuid(label: string): string {
  // FNV-1a seeds a mulberry32 stream: stable across runs, distinct per label.
  let seed = 0x811c9dc5;
  for (let i = 0; i < label.length; i++) seed = Math.imul(seed ^ label.charCodeAt(i), 0x01000193);
  let out = '';
  for (let i = 0; i < 22; i++) {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    const r = ((t ^ (t >>> 14)) >>> 0) % SHORTUUID_ALPHABET.length;
    out += SHORTUUID_ALPHABET[r]!;
  }
  return out;
}

const START_MS = Date.parse('2026-06-10T18:23:50Z');

/**
 * The time `seconds` after the sample started, as inspect writes it:
 * `2026-06-10T18:23:51.203417+00:00` (microseconds dropped when zero).
 */
function ts(seconds: number): string {
  const micros = Math.round(seconds * 1e6);
  const whole = new Date(START_MS + Math.floor(micros / 1e6) * 1000).toISOString().slice(0, 19);
  const frac = micros % 1e6;
  return `${whole}${frac === 0 ? '' : `.${String(frac).padStart(6, '0')}`}+00:00`;
}

const MODEL = 'openai/gpt-4o-mini';
const MODEL_VERSION = 'gpt-4o-mini-2024-07-18';
const INPUT = 'Which port does the web service in /srv/app listen on? Answer with the number only.';
const TARGET = '8080';
const SYSTEM_PROMPT =
  'You are a careful software engineer working in a Linux sandbox. Use the bash tool to ' +
  'look at files before you answer, and answer with only what was asked.';
// inspect keys attachments by the murmur3 hash of the text; the reader only
// looks the key up, so any 32 hex digits stand in for it here.
const SYSTEM_PROMPT_HASH = '9b1f4c27d3e85a06b2c7e419f08d6a53';
const CALL_ID = 'call_Qm7eR2kXvT9wB4nLs8YdPc3J';
const COMMAND = "grep -rn 'PORT' /srv/app";
const TOOL_OUTPUT = '/srv/app/config.env:3:PORT=8080\n';

const BASH_TOOL = {
  name: 'bash',
  description: 'Use this function to execute bash commands.',
  parameters: {
    type: 'object',
    properties: { cmd: { type: 'string', description: 'The bash command to execute.' } },
    required: ['cmd'],
    additionalProperties: false,
  },
};

// Spans (ids are shortuuids; `span_id` of a span event is its own id).
const INIT = shortUuid('span init');
const SOLVERS = shortUuid('span solvers');
const SYSTEM_MESSAGE = shortUuid('span system_message');
const USE_TOOLS = shortUuid('span use_tools');
const GENERATE = shortUuid('span generate');
const BASH = shortUuid('span bash');
const SCORERS = shortUuid('span scorers');
const INCLUDES = shortUuid('span includes');

// Messages, with the ids inspect gives them.
const systemMessage = (content: string) => ({
  id: shortUuid('msg system'),
  content,
  role: 'system',
});
const userMessage = {
  id: shortUuid('msg user'),
  content: INPUT,
  source: 'input',
  role: 'user',
};
const assistantToolCall = {
  id: shortUuid('msg assistant 1'),
  content: [{ type: 'text', text: "I'll search the service's configuration for its port." }],
  source: 'generate',
  role: 'assistant',
  tool_calls: [
    {
      id: CALL_ID,
      function: 'bash',
      arguments: { cmd: COMMAND },
      view: { format: 'markdown', content: `\`\`\`bash\n${COMMAND}\n\`\`\`\n` },
      type: 'function',
    },
  ],
  model: MODEL_VERSION,
};
const toolMessage = {
  id: shortUuid('msg tool'),
  content: TOOL_OUTPUT,
  role: 'tool',
  tool_call_id: CALL_ID,
  function: 'bash',
};
const assistantAnswer = {
  id: shortUuid('msg assistant 2'),
  content: [{ type: 'text', text: TARGET }],
  source: 'generate',
  role: 'assistant',
  model: MODEL_VERSION,
};

const usage1 = { input_tokens: 182, output_tokens: 41, total_tokens: 223 };
const usage2 = { input_tokens: 251, output_tokens: 3, total_tokens: 254 };
const totalUsage = {
  [MODEL]: {
    input_tokens: usage1.input_tokens + usage2.input_tokens,
    output_tokens: usage1.output_tokens + usage2.output_tokens,
    total_tokens: usage1.total_tokens + usage2.total_tokens,
  },
};

const score = {
  value: 'C',
  answer: TARGET,
  explanation: TARGET,
  history: [],
};

/** The common envelope (§1.2). */
function envelope(label: string, spanId: string, seconds: number) {
  return {
    uuid: shortUuid(`event ${label}`),
    span_id: spanId,
    timestamp: ts(seconds),
    working_start: seconds,
  };
}

function spanBegin(id: string, parent: string | null, type: string, name: string, s: number) {
  return {
    ...envelope(`begin ${name}`, id, s),
    event: 'span_begin',
    id,
    // `exclude_none`: a root span has no `parent_id` key at all.
    ...(parent === null ? {} : { parent_id: parent }),
    type,
    name,
  };
}

function spanEnd(id: string, name: string, s: number) {
  return { ...envelope(`end ${name}`, id, s), event: 'span_end', id };
}

function sampleEvents() {
  const attached = systemMessage(`attachment://${SYSTEM_PROMPT_HASH}`);
  return [
    spanBegin(INIT, null, 'init', 'init', 0.001204),
    {
      ...envelope('sample_init', INIT, 0.002311),
      event: 'sample_init',
      sample: { input: INPUT, target: TARGET, id: 1 },
      state: {
        messages: [userMessage],
        tools: [],
        tool_choice: null,
        store: {},
        output: { model: MODEL, choices: [], completion: '' },
        completed: false,
        metadata: {},
      },
    },
    spanEnd(INIT, 'init', 0.913872),
    spanBegin(SOLVERS, null, 'solvers', 'solvers', 0.915006),
    spanBegin(SYSTEM_MESSAGE, SOLVERS, 'solver', 'system_message', 0.915411),
    {
      ...envelope('state system_message', SYSTEM_MESSAGE, 0.915972),
      event: 'state',
      changes: [{ op: 'add', path: '/messages/0', value: attached }],
    },
    spanEnd(SYSTEM_MESSAGE, 'system_message', 0.916204),
    spanBegin(USE_TOOLS, SOLVERS, 'solver', 'use_tools', 0.916533),
    {
      ...envelope('state use_tools', USE_TOOLS, 0.916871),
      event: 'state',
      changes: [{ op: 'add', path: '/tools/0', value: BASH_TOOL }],
    },
    spanEnd(USE_TOOLS, 'use_tools', 0.917109),
    spanBegin(GENERATE, SOLVERS, 'solver', 'generate', 0.917448),
    {
      ...envelope('model 1', GENERATE, 0.918016),
      event: 'model',
      model: MODEL,
      input: [attached, userMessage],
      tools: [BASH_TOOL],
      tool_choice: 'auto',
      config: {},
      output: {
        model: MODEL_VERSION,
        choices: [{ message: assistantToolCall, stop_reason: 'tool_calls' }],
        completion: assistantToolCall.content[0]!.text,
        usage: usage1,
        time: 1.284113,
      },
      completed: ts(2.202129),
      working_time: 1.284113,
    },
    spanBegin(BASH, GENERATE, 'tool', 'bash', 2.204561),
    {
      // Created in the generate span before the tool span began (§1.6).
      ...envelope('tool bash', GENERATE, 2.203987),
      event: 'tool',
      type: 'function',
      id: CALL_ID,
      function: 'bash',
      arguments: { cmd: COMMAND },
      view: { format: 'markdown', content: `\`\`\`bash\n${COMMAND}\n\`\`\`\n` },
      result: TOOL_OUTPUT,
      events: [],
      completed: ts(2.391442),
      working_time: 0.187455,
      message_id: toolMessage.id,
    },
    {
      ...envelope('sandbox exec', BASH, 2.205118),
      event: 'sandbox',
      action: 'exec',
      cmd: `bash --login -c '${COMMAND.replace(/'/g, `'"'"'`)}'`,
      options: {},
      result: 0,
      output: TOOL_OUTPUT,
      completed: ts(2.389907),
    },
    spanEnd(BASH, 'bash', 2.391876),
    {
      ...envelope('model 2', GENERATE, 2.392704),
      event: 'model',
      model: MODEL,
      input: [attached, userMessage, assistantToolCall, toolMessage],
      tools: [BASH_TOOL],
      tool_choice: 'auto',
      config: {},
      output: {
        model: MODEL_VERSION,
        choices: [{ message: assistantAnswer, stop_reason: 'stop' }],
        completion: TARGET,
        usage: usage2,
        time: 0.611958,
      },
      completed: ts(3.004793),
      working_time: 0.611958,
    },
    spanEnd(GENERATE, 'generate', 3.005331),
    spanEnd(SOLVERS, 'solvers', 3.005702),
    spanBegin(SCORERS, null, 'scorers', 'scorers', 3.006145),
    spanBegin(INCLUDES, SCORERS, 'scorer', 'includes', 3.006498),
    {
      ...envelope('score includes', INCLUDES, 3.007012),
      event: 'score',
      score,
      target: TARGET,
      intermediate: false,
    },
    spanEnd(INCLUDES, 'includes', 3.007391),
    spanEnd(SCORERS, 'scorers', 3.007688),
  ];
}

/**
 * The text of a one-sample inspect_ai eval log (`.json`, schema version 2)
 * for the task `find_port`: a model call that runs `bash`, the tool call, a
 * second model call that answers, and an `includes` score. Import it with
 * `importInspectLog(new TextEncoder().encode(text))`.
 *
 * @example
 * const log = await importInspectLog(new TextEncoder().encode(buildInspectLogJson()));
 * const { events } = await log.sample(1, 1);
 */
export function buildInspectLogJson(): string {
  const events = sampleEvents();
  const log = {
    version: 2,
    status: 'success',
    eval: {
      eval_id: shortUuid('eval'),
      run_id: shortUuid('run'),
      created: '2026-06-10T18:23:49+00:00',
      task: 'find_port',
      task_id: shortUuid('task'),
      task_version: 0,
      task_file: 'find_port.py',
      task_registry_name: 'find_port',
      task_attribs: {},
      task_args: {},
      task_args_passed: {},
      dataset: { name: 'find_port', samples: 1, sample_ids: [1], shuffled: false },
      sandbox: { type: 'docker' },
      model: MODEL,
      model_generate_config: {},
      model_args: {},
      config: {
        epochs: 1,
        epochs_reducer: ['mean'],
        fail_on_error: true,
        sandbox_cleanup: true,
        log_samples: true,
        log_realtime: true,
        log_images: true,
        score_display: true,
      },
      packages: { inspect_ai: '0.3.239' },
      scorers: [
        {
          name: 'includes',
          options: {},
          metrics: [
            { name: 'inspect_ai/accuracy', options: {} },
            { name: 'inspect_ai/stderr', options: {} },
          ],
          metadata: {},
        },
      ],
    },
    plan: {
      name: 'plan',
      steps: [
        { solver: 'system_message', params: { template: SYSTEM_PROMPT } },
        { solver: 'use_tools', params: { tools: [{ type: 'tool', name: 'bash', params: {} }] } },
        { solver: 'generate', params: {} },
      ],
      config: {},
    },
    results: {
      total_samples: 1,
      completed_samples: 1,
      scores: [
        {
          name: 'includes',
          scorer: 'includes',
          scored_samples: 1,
          unscored_samples: 0,
          params: {},
          metrics: {
            accuracy: { name: 'accuracy', value: 1.0, params: {} },
            stderr: { name: 'stderr', value: 0.0, params: {} },
          },
        },
      ],
    },
    stats: {
      started_at: '2026-06-10T18:23:49+00:00',
      completed_at: '2026-06-10T18:23:53+00:00',
      model_usage: totalUsage,
      role_usage: {},
    },
    invalidated: false,
    tags: [],
    metadata: {},
    samples: [
      {
        id: 1,
        epoch: 1,
        input: INPUT,
        target: TARGET,
        // The final conversation: only data URIs move to attachments here (§1.5).
        messages: [
          systemMessage(SYSTEM_PROMPT),
          userMessage,
          assistantToolCall,
          toolMessage,
          assistantAnswer,
        ],
        output: {
          model: MODEL_VERSION,
          choices: [{ message: assistantAnswer, stop_reason: 'stop' }],
          completion: TARGET,
          usage: usage2,
          time: 0.611958,
        },
        scores: { includes: score },
        metadata: {},
        store: {},
        events,
        model_usage: totalUsage,
        role_usage: {},
        started_at: ts(0),
        completed_at: ts(3.008),
        total_time: 3.008,
        working_time: 3.008,
        uuid: shortUuid('sample 1 epoch 1'),
        error_retries: [],
        attachments: { [SYSTEM_PROMPT_HASH]: SYSTEM_PROMPT },
      },
    ],
    reductions: [
      {
        scorer: 'includes',
        samples: [{ value: 1.0, answer: TARGET, explanation: TARGET, history: [], sample_id: 1 }],
      },
    ],
  };
  return JSON.stringify(log, null, 2);
}
