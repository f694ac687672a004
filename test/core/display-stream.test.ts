// mimeStream (issue 5, "Core"): events as plain objects, values as
// display_data parts, every record unchanged through JSON.
import { describe, expect, it } from 'vitest';
import { DISPLAY, generateRun, mimeStream, parseEvent } from '../../src/index.js';
import type { Event, MimeStreamRecord } from '../../src/index.js';

const roundTrip = (r: MimeStreamRecord) => JSON.parse(JSON.stringify(r)) as unknown;

const info: Event = { event: 'info', uuid: 'u1', timestamp: '2026-06-10T18:24:26Z', data: 'hi' };

async function* later<T>(items: T[]): AsyncGenerator<T> {
  for (const item of items) {
    await Promise.resolve();
    yield item;
  }
}

describe('mimeStream: shapes', () => {
  it('an event becomes a plain object with the same fields', () => {
    const [record] = [...mimeStream([info])];
    expect(record).toEqual(info);
    expect(Object.getOwnPropertySymbols(record)).toEqual([]);
  });

  it('a parsed (frozen, time-stamped) event loses only its hidden symbol stamp', () => {
    const { event } = parseEvent({
      event: 'info',
      uuid: 'u2',
      timestamp: '2026-06-10T18:24:26Z',
      data: { a: 1 },
    });
    const [record] = [...mimeStream([event])];
    expect(record).toEqual(JSON.parse(JSON.stringify(event)));
    expect(Object.isFrozen(record)).toBe(false);
  });

  it('a value becomes a display_data part built by displayOf', () => {
    const [record] = [...mimeStream([[1, 2, 3]])];
    expect(record).toEqual({
      output_type: 'display_data',
      data: {
        'text/plain': 'Array(3) of number\n[1, 2, 3]',
        'text/markdown': '```text\nArray(3) of number\n[1, 2, 3]\n```',
      },
      metadata: { skein: { source: 'shape' } },
    });
  });

  it('a value with its own display keeps it', () => {
    const [record] = [...mimeStream([{ [DISPLAY]: () => ({ 'image/png': 'iVBO' }) }])];
    expect(record).toMatchObject({ output_type: 'display_data', data: { 'image/png': 'iVBO' } });
  });

  it('a Jupyter output passes through as display_data', () => {
    const [record] = [
      ...mimeStream([
        { output_type: 'display_data', data: { 'text/html': ['<b>', '</b>'] }, metadata: {} },
      ]),
    ];
    expect(record).toMatchObject({ output_type: 'display_data', data: { 'text/html': '<b></b>' } });
  });

  it('order and count are kept: one record per item', () => {
    const records = [...mimeStream([info, 'text', 42, info])];
    expect(records.map((r) => ('event' in r ? 'event' : r.output_type))).toEqual([
      'event',
      'display_data',
      'display_data',
      'event',
    ]);
  });

  it('a sync iterable gives a sync generator', () => {
    const out = mimeStream(new Set([info]));
    expect(typeof (out as Iterable<unknown>)[Symbol.iterator]).toBe('function');
  });

  it('an async iterable gives an async generator', async () => {
    const records: MimeStreamRecord[] = [];
    for await (const r of mimeStream(later<unknown>([info, 'x']))) records.push(r);
    expect(records).toHaveLength(2);
    expect(records[0]).toEqual(info);
  });

  it('passes display options on', () => {
    const [record] = [
      ...mimeStream([Array.from({ length: 20 }, (_, i) => i)], {
        display: { maxItems: 2, preferMarkdown: false },
      }),
    ];
    expect(record).toMatchObject({
      data: { 'text/plain': 'Array(20) of number\n[0, … 18 more, 19]' },
    });
  });
});

describe('mimeStream: JSON round trip', () => {
  it('a whole generated run round-trips unchanged', () => {
    const run = generateRun({ events: 2000, seed: 5, pendingRate: 0.2 });
    for (const record of mimeStream(run)) expect(roundTrip(record)).toEqual(record);
  });

  it.each<[string, unknown]>([
    ['a string', 'hello'],
    ['a bigint', 12345678901234567890n],
    ['a symbol', Symbol('s')],
    ['undefined', undefined],
    ['NaN', Number.NaN],
    ['a function', function named() {}],
    ['a Map', new Map([['a', 1]])],
    [
      'a cycle',
      (() => {
        const a: Record<string, unknown> = {};
        a.a = a;
        return a;
      })(),
    ],
    ['a Date', new Date(0)],
    ['an Error', new Error('x')],
    ['a typed array', new Uint8Array(10)],
  ])('a value: %s', (_name, value) => {
    const [record] = [...mimeStream([value])];
    expect(roundTrip(record!)).toEqual(record);
  });

  it('edge cases inside events are normalized as documented', () => {
    const cyclic: Record<string, unknown> = { name: 'c' };
    cyclic.self = cyclic;
    const event = {
      event: 'future_kind',
      uuid: 'u3',
      timestamp: '2026-06-10T18:24:26Z',
      nan: Number.NaN,
      inf: Infinity,
      negInf: -Infinity,
      negZero: -0,
      big: 10n ** 20n,
      undef: undefined,
      fn: () => 1,
      sym: Symbol('x'),
      list: [undefined, Number.NaN, () => 1, 1],
      date: new Date(0),
      cyclic,
      [Symbol('hidden')]: 1,
    } as unknown as Event;
    const [record] = [...mimeStream([event])];
    expect(record).toEqual({
      event: 'future_kind',
      uuid: 'u3',
      timestamp: '2026-06-10T18:24:26Z',
      nan: null,
      inf: null,
      negInf: null,
      negZero: 0,
      big: '100000000000000000000',
      list: [null, null, null, 1],
      date: '1970-01-01T00:00:00.000Z',
      cyclic: { name: 'c', self: '[Circular]' },
    });
    expect(Object.is((record as Record<string, unknown>).negZero, 0)).toBe(true);
    expect(roundTrip(record!)).toEqual(record);
  });

  it('NaN in a score becomes null (inspect reads null back as NaN)', () => {
    const score = {
      event: 'score',
      uuid: 'u4',
      timestamp: '2026-06-10T18:24:26Z',
      score: { value: Number.NaN },
      intermediate: false,
    } as Event;
    const [record] = [...mimeStream([score])];
    expect(record).toMatchObject({ score: { value: null } });
  });

  it('a __proto__ key stays data', () => {
    const event = JSON.parse(
      '{"event":"x","uuid":"u5","timestamp":"2026-06-10T18:24:26Z","__proto__":{"polluted":1}}',
    ) as Event;
    const [record] = [...mimeStream([event])];
    expect(Object.keys(record!)).toContain('__proto__');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(roundTrip(record!)).toEqual(record);
  });

  it('a throwing toJSON or getter leaves a placeholder, not a missing key', () => {
    const event = {
      event: 'future_kind',
      uuid: 'u6',
      timestamp: '2026-06-10T18:24:26Z',
      bad: {
        toJSON() {
          throw new Error('boom');
        },
      },
      list: [
        {
          toJSON() {
            throw 'nope';
          },
        },
      ],
      get broken(): unknown {
        throw new Error('getter boom');
      },
    } as unknown as Event;
    const [record] = [...mimeStream([event])];
    expect(record).toMatchObject({
      bad: '[toJSON threw: boom]',
      list: ['[toJSON threw: nope]'],
      broken: '[getter threw: getter boom]',
    });
    expect(roundTrip(record!)).toEqual(record);
  });

  it('lone surrogates survive', () => {
    const [record] = [...mimeStream([{ ...info, data: 'a\ud800b' }])];
    expect(roundTrip(record!)).toEqual(record);
  });
});
