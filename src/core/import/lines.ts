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
import { decodeUtf8 } from './json.js';
import { chunksOf, type ChunkSource } from '../chunks.js';

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
    return { value: JSON.parse(body) as unknown, line, path: jsonPath('$', line - 1), text: body };
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
 * const ctx = new ImportContext();
 * declare const text: string; // JSONL
 * declare function handle(value: unknown, path: string): void;
 * for (const { value, path } of readJsonLines(text, ctx)) handle(value, path);
 */
export function* readJsonLines(
  input: string | Uint8Array,
  ctx: ImportContext,
): Generator<JsonLine> {
  const text = typeof input === 'string' ? input : decodeUtf8(input);
  let line = 0;
  let at = 0;
  const n = text.length;
  while (at <= n) {
    let nl = text.indexOf('\n', at);
    if (nl < 0) nl = n;
    line++;
    const parsed = parseLine(text.slice(at, nl), line, ctx);
    if (parsed) yield parsed;
    at = nl + 1;
  }
}

/**
 * {@link readJsonLines} as a loop that calls `each` per record: the same
 * records, paths and diagnostics, without a generator step and a record
 * object per line (the whole-file imports, where that was a tenth of the
 * time of reading the lines).
 *
 * @example
 * import { forEachJsonLine } from 'src/core/import/lines.js';
 * declare const text: string; // JSONL
 * const ctx = new ImportContext({});
 * const importer = acpFormat.incremental({});
 * forEachJsonLine(text, ctx, (value, path) => importer.push(value, path));
 */
export function forEachJsonLine(
  input: string | Uint8Array,
  ctx: ImportContext,
  each: (value: unknown, path: string) => void,
): void {
  const text = typeof input === 'string' ? input : decodeUtf8(input);
  const n = text.length;
  let line = 0;
  let at = 0;
  while (at <= n) {
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
      value = JSON.parse(text.slice(start, end)) as unknown;
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
}

/**
 * Reads JSON lines from chunks (strings or UTF-8 bytes, split anywhere — even
 * inside a multi-byte character) of an async iterable or a ReadableStream,
 * yielding each record as soon as its line is complete. The last line needs no
 * newline.
 *
 * @example
 * const body = (await fetch('/session.jsonl')).body!;
 * const ctx = new ImportContext({});
 * const importer = acpFormat.incremental({});
 * for await (const { value, path } of readJsonLinesAsync(body, ctx)) importer.push(value, path);
 */
export async function* readJsonLinesAsync(
  chunks: ChunkSource,
  ctx: ImportContext,
): AsyncGenerator<JsonLine> {
  const decoder = new TextDecoder('utf-8');
  let pending = '';
  let line = 0;
  for await (const chunk of chunksOf(chunks)) {
    pending += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    let at = 0;
    for (let nl = pending.indexOf('\n'); nl >= 0; nl = pending.indexOf('\n', at)) {
      line++;
      const parsed = parseLine(pending.slice(at, nl), line, ctx);
      at = nl + 1;
      if (parsed) yield parsed;
    }
    pending = pending.slice(at);
  }
  pending += decoder.decode();
  if (pending.length > 0) {
    line++;
    const parsed = parseLine(pending, line, ctx);
    if (parsed) yield parsed;
  }
}
