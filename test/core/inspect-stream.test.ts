// Reading an inspect log's sample as its bytes arrive (`streamInspectSample`,
// `streamEvalSample`): what it yields equals the importer's events for the
// sample, whatever the chunk splits; a log it cannot read that way ends in
// `fallback` (before or after its first events), and the importer then
// gives the typed error. The byte scanner and the member inflater under it
// are tested here too.
import { describe, expect, it } from 'vitest';
import {
  generateRun,
  growingSource,
  ImportError,
  importInspectLog,
  streamEvalSample,
  streamInspectSample,
  type Event,
  type GrowingSource,
  type InspectStreamEnd,
  type InspectStreamItem,
} from '../../src/index.js';
import { inspectEvalLog, inspectJsonLog } from '../../bench/inspect-log.js';
import { BYTE, JsonScanner, ScanError } from '../../src/core/import/json-scan.js';
import { openEvalMember } from '../../src/core/import/inspect/eval-member.js';
import { InspectEventReader } from '../../src/core/import/inspect/inspect-events.js';

const enc = new TextEncoder();
const run1 = (n: number, seed = 1) => generateRun({ seed, events: n, pendingRate: 0 });

/** `bytes` in pieces of the given sizes, cycled (odd splits: inside strings, escapes, UTF-8). */
function pieces(bytes: Uint8Array, sizes: readonly number[]): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let at = 0, k = 0; at < bytes.length; k++) {
    const n = sizes[k % sizes.length]!;
    out.push(bytes.slice(at, at + n));
    at += n;
  }
  return out;
}

/** A source over `chunks` that records how many were read when each item came. */
function counted(chunks: readonly Uint8Array[]) {
  let read = 0;
  const source = growingSource(async () => {
    if (read >= chunks.length) return { done: true };
    return { done: false, value: chunks[read++] };
  });
  return { source, read: () => read };
}

async function drain(
  it: AsyncGenerator<InspectStreamItem, InspectStreamEnd>,
  onItem?: (item: InspectStreamItem) => void,
) {
  const items: InspectStreamItem[] = [];
  let next = await it.next();
  for (; !next.done; next = await it.next()) {
    items.push(next.value);
    onItem?.(next.value);
  }
  const events = items.flatMap((i) => (i.type === 'events' ? i.events : []));
  return { items, events, end: next.value };
}

/** Events compared as JSON text: deep equality over thousands of events is slow. */
const text = (events: readonly unknown[]) => JSON.stringify(events);

/** The importer's events and diagnostics for the log's first sample. */
async function imported(bytes: Uint8Array) {
  const log = await importInspectLog(bytes);
  const s = log.samples[0]!;
  const sample = await log.sample(s.id, s.epoch);
  return { log, events: sample.events, diagnostics: [...log.diagnostics, ...sample.diagnostics] };
}

describe('streamInspectSample over a one-sample .json log', () => {
  it('yields the importer’s events in odd chunk splits, the first before the file is whole', async () => {
    const bytes = inspectJsonLog(run1(600, 3));
    const want = await imported(bytes);
    for (const sizes of [[1, 7, 4093], [333], [65536]]) {
      const chunks = pieces(bytes, sizes);
      const { source, read } = counted(chunks);
      let readAtFirst = -1;
      const got = await drain(streamInspectSample(source, { batchEvents: 100 }), (item) => {
        if (readAtFirst < 0 && item.type === 'events') readAtFirst = read();
      });
      expect(got.items[0]).toMatchObject({ type: 'sample', id: 1, epoch: 1 });
      expect(text(got.events)).toBe(text(want.events));
      expect(got.end.type).toBe('done');
      if (got.end.type !== 'done') return;
      expect(got.end.diagnostics).toEqual(want.diagnostics);
      expect(got.end.sample).toEqual({ id: 1, epoch: 1 });
      // Compared as text: element-wise equality over a megabyte is slow.
      expect(new TextDecoder().decode(got.end.bytes)).toBe(new TextDecoder().decode(bytes));
      expect(got.end.log.header.eval.task).toBe('bench');
      // The first events came while most of the file was still to arrive.
      if (chunks.length > 4) expect(readAtFirst).toBeLessThan(chunks.length / 2);
    }
  });

  it('reads whole bytes, a ReadableStream and text chunks the same', async () => {
    const bytes = inspectJsonLog(run1(200, 4));
    const want = (await imported(bytes)).events;
    expect(text((await drain(streamInspectSample(bytes))).events)).toBe(text(want));
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        for (const p of pieces(bytes, [1000])) c.enqueue(p);
        c.close();
      },
    });
    expect(text((await drain(streamInspectSample(growingSource(stream)))).events)).toBe(text(want));
    const json = new TextDecoder().decode(bytes);
    async function* strings() {
      for (let i = 0; i < json.length; i += 777) yield json.slice(i, i + 777);
    }
    expect(text((await drain(streamInspectSample(growingSource(strings())))).events)).toBe(
      text(want),
    );
  });

  it('ends in fallback on a truncated log, and the importer then throws a typed error', async () => {
    const bytes = inspectJsonLog(run1(900, 5));
    const cut = bytes.subarray(0, Math.floor(bytes.length * 0.6));
    const got = await drain(streamInspectSample(counted(pieces(cut, [4096])).source));
    // The events before the cut were yielded, then the stream gave up.
    expect(got.events.length).toBeGreaterThan(0);
    expect(got.end.type).toBe('fallback');
    const error = await importInspectLog(cut).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportError);
    expect((error as ImportError).code).toBe('invalid_json');
    // Cut inside the head: nothing yielded.
    const head = await drain(streamInspectSample(bytes.subarray(0, 40)));
    expect(head.items).toEqual([]);
    expect(head.end.type).toBe('fallback');
  });

  it('ends in fallback at once for a log of two samples', async () => {
    const bytes = inspectJsonLog(run1(300, 6));
    const doc = JSON.parse(new TextDecoder().decode(bytes)) as {
      eval: { dataset: { samples: number } };
      samples: { id: number }[];
    };
    doc.eval.dataset.samples = 2;
    doc.samples.push({ ...doc.samples[0]!, id: 2 });
    const got = await drain(streamInspectSample(enc.encode(JSON.stringify(doc))));
    expect(got.items).toEqual([]);
    expect(got.end.type).toBe('fallback');
  });

  it('reads an event nested 100,000 levels deep without running out of stack', async () => {
    const events = run1(50, 7).map((e) => JSON.parse(JSON.stringify(e)) as Record<string, unknown>);
    const deep = `${'['.repeat(100_000)}1${']'.repeat(100_000)}`;
    const json = new TextDecoder()
      .decode(inspectJsonLog(events as unknown as Event[]))
      .replace('"events":[{', `"events":[{"deep":${deep},`);
    const bytes = enc.encode(json);
    const got = await drain(streamInspectSample(counted(pieces(bytes, [8192])).source));
    const whole = await imported(bytes).catch((e: unknown) => e);
    if (whole instanceof Error) {
      expect(whole).toBeInstanceOf(ImportError);
      expect(got.end.type).toBe('fallback');
    } else {
      expect(got.end.type).toBe('done');
      expect(text(got.events)).toBe(text((whole as { events: Event[] }).events));
    }
  });

  it('stops when cancelled', async () => {
    const bytes = inspectJsonLog(run1(900, 8));
    let stop = false;
    const it = streamInspectSample(counted(pieces(bytes, [2048])).source, {
      cancelled: () => stop,
    });
    const first = await it.next();
    expect(first.value).toMatchObject({ type: 'sample' });
    stop = true;
    let next = await it.next();
    while (!next.done) next = await it.next();
    expect(next.value.type).toBe('cancelled');
  });
});

describe('streamEvalSample', () => {
  it('yields the importer’s events for each sample of an .eval', async () => {
    const zip = inspectEvalLog([run1(300, 9), run1(900, 10)]);
    const log = await importInspectLog(zip);
    for (const id of [1, 2]) {
      const want = await log.sample(id, 1);
      const got = await drain(streamEvalSample(zip, log, id, 1, { batchEvents: 128 })!);
      expect(text(got.events)).toBe(text(want.events));
      expect(got.end).toMatchObject({ type: 'done', sample: { id, epoch: 1 } });
      if (got.end.type !== 'done') return;
      expect(got.end.bytes).toBe(zip);
      expect(got.end.diagnostics).toEqual([...log.diagnostics, ...want.diagnostics]);
    }
    expect(streamEvalSample(zip, log, 3, 1)).toBeNull();
  });

  it('ends in fallback when the member fails its CRC-32 after the first events', async () => {
    const zip = inspectEvalLog([run1(1200, 11)]);
    const name = enc.encode('samples/1_epoch_1.json');
    // The central directory entry's CRC-32 (at +16).
    for (let p = zip.length - 22; p >= 0; p--) {
      if (zip[p] !== 0x50 || zip[p + 1] !== 0x4b || zip[p + 2] !== 1 || zip[p + 3] !== 2) continue;
      const len = zip[p + 28]! | (zip[p + 29]! << 8);
      if (len === name.length && name.every((b, i) => zip[p + 46 + i] === b)) {
        zip[p + 16] = zip[p + 16]! ^ 0xff;
        break;
      }
    }
    const log = await importInspectLog(zip);
    const got = await drain(streamEvalSample(zip, log, 1, 1)!);
    expect(got.events.length).toBeGreaterThan(0);
    expect(got.end.type).toBe('fallback');
    const error = await log.sample(1, 1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportError);
    expect((error as ImportError).code).toBe('zip_corrupt');
  });

  it('inflates the sample’s member piece by piece, and its events read from the first piece', () => {
    const events = run1(3000, 21);
    const zip = inspectEvalLog([events]);
    const member = openEvalMember(zip, 1, 1)!;
    expect(member.path).toBe('$["samples/1_epoch_1.json"]');
    const whole = member.bytes.view.length;
    void member.bytes.more();
    const first = member.bytes.view;
    expect(whole).toBe(0);
    expect(first.length).toBeGreaterThan(0);
    expect(member.bytes.complete).toBe(false);
    const reader = InspectEventReader.openSample(first, { task: 'bench' })!;
    expect(reader.id).toBe(1);
    const raw = reader.next(50, true)!;
    expect(raw).toHaveLength(50);
    expect((raw[0] as { uuid: string }).uuid).toBe(events[0]!.uuid);
  });
});

describe('growingSource', () => {
  it('keeps bytes past the announced total, and reads the head first', async () => {
    const chunks = [enc.encode('cdef'), enc.encode('ghij')];
    let k = 0;
    const source: GrowingSource = growingSource(
      async () => (k < chunks.length ? { done: false, value: chunks[k++] } : { done: true }),
      { head: enc.encode('ab'), total: 4 },
    );
    expect(new TextDecoder().decode(source.view)).toBe('ab');
    await source.more();
    expect(new TextDecoder().decode(source.view)).toBe('ab');
    expect(new TextDecoder().decode(await source.all())).toBe('abcdefghij');
    expect(source.complete).toBe(true);
  });
});

describe('JsonScanner', () => {
  const scan = (text: string) => new JsonScanner(enc.encode(text));
  it('skips strings with escaped quotes and backslashes, and nested values', () => {
    const text = '\uFEFF {"a\\"b": ["x\\\\", {"y": "\\"]}"}, 1.5e3, null], "c": -2}';
    const s = scan(text);
    s.expect(BYTE.OPEN_OBJECT);
    expect(s.key()).toBe('a"b');
    const [start, end] = s.value();
    const bytes = enc.encode(text);
    expect(JSON.parse(new TextDecoder().decode(bytes.subarray(start, end)))).toEqual([
      'x\\',
      { y: '"]}' },
      1500,
      null,
    ]);
    expect(s.next(BYTE.CLOSE_OBJECT)).toBe(true);
    expect(s.key()).toBe('c');
    expect(s.value()).toEqual([bytes.length - 3, bytes.length - 1]);
    expect(s.next(BYTE.CLOSE_OBJECT)).toBe(false);
    expect(s.peek()).toBe(-1);
  });
  it('throws a ScanError on a cut-off or misplaced value', () => {
    expect(() => scan('["abc').value()).toThrow(ScanError);
    // Depth only: mismatched brackets are left to the JSON.parse of the range.
    expect(scan('{"a": [1, 2}]').value()).toEqual([0, 13]);
    expect(() => scan('[[1]').value()).toThrow(ScanError);
    expect(() => scan(', 1').value()).toThrow(ScanError);
    expect(() => scan('{"a" 1}').key()).toThrow(ScanError);
  });
  it('skips a value nested a million levels deep in constant stack', () => {
    const text = `${'[{"a":'.repeat(500_000)}1${'}]'.repeat(500_000)}`;
    expect(scan(text).value()).toEqual([0, text.length]);
  });
});
