// What an input is, in words, for the message shown when no format reads it
// ("a message that says what the file is and what was expected").
// It reads only what the sniffs already read: the head, the first records,
// a zip's central directory.
import { SkeinError } from '../errors.js';
import { isRecord } from './guards.js';
import { Probe, type ImportInput } from './probe.js';
import { openZip } from './zip.js';

function keys(value: Record<string, unknown>): string {
  const names = Object.keys(value);
  if (names.length === 0) return 'no keys';
  const shown = names.slice(0, 5).map((k) => JSON.stringify(k));
  return `keys ${shown.join(', ')}${names.length > 5 ? `, … (${names.length})` : ''}`;
}

function shape(value: unknown): string {
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (isRecord(value)) return `an object with ${keys(value)}`;
  if (value === null) return 'null';
  return `a ${typeof value}`;
}

function hasControlBytes(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 9 || (c > 13 && c < 27)) return true;
  }
  return false;
}

/**
 * Describes an input in a few words — "a truncated zip archive (…)", "a JSON
 * object with keys "a", "b"", "JSON Lines whose first record is …", "plain
 * text (3 lines)", "binary data", "an empty file" — for error messages about
 * input no format recognises. Never throws.
 *
 * @example
 * describeInput('hello\nworld'); // 'plain text (2 lines)'
 */
export function describeInput(input: ImportInput): string {
  try {
    const probe = new Probe(input);
    const bytes = probe.bytes;
    if (bytes !== undefined && bytes.length === 0) return 'an empty file';
    if (probe.isZip) {
      try {
        const zip = openZip(bytes!);
        const names = [...zip.entries.keys()];
        const shown = names.slice(0, 3).join(', ');
        return `a zip archive of ${names.length} member${names.length === 1 ? '' : 's'} (${shown}${names.length > 3 ? ', …' : ''}) without header.json or _journal/, so not an inspect_ai .eval`;
      } catch (e) {
        const why = e instanceof SkeinError ? e.message.replace(/ \(at \$\)$/, '') : String(e);
        return `a zip archive that cannot be opened: ${why}`;
      }
    }
    if (!probe.isRaw) return `a parsed value: ${shape(probe.json())}`;
    const head = probe.head();
    if (head === '') return 'an empty file';
    // NUL or other control bytes in the head: not text at all.
    if (hasControlBytes(head.slice(0, 4096))) return 'binary data';
    const first = head.charAt(0);
    if (first === '{' || first === '[') {
      const doc = probe.json();
      if (doc !== undefined) return `a JSON document: ${shape(doc)}`;
      if (probe.isJsonLines()) {
        const records = probe.records(1);
        return `JSON Lines whose first record is ${shape(records[0])}`;
      }
      const why = probe.jsonError;
      const detail = why instanceof SkeinError ? why.message : 'it does not parse';
      return `text that starts like JSON but is not valid JSON (${detail})`;
    }
    const text = probe.text() ?? head;
    const lines = text.split('\n').filter((l) => l.trim() !== '').length;
    return `plain text (${lines} line${lines === 1 ? '' : 's'})`;
  } catch {
    return 'an input that could not be examined';
  }
}
