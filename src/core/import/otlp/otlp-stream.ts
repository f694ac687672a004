// OpenTelemetry JSON Lines, read as they arrive (line formats stream; fed a
// line at a time they give the whole file's events).
//
// Each line is read and mapped once, by the live importer the OTLP receiver
// drives (otlp-live.ts), a line standing for a request: a span is mapped once
// its parents up to a root are read, what waits on a parent not seen yet is
// held until the parent arrives (or the input ends: then it goes to the root,
// as in the whole-file import, with its diagnostic), an event already out is
// handed out again only when a later line changed it (a version with the
// same uuid, as a live feed re-sends a pending event), and a span's end goes
// out only once something outside the span comes after it (or the input
// ends): a child that comes later still goes before it. The last version of
// every event is the whole-file import's; the order in which events first
// came out is its order whenever a newly placed span never sorts before one
// already out (spans listed children first in each trace, traces in start
// order, or parents first in start order — what exporters and hand-written
// files do); otherwise the events are the same but the later ones come after
// (an append-only stream cannot move an event back).
//
// The lines' text is kept: a run the live importer cannot map a line at a
// time (see otlp-live.ts) is imported whole, when the lines read doubled
// since the last such import and at the end; and one line alone is a
// document (path `$`, not `$[0]`), imported whole at the end.
//
// Lines that are not JSON never reach an incremental importer, so they count
// as blank here: a file whose first line is broken JSON (which the whole-file
// import refuses) streams, and a file of one readable line among broken ones
// reads that line as a line (`$[i]`), where the whole-file import reads it as
// a document (`$`): only the uuid of a record that is no span differs.
import type { Diagnostic } from '../../errors.js';
import type { Event } from '../../events/types.js';
import type { IncrementalImporter } from '../format.js';
import type { ImportOptions } from '../guards.js';
import { parseJsonText } from '../json.js';
import { otlpLiveImporter, type OtlpLiveImporter, type OtlpWholeImport } from './otlp-live.js';
import { quoteBigInts } from './time.js';

export { otlpLiveImporter, type OtlpLiveImporter, type OtlpWholeImport } from './otlp-live.js';

/**
 * An incremental OTLP importer for JSON Lines: what it hands out, appended
 * to an `EventStream`, ends as the whole-file import's events (see the top
 * of this file for the order).
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
  /** The whole file's order comes out only when drained after every line (see the top). */
  readonly drainEachRecord = true;
  readonly #importWhole: OtlpWholeImport;
  readonly #options: ImportOptions;
  /** The text of each line read, by zero-based line index (holes: blank lines). */
  readonly #lines: string[] = [];
  #records = 0;
  readonly #live: OtlpLiveImporter;
  /** The diagnostics of a one-line input's whole import. */
  #diagnostics: Diagnostic[] | undefined;

  constructor(importWhole: OtlpWholeImport, options: ImportOptions) {
    this.#importWhole = importWhole;
    this.#options = options;
    this.#live = otlpLiveImporter((_, o) => importWhole(this.#text(), o), options, {
      lines: true,
    });
  }

  push(record: unknown, path: string, text?: string): void {
    const line = LINE_PATH.exec(path);
    const at = line ? Number(line[1]) : this.#lines.length;
    const own = text ?? JSON.stringify(record);
    this.#lines[at] = own;
    this.#records++;
    // The line's own text keeps 64-bit nanos written as JSON numbers exact:
    // quoted before parsing, as the whole-file importer quotes its text.
    const fixed = quoteBigInts(own);
    this.#live.push(fixed === own ? record : parseJsonText(fixed), `$[${at}]`);
  }

  drain(): Event[] {
    // One line alone would be read as a document (path `$`, not `$[0]`).
    return this.#records < 2 ? [] : this.#live.flush();
  }

  end(): Event[] {
    if (this.#records !== 1) return this.#live.end();
    const result = this.#importWhole(this.#text(), this.#options);
    this.#diagnostics = result.diagnostics;
    return [...result.events];
  }

  diagnostics(): Diagnostic[] {
    return this.#diagnostics ?? this.#live.diagnostics();
  }

  #text(): string {
    const lines = this.#lines;
    let text = '';
    for (let i = 0; i < lines.length; i++)
      text += i === 0 ? (lines[0] ?? '') : `\n${lines[i] ?? ''}`;
    return text;
  }
}
