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
import { Placement, placed } from './placed.js';

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
    // The last import's events go before the next is made (those handed out
    // are kept in #out): two imports' events at once were the peak of a long
    // stream's heap.
    this.#last = undefined;
    this.#last = this.#import();
    return this.#changed(this.#placed(this.#last.events), false);
  }

  end(): Event[] {
    // No line since the last import: it is the whole-file import.
    const last = this.#importedAt === this.#records ? this.#last : undefined;
    this.#last = undefined;
    const result = last ?? this.#import();
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
