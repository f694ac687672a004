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
import type { OtlpWholeImport } from './otlp-live.js';
import { placed } from './placed.js';

export { otlpLiveImporter, type OtlpLiveImporter, type OtlpWholeImport } from './otlp-live.js';

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

class OtlpStream implements IncrementalImporter {
  readonly #importWhole: OtlpWholeImport;
  readonly #options: ImportOptions;
  /** The text of each line read, by zero-based line index (holes: blank lines). */
  readonly #lines: string[] = [];
  #records = 0;
  #importedAt = 0;
  /** The version of each event last handed out, by uuid. */
  readonly #out = new Map<string, Event>();
  #diagnostics: Diagnostic[] = [];
  readonly #placement = new Placement();
  #last: ImportResult | undefined;

  constructor(importWhole: OtlpWholeImport, options: ImportOptions) {
    this.#importWhole = importWhole;
    this.#options = options;
  }

  push(record: unknown, path: string, text?: string): void {
    // The line's own text keeps 64-bit nanos written as JSON numbers exact
    // (the whole-file importer quotes them before parsing).
    const line = LINE_PATH.exec(path);
    const at = line ? Number(line[1]) : this.#lines.length;
    this.#lines[at] = text ?? JSON.stringify(record);
    this.#records++;
    this.#placement.record(record, 0);
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

  /**
   * Whether some span may be out without its parent: waiting without an id
   * (not counted in {@link held}).
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
