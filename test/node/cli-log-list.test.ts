// The folder listing (`skein view <dir>`, `skein info <dir>`) detects each
// file's format from what it needs of the file — its first 64 KiB, a zip's
// central directory — not by reading it whole (issue 22). The proof: files of
// 3 GiB (sparse: a hole in the middle), more than Node can read into one
// buffer, are listed with their format.
import {
  closeSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { describeLogFile, listLogs } from '../../src/server.js';

const GIB = 2 ** 30;
const fixture = (path: string) => readFileSync(new URL(`../fixtures/${path}`, import.meta.url));

/** Writes `parts` at their offsets into a new file (what lies between stays a hole). */
function writeSparse(path: string, parts: [offset: number, bytes: Uint8Array][]): void {
  const fd = openSync(path, 'w');
  try {
    for (const [offset, bytes] of parts) writeSync(fd, bytes, 0, bytes.length, offset);
  } finally {
    closeSync(fd);
  }
}

/**
 * An inspect `.eval` (header.json and a sample) whose central directory sits
 * 3 GiB into the file: the members at the start, a hole, then the directory
 * and its end record pointing there.
 */
function bigEval(path: string): void {
  const zip = zipSync(
    {
      'header.json': strToU8(JSON.stringify({ version: 2, status: 'success', eval: {} })),
      'samples/1_epoch_1.json': strToU8(JSON.stringify({ id: 1, epoch: 1, events: [] })),
    },
    { level: 0 },
  );
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const eocd = zip.length - 22;
  expect(view.getUint32(eocd, true)).toBe(0x06054b50);
  const cdOffset = view.getUint32(eocd + 16, true);
  const tail = zip.slice(cdOffset);
  const at = 3 * GIB;
  new DataView(tail.buffer).setUint32(tail.length - 22 + 16, at, true);
  writeSparse(path, [
    [0, zip.subarray(0, cdOffset)],
    [at, tail],
  ]);
}

describe('folder listing reads only what it needs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'skein-list-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('lists a 3 GiB .eval from its central directory', async () => {
    bigEval(join(dir, 'big.eval'));
    const entry = await describeLogFile(dir, join(dir, 'big.eval'));
    expect(entry).toMatchObject({ name: 'big.eval', format: 'inspect' });
    expect(entry.size).toBeGreaterThan(3 * GIB);
    expect(entry.error).toBeUndefined();
  });

  it('lists a 3 GiB JSON Lines log from its first lines', async () => {
    const head = fixture('skein/run.jsonl');
    writeSparse(join(dir, 'big.jsonl'), [
      [0, head],
      [3 * GIB, strToU8('\n')],
    ]);
    const entry = await describeLogFile(dir, join(dir, 'big.jsonl'));
    expect(entry).toMatchObject({ name: 'big.jsonl', format: 'skein' });
  });

  it('still reads a JSON document whole when its head does not tell (past 64 KiB)', async () => {
    const doc = fixture('otlp/agent-chat-tool.otlp.json').toString('utf8');
    // Trailing whitespace is valid JSON: the document is now 100 KiB.
    writeFileSync(join(dir, 'trace.otlp.json'), doc + ' '.repeat(100 * 1024));
    const entry = await describeLogFile(dir, join(dir, 'trace.otlp.json'));
    expect(entry.format).toBe('otlp');
  });

  it('says what a cut-off .eval is (read whole when its end holds no directory)', async () => {
    const zip = zipSync({ 'header.json': strToU8('{"version":2,"eval":{}}') });
    const cut = new Uint8Array(100 * 1024);
    cut.set(zip.subarray(0, zip.length - 30));
    writeFileSync(join(dir, 'cut.eval'), cut);
    const entry = await describeLogFile(dir, join(dir, 'cut.eval'));
    expect(entry.format).toBeNull();
    expect(entry.error).toMatch(/not a log skein can read/);
  });

  it('lists the folder with every one of them', async () => {
    const names = (await listLogs(dir)).map((e) => `${e.name} ${e.format ?? 'error'}`).sort();
    expect(names).toEqual([
      'big.eval inspect',
      'big.jsonl skein',
      'cut.eval error',
      'trace.otlp.json otlp',
    ]);
  });
});
