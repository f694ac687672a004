// The events of a one-sample inspect `.json` log (or of one `.eval` sample
// member), read a few hundred at a time straight from the file's bytes: the
// importer parses the whole document before the first event, which on a
// 300k-event log is seconds; this finds `samples[0].events` with a byte
// scanner and parses only the elements asked for.
//
// It only reads; `streamInspectSample` (inspect-stream.ts) decides what it
// may yield. Anything it does not expect throws NotStreamable, and the
// caller takes the importer's path.
import type { InspectEvalSpec } from './inspect-log.js';
import { hasRefPrefix, parseJsonTolerant } from '../json.js';
import { isRecord } from '../guards.js';
import { BYTE, JsonScanner, ScanError } from '../json-scan.js';

/** The log is not one this reader can stream exactly as the importer reads it. */
export class NotStreamable extends Error {}

/** The bytes so far end before the events asked for: `extend` the reader and ask again. */
export class NeedMoreBytes extends Error {}

const utf8 = new TextDecoder('utf-8');
/**
 * An escape that decodes to a character of `attachment://` or `tc://` (and
 * could so spell a ref the importer's text search does not see). Control
 * characters (`\u001b`) and other escapes are common in events, these are not.
 */
const REF_ESCAPE = /\\\/|\\u00(?:6[1358dDeE]|74|3[aA]|2[fF])/;

/** JSON path of the events, as the importer names them (`monolithSample`). */
export const STREAMED_EVENTS_PATH = '$.samples[0].events';

/**
 * A reader over `samples[0].events` of an inspect `.json` log whose header
 * (the members before `samples`) says it holds one sample, and whose first
 * sample names its `id` and `epoch` before its `events`.
 */
export class InspectEventReader {
  readonly #scan: JsonScanner;
  /** Byte offset of the events array's `[`. */
  readonly #open: number;
  /** Byte offset of its `]`, once reached. */
  #close = -1;
  #first = true;
  /** Some events text holds an escape that could spell a ref (REF_ESCAPE). */
  #escapes = false;
  /**
   * The last piece `next` returned holds a ref the importer resolves: an
   * attachment ref (as text) or a model event with pool refs.
   */
  pieceHasRefs = false;
  /** Some events text read so far holds a ref prefix (as text). */
  #prefix = false;

  private constructor(
    public bytes: Uint8Array,
    readonly spec: InspectEvalSpec,
    readonly id: string | number,
    readonly epoch: number,
    scan: JsonScanner,
    /** The document is the sample itself (an `.eval` member), not a log holding it. */
    readonly alone = false,
  ) {
    this.#scan = scan;
    this.#open = scan.pos - 1;
  }

  /**
   * A reader positioned at the first event, or `null` when the log's head is
   * not the layout streamed (no `version`/`eval` before `samples`, a header
   * that does not say one sample, no `id`/`epoch` before `events`, …).
   */
  static open(bytes: Uint8Array): InspectEventReader | null {
    try {
      return InspectEventReader.#read(bytes);
    } catch (e) {
      if (e instanceof ScanError || e instanceof SyntaxError || e instanceof NotStreamable)
        return null;
      throw e;
    }
  }

  /**
   * A reader over the `events` of one sample document (an `.eval` member
   * `samples/<id>_epoch_<n>.json`, or a prefix of it), positioned at the
   * first event, or `null` when the sample does not name its `id` and
   * `epoch` before its `events`. `spec` is the log header's eval spec.
   */
  static openSample(bytes: Uint8Array, spec: InspectEvalSpec): InspectEventReader | null {
    try {
      const scan = new JsonScanner(bytes);
      scan.expect(BYTE.OPEN_OBJECT);
      return InspectEventReader.#sample(bytes, spec, scan, true);
    } catch (e) {
      if (e instanceof ScanError || e instanceof SyntaxError || e instanceof NotStreamable)
        return null;
      throw e;
    }
  }

  static #read(bytes: Uint8Array): InspectEventReader | null {
    const scan = new JsonScanner(bytes);
    scan.expect(BYTE.OPEN_OBJECT);
    const header: Record<string, unknown> = {};
    for (;;) {
      const key = scan.key();
      if (key === 'samples') break;
      const [start, end] = scan.value();
      if (key === 'version' || key === 'eval') header[key] = parse(bytes, start, end);
      if (!scan.next(BYTE.CLOSE_OBJECT)) return null;
    }
    const spec = header['eval'];
    const version = header['version'];
    if (version !== 1 && version !== 2 && version !== 3) return null;
    if (!isRecord(spec) || !saysOneSample(spec)) return null;
    scan.expect(BYTE.OPEN_ARRAY);
    scan.expect(BYTE.OPEN_OBJECT);
    return InspectEventReader.#sample(bytes, spec as InspectEvalSpec, scan, false);
  }

  /** Reads a sample's members up to its `events` (the scanner is past the sample's `{`). */
  static #sample(
    bytes: Uint8Array,
    spec: InspectEvalSpec,
    scan: JsonScanner,
    alone: boolean,
  ): InspectEventReader | null {
    let id: unknown;
    let epoch: unknown;
    for (;;) {
      const key = scan.key();
      if (key === 'events') break;
      // `tail` reads the attachments and pools after the events only.
      if (key === 'transcript' || key === 'attachments' || key === 'events_data') return null;
      const [start, end] = scan.value();
      if (key === 'id') id = parse(bytes, start, end);
      else if (key === 'epoch') epoch = parse(bytes, start, end);
      if (!scan.next(BYTE.CLOSE_OBJECT)) return null;
    }
    if (typeof id !== 'string' && typeof id !== 'number') return null;
    if (typeof epoch !== 'number' || !Number.isInteger(epoch)) return null;
    scan.expect(BYTE.OPEN_ARRAY);
    return new InspectEventReader(bytes, spec, id, epoch, scan, alone);
  }

  /**
   * Goes on over `bytes`, a longer prefix of the same file (the reader was
   * opened on the part read so far).
   */
  extend(bytes: Uint8Array): void {
    this.bytes = bytes;
    this.#scan.bytes = bytes;
  }

  /**
   * The next (up to) `n` events, parsed JSON, or `null` after the last. With
   * `partial` (more bytes are to come), running off the end of the bytes
   * throws NeedMoreBytes and leaves the reader where it was.
   * Throws NotStreamable when the events text is not valid JSON. A piece
   * holding an attachment or pool ref is returned as it is, with
   * `pieceHasRefs` set: the importer resolves those first.
   */
  next(n: number, partial = false): unknown[] | null {
    if (this.#close >= 0) return null;
    const scan = this.#scan;
    const from = scan.pos;
    if (this.#first) {
      const c = scan.peek();
      if (c < 0 && partial) throw new NeedMoreBytes();
      this.#first = false;
      if (c === BYTE.CLOSE_ARRAY) {
        this.#close = scan.pos++;
        return null;
      }
    }
    const bytes = this.bytes;
    scan.peek();
    const start = scan.pos;
    let end = start;
    let count = 0;
    try {
      while (count < n) {
        end = scan.value()[1];
        count++;
        if (!scan.next(BYTE.CLOSE_ARRAY)) {
          this.#close = scan.pos - 1;
          break;
        }
      }
    } catch (e) {
      if (e instanceof ScanError) {
        if (partial) {
          scan.pos = from;
          this.#close = -1;
          throw new NeedMoreBytes();
        }
        throw new NotStreamable(e.message);
      }
      throw e;
    }
    const text = utf8.decode(bytes.subarray(start, end));
    // The importer resolves refs before parsing events; a piece with none
    // (as text) needs no resolution. `hasRefPrefix` is the importer's own test.
    this.pieceHasRefs = hasRefPrefix(text);
    if (this.pieceHasRefs) this.#prefix = true;
    if (!this.#escapes && REF_ESCAPE.test(text)) this.#escapes = true;
    let list: unknown;
    try {
      list = parseJsonTolerant(`[${text}]`, STREAMED_EVENTS_PATH);
    } catch (e) {
      throw new NotStreamable(e instanceof Error ? e.message : String(e));
    }
    const events = list as unknown[];
    if (events.length !== count) throw new NotStreamable('element count');
    if (!this.pieceHasRefs) this.pieceHasRefs = events.some(usesPools);
    return events;
  }

  /**
   * After the last event: the document with its events array emptied (`[]`),
   * for the importer to read the header, the sample's summary and what the
   * sample holds besides events (for a sample document: the sample with its
   * events emptied). Throws NotStreamable when the rest is not the layout
   * streamed (a second `events` or `samples` key, more samples).
   */
  rest(): Uint8Array {
    if (this.#close < 0) throw new NotStreamable('events not read to the end');
    const scan = this.#scan;
    scan.pos = this.#close + 1;
    try {
      // The rest of samples[0], then the samples array (one element), then the log.
      while (scan.next(BYTE.CLOSE_OBJECT)) {
        const key = scan.key();
        if (key === 'events' || key === 'transcript') throw new NotStreamable(`a second ${key}`);
        scan.value();
      }
      if (!this.alone) {
        if (!scan.eat(BYTE.CLOSE_ARRAY)) throw new NotStreamable('more than one sample');
        while (scan.next(BYTE.CLOSE_OBJECT)) {
          if (scan.key() === 'samples') throw new NotStreamable('a second samples');
          scan.value();
        }
      }
      if (scan.peek() >= 0) throw new NotStreamable('bytes after the log');
    } catch (e) {
      if (e instanceof ScanError) throw new NotStreamable(e.message);
      throw e;
    }
    const bytes = this.bytes;
    const out = new Uint8Array(this.#open + 1 + bytes.length - this.#close);
    out.set(bytes.subarray(0, this.#open + 1));
    out.set(bytes.subarray(this.#close), this.#open + 1);
    return out;
  }

  /** Some events text read so far holds an escape that could spell a ref. */
  get escapes(): boolean {
    return this.#escapes;
  }

  /**
   * The sample's `attachments` and `events_data` (parsed; `undefined` when
   * absent), which follow its events: read once all the bytes are in
   * (`extend`), for resolving refs in the events. Throws NotStreamable when
   * the sample is not whole or not the layout streamed.
   */
  tail(): { attachments: unknown; eventsData: unknown } {
    const scan = new JsonScanner(this.bytes, this.#open);
    const out: { attachments: unknown; eventsData: unknown } = {
      attachments: undefined,
      eventsData: undefined,
    };
    try {
      scan.value(); // the events
      while (scan.next(BYTE.CLOSE_OBJECT)) {
        const key = scan.key();
        if (key === 'events' || key === 'transcript') throw new NotStreamable(`a second ${key}`);
        const [start, end] = scan.value();
        // JSON.parse keeps the last of a repeated key; so does this.
        if (key === 'attachments') out.attachments = parse(this.bytes, start, end);
        else if (key === 'events_data') out.eventsData = parse(this.bytes, start, end);
      }
    } catch (e) {
      if (e instanceof ScanError || e instanceof SyntaxError) throw new NotStreamable(e.message);
      throw e;
    }
    return out;
  }

  /**
   * Whether the importer walks the events for refs: the text it parsed the
   * sample from (the whole document, or the `.eval` member) holds a ref
   * prefix. Only once all the bytes are in.
   */
  mayContainRefs(): boolean {
    // Decoding the whole text costs about a second per 150 MB: not when a
    // piece already showed a prefix.
    return this.#prefix || hasRefPrefix(utf8.decode(this.bytes));
  }

  /**
   * Whether the importer could treat the events differently from this
   * reader: the rest of the document holds refs (so it walks the events for
   * them) and the events text holds an escape that could spell one.
   */
  restNeedsResolution(rest: Uint8Array): boolean {
    return this.#escapes && hasRefPrefix(utf8.decode(rest));
  }
}

function parse(bytes: Uint8Array, start: number, end: number): unknown {
  return JSON.parse(utf8.decode(bytes.subarray(start, end))) as unknown;
}

/** The eval spec says one sample, one epoch (the dataset's count, `config.epochs`). */
function saysOneSample(spec: Record<string, unknown>): boolean {
  const dataset = spec['dataset'];
  const config = spec['config'];
  const epochs = isRecord(config) ? (config['epochs'] ?? 1) : 1;
  return isRecord(dataset) && dataset['samples'] === 1 && epochs === 1;
}

/** A model event whose input or call the importer splices in from the sample's pools. */
function usesPools(e: unknown): boolean {
  if (!isRecord(e) || e['event'] !== 'model') return false;
  const call = e['call'];
  return (
    (e['input_refs'] !== undefined && e['input_refs'] !== null) ||
    (isRecord(call) && call['call_refs'] !== undefined && call['call_refs'] !== null)
  );
}
