// Past 600 lines: one short describer per canonical kind (25) over shared envelope rules, read best as one table.
/**
 * The built-in describers: one per canonical kind (inspect_ai's 23 and skein's
 * `message` and `display`), plus the generic one for kinds nobody knows.
 *
 * What each shows follows inspect's own viewer (its
 * transcript has one `*EventView` per kind) with skein's rules: a model call
 * shows only the input messages new since the previous turn, its output and
 * usage; a tool event carries its result and error; errors carry their ANSI
 * traceback as `text/plain` (escapes kept for the ANSI renderer).
 *
 * Describers read fields defensively — wire data lies, and events built by
 * hand may miss what the types call required. A describer that throws anyway
 * is caught by the registry, which falls back to the generic describer.
 */
import type {
  ApprovalEvent,
  ChatMessage,
  CheckpointEvent,
  CompactionEvent,
  DisplayEvent,
  ErrorEvent,
  Event,
  EventKind,
  InfoEvent,
  InputEvent,
  InterruptEvent,
  LoggerEvent,
  MessageEvent,
  ModelEvent,
  SampleInitEvent,
  SampleLimitEvent,
  SandboxEvent,
  ScoreEditEvent,
  ScoreEvent,
  SpanBeginEvent,
  SpanEndEvent,
  StateEvent,
  StepEvent,
  SubtaskEvent,
  ToolCall,
  ToolEvent,
  AnchorEvent,
  BranchEvent,
  JsonChange,
  MimeBundle,
  StoreEvent,
} from '../events/types.js';
import { KNOWN_EVENT_FIELDS } from '../events/parse.js';
import { displayNotes, displayOf } from './display-of.js';
import { markdownSummary } from './markdown-text.js';
import {
  SearchText,
  argsInline,
  body,
  contentBodies,
  contentText,
  fence,
  firstLine,
  json,
  markdown,
  messageBodies,
  plain,
  shortValue,
  toolCallBody,
  toolCallBodies,
  usageText,
  valueBody,
} from './describe-helpers.js';
import { eventError, eventStatus, eventTokens } from '../events/outcome.js';
import { formatBytes, formatCount, formatDuration } from '../format.js';
import type { DescribeContext, EventDisplay, EventDescriber } from './types.js';

// Fields of the envelope (inspect_ai's `event/_base.py`): the generic describer
// lists them apart from the payload.
const ENVELOPE = new Set([
  'event',
  'uuid',
  'span_id',
  'timestamp',
  'working_start',
  'pending',
  'metadata',
]);

/**
 * What a kind's function returns. Status, times and tokens are not among
 * them: they come from the event's outcome (events/outcome.ts) through
 * `ctx.base`, so every view agrees on them.
 */
type Describe<E> = (
  event: E,
  ctx: DescribeContext,
  search: SearchText,
) => Partial<Omit<EventDisplay, 'status' | 'startTime' | 'endTime' | 'tokens'>>;

/**
 * The fields of `event` that are not known wire fields of its kind (a newer
 * inspect_ai, a producer's own), or `undefined` when there are none. Unknown
 * fields are kept and shown, never dropped.
 */
function otherFields(event: Event): Record<string, unknown> | undefined {
  const known = (KNOWN_EVENT_FIELDS as Readonly<Record<string, ReadonlySet<string>>>)[event.event];
  if (!known) return undefined;
  let out: Record<string, unknown> | undefined;
  for (const key of Object.keys(event)) {
    if (known.has(key)) continue;
    out ??= {};
    let value: unknown;
    try {
      value = (event as unknown as Record<string, unknown>)[key];
    } catch {
      value = '<getter threw>';
    }
    // `__proto__` as an own key must stay data, not become the prototype.
    Object.defineProperty(out, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/** Wraps a kind's function: envelope defaults, a search builder, the other-fields and metadata bodies. */
function describer<E extends Event>(fn: Describe<E>): EventDescriber {
  return (event, ctx) => {
    const base = ctx.base(event);
    const search = new SearchText(ctx.maxSearchText).add(base.kind);
    const out = fn(event as E, ctx, search);
    const display: EventDisplay = { ...base, ...out };
    // Find searches all the text a row shows: every body that is
    // open by default, whatever the kind's function chose to add (texts
    // already added are skipped by SearchText).
    for (const b of display.bodies) {
      if (displayNotes(b).collapsed !== true) search.addBundle(b);
    }
    const other = otherFields(event);
    if (other) {
      for (const key of Object.keys(other)) search.add(key);
      search.addValue(other);
      display.bodies = [
        ...display.bodies,
        json(other, 'Other fields', { collapsed: true }, ctx.display),
      ];
    }
    if (
      event.metadata &&
      typeof event.metadata === 'object' &&
      Object.keys(event.metadata).length > 0
    ) {
      search.addValue(event.metadata);
      display.bodies = [
        ...display.bodies,
        json(event.metadata, 'Metadata', { collapsed: true }, ctx.display),
      ];
    }
    const head =
      display.title === base.kind ? [display.subtitle] : [display.title, display.subtitle];
    return { ...display, ...search.result(head) };
  };
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

// ---------------------------------------------------------------------------
// Model and tool calls
// ---------------------------------------------------------------------------

/**
 * The input messages new to this call: those after the last assistant
 * message (the previous turn's output), so a long conversation is not shown
 * again on every call. Without an assistant message all of them are new.
 */
function newInput(input: ChatMessage[]): ChatMessage[] {
  for (let i = input.length - 1; i >= 0; i--) {
    if (input[i]?.role === 'assistant') return input.slice(i + 1);
  }
  return input;
}

const model = describer<ModelEvent>((e, ctx, search) => {
  const bodies: MimeBundle[] = [];
  const input = list(e.input) as ChatMessage[];
  const fresh = newInput(input);
  for (const message of fresh) bodies.push(...messageBodies(message, search, ctx.display));
  const choices = list(e.output?.choices) as NonNullable<ModelEvent['output']>['choices'];
  choices.forEach((choice, i) => {
    const message = choice?.message;
    if (!message) return;
    const label = choices.length > 1 ? `assistant (choice ${i + 1})` : 'assistant';
    bodies.push(...contentBodies(message.content, label, search, ctx.display));
    bodies.push(...toolCallBodies(message.tool_calls, search, ctx.display));
  });
  const tokens = eventTokens(e);
  if (tokens) bodies.push(plain(usageText(tokens), 'Usage'));
  // The failure is the outcome's (events/outcome.ts): `error`, minus the
  // cancel sentinels, which inspect tells renderers to suppress.
  const outcome = eventStatus(e);
  const error = outcome === 'error' ? eventError(e) : undefined;
  if (error !== undefined) {
    search.add(error.message).add(error.traceback);
    bodies.push(plain(error.tracebackAnsi ?? error.traceback ?? error.message, 'Error'));
  }
  // ModelOutput.error (a refusal, a content filter) is the model's answer,
  // not a failed call: shown and searched, status untouched.
  const outputError = typeof e.output?.error === 'string' ? e.output.error : undefined;
  if (outputError) {
    search.add(outputError);
    bodies.push(plain(outputError, 'Output error'));
  }
  const first = choices[0]?.message;
  const text = first ? contentText(first.content) : '';
  const calls = list(first?.tool_calls) as ToolCall[];
  let subtitle = markdownSummary(text);
  if (!subtitle && calls.length > 0) {
    subtitle = calls.map((c) => `${c.function}(${argsInline(c.arguments, 40)})`).join(', ');
  }
  if (!subtitle && outputError) subtitle = firstLine(outputError);
  if (error !== undefined) subtitle = firstLine(error.message);
  search.add(e.model).add(e.role);
  return {
    title: e.role ? `${e.model} (${e.role})` : String(e.model ?? 'model'),
    subtitle: shortValue(subtitle, 120),
    bodies,
  };
});

const tool = describer<ToolEvent>((e, ctx, search) => {
  const bodies: MimeBundle[] = [
    toolCallBody(e.function, e.arguments, e.view, 'Call', search, ctx.display),
  ];
  const result = e.result;
  const notes = Array.isArray(e.truncated)
    ? {
        truncated: true,
        note: `output truncated from ${e.truncated[0]} to ${e.truncated[1]} bytes`,
      }
    : {};
  if (typeof result === 'string') {
    search.add(result);
    if (result !== '') bodies.push(plain(result, 'Result', notes));
  } else if (typeof result === 'number' || typeof result === 'boolean') {
    search.add(String(result));
    bodies.push(plain(String(result), 'Result', notes));
  } else if (result && typeof result === 'object') {
    const parts = contentBodies(
      Array.isArray(result) ? result : [result],
      'Result',
      search,
      ctx.display,
    );
    bodies.push(...parts);
  }
  if (e.error) {
    search.add(e.error.message).add(e.error.type);
    bodies.push(plain(`${e.error.type}: ${e.error.message}`, 'Error'));
  }
  search.add(e.agent);
  return {
    title: e.agent ? `${e.agent} (agent)` : String(e.function ?? 'tool'),
    subtitle: e.error ? firstLine(e.error.message) : argsInline(e.arguments),
    bodies,
  };
});

// ---------------------------------------------------------------------------
// Sample lifecycle
// ---------------------------------------------------------------------------

const sampleInit = describer<SampleInitEvent>((e, ctx, search) => {
  const sample = e.sample ?? ({} as SampleInitEvent['sample']);
  const bodies: MimeBundle[] = [];
  if (typeof sample.input === 'string') {
    search.add(sample.input);
    bodies.push(markdown(sample.input, 'Input'));
  } else {
    for (const m of list(sample.input) as ChatMessage[])
      bodies.push(...messageBodies(m, search, ctx.display));
  }
  const target = Array.isArray(sample.target) ? sample.target.join('\n') : sample.target;
  if (target) {
    search.add(target);
    bodies.push(plain(target, 'Target'));
  }
  if (Array.isArray(sample.choices) && sample.choices.length > 0) {
    search.addValue(sample.choices);
    bodies.push(
      plain(
        sample.choices.map((c, i) => `${String.fromCharCode(65 + (i % 26))}) ${c}`).join('\n'),
        'Choices',
      ),
    );
  }
  if (sample.metadata && Object.keys(sample.metadata).length > 0) {
    search.addValue(sample.metadata);
    bodies.push(json(sample.metadata, 'Sample metadata', { collapsed: true }, ctx.display));
  }
  // The initial TaskState repeats the input and can be large: collapsed, not searched.
  if (e.state && typeof e.state === 'object')
    bodies.push(json(e.state, 'State', { collapsed: true }, ctx.display));
  const input =
    typeof sample.input === 'string'
      ? sample.input
      : contentText((list(sample.input) as ChatMessage[]).find((m) => m?.role === 'user')?.content);
  return {
    title: sample.id !== undefined && sample.id !== null ? `sample ${sample.id}` : 'sample',
    subtitle: markdownSummary(input),
    bodies,
  };
});

const sampleLimit = describer<SampleLimitEvent>((e, _ctx, search) => {
  search.add(e.message).add(e.type);
  const limit = typeof e.limit === 'number' ? ` (limit ${formatCount(e.limit)})` : '';
  return {
    title: `${e.type} limit`,
    subtitle: `${firstLine(e.message)}${limit}`,
    bodies: e.message ? [plain(e.message, 'Limit')] : [],
  };
});

const error = describer<ErrorEvent>((e, _ctx, search) => {
  const err = e.error ?? ({} as ErrorEvent['error']);
  search.add(err.message).add(err.traceback);
  const trace = err.traceback_ansi || err.traceback || err.message || '';
  return {
    title: 'error',
    subtitle: firstLine(err.message),
    bodies: trace ? [plain(trace, 'Traceback')] : [],
  };
});

const score = describer<ScoreEvent>((e, ctx, search) => {
  const s = e.score ?? ({} as ScoreEvent['score']);
  const value = shortValue(s.value, 80);
  search.add(value).add(s.answer).add(s.explanation).add(e.scorer);
  const bodies: MimeBundle[] = [
    typeof s.value === 'object' && s.value !== null
      ? json(s.value, 'Value', {}, ctx.display)
      : plain(value, 'Value'),
  ];
  if (s.answer) bodies.push(plain(s.answer, 'Answer'));
  if (s.explanation) bodies.push(markdown(s.explanation, 'Explanation'));
  const target = Array.isArray(e.target) ? e.target.join('\n') : e.target;
  if (target) {
    search.add(target);
    bodies.push(plain(target, 'Target'));
  }
  if (s.metadata && Object.keys(s.metadata).length > 0)
    bodies.push(json(s.metadata, 'Score metadata', { collapsed: true }, ctx.display));
  if (Array.isArray(s.history) && s.history.length > 0)
    bodies.push(json(s.history, 'History', { collapsed: true }, ctx.display));
  return {
    title: e.scorer ? `score: ${e.scorer}` : 'score',
    subtitle: `${value}${s.answer ? ` · answer: ${firstLine(s.answer, 60)}` : ''}${e.intermediate ? ' (intermediate)' : ''}`,
    bodies,
  };
});

const scoreEdit = describer<ScoreEditEvent>((e, ctx, search) => {
  const edit = e.edit ?? ({} as ScoreEditEvent['edit']);
  const changed = (v: unknown) => v !== undefined && v !== null && v !== 'UNCHANGED';
  const bodies: MimeBundle[] = [];
  const parts: string[] = [];
  if (changed(edit.value)) parts.push(`value → ${shortValue(edit.value, 60)}`);
  if (changed(edit.answer)) parts.push(`answer → ${firstLine(edit.answer, 60)}`);
  if (changed(edit.value)) bodies.push(valueBody(edit.value, 'Value', ctx.display));
  if (changed(edit.answer)) bodies.push(plain(String(edit.answer), 'Answer'));
  if (changed(edit.explanation)) bodies.push(markdown(String(edit.explanation), 'Explanation'));
  const p = edit.provenance;
  if (p) {
    search.add(p.author).add(p.reason);
    bodies.push(
      plain(
        [
          p.author && `by ${p.author}`,
          p.timestamp && `at ${p.timestamp}`,
          p.reason && `reason: ${p.reason}`,
        ]
          .filter(Boolean)
          .join('\n'),
        'Provenance',
      ),
    );
  }
  search.add(e.score_name).addValue(edit);
  return { title: `score edit: ${e.score_name}`, subtitle: parts.join(' · '), bodies };
});

// ---------------------------------------------------------------------------
// State and sandbox
// ---------------------------------------------------------------------------

function changeLine(c: JsonChange): string {
  const from = c.from ? ` from ${c.from}` : '';
  switch (c.op) {
    case 'replace':
      return `~ ${c.path}: ${shortValue(c.replaced, 60)} → ${shortValue(c.value, 60)}`;
    case 'add':
      return `+ ${c.path}: ${shortValue(c.value, 100)}`;
    case 'remove':
      return `- ${c.path}${c.replaced !== undefined ? `: ${shortValue(c.replaced, 100)}` : ''}`;
    default:
      return `${c.op} ${c.path}${from}${c.value !== undefined ? `: ${shortValue(c.value, 100)}` : ''}`;
  }
}

function changes(name: string) {
  return describer<StateEvent | StoreEvent>((e, ctx, search) => {
    const ops = list(e.changes) as JsonChange[];
    const paths = ops.map((c) => String(c?.path ?? ''));
    for (const c of ops) search.add(c?.path).addValue(c?.value);
    const shown = paths.slice(0, 3).join(', ') + (paths.length > 3 ? ', …' : '');
    return {
      title: name,
      subtitle: `${ops.length} ${ops.length === 1 ? 'change' : 'changes'}${shown ? `: ${shown}` : ''}`,
      bodies:
        ops.length === 0
          ? []
          : [
              plain(ops.map(changeLine).join('\n'), 'Changes'),
              json(ops, 'Patch', { collapsed: true }, ctx.display),
            ],
    };
  });
}

const sandbox = describer<SandboxEvent>((e, ctx, search) => {
  search.add(e.cmd).add(e.file).add(e.input).add(e.output);
  const bodies: MimeBundle[] = [];
  if (e.cmd)
    bodies.push(
      body(
        {
          'text/markdown': fence(e.cmd, 'bash'),
          'text/plain': e.cmd,
        },
        { label: 'Command' },
      ),
    );
  if (e.input) bodies.push(plain(e.input, e.action === 'write_file' ? 'Content' : 'Input'));
  if (e.output)
    bodies.push(
      plain(e.output, typeof e.result === 'number' ? `Output (exit ${e.result})` : 'Output'),
    );
  else if (typeof e.result === 'number') bodies.push(plain(`exit ${e.result}`, 'Exit code'));
  if (e.options && Object.keys(e.options).length > 0)
    bodies.push(json(e.options, 'Options', { collapsed: true }, ctx.display));
  return {
    title: `sandbox ${e.action}`,
    // A non-zero exit is information, not a failed step (events/outcome.ts).
    subtitle: [
      firstLine(e.cmd ?? e.file ?? ''),
      e.action === 'exec' && typeof e.result === 'number' && e.result !== 0
        ? `exit ${e.result}`
        : '',
    ]
      .filter(Boolean)
      .join(' · '),
    bodies,
  };
});

// ---------------------------------------------------------------------------
// Structure
// ---------------------------------------------------------------------------

const spanBegin = describer<SpanBeginEvent>((e, _ctx, search) => {
  search.add(e.type).add(e.id);
  return { title: String(e.name ?? 'span'), subtitle: e.type && e.type !== e.name ? e.type : '' };
});

const spanEnd = describer<SpanEndEvent>((e, _ctx, search) => {
  search.add(e.id);
  return { title: 'span end', subtitle: String(e.id ?? '') };
});

const step = describer<StepEvent>((e, _ctx, search) => {
  search.add(e.type);
  return {
    title: String(e.name ?? 'step'),
    subtitle: [e.type, e.action].filter(Boolean).join(' · '),
  };
});

const subtask = describer<SubtaskEvent>((e, ctx, search) => {
  search.addValue(e.input).addValue(e.result).add(e.type);
  const bodies: MimeBundle[] = [];
  if (e.input && Object.keys(e.input).length > 0)
    bodies.push(json(e.input, 'Input', {}, ctx.display));
  if (e.result !== undefined && e.result !== null)
    bodies.push(valueBody(e.result, 'Result', ctx.display));
  return {
    title: String(e.name ?? 'subtask'),
    subtitle: e.type && e.type !== e.name ? e.type : argsInline(e.input),
    bodies,
  };
});

const anchor = describer<AnchorEvent>((e, _ctx, search) => {
  search.add(e.anchor_id).add(e.source);
  return { title: 'anchor', subtitle: [e.anchor_id, e.source].filter(Boolean).join(' · ') };
});

const branch = describer<BranchEvent>((e, _ctx, search) => {
  search.add(e.from_anchor);
  return { title: 'branch', subtitle: e.from_anchor ? `from anchor ${e.from_anchor}` : '' };
});

const checkpoint = describer<CheckpointEvent>((e, ctx, search) => {
  const fields: Record<string, unknown> = {};
  for (const key of Object.keys(e))
    if (!ENVELOPE.has(key)) fields[key] = (e as Record<string, unknown>)[key];
  search.add(e.trigger).add(String(e.checkpoint_id));
  const parts = [
    e.trigger,
    typeof e.turn === 'number' ? `turn ${e.turn}` : '',
    typeof e.size_bytes === 'number' ? formatBytes(e.size_bytes) : '',
    typeof e.duration_ms === 'number' ? formatDuration(e.duration_ms) : '',
  ];
  // `duration_ms` is the snapshot's cost, shown in the subtitle; the event
  // itself is an instant, as in inspect's timeline (events/outcome.ts).
  return {
    title: `checkpoint ${e.checkpoint_id}`,
    subtitle: parts.filter(Boolean).join(' · '),
    bodies: [json(fields, 'Checkpoint', { collapsed: true }, ctx.display)],
  };
});

const compaction = describer<CompactionEvent>((e, _ctx, search) => {
  search.add(e.type).add(e.source).add(e.role);
  const tokens =
    typeof e.tokens_before === 'number' && typeof e.tokens_after === 'number'
      ? `${formatCount(e.tokens_before)} → ${formatCount(e.tokens_after)} tokens`
      : '';
  return {
    title: `compaction: ${e.type ?? 'summary'}`,
    subtitle: [tokens, e.source].filter(Boolean).join(' · '),
  };
});

// ---------------------------------------------------------------------------
// People in the loop
// ---------------------------------------------------------------------------

const approval = describer<ApprovalEvent>((e, ctx, search) => {
  const call = e.call ?? ({ function: '', arguments: {} } as unknown as ApprovalEvent['call']);
  const bodies: MimeBundle[] = [];
  if (e.message) {
    search.add(e.message);
    bodies.push(markdown(e.message, 'Message'));
  }
  bodies.push(
    toolCallBody(
      call.function,
      call.arguments,
      e.view?.call ?? call.view,
      'Call',
      search,
      ctx.display,
    ),
  );
  if (e.modified)
    bodies.push(
      toolCallBody(
        e.modified.function,
        e.modified.arguments,
        e.modified.view,
        'Modified call',
        search,
        ctx.display,
      ),
    );
  if (e.explanation) {
    search.add(e.explanation);
    bodies.push(markdown(e.explanation, 'Explanation'));
  }
  search.add(e.approver).add(e.decision);
  return {
    title: `approval: ${e.decision}`,
    subtitle: `${e.approver} · ${call.function}(${argsInline(call.arguments, 60)})`,
    bodies,
  };
});

const input = describer<InputEvent>((e, ctx, search) => {
  search.add(e.message).add(e.input);
  const bodies: MimeBundle[] = [];
  if (e.message) bodies.push(markdown(e.message, 'Prompt'));
  if (Array.isArray(e.fields) && e.fields.length > 0) {
    bodies.push(
      plain(
        e.fields
          .map((f) => `${f.name} (${f.type})${f.description ? `: ${f.description}` : ''}`)
          .join('\n'),
        'Fields',
      ),
    );
  }
  const answer = e.input_ansi || e.input;
  if (answer) bodies.push(plain(answer, 'Input'));
  if (e.content !== undefined && e.content !== null) {
    search.addValue(e.content);
    bodies.push(valueBody(e.content, 'Content', ctx.display));
  }
  return {
    title: 'input',
    subtitle: firstLine(e.input) || markdownSummary(e.message),
    bodies,
  };
});

const interrupt = describer<InterruptEvent>((e, _ctx, search) => {
  search.add(e.source).add(e.interrupted);
  return {
    title: 'interrupt',
    subtitle: `${e.source} during ${e.interrupted}`,
  };
});

// ---------------------------------------------------------------------------
// Logs and free-form output
// ---------------------------------------------------------------------------

const logger = describer<LoggerEvent>((e, _ctx, search) => {
  const m = e.message ?? ({} as LoggerEvent['message']);
  search.add(m.message).add(m.name).add(m.level).add(m.filename);
  const where = m.filename
    ? `${m.filename}${typeof m.lineno === 'number' ? `:${m.lineno}` : ''}`
    : '';
  return {
    title: `log ${m.level ?? ''}`.trim(),
    subtitle: firstLine(m.message),
    bodies:
      typeof m.message === 'string'
        ? [plain(m.message, [m.name, where].filter(Boolean).join(' · ') || 'Message')]
        : [],
  };
});

const info = describer<InfoEvent>((e, ctx, search) => {
  search.add(e.source);
  const data = e.data;
  if (typeof data === 'string') {
    search.add(data);
    return {
      title: e.source ? `info: ${e.source}` : 'info',
      subtitle: markdownSummary(data),
      bodies: [markdown(data, 'Info')],
    };
  }
  search.addValue(data);
  const bundle = data === undefined ? undefined : json(data, 'Info', {}, ctx.display);
  const summary = bundle ? firstLine(bundle.data['text/plain']) : '';
  return {
    title: e.source ? `info: ${e.source}` : 'info',
    subtitle: summary,
    bodies: bundle ? [bundle] : [],
  };
});

const message = describer<MessageEvent>((e, ctx, search) => {
  // Tool output is terminal text more often than markdown (as in messageBodies).
  const bodies =
    e.role === 'tool' && typeof e.content === 'string'
      ? (search.add(e.content), [plain(e.content, 'tool result')])
      : contentBodies(
          e.content,
          e.role === 'tool' ? 'tool result' : String(e.role),
          search,
          ctx.display,
        );
  bodies.push(...toolCallBodies(e.tool_calls, search, ctx.display));
  search.add(e.model).add(e.tool_call_id);
  const text = contentText(e.content);
  const calls = Array.isArray(e.tool_calls) ? e.tool_calls : [];
  return {
    title: e.model ? `${e.role} (${e.model})` : String(e.role ?? 'message'),
    subtitle:
      // Tool output is terminal text; other roles write markdown.
      (e.role === 'tool' ? firstLine(text) : markdownSummary(text)) ||
      calls.map((c) => `${c.function}(${argsInline(c.arguments, 40)})`).join(', ') ||
      (e.tool_call_id ? `result of ${e.tool_call_id}` : ''),
    bodies,
  };
});

const display = describer<DisplayEvent>((e, ctx, search) => {
  const bodies = list(e.outputs).map((output) => displayOf(output, ctx.display));
  for (const b of bodies) search.addBundle(b);
  const firstPlain = bodies.map((b) => b.data['text/plain']).find((t) => typeof t === 'string');
  const firstText =
    firstPlain ??
    markdownSummary(bodies.map((b) => b.data['text/markdown']).find((t) => typeof t === 'string'));
  search.add(e.display_id);
  return {
    title: e.display_id ? `display: ${e.display_id}` : 'display',
    subtitle:
      firstLine(firstText) ||
      bodies
        .map((b) => Object.keys(b.data)[0])
        .filter(Boolean)
        .join(', '),
    bodies,
  };
});

// ---------------------------------------------------------------------------
// The generic describer
// ---------------------------------------------------------------------------

/**
 * The describer of unknown kinds (and the fallback of a describer that
 * throws): every field of the event, the payload as JSON and each field on a
 * line of text; status, times and tokens from the event's outcome.
 * @internal
 * @example
 * import { genericDescriber } from 'src/core/display/describers.js';
 * declare const ctx: DescribeContext;
 * genericDescriber(events.unknown('future', { payload: 1 }), ctx).subtitle; // 'payload: 1'
 */
export const genericDescriber: EventDescriber = (event, ctx) => {
  const base = ctx.base(event);
  const search = new SearchText(ctx.maxSearchText).add(base.kind);
  const record = event as unknown as Record<string, unknown>;
  const fields: Record<string, unknown> = {};
  const lines: string[] = [];
  for (const key of Object.keys(record)) {
    if (key === 'event') continue;
    fields[key] = record[key];
    lines.push(`${key}: ${shortValue(record[key], 200)}`);
  }
  search.addValue(fields);
  const payload = Object.keys(fields).filter((k) => !ENVELOPE.has(k));
  const subtitle = payload
    .filter((k) => record[k] === null || typeof record[k] !== 'object')
    .slice(0, 3)
    .map((k) => `${k}: ${shortValue(record[k], 40)}`)
    .join(' · ');
  const bodies =
    lines.length === 0
      ? []
      : [body({ 'application/json': fields, 'text/plain': lines.join('\n') }, { label: 'Fields' })];
  // Status, times and tokens come from `base` (the event's outcome).
  return {
    ...base,
    subtitle,
    bodies,
    ...search.result(),
  };
};

/**
 * The built-in describer of every known kind.
 * @internal
 * @example
 * import { BUILTIN_DESCRIBERS } from 'src/core/display/describers.js';
 * declare const ctx: DescribeContext;
 * BUILTIN_DESCRIBERS.model(modelEvent, ctx).title; // 'model'
 */
export const BUILTIN_DESCRIBERS: Readonly<Record<EventKind, EventDescriber>> = {
  sample_init: sampleInit,
  sample_limit: sampleLimit,
  sandbox,
  state: changes('state'),
  store: changes('store'),
  model,
  tool,
  anchor,
  approval,
  branch,
  checkpoint,
  compaction,
  input,
  interrupt,
  score,
  score_edit: scoreEdit,
  error,
  logger,
  info,
  span_begin: spanBegin,
  span_end: spanEnd,
  step,
  subtask,
  message,
  display,
};
