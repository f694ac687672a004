// An exported page's run (viewer/embedded-run.ts) is decoded as the loader
// reads it, and the on-page loader hands its events over as objects and lets
// the page run between slices (viewer/load/loader.ts, `onPage`).
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { generateRun, type Event } from '../../src/index.js';
import { base64Stream, readEmbeddedRun } from '../../viewer/embedded-run.js';
import { createLoader } from '../../viewer/load/loader.js';
import { batchEvents, type LoadMessage, type LoadSource } from '../../viewer/load/protocol.js';

async function bytesOf(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const part of stream as unknown as AsyncIterable<Uint8Array>) parts.push(part);
  return Buffer.concat(parts);
}

/** A page as readEmbeddedRun sees it: the two script elements' text. */
function pageWith(header: object, base64: string): Document {
  const text: Record<string, string> = {
    'skein-export': JSON.stringify(header),
    'skein-run': base64,
  };
  return {
    getElementById: (id: string) => (id in text ? { textContent: text[id] } : null),
  } as unknown as Document;
}

const jsonl = (events: readonly Event[]) =>
  new TextEncoder().encode(`${events.map((e) => JSON.stringify(e)).join('\n')}\n`);

describe('the embedded run', () => {
  it('decodes base64 in steps, across wrapped lines and step boundaries', async () => {
    // 3 MiB of bytes: three steps and more, the lines wrapped as a mail client would.
    const bytes = Buffer.alloc(3 * 2 ** 20 + 7);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919 + (i >> 8)) & 255;
    const wrapped = bytes.toString('base64').replace(/.{76}/g, '$&\r\n').replace(/^/, '  ');
    expect((await bytesOf(base64Stream(wrapped))).equals(bytes)).toBe(true);
    expect((await bytesOf(base64Stream(''))).length).toBe(0);
  });

  it('reads a gzip run back as its log, with its size for the progress bar', async () => {
    const log = jsonl(generateRun({ seed: 3, events: 200, pendingRate: 0 }));
    const doc = pageWith(
      { name: 'run', encoding: 'gzip', size: log.length },
      gzipSync(log).toString('base64'),
    );
    const source = readEmbeddedRun(doc);
    expect(source).toMatchObject({ kind: 'file', name: 'run' });
    if (source.kind !== 'file' || source.file instanceof Blob) throw new Error('not a stream');
    expect(source.file.size).toBe(log.length);
    expect((await bytesOf(source.file.stream())).equals(Buffer.from(log))).toBe(true);
  });

  it('says what is missing when the page carries no run', () => {
    const empty = { getElementById: () => null } as unknown as Document;
    expect(() => readEmbeddedRun(empty)).toThrow('the page carries no run');
  });
});

describe('the loader on the page', () => {
  it('posts the importer’s frozen events as they are, the same as the worker’s JSON', async () => {
    const events = generateRun({ seed: 5, events: 1_200, pendingRate: 0 });
    const log = jsonl(events);
    const source: LoadSource = { kind: 'file', file: new Blob([log]), name: 'run.jsonl' };
    const onPage: LoadMessage[] = [];
    await createLoader((m) => onPage.push(m), { onPage: true }).handle({ type: 'open', source });
    const inWorker: LoadMessage[] = [];
    await createLoader((m) => inWorker.push(m)).handle({ type: 'open', source });
    const batches = onPage.filter((m) => m.type === 'events');
    expect(batches.length).toBeGreaterThan(1);
    for (const m of batches) {
      expect(m.json).toBeUndefined();
      for (const e of m.events!) expect(Object.isFrozen(e)).toBe(true);
    }
    const all = (ms: LoadMessage[]) =>
      ms.flatMap((m) => (m.type === 'events' ? [...batchEvents(m)] : []));
    expect(all(onPage)).toEqual(all(inWorker));
    expect(all(onPage).map((e) => e.uuid)).toEqual(events.map((e) => e.uuid));
  });

  it('lets the page run between slices of a streaming open', async () => {
    const log = jsonl(generateRun({ seed: 9, events: 4_000, pendingRate: 0 }));
    const source: LoadSource = { kind: 'file', file: new Blob([log]), name: 'run.jsonl' };
    const order: string[] = [];
    // A task the page queued when the open began: it runs before the open
    // ends only if the loader gives the thread back.
    setTimeout(() => order.push('page task'), 0);
    await createLoader(
      (m) => {
        if (m.type === 'done') order.push('done');
      },
      { onPage: true },
    ).handle({ type: 'open', source });
    expect(order).toEqual(['page task', 'done']);
  });
});
