// OpenTelemetry JSON Lines, read as they arrive (line formats stream; fed a
// line at a time they give the whole file's events).
//
// A span's place depends on lines that may come later: children are usually
// exported before their parents, a tool takes its name and arguments from a
// model call anywhere in the file, a span without an end ends with its last
// child. So this drives the whole-file importer (otlp.ts) instead of keeping
// a second mapping: it keeps the lines read so far and, now and then, imports
// them as a whole, and hands out
// - every event whose span is placed (its parents, up to a root, are all in
//   the lines read so far) that is new or changed since it was last handed
//   out (a version with the same uuid, as a live feed re-sends a pending
//   event), in the whole-file order of that import — a span's end only once
//   something after it comes out (until then a child may still arrive);
// - nothing of a span that waits on a parent not seen yet, nor of what sits
//   under it, until the parent arrives (or the input ends: then it goes to
//   the root, as in the whole-file import, with its diagnostic).
// `end()` imports all lines and hands out what changed, so the last version
// of every event is the whole-file import's. The order in which events first
// came out is the whole-file order whenever a newly placed span never sorts
// before one already out (spans listed children first in each trace, traces
// in start order, or parents first in start order — what exporters and
// hand-written files do); otherwise the events are the same but the later
// ones come after (an append-only stream cannot move an event back).
//
// Lines that are not JSON never reach an incremental importer, so they count
// as blank here: a file whose first line is broken JSON (which the whole-file
// import refuses) streams, and a file of one readable line among broken ones
// reads that line as a line (`$[i]`), where the whole-file import reads it as
// a document (`$`): only the uuid of a record that is no span differs.
//
// Cost: each import reads every line so far, so one is made only when the
// lines read doubled since the last and some span was newly placed (and at
// the end, unless no line came since the last): all imports together read at
// most about three times the input (a single trace listed children first:
// once), and the first events come out after the second line.
import type { Diagnostic } from '../../errors.js';
import type { Event } from '../../events/types.js';
import type { ImportResult, IncrementalImporter } from '../format.js';
import type { ImportOptions } from '../guards.js';
import { jsonEqual } from '../json-equal.js';

/** The whole-input importer this drives (`importOtlp`): the lines as one text, or the records as a list. */
export type OtlpWholeImport = (
  input: string | readonly unknown[],
  options: ImportOptions,
) => ImportResult;

/**
 * The incremental OTLP importer a live receiver drives (the run registry):
 * the records it is given are kept as they are (no text: a decoded export
 * holds its 64-bit values as strings already), and besides the doubling
 * schedule of `drain()` the caller chooses when to import.
 *
 * @example
 * import { otlpLiveImporter } from 'src/core/import/otlp/otlp-stream.js';
 * const imp = otlpLiveImporter(importOtlp, {});
 * imp.push({ resourceSpans: [] }, '$[0]');
 * const events = imp.flush(); // what is placed now
 */
export interface OtlpLiveImporter extends IncrementalImporter {
  /**
   * Imports now if a span was placed since the last import (whatever the
   * doubling rule says), and hands out what changed, as `drain()` does.
   */
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
  /** The records pushed, in order: kept, since every import reads them all. */
  readonly records: readonly unknown[];
}

/**
 * A live OTLP importer over the whole-input one ({@link OtlpLiveImporter}).
 *
 * @example
 * import { otlpLiveImporter } from 'src/core/import/otlp/otlp-stream.js';
 * declare const decodedExport: object; // an ExportTraceServiceRequest in its OTLP/JSON shape
 * const imp = otlpLiveImporter(importOtlp, {});
 * imp.push(decodedExport, '$[0]');
 * for (const e of imp.flush()) stream.append(e);
 */
export function otlpLiveImporter(
  importWhole: OtlpWholeImport,
  options: ImportOptions,
): OtlpLiveImporter {
  return new OtlpStream(importWhole, options, true);
}

/**
 * An incremental OTLP importer over the whole-file one: what it hands out,
 * appended to an `EventStream`, ends as the whole-file import's events (see
 * the top of this file for the order).
 *
 * @example
 * import { otlpFormat } from './otlp.js';
 * const imp = otlpFormat.incremental!({}); // otlpIncremental(importOtlp, {})
 * imp.push({ resourceSpans: [] }, '$[0]', '{"resourceSpans":[]}');
 * const events = [...imp.drain(), ...imp.end()];
 */
export function otlpIncremental(
  importWhole: OtlpWholeImport,
  options: ImportOptions,
): IncrementalImporter {
  return new OtlpStream(importWhole, options);
}

const LINE_PATH = /^\$\[(\d+)\]$/;

class OtlpStream implements OtlpLiveImporter {
  readonly #importWhole: OtlpWholeImport;
  readonly #options: ImportOptions;
  /** The text of each line read, by zero-based line index (holes: blank lines). */
  readonly #lines: string[] = [];
  /** Live mode: the records themselves, by index (no text kept). */
  readonly #values: unknown[] | undefined;
  #records = 0;
  #importedAt = 0;
  /** The version of each event last handed out, by uuid. */
  readonly #out = new Map<string, Event>();
  #diagnostics: Diagnostic[] = [];
  readonly #placement = new Placement();
  #last: ImportResult | undefined;

  constructor(importWhole: OtlpWholeImport, options: ImportOptions, values = false) {
    this.#importWhole = importWhole;
    this.#options = options;
    this.#values = values ? [] : undefined;
  }

  push(record: unknown, path: string, text?: string): void {
    if (this.#values) this.#values.push(record);
    else {
      // The line's own text keeps 64-bit nanos written as JSON numbers exact
      // (the whole-file importer quotes them before parsing).
      const line = LINE_PATH.exec(path);
      const at = line ? Number(line[1]) : this.#lines.length;
      this.#lines[at] = text ?? JSON.stringify(record);
    }
    this.#records++;
    this.#placement.record(record, 0);
  }

  get held(): number {
    return this.#placement.held;
  }

  get records(): readonly unknown[] {
    return this.#values ?? [];
  }

  flush(): Event[] {
    if (this.#records === this.#importedAt || !this.#placement.take()) return [];
    this.#importedAt = this.#records;
    this.#last = this.#import();
    return this.#changed(this.#placed(this.#last.events), false);
  }

  release(): Event[] {
    const result =
      this.#last !== undefined && this.#importedAt === this.#records ? this.#last : this.#import();
    this.#importedAt = this.#records;
    this.#last = result;
    this.#placement.releaseAll();
    this.#diagnostics = result.diagnostics;
    return this.#changed(result.events, true);
  }

  drain(): Event[] {
    const fresh = this.#records - this.#importedAt;
    // One line alone would be read as a document (path `$`, not `$[0]`).
    if (this.#records < 2 || fresh === 0 || fresh < this.#importedAt) return [];
    // Nothing newly placed: an import would hand out nothing new.
    if (!this.#placement.take()) return [];
    this.#importedAt = this.#records;
    this.#last = this.#import();
    return this.#changed(this.#placed(this.#last.events), false);
  }

  end(): Event[] {
    // No line since the last import: it is the whole-file import.
    const result =
      this.#last !== undefined && this.#importedAt === this.#records ? this.#last : this.#import();
    this.#last = undefined;
    this.#diagnostics = result.diagnostics;
    return this.#changed(result.events, true);
  }

  diagnostics(): Diagnostic[] {
    return this.#diagnostics;
  }

  /**
   * The placed events of a partial import. Nothing held means every span's
   * parents up to a root were read (ids as written: where the placement sees
   * a chain, so does the import, which reads ids the same or more loosely),
   * and every log record naming a span names one read: all are placed, and
   * the walk over the events is skipped (the usual live case: a run's spans
   * arrive with their parents).
   */
  #placed(events: readonly Event[]): readonly Event[] {
    return this.#placement.held === 0 && !this.#placement.released ? events : placed(events);
  }

  #import(): ImportResult {
    if (this.#values) return this.#importWhole(this.#values, this.#options);
    const lines = this.#lines;
    let text = '';
    for (let i = 0; i < lines.length; i++)
      text += i === 0 ? (lines[0] ?? '') : `\n${lines[i] ?? ''}`;
    return this.#importWhole(text, this.#options);
  }

  /**
   * What is new or changed, in the order given. A span's end first comes out
   * just before the first new event after it (or at the end of the input):
   * until then a later line may still add children, which come before it.
   */
  #changed(events: readonly Event[], final: boolean): Event[] {
    const out: Event[] = [];
    let ends: Event[] = [];
    for (const e of events) {
      const before = this.#out.get(e.uuid);
      if (before !== undefined && jsonEqual(before, e)) continue;
      if (before === undefined && !final) {
        if (e.event === 'span_end') {
          ends.push(e);
          continue;
        }
        for (const end of ends) this.#emit(end, out);
        ends = [];
      }
      this.#emit(e, out);
    }
    return out;
  }

  #emit(e: Event, out: Event[]): void {
    this.#out.set(e.uuid, e);
    out.push(e);
  }
}

/**
 * A cheap, early view of which spans are placed (their parents up to a root
 * read), from the raw records: only to skip imports that would hand out
 * nothing new. Ids are compared as written, lower-cased (a parent written in
 * base64 and its child in hex look unplaced here: that only delays them to a
 * later import, never changes what comes out).
 */
class Placement {
  readonly #placed = new Set<string>();
  readonly #waiting = new Map<string, string[]>();
  #news = false;
  #held = 0;
  #logs = 0;

  /** Spans and log records waiting for a parent (or their span). */
  get held(): number {
    return this.#held;
  }

  /** Everything waiting counts as placed (the importer handed it out). */
  releaseAll(): void {
    if (this.#held > 0) this.released = true;
    for (const keys of this.#waiting.values()) for (const k of keys) this.#placed.add(k);
    this.#waiting.clear();
    this.#held = 0;
  }

  /**
   * Whether some span may be out without its parent: released, or waiting
   * without an id (not counted in {@link held}).
   */
  released = false;

  /** Whether something was placed since the last call. */
  take(): boolean {
    const news = this.#news;
    this.#news = false;
    return news;
  }

  /** Walks a record as the whole-file reader does (exports, resources, scopes, spans, lists). */
  record(r: unknown, depth: number): void {
    if (Array.isArray(r)) {
      if (depth < 2) for (const x of r) this.record(x, depth + 1);
      else this.#news = true;
      return;
    }
    if (typeof r !== 'object' || r === null) return void (this.#news = true);
    const o = r as Record<string, unknown>;
    const rs = o['resourceSpans'];
    if (Array.isArray(rs)) {
      for (const x of rs) this.#scopes(x);
      return;
    }
    const rl = o['resourceLogs'];
    if (Array.isArray(rl)) {
      for (const x of rl) this.#scopeLogs(x);
      return;
    }
    if (Array.isArray(o['scopeSpans'])) return this.#scopes(o);
    if (Array.isArray(o['spans']) && typeof o['event'] !== 'string') return this.#spans(o);
    this.#span(o);
  }

  #scopes(r: unknown): void {
    const list = (r as { scopeSpans?: unknown } | null)?.scopeSpans;
    if (Array.isArray(list)) for (const x of list) this.#spans(x);
  }

  #spans(r: unknown): void {
    const list = (r as { spans?: unknown } | null)?.spans;
    if (Array.isArray(list)) for (const x of list) this.#span(x);
  }

  /**
   * Log records: one that names a span waits for it (it becomes that span's
   * event); any other is placed at once.
   */
  #scopeLogs(r: unknown): void {
    const scopes = (r as { scopeLogs?: unknown } | null)?.scopeLogs;
    if (!Array.isArray(scopes)) return;
    for (const sc of scopes) {
      const records = (sc as { logRecords?: unknown } | null)?.logRecords;
      if (!Array.isArray(records)) continue;
      for (const lr of records) {
        const o = (typeof lr === 'object' && lr !== null ? lr : {}) as Record<string, unknown>;
        const span = idText(o['spanId']);
        if (span === '') {
          this.#news = true;
          continue;
        }
        const wait = `${idText(o['traceId'])}/${span}`;
        const key = `log#${this.#logs++}`;
        if (this.#placed.has(wait)) this.#place(key);
        else this.#wait(wait, key);
      }
    }
  }

  #wait(parent: string, key: string): void {
    this.#held++;
    const list = this.#waiting.get(parent);
    if (list) list.push(key);
    else this.#waiting.set(parent, [key]);
  }

  #span(r: unknown): void {
    if (typeof r !== 'object' || r === null) return;
    const o = r as Record<string, unknown>;
    const context = typeof o['context'] === 'object' && o['context'] !== null ? o['context'] : {};
    const c = context as Record<string, unknown>;
    const trace = idText(o['traceId'] ?? c['trace_id']);
    const id = idText(o['spanId'] ?? c['span_id']);
    const parent = idText(o['parentSpanId'] ?? o['parent_id']);
    const key = `${trace}/${id}`;
    if (parent === '' || parent === id) return this.#place(id === '' ? undefined : key);
    const wait = `${trace}/${parent}`;
    if (this.#placed.has(wait)) return this.#place(id === '' ? undefined : key);
    if (id === '') return void (this.released = true); // waits, uncounted: not all placed
    this.#wait(wait, key);
  }

  #place(key: string | undefined): void {
    this.#news = true;
    const stack = key === undefined ? [] : [key];
    while (stack.length) {
      const k = stack.pop()!;
      if (this.#placed.has(k)) continue;
      this.#placed.add(k);
      const children = this.#waiting.get(k);
      if (children) {
        this.#waiting.delete(k);
        this.#held -= children.length;
        stack.push(...children);
      }
    }
  }
}

function idText(v: unknown): string {
  return typeof v === 'string' ? v.toLowerCase() : '';
}

interface SpanMeta {
  readonly key: string;
  readonly parent: string | null;
}

/** The OTLP span an event was made from (model, tool, span_begin), by its metadata. */
function spanMeta(e: Event): SpanMeta | undefined {
  if (e.event !== 'model' && e.event !== 'tool' && e.event !== 'span_begin') return undefined;
  const m = e.metadata;
  const id = m?.['span_id'];
  if (typeof id !== 'string') return undefined;
  const trace = typeof m?.['trace_id'] === 'string' ? m['trace_id'] : '';
  const parent = m?.['parent_span_id'];
  return {
    key: `${trace}/${id}`,
    parent:
      typeof parent === 'string' && parent !== '' && parent !== id ? `${trace}/${parent}` : null,
  };
}

/**
 * The events of a partial import whose spans are placed: every span whose
 * chain of parents reaches a root inside the lines read. A span under a
 * parent not read yet is an orphan at the root of the partial import; it and
 * everything under it wait.
 */
function placed(events: readonly Event[]): Event[] {
  const spans = new Map<string, SpanMeta>();
  for (const e of events) {
    const s = spanMeta(e);
    if (s && !spans.has(s.key)) spans.set(s.key, s);
  }
  const waiting = new Map<string, boolean>();
  // Whether a span waits: its chain of parents ends at a parent not read
  // yet. Walked up with a loop (chains are 100,000 deep in hostile exports),
  // then every span on the way takes the verdict.
  const waits = (start: string): boolean => {
    const chain: string[] = [];
    let key = start;
    let result: boolean;
    for (;;) {
      const known = waiting.get(key);
      if (known !== undefined) {
        result = known;
        break;
      }
      waiting.set(key, false); // a parent cycle is placed (at the root), as in the whole import
      chain.push(key);
      const parent = spans.get(key)?.parent ?? null;
      if (parent === null) {
        result = false;
        break;
      }
      if (!spans.has(parent)) {
        result = true;
        break;
      }
      key = parent;
    }
    for (const k of chain) waiting.set(k, result);
    return result;
  };
  // Events follow their span (span events right after it; a span_end names
  // its begin's skein id), so each takes the verdict of the span it follows.
  const beginOf = new Map<string, boolean>(); // skein span id → waits
  const lastOfId = new Map<string, boolean>(); // OTLP span id → waits (for its span events)
  const out: Event[] = [];
  for (const e of events) {
    let hold = false;
    const s = spanMeta(e);
    if (s) {
      hold = waits(s.key);
      lastOfId.set(String(e.metadata!['span_id']), hold);
      if (e.event === 'span_begin') beginOf.set((e as { id: string }).id, hold);
    } else if (e.event === 'span_end') {
      hold = beginOf.get((e as { id: string }).id) ?? false;
    } else {
      const id = e.metadata?.['span_id'];
      if (typeof id === 'string') hold = lastOfId.get(id) ?? false;
      // A log record of its own that names a span: the span is not read yet
      // (otherwise the record would be its event, otlp-logs.ts).
      else hold = namesSpan(e.metadata?.['log']);
    }
    if (!hold) out.push(e);
  }
  return out;
}

function namesSpan(log: unknown): boolean {
  if (typeof log !== 'object' || log === null) return false;
  const id = (log as Record<string, unknown>)['span_id'];
  return typeof id === 'string' && id !== '';
}
