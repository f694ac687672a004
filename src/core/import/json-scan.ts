// A byte-level JSON structure scanner for reading a big inspect `.json` log
// as it arrives (`streamInspectSample`): it finds where values begin and end
// without building them. Nesting is followed by a depth counter, not
// recursion, so any depth is scanned in constant stack.
//
// The scanner checks structure (strings, escapes, nesting, the commas and
// colons between members) but not the values it skips: whoever uses a range
// parses it with JSON.parse, which checks the rest.

/** The input is not the structure the scanner expected at `pos`. */
export class ScanError extends Error {
  constructor(readonly pos: number) {
    super(`unexpected JSON structure at byte ${pos}`);
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

const utf8 = new TextDecoder('utf-8');

/** A cursor over JSON bytes. */
export class JsonScanner {
  pos: number;
  /** The bytes scanned; a reader may swap in a longer prefix of the same text as it arrives. */
  bytes: Uint8Array;
  constructor(bytes: Uint8Array, pos = 0) {
    this.bytes = bytes;
    this.pos = pos;
  }

  /** Skips whitespace (and a UTF-8 BOM at the start); returns the next byte, or -1 at the end. */
  peek(): number {
    const b = this.bytes;
    let p = this.pos;
    if (p === 0 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) p = 3;
    for (; p < b.length; p++) {
      const c = b[p]!;
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
    }
    this.pos = p;
    return p < b.length ? b[p]! : -1;
  }

  /** Consumes `byte` (after whitespace) or throws. */
  expect(byte: number): void {
    if (this.peek() !== byte) throw new ScanError(this.pos);
    this.pos++;
  }

  /** Consumes `byte` (after whitespace) when it is next. */
  eat(byte: number): boolean {
    if (this.peek() !== byte) return false;
    this.pos++;
    return true;
  }

  /** The end (after the closing quote) of the string whose opening quote is at `p`. */
  stringEnd(p: number): number {
    const b = this.bytes;
    for (let q = p + 1; ;) {
      const close = b.indexOf(QUOTE, q);
      if (close < 0) throw new ScanError(p);
      // Escaped when preceded by an odd run of backslashes.
      let k = close - 1;
      while (b[k] === BACKSLASH) k--;
      if ((close - 1 - k) % 2 === 0) return close + 1;
      q = close + 1;
    }
  }

  /** Reads an object key and its colon; the key decoded (escapes included). */
  key(): string {
    if (this.peek() !== QUOTE) throw new ScanError(this.pos);
    const start = this.pos;
    const end = this.stringEnd(start);
    const raw = this.bytes.subarray(start, end);
    // Keys are short; only one with an escape needs JSON.parse.
    const key =
      raw.indexOf(BACKSLASH) < 0
        ? utf8.decode(raw.subarray(1, raw.length - 1))
        : (JSON.parse(utf8.decode(raw)) as string);
    this.pos = end;
    this.expect(COLON);
    return key;
  }

  /** Skips one value (after whitespace); returns its `[start, end)` byte range. */
  value(): [number, number] {
    const c = this.peek();
    const b = this.bytes;
    const start = this.pos;
    if (c === QUOTE) {
      this.pos = this.stringEnd(start);
      return [start, this.pos];
    }
    if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      let depth = 0;
      let p = start;
      const n = b.length;
      for (; p < n; p++) {
        const x = b[p]!;
        if (x === QUOTE) p = this.stringEnd(p) - 1;
        else if (x === OPEN_OBJECT || x === OPEN_ARRAY) depth++;
        else if (x === CLOSE_OBJECT || x === CLOSE_ARRAY) {
          if (--depth === 0) break;
        }
      }
      if (p >= n) throw new ScanError(start);
      this.pos = p + 1;
      return [start, this.pos];
    }
    if (c < 0 || c === COMMA || c === COLON || c === CLOSE_OBJECT || c === CLOSE_ARRAY)
      throw new ScanError(start);
    // A scalar (number, literal, or a bare NaN/Infinity token): up to a delimiter.
    let p = start;
    for (; p < b.length; p++) {
      const x = b[p]!;
      if (
        x === COMMA ||
        x === CLOSE_OBJECT ||
        x === CLOSE_ARRAY ||
        x === 0x20 ||
        x === 0x0a ||
        x === 0x0d ||
        x === 0x09
      )
        break;
    }
    this.pos = p;
    return [start, p];
  }

  /**
   * After a member or element: consumes the `,` before the next one and
   * returns true, or consumes `close` and returns false.
   */
  next(close: number): boolean {
    if (this.eat(COMMA)) return true;
    this.expect(close);
    return false;
  }
}

export const BYTE = {
  QUOTE,
  COMMA,
  OPEN_OBJECT,
  CLOSE_OBJECT,
  OPEN_ARRAY,
  CLOSE_ARRAY,
} as const;
