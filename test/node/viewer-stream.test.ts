// The viewer loader's streaming open of a one-sample inspect `.json` log
// (issue 22): what it posts must end up equal to the importer's path — the
// same events (derived uuids included), `log` and `done` — and every log it
// cannot stream exactly takes that path, before its first events (fallback)
// or after them (a `reset`, then the importer's messages).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateRun, type Event } from '../../src/index.js';
import { inspectEvalLog, inspectJsonLog } from '../../bench/inspect-log.js';
import { createLoader } from '../../viewer/load/loader.js';
import { batchEvents, type LoadMessage } from '../../viewer/load/protocol.js';

const enc = new TextEncoder();

/**
 * A file read in 64 KiB chunks, as a browser reads a Blob (node's Blob
 * streams give one chunk): the loader then sees the file arrive.
 */
function chunkedFile(bytes: Uint8Array): Blob {
  return {
    size: bytes.length,
    stream: () => {
      let at = 0;
      return new ReadableStream<Uint8Array>({
        pull(controller) {
          if (at >= bytes.length) return controller.close();
          controller.enqueue(bytes.slice(at, (at += 65536)));
        },
      });
    },
  } as unknown as Blob;
}

async function run(bytes: Uint8Array, streamInspect: boolean, name = 'log.json') {
  const messages: LoadMessage[] = [];
  const loader = createLoader((m) => messages.push(m), { streamInspect });
  await loader.handle({ type: 'open', source: { kind: 'file', file: chunkedFile(bytes), name } });
  return { messages: messages.filter((m) => m.type !== 'progress'), all: messages, loader };
}

/** What the page ends up with: the messages after the last `reset`, by kind. */
function outcome(messages: readonly LoadMessage[]) {
  let at = messages.length - 1;
  while (at >= 0 && messages[at]!.type !== 'reset') at--;
  const kept = messages.slice(at + 1);
  return {
    events: kept.flatMap((m) => (m.type === 'events' ? [...batchEvents(m)] : [])),
    log: kept.filter((m) => m.type === 'log'),
    done: kept.filter((m) => m.type === 'done'),
    error: kept.filter((m) => m.type === 'error'),
  };
}

/** The streamed and the importer's outcomes are equal; returns how the stream went. */
async function expectSameAsImporter(bytes: Uint8Array) {
  const streamed = await run(bytes, true);
  const full = await run(bytes, false);
  expect(outcome(streamed.messages)).toEqual(outcome(full.messages));
  const kinds = streamed.messages.map((m) => m.type);
  return {
    streamed: kinds.indexOf('events') >= 0 && kinds.indexOf('events') < kinds.indexOf('log'),
    reset: kinds.includes('reset'),
    messages: streamed.messages,
    full: full.messages,
  };
}

/** A one-sample `.json` log with `fields` added to its sample (after its events). */
function withSample(log: Uint8Array, fields: Mutable): Uint8Array {
  const doc = JSON.parse(new TextDecoder().decode(log)) as { samples: Mutable[] };
  Object.assign(doc.samples[0]!, fields);
  return enc.encode(JSON.stringify(doc));
}

const run1 = (n: number, seed = 1) => generateRun({ seed, events: n, pendingRate: 0 });
type Mutable = Record<string, unknown>;
const edit = (events: readonly Event[], f: (e: Mutable, i: number) => Mutable | void) =>
  events.map((e, i) => {
    const copy = JSON.parse(JSON.stringify(e)) as Mutable;
    return (f(copy, i) ?? copy) as unknown as Event;
  });

describe('streaming open of a one-sample inspect .json log', () => {
  it('posts the first events before the log, and ends equal to the importer', async () => {
    const r = await expectSameAsImporter(inspectJsonLog(run1(2300)));
    expect(r.streamed).toBe(true);
    expect(r.reset).toBe(false);
    // The first batch is 500 events, posted before anything of the summary.
    const first = r.messages.find((m) => m.type === 'events');
    expect(first?.type === 'events' && first.count).toBe(500);
    expect(outcome(r.messages).events).toHaveLength(2300);
  });

  it('posts the first events before the rest of the file is read', async () => {
    const bytes = inspectJsonLog(run1(3000, 2));
    const file = chunkedFile(bytes);
    let read = 0;
    const stream = file.stream.bind(file);
    (file as { stream: () => ReadableStream<Uint8Array> }).stream = () =>
      stream().pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            read += chunk.length;
            controller.enqueue(chunk);
          },
        }),
      );
    let readAtFirst = -1;
    const loader = createLoader((m) => {
      if (m.type === 'events' && readAtFirst < 0) readAtFirst = read;
    });
    await loader.handle({ type: 'open', source: { kind: 'file', file, name: 'log.json' } });
    expect(readAtFirst).toBeGreaterThan(0);
    expect(readAtFirst).toBeLessThan(bytes.length / 4);
    expect(read).toBe(bytes.length);
  });

  it('derives the same uuids (and the same capped diagnostics) for events without one', async () => {
    const events = edit(run1(1200, 7), (e, i) => {
      if (i % 3 !== 1) delete e['uuid'];
    });
    const r = await expectSameAsImporter(inspectJsonLog(events));
    expect(r.streamed).toBe(true);
    const done = outcome(r.messages).done[0];
    const codes = done?.type === 'done' ? done.diagnostics.map((d) => d.code) : [];
    expect(codes.filter((c) => c === 'uuid_derived')).toHaveLength(100);
    expect(codes).toContain('diagnostics_truncated');
  });

  it('repairs missing timestamps as the importer does', async () => {
    // The first events lack one: repaired from a later event in the same batch.
    const events = edit(run1(900, 3), (e, i) => {
      if (i < 5 || i % 97 === 0) delete e['timestamp'];
    });
    const r = await expectSameAsImporter(inspectJsonLog(events));
    expect(r.streamed).toBe(true);
  });

  it('takes the importer’s path when the first batch has no timestamp to repair from', async () => {
    const events = edit(run1(800, 3), (e, i) => {
      if (i < 600) delete e['timestamp'];
    });
    const r = await expectSameAsImporter(inspectJsonLog(events));
    expect(r.streamed).toBe(false);
    expect(r.reset).toBe(false);
  });

  it('reads NaN and Infinity tokens in events as the importer does', async () => {
    const text = new TextDecoder()
      .decode(inspectJsonLog(run1(700, 4)))
      .replace(/"input_tokens":(\d+)/, '"input_tokens":NaN');
    expect(text).toContain('NaN');
    const r = await expectSameAsImporter(enc.encode(text));
    expect(r.streamed).toBe(true);
  });

  it('streams events with attachment and pool refs, resolved as the importer resolves them', async () => {
    for (const at of [3, 1200]) {
      const base = run1(1500, 5);
      const model = base.findIndex((e, i) => i > at + 1 && e.event === 'model');
      const events = edit(base, (e, i) => {
        if (i === at) e['extra'] = 'attachment://abc';
        if (i === at + 1) e['extra'] = 'tc://gone';
        if (i === model) Object.assign(e, { input: [], input_refs: [[0, 1]] });
      });
      const r = await expectSameAsImporter(
        withSample(inspectJsonLog(events), {
          attachments: { abc: 'resolved' },
          events_data: { messages: [{ role: 'user', content: 'attachment://abc' }], calls: [] },
        }),
      );
      expect(r.streamed).toBe(true);
      expect(r.reset).toBe(false);
      const got = outcome(r.messages);
      const ev = got.events as unknown as Mutable[];
      expect(ev[at]!['extra']).toBe('resolved');
      expect(ev[model]!['input']).toEqual([{ role: 'user', content: 'resolved' }]);
      const done = got.done[0];
      expect(done?.type === 'done' && done.diagnostics.map((d) => d.path)).toContain(
        `$.samples[0].events[${at + 1}].extra`,
      );
    }
  });

  it('takes the importer’s path when the attachments come before the events', async () => {
    const events = edit(run1(900, 13), (e, i) => {
      if (i === 2) e['extra'] = 'attachment://abc';
    });
    const doc = JSON.parse(new TextDecoder().decode(inspectJsonLog(events))) as {
      samples: Mutable[];
    };
    const { events: list, ...head } = doc.samples[0]!;
    doc.samples[0] = { ...head, attachments: { abc: 'resolved' }, events: list };
    const r = await expectSameAsImporter(enc.encode(JSON.stringify(doc)));
    expect(r.streamed).toBe(false);
    const ev = outcome(r.messages).events as unknown as Mutable[];
    expect(ev[2]!['extra']).toBe('resolved');
  });

  it('resets when events already posted hold an escape the importer resolves as a ref', async () => {
    const events = edit(run1(1500, 6), (e, i) => {
      if (i === 1) e['note'] = 'ESCAPED';
      if (i === 1200) e['extra'] = 'attachment://aaa';
    });
    const text = new TextDecoder()
      .decode(withSample(inspectJsonLog(events), { attachments: { aaa: 'resolved' } }))
      .replace('ESCAPED', 'attachment\\u003a//aaa');
    const r = await expectSameAsImporter(enc.encode(text));
    expect(r.reset).toBe(true);
    const ev = outcome(r.messages).events as unknown as Mutable[];
    expect(ev[1]!['note']).toBe('resolved');
    // After the reset, the importer's order: the log before its events.
    const after = r.messages.slice(r.messages.findIndex((m) => m.type === 'reset'));
    const kinds = after.map((m) => m.type);
    expect(kinds.indexOf('log')).toBeLessThan(kinds.indexOf('events'));
  });

  it('reads a log with refs outside its events as the importer does', async () => {
    const doc = JSON.parse(new TextDecoder().decode(inspectJsonLog(run1(900, 12)))) as {
      samples: Mutable[];
    };
    // A ref in the sample's messages (after its events, as inspect writes them),
    // and one dangling in a pool: the importer reports it, so must the stream.
    Object.assign(doc.samples[0]!, {
      output: { text: 'attachment://aaa' },
      attachments: { aaa: 'resolved' },
      events_data: { messages: [{ role: 'user', content: 'attachment://gone' }], calls: [] },
    });
    const plain = await expectSameAsImporter(enc.encode(JSON.stringify(doc)));
    expect(plain.streamed).toBe(true);
    expect(plain.reset).toBe(false);
    const done = outcome(plain.messages).done[0];
    expect(done?.type === 'done' && done.diagnostics.map((d) => d.code)).toContain(
      'dangling_attachment',
    );
    // A ref spelled with an escape in the events: the importer's text search
    // misses it, its walk (the log has refs elsewhere) does not.
    const escaped = JSON.stringify(doc).replace(
      '"event":"',
      '"note":"attachment\\u003a//aaa","event":"',
    );
    const r = await expectSameAsImporter(enc.encode(escaped));
    expect(r.reset).toBe(true);
    const events = outcome(r.messages).events as unknown as Mutable[];
    expect(events.some((e) => e['note'] === 'resolved')).toBe(true);
  });

  it('resets when the document turns out invalid after the first events', async () => {
    const bytes = inspectJsonLog(run1(1500, 8));
    const cut = bytes.subarray(0, bytes.length - 40);
    const r = await expectSameAsImporter(cut);
    expect(r.reset).toBe(true);
    expect(outcome(r.messages).error).toHaveLength(1);
  });

  it('resets when the header says one sample and the log holds two', async () => {
    const doc = JSON.parse(new TextDecoder().decode(inspectJsonLog(run1(900, 9)))) as {
      samples: Mutable[];
    };
    doc.samples.push({ ...doc.samples[0]!, id: 2, events: [] });
    const r = await expectSameAsImporter(enc.encode(JSON.stringify(doc)));
    expect(r.reset).toBe(true);
    const log = outcome(r.messages).log[0];
    expect(log?.type === 'log' && log.samples).toHaveLength(2);
  });

  it('takes the importer’s path for a multi-sample header', async () => {
    const doc = JSON.parse(new TextDecoder().decode(inspectJsonLog(run1(900, 10)))) as {
      eval: { dataset: { samples: number } };
    };
    doc.eval.dataset.samples = 2;
    const multi = await expectSameAsImporter(enc.encode(JSON.stringify(doc)));
    expect(multi.streamed).toBe(false);
    expect(multi.reset).toBe(false);
  });

  it('loads another sample request from the whole log after a streaming open', async () => {
    const bytes = inspectJsonLog(run1(700, 11));
    const { messages, all, loader } = await run(bytes, true);
    const before = outcome(messages).events;
    all.length = 0;
    await loader.handle({ type: 'sample', sample: { id: 1, epoch: 1 } });
    const again = outcome(all.filter((m) => m.type !== 'progress'));
    expect(again.events).toEqual(before);
    expect(again.done).toHaveLength(1);
  });

  const real = join(process.cwd(), '../shared/fixtures/inspect_ai/logs');
  it('ends equal to the importer on the real inspect .json fixtures', async () => {
    if (!existsSync(real)) {
      console.log(`skipped: ${real} is absent`);
      return;
    }
    const files = readdirSync(real).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) await expectSameAsImporter(new Uint8Array(readFileSync(join(real, f))));
  });
});

/** The zip's central directory entry for `name` (its CRC-32 is at +16). */
function centralEntry(zip: Uint8Array, name: string): number {
  const want = enc.encode(name);
  for (let p = zip.length - 22; p >= 0; p--) {
    if (zip[p] !== 0x50 || zip[p + 1] !== 0x4b || zip[p + 2] !== 1 || zip[p + 3] !== 2) continue;
    const len = zip[p + 28]! | (zip[p + 29]! << 8);
    if (len === want.length && want.every((b, i) => zip[p + 46 + i] === b)) return p;
  }
  throw new Error(`no central entry ${name}`);
}

describe('streaming open of an inspect .eval log', () => {
  const runEval = (bytes: Uint8Array, stream: boolean) => run(bytes, stream, 'log.eval');
  async function expectEvalSame(bytes: Uint8Array) {
    const streamed = await runEval(bytes, true);
    const full = await runEval(bytes, false);
    expect(outcome(streamed.messages)).toEqual(outcome(full.messages));
    return {
      messages: streamed.messages,
      reset: streamed.messages.some((m) => m.type === 'reset'),
    };
  }

  it('ends equal to the importer on a one-sample .eval, log first as before', async () => {
    const r = await expectEvalSame(inspectEvalLog([run1(2300, 22)]));
    expect(r.reset).toBe(false);
    const kinds = r.messages.map((m) => m.type);
    expect(kinds.filter((k) => k === 'events').length).toBeGreaterThan(1);
    expect(kinds.indexOf('log')).toBeLessThan(kinds.indexOf('events'));
    expect(outcome(r.messages).events).toHaveLength(2300);
  });

  it('streams the chosen sample of a multi-sample .eval', async () => {
    const r = await expectEvalSame(inspectEvalLog([run1(900, 23), run1(700, 24)]));
    const log = outcome(r.messages).log[0];
    expect(log?.type === 'log' && log.samples).toHaveLength(2);
    expect(outcome(r.messages).events).toHaveLength(900);
  });

  it('streams a sample asked for after the open as the importer loads it', async () => {
    const zip = inspectEvalLog([run1(600, 28), run1(1800, 29)]);
    const bad = zip.slice();
    const at = centralEntry(bad, 'samples/2_epoch_1.json') + 16;
    bad[at] = bad[at]! ^ 0xff;
    const ask = async (bytes: Uint8Array, stream: boolean) => {
      const { all, loader } = await runEval(bytes, stream);
      all.length = 0;
      await loader.handle({ type: 'sample', sample: { id: 2, epoch: 1 } });
      return all.filter((m) => m.type !== 'progress');
    };
    const good = await ask(zip, true);
    expect(outcome(good)).toEqual(outcome(await ask(zip, false)));
    expect(outcome(good).events).toHaveLength(1800);
    expect(good.some((m) => m.type === 'reset')).toBe(false);
    // Events posted before the member's CRC-32 fails: streamed, then reset.
    const broken = await ask(bad, true);
    expect(outcome(broken)).toEqual(outcome(await ask(bad, false)));
    expect(broken.some((m) => m.type === 'reset')).toBe(true);
    expect(outcome(broken).log).toHaveLength(1);
  });

  it('posts the importer’s error for a truncated .eval', async () => {
    const zip = inspectEvalLog([run1(1200, 25)]);
    const r = await expectEvalSame(zip.subarray(0, zip.length >> 1));
    expect(r.reset).toBe(false);
    const error = outcome(r.messages).error[0];
    expect(error?.type === 'error' && error.error.code).toBe('zip_truncated');
  });

  it('resets, then posts the importer’s error, when the member fails its CRC after the first events', async () => {
    const zip = inspectEvalLog([run1(2300, 26)]);
    const at = centralEntry(zip, 'samples/1_epoch_1.json') + 16;
    zip[at] = zip[at]! ^ 0xff;
    const r = await expectEvalSame(zip);
    expect(r.reset).toBe(true);
    const error = outcome(r.messages).error[0];
    expect(error?.type === 'error' && error.error.code).toBe('zip_corrupt');
  });

  it('streams events with attachment refs, resolved from the member’s attachments', async () => {
    for (const at of [3, 1200]) {
      const events = edit(run1(1500, 27), (e, i) => {
        if (i === at) e['metadata'] = { note: 'attachment://abc' };
        if (i === at + 1) e['metadata'] = { note: 'attachment://gone' };
      });
      const r = await expectEvalSame(inspectEvalLog([events], { abc: 'resolved' }));
      expect(r.reset).toBe(false);
      const got = outcome(r.messages);
      expect((got.events[at] as unknown as Mutable)['metadata']).toEqual({ note: 'resolved' });
      const done = got.done[0];
      expect(done?.type === 'done' && done.diagnostics.map((d) => d.path)).toContain(
        `$["samples/1_epoch_1.json"].events[${at + 1}].metadata.note`,
      );
    }
  });

  it('ends equal to the importer on zstd members (the test fixture) and the real .eval fixtures', async () => {
    const zip = new Uint8Array(
      readFileSync(new URL('../fixtures/inspect/zstd-zip64.eval', import.meta.url)),
    );
    expect(outcome((await expectEvalSame(zip)).messages).events.length).toBeGreaterThan(0);
    const real = join(process.cwd(), '../shared/fixtures/inspect_ai/logs');
    if (!existsSync(real)) {
      console.log(`skipped: ${real} is absent`);
      return;
    }
    const files = readdirSync(real).filter((f) => f.endsWith('.eval'));
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) await expectEvalSame(new Uint8Array(readFileSync(join(real, f))));
  });
});
