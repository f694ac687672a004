/**
 * Deterministic uuids for events that arrive without one (inspect logs before
 * mid-2025, inspect_ai's `event/_base.py`; minimal fixtures; other formats).
 */

// shortuuid's alphabet (no 0/1/I/O/l), so derived ids look like inspect's own
// 22-character ids and fit wherever those fit (URLs, DOM ids).
const ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * A 22-character id (about 116 bits) that is a pure function of `key`: the
 * same key always gives the same id, different keys practically never
 * collide. Four independent 32-bit multiply-xor lanes over the UTF-16 code
 * units, each finished with murmur3's avalanche.
 *
 * Not cryptographic: it only has to be stable and well spread.
 *
 * @example
 * import { deriveEventUuid } from './uuid.js';
 * deriveEventUuid('$.samples[0].events[3]\u0000model\u00002026-06-10T18:24:10Z');
 * // always the same 22 characters
 */
export function deriveEventUuid(key: string): string {
  return hashFrom(0x9e3779b9, 0x243f6a88, 0xb7e15162, 0x85a308d3, 0, key, '');
}

/**
 * {@link deriveEventUuid} of `prefix + key`, for many keys under one prefix
 * (an importer's seed): the prefix is hashed once, not once per key, and no
 * `prefix + key` string is built per call. The same ids as `deriveEventUuid`
 * of the joined string, since the lanes read the code units in order. A
 * `suffix` is read after the key, as if joined to it: `(key, '/end')`, not
 * `key + '/end'`, a string made (and flattened to be read) per call.
 *
 * @example
 * import { deriveEventUuid } from './uuid.js';
 * import { uuidDeriver } from 'src/core/events/uuid.js';
 * const uuidOf = uuidDeriver('acp\u0000');
 * uuidOf('$[3]') === deriveEventUuid('acp\u0000$[3]'); // true
 */
export function uuidDeriver(prefix: string): (key: string, suffix?: string) => string {
  let h1 = 0x9e3779b9;
  let h2 = 0x243f6a88;
  let h3 = 0xb7e15162;
  let h4 = 0x85a308d3;
  for (let i = 0; i < prefix.length; i++) {
    const c = prefix.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    h3 = Math.imul(h3 ^ c, 0x27d4eb2f);
    h4 = Math.imul(h4 ^ c, 0x165667b1);
  }
  const len = prefix.length;
  return (key, suffix = '') => hashFrom(h1, h2, h3, h4, len, key, suffix);
}

/**
 * Four independent 32-bit multiply-xor lanes, from `h1…h4` after `before`
 * code units, over `key` then `suffix`.
 */
function hashFrom(
  h1: number,
  h2: number,
  h3: number,
  h4: number,
  before: number,
  key: string,
  suffix: string,
): string {
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    h3 = Math.imul(h3 ^ c, 0x27d4eb2f);
    h4 = Math.imul(h4 ^ c, 0x165667b1);
  }
  for (let i = 0; i < suffix.length; i++) {
    const c = suffix.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    h3 = Math.imul(h3 ^ c, 0x27d4eb2f);
    h4 = Math.imul(h4 ^ c, 0x165667b1);
  }
  const len = before + key.length + suffix.length;
  const l0 = fmix32(h1 ^ len);
  const l1 = fmix32(h2 ^ h1);
  const l2 = fmix32(h3 ^ h2);
  const l3 = fmix32(h4 ^ h3);
  // The 22 characters are written as codes and made into one flat string:
  // appending them one at a time built a chain of 22 strings per uuid (rope
  // nodes past 13 characters), a measurable share of every import's garbage.
  digitsOf(l0, 0);
  digitsOf(l1, 5);
  digitsOf(l2, 10);
  digitsOf(l3, 15);
  const h = fmix32(l0 ^ Math.imul(l2, 31) ^ l3);
  const v = h - Math.floor(h / (57 * 57)) * (57 * 57); // h % 3249, as below
  const q = (v / 57) | 0;
  codes[20] = CODES[v - q * 57]!;
  codes[21] = CODES[q]!;
  // Twenty-two arguments, not `apply` with the array: twice as fast.
  const c = codes;
  // prettier-ignore
  return String.fromCharCode(
    c[0]!, c[1]!, c[2]!, c[3]!, c[4]!, c[5]!, c[6]!, c[7]!, c[8]!, c[9]!, c[10]!,
    c[11]!, c[12]!, c[13]!, c[14]!, c[15]!, c[16]!, c[17]!, c[18]!, c[19]!, c[20]!, c[21]!,
  );
}

const CODES = Array.from(ALPHABET, (c) => c.charCodeAt(0));
const codes: number[] = new Array<number>(22).fill(0);

/**
 * Five base-57 digits of `v` (an unsigned 32-bit value), least significant
 * first, into `codes` from `at`. The same digits as `v % 57` and
 * `(v - d) / 57`, by division and truncation: `%` of a value above 2^31 (a
 * double, not a small integer) is a call to fmod, and made this loop three
 * times slower. `Math.floor(v / 57)` is exact here (the quotient's rounding
 * error is far below 1/57), and the rest fits in an int32.
 */
function digitsOf(v: number, at: number): void {
  const q = Math.floor(v / 57);
  codes[at] = CODES[v - q * 57]!;
  let w = q | 0;
  for (let k = 1; k < 5; k++) {
    const next = (w / 57) | 0;
    codes[at + k] = CODES[w - next * 57]!;
    w = next;
  }
}
