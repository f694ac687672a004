// A small, read-only ZIP reader over bytes: central directory (EOCD, Zip64 EOCD
// locator and record), local headers, and lazy per-member decompression.
// Spec: PKWARE APPNOTE.TXT 6.3.10 (https://pkware.cachefly.net/webdocs/casestudies/APPNOTE.TXT),
// §4.3.6 (overall layout), §4.3.7 local header, §4.3.12 central header,
// §4.3.14–4.3.16 Zip64 EOCD record/locator and EOCD, §4.5.3 Zip64 extra field.
//
// Why our own: inspect_ai `.eval` logs store members with zstd (method 93, written by
// inspect_ai's `log/_recorders/eval.py`), which fflate's unzip rejects, and we want to decompress one
// sample's member only when it is asked for instead of unzipping everything.
import { inflateSync } from 'fflate';
import { decompress as zstdDecompress } from 'fzstd';
import { ImportError, jsonPath } from '../errors.js';

/**
 * One member as listed in the central directory.
 *
 * @example
 * import { openZip } from 'src/core/import/zip.js';
 * declare const bytes: Uint8Array;
 * declare function note(text: string): void;
 * const entry = openZip(bytes).entries.get('header.json');
 * if (entry?.method === 93) note('zstd member');
 */
export interface ZipEntry {
  /** Member name (UTF-8 or CP437 decoded; `/`-separated). */
  readonly name: string;
  /** Compression method: 0 stored, 8 deflate, 93 zstd. */
  readonly method: number;
  readonly compressedSize: number;
  readonly uncompressedSize: number;
  /** Offset of the member's local header. */
  readonly localHeaderOffset: number;
  /** General purpose flags (bit 0: encrypted). */
  readonly flags: number;
  /** CRC-32 of the uncompressed data. */
  readonly crc32: number;
}

/**
 * A parsed central directory over the archive's bytes.
 *
 * @example
 * import { openZip, type ZipArchive } from 'src/core/import/zip.js';
 * declare const bytes: Uint8Array;
 * const zip: ZipArchive = openZip(bytes);
 * const names = [...zip.entries.keys()];
 */
export interface ZipArchive {
  /** Members by name, in central-directory order. */
  readonly entries: ReadonlyMap<string, ZipEntry>;
  /** Decompresses one member. Throws {@link ImportError} on corrupt or unsupported data. */
  read(name: string): Uint8Array;
}

const SIG_LOCAL = 0x04034b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_EOCD = 0x06054b50;
const SIG_ZIP64_EOCD = 0x06064b50;
const SIG_ZIP64_LOCATOR = 0x07064b50;
const EOCD_SIZE = 22;
const ZIP64_LOCATOR_SIZE = 20;
const ZIP64_EOCD_MIN = 56;
const MAX_COMMENT = 0xffff;

/**
 * True when the bytes start with a ZIP local header or (empty archive) an EOCD.
 *
 * @example
 * import { isZip } from 'src/core/import/zip.js';
 * isZip(new Uint8Array([0x50, 0x4b, 0x03, 0x04])); // true
 */
export function isZip(bytes: Uint8Array): boolean {
  if (bytes.length < 4) return false;
  const sig = u32(bytes, 0);
  return sig === SIG_LOCAL || sig === SIG_EOCD;
}

function u16(b: Uint8Array, o: number): number {
  return (b[o]! | (b[o + 1]! << 8)) >>> 0;
}

function u32(b: Uint8Array, o: number): number {
  return (b[o]! | (b[o + 1]! << 8) | (b[o + 2]! << 16) | (b[o + 3]! << 24)) >>> 0;
}

/** Little-endian u64 as a number; sizes past 2^53 cannot be addressed in a Uint8Array anyway. */
function u64(b: Uint8Array, o: number, path: string): number {
  const lo = u32(b, o);
  const hi = u32(b, o + 4);
  if (hi >= 0x200000) throw corrupt(path, `64-bit field at byte ${o} is too large`);
  return hi * 0x100000000 + lo;
}

function corrupt(path: string, detail: string): ImportError {
  return new ImportError('zip_corrupt', path, detail);
}

function truncated(path: string, detail: string): ImportError {
  return new ImportError('zip_truncated', path, detail);
}

const utf8 = new TextDecoder('utf-8');

// Names without the UTF-8 flag are CP437 by the spec; inspect writes ASCII names,
// so decoding bytes < 0x80 as-is and the rest as UTF-8 is a safe simplification.
function decodeName(bytes: Uint8Array): string {
  return utf8.decode(bytes);
}

/**
 * Reads the central directory of a ZIP archive (with Zip64) and returns a lazy
 * member reader. Only the directory is parsed here; members are located and
 * decompressed when {@link ZipArchive.read} is called.
 *
 * @example
 * import { openZip } from 'src/core/import/zip.js';
 * declare const bytes: Uint8Array;
 * const zip = openZip(bytes);
 * const header = zip.entries.has('header.json')
 *   ? new TextDecoder().decode(zip.read('header.json'))
 *   : undefined;
 */
export function openZip(bytes: Uint8Array): ZipArchive {
  const len = bytes.length;
  if (len < EOCD_SIZE)
    throw truncated('$', `${len} bytes is shorter than an end-of-central-directory record`);

  // The EOCD is the last record, followed only by a comment of up to 64 KiB.
  let eocd = -1;
  const stop = Math.max(0, len - EOCD_SIZE - MAX_COMMENT);
  for (let i = len - EOCD_SIZE; i >= stop; i--) {
    if (
      bytes[i] === 0x50 &&
      u32(bytes, i) === SIG_EOCD &&
      i + EOCD_SIZE + u16(bytes, i + 20) <= len
    ) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0)
    throw truncated(
      '$',
      'no end-of-central-directory record (the archive is cut short or not a zip)',
    );

  const disk = u16(bytes, eocd + 4);
  const cdDisk = u16(bytes, eocd + 6);
  let count = u16(bytes, eocd + 10);
  let cdSize = u32(bytes, eocd + 12);
  let cdOffset = u32(bytes, eocd + 16);

  // Zip64: a locator sits right before the EOCD and points at the Zip64 EOCD
  // record, whose 64-bit fields replace the saturated (0xFFFF/0xFFFFFFFF) ones.
  const loc = eocd - ZIP64_LOCATOR_SIZE;
  if (loc >= 0 && u32(bytes, loc) === SIG_ZIP64_LOCATOR) {
    const recOffset = u64(bytes, loc + 8, '$');
    if (recOffset + ZIP64_EOCD_MIN > loc)
      throw truncated('$', 'Zip64 end-of-central-directory record is out of range');
    if (u32(bytes, recOffset) !== SIG_ZIP64_EOCD)
      throw corrupt('$', 'Zip64 locator does not point at a Zip64 record');
    count = u64(bytes, recOffset + 32, '$');
    cdSize = u64(bytes, recOffset + 40, '$');
    cdOffset = u64(bytes, recOffset + 48, '$');
  } else if (disk !== 0 || cdDisk !== 0) {
    throw new ImportError('zip_unsupported', '$', 'multi-disk archives');
  }
  if (cdOffset + cdSize > len)
    throw truncated(
      '$',
      `central directory (${cdOffset}+${cdSize}) runs past the end (${len} bytes)`,
    );

  const entries = new Map<string, ZipEntry>();
  let p = cdOffset;
  const end = cdOffset + cdSize;
  for (let n = 0; n < count; n++) {
    if (p + 46 > end) throw truncated('$', `central directory ends after ${n} of ${count} entries`);
    if (u32(bytes, p) !== SIG_CENTRAL)
      throw corrupt('$', `bad central directory signature at byte ${p}`);
    const flags = u16(bytes, p + 8);
    const method = u16(bytes, p + 10);
    const crc32 = u32(bytes, p + 16);
    let compressedSize = u32(bytes, p + 20);
    let uncompressedSize = u32(bytes, p + 24);
    const nameLen = u16(bytes, p + 28);
    const extraLen = u16(bytes, p + 30);
    const commentLen = u16(bytes, p + 32);
    let localHeaderOffset = u32(bytes, p + 42);
    const nameStart = p + 46;
    const extraStart = nameStart + nameLen;
    const next = extraStart + extraLen + commentLen;
    if (next > end) throw truncated('$', `central directory entry ${n} runs past the directory`);
    const name = decodeName(bytes.subarray(nameStart, extraStart));
    // Zip64 extended information (§4.5.3): present fields follow in this order,
    // each only when the matching 32-bit field is saturated.
    if (
      compressedSize === 0xffffffff ||
      uncompressedSize === 0xffffffff ||
      localHeaderOffset === 0xffffffff
    ) {
      const path = jsonPath('$', name);
      let q = extraStart;
      const extraEnd = extraStart + extraLen;
      let found = false;
      while (q + 4 <= extraEnd) {
        const id = u16(bytes, q);
        const size = u16(bytes, q + 2);
        const body = q + 4;
        if (body + size > extraEnd) break;
        if (id === 0x0001) {
          let r = body;
          const need = (cond: boolean): number => {
            if (!cond) return -1;
            if (r + 8 > body + size) throw corrupt(path, 'Zip64 extra field is too short');
            const v = u64(bytes, r, path);
            r += 8;
            return v;
          };
          const u = need(uncompressedSize === 0xffffffff);
          const c = need(compressedSize === 0xffffffff);
          const o = need(localHeaderOffset === 0xffffffff);
          if (u >= 0) uncompressedSize = u;
          if (c >= 0) compressedSize = c;
          if (o >= 0) localHeaderOffset = o;
          found = true;
          break;
        }
        q = body + size;
      }
      if (!found) throw corrupt(path, 'saturated sizes without a Zip64 extra field');
    }
    entries.set(name, {
      name,
      method,
      compressedSize,
      uncompressedSize,
      localHeaderOffset,
      flags,
      crc32,
    });
    p = next;
  }

  return {
    entries,
    read(name: string): Uint8Array {
      const entry = entries.get(name);
      const path = jsonPath('$', name);
      if (!entry) throw new ImportError('missing_member', path, name);
      return readEntry(bytes, entry, path);
    },
  };
}

/**
 * A member's stored (compressed) bytes, located through its local header, for
 * a reader that decompresses them itself (the viewer inflates a sample's
 * member piece by piece). Throws {@link ImportError} when the member is
 * encrypted or runs past the end of the archive.
 *
 * @example
 * import { memberData, openZip } from 'src/core/import/zip.js';
 * declare const bytes: Uint8Array;
 * const entry = openZip(bytes).entries.get('header.json');
 * const stored = entry ? memberData(bytes, entry) : undefined;
 * @internal
 */
export function memberData(
  bytes: Uint8Array,
  entry: ZipEntry,
  path = jsonPath('$', entry.name),
): Uint8Array {
  const o = entry.localHeaderOffset;
  if (o + 30 > bytes.length) throw truncated(path, `local header at byte ${o} is past the end`);
  if (u32(bytes, o) !== SIG_LOCAL) throw corrupt(path, `bad local header signature at byte ${o}`);
  if (entry.flags & 1) throw new ImportError('zip_unsupported', path, 'encrypted members');
  // The local name/extra lengths may differ from the central ones; sizes come
  // from the central directory because a data descriptor may follow the data.
  const start = o + 30 + u16(bytes, o + 26) + u16(bytes, o + 28);
  const stop = start + entry.compressedSize;
  if (stop > bytes.length)
    throw truncated(
      path,
      `member data (${entry.compressedSize} bytes at ${start}) runs past the end`,
    );
  return bytes.subarray(start, stop);
}

function readEntry(bytes: Uint8Array, entry: ZipEntry, path: string): Uint8Array {
  const data = memberData(bytes, entry, path);
  let out: Uint8Array;
  try {
    switch (entry.method) {
      case 0:
        out = data;
        break;
      case 8:
        // A preallocated buffer saves fflate's grow-and-copy loop; one spare byte
        // makes a stream longer than the directory says show up in the size check.
        out = inflateSync(data, { out: new Uint8Array(entry.uncompressedSize + 1) });
        break;
      case 93:
        // One frame (the usual member): decode straight into a buffer of the
        // directory's size. Without it fzstd allocates the frame's window
        // (2 MiB for inspect's writer, which records no content size) for
        // every member, which dominates reading a chunked sample's many small
        // members. fzstd mishandles a caller buffer across several frames
        // (0.1.1), so multi-frame members (> 200 MiB, §1.1) decode unaided.
        // A wrong length cannot pass: the CRC check below covers the buffer.
        out =
          checkZstdFrames(data, entry.uncompressedSize, path) === 1
            ? zstdDecompress(data, new Uint8Array(entry.uncompressedSize))
            : zstdDecompress(data);
        break;
      default:
        throw new ImportError('zip_unsupported', path, `compression method ${entry.method}`);
    }
  } catch (e) {
    if (e instanceof ImportError) throw e;
    throw corrupt(path, `cannot decompress: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (out.length !== entry.uncompressedSize) {
    throw corrupt(
      path,
      `decompressed to ${out.length} bytes, directory says ${entry.uncompressedSize}`,
    );
  }
  // Stored members and zstd frames without a checksum have no other integrity
  // check, and a flipped byte inside a JSON string would otherwise load silently.
  if (crc32(out) !== entry.crc32) throw corrupt(path, 'CRC-32 mismatch');
  return out;
}

// Windows above this need a frame content size to be believed (zstd's
// default maximum window log for levels <= 19 is 23; --long uses 27).
const ZSTD_MAX_UNSIZED_WINDOW = 1 << 27;

/**
 * Walks the zstd frames and block headers (RFC 8878 §3.1) without decoding,
 * so corrupt sizes fail here instead of making the decoder allocate up to
 * 2 GiB for a window or content size the directory does not back (fzstd
 * allocates the frame content size, else the window, up front). Returns the
 * number of frames.
 *
 * @example
 * import { checkZstdFrames } from 'src/core/import/zip.js';
 * declare const data: Uint8Array; // a zstd member's stored bytes
 * const frames = checkZstdFrames(data, 4096, '$["header.json"]');
 * @internal
 */
export function checkZstdFrames(d: Uint8Array, expected: number, path: string): number {
  let frames = 0;
  let p = 0;
  let total = 0;
  let allSized = true;
  while (p < d.length) {
    if (p + 8 > d.length) throw corrupt(path, 'zstd data cut short');
    const magic = u32(d, p);
    if (magic >>> 4 === 0x184d2a5) {
      p += 8 + u32(d, p + 4); // skippable frame
      continue;
    }
    if (magic !== 0xfd2fb528) throw corrupt(path, `no zstd frame at byte ${p}`);
    const fhd = d[p + 4]!;
    const fcsFlag = fhd >> 6;
    const single = (fhd >> 5) & 1;
    let q = p + 5;
    let windowSize = 0;
    if (!single) {
      const wd = d[q++]!;
      const base = 2 ** (10 + (wd >> 3));
      windowSize = base + (base / 8) * (wd & 7);
    }
    q += [0, 1, 2, 4][fhd & 3]!;
    const fcsBytes = fcsFlag === 0 ? single : 1 << fcsFlag;
    let fcs = -1;
    if (fcsBytes > 0) {
      if (q + fcsBytes > d.length) throw corrupt(path, 'zstd frame header cut short');
      fcs = 0;
      for (let i = fcsBytes - 1; i >= 0; i--) fcs = fcs * 256 + d[q + i]!;
      if (fcsFlag === 1) fcs += 256;
    }
    q += fcsBytes;
    if (fcs >= 0) total += fcs;
    else allSized = false;
    if (fcs > expected || (fcs < 0 && windowSize > Math.max(expected, ZSTD_MAX_UNSIZED_WINDOW))) {
      throw corrupt(
        path,
        `zstd frame at byte ${p} claims more data than the directory's ${expected} bytes`,
      );
    }
    for (;;) {
      if (q + 3 > d.length) throw corrupt(path, 'zstd frame cut short');
      const h = d[q]! | (d[q + 1]! << 8) | (d[q + 2]! << 16);
      const type = (h >> 1) & 3;
      if (type === 3) throw corrupt(path, `reserved zstd block type at byte ${q}`);
      q += 3 + (type === 1 ? 1 : h >>> 3); // an RLE block stores one byte
      if (h & 1) break;
    }
    if ((fhd >> 2) & 1) q += 4; // content checksum
    if (q > d.length) throw corrupt(path, 'zstd frame cut short');
    p = q;
    frames++;
  }
  if (allSized && total !== expected) {
    throw corrupt(path, `zstd frames hold ${total} bytes, directory says ${expected}`);
  }
  return frames;
}

let crcTable: Uint32Array | undefined;

/**
 * CRC-32 (IEEE 802.3, reflected, as ZIP uses).
 *
 * @example
 * import { crc32 } from 'src/core/import/zip.js';
 * crc32(new TextEncoder().encode('123456789')); // 0xcbf43926
 */
export function crc32(data: Uint8Array): number {
  let table = crcTable;
  if (!table) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
    crcTable = table;
  }
  let c = 0xffffffff;
  for (let i = 0; i < data.length; i++) c = table[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
