import { Probe } from '../../src/core/import/probe.js';
import { IsoFormatter, SyntheticClock } from '../../src/core/import/sink.js';
import { readJsonLines } from '../../src/core/import/lines.js';
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { forEachJsonLine } from '../../src/core/import/lines.js';
import {
  EventSink,
  EventStream,
  ImportContext,
  ImportError,
  detectFormat,
  formats,
  importAny,
  isSkeinEvents,
  countDiagnostics,
  parseEvents,
  readJsonLinesAsync,
  streamImport,
  eventTime,
  type Event,
} from '../../src/index.js';
import { inventedOnly } from '../../src/core/import/sink.js';
import { parseTimestampMs } from '../../src/core/events/timestamp.js';

const t0 = '2026-01-01T00:00:00.000Z';
const info = (i: number, extra: Record<string, unknown> = {}) => ({
  event: 'info',
  uuid: `u${i}`,
  timestamp: `2026-01-01T00:00:0${i}.000Z`,
  data: i,
  ...extra,
});

async function* chunked(text: string | Uint8Array, size: number) {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

describe('ImportContext', () => {
  it('reads typed fields leniently: a wrong type is a diagnostic with its path and reads as absent', () => {
    const ctx = new ImportContext();
    const rec = { name: 'a', count: '3', flag: true, list: [1], obj: {} };
    expect(ctx.string(rec, 'name', '$[2]')).toBe('a');
    expect(ctx.number(rec, 'count', '$[2]')).toBeUndefined();
    expect(ctx.boolean(rec, 'flag', '$[2]')).toBe(true);
    expect(ctx.array(rec, 'list', '$[2]')).toEqual([1]);
    expect(ctx.record(rec, 'obj', '$[2]')).toEqual({});
    expect(ctx.string(rec, 'missing', '$[2]')).toBeUndefined();
    expect(ctx.finish()).toEqual([
      {
        code: 'wrong_type',
        severity: 'warning',
        path: '$[2].count',
        message: 'Expected number, got string',
      },
    ]);
  });

  it('never reads prototype members for JSON keys', () => {
    const ctx = new ImportContext();
    const rec = JSON.parse('{"__proto__": {"x": 1}}') as Record<string, unknown>;
    expect(ctx.record(rec, '__proto__', '$')).toEqual({ x: 1 });
    expect(ctx.string({}, 'constructor', '$')).toBeUndefined();
    expect(ctx.string({}, 'toString', '$')).toBeUndefined();
    expect(ctx.finish()).toEqual([]);
  });

  it('throws typed errors from the strict readers', () => {
    const ctx = new ImportContext();
    expect(() => ctx.requireString({}, 'id', '$[0]')).toThrow(
      expect.objectContaining({ code: 'missing_field', path: '$[0].id' }),
    );
    expect(() => ctx.requireString({ id: 3 }, 'id', '$[0]')).toThrow(
      expect.objectContaining({ code: 'wrong_type', path: '$[0].id' }),
    );
    expect(() => ctx.requireRecord([], '$[1]')).toThrow(ImportError);
  });

  it('caps diagnostics per code and counts the rest; reports invented values once per kind', () => {
    const ctx = new ImportContext({ maxDiagnosticsPerCode: 2 });
    for (let i = 0; i < 5; i++) ctx.number({ n: 'x' }, 'n', `$[${i}]`);
    ctx.invent('timestamp', '$[0]');
    ctx.invent('timestamp', '$[1]');
    ctx.invent('uuid', '$[4]');
    const d = ctx.finish();
    expect(d.filter((x) => x.code === 'wrong_type')).toHaveLength(2);
    expect(d.find((x) => x.code === 'diagnostics_truncated')?.message).toBe(
      '3 more "wrong_type" diagnostics not listed',
    );
    const invented = d.filter((x) => x.code === 'value_invented');
    expect(invented.map((x) => [x.path, x.message.slice(0, 16)])).toEqual([
      ['$[0]', '2 timestamp valu'],
      ['$[4]', '1 uuid value was'],
    ]);
  });

  it('counts by kind exactly over the cap: what a truncation left out counts toward its code', () => {
    const ctx = new ImportContext({ maxDiagnosticsPerCode: 2 });
    for (let i = 0; i < 5; i++) ctx.number({ n: 'x' }, 'n', `$[${i}]`);
    ctx.string({ s: 1 }, 's', '$[9]');
    const d = ctx.finish();
    expect(d.find((x) => x.code === 'diagnostics_truncated')?.omitted).toEqual({
      code: 'wrong_type',
      count: 4,
    });
    expect(countDiagnostics(d)).toEqual([['wrong_type', 6]]);
    // parseEvents and inspect logs cap through the same diagnostic.
    const many = Array.from({ length: 7 }, (_, i) => ({
      event: 'info',
      timestamp: `2026-01-01T00:00:0${i}Z`,
    }));
    const parsed = parseEvents(many, { maxDiagnosticsPerCode: 2 });
    expect(countDiagnostics(parsed.diagnostics)).toContainEqual(['uuid_derived', 7]);
  });
});

describe('JSON Lines', () => {
  const text = '\uFEFF{"a":1}\r\n\n  \n{"a":2}\nnot json\n{"a":3}';

  it('skips blank lines, reads CRLF and a BOM, reports a bad line by number and goes on', () => {
    const ctx = new ImportContext();
    const lines = [...readJsonLines(text, ctx)];
    expect(lines.map((l) => [l.value, l.line, l.path])).toEqual([
      [{ a: 1 }, 1, '$[0]'],
      [{ a: 2 }, 4, '$[3]'],
      [{ a: 3 }, 6, '$[5]'],
    ]);
    const [d] = ctx.finish();
    expect(d).toMatchObject({ code: 'invalid_json_line', path: '$[4]' });
    expect(d?.message).toMatch(/^Line 5 is not valid JSON/);
  });

  it('reads the same records, paths and diagnostics in the callback loop as in the generator', () => {
    const ctx = new ImportContext();
    const got: [unknown, string][] = [];
    forEachJsonLine(text, ctx, (value, path) => got.push([value, path]));
    const gen = new ImportContext();
    expect(got).toEqual([...readJsonLines(text, gen)].map((l) => [l.value, l.path]));
    expect(ctx.finish()).toEqual(gen.finish());
    const bytes: [unknown, string][] = [];
    forEachJsonLine(new TextEncoder().encode(text), new ImportContext(), (v, p) =>
      bytes.push([v, p]),
    );
    expect(bytes).toEqual(got);
  });

  it('reads the same records from chunks split anywhere, even inside a UTF-8 character', async () => {
    const body = '{"t":"héllo ✓ 😀"}\n{"t":"b"}\n\n{"t":"c"}';
    const bytes = new TextEncoder().encode(body);
    const expected = [...readJsonLines(body, new ImportContext())];
    for (const size of [1, 2, 3, 7, 1000]) {
      const got = [];
      for await (const l of readJsonLinesAsync(chunked(bytes, size), new ImportContext()))
        got.push(l);
      expect(got).toEqual(expected);
    }
  });
});

describe('Probe', () => {
  it('tells one JSON document, JSON Lines and plain text apart, lazily', () => {
    expect(new Probe('[{"a":1},{"a":2}]').json()).toEqual([{ a: 1 }, { a: 2 }]);
    const lines = new Probe('{"a":1}\n{"a":2}\n');
    expect(lines.json()).toBeUndefined();
    expect(lines.isJsonLines()).toBe(true);
    expect(lines.records()).toEqual([{ a: 1 }, { a: 2 }]);
    const plain = new Probe('hello world');
    expect(plain.json()).toBeUndefined();
    expect(plain.records()).toEqual([]);
    expect(new Probe({ a: 1 }).records()).toEqual([{ a: 1 }]);
    expect(new Probe('', 'dir/Run 1.JSONL').extension).toBe('.jsonl');
  });

  it('takes JSON Lines for JSON Lines without parsing the whole text, and still says why it is not one document', () => {
    const lines = new Probe('{"a":1}\n{"a": NaN}\n');
    expect(lines.json()).toBeUndefined();
    expect(lines.jsonError).toBeInstanceOf(ImportError);
    expect((lines.jsonError as ImportError).code).toBe('invalid_json');
    // A first line that is not a whole value, NaN tokens, a value then blank lines: parsed whole.
    expect(new Probe('{"a":\n1}\n').json()).toEqual({ a: 1 });
    expect(new Probe('[1,\nNaN]').json()).toEqual([1, NaN]);
    expect(new Probe('{"a":1}\n \r\n').json()).toEqual({ a: 1 });
    const doc = new Probe('{"a":1}');
    expect(doc.json()).toEqual({ a: 1 });
    expect(doc.jsonError).toBeUndefined();
    const records: unknown[] = [];
    lines.eachLine(new ImportContext(), (value) => records.push(value));
    // A line with Python's bare NaN reads as a whole document with one would.
    expect(records).toEqual([{ a: 1 }, { a: NaN }]);
  });

  it('parses the head lines of a short file once, however many records each sniff asks for', () => {
    // Each format's detect asks for its own count; a file with fewer lines
    // than the head holds was parsed again for each (a line of a million keys: a second each).
    const lines = new Probe('{"a":1}\n{"a":2}\nnot json\n{"a":3}\n');
    const parse = vi.spyOn(JSON, 'parse');
    try {
      expect(lines.records(2)).toEqual([{ a: 1 }, { a: 2 }]);
      const after = parse.mock.calls.length;
      expect(lines.records(4)).toEqual([{ a: 1 }, { a: 2 }, { a: 3 }]);
      expect(lines.records(100)).toHaveLength(3);
      expect(parse.mock.calls.length).toBe(after);
    } finally {
      parse.mockRestore();
    }
  });

  it('reads bytes and ArrayBuffers as UTF-8', () => {
    const bytes = new TextEncoder().encode('{"a":"é"}');
    expect(new Probe(bytes).json()).toEqual({ a: 'é' });
    expect(new Probe(bytes.buffer).json()).toEqual({ a: 'é' });
  });
});

describe('EventSink', () => {
  function build(sink: EventSink, drainEach: boolean, out: Event[]) {
    const a = sink.add(
      {
        event: 'tool',
        uuid: sink.uuid('a'),
        timestamp: t0,
        type: 'function',
        id: 'a',
        function: 'f',
        arguments: {},
        result: '',
        events: [],
      },
      { open: true },
    );
    if (drainEach) out.push(...sink.drain());
    sink.add({ event: 'info', uuid: sink.uuid('b'), timestamp: t0, data: 'b' });
    if (drainEach) out.push(...sink.drain());
    (a as { result: unknown }).result = 'done';
    sink.close(a);
    if (drainEach) out.push(...sink.drain());
  }

  it('streams pending copies then finals; latest() equals the whole-file import', () => {
    const ctx = new ImportContext();
    const streamed: Event[] = [];
    build(new EventSink(ctx, { seed: 's' }), true, streamed);
    expect(streamed.map((e) => [e.event, e.pending ?? false])).toEqual([
      ['tool', true],
      ['info', false],
      ['tool', false],
    ]);
    expect(streamed.every((e) => Object.isFrozen(e))).toBe(true);
    const whole = new EventSink(new ImportContext(), { seed: 's' });
    build(whole, false, []);
    const all = whole.finish();
    expect(EventStream.from(streamed).latest()).toEqual(all);
    expect(all[0]).toMatchObject({ result: 'done' });
  });

  it('finds its drafts by identity: frozen drafts, old handles, other sinks, nothing visible on the event', () => {
    const sink = new EventSink(new ImportContext(), { seed: 's' });
    const other = new EventSink(new ImportContext(), { seed: 's' });
    const open = sink.add(info(1) as Event, { open: true });
    const frozen = sink.add(Object.freeze(info(2)) as Event, { open: true });
    expect([sink.isOpen(open), sink.isOpen(frozen), other.isOpen(open)]).toEqual([
      true,
      true,
      false,
    ]);
    other.close(open); // not its draft: no effect
    expect(sink.isOpen(open)).toBe(true);
    sink.close(frozen);
    expect(sink.isOpen(frozen)).toBe(false);
    // A streaming drain freezes closed drafts; revise swaps in a copy, and the
    // old handle still finds (and revises) the newest version.
    sink.close(open);
    const [first] = sink.drain();
    const revised = sink.revise(open);
    expect(revised).not.toBe(open);
    expect(sink.revise(open)).toBe(revised);
    expect(sink.isOpen(open)).toBe(false);
    expect(Object.keys(first!)).toEqual(Object.keys(info(1)));
    expect(Reflect.ownKeys(revised).filter((k) => typeof k === 'symbol')).toEqual([]);
    expect(JSON.stringify(first)).toBe(JSON.stringify(info(1)));
  });

  it('derives stable uuids from the seed and key', () => {
    const a = new EventSink(new ImportContext(), { seed: 'x' });
    const b = new EventSink(new ImportContext(), { seed: 'y' });
    expect(a.uuid('k')).toBe(new EventSink(new ImportContext(), { seed: 'x' }).uuid('k'));
    expect(a.uuid('k')).not.toBe(b.uuid('k'));
  });

  it('flags invented values on the event and in one diagnostic', () => {
    const ctx = new ImportContext();
    const sink = new EventSink(ctx, { seed: 's' });
    const e = sink.add({ event: 'info', uuid: 'i', timestamp: t0, data: 1 });
    sink.invent(e, 'timestamp', '$[0]');
    sink.invent(e, 'timestamp', '$[0]');
    expect(sink.finish()[0]?.metadata).toEqual({ skein_invented: ['timestamp'] });
    expect(ctx.finish().map((d) => d.code)).toEqual(['value_invented']);
  });

  it('flags on a new metadata object, keeping the fields and order of the old one untouched', () => {
    const sink = new EventSink(new ImportContext(), { seed: 's' });
    const shared = { a: 1, skein_invented: ['id'], b: 2 };
    const e = sink.add({ ...info(0), metadata: shared } as Event);
    sink.invent(e, 'end', '$[0]');
    sink.invent(e, 'end', '$[0]');
    expect(Object.entries(e.metadata!)).toEqual([
      ['a', 1],
      ['skein_invented', ['id', 'end']],
      ['b', 2],
    ]);
    expect(shared).toEqual({ a: 1, skein_invented: ['id'], b: 2 });
  });

  it('shares one frozen list among events flagging only their time; a second flag makes a new one', () => {
    const sink = new EventSink(new ImportContext(), { seed: 's' });
    const [a, b] = [sink.add(info(1) as Event), sink.add(info(2) as Event)];
    sink.invent(a, 'timestamp', '$[0]');
    sink.invent(b, 'timestamp', '$[1]');
    sink.invent(b, 'id', '$[1]');
    const [x, y] = sink.finish();
    const list = x!.metadata!['skein_invented'];
    expect(Object.isFrozen(list)).toBe(true);
    expect(list).toEqual(['timestamp']);
    expect(y!.metadata!['skein_invented']).toEqual(['timestamp', 'id']);
    expect(inventedOnly('timestamp')).toBe(list);
    expect(inventedOnly('timestamp')).toEqual(['timestamp']);
  });

  it('stamps each event with its own time, neighbours sharing a time or not', () => {
    const sink = new EventSink(new ImportContext(), { seed: 's' });
    const times = [t0, t0, '2026-01-01T00:00:01.5Z', t0, 'not a time', '2026-01-01T00:00:01.5Z'];
    for (const [i, timestamp] of times.entries()) sink.add({ ...info(i), timestamp } as Event);
    expect(sink.finish().map((e) => eventTime(e))).toEqual([
      Date.parse(t0),
      Date.parse(t0),
      Date.parse(t0) + 1500,
      Date.parse(t0),
      Number.NaN,
      Date.parse(t0) + 1500,
    ]);
  });

  it('stamps times of one minute as a full parse does: seconds, leap second, no zone, bad digits', () => {
    const sink = new EventSink(new ImportContext(), { seed: 's' });
    const m = '2026-03-02T10:04';
    const times = [
      `${m}:05.123Z`,
      `${m}:59.999Z`,
      `${m}:60.000Z`, // a leap second rolls into the next minute
      `${m}:61.000Z`, // no time
      `${m}:07.5x0Z`,
      `${m}:07.500z`, // lower-case zone: not the layout kept, still read
      `${m}:07.500`, // no zone (UTC), its own layout
      `${m}:08.250`,
      `${m}:08.250+01:00`,
      '2026-03-02T10:05:00.001Z',
      `${m}:09.000Z`,
    ];
    for (const [i, timestamp] of times.entries()) sink.add({ ...info(i), timestamp } as Event);
    expect(sink.finish().map((e) => eventTime(e))).toEqual(times.map((t) => parseTimestampMs(t)));
    expect(times.map((t) => parseTimestampMs(t)).slice(0, 4)).toEqual([
      Date.parse(`${m}:05.123Z`),
      Date.parse(`${m}:59.999Z`),
      Date.parse('2026-03-02T10:05:00.000Z'),
      Number.NaN,
    ]);
  });
  it('opens and closes spans: ids from a key or given, parent left out when unset, invented times flagged', () => {
    const ctx = new ImportContext();
    const sink = new EventSink(ctx, { seed: 's' });
    const turn = sink.openSpan(
      { key: 'turn:1', timestamp: t0, parent_id: null, type: 'turn', name: 'turn 1' },
      { timeInvented: '$[0]' },
    );
    const cell = sink.openSpan({
      id: 'cell-1',
      uuid: 'u-cell',
      timestamp: t0,
      type: 'cell',
      name: 'In [1]',
      metadata: { n: 1 },
    });
    sink.closeSpan(cell, { uuid: 'u-cell-end', timestamp: t0 });
    sink.closeSpan(turn, { timestamp: t0, timeInvented: '$[1]' });
    expect(sink.finish()).toEqual([
      {
        event: 'span_begin',
        uuid: sink.uuid('turn:1:begin'),
        timestamp: t0,
        span_id: sink.uuid('turn:1'),
        id: sink.uuid('turn:1'),
        parent_id: null,
        type: 'turn',
        name: 'turn 1',
        metadata: { skein_invented: ['timestamp'] },
      },
      {
        event: 'span_begin',
        uuid: 'u-cell',
        timestamp: t0,
        span_id: 'cell-1',
        id: 'cell-1',
        type: 'cell',
        name: 'In [1]',
        metadata: { n: 1 },
      },
      { event: 'span_end', uuid: 'u-cell-end', timestamp: t0, span_id: 'cell-1', id: 'cell-1' },
      {
        event: 'span_end',
        uuid: sink.uuid(`${sink.uuid('turn:1')}:end`),
        timestamp: t0,
        span_id: sink.uuid('turn:1'),
        id: sink.uuid('turn:1'),
        metadata: { skein_invented: ['timestamp'] },
      },
    ]);
    expect('parent_id' in cell).toBe(false);
    expect(ctx.inventedCount('timestamp')).toBe(2);
  });

  it('closes an open span_begin with its end, and leaves a closed one unchanged', () => {
    const sink = new EventSink(new ImportContext(), { seed: 's' });
    const open = sink.openSpan(
      { key: 'a', timestamp: t0, type: 'agent', name: 'a' },
      { open: true },
    );
    const closed = sink.openSpan({ key: 'b', timestamp: t0, type: 'agent', name: 'b' });
    const first = sink.drain();
    expect(first.map((e) => [e.event, e.pending ?? false])).toEqual([
      ['span_begin', true],
      ['span_begin', false],
    ]);
    sink.closeSpan(open, { timestamp: t0 });
    sink.closeSpan(closed, { timestamp: t0 });
    expect(sink.isOpen(open)).toBe(false);
    // The open begin comes again, final; the closed one does not.
    expect(
      sink.drain().map((e) => [e.event, e.pending ?? false, (e as { id: string }).id]),
    ).toEqual([
      ['span_begin', false, open.id],
      ['span_end', false, open.id],
      ['span_end', false, closed.id],
    ]);
  });
});

describe('IsoFormatter', () => {
  it('formats any time as toISOString does, in order or jumping about', () => {
    // A seeded walk of small steps (a live source's times), jumps across
    // seconds, minutes, days and years, fractional and pre-1970 times, and
    // years past 9999 (toISOString's six-digit form).
    let seed = 11;
    const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const iso = new IsoFormatter();
    let ms = Date.parse('2024-02-28T23:58:30.000Z');
    for (let step = 0; step < 2000; step++) {
      const r = random();
      if (r < 0.6) ms += Math.floor(random() * 20);
      else if (r < 0.9) ms += Math.floor((random() - 0.3) * [1_700, 61_000, 86_400_000][step % 3]!);
      else {
        const odd = [-1, -61_001, 0.5, 8.64e15, -8.64e15, 253_402_300_799_999, 253_402_300_800_000];
        const t = odd[step % odd.length]!;
        expect(iso.format(t)).toBe(new Date(t).toISOString());
      }
      expect(iso.format(ms)).toBe(new Date(ms).toISOString());
    }
  });
});

describe('SyntheticClock', () => {
  it('takes a time already parsed as the same as the string', () => {
    const [a, b] = [new SyntheticClock(t0), new SyntheticClock(t0)];
    a.observe('2026-01-01T00:00:05.250Z');
    b.observe('2026-01-01T00:00:05.250Z', Date.parse('2026-01-01T00:00:05.250Z'));
    expect(b.next()).toBe(a.next());
    expect(a.next()).toBe('2026-01-01T00:00:05.252Z');
  });

  it('never goes backwards, even around real times', () => {
    const clock = new SyntheticClock('2026-01-01T00:00:00.000Z');
    const a = clock.next();
    clock.observe('2026-01-01T00:00:05.000Z');
    const b = clock.next();
    clock.observe('2025-01-01T00:00:00.000Z');
    const c = clock.next();
    expect([a, b, c]).toEqual([
      '2026-01-01T00:00:00.000Z',
      '2026-01-01T00:00:05.001Z',
      '2026-01-01T00:00:05.002Z',
    ]);
  });

  it('formats each time as toISOString does, across seconds, before 1970 and from a fractional base', () => {
    for (const base of [
      '2026-03-02T10:00:59.990Z',
      '1969-12-31T23:59:59.995Z',
      '2026-03-02T10:00:00.000500Z',
    ]) {
      const clock = new SyntheticClock(base);
      let ms = Date.parse(base) + (base.endsWith('500Z') ? 0.5 : 0);
      for (let i = 0; i < 25; i++, ms++) expect(clock.next()).toBe(new Date(ms).toISOString());
    }
  });

  it('formats as toISOString does when real times move it across seconds, minutes and days', () => {
    // A seeded walk: runs of invented times with real ones seen between them,
    // jumps within a minute (only the seconds change), across minutes, hours,
    // a day, a leap day, and back before 1970.
    let seed = 7;
    const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    for (const base of ['2024-02-28T23:58:30.000Z', '1969-12-31T23:59:30.000Z']) {
      const clock = new SyntheticClock(base);
      let ms = Date.parse(base);
      for (let step = 0; step < 400; step++) {
        if (random() < 0.3) {
          const jump = [400, 1_700, 45_000, 3_600_000, 86_400_000][Math.floor(random() * 5)]!;
          const seen = ms + Math.floor(random() * jump);
          clock.observe(new Date(seen).toISOString());
          ms = Math.max(ms, seen + 1);
        }
        expect(clock.next()).toBe(new Date(ms).toISOString());
        ms++;
      }
    }
  });
});

describe('front door', () => {
  const events = [info(1), info(2), info(3)];
  const jsonl = events.map((e) => JSON.stringify(e)).join('\n') + '\n';

  it('detects and imports skein events as an array, a container, and JSON Lines', async () => {
    for (const input of [
      JSON.stringify(events),
      { events },
      jsonl,
      new TextEncoder().encode(jsonl),
    ]) {
      expect(detectFormat(input).format).toBe('skein');
      expect(isSkeinEvents(input)).toBe(true);
      const r = await importAny(input);
      expect(r.format).toBe('skein');
      expect(r.events.map((e) => e.uuid)).toEqual(['u1', 'u2', 'u3']);
    }
  });

  it('detects and imports a one-event JSON Lines file (it parses as one document)', async () => {
    const one = JSON.stringify(events[0]) + '\n';
    const { uuid: _, ...noUuid } = events[0]!;
    for (const input of [one, new TextEncoder().encode(one), events[0], JSON.stringify(noUuid)]) {
      expect(detectFormat(input).format).toBe('skein');
      expect(isSkeinEvents(input)).toBe(true);
      const r = await importAny(input);
      expect(r.format).toBe('skein');
      expect(r.events).toHaveLength(1);
      expect(r.events[0]!.timestamp).toBe(events[0]!.timestamp);
    }
    // Its uuid, when derived, is the one its streaming import derives.
    const text = JSON.stringify(noUuid) + '\n';
    const whole = await importAny(text);
    const streamed: Event[] = [];
    const chunks = (async function* () {
      yield text;
    })();
    for await (const batch of streamImport(chunks)) streamed.push(...batch);
    expect(streamed.map((e) => e.uuid)).toEqual([whole.events[0]!.uuid]);
  });

  it('detects an inspect .eval with and without its file name, and imports its first sample', async () => {
    const bytes = new Uint8Array(
      readFileSync(new URL('../fixtures/inspect/zstd-zip64.eval', import.meta.url)),
    );
    expect(detectFormat(bytes)).toEqual({ format: 'inspect', name: 'inspect_ai log' });
    expect(detectFormat(bytes, { filename: 'x.eval' }).format).toBe('inspect');
    const r = await importAny(bytes);
    expect(r.format).toBe('inspect');
    expect(r.samples?.length).toBeGreaterThan(0);
    expect(r.events.length).toBeGreaterThan(0);
  });

  it('agrees with importAny on what it cannot read: a typed error naming the formats tried', async () => {
    for (const garbage of ['hello world', '{"nothing": "here"}', new Uint8Array([0, 1, 2]), 42]) {
      const d = detectFormat(garbage);
      expect(d.format).toBeNull();
      if (d.format === null) expect(d.tried).toEqual(formats.map((f) => f.id));
      await expect(importAny(garbage)).rejects.toMatchObject({
        code: 'unrecognized_format',
        path: '$',
      });
    }
    await expect(importAny('{"broken": ')).rejects.toMatchObject({ code: 'invalid_json' });
  });

  it('reads an async iterable of chunks to its end in importAny', async () => {
    const r = await importAny(chunked(jsonl, 5));
    expect(r.events).toHaveLength(3);
  });

  it('streams a line format: events come out before the input ends, and latest() equals the whole import', async () => {
    let released = 0;
    const many = Array.from({ length: 20 }, (_, i) =>
      JSON.stringify(info(i % 10, { uuid: `m${i}` })),
    );
    const long = many.join('\n');
    async function* slow() {
      for (const line of many) {
        released++;
        yield line + '\n';
      }
    }
    const seen: number[] = [];
    const stream = new EventStream();
    const it = streamImport(slow());
    let next = await it.next();
    while (!next.done) {
      seen.push(released);
      for (const e of next.value) stream.append(e);
      next = await it.next();
    }
    expect(next.value.format).toBe('skein');
    expect(stream.latest()).toEqual((await importAny(long)).events);
    expect(stream.length).toBe(20);
    // The first batch came out while most of the input was still unread.
    expect(seen[0]).toBeLessThan(many.length / 2);
  });

  it('takes a ReadableStream (a fetch body) in streamImport, importAny and readJsonLinesAsync', async () => {
    const bytes = new TextEncoder().encode(jsonl);
    const body = () =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          // Split inside lines (and inside a multi-byte character, if any).
          for (let i = 0; i < bytes.length; i += 7) controller.enqueue(bytes.slice(i, i + 7));
          controller.close();
        },
      });
    const whole = await importAny(jsonl);
    expect((await importAny(body())).events).toEqual(whole.events);
    const streamed: Event[] = [];
    for await (const batch of streamImport(body())) streamed.push(...batch);
    expect(streamed).toEqual(whole.events);
    const lines: unknown[] = [];
    for await (const l of readJsonLinesAsync(body(), new ImportContext())) lines.push(l.value);
    expect(lines).toHaveLength(3);
  });

  it('cancels a ReadableStream when the reader stops early', async () => {
    let cancelled: unknown = 'not cancelled';
    const body = new ReadableStream<string>({
      pull(controller) {
        controller.enqueue(JSON.stringify(info(1)) + '\n');
      },
      cancel(reason) {
        cancelled = reason;
      },
    });
    for await (const l of readJsonLinesAsync(body, new ImportContext())) {
      expect(l.line).toBe(1);
      break;
    }
    expect(cancelled).toBeUndefined();
    // Released: a new reader can be taken (and sees the stream cancelled).
    expect((await body.getReader().read()).done).toBe(true);
  });

  it('rejects a stream that no line format recognises', async () => {
    const it = streamImport(chunked('{"nothing":1}\n', 4));
    await expect(it.next()).rejects.toMatchObject({ code: 'unrecognized_format' });
  });
});
