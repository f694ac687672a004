// Past 600 lines: building the steps is one pass over the tree with the per-step
// keys, signatures and facts that the aligner and the rows read.
/**
 * A run's steps: the span tree (core `buildEventTree`, inspect's
 * `event_tree`) turned into the list the run diff aligns. Structure comes
 * from the tree; each step's status, times and tokens from core's outcome
 * functions (`eventStatus`, `eventEnd`, `eventCountedTokens`, `eventCost`)
 * and a span's from `spanSummary`, never re-derived here.
 *
 * What a step is, on top of the tree:
 * - Event kinds that are bookkeeping ({@link DEFAULT_DIFF_HIDDEN}) are not
 *   steps.
 * - A tool span (`type: 'tool'`) and the tool event after it with the same
 *   function are one step: inspect writes the ToolEvent beside the span that
 *   holds what the tool did (inspect_ai's `span()`), and a sub-agent
 *   the tool ran sits in that span. The step is the tool call; the span's
 *   steps are its children.
 * - Consecutive `message` chunks with one `message_id` are one message.
 * - A sub-agent span beside the tool call that ran it (the call's
 *   `agent_span_id`, as the OTLP importer places it) moves under the call,
 *   where inspect has it.
 * - Among the children of one span, a model call and the steps after it up
 *   to the next model call or span form a **turn** (inspect's outline groups
 *   a model call and its tool calls the same way). Tool calls inside a turn came
 *   from one model response, so the aligner matches them regardless of the
 *   order they finished in.
 *
 * Each step has a signature (its key: kind, tool and normalised arguments,
 * model, span name and type) and a coarse key (kind and name only): equal
 * keys are the same step; equal coarse keys may pair as `changed`.
 */
import { eventTreeNodeKey, type EventTree } from '../tree/event-tree.js';
import { spanSummary } from '../transcript/rows.js';
import { eventTime } from '../events/event-time.js';
import {
  eventCost,
  eventCountedTokens,
  eventEnd,
  eventStatus,
  isAbortedEvent,
  type EventStatus,
} from '../events/outcome.js';
import type { Content, Event } from '../events/types.js';
import { normalizedText, sortStrings, type IgnoreSet } from './normalize.js';
import type { RunStep } from './types.js';

/**
 * Event kinds that are not steps by default: sandbox commands (what a tool
 * did, inside its tool span), state and store changes, log records, info
 * events, anchors, branch markers and checkpoints.
 *
 * @example
 * declare const a: Event[], b: Event[];
 * diffRuns(a, b, { hide: [...DEFAULT_DIFF_HIDDEN, 'sample_init'] });
 */
export const DEFAULT_DIFF_HIDDEN: readonly string[] = Object.freeze([
  'sandbox',
  'state',
  'store',
  'logger',
  'info',
  'anchor',
  'branch',
  'checkpoint',
]);

/** Labels longer than this are cut with `…`. */
const LABEL_MAX = 120;
/** Characters of normalised arguments in a tool step's signature. */
const ARGS_MAX = 240;
/** How far past a tool span the tool event that belongs to it is looked for. */
const TOOL_LOOKAHEAD = 64;

/** A run's steps and what the aligner needs about each. Internal. */
export interface StepTable {
  readonly tree: EventTree;
  readonly steps: readonly RunStep[];
  /** Interned signature per step. */
  readonly key: Int32Array;
  /** Interned middle key per step: a turn's model call's signature; else the coarse key. */
  readonly mid: Int32Array;
  /** Interned coarse key (kind and name) per step. */
  readonly coarse: Int32Array;
  /** The text of each interned id (`texts[key[s]]`: step `s`'s signature). */
  readonly texts: readonly string[];
  /** Height of the subtree (0 for a leaf). */
  readonly height: Int32Array;
  /** A hash of the subtree's signatures and shape. */
  readonly digest: Float64Array;
  /** What `same` compares: the event (a span's begin), a merged message; `null` for a turn. */
  readonly content: readonly (Readonly<Record<string, unknown>> | null)[];
  /** 1 for a turn (tool calls inside are unordered). */
  readonly turn: Uint8Array;
  /** The step's event, `undefined` for a turn. */
  readonly event: readonly (Event | undefined)[];
}

/** Signatures as numbers, shared by both runs: equal texts get equal ids. Internal. */
export interface Interner {
  readonly ids: Map<string, number>;
  /** The text of each id. */
  readonly texts: string[];
  /**
   * A hash of each id's text (16 hex digits), made when first asked for:
   * what a turn's signature is made of, so that it does not depend on
   * which run was read first.
   */
  readonly hashes: (string | undefined)[];
}

/** Options of {@link stepsJob}. Internal. */
export interface StepOptions {
  readonly hidden: ReadonlySet<string>;
  readonly ignore: IgnoreSet;
  readonly key: ((step: RunStep, event: Event | undefined) => string | undefined) | undefined;
  /** Shared by both runs, so equal keys get equal ids. */
  readonly intern: Interner;
  /** Steps of events seen before (a live run's earlier versions), by event. */
  readonly leaves?: WeakMap<Event, Leaf>;
}

/** One child of a span before it becomes a step. */
interface Item {
  /** The tree node (a turn: its model call's). */
  node: number;
  /** A tool span merged into this tool event, or -1. */
  span: number;
  /** Message chunks merged into one message (node indexes), or `null`. */
  chunks: number[] | null;
  /** A turn's members, or `null`. */
  members: Item[] | null;
  /** Sub-agent spans a tool call names by `agent_span_id` that sit beside it, or `null`. */
  adopted: Item[] | null;
}

interface MutableStep {
  index: number;
  kind: string;
  name: string;
  label: string;
  depth: number;
  parent: number;
  end: number;
  uuid: string;
  status: EventStatus;
  tokens: number;
  start: number | null;
  durationMs: number | null;
  cost: number | null;
  aborted?: true;
}

function field(event: Event, key: string): unknown {
  return (event as unknown as Record<string, unknown>)[key];
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function cut(text: string, max = LABEL_MAX): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Text of message content: a string, or the text parts of a content list. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let out = '';
  for (const part of content as Content[]) {
    if (part !== null && typeof part === 'object' && part.type === 'text') {
      out += (out === '' ? '' : ' ') + str(part.text);
    }
  }
  return out;
}

/**
 * A model name without its provider prefix and date suffix, lower case:
 * `anthropic/claude-sonnet-4-5-20250929` and `claude-sonnet-4-5` are one
 * model (importers of different formats write it differently).
 */
export function normalizeModel(model: string): string {
  let out = modelNames.get(model);
  if (out === undefined) {
    const slash = model.lastIndexOf('/');
    out = (slash >= 0 ? model.slice(slash + 1) : model)
      .toLowerCase()
      .replace(/[-@]\d{8}$/, '')
      .replace(/-\d{4}-\d{2}-\d{2}$/, '');
    // A run names a handful of models; a hostile one cannot grow this far.
    if (modelNames.size > 1024) modelNames.clear();
    modelNames.set(model, out);
  }
  return out;
}

const modelNames = new Map<string, string>();

/**
 * The first `n` characters of `text` with every run of white space folded
 * to one space and the ends trimmed: enough for a label or a key, without
 * reading the rest of a long text.
 */
function head(text: string, n = 200): string {
  // One scan; the stretches between white space that needs folding (all
  // but a single space inside the text) are sliced whole, and a text that
  // needs none is returned as it is. Characters are taken while the output
  // is shorter than `n`, so a space at `n - 1` brings the character after
  // it.
  let i = 0;
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  let out = '';
  let seg = i;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (!isSpace(c)) {
      i++;
      if (out.length + (i - seg) > n) break;
      continue;
    }
    let k = i + 1;
    while (k < text.length && isSpace(text.charCodeAt(k))) k++;
    if (k === text.length) break;
    if (c === 32 && k === i + 1) {
      i = k;
      if (out.length + (i - seg) > n) break;
      continue;
    }
    out += `${text.slice(seg, i)} `;
    seg = k;
    i = k;
    if (out.length > n) break;
  }
  const f = seg === 0 && i === text.length ? text : out + text.slice(seg, i);
  if (f.length <= n) return f;
  return f.charCodeAt(n - 1) === 32 ? f.slice(0, n + 1) : f.slice(0, n);
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 12 || c === 11 || c === 0xa0;
}

function completionText(event: Event): string {
  const output = field(event, 'output') as
    { completion?: unknown; choices?: { message?: { content?: unknown } }[] } | undefined;
  if (output === undefined || output === null || typeof output !== 'object') return '';
  const completion = str(output.completion);
  if (completion !== '') return completion;
  return contentText(output.choices?.[0]?.message?.content);
}

/** The function names of the tool calls a model call's output asks for, sorted. */
function requestedCalls(event: Event): string {
  const output = field(event, 'output') as
    { choices?: { message?: { tool_calls?: { function?: unknown }[] | null } }[] } | undefined;
  const calls = output?.choices?.[0]?.message?.tool_calls;
  if (!Array.isArray(calls) || calls.length === 0) return '';
  if (calls.length === 1) return str(calls[0]?.function).toLowerCase();
  const names: string[] = [];
  for (const call of calls) names.push(str(call?.function).toLowerCase());
  // `sortStrings`: `Array.prototype.sort` copies the list for each call.
  sortStrings(names);
  return names.join(' ');
}

/** The children of tree range `[start, end)` as items (module comment). */
function childItems(tree: EventTree, start: number, end: number, hidden: ReadonlySet<string>) {
  const { events, spanIndex, subtreeEnd, spans } = tree;
  const list: Item[] = [];
  for (let c = start; c < end; c = subtreeEnd[c]!) {
    if (spanIndex[c]! < 0 && hidden.has(events[c]!.event)) continue;
    list.push({ node: c, span: -1, chunks: null, members: null, adopted: null });
  }
  // A tool span and the tool event after it with the same function: one step.
  let removed = false;
  for (let i = 0; i < list.length; i++) {
    const s = spanIndex[list[i]!.node]!;
    if (s < 0 || spans[s]!.type !== 'tool') continue;
    const name = spans[s]!.name;
    const last = Math.min(list.length, i + 1 + TOOL_LOOKAHEAD);
    for (let j = i + 1; j < last; j++) {
      const item = list[j]!;
      if (spanIndex[item.node]! >= 0) continue;
      const e = events[item.node]!;
      if (e.event === 'model') break;
      if (e.event === 'tool' && item.span < 0 && str(field(e, 'function')) === name) {
        item.span = list[i]!.node;
        list[i]!.node = -1;
        removed = true;
        break;
      }
    }
  }
  // A sub-agent span beside the tool call that ran it (`agent_span_id`, as
  // the OTLP importer places it): under the call, where inspect has it.
  let byId: Map<string, Item> | null = null;
  for (const item of list) {
    if (item.node < 0 || spanIndex[item.node]! >= 0) continue;
    const e = events[item.node]!;
    const agent = e.event === 'tool' ? field(e, 'agent_span_id') : undefined;
    if (typeof agent !== 'string' || agent === '') continue;
    if (byId === null) {
      byId = new Map();
      for (const other of list) {
        const s = other.node >= 0 ? spanIndex[other.node]! : -1;
        if (s >= 0) byId.set(spans[s]!.id, other);
      }
    }
    const child = byId.get(agent);
    if (child === undefined || child.node < 0) continue;
    (item.adopted ??= []).push({ ...child });
    child.node = -1;
    removed = true;
  }
  // One pass over what is left: chunks of one message merge, then turns (a
  // model call and what follows it, up to the next model call) form. Two
  // passes built two more lists per span, tool spans included.
  if (list.length === 0) return list;
  const out: Item[] = [];
  let turn: Item | null = null;
  // The last item kept (in `out` or in a turn): a chunk of its message joins it.
  let prev: Item | undefined;
  for (const item of list) {
    if (removed && item.node < 0) continue;
    const e = events[item.node]!;
    const isSpan = spanIndex[item.node]! >= 0;
    if (e.event === 'message' && !isSpan && prev !== undefined) {
      const id = str(field(e, 'message_id'));
      const first = events[prev.node]!;
      if (
        id !== '' &&
        first.event === 'message' &&
        spanIndex[prev.node]! < 0 &&
        str(field(first, 'message_id')) === id
      ) {
        (prev.chunks ??= [prev.node]).push(item.node);
        continue;
      }
    }
    prev = item;
    if (!isSpan && e.event === 'model') {
      turn = { node: item.node, span: -1, chunks: null, members: [item], adopted: null };
      out.push(turn);
    } else if (turn !== null && !isSpan) turn.members!.push(item);
    else {
      // A span of its own (a sub-agent, a user turn, a branch) ends a turn.
      turn = null;
      out.push(item);
    }
  }
  return out;
}

/** What a step made of one event is, computed once per event version. Internal. */
export interface Leaf {
  readonly kind: string;
  readonly name: string;
  readonly label: string;
  readonly key: string;
  readonly coarse: string;
  readonly status: EventStatus;
  readonly tokens: number;
  readonly durationMs: number | null;
  readonly cost: number | null;
  readonly aborted: boolean;
  /** Start and end, epoch ms (NaN when unknown). */
  readonly start: number;
  readonly end: number;
  /** A message's text (all its chunks). */
  readonly text: string;
}

/** A {@link Leaf} being filled. */
type MutableLeaf = { -readonly [K in keyof Leaf]: Leaf[K] };

function emptyLeaf(): MutableLeaf {
  return {
    kind: '',
    name: '',
    label: '',
    key: '',
    coarse: '',
    status: 'ok',
    tokens: 0,
    durationMs: null,
    cost: null,
    aborted: false,
    start: Number.NaN,
    end: Number.NaN,
    text: '',
  };
}

/**
 * Filled for each step a diff keeps no leaf of (`diffRuns`, message
 * chunks): its fields are copied into the step right away, and a new object
 * per event was about 130 bytes of garbage per step.
 */
const scratchLeaf = emptyLeaf();

/**
 * The step of event `e` (with `chunks`: a message made of these chunks),
 * written into `out`.
 */
function leafOf(
  e: Event,
  ignore: IgnoreSet,
  chunks: readonly Event[] | null,
  out: MutableLeaf,
): Leaf {
  const end = eventEnd(e);
  const start = eventTime(e);
  const aborted = isAbortedEvent(e);
  const cost = eventCost(e);
  let name = '';
  let label = '';
  let key = '';
  let coarse = '';
  let text = '';
  switch (e.event) {
    case 'model': {
      const model = str(field(e, 'model'));
      name = model;
      const said = head(completionText(e));
      label = cut(said === '' ? model : `${model}: ${said}`);
      // The calls it asked for: an answer and a request for `bash` are
      // different steps, whatever the tools then did.
      key = `m\u0000${normalizeModel(model)}\u0000${requestedCalls(e)}`;
      coarse = 'm';
      break;
    }
    case 'tool': {
      const fn = str(field(e, 'function'));
      name = fn;
      const args = normalizedText(field(e, 'arguments'), ignore, ARGS_MAX, null);
      label = cut(`${fn} ${args}`);
      key = `t\u0000${fn.toLowerCase()}\u0000${args}`;
      coarse = `t\u0000${fn.toLowerCase()}`;
      break;
    }
    case 'message': {
      const role = str(field(e, 'role'));
      name = role;
      if (chunks === null) text = contentText(field(e, 'content'));
      else for (const chunk of chunks) text += contentText(field(chunk, 'content'));
      const folded = head(text);
      label = cut(`${role}: ${folded}`);
      key = `g\u0000${role}\u0000${folded.slice(0, 80)}`;
      coarse = `g\u0000${role}`;
      break;
    }
    case 'error': {
      const message = str((field(e, 'error') as { message?: unknown } | null)?.message);
      name = head(message.split('\n', 1)[0] ?? '');
      label = cut(`error: ${name}`);
      key = `e\u0000${name}`;
      coarse = 'e';
      break;
    }
    case 'score': {
      name = str(field(e, 'scorer'));
      const score = field(e, 'score') as { value?: unknown } | null;
      const value = normalizedText(score?.value, ignore, 60, null);
      label = cut(`score${name === '' ? '' : ` ${name}`}: ${value}`);
      key = `c\u0000${name}`;
      coarse = 'c';
      break;
    }
    default: {
      name = str(field(e, 'name')) || str(field(e, 'type'));
      label = cut(name === '' ? e.event : `${e.event} ${name}`);
      key = `k\u0000${e.event}\u0000${name}`;
      coarse = `k\u0000${e.event}`;
    }
  }
  out.kind = e.event;
  out.name = name;
  out.label = label;
  out.key = key;
  out.coarse = coarse;
  out.status = eventStatus(e);
  out.tokens = eventCountedTokens(e);
  out.durationMs = end !== undefined && Number.isFinite(start) ? end - start : null;
  out.cost = cost !== undefined && !aborted ? cost : null;
  out.aborted = aborted;
  out.start = start;
  out.end = end ?? start;
  out.text = text;
  return out;
}

/** Two 32-bit FNV-1a lanes over `text`, as 16 hex digits. */
function hashText(text: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995) ^ (h2 >>> 15);
  }
  return (h1 >>> 0).toString(16).padStart(8, '0') + (h2 >>> 0).toString(16).padStart(8, '0');
}

/** A turn's members' signature hashes, kept between turns (sorted and joined at once). */
const scratchMembers: string[] = [];

/** `to` holding `from` at its start. */
function grown<T extends Int32Array | Uint8Array | Float64Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

/** FNV-1a style mixing of 32-bit ints, two lanes for a 53-bit digest. */
function mix(h: number, x: number): number {
  h ^= x;
  return Math.imul(h, 0x01000193) >>> 0;
}

/** Steps between two pauses of a job ({@link stepsJob}, the engine's rows). Internal. */
export const JOB_STRIDE = 1024;

/** Runs `job` to its end. Internal. */
export function finish<T>(job: Generator<void, T>): T {
  for (;;) {
    const r = job.next();
    if (r.done === true) return r.value;
  }
}

/**
 * The steps of `tree` (module comment): pre-order, with signatures interned
 * in `options.intern`. Iterative: O(n) in the tree's nodes whatever its
 * depth. A job: it pauses (yields) every {@link JOB_STRIDE} steps, so that
 * a caller can spread a large run over several tasks (`createRunDiff`'s
 * `sliceMs`); {@link finish} runs it whole. Internal.
 */
export function* stepsJob(tree: EventTree, options: StepOptions): Generator<void, StepTable> {
  const { hidden, ignore, intern } = options;
  const { events, spanIndex, spans, subtreeEnd } = tree;
  const steps: MutableStep[] = [];
  // Interned as they are made, so the texts die young (a turn's key and a
  // custom key are made bottom-up, below).
  // Per-step columns, typed and grown by doubling from the tree's size
  // (about one step per node): lists grown a push at a time were copied
  // over and over, 12 MB of a diff of two 100k-step runs.
  let cap = tree.length + 16;
  let keyIds = new Int32Array(cap);
  let coarseIds = new Int32Array(cap);
  let turnFlag = new Uint8Array(cap);
  // Start and end (epoch ms) of each event step, for its turn's duration.
  let startMs = new Float64Array(cap);
  let endMs = new Float64Array(cap);
  const id = (text: string): number => {
    let k = intern.ids.get(text);
    if (k === undefined) {
      k = intern.texts.length;
      intern.ids.set(text, k);
      intern.texts.push(text);
    }
    return k;
  };
  const content: (Readonly<Record<string, unknown>> | null)[] = [];
  const stepEvent: (Event | undefined)[] = [];
  let turns = 0;

  const frames: { items: Item[]; pos: number; parent: number }[] = [
    { items: childItems(tree, 0, tree.length, hidden), pos: 0, parent: -1 },
  ];
  while (frames.length > 0) {
    const frame = frames[frames.length - 1]!;
    if (frame.pos >= frame.items.length) {
      frames.pop();
      if (frame.parent >= 0) steps[frame.parent]!.end = steps.length;
      continue;
    }
    const item = frame.items[frame.pos++]!;
    const s = steps.length;
    if (s % JOB_STRIDE === JOB_STRIDE - 1) yield;
    const step: MutableStep = {
      index: s,
      kind: '',
      name: '',
      label: '',
      depth: frames.length - 1,
      parent: frame.parent,
      end: s + 1,
      uuid: '',
      status: 'ok',
      tokens: 0,
      start: null,
      durationMs: null,
      cost: null,
    };
    steps.push(step);
    let children: Item[] | null = null;
    let key = '';
    let coarse = '';
    let compared: Readonly<Record<string, unknown>> | null = null;
    let event: Event | undefined = events[item.node]!;
    let t0 = Number.NaN;
    let t1 = Number.NaN;
    if (item.members !== null) {
      // A turn: its key needs its members' keys (computed bottom-up below).
      turns++;
      event = undefined;
      step.kind = 'turn';
      step.name = str(field(events[item.node]!, 'model'));
      step.label = `turn ${turns}`;
      step.uuid = `turn:${eventTreeNodeKey(tree, item.node)}`;
      children = item.members;
    } else if (spanIndex[item.node]! >= 0) {
      const span = spans[spanIndex[item.node]!]!;
      step.kind = 'span';
      step.name = span.name;
      const type = span.type ?? '';
      step.label = cut(type !== '' && type !== span.name ? `${span.name} (${type})` : span.name);
      step.uuid = eventTreeNodeKey(tree, item.node);
      const summary = spanSummary(tree, item.node);
      const begun = eventTime(span.begin);
      if (Number.isFinite(begun)) step.start = begun;
      step.status = summary.status;
      step.durationMs = Number.isFinite(summary.durationMs) ? summary.durationMs : null;
      if (isAbortedEvent(span.begin)) step.aborted = true;
      key = `s\u0000${type}\u0000${span.name}`;
      coarse = `s\u0000${type}`;
      compared = span.begin as unknown as Record<string, unknown>;
      children = childItems(tree, item.node + 1, subtreeEnd[item.node]!, hidden);
    } else {
      const e = event;
      step.uuid = eventTreeNodeKey(tree, item.node);
      compared = e as unknown as Record<string, unknown>;
      let leaf = options.leaves?.get(e);
      if (leaf === undefined || item.chunks !== null) {
        const kept = options.leaves !== undefined && item.chunks === null;
        leaf = leafOf(
          e,
          ignore,
          item.chunks === null ? null : item.chunks.map((n) => events[n]!),
          kept ? emptyLeaf() : scratchLeaf,
        );
        if (kept) options.leaves!.set(e, leaf);
        if (item.chunks !== null)
          compared = { event: 'message', role: leaf.name, content: leaf.text };
      }
      step.kind = leaf.kind;
      step.name = leaf.name;
      step.label = leaf.label;
      step.status = leaf.status;
      step.tokens = leaf.tokens;
      step.durationMs = leaf.durationMs;
      if (Number.isFinite(leaf.start)) step.start = leaf.start;
      step.cost = leaf.cost;
      if (leaf.aborted) step.aborted = true;
      key = leaf.key;
      coarse = leaf.coarse;
      t0 = leaf.start;
      t1 = leaf.end;
      if (e.event === 'tool') {
        if (item.span >= 0) {
          children = childItems(tree, item.span + 1, subtreeEnd[item.span]!, hidden);
        }
        if (item.adopted !== null) children = [...(children ?? []), ...item.adopted];
      }
    }
    if (s === cap) {
      cap *= 2;
      keyIds = grown(keyIds, new Int32Array(cap));
      coarseIds = grown(coarseIds, new Int32Array(cap));
      turnFlag = grown(turnFlag, new Uint8Array(cap));
      startMs = grown(startMs, new Float64Array(cap));
      endMs = grown(endMs, new Float64Array(cap));
    }
    keyIds[s] = item.members !== null ? -1 : id(key);
    coarseIds[s] = item.members !== null ? id('T') : id(coarse);
    content.push(compared);
    stepEvent.push(event);
    turnFlag[s] = item.members !== null ? 1 : 0;
    startMs[s] = t0;
    endMs[s] = t1;
    if (children !== null && children.length > 0) {
      frames.push({ items: children, pos: 0, parent: s });
    }
  }

  // Bottom-up: sums of turns and spans, turn keys, heights, digests.
  const n = steps.length;
  // Written in place below (a turn's key, a custom key).
  const key = keyIds.subarray(0, n);
  const coarse = coarseIds.subarray(0, n);
  const mid = new Int32Array(n);
  const height = new Int32Array(n);
  const digest = new Float64Array(n);
  const hashOf = (k: number): string => (intern.hashes[k] ??= hashText(intern.texts[k]!));
  for (let s = n - 1; s >= 0; s--) {
    if (s % JOB_STRIDE === 0) yield;
    const step = steps[s]!;
    const isTurn = turnFlag[s] === 1;
    let tokens = 0;
    let cost: number | null = null;
    let h = 0;
    let lo = 0x811c9dc5;
    let hi = 0x9747b28c;
    let running = false;
    let failed = false;
    let first = Number.POSITIVE_INFINITY;
    let last = Number.NEGATIVE_INFINITY;
    const memberKeys: string[] | null = isTurn ? scratchMembers : null;
    if (memberKeys !== null) memberKeys.length = 0;
    for (let c = s + 1; c < step.end; c = steps[c]!.end) {
      const child = steps[c]!;
      tokens += child.tokens;
      if (child.cost !== null) cost = (cost ?? 0) + child.cost;
      if (height[c]! + 1 > h) h = height[c]! + 1;
      lo = mix(lo, key[c]!);
      hi = mix(hi, Math.floor(digest[c]! / 0x200000));
      hi = mix(hi, digest[c]! % 0x200000);
      if (isTurn) {
        if (child.status === 'running') running = true;
        else if (child.status === 'error' && child.aborted !== true) failed = true;
        const t0 = startMs[c]!;
        const t1 = endMs[c]!;
        if (t0 < first) first = t0;
        if (t1 > last) last = t1;
        memberKeys!.push(hashOf(key[c]!));
      }
    }
    if (step.end > s + 1) {
      // A container counts what is inside it; a leaf keeps its own.
      if (step.kind !== 'model') {
        step.tokens += tokens;
        if (cost !== null) step.cost = (step.cost ?? 0) + cost;
      }
    }
    if (isTurn) {
      step.status = running ? 'running' : failed ? 'error' : 'ok';
      if (Number.isFinite(first)) step.start = first;
      if (Number.isFinite(first) && Number.isFinite(last)) step.durationMs = last - first;
      // The members' signatures as a set (parallel calls finish in any order).
      sortStrings(memberKeys!);
      key[s] = id(`T\u0000${normalizeModel(step.name)}\u0000${memberKeys!.join(' ')}`);
      if (memberKeys!.length > 64) memberKeys!.length = 0;
    }
    if (options.key !== undefined) {
      const custom = options.key(step, stepEvent[s]);
      if (typeof custom === 'string') key[s] = id(`x\u0000${custom}`);
    }
    mid[s] = isTurn && s + 1 < step.end ? id(`M\u0000${hashOf(key[s + 1]!)}`) : coarse[s]!;
    height[s] = h;
    lo = mix(mix(mix(lo, key[s]!), coarse[s]!), mid[s]!);
    hi = mix(mix(hi, key[s]!), step.end - s);
    digest[s] = (lo >>> 0) * 0x200000 + (hi & 0x1fffff);
  }
  return {
    tree,
    steps,
    key,
    mid,
    coarse,
    texts: intern.texts,
    height,
    digest,
    content,
    turn: turnFlag.slice(0, n),
    event: stepEvent,
  };
}
