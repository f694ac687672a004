// Builds ZIP archives for tests, byte by byte (APPNOTE 6.3.10 §4.3), with the
// features fflate's zipSync cannot produce: zstd members (method 93, as
// inspect_ai writes them) and Zip64 records. Used by the unit tests and by
// test/fixtures/inspect/generate.ts. CRC-32 comes from node:zlib so the
// reader's own CRC is checked against an independent implementation.
import { crc32 } from 'node:zlib';
import { deflateSync } from 'fflate';

export interface ZipMember {
  name: string;
  data: Uint8Array | string;
  /** 0 stored, 8 deflate, 93 zstd, or any other number (written as given, data stored). */
  method?: number;
  /** Precompressed bytes for the member (e.g. real zstd output); default: compress `data`. */
  compressed?: Uint8Array;
}

export interface BuildZipOptions {
  /** Write Zip64 extra fields, a Zip64 EOCD record and locator (sizes saturated in the 32-bit fields). */
  zip64?: boolean;
  /** Archive comment (placed after the EOCD). */
  comment?: string;
}

const enc = new TextEncoder();

/**
 * A zstd frame holding `data` in raw (uncompressed) blocks: valid zstd that any
 * decoder accepts, without needing a compressor in the test.
 */
export function zstdRawFrame(data: Uint8Array): Uint8Array {
  const parts: number[] = [0x28, 0xb5, 0x2f, 0xfd];
  // Frame header descriptor: single segment, 4-byte frame content size (FCS flag 2), no checksum.
  parts.push(0b10_1_0_0_0_00);
  const n = data.length;
  parts.push(n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, (n >>> 24) & 0xff);
  const MAX = 128 * 1024 - 1;
  const out: Uint8Array[] = [new Uint8Array(parts)];
  let off = 0;
  do {
    const size = Math.min(MAX, n - off);
    const last = off + size >= n ? 1 : 0;
    const header = (size << 3) | (0 << 1) | last; // block type 0 = raw
    out.push(new Uint8Array([header & 0xff, (header >>> 8) & 0xff, (header >>> 16) & 0xff]));
    out.push(data.subarray(off, off + size));
    off += size;
  } while (off < n);
  return concat(out);
}

export function concat(chunks: Uint8Array[]): Uint8Array {
  const total = chunks.reduce((a, c) => a + c.length, 0);
  const out = new Uint8Array(total);
  let p = 0;
  for (const c of chunks) {
    out.set(c, p);
    p += c.length;
  }
  return out;
}

class Writer {
  private bytes: number[] = [];
  u16(v: number) {
    this.bytes.push(v & 0xff, (v >>> 8) & 0xff);
  }
  u32(v: number) {
    this.bytes.push(v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff);
  }
  u64(v: number) {
    this.u32(v % 0x100000000);
    this.u32(Math.floor(v / 0x100000000));
  }
  raw(b: Uint8Array) {
    for (const x of b) this.bytes.push(x);
  }
  done(): Uint8Array {
    return new Uint8Array(this.bytes);
  }
}

/** Builds a ZIP archive from members (see {@link ZipMember}). */
export function buildZip(members: ZipMember[], options: BuildZipOptions = {}): Uint8Array {
  const zip64 = options.zip64 ?? false;
  const chunks: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const m of members) {
    const data = typeof m.data === 'string' ? enc.encode(m.data) : m.data;
    const method = m.method ?? 8;
    const compressed =
      m.compressed ??
      (method === 8 ? deflateSync(data) : method === 93 ? zstdRawFrame(data) : data);
    const name = enc.encode(m.name);
    const crc = crc32(data) >>> 0;

    const local = new Writer();
    local.u32(0x04034b50);
    local.u16(zip64 ? 45 : 20);
    local.u16(0x0800); // UTF-8 names
    local.u16(method);
    local.u16(0);
    local.u16(0x21);
    local.u32(crc);
    local.u32(zip64 ? 0xffffffff : compressed.length);
    local.u32(zip64 ? 0xffffffff : data.length);
    local.u16(name.length);
    local.u16(zip64 ? 20 : 0);
    local.raw(name);
    if (zip64) {
      local.u16(0x0001);
      local.u16(16);
      local.u64(data.length);
      local.u64(compressed.length);
    }
    const localBytes = local.done();

    const c = new Writer();
    c.u32(0x02014b50);
    c.u16(0x031e);
    c.u16(zip64 ? 45 : 20);
    c.u16(0x0800);
    c.u16(method);
    c.u16(0);
    c.u16(0x21);
    c.u32(crc);
    c.u32(zip64 ? 0xffffffff : compressed.length);
    c.u32(zip64 ? 0xffffffff : data.length);
    c.u16(name.length);
    c.u16(zip64 ? 28 : 0);
    c.u16(0);
    c.u16(0);
    c.u16(0);
    c.u32(0);
    c.u32(zip64 ? 0xffffffff : offset);
    c.raw(name);
    if (zip64) {
      c.u16(0x0001);
      c.u16(24);
      c.u64(data.length);
      c.u64(compressed.length);
      c.u64(offset);
    }
    central.push(c.done());
    chunks.push(localBytes, compressed);
    offset += localBytes.length + compressed.length;
  }
  const cd = concat(central);
  const cdOffset = offset;
  chunks.push(cd);
  const tail = new Writer();
  if (zip64) {
    const recOffset = cdOffset + cd.length;
    tail.u32(0x06064b50);
    tail.u64(44);
    tail.u16(45);
    tail.u16(45);
    tail.u32(0);
    tail.u32(0);
    tail.u64(members.length);
    tail.u64(members.length);
    tail.u64(cd.length);
    tail.u64(cdOffset);
    tail.u32(0x07064b50);
    tail.u32(0);
    tail.u64(recOffset);
    tail.u32(1);
  }
  const comment = enc.encode(options.comment ?? '');
  tail.u32(0x06054b50);
  tail.u16(0);
  tail.u16(0);
  tail.u16(zip64 ? 0xffff : members.length);
  tail.u16(zip64 ? 0xffff : members.length);
  tail.u32(zip64 ? 0xffffffff : cd.length);
  tail.u32(zip64 ? 0xffffffff : cdOffset);
  tail.u16(comment.length);
  tail.raw(comment);
  chunks.push(tail.done());
  return concat(chunks);
}
