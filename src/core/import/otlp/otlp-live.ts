// Past 600 lines: one importer whose request-at-a-time and whole-input modes share the run's state (spans read, ends held, events out).
// The live OTLP importer a receiver drives (the run registry): export
// requests of one run arrive one at a time, children before parents, and each
// request's spans and log records are read and mapped once, as they come —
// not the run's whole record list again on every request.
//
// It keeps the spans read (the tree of what is placed, spans waiting for a
// parent by the parent's trace and span id) and the model calls' tool calls,
// and on each `flush()` it reads only the records pushed since the last one:
// - a span whose parent is placed (or that has none) is placed, and so is
//   everything that waited for it; each newly placed subtree is mapped by the
//   file importer's own functions (`emitSpanHead` of emit.ts, over its spans as
//   read.ts reads them, in tree.ts's sibling order), with the enclosing skein
//   span of its parent; new root subtrees and new records of their own are
//   interleaved by time as otlp.ts does;
// - a span already out is mapped again alone (its own events, not its
//   subtree) when what it depends on changed: a log record joined it, a model
//   call named its tool call, an agent span came under it (a tool's
//   `agent_span_id`); a version whose JSON is unchanged is not handed out;
// - the same trace and span id twice keeps the first (with the file import's
//   `otlp_duplicate_span`);
// - a new span's end is held while a child may still come: it goes out just
//   before the first new event outside its span (the held ends are a stack,
//   each inside the ones under it), or when the run is released;
// - `release()` (a bound hit, the run ended) puts every span whose parent has
//   not come at the root with its `otlp_orphan_span` diagnostic; a parent that
//   comes later takes it back (the orphan and its subtree are mapped again,
//   and the diagnostic goes).
// Handed out, the events' last versions are the whole-file import's of the
// same records (`importOtlp`), whatever the requests and their order; they
// come out in its order when all spans of a trace come in one request.
//
// What depends on the whole input in ways a new request can reorder (a span
// without an id, a start or an end, a span id shared by two traces, a tool
// span without a call id, a record without a time or of no known shape, a
// parent cycle) turns the run to the file importer over all its records, as
// the file streaming importer (otlp-stream.ts) does: the same events, at the
// cost of re-reading the run on each import.
//
// Walks are loops (a parent chain may be 100,000 deep).
import type { Diagnostic } from '../../errors.js';
import type { Event, SpanBeginEvent, SpanEndEvent, ToolCall } from '../../events/types.js';
import type { ImportResult, IncrementalImporter } from '../format.js';
import { ImportContext, type ImportOptions } from '../guards.js';
import { jsonEqual } from '../json-equal.js';
import { EventSink } from '../sink.js';
import { Used } from './dialects.js';
import {
  type Emit,
  type SpanTail,
  emitSpanChildDone,
  emitSpanEnd,
  emitSpanHead,
  pairTools,
} from './emit.js';
import { asSpanEvent, emitLog, sortLogs, type LogRead } from './otlp-logs.js';
import { Placement, placed } from './placed.js';
import { NO_CHILDREN, Reader, spanPath, type Span } from './read.js';
import { sortBySpanStart } from './tree.js';

/** The whole-input importer (`importOtlp`): the lines as one text, or the records as a list. */
export type OtlpWholeImport = (
  input: string | readonly unknown[],
  options: ImportOptions,
) => ImportResult;

/**
 * The incremental OTLP importer a live receiver drives (the run registry):
 * the records it is given are kept as they are (no text: a decoded export
 * holds its 64-bit values as strings already), and the caller chooses when
 * to import.
 *
 * @example
 * import { otlpLiveImporter } from 'src/core/import/otlp/otlp-live.js';
 * const imp = otlpLiveImporter(importOtlp, {});
 * imp.push({ resourceSpans: [] }, '$[0]');
 * const events = imp.flush(); // what is placed now
 */
export interface OtlpLiveImporter extends IncrementalImporter {
  /** Reads the records pushed since the last call, and hands out what is new or changed. */
  flush(): Event[];
  /**
   * Hands out everything, as `end()` does — each span still waiting for a
   * parent at the root, with its `otlp_orphan_span` diagnostic — but the
   * input goes on: a parent that comes later takes its children back (their
   * events are re-emitted with their new place).
   */
  release(): Event[];
  /** Records and spans waiting for a parent (or a span) not read yet. */
  readonly held: number;
  /** The records pushed, in order (a merge of runs moves them). */
  readonly records: readonly unknown[];
}

/**
 * A live OTLP importer ({@link OtlpLiveImporter}); `importWhole` is the file
 * importer it falls back to for inputs it cannot map a request at a time.
 *
 * @example
 * import { otlpLiveImporter } from 'src/core/import/otlp/otlp-live.js';
 * declare const decodedExport: object; // an ExportTraceServiceRequest in its OTLP/JSON shape
 * const imp = otlpLiveImporter(importOtlp, {});
 * imp.push(decodedExport, '$[0]');
 * for (const e of imp.flush()) stream.append(e);
 */
export function otlpLiveImporter(
  importWhole: OtlpWholeImport,
  options: ImportOptions,
  lines?: OtlpLinesMode,
): OtlpLiveImporter {
  return new OtlpLive(importWhole, options, lines);
}

/**
 * How the JSON Lines stream (otlp-stream.ts) drives a live importer: each
 * record read at the path it is pushed with (its line, `$[i]`) as a line of
 * the file (not as an element of a list), and, once the run turned to the
 * whole-input import, that import made only when the records read doubled
 * since the last (a file streams a line at a time: an import per line would
 * read it quadratically).
 */
export interface OtlpLinesMode {
  readonly lines: true;
}

/** The model calls' tool calls by id, noting the ids added since {@link added} was last emptied. */
class Calls extends Map<string, { call: ToolCall; answered: boolean }> {
  added: string[] = [];
  override set(id: string, value: { call: ToolCall; answered: boolean }): this {
    if (!this.has(id)) this.added.push(id);
    return super.set(id, value);
  }
}

/** Pushes `item` onto the list under `key`. */
function listAdd<T>(map: Map<string, T[]>, key: string, item: T): void {
  const list = map.get(key);
  if (list) list.push(item);
  else map.set(key, [item]);
}

/**
 * Takes from the list under `id` the items of `trace` (all of them, in the
 * usual case: one trace per span id), leaving the others.
 */
function take<T extends { traceId: string }>(
  map: Map<string, T[]>,
  id: string,
  trace: string,
): T[] | undefined {
  const list = map.get(id);
  if (list === undefined) return undefined;
  let same = 0;
  for (let i = 0; i < list.length; i++) if (list[i]!.traceId === trace) same++;
  if (same === list.length) {
    map.delete(id);
    return list;
  }
  if (same === 0) return undefined;
  map.set(
    id,
    list.filter((x) => x.traceId !== trace),
  );
  return list.filter((x) => x.traceId === trace);
}

/** The clock of records without a time: never asked (such a record turns the run whole). */
const NO_CLOCK = (): string => '';

/** A span end not handed out yet, and its skein span id. */
interface HeldEnd {
  readonly id: string;
  event: Event;
}

/** A root subtree or a record of its own, to be mapped in this order. */
type Item = { span: Span; log?: never } | { log: LogRead; span?: never };

class OtlpLive implements OtlpLiveImporter {
  readonly #importWhole: OtlpWholeImport;
  readonly #options: ImportOptions;
  readonly #records: unknown[] = [];
  /** The path of each record, in lines mode ({@link OtlpLinesMode}). */
  readonly #paths: string[] | undefined;
  /** Records read so far (the rest wait for the next flush). */
  #read = 0;
  /** Spans read so far: each span's `order`, as the whole import numbers them. */
  #spanCount = 0;
  readonly #ctx: ImportContext;
  /**
   * The first span of each span id: keyed by the span id alone (a span id in
   * two traces turns the run whole), the trace compared on a hit, so no
   * `trace/span` key is built per span. A span is placed once `visited`
   * (tree.ts's flag, unused here otherwise).
   */
  readonly #byId = new Map<string, Span>();
  /** Spans waiting for their parent to be placed, by the parent's span id. */
  #waiting: Map<string, Span[]> | undefined;
  #heldSpans = 0;
  /** Log records naming a span not read yet, by its span id. */
  #waitingLogs: Map<string, LogRead[]> | undefined;
  #heldLogs = 0;
  /** The read order of each log record held. */
  #logOrder: Map<LogRead, number> | undefined;
  #logCount = 0;
  /** Spans released at the root, by their parent's span id; and their diagnostics. */
  #orphans: Map<string, Span[]> | undefined;
  #orphanDiagnostics: Map<Span, Diagnostic> | undefined;
  /** Tool spans out with a call id, by it: a model call that names it later pairs it. */
  #toolById: Map<string, Span> | undefined;
  /**
   * The mapping's state kept between imports (the model calls' tool calls,
   * the attribute reads, the shared `finish_reasons` lists): made by the
   * first {@link #emit}, which makes the rest of its `Emit` (a sink) and
   * drops it when done.
   */
  #state: (Pick<Emit, 'used' | 'reasons'> & { calls: Calls }) | undefined;
  /** The version of each event last handed out, by uuid. */
  readonly #out = new Map<string, Event>();
  /**
   * New span ends not handed out yet, as a stack (the next to go on top,
   * each inside those under it): a child may still come, which goes before.
   */
  readonly #held: HeldEnd[] = [];
  /** The held ends by skein span id. */
  #heldById: Map<string, HeldEnd> | undefined;
  /**
   * Set once the run needs the whole-input import (see the top of this
   * file): then an import is made only when a span was placed since the
   * last, as the file streaming importer does.
   */
  #whole: Placement | undefined;
  #wholeAt = -1;
  #wholeDiagnostics: Diagnostic[] = [];

  constructor(importWhole: OtlpWholeImport, options: ImportOptions, lines?: OtlpLinesMode) {
    this.#importWhole = importWhole;
    this.#options = options;
    this.#paths = lines ? [] : undefined;
    this.#ctx = new ImportContext(options);
  }

  push(record: unknown, path: string): void {
    this.#records.push(record);
    this.#paths?.push(path);
    this.#whole?.record(record, 0);
  }

  get held(): number {
    return this.#whole ? this.#whole.held : this.#heldSpans + this.#heldLogs;
  }

  get records(): readonly unknown[] {
    return this.#records;
  }

  diagnostics(): Diagnostic[] {
    if (this.#whole) return this.#wholeDiagnostics;
    const own = this.#ctx.finish();
    const orphans = this.#orphanDiagnostics;
    return orphans === undefined || orphans.size === 0 ? own : [...own, ...orphans.values()];
  }

  drain(): Event[] {
    return this.flush();
  }

  flush(): Event[] {
    if (this.#read === this.#records.length) return [];
    if (!this.#whole) {
      const out = this.#advance();
      if (out !== undefined) return out;
    }
    return this.#importAll(false);
  }

  release(): Event[] {
    let out: Event[] = [];
    if (!this.#whole) {
      out = this.#advance() ?? [];
      if (!this.#whole) {
        const released = this.#releaseHeld();
        if (released !== undefined) return [...out, ...released];
      }
    }
    const rest = this.#importAll(true);
    return out.length === 0 ? rest : [...out, ...rest];
  }

  end(): Event[] {
    return this.release();
  }

  // ---- whole-input mode ----

  #importAll(final: boolean): Event[] {
    this.#read = this.#records.length;
    const placement = this.#whole!;
    if (final) placement.releaseAll();
    // Nothing newly placed: an import would hand out nothing new.
    else if (this.#wholeAt === this.#records.length) return [];
    else if (this.#paths && this.#records.length - this.#wholeAt < this.#wholeAt) return [];
    else if (!placement.take()) return [];
    this.#wholeAt = this.#records.length;
    const result = this.#importWhole(this.#records, this.#options);
    this.#wholeDiagnostics = result.diagnostics;
    const events =
      final || (placement.held === 0 && !placement.released)
        ? result.events
        : placed(result.events);
    return this.#changed(events, final);
  }

  /** Turns the run whole: what was read is read again by the whole-input import. */
  #toWhole(): undefined {
    const placement = new Placement();
    for (let i = 0; i < this.#records.length; i++) placement.record(this.#records[i], 0);
    this.#whole = placement;
    this.#wholeAt = -1;
    // Ends not handed out come again from the whole import: their place kept.
    return undefined;
  }

  // ---- incremental mode ----

  /**
   * Reads the new records, places their spans and maps what was placed; the
   * events new or changed, or undefined when the run turned whole.
   */
  #advance(): Event[] | undefined {
    const reader = new Reader(this.#ctx);
    const paths = this.#paths;
    for (let i = this.#read; i < this.#records.length; i++)
      if (paths) reader.record(this.#records[i], paths[i]!, 0);
      else reader.record(this.#records[i], `$[${i}]`, 1);
    this.#read = this.#records.length;
    if (reader.unknown.length > 0) return this.#toWhole();
    const roots: Span[] = [];
    const dirty = new Set<Span>();
    const spans = reader.spans;
    for (let i = 0; i < spans.length; i++) {
      const s = spans[i]!;
      s.order = this.#spanCount++;
      if (!this.#add(s, roots, dirty)) return this.#toWhole();
    }
    const own: LogRead[] = [];
    const logs = reader.logs;
    for (let i = 0; i < logs.length; i++) {
      const log = logs[i]!;
      if (log.spanId === '') {
        if (log.time === '') return this.#toWhole(); // its time comes from the first root's
        own.push(log);
        continue;
      }
      const span = this.#span(log.traceId, log.spanId);
      if (span === undefined) {
        listAdd((this.#waitingLogs ??= new Map()), log.spanId, log);
        (this.#logOrder ??= new Map()).set(log, this.#logCount++);
        this.#heldLogs++;
      } else this.#join(span, log, dirty);
    }
    return this.#emit(roots, own.length > 0 ? sortLogs(own) : own, dirty, false);
  }

  /** Reads one new span into the tree; false when the run must turn whole. */
  #add(s: Span, roots: Span[], dirty: Set<Span>): boolean {
    if (s.invented.length > 0 || s.start === '' || s.end === '') return false;
    if (s.traceId.includes('/') || s.spanId.includes('/')) return false;
    const first = this.#byId.get(s.spanId);
    if (first !== undefined) {
      if (first.traceId !== s.traceId) return false; // skein ids would follow emission order
      this.#ctx.warn(spanPath(s), 'otlp_duplicate_span', s.spanId);
      return true; // both ended: the first is kept as it is
    }
    this.#byId.set(s.spanId, s);
    const logs = this.#heldLogs > 0 ? take(this.#waitingLogs!, s.spanId, s.traceId) : undefined;
    if (logs !== undefined) {
      this.#heldLogs -= logs.length;
      for (const log of logs) {
        this.#logOrder!.delete(log);
        this.#join(s, log, dirty);
      }
    }
    if (s.parentSpanId === '' || s.parentSpanId === s.spanId) {
      this.#place(s, undefined, roots, dirty);
      return true;
    }
    const parent = this.#span(s.traceId, s.parentSpanId);
    if (parent !== undefined && parent.visited) this.#place(s, parent, roots, dirty);
    else {
      listAdd((this.#waiting ??= new Map()), s.parentSpanId, s);
      this.#heldSpans++;
    }
    return true;
  }

  /** The span of these ids, if read. */
  #span(trace: string, id: string): Span | undefined {
    const s = this.#byId.get(id);
    return s !== undefined && s.traceId === trace ? s : undefined;
  }

  /** A log record of span `s` is one of its span events (after its own), as otlp.ts joins them. */
  #join(s: Span, log: LogRead, dirty: Set<Span>): void {
    s.events = [...s.events, asSpanEvent(log)];
    if (s.enclosing !== undefined) dirty.add(s);
  }

  /**
   * Places `s` under `parent` (at the root when undefined), then everything
   * that waited for it and every orphan it takes back. A span placed under
   * one already out is a new subtree (`roots`); an orphan taken back is
   * mapped again with its subtree.
   */
  #place(s: Span, parent: Span | undefined, roots: Span[], dirty: Set<Span>): void {
    const stack: [Span, Span | undefined][] = [[s, parent]];
    while (stack.length > 0) {
      const [span, under] = stack.pop()!;
      if (under !== undefined) {
        span.parent = under;
        if (under.children === NO_CHILDREN) under.children = [span];
        else under.children.push(span);
      }
      const orphan = this.#orphanDiagnostics?.delete(span) === true;
      if (under === undefined || under.enclosing !== undefined) {
        roots.push(span);
        // A tool's `agent_span_id` is its first agent child's.
        if (under !== undefined && under.cls?.role === 'tool') dirty.add(under);
      }
      if (orphan) continue; // placed already, with its subtree
      span.visited = true;
      const waiting =
        this.#waiting !== undefined ? take(this.#waiting, span.spanId, span.traceId) : undefined;
      if (waiting !== undefined) {
        if (this.#waiting!.size === 0) this.#waiting = undefined; // most runs hold none for long
        this.#heldSpans -= waiting.length;
        for (let i = 0; i < waiting.length; i++) stack.push([waiting[i]!, span]);
      }
      const orphans =
        this.#orphans !== undefined && this.#orphans.size > 0
          ? take(this.#orphans, span.spanId, span.traceId)
          : undefined;
      if (orphans !== undefined)
        for (let i = 0; i < orphans.length; i++) stack.push([orphans[i]!, span]);
    }
  }

  /**
   * Puts the spans whose parent never came at the root (with their
   * diagnostic), and the log records whose span never came among the
   * records of their own; undefined when something still waits (a cycle).
   */
  #releaseHeld(): Event[] | undefined {
    // Nothing waits (the usual run at its end): only the held ends go out,
    // as `#emit` of nothing would hand them out.
    if (this.#waiting === undefined && this.#waitingLogs === undefined)
      return this.#changed([], true);
    const roots: Span[] = [];
    const dirty = new Set<Span>();
    const orphans: Span[] = [];
    const waitingSpans = this.#waiting ?? new Map<string, Span[]>();
    for (const [id, list] of waitingSpans) {
      // One that waits on a held span is placed with it.
      const missing = list.filter((s) => this.#span(s.traceId, id) === undefined);
      if (missing.length === 0) continue;
      if (missing.length === list.length) waitingSpans.delete(id);
      else {
        const gone = new Set(missing);
        waitingSpans.set(
          id,
          list.filter((s) => !gone.has(s)),
        );
      }
      this.#heldSpans -= missing.length;
      for (const s of missing) orphans.push(s);
    }
    if (waitingSpans.size === 0) this.#waiting = undefined;
    for (const s of orphans) {
      listAdd((this.#orphans ??= new Map()), s.parentSpanId, s);
      this.#place(s, undefined, roots, dirty);
      const ctx = new ImportContext(this.#options);
      ctx.info(spanPath(s), 'otlp_orphan_span', s.spanId, s.parentSpanId);
      (this.#orphanDiagnostics ??= new Map()).set(s, ctx.finish()[0]!);
    }
    if (this.#heldSpans > 0) return this.#toWhole();
    const logs: LogRead[] = [];
    if (this.#waitingLogs !== undefined)
      for (const list of this.#waitingLogs.values()) for (const log of list) logs.push(log);
    this.#waitingLogs = undefined;
    this.#heldLogs = 0;
    for (const log of logs) if (log.time === '') return this.#toWhole();
    // In read order (sortLogs keeps it among records of the same time).
    const order = this.#logOrder ?? new Map<LogRead, number>();
    logs.sort((a, b) => order.get(a)! - order.get(b)!);
    order.clear();
    return this.#emit(roots, sortLogs(logs), dirty, true);
  }

  /**
   * Maps the new subtrees and records of their own (interleaved by time, as
   * otlp.ts puts records among root spans), then the spans out whose own
   * events changed, pairs tool calls, and hands out what changed.
   */
  #emit(roots: Span[], logs: LogRead[], dirty: Set<Span>, final: boolean): Event[] | undefined {
    const sink = new EventSink(this.#ctx, { seed: this.#options.uuidSeed ?? 'otlp' });
    const state = (this.#state ??= { calls: new Calls(), used: new Used(), reasons: new Map() });
    const calls = state.calls;
    const em: Emit = {
      ctx: this.#ctx,
      sink,
      usedIds: undefined,
      calls,
      tools: [],
      used: state.used,
      reasons: state.reasons,
    };
    calls.added = [];
    sortBySpanStart(roots);
    const items: Item[] = [];
    let next = 0;
    for (let i = 0; i < roots.length; i++) {
      const root = roots[i]!;
      if (root.parent === undefined)
        while (next < logs.length && !(logs[next]!.ms >= root.startMs))
          items.push({ log: logs[next++]! });
      items.push({ span: root });
    }
    while (next < logs.length) items.push({ log: logs[next++]! });
    for (const item of items) {
      if (item.log !== undefined) emitLog(sink, item.log, NO_CLOCK);
      else {
        const s = item.span;
        dirty.delete(s);
        this.#map(em, s, s.parent === undefined ? null : this.#inner(s.parent), true);
      }
    }
    // A tool out before the model call that names its id: paired now.
    for (const id of calls.added) {
      const tool = this.#toolById?.get(id);
      if (tool !== undefined) dirty.add(tool);
    }
    for (const t of em.tools) dirty.delete(t.span);
    for (const s of dirty) {
      const children = s.children;
      if (children.length > 1) sortBySpanStart(children);
      this.#map(em, s, s.enclosing ?? null, false);
    }
    for (const t of em.tools) {
      if (!t.hasId) return this.#toWhole(); // takes the first unanswered call of its name
      const tools = (this.#toolById ??= new Map());
      if (!tools.has(t.event.id)) tools.set(t.event.id, t.span);
    }
    pairTools(em);
    return this.#changed(sink.finish(), final);
  }

  /** The skein span `s`'s children are mapped in. */
  #inner(s: Span): string | null {
    return s.cls?.role === 'span' ? s.spanId : (s.enclosing ?? null);
  }

  /**
   * Maps `root` with `enclosing` (the file importer's `emitSpanHead`), and with
   * `deep` its subtree (each span's children in start order); otherwise only
   * its own events (its children, mapped before, are passed over).
   */
  #map(em: Emit, root: Span, enclosing: string | null, deep: boolean): void {
    root.enclosing = enclosing;
    if (deep && root.children.length > 1) sortBySpanStart(root.children);
    const stack: SpanTail[] = [emitSpanHead(em, root, enclosing)];
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const children = top.span.children;
      if (top.next < children.length) {
        const child = children[top.next++]!;
        if (!deep) {
          emitSpanChildDone(em, top, child);
          continue;
        }
        child.enclosing = top.inner;
        if (child.children.length > 1) sortBySpanStart(child.children);
        stack.push(emitSpanHead(em, child, top.inner));
        continue;
      }
      stack.pop();
      emitSpanEnd(em, top);
      if (stack.length > 0) emitSpanChildDone(em, stack[stack.length - 1]!, top.span);
    }
  }

  /**
   * What is new or changed, in the order given. A new span's end is held
   * while a child may still come (which goes before it): it goes out just
   * before the first new event outside its span, or when the run is
   * released. So a parent's end follows every child that came before the
   * input ended, and a run read in start order (or each trace children
   * first) comes out in the whole-file import's order.
   */
  #changed(events: readonly Event[], final: boolean): Event[] {
    const out: Event[] = [];
    // This call's new ends since its last new event (innermost first).
    const pending: HeldEnd[] = [];
    for (let i = 0; i < events.length; i++) {
      const e = events[i]!;
      const before = this.#out.get(e.uuid);
      if (before !== undefined && jsonEqual(before, e)) continue;
      if (before === undefined) {
        const held =
          e.event === 'span_end' ? this.#heldById?.get((e as SpanEndEvent).id) : undefined;
        if (held !== undefined && held.event.uuid === e.uuid) {
          held.event = e; // a held end's newer version keeps its place
          continue;
        }
        if (e.event === 'span_end') {
          if (!final) {
            const end: HeldEnd = { id: (e as SpanEndEvent).id, event: e };
            (this.#heldById ??= new Map()).set(end.id, end);
            pending.push(end);
            continue;
          }
        } else {
          for (let j = 0; j < pending.length; j++) this.#handOut(pending[j]!, out);
          pending.length = 0;
          this.#releaseEnds(
            e.event === 'span_begin'
              ? (e as SpanBeginEvent).parent_id
              : (e as { span_id?: string | null }).span_id,
            out,
          );
        }
      }
      this.#out.set(e.uuid, e);
      out.push(e);
    }
    // The ends still pending go on top of those held (inside them).
    for (let j = pending.length - 1; j >= 0; j--) this.#held.push(pending[j]!);
    if (final) this.#releaseEnds(undefined, out);
    // Every end held is in #held (a run at rest holds none): the map goes.
    if (this.#held.length === 0) this.#heldById = undefined;
    return out;
  }

  /**
   * Hands out the held ends of the spans a new event in skein span `within`
   * is not inside (all, when `within` is not held): the top of the stack
   * down to `within`'s end.
   */
  #releaseEnds(within: string | null | undefined, out: Event[]): void {
    const held = this.#held;
    if (held.length === 0) return;
    const stop = within == null ? undefined : this.#heldById!.get(within);
    while (held.length > 0 && held[held.length - 1] !== stop) this.#handOut(held.pop()!, out);
  }

  #handOut(end: HeldEnd, out: Event[]): void {
    const e = end.event;
    const byId = this.#heldById!;
    if (byId.get(end.id) === end) byId.delete(end.id);
    this.#out.set(e.uuid, e);
    out.push(e);
  }
}
