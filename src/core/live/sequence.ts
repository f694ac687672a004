/**
 * Sequence ids of a live feed. Every entry a server sends carries
 * the id `<streamId>:<seq>`: the stream id names one server-side stream (a new
 * one after a restart that lost the old history), the sequence orders entries
 * within it. An `EventStream` numbers its entries 1, 2, 3…; Redis Streams use
 * their entry ids (`1718000000000-0`). Both compare as tuples of integers.
 */

/**
 * Compares two sequences: negative when `a` comes before `b`, 0 when equal,
 * positive after. Sequences are decimal integers or Redis entry ids
 * (`<ms>-<n>`), compared part by part as integers (not as strings, where
 * `"10" < "9"`). Digits beyond 2^53 still compare right: longer is larger.
 *
 * @example
 * import { compareSeq } from './sequence.js';
 * compareSeq('9', '10'); // < 0
 * compareSeq('1718000000000-2', '1718000000000-10'); // < 0
 */
export function compareSeq(a: string, b: string): number {
  if (a === b) return 0;
  const pa = a.split('-');
  const pb = b.split('-');
  const n = Math.max(pa.length, pb.length);
  for (let i = 0; i < n; i++) {
    const x = stripZeros(pa[i] ?? '0');
    const y = stripZeros(pb[i] ?? '0');
    if (x.length !== y.length) return x.length - y.length;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

function stripZeros(digits: string): string {
  let i = 0;
  while (i < digits.length - 1 && digits.charCodeAt(i) === 48) i++;
  return i === 0 ? digits : digits.slice(i);
}

/** Whether `seq` is a well-formed sequence: `123` or `123-4`. */
export function isSeq(seq: string): boolean {
  return /^\d{1,20}(-\d{1,20})?$/.test(seq);
}

/**
 * The sequence that must follow `seq` when the source numbers its entries
 * densely (plain integers, as `EventStream` does), or `undefined` when the
 * next one cannot be known (Redis ids have gaps). Lets a client tell a gap
 * (a lost entry) from a normal step.
 *
 * @example
 * import { nextDenseSeq } from 'src/core/live/sequence.js';
 * nextDenseSeq('41'); // '42'
 * nextDenseSeq('1718000000000-0'); // undefined
 */
export function nextDenseSeq(seq: string): string | undefined {
  if (!/^\d{1,15}$/.test(seq)) return undefined;
  return String(Number(seq) + 1);
}

/**
 * An id as it travels on the wire: `<streamId>:<seq>`.
 *
 * @example
 * formatEventId('k3x9q2', '42'); // 'k3x9q2:42'
 */
export function formatEventId(streamId: string, seq: string): string {
  return `${streamId}:${seq}`;
}

/**
 * Reads a wire id (`Last-Event-ID`, a `from` query): `{ streamId, seq }`, or
 * `{ streamId: null, seq }` for a bare sequence, or `null` when it is not an
 * id at all.
 *
 * @example
 * parseEventId('k3x9q2:42'); // { streamId: 'k3x9q2', seq: '42' }
 * parseEventId('42'); // { streamId: null, seq: '42' }
 */
export function parseEventId(id: string): { streamId: string | null; seq: string } | null {
  const text = id.trim();
  const colon = text.lastIndexOf(':');
  const streamId = colon < 0 ? null : text.slice(0, colon);
  const seq = colon < 0 ? text : text.slice(colon + 1);
  if (!isSeq(seq) || streamId === '') return null;
  return { streamId, seq };
}

/** Characters of generated stream ids: lower-case letters and digits, URL- and header-safe. */
const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

interface CryptoLike {
  getRandomValues(array: Uint8Array): Uint8Array;
}

/**
 * A fresh random stream id (12 characters, ~62 bits). Uses
 * `globalThis.crypto.getRandomValues` where the runtime has it (browsers,
 * workers, Node ≥ 20 all do) and `Math.random` otherwise: it only has to
 * differ between server restarts, not resist guessing.
 *
 * @example
 * import { createStreamId } from './sequence.js';
 * createStreamId(); // 'q8z0m3kd7a1x'
 */
export function createStreamId(): string {
  const bytes = new Uint8Array(12);
  const crypto = (globalThis as { crypto?: CryptoLike }).crypto;
  if (crypto !== undefined) crypto.getRandomValues(bytes);
  else for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
  let out = '';
  for (const b of bytes) out += ID_ALPHABET[b % ID_ALPHABET.length];
  return out;
}
