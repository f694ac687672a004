// One look at an input, shared by every format's sniff and import (one
// front door). Everything is lazy and cached: a sniff that needs only the
// first 64 KiB never decodes or parses the rest, and once a format is chosen its
// importer reuses the parse the sniff already paid for.
import { ImportError, jsonPath } from '../errors.js';
import { isRecord, type ImportContext } from './guards.js';
import { decodeUtf8, parseJsonText, parseJsonTolerant } from './json.js';
import { formatBytes } from '../format.js';
import { forEachJsonLine, readJsonLines, type JsonLine } from './lines.js';
import { isZip } from './zip.js';

/** What an importer accepts as a whole input: text, UTF-8 bytes, or an already parsed JSON value. */
export type ImportInput = string | Uint8Array | ArrayBuffer | unknown;

const HEAD_CHARS = 64 * 1024;
const HEAD_RECORDS = 32;

const NOT_PARSED = Symbol('not parsed');

/**
 * A lazily examined input. Formats sniff it with the cheapest view that
 * answers (`head`, `records`), and import it with the one that fits (`json`,
 * `lines`, `bytes`).
 *
 * @example
 * import { Probe } from './probe.js';
 * declare const text: string;
 * const probe = new Probe(text, 'session.jsonl');
 * probe.records(4); // the first four JSON records
 */
export class Probe {
  /** The file name, when known. */
  readonly filename: string | undefined;
  readonly #input: unknown;
  #text: string | undefined;
  #json: unknown = NOT_PARSED;
  #jsonError: unknown;
  #records: unknown[] | undefined;

  constructor(input: ImportInput, filename?: string) {
    this.#input = input instanceof ArrayBuffer ? new Uint8Array(input) : input;
    this.filename = filename;
  }

  /** The file name's extension, lower case with its dot (`.jsonl`), or `''`. */
  get extension(): string {
    const name = this.filename ?? '';
    const base = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
    const dot = base.lastIndexOf('.');
    return dot > 0 ? base.slice(dot).toLowerCase() : '';
  }

  /** True when the input was given as text or bytes (not as a parsed value). */
  get isRaw(): boolean {
    return typeof this.#input === 'string' || this.#input instanceof Uint8Array;
  }

  /** The input's bytes, when it was given as bytes. */
  get bytes(): Uint8Array | undefined {
    return this.#input instanceof Uint8Array ? this.#input : undefined;
  }

  /** True for a zip archive (an inspect `.eval`). */
  get isZip(): boolean {
    const b = this.bytes;
    return b !== undefined && isZip(b);
  }

  /**
   * The whole input as text (`undefined` for a parsed value or a zip). Throws
   * an `ImportError` (`input_too_large`) for bytes that decode to more than a
   * string can hold; JSON Lines are read without this ({@link eachLine}).
   */
  text(): string | undefined {
    if (this.#text !== undefined) return this.#text;
    if (typeof this.#input === 'string') this.#text = this.#input;
    else if (this.#input instanceof Uint8Array && !this.isZip) {
      try {
        this.#text = decodeUtf8(this.#input);
      } catch {
        // Past the largest string (a RangeError in browsers, ERR_STRING_TOO_LONG
        // in Node): TextDecoder throws nothing else without `fatal`.
        throw new ImportError('input_too_large', '$', formatBytes(this.#input.length));
      }
    }
    return this.#text;
  }

  /** The input's bytes while it has not been decoded whole (read line by line then). */
  get #undecoded(): Uint8Array | undefined {
    return this.#text === undefined && this.#input instanceof Uint8Array && !this.isZip
      ? this.#input
      : undefined;
  }

  /** The first 64 KiB of text, leading white space and BOM removed (`''` when not text). */
  head(): string {
    if (this.#head !== undefined) return this.#head;
    let head: string;
    if (this.#text !== undefined || typeof this.#input === 'string')
      head = (this.text() ?? '').slice(0, HEAD_CHARS);
    else if (this.#input instanceof Uint8Array && !this.isZip)
      head = decodeUtf8(this.#input.subarray(0, HEAD_CHARS));
    else return (this.#head = '');
    return (this.#head = head.replace(/^[\s\uFEFF]+/, ''));
  }

  #head: string | undefined;

  /**
   * The input as one JSON document: the parsed value given, or the text parsed
   * whole (NaN/Infinity tolerated). `undefined` when it is not one document
   * (JSON Lines, plain text, a zip).
   */
  json(): unknown {
    if (this.#json !== NOT_PARSED) return this.#json;
    if (!this.isRaw) return (this.#json = this.#input);
    const first = this.head().charAt(0);
    this.#json = undefined;
    if (first !== '{' && first !== '[') return undefined;
    const bytes = this.#undecoded;
    if (bytes !== undefined && firstLineEndsValueBytes(bytes)) {
      // JSON Lines, seen without decoding the whole input (which may be more
      // than a string can hold): read line by line.
      this.#jsonError = NOT_PARSED;
      return undefined;
    }
    let text: string | undefined;
    try {
      text = this.text();
    } catch (e) {
      this.#jsonError = e;
      return undefined;
    }
    if (text !== undefined) {
      if (firstLineEndsValue(text)) {
        // JSON Lines: not one document. Why not is worked out only if asked.
        this.#jsonError = NOT_PARSED;
        return undefined;
      }
      try {
        this.#json = parseJsonTolerant(text, '$');
      } catch (e) {
        this.#jsonError = e;
      }
    }
    return this.#json;
  }

  /** Why {@link json} gave `undefined` for text that looked like JSON (an `ImportError`). */
  get jsonError(): unknown {
    this.json();
    if (this.#jsonError === NOT_PARSED) {
      this.#jsonError = undefined;
      try {
        parseJsonTolerant(this.text() ?? '', '$');
      } catch (e) {
        this.#jsonError = e;
      }
    }
    return this.#jsonError;
  }

  /**
   * The first records, for sniffing: the elements of a JSON array, a single
   * JSON object, or the first JSON lines. Lines that are not JSON are skipped.
   */
  records(max = HEAD_RECORDS): unknown[] {
    // Fewer records than were looked for are all there are: asking again for
    // more would parse the same lines again (a short file with a line of a
    // million keys was parsed once per format's sniff).
    const known = this.#records;
    if (known && (known.length >= Math.min(max, HEAD_RECORDS) || known.length < HEAD_RECORDS))
      return known.slice(0, max);
    const doc = this.json();
    let out: unknown[];
    if (Array.isArray(doc)) out = doc.slice(0, Math.max(max, HEAD_RECORDS));
    else if (doc !== undefined) out = [doc];
    else out = this.#headLines(Math.max(max, HEAD_RECORDS));
    this.#records = out;
    return out.slice(0, max);
  }

  /** True when the input reads as JSON Lines: not one document, and its first line parses. */
  isJsonLines(): boolean {
    return this.isRaw && this.json() === undefined && this.records(1).length > 0;
  }

  /**
   * Every record with its path, for the line formats: JSON lines (`$[lineIndex]`),
   * the elements of a JSON array (`$[i]`), or one JSON object (`$`). Bad lines
   * become diagnostics on `ctx`.
   */
  *lines(ctx: ImportContext): Generator<JsonLine> {
    const doc = this.json();
    if (Array.isArray(doc)) {
      for (let i = 0; i < doc.length; i++)
        yield { value: doc[i], line: i + 1, path: jsonPath('$', i) };
      return;
    }
    if (doc !== undefined) {
      yield { value: doc, line: 1, path: '$' };
      return;
    }
    const input = this.#undecoded ?? this.text();
    if (input !== undefined) yield* readJsonLines(input, ctx);
  }

  /**
   * {@link lines} as a loop calling `each(value, path)` per record (no
   * generator, no record object per line): for whole-file imports. `prepare`
   * rewrites each JSON line before it is parsed (not a document's records).
   */
  eachLine(
    ctx: ImportContext,
    each: (value: unknown, path: string) => void,
    prepare?: (line: string) => string,
  ): void {
    const doc = this.json();
    if (Array.isArray(doc)) {
      for (let i = 0; i < doc.length; i++) each(doc[i], `$[${i}]`);
      return;
    }
    if (doc !== undefined) {
      each(doc, '$');
      return;
    }
    const input = this.#undecoded ?? this.text();
    if (input !== undefined) forEachJsonLine(input, ctx, each, undefined, prepare);
  }

  #headLines(max: number): unknown[] {
    const bytes = this.#undecoded;
    if (bytes === undefined) return headRecords(this.text() ?? '', max).records;
    // Bytes: a prefix decoded, cut after a newline and grown only while the
    // records asked for are not all in it (the whole may not fit a string).
    let found: unknown[] = [];
    let end = 0;
    for (let size = HEAD_CHARS; ; size *= 4) {
      // After the last newline in the first `size` bytes, or, when that adds
      // no line, after the line that runs past them.
      const cut = size < bytes.length ? bytes.lastIndexOf(10, size - 1) : -1;
      const next = cut + 1 > end ? cut : size < bytes.length ? bytes.indexOf(10, size) : -1;
      end = next >= 0 ? next + 1 : bytes.length;
      let text: string;
      try {
        text = decodeUtf8(bytes.subarray(0, end));
      } catch {
        return found; // past the largest string: the records of the last prefix
      }
      const { records, complete } = headRecords(text, max);
      if (complete || end === bytes.length) return records;
      found = records;
    }
  }
}

/**
 * The first `max` JSON lines of `text`: blank lines skipped, a line that is
 * not JSON skipped (but the first record must parse). `complete` when more
 * text could not change the answer (`max` found, or the first record failed).
 */
function headRecords(text: string, max: number): { records: unknown[]; complete: boolean } {
  const out: unknown[] = [];
  let at = 0;
  while (at < text.length && out.length < max) {
    let nl = text.indexOf('\n', at);
    if (nl < 0) nl = text.length;
    const line = text.slice(at, nl).trim();
    at = nl + 1;
    if (line === '' || line === '\uFEFF') continue;
    try {
      out.push(parseJsonText(line.charCodeAt(0) === 0xfeff ? line.slice(1) : line));
    } catch {
      if (out.length === 0) return { records: out, complete: true }; // the first record must parse
    }
  }
  return { records: out, complete: out.length >= max };
}

/**
 * True when the first line of `bytes` (UTF-8) is a whole JSON value and more
 * than white space follows it, as {@link firstLineEndsValue} (without
 * decoding the rest).
 */
function firstLineEndsValueBytes(bytes: Uint8Array): boolean {
  const nl = bytes.indexOf(10);
  if (nl < 0) return false;
  let rest = nl + 1;
  while (rest < bytes.length && isBlank(bytes[rest]!)) rest++;
  if (rest === bytes.length) return false;
  try {
    parseJsonText(decodeUtf8(bytes.subarray(0, nl)));
    return true;
  } catch {
    return false;
  }
}

/**
 * True when the first line of `text` is a whole JSON value and more than white
 * space follows it: then `text` cannot be one document (a value followed by
 * anything is invalid JSON, tolerant or not), so a JSON Lines file is not
 * parsed whole — a parse that would fail only after the first line and then,
 * in {@link parseJsonTolerant}, look through all of the text for `NaN`s.
 */
function firstLineEndsValue(text: string): boolean {
  const nl = text.indexOf('\n');
  if (nl < 0) return false;
  let rest = nl + 1;
  while (rest < text.length && isBlank(text.charCodeAt(rest))) rest++;
  if (rest === text.length) return false;
  try {
    parseJsonText(text.slice(0, nl));
    return true;
  } catch {
    return false;
  }
}

function isBlank(c: number): boolean {
  return c === 32 || c === 9 || c === 13 || c === 10;
}

/**
 * True when a record is an object whose `key` is one of `values`.
 *
 * @example
 * import { hasTag } from 'src/core/import/probe.js';
 * hasTag({ jsonrpc: '2.0', method: 'session/update' }, 'jsonrpc', ['2.0']); // true
 */
export function hasTag(record: unknown, key: string, values: readonly string[]): boolean {
  if (!isRecord(record)) return false;
  const v = record[key];
  return typeof v === 'string' && values.includes(v);
}
