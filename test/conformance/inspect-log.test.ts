// Conformance of the inspect_ai log importer on the real logs in
// ../shared/fixtures/inspect_ai/logs* (research/inspect_ai.md §5.2). Expected
// values are derived here from the raw files with a deliberately different,
// minimal reader (a forward scan of local headers rather than the central
// directory; no indirection resolution), never from the importer's output.
import { inflateSync } from 'fflate';
import { decompress as zstdDecompress } from 'fzstd';
import { expect, it } from 'vitest';
import {
  importInspectLog,
  isInspectLog,
  type InspectLog,
  type ModelEvent,
} from '../../src/index.js';
import { describeFixtures, listFixtures, readFixture } from './fixtures.js';

const files = [
  ...listFixtures('inspect_ai/logs'),
  ...listFixtures('inspect_ai/logs-chunked'),
].filter((f) => f.endsWith('.eval') || f.endsWith('.json'));

/** Members of a zip by a forward scan of local headers (sizes in the local header, as inspect writes). */
function scanZip(bytes: Uint8Array): Map<string, unknown> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Map<string, unknown>();
  let p = 0;
  while (p + 30 <= bytes.length && view.getUint32(p, true) === 0x04034b50) {
    const method = view.getUint16(p + 8, true);
    const size = view.getUint32(p + 18, true);
    const nameLen = view.getUint16(p + 26, true);
    const extraLen = view.getUint16(p + 28, true);
    const name = new TextDecoder().decode(bytes.subarray(p + 30, p + 30 + nameLen));
    const start = p + 30 + nameLen + extraLen;
    const data = bytes.subarray(start, start + size);
    const raw = method === 0 ? data : method === 8 ? inflateSync(data) : zstdDecompress(data);
    out.set(name, JSON.parse(new TextDecoder().decode(raw)));
    p = start + size;
  }
  return out;
}

type RawEvent = { event: string; [k: string]: unknown };

/** The fields of a raw sample this test reads. */
interface RawSample {
  id: string | number;
  epoch: number;
  events?: RawEvent[];
  transcript?: { events?: RawEvent[] };
}

interface RawSampleInfo {
  id: string;
  epoch: number;
  events: RawEvent[];
}

/** Each sample's raw (unresolved) events, straight from the file. */
function rawSamples(file: string, bytes: Uint8Array): RawSampleInfo[] {
  if (file.endsWith('.json')) {
    const doc = JSON.parse(new TextDecoder().decode(bytes)) as { samples?: RawSample[] };
    return (doc.samples ?? []).map((s) => ({
      id: String(s.id),
      epoch: s.epoch,
      events: s.events ?? s.transcript?.events ?? [],
    }));
  }
  const members = scanZip(bytes);
  const out: RawSampleInfo[] = [];
  for (const [name, value] of members) {
    const mono = /^samples\/(.+)_epoch_(\d+)\.json$/.exec(name);
    if (mono) {
      const s = value as RawSample;
      out.push({
        id: mono[1]!,
        epoch: Number(mono[2]),
        events: s.events ?? s.transcript?.events ?? [],
      });
      continue;
    }
    const shell = /^samples\/(.+)_epoch_(\d+)\/sample\.json$/.exec(name);
    if (shell) {
      const prefix = name.slice(0, -'sample.json'.length) + 'events/';
      const chunks = [...members.keys()]
        .filter((n) => n.startsWith(prefix) && /^\d+\.json$/.test(n.slice(prefix.length)))
        .sort((a, b) => parseInt(a.slice(prefix.length)) - parseInt(b.slice(prefix.length)));
      out.push({
        id: shell[1]!,
        epoch: Number(shell[2]),
        events: chunks.flatMap((n) => members.get(n) as RawSampleInfo['events']),
      });
    }
  }
  return out;
}

function countKinds(events: readonly { event: string }[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const e of events) out[e.event] = (out[e.event] ?? 0) + 1;
  return out;
}

function refsLeft(v: unknown, path: string, out: string[]): string[] {
  if (typeof v === 'string') {
    if (v.startsWith('attachment://') || v.startsWith('tc://')) out.push(path);
  } else if (Array.isArray(v)) v.forEach((x, i) => refsLeft(x, `${path}[${i}]`, out));
  else if (v && typeof v === 'object')
    for (const [k, x] of Object.entries(v)) refsLeft(x, `${path}.${k}`, out);
  return out;
}

const rangeTotal = (refs: unknown): number =>
  Array.isArray(refs) ? refs.reduce((a: number, r: [number, number]) => a + (r[1] - r[0]), 0) : 0;

describeFixtures('inspect_ai logs (shared fixtures)', () => {
  it('finds the real logs', () => {
    expect(files.length).toBeGreaterThanOrEqual(6);
  });

  for (const file of files) {
    it(`${file}: samples, per-sample event kinds, indirections resolved`, async () => {
      const bytes = readFixture(file);
      expect(isInspectLog(bytes)).toBe(true);
      const log: InspectLog = await importInspectLog(bytes);
      const raw = rawSamples(file, bytes);

      expect(log.samples.length).toBe(raw.length);
      expect(log.samples.map((s) => `${s.id}/${s.epoch}`).sort()).toEqual(
        raw.map((s) => `${s.id}/${s.epoch}`).sort(),
      );

      for (const r of raw) {
        const { events, diagnostics } = await log.sample(r.id, r.epoch);
        expect(countKinds(events), `${r.id}/${r.epoch}`).toEqual(countKinds(r.events));
        expect(events.map((e) => e.event)).toEqual(r.events.map((e) => e.event));
        expect(refsLeft(events, '$', [])).toEqual([]);
        // Deterministic (a second import gives the same events) and plain JSON.
        const again = await (await importInspectLog(bytes)).sample(r.id, r.epoch);
        expect(JSON.stringify(again.events)).toBe(JSON.stringify(events));
        expect(JSON.parse(JSON.stringify(events))).toEqual(events);
        expect(diagnostics.filter((d) => d.code.startsWith('dangling'))).toEqual([]);
        // Pools expanded: each model event has exactly the messages its refs named.
        events.forEach((ev, i) => {
          const rawEvent = r.events[i]!;
          if (ev.event !== 'model' || rawEvent.input_refs === undefined) return;
          const e = ev as ModelEvent;
          expect(e.input.length).toBe(rangeTotal(rawEvent.input_refs));
          expect(e).not.toHaveProperty('input_refs');
          const rawCall = rawEvent.call as { call_refs?: unknown; call_key?: string } | undefined;
          if (rawCall?.call_refs !== undefined) {
            const msgs = (e.call?.request as Record<string, unknown>)[
              rawCall.call_key ?? 'messages'
            ];
            expect((msgs as unknown[]).length).toBe(rangeTotal(rawCall.call_refs));
          }
        });
      }
    });
  }

  it('the chunked and the monolith ais-decoder.eval give the same events', async () => {
    const mono = await importInspectLog(readFixture('inspect_ai/logs/ais-decoder.eval'));
    const chunked = await importInspectLog(readFixture('inspect_ai/logs-chunked/ais-decoder.eval'));
    expect(chunked.samples.map((s) => [s.id, s.epoch])).toEqual(
      mono.samples.map((s) => [s.id, s.epoch]),
    );
    const a = await mono.sample(1, 1);
    const b = await chunked.sample(1, 1);
    expect(a.events.length).toBeGreaterThan(100);
    expect(JSON.stringify(b.events)).toBe(JSON.stringify(a.events));
  });

  it('the chunked ais-decoder.eval agrees with its own events/stats.json type counts', async () => {
    const bytes = readFixture('inspect_ai/logs-chunked/ais-decoder.eval');
    const stats = scanZip(bytes).get('samples/1_epoch_1/events/stats.json') as {
      chunks: { type_counts: Record<string, number> }[];
    };
    const expected: Record<string, number> = {};
    for (const c of stats.chunks)
      for (const [k, n] of Object.entries(c.type_counts)) expected[k] = (expected[k] ?? 0) + n;
    const { events } = await (await importInspectLog(bytes)).sample(1, 1);
    expect(countKinds(events)).toEqual(expected);
  });

  it('headers carry the eval spec, status, results and stats as written', async () => {
    for (const file of files) {
      const bytes = readFixture(file);
      const rawHeader = (
        file.endsWith('.json')
          ? JSON.parse(new TextDecoder().decode(bytes))
          : scanZip(bytes).get('header.json')
      ) as Record<string, unknown>;
      const { header } = await importInspectLog(bytes);
      expect(header.version, file).toBe(rawHeader.version);
      expect(header.status, file).toBe(rawHeader.status);
      expect(header.eval, file).toEqual(rawHeader.eval);
      expect(header.results, file).toEqual(rawHeader.results);
      expect(header.stats, file).toEqual(rawHeader.stats);
      const rawReductions = file.endsWith('.json')
        ? rawHeader.reductions
        : scanZip(bytes).get('reductions.json');
      expect(header.reductions, file).toEqual(rawReductions);
      expect(header).not.toHaveProperty('samples');
    }
  });
});
