// Bytes that arrive piece by piece, readable as they grow: the one buffer a
// reader scans while the rest of a file is still arriving (a fetch body, a
// `File.stream()`), and the shape an inflating `.eval` member takes too.
import { chunksOf, type ChunkSource } from '../chunks.js';

/**
 * Bytes that arrive piece by piece: `view` is what is there so far (a prefix
 * of the whole), `more` adds a piece (or learns the end), `all` waits for the
 * end. {@link streamInspectSample} reads one; {@link growingSource} makes one
 * from chunks.
 *
 * @example
 * declare const source: GrowingSource;
 * while (!source.complete && source.view.length < 1024) await source.more();
 * const head = source.view.subarray(0, 1024);
 */
export interface GrowingSource {
  /** The bytes so far. */
  readonly view: Uint8Array;
  /** No more bytes will come. */
  readonly complete: boolean;
  /** Adds the next piece, or sets `complete` at the end. */
  more(): Promise<void>;
  /** Every byte, once the end is reached. */
  all(): Promise<Uint8Array>;
  /** Once complete: throws when the bytes fail a check (an `.eval` member's CRC-32). */
  verify?(): void;
}

/** One read of a chunk reader: a piece, or the end. */
type Read = () => Promise<{ done?: boolean; value?: string | Uint8Array | undefined }>;

/**
 * A {@link GrowingSource} over `chunks` (an async iterable or ReadableStream
 * of text or bytes, as for `streamImport`), or over a `read` function that
 * returns one piece per call (`{ done: true }` at the end). `head`: bytes
 * already read, which come first. `total`: the size the whole is expected to
 * have (a `Content-Length`, `File.size`), so one buffer of that size is
 * filled in place; more bytes than that are still kept.
 *
 * @example
 * const response = await fetch('/logs/run.json');
 * const total = Number(response.headers.get('content-length')) || undefined;
 * const source = growingSource(response.body!, { total });
 * for await (const item of streamInspectSample(source)) void item;
 */
export function growingSource(
  chunks: ChunkSource | Read,
  options: { head?: Uint8Array; total?: number } = {},
): GrowingSource {
  let read: Read;
  if (typeof chunks === 'function') read = chunks;
  else {
    const it = chunksOf(chunks)[Symbol.asyncIterator]();
    read = () => it.next();
  }
  return new Growing(read, options.head ?? new Uint8Array(0), options.total);
}

const encoder = new TextEncoder();

class Growing implements GrowingSource {
  #buf: Uint8Array;
  #filled: number;
  /** Pieces past the announced total (kept in a list; `all` joins them). */
  #extra: Uint8Array[] | null = null;
  readonly #sized: boolean;
  complete = false;

  constructor(
    readonly read: Read,
    head: Uint8Array,
    total: number | undefined,
  ) {
    this.#sized = total !== undefined && Number.isFinite(total) && total >= 0;
    this.#buf = new Uint8Array(Math.max(this.#sized ? total! : 0, head.length));
    this.#buf.set(head);
    this.#filled = head.length;
  }

  get view(): Uint8Array {
    return this.#buf.subarray(0, this.#filled);
  }

  async more(): Promise<void> {
    if (this.complete) return;
    const next = await this.read();
    if (next.done || next.value === undefined) {
      if (next.done) this.complete = true;
      return;
    }
    const chunk = typeof next.value === 'string' ? encoder.encode(next.value) : next.value;
    if (this.#extra || this.#filled + chunk.length > this.#buf.length) {
      if (this.#sized) {
        (this.#extra ??= []).push(chunk);
        return;
      }
      // No size announced: double the buffer (amortised copies).
      const grown = new Uint8Array(Math.max(2 * this.#buf.length, this.#filled + chunk.length));
      grown.set(this.view);
      this.#buf = grown;
    }
    this.#buf.set(chunk, this.#filled);
    this.#filled += chunk.length;
  }

  async all(): Promise<Uint8Array> {
    while (!this.complete) await this.more();
    if (!this.#extra) return this.view;
    const parts = [this.view, ...this.#extra];
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }
}
