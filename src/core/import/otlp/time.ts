// Ids, enums and times of OTLP/JSON records: span and trace ids in any of
// their spellings as lowercase hex, enum names, and 64-bit nanosecond counts
// as exact ISO times (https://opentelemetry.io/docs/specs/otlp/#json-protobuf-encoding).
import { timestampMs } from '../../events/timestamp.js';

const HEX = /^[0-9a-f]+$/;

/**
 * Span and trace ids in lowercase hex. OTLP/JSON writes hex (either case);
 * the generic proto3 JSON mapping writes base64 and Python's console exporter
 * `0x…`; all read alike.
 */
export function readId(v: unknown): string {
  if (typeof v !== 'string' || v === '') return '';
  // The usual spelling (16 or 32 lowercase hex digits) is the id as it is: no
  // lowercased copy and no regular expressions.
  if ((v.length === 16 || v.length === 32) && isLowerHex(v)) return v;
  let s = v.toLowerCase();
  if (s.startsWith('0x')) s = s.slice(2);
  if (HEX.test(s) && (s.length === 16 || s.length === 32)) return s;
  if (/^[A-Za-z0-9+/]+={0,2}$/.test(v) && (v.length === 12 || v.length === 24)) {
    const bytes = base64Bytes(v);
    if (bytes && (bytes.length === 8 || bytes.length === 16)) return hexOf(bytes);
  }
  return HEX.test(s) ? s : v;
}

function isLowerHex(v: string): boolean {
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c > 102 /* f */ || (c < 97 /* a */ && (c < 48 /* 0 */ || c > 57)) /* 9 */) return false;
  }
  return true;
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function base64Bytes(s: string): number[] | undefined {
  const clean = s.replace(/=+$/, '');
  const out: number[] = [];
  let bits = 0;
  let acc = 0;
  for (let i = 0; i < clean.length; i++) {
    const d = B64.indexOf(clean.charAt(i));
    if (d < 0) return undefined;
    acc = (acc << 6) | d;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push((acc >> bits) & 0xff);
    }
  }
  return out;
}

function hexOf(bytes: number[]): string {
  let s = '';
  for (const b of bytes) s += (b < 16 ? '0' : '') + b.toString(16);
  return s;
}

/** `3`, `"SPAN_KIND_CLIENT"`, `"SpanKind.CLIENT"`, `"CLIENT"` → `CLIENT`. */
export function enumName(v: unknown, names: readonly string[], prefix: string): string | undefined {
  if (typeof v === 'number') return names[v] ?? String(v);
  if (typeof v !== 'string' || v === '') return undefined;
  let s = v.toUpperCase();
  if (s.startsWith(prefix)) s = s.slice(prefix.length);
  const dot = s.lastIndexOf('.');
  if (dot >= 0) s = s.slice(dot + 1);
  return s;
}

const MAX_SECONDS = 253402300799; // 9999-12-31T23:59:59Z

/** A nanosecond count (decimal string or number) as digits, or undefined (absent, 0, bad). */
export function readNanos(v: unknown): string | undefined {
  let s: string;
  if (typeof v === 'string') s = v;
  else if (typeof v === 'number' && Number.isInteger(v) && v >= 0) s = BigInt(v).toString();
  else return undefined;
  // 1–21 digits, not all zeros.
  const len = s.length;
  if (len === 0 || len > 21) return undefined;
  let zeros = true;
  for (let i = 0; i < len; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return undefined;
    if (c !== 48) zeros = false;
  }
  return zeros ? undefined : s;
}

/**
 * The milliseconds of the time {@link nanosToIso} or {@link isoTime} last
 * returned: read right after the call, so no `{iso, ms}` object is made per
 * time (two per span).
 */
export let readMs = Number.NaN;

/** Exact ISO time of a nanosecond count (sub-millisecond digits kept); its ms in {@link readMs}. */
export function nanosToIso(ns: string): string | undefined {
  // `ns` is 1–21 digits (readNanos): the seconds and the nine digits below
  // read as numbers digit by digit, without slices.
  const len = ns.length;
  const split = len > 9 ? len - 9 : 0;
  let sec = 0;
  for (let i = 0; i < split; i++) sec = sec * 10 + (ns.charCodeAt(i) - 48);
  if (sec > MAX_SECONDS) return undefined;
  const codes = isoCodes;
  let nanos = 0;
  for (let k = 0; k < 9; k++) {
    const at = split + k - (9 - (len - split)); // digit k of the zero-padded nine
    const d = at >= split ? ns.charCodeAt(at) - 48 : 0;
    nanos = nanos * 10 + d;
    codes[20 + k] = 48 + d;
  }
  const ms = sec * 1000 + nanos / 1e6;
  // Trailing groups of three zeros are left out (…:05.123Z, not …:05.123000000Z).
  let digits = 9;
  while (digits > 3 && nanos % 1000 === 0) {
    digits -= 3;
    nanos /= 1000;
  }
  // The date of a day is formatted once; the time of day from its digits. One
  // flat string, not a concatenation (a rope each event kept, flattened again
  // when its time was read) nor a `Date` and `toISOString` per second.
  const day = Math.floor(sec / 86400);
  if (day !== isoDay) {
    isoDay = day;
    const date = new Date(day * 86400000).toISOString(); // YYYY-MM-DDT…
    for (let i = 0; i < 11; i++) codes[i] = date.charCodeAt(i);
  }
  const tod = sec - day * 86400;
  const h = Math.floor(tod / 3600);
  const m = Math.floor((tod - h * 3600) / 60);
  const sc = tod - h * 3600 - m * 60;
  codes[11] = 48 + Math.floor(h / 10);
  codes[12] = 48 + (h % 10);
  codes[14] = 48 + Math.floor(m / 10);
  codes[15] = 48 + (m % 10);
  codes[17] = 48 + Math.floor(sc / 10);
  codes[18] = 48 + (sc % 10);
  codes[20 + digits] = 90; // Z
  readMs = ms;
  // The codes as arguments, not `apply` with the list cut to length: about
  // twice as fast, as for uuids (events/uuid.ts).
  const c = codes;
  if (digits === 9)
    // prettier-ignore
    return String.fromCharCode(
      c[0]!, c[1]!, c[2]!, c[3]!, c[4]!, c[5]!, c[6]!, c[7]!, c[8]!, c[9]!,
      c[10]!, c[11]!, c[12]!, c[13]!, c[14]!, c[15]!, c[16]!, c[17]!, c[18]!, c[19]!,
      c[20]!, c[21]!, c[22]!, c[23]!, c[24]!, c[25]!, c[26]!, c[27]!, c[28]!, c[29]!,
    );
  if (digits === 6)
    // prettier-ignore
    return String.fromCharCode(
      c[0]!, c[1]!, c[2]!, c[3]!, c[4]!, c[5]!, c[6]!, c[7]!, c[8]!, c[9]!,
      c[10]!, c[11]!, c[12]!, c[13]!, c[14]!, c[15]!, c[16]!, c[17]!, c[18]!, c[19]!,
      c[20]!, c[21]!, c[22]!, c[23]!, c[24]!, c[25]!, c[26]!,
    );
  // prettier-ignore
  return String.fromCharCode(
    c[0]!, c[1]!, c[2]!, c[3]!, c[4]!, c[5]!, c[6]!, c[7]!, c[8]!, c[9]!,
    c[10]!, c[11]!, c[12]!, c[13]!, c[14]!, c[15]!, c[16]!, c[17]!, c[18]!, c[19]!,
    c[20]!, c[21]!, c[22]!, c[23]!,
  );
}

let isoDay = Number.NaN;
/** `YYYY-MM-DDThh:mm:ss.` and up to nine digits and `Z`, as char codes. */
const isoCodes: number[] = Array.from('0000-00-00T00:00:00.000000000Z', (c) => c.charCodeAt(0));

// Numbers of 16+ digits where OTLP puts 64-bit integers: quoted before
// parsing so JSON.parse cannot round them (a double holds integers only up to 2^53).
const BIG_INT_FIELD =
  /("(?:startTimeUnixNano|endTimeUnixNano|timeUnixNano|observedTimeUnixNano|intValue)"\s*:\s*)(-?\d{16,})/g;

/**
 * `text` with the 64-bit integers OTLP/JSON writes as numbers (times,
 * `intValue`) quoted when they have 16 or more digits, so `JSON.parse`
 * keeps them exact.
 *
 * @example
 * import { quoteBigInts } from 'src/core/import/otlp/otlp.js';
 * JSON.parse(quoteBigInts('{"timeUnixNano":1700000000000000001}')); // { timeUnixNano: '1700000000000000001' }
 */
export function quoteBigInts(text: string): string {
  return hasBigInt(text) ? text.replace(BIG_INT_FIELD, '$1"$2"') : text;
}

/**
 * Whether {@link BIG_INT_FIELD} matches somewhere in `text`: {@link BIG_INT_TAIL}
 * finds where one of the names' two endings is followed by a number of 16 or
 * more digits (seldom anywhere: times are usually strings), and the whole
 * name is checked there. The full regex tried its five names at every `"` of
 * the text, a scan as long as a third of the parse; a search for each ending
 * in turn (`indexOf`) stopped at each of the hundreds of thousands of times
 * and values, and took twice as long as this one scan.
 */
function hasBigInt(text: string): boolean {
  const tail = BIG_INT_TAIL;
  tail.lastIndex = 0;
  for (let m = tail.exec(text); m !== null; m = tail.exec(text)) {
    const end = m.index + TAIL_LENGTH; // after the closing quote
    if (BIG_INT_NAMES.some((name) => endsNameAt(text, end, name))) return true;
    tail.lastIndex = m.index + 1;
  }
  return false;
}

/** `UnixNano"` or `intValue"` (both {@link TAIL_LENGTH} characters), then `\s*:\s*-?\d{16}`. */
const BIG_INT_TAIL = /(?:UnixNano|intValue)"\s*:\s*-?\d{16}/g;
const TAIL_LENGTH = 9;
const BIG_INT_NAMES = [
  '"startTimeUnixNano"',
  '"endTimeUnixNano"',
  '"timeUnixNano"',
  '"observedTimeUnixNano"',
  '"intValue"',
];

function endsNameAt(text: string, end: number, name: string): boolean {
  return end >= name.length && text.startsWith(name, end - name.length);
}

/** An ISO time string that parses, or undefined; its ms in {@link readMs}. */
export function isoTime(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  const ms = timestampMs(v);
  if (!Number.isFinite(ms)) return undefined;
  readMs = ms;
  return v;
}

/** A span event's time as `{iso, ms}` (span events are few). */
export function timeOf(iso: string | undefined): { iso: string; ms: number } | undefined {
  return iso === undefined ? undefined : { iso, ms: readMs };
}
