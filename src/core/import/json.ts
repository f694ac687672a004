// JSON helpers shared by importers: UTF-8 decoding and a parse that tolerates the
// bare `NaN`, `Infinity` and `-Infinity` tokens Python writers emit
// (pydantic `ser_json_inf_nan="constants"`, inspect_ai's `log/_log.py`).
// Spec: RFC 8259 (https://www.rfc-editor.org/rfc/rfc8259) — which forbids those tokens.
import { ImportError } from '../errors.js';

const utf8 = new TextDecoder('utf-8');

/**
 * Decodes UTF-8 bytes to a string (a leading BOM is dropped, bad bytes become U+FFFD).
 *
 * @example
 * import { decodeUtf8 } from 'src/core/import/json.js';
 * decodeUtf8(new Uint8Array([0x68, 0x69])); // 'hi'
 */
export function decodeUtf8(bytes: Uint8Array): string {
  return utf8.decode(bytes);
}

// Sentinels chosen so no real JSON string can hold them: they start with a
// control character that JSON requires to be escaped inside strings.
const NAN = '\u0000NaN';
const POS_INF = '\u0000Infinity';
const NEG_INF = '\u0000-Infinity';

function revive(_key: string, value: unknown): unknown {
  if (typeof value === 'string' && value.charCodeAt(0) === 0) {
    if (value === NAN) return NaN;
    if (value === POS_INF) return Infinity;
    if (value === NEG_INF) return -Infinity;
  }
  return value;
}

/**
 * Rewrites bare `NaN`, `Infinity` and `-Infinity` tokens outside strings into
 * sentinel strings that {@link parseJsonTolerant} revives. Returns `undefined`
 * when the text has no such token (so the caller's parse error stands).
 */
function rewriteNonFinite(text: string): string | undefined {
  // Most text that fails to parse (JSON Lines tried as one document, a cut-off
  // file) has no such token: two native substring searches answer that far
  // faster than the character loop below (`-Infinity` contains `Infinity`).
  if (text.indexOf('NaN') < 0 && text.indexOf('Infinity') < 0) return undefined;
  let out: string[] | undefined;
  let last = 0;
  let inString = false;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
      continue;
    }
    if (c === 34) {
      inString = true;
      continue;
    }
    let token: string | undefined;
    let sentinel = '';
    if (c === 78 /* N */ && text.startsWith('NaN', i)) {
      token = 'NaN';
      sentinel = NAN;
    } else if (c === 73 /* I */ && text.startsWith('Infinity', i)) {
      token = 'Infinity';
      sentinel = POS_INF;
    } else if (c === 45 /* - */ && text.startsWith('-Infinity', i)) {
      token = '-Infinity';
      sentinel = NEG_INF;
    }
    if (token === undefined) continue;
    out ??= [];
    out.push(text.slice(last, i), JSON.stringify(sentinel));
    i += token.length - 1;
    last = i + 1;
  }
  if (!out) return undefined;
  out.push(text.slice(last));
  return out.join('');
}

/**
 * Parses JSON text. Tries `JSON.parse` first (the fast, common path); only when
 * that fails does it rewrite bare `NaN`/`Infinity`/`-Infinity` tokens outside
 * strings and parse again, reviving them as numbers. Invalid JSON throws an
 * {@link ImportError} with code `invalid_json` at `path`.
 *
 * @example
 * import { parseJsonTolerant } from 'src/core/import/json.js';
 * parseJsonTolerant('{"value": NaN}', '$'); // { value: NaN }
 */
export function parseJsonTolerant(text: string, path: string): unknown {
  try {
    return parseJsonText(text);
  } catch (first) {
    const detail = first instanceof Error ? first.message : String(first);
    throw new ImportError('invalid_json', path, detail).causedBy(first);
  }
}

/**
 * {@link parseJsonTolerant} that throws `JSON.parse`'s own error (of the
 * original text), for callers that report it their way (a JSON line).
 *
 * @example
 * import { parseJsonText } from 'src/core/import/json.js';
 * parseJsonText('[1, Infinity]'); // [1, Infinity]
 */
export function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (first) {
    const rewritten = rewriteNonFinite(text);
    if (rewritten !== undefined) {
      try {
        return JSON.parse(rewritten, revive) as unknown;
      } catch {
        // Report the error of the original text: its positions are the user's.
      }
    }
    throw first;
  }
}

/**
 * {@link decodeUtf8} then {@link parseJsonTolerant}.
 *
 * @example
 * import { openZip } from 'src/core/import/zip.js';
 * import { parseJsonBytes } from 'src/core/import/json.js';
 * declare const bytes: Uint8Array; // an .eval file
 * const zip = openZip(bytes);
 * parseJsonBytes(zip.read('header.json'), '$["header.json"]');
 */
export function parseJsonBytes(bytes: Uint8Array, path: string): unknown {
  const text = decodeUtf8(bytes);
  const value = parseJsonTolerant(text, path);
  // A ref is an `attachment://` or `tc://` string. If the text has neither,
  // no value parsed from it can hold one, and the resolver may skip its walk
  // over every object (one substring scan instead of a walk over the graph).
  // A document that spells a ref with \u escapes is not inspect's output;
  // it is still parsed, only left unresolved.
  if (typeof value === 'object' && value !== null && !hasRefPrefix(text)) refFree.add(value);
  return value;
}

const ATTACHMENT_SCHEME = 'attachment';
const LEGACY_SCHEME = 'tc';

/**
 * True when `text` contains `attachment://` or `tc://`: one scan for `://`
 * with a look-behind at each hit (URLs give a few), instead of one full scan
 * per ref prefix — about a third of the time on a 150 MB log, since `a` and
 * `t`, where those scans start every comparison, occur everywhere.
 *
 * @example
 * import { hasRefPrefix } from 'src/core/import/json.js';
 * hasRefPrefix('{"text": "attachment://3f2a"}'); // true
 * hasRefPrefix('{"url": "https://example.com"}'); // false
 */
export function hasRefPrefix(text: string): boolean {
  for (let i = text.indexOf('://'); i >= 0; i = text.indexOf('://', i + 3)) {
    if (
      (i >= ATTACHMENT_SCHEME.length &&
        text.startsWith(ATTACHMENT_SCHEME, i - ATTACHMENT_SCHEME.length)) ||
      (i >= LEGACY_SCHEME.length && text.startsWith(LEGACY_SCHEME, i - LEGACY_SCHEME.length))
    ) {
      return true;
    }
  }
  return false;
}

const refFree = new WeakSet<object>();

/**
 * True when `value` is the root of a document {@link parseJsonBytes} read and
 * its text contained no `attachment://` or `tc://` ref.
 *
 * @example
 * import { isRefFree, parseJsonBytes } from 'src/core/import/json.js';
 * declare const bytes: Uint8Array;
 * declare function skipResolution(): void;
 * const doc = parseJsonBytes(bytes, '$');
 * if (isRefFree(doc)) skipResolution();
 */
export function isRefFree(value: unknown): boolean {
  return typeof value === 'object' && value !== null && refFree.has(value);
}
