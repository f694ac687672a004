// Unit tests of the inspect_ai log importer on the project's own small logs
// (built in code, plus one generated file: test/fixtures/inspect/zstd-zip64.eval).
import { readFileSync } from 'node:fs';
import { zipSync, strToU8 } from 'fflate';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ImportError } from '../../src/core/errors.js';
import { parseEvents } from '../../src/core/events/parse.js';
import type * as ParseModule from '../../src/core/events/parse.js';
import {
  importInspectLog,
  inspectUuidSeed,
  isInspectLog,
  type InspectLog,
} from '../../src/core/import/inspect/inspect-log.js';
import { parseJsonTolerant } from '../../src/core/import/json.js';
import { crc32, openZip } from '../../src/core/import/zip.js';
import * as core from '../../src/index.js';
import {
  HASH,
  LONG,
  chunkedMembers,
  condensedEvents,
  evalMembers,
  header,
  monolithSample,
  ref,
  resolvedEvents,
  summary,
} from './helpers/inspect-fixture.js';
import { buildZip, concat, zstdRawFrame, type ZipMember } from './helpers/zip-builder.js';

// Pass-through spy: proves which samples' events reach the parser, and when.
vi.mock('../../src/core/events/parse.js', async (importOriginal) => {
  const mod = await importOriginal<typeof ParseModule>();
  return { ...mod, parseEvents: vi.fn(mod.parseEvents) };
});

const enc = new TextEncoder();
const json = (v: unknown) => enc.encode(JSON.stringify(v));
const jsonLog = (samples: unknown[], extra: Record<string, unknown> = {}) =>
  json({ ...header(extra), samples });

/** A `.eval` from members via fflate's zipSync (deflate, or stored with level 0). */
function fflateEval(members: Record<string, unknown>, level: 0 | 6 = 6): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  for (const [name, v] of Object.entries(members))
    files[name] = typeof v === 'string' ? strToU8(v) : json(v);
  return zipSync(files, { level });
}

/** The value at a property path (tests read results loosely and let assertions check them). */
function at(v: unknown, ...path: (string | number)[]): unknown {
  return path.reduce<unknown>(
    (o, k) => (o as Record<string | number, unknown> | undefined)?.[k],
    v,
  );
}

/** Sets the value at a property path (to edit a fixture before import). */
function put(root: unknown, path: (string | number)[], value: unknown): void {
  (at(root, ...path.slice(0, -1)) as Record<string | number, unknown>)[path.at(-1)!] = value;
}

/** One field of each object in a list. */
function pluck(list: unknown, field: string): unknown[] {
  return (list as Record<string, unknown>[]).map((x) => x[field]);
}

function kinds(events: readonly { event: string }[]): string[] {
  return events.map((e) => e.event);
}

async function rejection(p: Promise<unknown>): Promise<ImportError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ImportError);
    return e as ImportError;
  }
  throw new Error('expected a rejection');
}

/** Every string below `v`. */
function strings(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) for (const x of v) strings(x, out);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) strings(x, out);
  return out;
}

describe('containers', () => {
  it('reads a .json log: header without samples, summaries, events on demand', async () => {
    const log = await importInspectLog(jsonLog([monolithSample(1, 1), monolithSample('b', 2)]));
    expect(log.format).toBe('json');
    expect(log.header).toMatchObject({ version: 2, status: 'success', eval: { task: 'unit' } });
    expect(log.header).not.toHaveProperty('samples');
    expect(log.samples.map((s) => [s.id, s.epoch])).toEqual([
      [1, 1],
      ['b', 2],
    ]);
    expect(log.samples[0]).toMatchObject({
      target: 'ok',
      scores: { match: { value: 'C' } },
      message_count: 4,
    });
    expect(log.samples[0]).not.toHaveProperty('events');
    const { events } = await log.sample('b', 2);
    expect(kinds(events)).toEqual(kinds(condensedEvents('x')));
    expect(events).toMatchObject(resolvedEvents('b', 2));
  });

  it('reads a deflate .eval (fflate zipSync)', async () => {
    const members = Object.fromEntries(
      evalMembers([
        [1, 1],
        [2, 1],
      ]).map((m) => [m.name, m.data]),
    );
    members['reductions.json'] = JSON.stringify([{ scorer: 'match', samples: [] }]);
    const log = await importInspectLog(fflateEval(members));
    expect(log.format).toBe('eval');
    expect(log.header.reductions).toEqual([{ scorer: 'match', samples: [] }]);
    expect(log.header.eval.task).toBe('unit');
    expect(log.samples).toEqual([summary(1, 1), summary(2, 1)]);
    expect((await log.sample(2, 1)).events).toMatchObject(resolvedEvents(2, 1));
  });

  it('reads a stored .eval (no compression)', async () => {
    const members = Object.fromEntries(evalMembers([[1, 1]]).map((m) => [m.name, m.data]));
    const log = await importInspectLog(fflateEval(members, 0));
    expect(openZip(fflateEval(members, 0)).entries.get('header.json')?.method).toBe(0);
    expect((await log.sample(1, 1)).events).toMatchObject(resolvedEvents(1, 1));
  });

  it('reads zstd members (method 93) built in the test', async () => {
    const bytes = buildZip(evalMembers([[1, 1]], 93));
    expect(openZip(bytes).entries.get('samples/1_epoch_1.json')?.method).toBe(93);
    const log = await importInspectLog(bytes);
    expect((await log.sample(1, 1)).events).toMatchObject(resolvedEvents(1, 1));
  });

  it('reads Zip64 archives built in the test (with an archive comment)', async () => {
    const bytes = buildZip(evalMembers([[1, 1]], 8), { zip64: true, comment: 'zip64 test' });
    const log = await importInspectLog(bytes);
    expect(log.samples).toHaveLength(1);
    expect((await log.sample(1, 1)).events).toMatchObject(resolvedEvents(1, 1));
  });

  it('reads the generated zstd + Zip64 file (real zstd frames, a two-frame member, a chunked sample)', async () => {
    const bytes = new Uint8Array(
      readFileSync(new URL('../fixtures/inspect/zstd-zip64.eval', import.meta.url)),
    );
    const log = await importInspectLog(bytes);
    expect(log.samples.map((s) => s.id)).toEqual([1, 'two']);
    expect((await log.sample(1)).events).toMatchObject(resolvedEvents(1, 1));
    expect((await log.sample('two', 1)).events).toMatchObject(resolvedEvents('two', 1));
  });

  it('reads a journal-only .eval (still running): start.json header, journal summaries', async () => {
    const bytes = fflateEval({
      '_journal/start.json': { version: 2, eval: { task: 'unit' }, plan: {} },
      '_journal/summaries/2.json': [summary(2, 1)],
      '_journal/summaries/1.json': [summary(1, 1)],
      'samples/1_epoch_1.json': monolithSample(1, 1),
      'samples/2_epoch_1.json': monolithSample(2, 1),
    });
    const log = await importInspectLog(bytes);
    expect(log.header).toMatchObject({ status: 'started', version: 2, eval: { task: 'unit' } });
    expect(log.samples.map((s) => s.id)).toEqual([1, 2]);
    expect(log.diagnostics).toMatchObject([{ code: 'missing_member', path: '$["header.json"]' }]);
  });

  it('lists a sample that has a member but no summary, from its member name', async () => {
    const members = Object.fromEntries(evalMembers([[7, 3]]).map((m) => [m.name, m.data]));
    members['summaries.json'] = '[]';
    const log = await importInspectLog(fflateEval(members));
    expect(log.samples).toEqual([{ id: 7, epoch: 3 }]);
    expect(log.diagnostics).toMatchObject([
      { code: 'missing_field', path: '$["samples/7_epoch_3.json"]' },
    ]);
    expect((await log.sample(7, 3)).events).toHaveLength(7);
  });

  it('finds samples by id as in the log, string or number, epoch defaulting to 1', async () => {
    const log = await importInspectLog(
      jsonLog([monolithSample(1, 1), monolithSample('a_epoch_x', 2)]),
    );
    expect((await log.sample('1')).events).toHaveLength(7);
    expect((await log.sample(1, 1)).events).toHaveLength(7);
    expect((await log.sample('a_epoch_x', 2)).events).toHaveLength(7);
    const zipLog = await importInspectLog(buildZip(evalMembers([['a_epoch_x', 2]])));
    expect((await zipLog.sample('a_epoch_x', 2)).events).toHaveLength(7);
  });

  it('returns a messages-only sample as no events plus an info diagnostic', async () => {
    const { events: _e, attachments: _a, events_data: _d, ...bare } = monolithSample(1, 1);
    const log = await importInspectLog(jsonLog([bare]));
    const r = await log.sample(1, 1);
    expect(r.events).toEqual([]);
    expect(r.diagnostics).toMatchObject([
      { code: 'missing_events', severity: 'info', path: '$.samples[0].events' },
    ]);
  });
});

describe('isInspectLog', () => {
  it('accepts .json logs and .eval zips (header.json or journal only)', () => {
    expect(isInspectLog(jsonLog([]))).toBe(true);
    expect(isInspectLog(enc.encode(`  \n${JSON.stringify(header())}`))).toBe(true);
    expect(isInspectLog(buildZip(evalMembers([[1, 1]])))).toBe(true);
    expect(isInspectLog(fflateEval({ '_journal/start.json': header() }))).toBe(true);
  });
  it('rejects other zips, other JSON, garbage and truncated zips without throwing', () => {
    expect(isInspectLog(fflateEval({ 'doc.txt': 'hello' }))).toBe(false);
    expect(isInspectLog(json({ events: [] }))).toBe(false);
    expect(isInspectLog(json([1, 2]))).toBe(false);
    expect(isInspectLog(new Uint8Array([0, 1, 2]))).toBe(false);
    const zip = buildZip(evalMembers([[1, 1]]));
    expect(isInspectLog(zip.subarray(0, zip.length - 30))).toBe(false);
  });
});

describe('indirections (research/inspect_ai.md §1.5)', () => {
  let log: InspectLog;
  beforeEach(async () => {
    log = await importInspectLog(jsonLog([monolithSample(1, 1)]));
  });

  it('resolves attachment://<hash> everywhere in an event (nested, arrays, tools, arguments)', async () => {
    const { events, diagnostics } = await log.sample(1, 1);
    expect(diagnostics.filter((d) => d.severity === 'warning')).toEqual([]);
    const e: unknown = events;
    expect(at(e, 1, 'sample', 'input')).toBe(LONG.user);
    expect(at(e, 2, 'tools', 0, 'description')).toBe(LONG.tool);
    expect(at(e, 3, 'arguments', 'cmd')).toBe(LONG.args);
    expect(at(e, 4, 'data', 'deep', 0, 'text')).toBe(LONG.info);
    expect(strings(events).filter((s) => s.startsWith('attachment://'))).toEqual([]);
  });

  it('expands the message pool (input_refs, several ranges), resolving pool attachments first', async () => {
    const e: unknown = (await log.sample(1, 1)).events;
    expect(pluck(at(e, 2, 'input'), 'id')).toEqual(['m0', 'm1']);
    expect(pluck(at(e, 5, 'input'), 'id')).toEqual(['m0', 'm2', 'm3']);
    expect(at(e, 2, 'input', 0, 'content')).toBe(LONG.system);
    expect(at(e, 5, 'input', 1, 'tool_calls', 0, 'arguments', 'cmd')).toBe(LONG.args);
    expect(at(e, 2)).not.toHaveProperty('input_refs');
  });

  it('expands the call pool under call_key (default "messages") and drops the refs', async () => {
    const e: unknown = (await log.sample(1, 1)).events;
    expect(at(e, 2, 'call', 'request')).toEqual({
      model: 'mock',
      temperature: 0,
      messages: [
        { role: 'system', content: LONG.system },
        { role: 'user', content: 'hi' },
      ],
    });
    expect(at(e, 2, 'call')).not.toHaveProperty('call_refs');
    expect(at(e, 2, 'call')).not.toHaveProperty('call_key');
    expect(pluck(at(e, 5, 'call', 'request', 'messages'), 'role')).toEqual(['system', 'tool']);
  });

  it('uses a custom call_key (e.g. "input" for the OpenAI responses API)', async () => {
    const s = monolithSample(1, 1);
    put(s, ['events', 2, 'call', 'call_key'], 'input');
    const e: unknown = (await (await importInspectLog(jsonLog([s]))).sample(1)).events;
    expect(at(e, 2, 'call', 'request', 'input')).toHaveLength(2);
    expect(at(e, 2, 'call', 'request')).not.toHaveProperty('messages');
  });

  it('resolves the legacy transcript{events, content} layout with tc:// refs', async () => {
    const legacy = {
      id: 1,
      epoch: 1,
      transcript: {
        events: [
          {
            timestamp: '2024-11-05T13:32:37-05:00',
            event: 'step',
            action: 'begin',
            name: 'generate',
          },
          {
            timestamp: '2024-11-05T13:32:38-05:00',
            event: 'info',
            data: { text: 'tc://legacyhash' },
          },
          {
            timestamp: '2024-11-05T13:32:39-05:00',
            event: 'model',
            model: 'm',
            tools: [],
            tool_choice: 'none',
            config: {},
            input: [{ role: 'user', content: 'tc://legacyhash' }],
            output: { model: 'm', choices: [] },
          },
          {
            timestamp: '2024-11-05T13:32:40-05:00',
            event: 'step',
            action: 'end',
            name: 'generate',
          },
        ],
        content: { legacyhash: LONG.info },
      },
    };
    const r = await (await importInspectLog(jsonLog([legacy], { version: 1 }))).sample(1, 1);
    expect(kinds(r.events)).toEqual(['step', 'info', 'model', 'step']);
    const e: unknown = r.events;
    expect(at(e, 0)).toMatchObject({ action: 'begin', name: 'generate' });
    expect(at(e, 1, 'data', 'text')).toBe(LONG.info);
    expect(at(e, 2, 'input', 0, 'content')).toBe(LONG.info);
    expect(r.diagnostics.filter((d) => d.code === 'dangling_attachment')).toEqual([]);
  });

  it('resolves tc:// refs against sample.attachments too (inspect migrates them to attachment://)', async () => {
    const s = monolithSample(1, 1);
    put(s, ['events', 4, 'data'], { text: `tc://${HASH.info}` });
    const e: unknown = (await (await importInspectLog(jsonLog([s]))).sample(1)).events;
    expect(at(e, 4, 'data', 'text')).toBe(LONG.info);
  });

  it('reads the chunked layout (attachment://<index>, pools and events in chunks) like the monolith', async () => {
    const head = { name: 'header.json', data: JSON.stringify(header()) };
    const chunkedLog = await importInspectLog(buildZip([head, ...chunkedMembers(1, 1, 2)]));
    const monoLog = await importInspectLog(buildZip(evalMembers([[1, 1]])));
    expect(chunkedLog.samples).toEqual([{ id: 1, epoch: 1 }]); // no summaries.json: listed from members
    const chunked = await chunkedLog.sample(1, 1);
    expect(chunked.diagnostics.filter((d) => d.severity === 'warning')).toEqual([]);
    expect(chunked.events).toMatchObject(resolvedEvents(1, 1));
    expect(JSON.stringify(chunked.events)).toBe(
      JSON.stringify((await monoLog.sample(1, 1)).events),
    );
  });

  it('fills a chunked event uuid from events/uuids.json when the event lacks one', async () => {
    const members = chunkedMembers(1, 1, 3, 8);
    const first = members.find((m) => m.name.endsWith('/events/0.json'))!;
    const evs = JSON.parse(first.data as string) as Record<string, unknown>[];
    delete evs[0]!.uuid;
    first.data = JSON.stringify(evs);
    const log2 = await importInspectLog(
      buildZip([{ name: 'header.json', data: JSON.stringify(header()) }, ...members]),
    );
    expect((await log2.sample(1, 1)).events[0]!.uuid).toBe('1-1-e0');
  });

  it('keeps legacy step events and nested ToolEvent.events, resolving refs inside them', async () => {
    const s = monolithSample(1, 1);
    put(
      s,
      ['events', 3, 'events'],
      [{ timestamp: s.events[3]!.timestamp, event: 'info', data: ref('info') }],
    );
    (s.events as unknown[]).splice(1, 0, {
      timestamp: s.events[0]!.timestamp,
      event: 'step',
      action: 'begin',
      name: 'legacy',
    });
    const r = await (await importInspectLog(jsonLog([s]))).sample(1);
    expect(r.events[1]).toMatchObject({ event: 'step', action: 'begin', name: 'legacy' });
    expect(strings(r.events).filter((x) => x.startsWith('attachment://'))).toEqual([]);
    expect(strings(r.events)).toContain(LONG.info);
  });
});

describe('NaN / Infinity tokens (pydantic ser_json_inf_nan="constants", research §1.1)', () => {
  it('revives bare tokens outside strings and leaves strings alone', () => {
    const v = parseJsonTolerant(
      '{"a": NaN, "b": [Infinity, -Infinity], "s": "NaN Infinity \\" -Infinity", "n": -1}',
      '$',
    ) as { a: number; b: number[]; s: string; n: number };
    expect(v.a).toBeNaN();
    expect(v.b).toEqual([Infinity, -Infinity]);
    expect(v.s).toBe('NaN Infinity " -Infinity');
    expect(v.n).toBe(-1);
  });

  it('reads a log whose score and event values are NaN/Infinity, in .json and in .eval members', async () => {
    const s = monolithSample(1, 1);
    const text = JSON.stringify({ ...header(), samples: [s] })
      .replace('"scores":{"match":{"value":"C"}}', '"scores":{"match":{"value":NaN}}')
      .replace('"working_start":4', '"working_start":Infinity');
    const log = await importInspectLog(enc.encode(text));
    expect(log.samples[0]!.scores!.match).toEqual({ value: NaN });
    expect((await log.sample(1)).events[4]!.working_start).toBe(Infinity);

    const member = JSON.stringify(s).replace('"working_start":4', '"working_start":-Infinity');
    const zlog = await importInspectLog(
      fflateEval({
        'header.json': header(),
        'summaries.json': [summary(1, 1)],
        'samples/1_epoch_1.json': member,
      }),
    );
    expect((await zlog.sample(1)).events[4]!.working_start).toBe(-Infinity);
  });

  it('still reports invalid JSON that has such tokens and other errors', () => {
    expect(() => parseJsonTolerant('{"a": NaN,}', '$.x')).toThrow(ImportError);
    try {
      parseJsonTolerant('{"a": NaN,}', '$.x');
    } catch (e) {
      expect(e).toMatchObject({ code: 'invalid_json', path: '$.x' });
    }
  });
});

describe('lazy loading', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.mocked(parseEvents).mockClear();
  });

  it('.eval: a sample member is neither decompressed nor parsed until asked', async () => {
    const spy = vi.spyOn(JSON, 'parse');
    const log = await importInspectLog(
      buildZip(
        evalMembers([
          [1, 1],
          [2, 1],
        ]),
      ),
    );
    const parsedSample = (tag: string) =>
      spy.mock.calls.some(([t]) => typeof t === 'string' && t.includes(`"${tag}-e0"`));
    expect(parsedSample('1-1')).toBe(false);
    expect(parsedSample('2-1')).toBe(false);
    await log.sample(1, 1);
    expect(parsedSample('1-1')).toBe(true);
    expect(parsedSample('2-1')).toBe(false);
    await log.sample(2, 1);
    expect(parsedSample('2-1')).toBe(true);
  });

  it('.eval: a corrupt second sample does not stop the first from loading (it is never decompressed)', async () => {
    const members = evalMembers(
      [
        [1, 1],
        [2, 1],
      ],
      0,
    );
    const bytes = buildZip(members);
    const at = findBytes(bytes, enc.encode('"2-1-e3"'));
    bytes[at + 2] = 0x39; // flip a byte inside sample 2's stored member → CRC mismatch
    const log = await importInspectLog(bytes);
    expect((await log.sample(1, 1)).events).toHaveLength(7);
    const e = await rejection(log.sample(2, 1));
    expect(e).toMatchObject({ code: 'zip_corrupt', path: '$["samples/2_epoch_1.json"]' });
  });

  it('.json: only the asked sample is resolved and parsed, once', async () => {
    const log = await importInspectLog(
      jsonLog([monolithSample(1, 1), monolithSample(2, 1), monolithSample(3, 1)]),
    );
    expect(parseEvents).not.toHaveBeenCalled();
    const a = await log.sample(2, 1);
    expect(parseEvents).toHaveBeenCalledTimes(1);
    const firstArg = vi.mocked(parseEvents).mock.calls[0]![0] as { uuid: string }[];
    expect(firstArg[0]!.uuid).toBe('2-1-e0');
    expect(await log.sample(2, 1)).toBe(a);
    expect(parseEvents).toHaveBeenCalledTimes(1);
  });
});

function findBytes(hay: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return i;
  }
  throw new Error('not found');
}

describe('bad input → ImportError with code and path, or a diagnostic', () => {
  it('truncated zip: every cut point fails with a zip_* ImportError, never a crash', async () => {
    const bytes = buildZip(evalMembers([[1, 1]]));
    for (let cut = 0; cut < bytes.length; cut += 7) {
      const e = await rejection(
        importInspectLog(bytes.subarray(0, cut)).then((log) => log.sample(1, 1)),
      );
      expect(['zip_truncated', 'zip_corrupt', 'invalid_json', 'not_inspect_log']).toContain(e.code);
    }
    const e = await rejection(importInspectLog(bytes.subarray(0, bytes.length - 10)));
    expect(e).toMatchObject({ code: 'zip_truncated', path: '$' });
  });

  it('random byte corruption (deterministic, 400 mutants) only ever yields ImportErrors', async () => {
    const bases = [
      buildZip(evalMembers([[1, 1]], 93)),
      buildZip(evalMembers([[1, 1]], 8), { zip64: true }),
      buildZip([
        { name: 'header.json', data: JSON.stringify(header()) },
        ...chunkedMembers(1, 1, 2, 93),
      ]),
      jsonLog([monolithSample(1, 1)]),
    ];
    let seed = 12345;
    const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    let failures = 0;
    for (let n = 0; n < 400; n++) {
      const b = bases[n % bases.length]!.slice();
      for (let f = 0; f < 1 + Math.floor(rnd() * 3); f++)
        b[Math.floor(rnd() * b.length)] = Math.floor(rnd() * 256);
      try {
        const log = await importInspectLog(b);
        for (const s of log.samples) await log.sample(s.id, s.epoch);
      } catch (e) {
        expect(e).toBeInstanceOf(ImportError);
        failures++;
      }
    }
    expect(failures).toBeGreaterThan(100); // the corruption is mostly detected (CRC, sizes, JSON)
  });

  it('a member cut short inside the archive → zip_truncated naming the member', async () => {
    const bytes = buildZip(evalMembers([[1, 1]]));
    const zip = openZip(bytes);
    const entry = zip.entries.get('header.json')!;
    // Point the directory's header.json at a local header near the end.
    const cdView = new DataView(bytes.buffer, bytes.byteOffset);
    const cdStart = findBytes(bytes, new Uint8Array([0x50, 0x4b, 0x01, 0x02]));
    let p = cdStart;
    while (true) {
      const nameLen = cdView.getUint16(p + 28, true);
      const name = new TextDecoder().decode(bytes.subarray(p + 46, p + 46 + nameLen));
      if (name === 'header.json') {
        cdView.setUint32(p + 20, entry.compressedSize + 100000, true);
        break;
      }
      p += 46 + nameLen + cdView.getUint16(p + 30, true) + cdView.getUint16(p + 32, true);
    }
    const e = await rejection(importInspectLog(bytes));
    expect(e).toMatchObject({ code: 'zip_truncated', path: '$["header.json"]' });
  });

  it('corrupt zstd and deflate data → zip_corrupt naming the member', async () => {
    const data = JSON.stringify(monolithSample(1, 1));
    const frame = zstdRawFrame(enc.encode(data));
    const zstdBad = buildZip([
      { name: 'header.json', data: JSON.stringify(header()) },
      {
        name: 'samples/1_epoch_1.json',
        data,
        method: 93,
        compressed: frame.subarray(0, frame.length - 50),
      },
    ]);
    const log = await importInspectLog(zstdBad);
    expect(await rejection(log.sample(1, 1))).toMatchObject({
      code: 'zip_corrupt',
      path: '$["samples/1_epoch_1.json"]',
    });

    const deflateBad = buildZip([
      { name: 'header.json', data: JSON.stringify(header()) },
      {
        name: 'samples/1_epoch_1.json',
        data,
        method: 8,
        compressed: new Uint8Array([0xff, 0xff, 0xff, 0xff]),
      },
    ]);
    const log2 = await importInspectLog(deflateBad);
    expect(await rejection(log2.sample(1, 1))).toMatchObject({
      code: 'zip_corrupt',
      path: '$["samples/1_epoch_1.json"]',
    });
  });

  it('a member longer or shorter than the directory says → zip_corrupt', async () => {
    const data = enc.encode(JSON.stringify(header()));
    const two = zstdRawFrame(concat([data, data]));
    const bytes = buildZip([{ name: 'header.json', data, method: 93, compressed: two }]);
    expect(await rejection(importInspectLog(bytes))).toMatchObject({
      code: 'zip_corrupt',
      path: '$["header.json"]',
    });
  });

  it('unsupported compression method and encryption → zip_unsupported', async () => {
    const bytes = buildZip([{ name: 'header.json', data: JSON.stringify(header()), method: 12 }]);
    expect(await rejection(importInspectLog(bytes))).toMatchObject({
      code: 'zip_unsupported',
      path: '$["header.json"]',
    });
    const enc2 = buildZip([{ name: 'header.json', data: JSON.stringify(header()), method: 0 }]);
    enc2[findBytes(enc2, new Uint8Array([0x50, 0x4b, 0x01, 0x02])) + 8]! |= 1; // "encrypted" flag
    expect(await rejection(importInspectLog(enc2))).toMatchObject({
      code: 'zip_unsupported',
      path: '$["header.json"]',
    });
  });

  it('invalid JSON → invalid_json at the document or the member', async () => {
    expect(await rejection(importInspectLog(enc.encode('{"version": 2, "eval": {')))).toMatchObject(
      { code: 'invalid_json', path: '$' },
    );
    const bytes = fflateEval({ 'header.json': '{"version": 2,', 'summaries.json': [] });
    expect(await rejection(importInspectLog(bytes))).toMatchObject({
      code: 'invalid_json',
      path: '$["header.json"]',
    });
    const sampleBad = fflateEval({
      'header.json': header(),
      'summaries.json': [summary(1, 1)],
      'samples/1_epoch_1.json': '{"id": 1, "epoch": 1, "events": [',
    });
    const log = await importInspectLog(sampleBad);
    expect(await rejection(log.sample(1, 1))).toMatchObject({
      code: 'invalid_json',
      path: '$["samples/1_epoch_1.json"]',
    });
  });

  it('unknown or missing log version → unsupported_version / missing_field at $.version', async () => {
    expect(await rejection(importInspectLog(jsonLog([], { version: 99 })))).toMatchObject({
      code: 'unsupported_version',
      path: '$.version',
    });
    expect(await rejection(importInspectLog(jsonLog([], { version: '2' })))).toMatchObject({
      code: 'unsupported_version',
      path: '$.version',
    });
    const bytes = fflateEval({ 'header.json': { ...header(), version: 7 } });
    expect(await rejection(importInspectLog(bytes))).toMatchObject({
      code: 'unsupported_version',
      path: '$["header.json"].version',
    });
    const { version: _v, ...noVersion } = header();
    expect(await rejection(importInspectLog(json(noVersion)))).toMatchObject({
      code: 'missing_field',
      path: '$.version',
    });
  });

  it('not a log → not_inspect_log / missing_field / wrong_type with the path', async () => {
    expect(await rejection(importInspectLog(json([1, 2])))).toMatchObject({
      code: 'not_inspect_log',
      path: '$',
    });
    expect(await rejection(importInspectLog(fflateEval({ 'a.txt': 'x' })))).toMatchObject({
      code: 'not_inspect_log',
      path: '$',
    });
    const { eval: _e, ...noEval } = header();
    expect(await rejection(importInspectLog(json(noEval)))).toMatchObject({
      code: 'missing_field',
      path: '$.eval',
    });
    expect(await rejection(importInspectLog(jsonLog([{ id: 1 }])))).toMatchObject({
      code: 'missing_field',
      path: '$.samples[0].epoch',
    });
    expect(await rejection(importInspectLog(json({ ...header(), samples: {} })))).toMatchObject({
      code: 'wrong_type',
      path: '$.samples',
    });
    const badEvents = { ...monolithSample(1, 1), events: {} };
    const log = await importInspectLog(jsonLog([badEvents]));
    expect(await rejection(log.sample(1, 1))).toMatchObject({
      code: 'wrong_type',
      path: '$.samples[0].events',
    });
  });

  it('unknown id or epoch → sample_not_found', async () => {
    const log = await importInspectLog(jsonLog([monolithSample(1, 1)]));
    expect(await rejection(log.sample(2, 1))).toMatchObject({ code: 'sample_not_found' });
    expect(await rejection(log.sample(1, 2))).toMatchObject({ code: 'sample_not_found' });
    const zlog = await importInspectLog(buildZip(evalMembers([[1, 1]])));
    expect(await rejection(zlog.sample('nope'))).toMatchObject({ code: 'sample_not_found' });
  });

  it('ids and epochs a caller hands in never run their own toString or stand for another', async () => {
    const hostile = {
      toString(): string {
        throw new Error('ran toString');
      },
      [Symbol.toPrimitive](): string {
        throw new Error('ran toPrimitive');
      },
    };
    // Reads as sample 1, epoch 1 wherever String() or a template literal converts it.
    const lying = { toString: () => '1', valueOf: () => 1, [Symbol.toPrimitive]: () => '1' };
    for (const log of [
      await importInspectLog(jsonLog([monolithSample(1, 1)])),
      await importInspectLog(buildZip(evalMembers([[1, 1]]))),
    ]) {
      expect(await log.sample(1, 1)).toBeDefined();
      for (const [id, epoch] of [
        [hostile, 1],
        [1, hostile],
        [lying, 1],
        [1, lying],
      ] as const) {
        const e = await rejection(log.sample(id as never, epoch as never));
        expect(e.code).toBe('sample_not_found');
        expect(e.message).not.toContain('ran ');
      }
    }
    // The uuid seed of the streaming viewer: the same rule.
    expect(() =>
      inspectUuidSeed({ run_id: hostile, task: hostile } as never, hostile, 1),
    ).not.toThrow();
    const real = inspectUuidSeed({ run_id: 'r1', task: 'popularity' }, 1, 1);
    expect(inspectUuidSeed({ run_id: 'r1', task: 'popularity' }, lying, lying)).not.toBe(real);
  });

  it('a log version or run id nested thousands deep is a typed error or plain text, not a RangeError', async () => {
    const n = 20_000;
    const text = JSON.stringify({ ...header(), samples: [] }).replace(
      /"version":\d+/,
      `"version":${'['.repeat(n)}1${']'.repeat(n)}`,
    );
    expect(await rejection(importInspectLog(enc.encode(text)))).toMatchObject({
      code: 'unsupported_version',
      path: '$.version',
    });
    let deep: unknown = 1;
    for (let i = 0; i < n; i++) deep = [deep];
    const seed = inspectUuidSeed({ run_id: deep, task: 't' } as never, 1, 1);
    expect(seed).toBe('[value nested too deep to show as text]/t/1/1');
  });

  it('a dangling attachment → a warning naming the place; the ref is kept', async () => {
    const s = monolithSample(1, 1);
    put(s, ['events', 4, 'data', 'deep', 1], {
      text: 'attachment://00000000000000000000000000000000',
    });
    put(s, ['events_data', 'messages', 3, 'content'], 'attachment://constructor');
    const r = await (await importInspectLog(jsonLog([s]))).sample(1);
    const dangling = r.diagnostics.filter((d) => d.code === 'dangling_attachment');
    expect(dangling.map((d) => d.path).sort()).toEqual([
      '$.samples[0].events[4].data.deep[1].text',
      '$.samples[0].events_data.messages[3].content',
    ]);
    expect(dangling.every((d) => d.severity === 'warning')).toBe(true);
    const e: unknown = r.events;
    expect(at(e, 4, 'data', 'deep', 1, 'text')).toBe(
      'attachment://00000000000000000000000000000000',
    );
    expect(at(e, 5, 'input', 2, 'content')).toBe('attachment://constructor');
  });

  it('a dangling pool reference → a warning at the ref; the refs are kept, the rest expanded', async () => {
    const s = monolithSample(1, 1);
    put(
      s,
      ['events', 5, 'input_refs'],
      [
        [0, 1],
        [3, 9],
      ],
    );
    put(s, ['events', 2, 'call', 'call_refs'], [[7, 8]]);
    const r = await (await importInspectLog(jsonLog([s]))).sample(1);
    expect(r.diagnostics.filter((d) => d.code === 'dangling_pool_ref').map((d) => d.path)).toEqual([
      '$.samples[0].events[2].call.call_refs[0]',
      '$.samples[0].events[5].input_refs[1]',
    ]);
    const e: unknown = r.events;
    expect(pluck(at(e, 5, 'input'), 'id')).toEqual(['m0', 'm3']);
    expect(at(e, 5, 'input_refs')).toEqual([
      [0, 1],
      [3, 9],
    ]);
    expect(at(e, 2, 'call', 'call_refs')).toEqual([[7, 8]]);
  });

  it('a failing .json sample fails the same way when asked again', async () => {
    const s = monolithSample(1, 1);
    put(s, ['events', 6, 'timestamp'], 42); // parseEvents: wrong type, after resolution ran
    const log = await importInspectLog(jsonLog([s]));
    const first = await rejection(log.sample(1));
    expect(first).toMatchObject({ path: '$.samples[0].events[6].timestamp' });
    expect(await rejection(log.sample(1))).toBe(first);
  });

  it('chunks without their sample.json shell → missing_member naming the shell', async () => {
    const members = chunkedMembers(1, 1, 3, 8).filter((m) => !m.name.endsWith('/sample.json'));
    const log = await importInspectLog(
      buildZip([{ name: 'header.json', data: JSON.stringify(header()) }, ...members]),
    );
    expect(log.samples).toEqual([{ id: 1, epoch: 1 }]);
    expect(await rejection(log.sample(1, 1))).toMatchObject({
      code: 'missing_member',
      path: '$["samples/1_epoch_1/sample.json"]',
    });
  });

  it('caps diagnostics per code (maxDiagnosticsPerCode) and counts the rest', async () => {
    const s = monolithSample(1, 1);
    put(
      s,
      ['events', 4, 'data'],
      ['a', 'b', 'c', 'd', 'e'].map((x) => `attachment://${x}`),
    );
    const log = await importInspectLog(jsonLog([s]), { maxDiagnosticsPerCode: 2 });
    const r = await log.sample(1);
    expect(r.diagnostics.filter((d) => d.code === 'dangling_attachment')).toHaveLength(2);
    expect(r.diagnostics.filter((d) => d.code === 'diagnostics_truncated')).toMatchObject([
      { message: '3 more "dangling_attachment" diagnostics not listed' },
    ]);
  });

  it('pool refs without any pool (the interim v3 message_pool writer) → one warning per ref', async () => {
    const { events_data: _d, ...s } = monolithSample(1, 1);
    const r = await (await importInspectLog(jsonLog([s], { version: 3 }))).sample(1);
    expect(r.diagnostics.filter((d) => d.code === 'dangling_pool_ref')).toHaveLength(6);
  });

  it('malformed pool refs → wrong_type at the ref', async () => {
    const s = monolithSample(1, 1);
    put(s, ['events', 2, 'input_refs'], [[0, 1], [2]]);
    const log = await importInspectLog(jsonLog([s]));
    expect(await rejection(log.sample(1))).toMatchObject({
      code: 'wrong_type',
      path: '$.samples[0].events[2].input_refs[1]',
    });
  });

  it('a missing chunk → chunk_gap warning, and refs into the hole → dangling_pool_ref', async () => {
    const members = chunkedMembers(1, 1, 2, 8).filter((m) => !m.name.endsWith('/messages/0.json'));
    const log = await importInspectLog(
      buildZip([{ name: 'header.json', data: JSON.stringify(header()) }, ...members]),
    );
    const r = await log.sample(1, 1);
    expect(r.diagnostics.filter((d) => d.code === 'chunk_gap')).toMatchObject([
      { path: '$["samples/1_epoch_1/messages/2.json"]', severity: 'warning' },
    ]);
    // Chunks of 2 events: event 2 is item 0 of events/2.json, event 5 item 1 of events/4.json.
    expect(r.diagnostics.filter((d) => d.code === 'dangling_pool_ref').map((d) => d.path)).toEqual([
      '$["samples/1_epoch_1/events/2.json"][0].input_refs[0]',
      '$["samples/1_epoch_1/events/4.json"][1].input_refs[0]',
    ]);
  });
});

describe('public API', () => {
  it('is exported from the core entry point', () => {
    expect(core.importInspectLog).toBe(importInspectLog);
    expect(core.isInspectLog).toBe(isInspectLog);
  });

  it('results survive a JSON round trip (no cycles, no functions)', async () => {
    const r = await (await importInspectLog(jsonLog([monolithSample(1, 1)]))).sample(1);
    expect(JSON.parse(JSON.stringify(r.events))).toEqual(r.events);
  });

  it('crc32 gives the standard check value', () => {
    expect(crc32(enc.encode('123456789'))).toBe(0xcbf43926);
  });

  it('stored members can be read through openZip', () => {
    const zip = openZip(buildZip([{ name: 'a.json', data: '[1]', method: 0 } satisfies ZipMember]));
    expect(new TextDecoder().decode(zip.read('a.json'))).toBe('[1]');
    expect(() => zip.read('b.json')).toThrow(
      expect.objectContaining({ code: 'missing_member', path: '$["b.json"]' }),
    );
  });
});
