// Redaction for `skein export`: patterns replaced in a log's text before it is
// embedded, so a secret the agent saw (a key, a token) does not travel with
// the shared file. It works on the log as its format stores it — a JSON
// document, JSON Lines, or a zip of JSON members (an inspect_ai `.eval`) — and
// on decoded string values and keys, never on the raw JSON text: a pattern
// then cannot match across a quote or an escape and break the document, and a
// secret written with JSON escapes (`\u002f`) is still found.
import { strFromU8, strToU8, zipSync, type Zippable } from 'fflate';
import { isZip, openZip } from '../core/import/zip.js';

/** What {@link redactLog} did. */
export interface RedactResult {
  /** The log with every match replaced, in its own format. */
  readonly bytes: Uint8Array;
  /** Matches replaced. */
  readonly count: number;
}

/** The text a match is replaced with. */
export const REDACTED = '[redacted]';

/** `patterns` as global regular expressions (a string is a regular expression's source). */
function globalPatterns(patterns: readonly (RegExp | string)[]): RegExp[] {
  return patterns.map((p) => {
    const re = typeof p === 'string' ? new RegExp(p, 'g') : p;
    return re.global ? new RegExp(re.source, re.flags) : new RegExp(re.source, `${re.flags}g`);
  });
}

/** Sets an own property (a `__proto__` key from JSON.parse is data, not the prototype). */
function own(node: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(node, key, { value, writable: true, enumerable: true, configurable: true });
}

class Redactor {
  count = 0;
  constructor(private readonly patterns: readonly RegExp[]) {}

  text(value: string): string {
    let out = value;
    for (const re of this.patterns) {
      re.lastIndex = 0;
      out = out.replace(re, (match) => {
        // An empty match (a pattern like `x*`) replaces nothing.
        if (match === '') return match;
        this.count++;
        return REDACTED;
      });
    }
    return out;
  }

  /** Every string value and key of a parsed JSON value, walked with a stack (no recursion on input depth). */
  json(root: unknown): unknown {
    if (typeof root === 'string') return this.text(root);
    if (root === null || typeof root !== 'object') return root;
    const stack = [root as Record<string, unknown>];
    while (stack.length) {
      const node = stack.pop()!;
      if (Array.isArray(node)) {
        for (let i = 0; i < node.length; i++) {
          const v: unknown = node[i];
          if (typeof v === 'string') node[i] = this.text(v);
          else if (v !== null && typeof v === 'object') stack.push(v as Record<string, unknown>);
        }
        continue;
      }
      for (const key of Object.keys(node)) {
        const v = node[key];
        const renamed = this.text(key);
        if (renamed !== key) delete node[key];
        if (typeof v === 'string') own(node, renamed, this.text(v));
        else {
          if (renamed !== key) own(node, renamed, v);
          if (v !== null && typeof v === 'object') stack.push(v as Record<string, unknown>);
        }
      }
    }
    return root;
  }

  /** A JSON document, or JSON Lines (a line that is not JSON is redacted as text). */
  document(text: string): string {
    try {
      return JSON.stringify(this.json(JSON.parse(text)));
    } catch {
      // Not one JSON document: lines.
    }
    return text
      .split('\n')
      .map((line) => {
        const body = line.endsWith('\r') ? line.slice(0, -1) : line;
        if (body.trim() === '') return line;
        try {
          return JSON.stringify(this.json(JSON.parse(body)));
        } catch {
          return this.text(line);
        }
      })
      .join('\n');
  }
}

/**
 * Replaces every match of `patterns` in a log's string values and keys
 * (regular expressions, or their sources as strings) with `[redacted]`, and
 * returns the log in its own format: a JSON document or JSON Lines as text,
 * a zip (inspect_ai `.eval`) with each `.json` member redacted (written back
 * deflated). Throws the zip reader's `ImportError` on a zip it cannot open.
 *
 * @example
 * import { redactLog } from 'skein/server';
 * const log = new TextEncoder().encode('{"event":"info","data":"key sk-abc123"}\n');
 * const { bytes, count } = redactLog(log, [/sk-[a-z0-9]+/]);
 * // count 1; the line now reads "key [redacted]"
 */
export function redactLog(bytes: Uint8Array, patterns: readonly (RegExp | string)[]): RedactResult {
  const redactor = new Redactor(globalPatterns(patterns));
  if (patterns.length === 0) return { bytes, count: 0 };
  if (isZip(bytes)) {
    const zip = openZip(bytes);
    const out: Zippable = {};
    for (const name of zip.entries.keys()) {
      const data = zip.read(name);
      out[name] = name.endsWith('.json') ? strToU8(redactor.document(strFromU8(data))) : data;
    }
    return { bytes: zipSync(out, { level: 6 }), count: redactor.count };
  }
  const text = new TextDecoder().decode(bytes);
  return { bytes: new TextEncoder().encode(redactor.document(text)), count: redactor.count };
}
