// Span ids as keys: what counts as none, and the hash the builders' tables use.

/** `span_id` / `parent_id` as a key: inspect treats `''` like null (`if span_id and …`, `_tree.py`). */
export function keyOf(value: string | null | undefined): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/**
 * A string hash over every UTF-16 code unit, two per multiply (FNV-1a
 * style), then a final mix so the low bits a table uses depend on all of them.
 * Every character counts: ids from other producers may differ only in a few
 * places (`evt-000123`). Not a string (malformed input): 0, and `===` decides.
 */
export function hashKey(key: unknown): number {
  if (typeof key !== 'string') return 0;
  const n = key.length;
  let h = 0x811c9dc5 ^ n;
  let k = 0;
  for (; k + 1 < n; k += 2) {
    h = Math.imul(h ^ (key.charCodeAt(k) | (key.charCodeAt(k + 1) << 16)), 0x01000193);
  }
  if (k < n) h = Math.imul(h ^ key.charCodeAt(k), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  return h ^ (h >>> 13);
}
