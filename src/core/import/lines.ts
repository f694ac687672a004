// JSON Lines (https://jsonlines.org/) readers shared by the line formats (ACP,
// defect, Claude Code, OpenHands V1, OTLP exports, skein's own JSONL).
//
// Real captures are messier than the spec: blank lines between records, CRLF
// line ends, a BOM, a last line cut off mid-record. A line that is not JSON is
// one `invalid_json_line` diagnostic naming its number, and reading goes on —
// one bad line never loses a session.
//
// Paths: record `i` of the file is `$[i]`, where `i` is the zero-based line
// index (blank lines count), so `$[12]` is line 13 in an editor.
import { jsonPath } from '../errors.js';
import type { ImportContext } from './guards.js';
import { decodeUtf8, parseJsonText } from './json.js';
import { chunksOf, type ChunkSource } from '../chunks.js';
import { formatBytes } from '../format.js';

/** One parsed line of a JSONL input. */
export interface JsonLine {
  /** The parsed value. */
  readonly value: unknown;
  /** One-based line number in the input. */
  readonly line: number;
  /** The record's JSON path, `$[line - 1]`. */
  readonly path: string;
  /** The line as read (trimmed), when the reader keeps it (`readJsonLinesAsync`). */
  readonly text?: string;
}

function parseLine(text: string, line: number, ctx: ImportContext): JsonLine | undefined {
  // Blank lines (and whitespace-only ones) separate records in the wild.
  let start = 0;
  let end = text.length;
  while (start < end && isSpace(text.charCodeAt(start))) start++;
  while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
  if (start === end) return undefined;
  const body = start === 0 && end === text.length ? text : text.slice(start, end);
  try {
    return { value: parseJsonText(body), line, path: jsonPath('$', line - 1), text: body };
  } catch (e) {
    ctx.warn(
      jsonPath('$', line - 1),
      'invalid_json_line',
      line,
      e instanceof Error ? e.message : String(e),
    );
    return undefined;
  }
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 13 || c === 10 || c === 0xfeff;
}

/**
 * Reads every JSON line of a text or UTF-8 bytes, skipping blank lines and
 * reporting (then skipping) lines that are not JSON.
 *
 * @example
 * import { readJsonLines } from './lines.js';
 * const ctx = new ImportContext();
 * declare const text: string; // JSONL
 * declare function handle(value: unknown, path: string): void;
 * for (const { value, path } of readJsonLines(text, ctx)) handle(value, path);
 */
export function* readJsonLines(
  input: string | Uint8Array,
  ctx: ImportContext,
  segmentBytes = SEGMENT_BYTES,
): Generator<JsonLine> {
  if (typeof input === 'string') {
    yield* linesIn(input, 0, true, ctx);
    return;
  }
  let line = 0;
  for (const segment of segmentsOf(input, segmentBytes, ctx, () => line)) {
    if (segment.skipped) line++;
    else line = yield* linesIn(segment.text, line, segment.final, ctx);
  }
}

/** {@link readJsonLines} of one text or segment (as `eachLineIn`); returns the last line's number. */
function* linesIn(
  text: string,
  line: number,
  final: boolean,
  ctx: ImportContext,
): Generator<JsonLine, number> {
  const n = text.length;
  const last = final ? n : n - 1;
  let at = 0;
  while (at <= last) {
    let nl = text.indexOf('\n', at);
    if (nl < 0) nl = n;
    line++;
    const parsed = parseLine(text.slice(at, nl), line, ctx);
    if (parsed) yield parsed;
    at = nl + 1;
  }
  return line;
}

/**
 * {@link readJsonLines} as a loop that calls `each` per record: the same
 * records, paths and diagnostics, without a generator step and a record
 * object per line (the whole-file imports, where that was a tenth of the
 * time of reading the lines). `segmentBytes`: how much of a `Uint8Array`
 * input is decoded at a time. `prepare` rewrites each line before it is
 * parsed (OTLP quotes its 64-bit integers so that they keep every digit).
 *
 * @example
 * import { forEachJsonLine } from 'src/core/import/lines.js';
 * import { acpFormat } from './acp/acp.js';
 * declare const text: string; // JSONL
 * const ctx = new ImportContext({});
 * const importer = acpFormat.incremental({});
 * forEachJsonLine(text, ctx, (value, path) => importer.push(value, path));
 */
export function forEachJsonLine(
  input: string | Uint8Array,
  ctx: ImportContext,
  each: (value: unknown, path: string) => void,
  segmentBytes = SEGMENT_BYTES,
  prepare?: (line: string) => string,
): void {
  if (typeof input === 'string') {
    eachLineIn(input, 0, true, ctx, each, prepare);
    return;
  }
  let line = 0;
  for (const segment of segmentsOf(input, segmentBytes, ctx, () => line)) {
    if (segment.skipped) line++;
    else line = eachLineIn(segment.text, line, segment.final, ctx, each, prepare);
  }
}

/**
 * The lines of `text` (numbered on from `line`) through `each`; returns the
 * number of the last line read. A segment that is not `final` ends with its
 * newline, and the empty string after it is the next segment's first line.
 */
function eachLineIn(
  text: string,
  line: number,
  final: boolean,
  ctx: ImportContext,
  each: (value: unknown, path: string) => void,
  prepare: ((line: string) => string) | undefined,
): number {
  const n = text.length;
  const last = final ? n : n - 1;
  let at = 0;
  while (at <= last) {
    let nl = text.indexOf('\n', at);
    if (nl < 0) nl = n;
    line++;
    let start = at;
    let end = nl;
    at = nl + 1;
    while (start < end && isSpace(text.charCodeAt(start))) start++;
    while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
    if (start === end) continue;
    let value: unknown;
    try {
      const body = text.slice(start, end);
      value = parseJsonText(prepare === undefined ? body : prepare(body));
    } catch (e) {
      ctx.warn(
        jsonPath('$', line - 1),
        'invalid_json_line',
        line,
        e instanceof Error ? e.message : String(e),
      );
      continue;
    }
    each(value, `$[${line - 1}]`);
  }
  return line;
}

/**
 * UTF-8 bytes decoded at a time by the line readers: a file of any size is
 * read as JSON Lines, where decoding it whole fails past the engine's largest
 * string (V8: 2^29 − 24 code units, about 512 MiB) and holds a second copy of
 * the file meanwhile.
 */
const SEGMENT_BYTES = 8 * 1024 * 1024;

/** One decoded piece of a UTF-8 input: whole lines, or one line too long to decode (`skipped`). */
type Segment =
  | { readonly text: string; readonly final: boolean; readonly skipped?: never }
  | { readonly skipped: true; readonly text?: never; readonly final?: never };

/**
 * `bytes` decoded `segmentBytes` at a time, each piece cut after a newline
 * (an ASCII byte, so never inside a character: the text is the same as one
 * decode's). A line longer than a piece is one piece of its own; one longer
 * than a string can hold is skipped, as a `line_too_long` diagnostic on
 * `ctx` (`lineBefore()` is the number of lines read before it).
 */
function* segmentsOf(
  bytes: Uint8Array,
  segmentBytes: number,
  ctx: ImportContext,
  lineBefore: () => number,
): Generator<Segment> {
  const n = bytes.length;
  if (n <= segmentBytes) {
    yield { text: decodeUtf8(bytes), final: true };
    return;
  }
  let at = 0;
  while (at < n) {
    let end = Math.min(at + segmentBytes, n);
    if (end < n) {
      const nl = bytes.lastIndexOf(10, end - 1);
      if (nl >= at) end = nl + 1;
      else {
        const next = bytes.indexOf(10, end);
        end = next < 0 ? n : next + 1;
      }
    }
    let text: string | undefined;
    try {
      text = decodeUtf8(bytes.subarray(at, end));
    } catch (e) {
      // Decoding fails only past the largest string (a RangeError in
      // browsers, ERR_STRING_TOO_LONG in Node), and only a piece of one line
      // can be that long (see above).
      if (end - at <= segmentBytes) throw e;
      const line = lineBefore() + 1;
      ctx.warn(jsonPath('$', line - 1), 'line_too_long', line, formatBytes(end - at));
    }
    yield text === undefined ? { skipped: true } : { text, final: end === n };
    at = end;
  }
}

/**
 * Reads JSON lines from chunks (strings or UTF-8 bytes, split anywhere — even
 * inside a multi-byte character) of an async iterable or a ReadableStream,
 * yielding each record as soon as its line is complete. The last line needs no
 * newline.
 *
 * @example
 * import { acpFormat } from './acp/acp.js';
 * const body = (await fetch('/session.jsonl')).body!;
 * const ctx = new ImportContext({});
 * const importer = acpFormat.incremental({});
 * for await (const { value, path } of readJsonLinesAsync(body, ctx)) importer.push(value, path);
 */
export async function* readJsonLinesAsync(
  chunks: ChunkSource,
  ctx: ImportContext,
): AsyncGenerator<JsonLine> {
  for await (const batch of readJsonLineBatchesAsync(chunks, ctx)) yield* batch;
}

/**
 * Most records in one batch of {@link readJsonLineBatchesAsync}: a source
 * that hands over a whole file as one chunk still gets its first records out
 * early.
 */
const BATCH_LINES = 1024;

/**
 * {@link readJsonLinesAsync} a batch at a time: the records whose lines a
 * chunk completes (at most {@link BATCH_LINES} at a time), yielded together
 * once the chunk is read. One async step per chunk, not one per line: a
 * reader that drains after each step (`streamImport`) then copies an open
 * item once per chunk rather than once per line, and a 64 KiB chunk of short
 * lines is hundreds of records.
 *
 * @example
 * import { readJsonLineBatchesAsync } from 'src/core/import/lines.js';
 * const body = (await fetch('/session.jsonl')).body!;
 * for await (const batch of readJsonLineBatchesAsync(body, new ImportContext({}))) void batch.length;
 */
export async function* readJsonLineBatchesAsync(
  chunks: ChunkSource,
  ctx: ImportContext,
): AsyncGenerator<JsonLine[]> {
  const decoder = new TextDecoder('utf-8');
  const partial = new PartialLine();
  let line = 0;
  let batch: JsonLine[] = [];
  for await (const chunk of chunksOf(chunks)) {
    const text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    // Newlines are looked for in the new text only: a line that spans many
    // chunks is kept as its pieces and joined once, where appending each
    // chunk and searching the whole again was quadratic (a 40 MB line in
    // 64 KiB chunks took 11 s).
    let at = 0;
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', at)) {
      line++;
      const whole = partial.end(text.slice(at, nl), line, ctx);
      at = nl + 1;
      const parsed = whole === undefined ? undefined : parseLine(whole, line, ctx);
      if (parsed) {
        batch.push(parsed);
        if (batch.length === BATCH_LINES) {
          yield batch;
          batch = [];
        }
      }
    }
    partial.add(at === 0 ? text : text.slice(at));
    if (batch.length > 0) {
      yield batch;
      batch = [];
    }
  }
  partial.add(decoder.decode());
  if (partial.length > 0) {
    line++;
    const whole = partial.end('', line, ctx);
    const parsed = whole === undefined ? undefined : parseLine(whole, line, ctx);
    if (parsed) yield [parsed];
  }
}

/**
 * Past this many code units a line is no longer collected: more than any
 * engine's largest string but Safari's (V8: 2^29 − 24; SpiderMonkey: 2^30 − 2),
 * so memory stays bounded for a line that could never be parsed.
 */
const MAX_LINE_UNITS = 2 ** 30;

/** The pieces of a line that spans chunks ({@link readJsonLinesAsync}). */
class PartialLine {
  readonly #pieces: string[] = [];
  /** Code units seen since the last newline (collected or not). */
  length = 0;

  add(piece: string): void {
    if (piece === '') return;
    this.length += piece.length;
    if (this.length <= MAX_LINE_UNITS) this.#pieces.push(piece);
  }

  /**
   * The line that `last` ends (`last`, after the pieces before it), or
   * `undefined` with a `line_too_long` diagnostic when it cannot be one string.
   */
  end(last: string, line: number, ctx: ImportContext): string | undefined {
    const pieces = this.#pieces;
    const length = this.length + last.length;
    this.length = 0;
    if (pieces.length === 0 && length === last.length) return last;
    let whole: string | undefined;
    if (length <= MAX_LINE_UNITS) {
      pieces.push(last);
      try {
        whole = pieces.join('');
      } catch {
        // Past the engine's largest string (a RangeError): reported below.
      }
    }
    pieces.length = 0;
    if (whole === undefined)
      ctx.warn(jsonPath('$', line - 1), 'line_too_long', line, `${length} characters`);
    return whole;
  }
}
