// Exported OpenAI Agents SDK traces: the records its exporters write
// (`trace.toJSON()` → `{object: "trace", id, workflow_name, group_id,
// metadata}`, `span.toJSON()` → `{object: "trace.span", id, trace_id,
// parent_id, started_at, ended_at, span_data, error}`), as a JSON array,
// the traces ingest body `{data: [...]}`, one record, or JSON Lines; the
// Python SDK's `export()` writes the same fields.
// https://openai.github.io/openai-agents-js/guides/tracing/
//
// Quirks: exporters write a span when it ends, so children come before their
// parents and a trace's spans may interleave with other traces'; spans are
// put back in start order, parents first, before the mapping (importer.ts)
// reads them. Traces carry no times: a trace spans its spans. An export has
// no `_input`/`_response` of response spans (the SDK leaves them out), so a
// response span is a model call with its id, without its messages; the
// live processor sees them.
import type { FormatImporter, ImportResult } from '../format.js';
import { sniffer } from '../format.js';
import { ImportContext, isRecord, own, type ImportOptions } from '../guards.js';
import { Probe, type ImportInput } from '../probe.js';
import { timestampMs } from '../../events/timestamp.js';
import { insertionSort } from '../../insertion-sort.js';
import { OpenAiAgentsImporter, type SpanSlot } from './importer.js';
import type { OpenAiAgentsSpanRecord, OpenAiAgentsTraceRecord } from './types.js';

function isAgentsRecord(value: unknown): boolean {
  if (!isRecord(value)) return false;
  const object = own(value, 'object');
  return (
    (object === 'trace' && typeof own(value, 'id') === 'string') ||
    (object === 'trace.span' && isRecord(own(value, 'span_data')))
  );
}

/**
 * Calls `each` with every record of the input and its path, in file order
 * (no list of records: a JSON Lines export is read line by line).
 */
function eachRecord(
  probe: Probe,
  ctx: ImportContext,
  each: (value: unknown, path: string) => void,
): void {
  const doc = probe.json();
  if (Array.isArray(doc)) {
    for (let i = 0; i < doc.length; i++) each(doc[i], `$[${i}]`);
    return;
  }
  if (isRecord(doc)) {
    const data = own(doc, 'data');
    if (Array.isArray(data) && !isAgentsRecord(doc)) {
      for (let i = 0; i < data.length; i++) each(data[i], `$.data[${i}]`);
      return;
    }
    each(doc, '$');
    return;
  }
  // `isJsonLines` first: `jsonError` parses the whole text again to say why
  // it is not one document, which JSON Lines never needs.
  if (probe.isRaw && !probe.isJsonLines() && probe.jsonError) throw probe.jsonError;
  probe.eachLine(ctx, each);
}

/**
 * A span of an export, placed for the ordering below. The first span read
 * with an id is also that id's entry (`kids`, `last`, `stamp`, the importer's
 * `state`): one object per span, not a span and an entry, as nearly every id
 * names one span (at 100k spans the second object was a tenth of what the
 * collector copied besides the records and events).
 */
interface Placed extends SpanSlot {
  readonly record: OpenAiAgentsSpanRecord;
  readonly path: string;
  readonly start: number;
  readonly index: number;
  /** Its end (ms; NaN when unreadable, Infinity when none), once read. */
  end: number;
  /** How many ids its parent chain holds (-1: not counted yet). */
  depth: number;
  /** Its id's entry (the first span of its id), and its parent id's (when that id is a span's). */
  entry: Placed | undefined;
  parent: Placed | undefined;
  done: boolean;
  /** When it was opened in the replay (ties of its end close in that order). */
  opened: number;
  /** Whether its parent chain comes back to it (set with `depth`). */
  cycle: boolean;
  // Read on an id's entry only:
  /** The spans whose parent is this id, in file order. */
  kids: Placed[] | undefined;
  /** The last span with this id in start order (the one a parent id names). */
  last: Placed | undefined;
  /** The walk that last reached this id (ancestors of a span, see `replay`). */
  stamp: number;
}

const byStart = (a: Placed, b: Placed): number =>
  a.start - b.start ||
  (Number.isNaN(a.start) ? 1 : 0) - (Number.isNaN(b.start) ? 1 : 0) ||
  a.index - b.index;

/**
 * `list` sorted by start, in place. Checked first: the SDK writes a span as
 * it ends, and siblings that ran one after another end in the order they
 * started, so most lists are in order already and need no sort.
 */
function sortByStart(list: Placed[]): Placed[] {
  for (let i = 1; i < list.length; i++)
    if (byStart(list[i - 1]!, list[i]!) > 0) return list.sort(byStart);
  return list;
}

/**
 * Spans in the order a live run starts them: parents first, siblings by
 * start time (file order breaks ties). Iterative; spans unreachable from a
 * root (a parent cycle) follow in file order. Fills `ids` (empty) with an
 * entry per span id (its first span), each span's `entry` and `parent`, and
 * each entry's `last`, for {@link replay}.
 */
function startOrder(spans: Placed[], ids: Map<string, Placed>): Placed[] {
  for (const s of spans) {
    const id = s.record.id;
    let entry = ids.get(id);
    if (entry === undefined) ids.set(id, (entry = s));
    s.entry = entry;
  }
  const roots: Placed[] = [];
  for (const s of spans) {
    const parent = s.record.parent_id;
    const entry = typeof parent === 'string' ? ids.get(parent) : undefined;
    s.parent = entry;
    if (entry !== undefined && parent !== s.record.id) (entry.kids ??= []).push(s);
    else roots.push(s);
  }
  const out: Placed[] = [];
  const stack = sortByStart(roots).reverse();
  while (stack.length) {
    const s = stack.pop()!;
    if (s.done) continue;
    s.done = true;
    out.push(s);
    const kids = s.entry!.kids;
    if (kids) {
      sortByStart(kids);
      for (let k = kids.length - 1; k >= 0; k--) stack.push(kids[k]!);
    }
  }
  for (const s of spans) if (!s.done) out.push(s);
  for (const s of out) s.entry!.last = s;
  return out;
}

/**
 * Starts and ends the spans in the order a live run did, so the events come
 * out as the processor appends them: before a span starts, every open span
 * that ended by then and is not its ancestor ends (innermost first); a span
 * without an end stays open (the importer closes it, with a diagnostic).
 * A span's ancestors are the ids up its parent chain, each parent id naming
 * the last span of that id in start order; the chain stops at an id seen
 * twice (a cycle) or after as many ids as there are spans. They are walked
 * only when some open span is due, marking the entries they reach.
 */
function replay(importer: OpenAiAgentsImporter, order: Placed[]): void {
  /** Open spans by end (a heap); `held`: ended, but kept for a span inside them. */
  const open: Placed[] = [];
  const held: Placed[] = [];
  let walk = 0;
  /** Marks the ids up `s`'s parent chain with a new stamp; returns how many. */
  const ancestors = (s: Placed): number => {
    const stamp = ++walk;
    let count = 0;
    let id = s.record.parent_id;
    let entry = s.parent;
    while (typeof id === 'string' && count < order.length) {
      count++;
      if (entry === undefined) break; // an id of no span: counted, ends the chain
      if (entry.stamp === stamp) {
        count--; // seen already: a cycle
        break;
      }
      entry.stamp = stamp;
      const node = entry.last!;
      id = node.record.parent_id;
      entry = node.parent;
    }
    return count;
  };
  // The spans due at one start (`dueCount` of them) and the depth walk's
  // path: arrays kept for the whole replay, not two new ones per start.
  const due: Placed[] = [];
  let dueCount = 0;
  const scratch: Placed[] = [];
  const close = (until: number, keep: number): void => {
    // `keep`: the stamp of the starting span's ancestors (0: none), which
    // stay open even when they ended before it started: `held`, outside the
    // heap, looked at again for each span that starts.
    // Only the span a parent id names (its id's last) is an ancestor: other
    // spans sharing its id close when due, or 100,000 spans of one id would
    // all be held, and `held` scanned at every start (quadratic).
    const kept = (o: Placed) => keep !== 0 && o.entry!.stamp === keep && o.entry!.last === o;
    let w = 0;
    for (let r = 0; r < held.length; r++) {
      const o = held[r]!;
      if (o.end <= until && !kept(o)) due[dueCount++] = o;
      else held[w++] = o;
    }
    held.length = w;
    while (open.length > 0 && open[0]!.end <= until) {
      const o = popEarliest(open);
      if (kept(o)) held.push(o);
      else due[dueCount++] = o;
    }
    const n = dueCount;
    if (n === 0) return;
    dueCount = 0;
    if (n > 1) {
      for (let i = 0; i < n; i++) depthOf(due[i]!, scratch);
      sortDue(due, n);
    }
    for (let i = 0; i < n; i++) {
      const o = due[i]!;
      importer.endSpan(o.record, o.path, o.end, o.entry);
    }
  };
  let opened = 0;
  for (const s of order) {
    if (
      (open.length > 0 && open[0]!.end <= s.start) ||
      (held.length > 0 && held.some((o) => o.end <= s.start))
    ) {
      ancestors(s);
      close(s.start, walk);
    }
    importer.startSpanOf(s.record, s.path, s.start, s.entry!, s.parent);
    if (typeof s.record.ended_at === 'string') {
      s.end = timestampMs(s.record.ended_at);
      s.opened = opened++;
      // An end that cannot be read never comes due: kept out of the heap.
      if (!Number.isNaN(s.end)) pushEnd(open, s);
    }
  }
  close(Infinity, 0);
}

/** Spans due to end, in the order they end: by end, innermost first, then as opened. */
const endsFirst = (a: Placed, b: Placed): number =>
  a.end - b.end || b.depth - a.depth || a.opened - b.opened;

/**
 * The first `n` spans of `due` sorted by {@link endsFirst}, in place. A few spans are due at a time
 * (a turn's model call and tool): sorted by insertion there, as
 * `Array.prototype.sort` copied each list into new arrays (a tenth of what
 * an import allocated). `opened` is unique: the order is total, so both
 * sorts give the same order.
 */
function sortDue(due: Placed[], n: number): void {
  if (n > 16) {
    const sorted = due.slice(0, n).sort(endsFirst);
    for (let i = 0; i < n; i++) due[i] = sorted[i]!;
    return;
  }
  insertionSort(due, n, endsFirst);
}

/**
 * How many ids `s`'s parent chain holds, as `replay`'s ancestor walk counts
 * them (each id once, an id of no span counted and last), remembered for
 * every span on the way: one walk up to a span already counted, so a chain
 * n deep costs n steps for all of its spans, not n² / 2. The chain follows
 * each parent id to the last span of that id, so a repeated id is a cycle:
 * every span on it counts the cycle's length, and a span leading into it
 * counts one more than its parent only when that parent is not on it.
 */
function depthOf(s: Placed, path: Placed[]): number {
  if (s.depth >= 0) return s.depth;
  // `path` is the caller's scratch array: its first `len` entries are the walk's.
  let len = 0;
  // Where each span sits on the path, to see a cycle: a map only once the
  // path is long (most walks stop after a step or two, at a span counted).
  let onPath: Map<Placed, number> | undefined;
  let node = s;
  let next: Placed | undefined; // the span the walk stopped at, counted already
  let end = 0; // else the depth of the last span of the path
  for (;;) {
    const at = onPath !== undefined ? onPath.get(node) : indexOnPath(path, len, node);
    if (at !== undefined) {
      for (let i = at; i < len; i++) {
        path[i]!.depth = len - at;
        path[i]!.cycle = true;
      }
      len = at;
      next = node;
      break;
    }
    if (onPath === undefined && len === SHORT_PATH) {
      onPath = new Map();
      for (let i = 0; i < len; i++) onPath.set(path[i]!, i);
    }
    onPath?.set(node, len);
    path[len++] = node;
    if (typeof node.record.parent_id !== 'string') break; // a root: 0
    if (node.parent === undefined) {
      end = 1; // an id of no span
      break;
    }
    const up = node.parent.last!;
    if (up.depth >= 0) {
      next = up;
      break;
    }
    node = up;
  }
  for (let i = len - 1; i >= 0; i--) {
    const p = path[i]!;
    if (next === undefined) p.depth = end;
    else p.depth = next.cycle ? next.depth : next.depth + 1;
    next = p;
  }
  return s.depth;
}

/** Path lengths searched in place, before {@link depthOf} keeps a map. */
const SHORT_PATH = 8;

/** Where `node` is among the first `len` spans of a path, or `undefined`. */
function indexOnPath(path: readonly Placed[], len: number, node: Placed): number | undefined {
  for (let i = 0; i < len; i++) if (path[i] === node) return i;
  return undefined;
}

// The open spans of `replay` as a binary min-heap by end (then by when they
// were opened): "has one ended by now" is a look at the top, not a scan of
// every open span (a chain 100,000 deep keeps them all open).
const endsBefore = (a: Placed, b: Placed): boolean =>
  a.end < b.end || (a.end === b.end && a.opened < b.opened);

function pushEnd(heap: Placed[], s: Placed): void {
  let i = heap.length;
  heap.push(s);
  while (i > 0) {
    const up = (i - 1) >> 1;
    if (!endsBefore(s, heap[up]!)) break;
    heap[i] = heap[up]!;
    i = up;
  }
  heap[i] = s;
}

function popEarliest(heap: Placed[]): Placed {
  const top = heap[0]!;
  const last = heap.pop()!;
  const n = heap.length;
  if (n > 0) {
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const c = r < n && endsBefore(heap[r]!, heap[l]!) ? r : l;
      if (!endsBefore(heap[c]!, last)) break;
      heap[i] = heap[c]!;
      i = c;
    }
    heap[i] = last;
  }
  return top;
}

function importProbe(probe: Probe, options: ImportOptions): ImportResult {
  const lineCtx = new ImportContext(options);
  const importer = new OpenAiAgentsImporter(options);
  const traces: { record: OpenAiAgentsTraceRecord; path: string }[] = [];
  const spans: Placed[] = [];
  const firstStart = new Map<string, { ms: number; iso: string }>();
  let index = 0;
  eachRecord(probe, lineCtx, (value, path) => {
    const at = index++;
    if (!isAgentsRecord(value)) {
      importer.push(value, path); // reported there
      return;
    }
    const rec = value as Record<string, unknown>;
    if (rec['object'] === 'trace') {
      traces.push({ record: rec as unknown as OpenAiAgentsTraceRecord, path });
      return;
    }
    const record = rec as unknown as OpenAiAgentsSpanRecord;
    if (typeof record.id !== 'string' || typeof record.trace_id !== 'string') {
      importer.push(value, path);
      return;
    }
    const start = typeof record.started_at === 'string' ? timestampMs(record.started_at) : NaN;
    spans.push({
      record,
      path,
      start,
      index: at,
      end: Infinity,
      depth: -1,
      entry: undefined,
      parent: undefined,
      done: false,
      opened: -1,
      cycle: false,
      kids: undefined,
      last: undefined,
      stamp: 0,
      state: undefined,
    });
    const first = firstStart.get(record.trace_id);
    if (Number.isFinite(start) && (!first || start < first.ms))
      firstStart.set(record.trace_id, { ms: start, iso: record.started_at! });
  });
  for (const { record, path } of traces)
    importer.startTrace(record, path, firstStart.get(record.id)?.iso);
  const ids = new Map<string, Placed>();
  importer.useSlots((id) => ids.get(id));
  replay(importer, startOrder(spans, ids));
  const events = importer.end();
  const lineDiagnostics = lineCtx.finish();
  return {
    format: 'openai-agents',
    events,
    diagnostics: [...lineDiagnostics, ...importer.diagnostics()],
  };
}

/**
 * The OpenAI Agents SDK's exported traces as a format of the importer
 * registry (`detectFormat`, `importAny`, the viewer).
 *
 * @example
 * import { Probe } from '../probe.js';
 * import { openAiAgentsFormat } from './openai-agents.js';
 * openAiAgentsFormat.detect(new Probe('{"object":"trace","id":"trace_1"}')); // true
 */
export const openAiAgentsFormat: FormatImporter = {
  id: 'openai-agents',
  name: 'OpenAI Agents SDK traces',
  extensions: ['.json', '.jsonl'],
  detect(probe) {
    const doc = probe.json();
    if (isRecord(doc) && Array.isArray(own(doc, 'data')) && !isAgentsRecord(doc)) {
      const data = own(doc, 'data') as unknown[];
      return data.length > 0 && data.slice(0, 4).every(isAgentsRecord);
    }
    const records = probe.records(4);
    return records.length > 0 && records.every(isAgentsRecord);
  },
  import: importProbe,
};

/**
 * A cheap check whether an input is an export of OpenAI Agents SDK traces.
 *
 * @example
 * isOpenAiAgentsTrace('{"object":"trace","id":"trace_1","workflow_name":"Agent workflow"}'); // true
 */
export const isOpenAiAgentsTrace: (input: ImportInput, filename?: string) => boolean =
  sniffer(openAiAgentsFormat);

/**
 * Imports exported OpenAI Agents SDK traces (`{object: "trace" …}` and
 * `{object: "trace.span" …}` records as a JSON array, `{data: [...]}`, or
 * JSON Lines; the JS and the Python SDK) from text, bytes or a parsed value.
 *
 * @example
 * declare const file: File; // spans an exporter wrote, one JSON per line
 * const { events, diagnostics } = importOpenAiAgentsTrace(await file.text());
 * const toolCalls = events.filter((e) => e.event === 'tool');
 */
export function importOpenAiAgentsTrace(
  input: ImportInput,
  options: ImportOptions = {},
): ImportResult {
  return importProbe(new Probe(input, options.filename), options);
}
