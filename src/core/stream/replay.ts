/**
 * The plain-text transcript behind `EventStream.replay()`: one line per event,
 * indented by span depth, `+<seconds>s  <kind> <summary>`.
 *
 * It reads fields defensively (`field()` returns `unknown`): wire data lies
 * (inspect_ai's `log/_log.py`, "the types lie"), and a replay of a damaged log
 * should still print every line rather than throw.
 */
import { cappedIndent } from '../indent.js';
import { SkeinError } from '../errors.js';
import { eventTime } from '../events/event-time.js';
import type { Event } from '../events/types.js';

/** Longest summary, in characters, before it is cut with an ellipsis. */
const SUMMARY_MAX = 100;

/**
 * Formats `events` as a transcript. Depth follows inspect's structure: a span's
 * depth is its parent's plus one (by `parent_id`, known from a pre-pass over
 * every `span_begin`, so a child listed before its parent still nests), an
 * event sits one level inside the span named by its `span_id`, and legacy
 * `step` begin/end events (which carry no span ids) nest by a stack.
 *
 * @example
 * import { replayEvents } from 'src/core/stream/replay.js';
 * replayEvents(stream.latest()).split('\n')[0]; // '+0.000s  span_begin init (init)'
 */
export function replayEvents(events: readonly Event[]): string {
  if (events.length === 0) return '';

  // Pre-pass: every span's parent and name (event_tree does the same).
  const parentOf = new Map<string, string | null>();
  const nameOf = new Map<string, string>();
  for (const e of events) {
    if (e.event !== 'span_begin') continue;
    const id = str(field(e, 'id'));
    if (id === undefined) continue;
    parentOf.set(id, str(field(e, 'parent_id')) ?? null);
    nameOf.set(id, str(field(e, 'name')) ?? '');
  }
  const depthMemo = new Map<string, number>();
  const spanDepth = (id: string): number => {
    const known = depthMemo.get(id);
    if (known !== undefined) return known;
    // Walk up iteratively; the guard stops self or cyclic parent ids, which
    // event_tree does not defend against but a replay must survive.
    const chain: string[] = [];
    const onChain = new Set<string>();
    let cursor: string | null | undefined = id;
    let base = -1;
    while (cursor !== null && cursor !== undefined && parentOf.has(cursor)) {
      const memo = depthMemo.get(cursor);
      if (memo !== undefined) {
        base = memo;
        break;
      }
      if (onChain.has(cursor)) break;
      chain.push(cursor);
      onChain.add(cursor);
      cursor = parentOf.get(cursor);
    }
    for (let i = chain.length - 1; i >= 0; i--) depthMemo.set(chain[i]!, ++base);
    return depthMemo.get(id) ?? 0;
  };

  const t0 = timeOf(events[0]!);
  const offsets: string[] = new Array<string>(events.length);
  let width = 0;
  for (let i = 0; i < events.length; i++) {
    const t = timeOf(events[i]!);
    const text = Number.isFinite(t) && Number.isFinite(t0) ? formatOffset(t - t0) : '?';
    offsets[i] = text;
    if (text.length > width) width = text.length;
  }

  const lines: string[] = [];
  let stepDepth = 0;
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    let depth: number;
    if (e.event === 'span_begin' || e.event === 'span_end') {
      const id = str(field(e, 'id'));
      depth = id !== undefined && parentOf.has(id) ? spanDepth(id) : 0;
    } else if (e.event === 'step') {
      const action = field(e, 'action');
      if (action === 'end') stepDepth = Math.max(0, stepDepth - 1);
      depth = stepDepth;
      if (action === 'begin') stepDepth++;
    } else {
      const spanId = str(field(e, 'span_id'));
      depth = spanId !== undefined && parentOf.has(spanId) ? spanDepth(spanId) + 1 : stepDepth;
    }
    const summary = clip(summarize(e, nameOf));
    const pending = e.pending === true ? ' (pending)' : '';
    const head = `${offsets[i]!.padStart(width)}  ${cappedIndent(depth, '  ')}${e.event}`;
    lines.push(`${summary === '' ? head : `${head} ${summary}`}${pending}`);
  }
  return lines.join('\n');
}

/**
 * The clock {@link replayStream} waits on: injectable so tests run a replay of
 * hours in no time.
 *
 * @example
 * let t = 0; // a fake clock: sleeping only moves time on
 * const clock: ReplayClock = { now: () => t, sleep: async (ms) => void (t += ms) };
 */
export interface ReplayClock {
  /** Milliseconds on any monotonic-enough scale. */
  now(): number;
  /** Resolves after `ms` milliseconds. */
  sleep(ms: number): Promise<void>;
}

/**
 * Options of {@link replayStream}.
 *
 * @example
 * replayStream(stream.toArray(), { speed: 4, maxGap: 2000, from: 60_000 });
 */
export interface ReplayStreamOptions {
  /** Playback rate: 2 plays twice as fast. Default 1. */
  speed?: number;
  /**
   * Start here: milliseconds from the first event's time, or an ISO
   * timestamp. Events before it come at once (so a consumer has the state as
   * of `from`), then the timing starts. Default: the first event.
   */
  from?: number | string;
  /** Stop after the last event at or before this point (same units as `from`). Default: the end. */
  to?: number | string;
  /**
   * Longest wait between two events, in recorded milliseconds (before
   * `speed`): idle stretches (a model call that took minutes, a run paused
   * overnight) are cut to this. Default 5000.
   */
  maxGap?: number;
  /** Default: `Date.now` and `setTimeout`. */
  clock?: ReplayClock;
}

const systemClock: ReplayClock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
};

/**
 * Plays a recorded run back with its original timing: yields each event when
 * its time comes, the gaps between events scaled by `speed` and capped by
 * `maxGap`. Event times are their `timestamp`s; one out of order or missing
 * waits for nothing. Waits are scheduled against the clock from the start,
 * so timer lateness does not add up over a long replay. Stop early with
 * `break` (or `return()` on the iterator).
 *
 * @example
 * const live = new EventStream();
 * const recorded = generateRun({ seed: 1, events: 200 });
 * for await (const event of replayStream(recorded, { speed: 10 })) live.append(event);
 */
export async function* replayStream(
  events: Iterable<Event>,
  options: ReplayStreamOptions = {},
): AsyncGenerator<Event, void, undefined> {
  const speed = options.speed ?? 1;
  if (!(speed > 0) || !Number.isFinite(speed))
    throw new SkeinError(
      'invalid_argument',
      'replayStream',
      'speed',
      'a positive number',
      String(speed),
    );
  const maxGap = options.maxGap ?? 5000;
  if (!(maxGap >= 0))
    throw new SkeinError('invalid_argument', 'replayStream', 'maxGap', '0 or more', String(maxGap));
  const clock = options.clock ?? systemClock;
  const list = Array.isArray(events) ? (events as readonly Event[]) : [...events];
  if (list.length === 0) return;

  let t0 = NaN;
  for (const e of list) {
    const t = eventTime(e);
    if (Number.isFinite(t)) {
      t0 = t;
      break;
    }
  }
  const point = (name: string, value: number | string | undefined, fallback: number): number => {
    if (value === undefined) return fallback;
    if (typeof value === 'number') return t0 + value;
    const ms = Date.parse(value);
    if (Number.isNaN(ms)) {
      const expected = 'ms from the first event or an ISO 8601 time';
      throw new SkeinError(
        'invalid_argument',
        'replayStream',
        name,
        expected,
        JSON.stringify(value),
      );
    }
    return ms;
  };
  const from = point('from', options.from, -Infinity);
  const to = point('to', options.to, Infinity);

  // Recorded time of the previous event (for gaps), and the playback offset
  // (ms of wall time after the start) at which the current event is due.
  let previous = NaN;
  let offset = 0;
  let start = NaN;
  for (const event of list) {
    const t = eventTime(event);
    if (Number.isFinite(t) && t > to) return;
    if (Number.isFinite(t) && t < from) {
      previous = t;
      yield event;
      continue;
    }
    if (Number.isNaN(start)) {
      start = clock.now();
      // Playback starts at `from` (or the first timed event), not before.
      if (Number.isFinite(from) && Number.isFinite(t) && Number.isFinite(previous))
        previous = Math.max(previous, from);
      else if (Number.isFinite(from)) previous = from;
    }
    if (Number.isFinite(t)) {
      if (Number.isFinite(previous) && t > previous)
        offset += Math.min(t - previous, maxGap) / speed;
      previous = Number.isFinite(previous) ? Math.max(previous, t) : t;
    }
    const wait = start + offset - clock.now();
    if (wait > 0) await clock.sleep(wait);
    yield event;
  }
}

/** `+12.345s`, or `-0.002s` for an event stamped before the first one. */
function formatOffset(ms: number): string {
  const sign = ms < 0 ? '-' : '+';
  return `${sign}${(Math.abs(ms) / 1000).toFixed(3)}s`;
}

function timeOf(e: Event): number {
  return eventTime(e);
}

/** The short, one-line summary for each kind (inspect_ai's `event/` models). */
function summarize(e: Event, nameOf: ReadonlyMap<string, string>): string {
  switch (e.event) {
    case 'span_begin': {
      const name = str(field(e, 'name')) ?? '';
      const type = str(field(e, 'type'));
      return type !== undefined && type !== name ? `${name} (${type})` : name;
    }
    case 'span_end':
      return nameOf.get(str(field(e, 'id')) ?? '') ?? str(field(e, 'id')) ?? '';
    case 'step':
      return `${str(field(e, 'action')) ?? ''} ${str(field(e, 'name')) ?? ''}`.trim();
    case 'sample_init': {
      const sample = field(e, 'sample');
      return quote(contentText(field(sample, 'input')));
    }
    case 'model':
      return summarizeModel(e);
    case 'tool': {
      const call = `${str(field(e, 'function')) ?? '?'}(${formatArgs(field(e, 'arguments'))})`;
      const error = field(e, 'error');
      if (error !== undefined && error !== null) {
        return `${call} ✗ ${str(field(error, 'type')) ?? 'error'}: ${firstLine(str(field(error, 'message')) ?? '')}`;
      }
      const result = contentText(field(e, 'result'));
      return result === '' ? call : `${call} → ${firstLine(result)}`;
    }
    case 'sandbox': {
      const action = str(field(e, 'action')) ?? '';
      const target = str(field(e, 'cmd')) ?? str(field(e, 'file')) ?? '';
      const exit = field(e, 'result');
      return `${action} ${firstLine(target)}${typeof exit === 'number' ? ` → exit ${exit}` : ''}`;
    }
    case 'error':
      return firstLine(str(field(field(e, 'error'), 'message')) ?? '');
    case 'score': {
      const score = field(e, 'score');
      const scorer = str(field(e, 'scorer'));
      const value = compactJson(field(score, 'value'));
      return scorer !== undefined ? `${scorer}: ${value}` : value;
    }
    case 'score_edit':
      return `${str(field(e, 'score_name')) ?? ''} → ${compactJson(field(field(e, 'edit'), 'value'))}`;
    case 'logger': {
      const message = field(e, 'message');
      return `${str(field(message, 'level')) ?? ''} ${firstLine(str(field(message, 'message')) ?? '')}`.trim();
    }
    case 'info': {
      const source = str(field(e, 'source'));
      const data = field(e, 'data');
      const text = typeof data === 'string' ? firstLine(data) : compactJson(data);
      return source !== undefined ? `${source}: ${text}` : text;
    }
    case 'state':
    case 'store': {
      const changes = field(e, 'changes');
      const n = Array.isArray(changes) ? changes.length : 0;
      return `${n} change${n === 1 ? '' : 's'}`;
    }
    case 'compaction': {
      const before = field(e, 'tokens_before');
      const after = field(e, 'tokens_after');
      const tokens =
        typeof before === 'number' && typeof after === 'number'
          ? ` ${before} → ${after} tokens`
          : '';
      return `${str(field(e, 'type')) ?? 'summary'}${tokens}`;
    }
    case 'anchor':
      return str(field(e, 'anchor_id')) ?? '';
    case 'branch':
      return `from ${str(field(e, 'from_anchor')) ?? ''}`;
    case 'sample_limit':
      return `${str(field(e, 'type')) ?? ''}: ${firstLine(str(field(e, 'message')) ?? '')}`;
    case 'approval':
      return `${str(field(e, 'decision')) ?? ''} ${str(field(field(e, 'call'), 'function')) ?? ''}`.trim();
    case 'input':
      return quote(str(field(e, 'input')) ?? '');
    case 'interrupt':
      return `${str(field(e, 'source')) ?? ''} during ${str(field(e, 'interrupted')) ?? ''}`;
    case 'checkpoint':
      return `${compactJson(field(e, 'checkpoint_id'))} (${str(field(e, 'trigger')) ?? ''})`;
    case 'subtask':
      return str(field(e, 'name')) ?? '';
    case 'message':
      return `${str(field(e, 'role')) ?? ''} ${quote(contentText(field(e, 'content')))}`.trim();
    case 'display': {
      const outputs = field(e, 'outputs') ?? field(e, 'bundles');
      if (!Array.isArray(outputs)) return '';
      const types = new Set<string>();
      for (const bundle of outputs) {
        const data = field(bundle, 'data') ?? bundle;
        if (typeof data === 'object' && data !== null) for (const k in data) types.add(k);
      }
      return [...types].join(', ');
    }
    default:
      return '';
  }
}

function summarizeModel(e: Event): string {
  const model = str(field(e, 'model')) ?? '?';
  const error = str(field(e, 'error'));
  if (error !== undefined) return `${model} ✗ ${firstLine(error)}`;
  const output = field(e, 'output');
  const choices = field(output, 'choices');
  const message = Array.isArray(choices) ? field(choices[0], 'message') : undefined;
  const parts: string[] = [model];
  // `completion` is often written empty (inspect fills it only for some
  // providers; importers default it to ''): the answer is then the message's.
  const completion = str(field(output, 'completion'));
  const text = completion ? completion : contentText(field(message, 'content'));
  if (text !== '') parts.push(quote(text));
  const calls = field(message, 'tool_calls');
  if (Array.isArray(calls) && calls.length > 0) {
    const names = calls.map((c) => str(field(c, 'function')) ?? '?');
    parts.push(`→ ${names.join(', ')}`);
  }
  return parts.join(' ');
}

/** Reads `obj[key]` from anything, `undefined` when `obj` is not an object. */
function field(obj: unknown, key: string): unknown {
  return typeof obj === 'object' && obj !== null
    ? (obj as Record<string, unknown>)[key]
    : undefined;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Text of a message `content` or a tool `result`: a string or a list of parts. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (typeof content === 'number' || typeof content === 'boolean') return String(content);
  if (Array.isArray(content)) {
    for (const part of content) {
      if (typeof part === 'string') return part;
      const text = str(field(part, 'text'));
      if (text !== undefined && text !== '') return text;
    }
    return '';
  }
  return str(field(content, 'text')) ?? '';
}

function firstLine(text: string): string {
  const trimmed = text.trimStart();
  const nl = trimmed.indexOf('\n');
  return nl === -1 ? trimmed : trimmed.slice(0, nl);
}

function quote(text: string): string {
  const line = firstLine(text);
  return line === ''
    ? ''
    : JSON.stringify(line.length > SUMMARY_MAX ? line.slice(0, SUMMARY_MAX) : line);
}

function compactJson(value: unknown): string {
  if (value === undefined) return '';
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  if (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    text.startsWith('{')
  ) {
    text = text.slice(1, -1);
  }
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

/** Tool arguments as `key=value, …` with JSON values: `bash(cmd="ls -la")`. */
function formatArgs(args: unknown): string {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return compactJson(args);
  const parts: string[] = [];
  for (const key in args)
    parts.push(`${key}=${compactJson((args as Record<string, unknown>)[key])}`);
  const text = parts.join(', ');
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

function clip(text: string): string {
  return text.length > SUMMARY_MAX * 1.6 ? `${text.slice(0, SUMMARY_MAX * 1.6 - 1)}…` : text;
}
