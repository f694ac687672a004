// An inspect `.eval` sample read as it inflates: the zip is whole (its
// directory is at the end), but the sample's member is inflated a piece at a
// time, so its first events are scanned, parsed and yielded before the rest
// of the member is inflated (inflating and parsing a big sample is most of an
// `.eval`'s open).
//
// Like inspect-events.ts it only reads; inspect-stream.ts decides what it yields.
import { Inflate } from 'fflate';
import { Decompress as ZstdDecompress } from 'fzstd';
import { jsonPath } from '../../errors.js';
import type { GrowingSource } from '../growing.js';
import { valueText } from '../guards.js';
import { checkZstdFrames, crc32, memberData, openZip, type ZipEntry } from '../zip.js';
import { NotStreamable } from './inspect-events.js';

/** Compressed bytes inflated per step: about half a megabyte of JSON, a few ms. */
const STEP = 64 * 1024;

const MONOLITH = /^samples\/(.+)_epoch_(\d+)\.json$/;

/** A sample's member in an `.eval`, being inflated. */
export interface EvalMember {
  /** The member's JSON path (`$["samples/1_epoch_1.json"]`), as the importer names it. */
  readonly path: string;
  readonly bytes: GrowingSource;
}

/**
 * The member of sample `(id, epoch)` in the `.eval` zip `zip`, set to inflate
 * piece by piece; `null` when the importer would read the sample otherwise (a
 * chunked sample, no member) or the member is not stored, deflated or zstd.
 * Throws (as `openZip` does) on an archive that cannot be read at all.
 */
export function openEvalMember(
  zip: Uint8Array,
  id: string | number,
  epoch: number,
): EvalMember | null {
  const archive = openZip(zip);
  const name = valueText(id);
  const chunked = `samples/${name}_epoch_`;
  let entry: ZipEntry | undefined;
  for (const [member, e] of archive.entries) {
    if (!member.startsWith(chunked)) continue;
    const mono = MONOLITH.exec(member);
    if (!mono) {
      // A chunked sample (`samples/<id>_epoch_<n>/…`) the importer prefers.
      if (Number(member.slice(chunked.length).split('/')[0]) === epoch) return null;
      continue;
    }
    if (mono[1] === name && Number(mono[2]) === epoch) entry = e;
  }
  if (!entry || entry.flags & 1) return null;
  if (entry.method !== 0 && entry.method !== 8 && entry.method !== 93) return null;
  const path = jsonPath('$', entry.name);
  try {
    const data = memberData(zip, entry, path);
    // Corrupt zstd sizes fail here instead of making the decoder allocate them.
    if (entry.method === 93) checkZstdFrames(data, entry.uncompressedSize, path);
    return { path, bytes: new InflatingMember(data, entry) };
  } catch {
    return null; // the importer's path reports what is wrong
  }
}

/**
 * A member's bytes, inflated `STEP` compressed bytes per `more`, into one
 * buffer of the size the directory gives. At the end the size (and with
 * `verify`, the CRC-32) are checked as the importer checks them; a mismatch (or corrupt data) throws
 * NotStreamable, and the caller takes the importer's path, which reports it.
 */
class InflatingMember implements GrowingSource {
  #buf: Uint8Array;
  #filled = 0;
  #at = 0;
  #push: ((chunk: Uint8Array, final: boolean) => void) | null;
  complete = false;

  constructor(
    readonly data: Uint8Array,
    readonly entry: ZipEntry,
  ) {
    if (entry.method === 0) {
      this.#buf = data;
      this.#filled = data.length;
      this.#push = null;
      this.#finish();
      return;
    }
    // One spare byte: data longer than the directory says shows up in the check.
    this.#buf = new Uint8Array(entry.uncompressedSize + 1);
    const take = (chunk: Uint8Array) => {
      if (this.#filled + chunk.length > this.#buf.length)
        throw new NotStreamable('a member longer than its directory entry');
      this.#buf.set(chunk, this.#filled);
      this.#filled += chunk.length;
    };
    if (entry.method === 8) {
      const inflate = new Inflate(take);
      this.#push = (chunk, final) => inflate.push(chunk, final);
    } else {
      const zstd = new ZstdDecompress(take);
      this.#push = (chunk, final) => {
        zstd.push(chunk, final);
      };
    }
  }

  get view(): Uint8Array {
    return this.#buf.subarray(0, this.#filled);
  }

  more(): Promise<void> {
    try {
      this.#step();
      return Promise.resolve();
    } catch (e) {
      return Promise.reject(e instanceof NotStreamable ? e : new NotStreamable(String(e)));
    }
  }

  async all(): Promise<Uint8Array> {
    while (!this.complete) await this.more();
    return this.view;
  }

  #step(): void {
    if (this.complete) return;
    const end = Math.min(this.#at + STEP, this.data.length);
    const final = end >= this.data.length;
    this.#push!(this.data.subarray(this.#at, end), final);
    this.#at = end;
    if (final) this.#finish();
  }

  #finish(): void {
    this.complete = true;
    const out = this.view;
    if (out.length !== this.entry.uncompressedSize)
      throw new NotStreamable('a member whose size is not its directory entry’s');
  }

  /**
   * The CRC-32 check, apart from the inflating: a ref makes the stream
   * inflate the whole member before its first rows, and the check is half
   * a second per 150 MB that can wait for the end.
   */
  verify(): void {
    if (!this.complete || crc32(this.view) !== this.entry.crc32)
      throw new NotStreamable('a CRC-32 mismatch');
  }
}
