import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Event } from '../../src/core/events/types.js';
import { EventStream } from '../../src/core/stream/event-stream.js';
import { ImportError, SkeinError, SkeinTypeError } from '../../src/core/errors.js';

const T0 = '2026-06-10T18:23:50Z';

function info(uuid: string, extra: Record<string, unknown> = {}): Event {
  return { event: 'info', uuid, timestamp: T0, data: { text: uuid }, ...extra } as Event;
}

/** Resolves after queued microtasks (and thus batched notifications) have run. */
const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe('append: only canonical events', () => {
  const cases: [string, unknown, RegExp][] = [
    ['a number', 42, /got number 42/],
    ['null', null, /got null/],
    ['undefined', undefined, /got undefined/],
    ['a string', 'model', /got string "model"/],
    ['an array', [info('a')], /got an array \(length 1\)/],
    ['an object without event', { uuid: 'a', timestamp: T0 }, /without a string "event"/],
    [
      'an event without uuid',
      { event: 'model', timestamp: T0 },
      /"model" event without a string "uuid"/,
    ],
    [
      'an event without timestamp',
      { event: 'tool', uuid: 'a' },
      /"tool" event without a string "timestamp"/,
    ],
    [
      'a numeric span_id',
      { event: 'info', uuid: 'a', timestamp: T0, span_id: 7 },
      /"span_id" is number 7/,
    ],
    [
      'a string pending',
      { event: 'info', uuid: 'a', timestamp: T0, pending: 'yes' },
      /"pending" is string "yes"/,
    ],
  ];
  for (const [name, value, message] of cases) {
    it(`rejects ${name} with a not_an_event error naming it`, () => {
      const stream = new EventStream();
      // An untyped caller (JavaScript, or data cast to Event): the runtime check holds.
      expect(() => stream.append(value as Event)).toThrow(
        expect.objectContaining({ name: 'SkeinTypeError', code: 'not_an_event' }),
      );
      expect(() => stream.append(value as Event)).toThrow(message);
      expect(stream.length).toBe(0);
    });
  }

  it('rejects a non-event with an error that is a TypeError and a SkeinError with its code', () => {
    const stream = new EventStream();
    let caught: unknown;
    try {
      stream.append({ hello: 1 } as unknown as Event);
    } catch (e) {
      caught = e;
    }
    // The EventStream contract (cantus): other types raise TypeError.
    expect(caught).toBeInstanceOf(TypeError);
    expect(caught).toBeInstanceOf(SkeinTypeError);
    expect(caught).toBeInstanceOf(SkeinError);
    expect(caught).not.toBeInstanceOf(ImportError);
    expect((caught as SkeinTypeError).code).toBe('not_an_event');
    expect((caught as SkeinTypeError).details).toEqual([expect.stringMatching(/event/)]);
    // The widened check belongs to the base class only.
    expect(new SkeinError('stream_closed', 1)).not.toBeInstanceOf(TypeError);
    expect(new ImportError('invalid_json', '$', 'x')).toBeInstanceOf(SkeinError);
    expect({ code: 'not_an_event' }).not.toBeInstanceOf(SkeinError);
  });

  it('accepts a well-formed plain object and returns it frozen', () => {
    const stream = new EventStream();
    const event = info('a');
    expect(stream.append(event)).toBe(event);
    expect(Object.isFrozen(event)).toBe(true);
  });
});

describe('frozen history', () => {
  it('deep-freezes what it appends, so mutation throws (strict mode)', () => {
    const stream = new EventStream();
    const event = stream.append({
      event: 'info',
      uuid: 'a',
      timestamp: T0,
      data: { rows: [{ n: 1 }] },
    });
    const data = (event as { data: { rows: { n: number }[] } }).data;
    expect(() => {
      (event as { uuid: string }).uuid = 'b';
    }).toThrow(TypeError);
    expect(() => {
      data.rows[0]!.n = 2;
    }).toThrow(TypeError);
    expect(() => data.rows.push({ n: 3 })).toThrow(TypeError);
    expect(stream.at(0)).toEqual({
      event: 'info',
      uuid: 'a',
      timestamp: T0,
      data: { rows: [{ n: 1 }] },
    });
  });

  it('accepts already-frozen events and shared frozen sub-objects without copying', () => {
    const shared = Object.freeze({ tools: Object.freeze(['bash']) });
    const a = Object.freeze({ ...info('a'), config: shared });
    const b = { ...info('b'), config: shared };
    const stream = EventStream.from([a, b]);
    expect(stream.at(0)).toBe(a);
    expect((stream.at(1) as unknown as { config: unknown }).config).toBe(shared);
  });
});

describe('reading the log', () => {
  const stream = EventStream.from([info('a'), info('b'), info('c')]);

  it('has a length', () => expect(stream.length).toBe(3));
  it('reads by index', () => expect(stream.at(1)?.uuid).toBe('b'));
  it('reads negative indexes from the end', () => expect(stream.at(-1)?.uuid).toBe('c'));
  it('returns undefined out of range', () => {
    expect(stream.at(3)).toBeUndefined();
    expect(stream.at(-4)).toBeUndefined();
  });
  it('iterates with for…of in append order', () => {
    const seen: string[] = [];
    for (const event of stream) seen.push(event.uuid);
    expect(seen).toEqual(['a', 'b', 'c']);
  });
  it('toArray returns a copy the caller owns', () => {
    const copy = stream.toArray();
    copy.pop();
    expect(copy.map((e) => e.uuid)).toEqual(['a', 'b']);
    expect(stream.length).toBe(3);
  });
  it('iteration stops at the length it started with, even if the loop appends', () => {
    const live = EventStream.from([info('x'), info('y')]);
    let steps = 0;
    for (const _ of live) {
      live.append(info(`more-${steps}`));
      steps++;
    }
    expect(steps).toBe(2);
    expect(live.length).toBe(4);
  });
  it('from() checks every event', () => {
    expect(() => EventStream.from([info('a'), { event: 'info' } as unknown as Event])).toThrow(
      expect.objectContaining({ name: 'SkeinTypeError', code: 'not_an_event' }),
    );
  });
});

describe('live: subscribe and getSnapshot', () => {
  it('notifies after the current tick, not synchronously', async () => {
    const stream = new EventStream();
    let calls = 0;
    stream.subscribe(() => calls++);
    stream.append(info('a'));
    expect(calls).toBe(0);
    await tick();
    expect(calls).toBe(1);
  });

  it('stops notifying after unsubscribe (and unsubscribing twice is harmless)', async () => {
    const stream = new EventStream();
    let calls = 0;
    const unsubscribe = stream.subscribe(() => calls++);
    unsubscribe();
    unsubscribe();
    stream.append(info('a'));
    await tick();
    expect(calls).toBe(0);
  });

  it('keeps two registrations of the same function apart', async () => {
    const stream = new EventStream();
    let calls = 0;
    const listener = () => calls++;
    const first = stream.subscribe(listener);
    stream.subscribe(listener);
    first();
    stream.append(info('a'));
    await tick();
    expect(calls).toBe(1);
  });

  it('notifies once for 10k appends in one tick', async () => {
    const stream = new EventStream();
    let calls = 0;
    stream.subscribe(() => calls++);
    for (let i = 0; i < 10_000; i++) stream.append(info(`e${i}`));
    await tick();
    expect(calls).toBe(1);
    expect(stream.getSnapshot().length).toBe(10_000);
  });

  it('notifies again for appends in a later tick', async () => {
    const stream = new EventStream();
    let calls = 0;
    stream.subscribe(() => calls++);
    stream.append(info('a'));
    await tick();
    stream.append(info('b'));
    await tick();
    expect(calls).toBe(2);
  });

  it('returns the same snapshot until something is appended', () => {
    const stream = EventStream.from([info('a')]);
    const first = stream.getSnapshot();
    expect(stream.getSnapshot()).toBe(first);
    expect(stream.getSnapshot().latest).toBe(first.latest);
    stream.append(info('b'));
    const second = stream.getSnapshot();
    expect(second).not.toBe(first);
    expect(second.length).toBe(2);
    expect(first.length).toBe(1);
    expect(first.latest.map((e) => e.uuid)).toEqual(['a']);
    expect(Object.isFrozen(second)).toBe(true);
    expect(Object.isFrozen(second.latest)).toBe(true);
  });

  it('getSnapshot works unbound (as useSyncExternalStore calls it)', () => {
    const stream = EventStream.from([info('a')]);
    const { getSnapshot } = stream;
    expect(getSnapshot().length).toBe(1);
  });
});

describe('pending events and latest()', () => {
  const model = (uuid: string, pending: boolean, completion: string): Event =>
    ({
      event: 'info',
      uuid,
      timestamp: T0,
      data: completion,
      ...(pending ? { pending: true } : {}),
    }) as Event;

  it('a re-emitted uuid supersedes its pending version; the log keeps every version', () => {
    const stream = EventStream.from([
      model('m1', true, ''),
      info('x'),
      model('m1', true, 'Hel'),
      model('m1', false, 'Hello'),
    ]);
    expect(stream.length).toBe(4);
    const latest = stream.latest();
    expect(latest.map((e) => e.uuid)).toEqual(['m1', 'x']);
    expect((latest[0] as { data?: unknown }).data).toBe('Hello');
    expect(latest[0]!.pending).toBeUndefined();
    expect(stream.toArray().filter((e) => e.uuid === 'm1')).toHaveLength(3);
  });

  it('ignores a stale pending copy that arrives after the final version', () => {
    const stream = EventStream.from([
      model('m1', true, ''),
      model('m1', false, 'done'),
      model('m1', true, ''),
    ]);
    expect((stream.latest()[0] as { data?: unknown }).data).toBe('done');
  });

  it('returns the same array until the projection changes', () => {
    const stream = EventStream.from([model('m1', true, '')]);
    const first = stream.latest();
    expect(stream.latest()).toBe(first);
    stream.append(model('m1', true, 'stale after?'));
    const second = stream.latest();
    expect(second).not.toBe(first);
    expect(first.map((e) => (e as { data?: unknown }).data)).toEqual(['']);
  });

  it('matches a simple model of "newest version per uuid, first-seen order" (property)', () => {
    const op = fc.record({
      uuid: fc.constantFrom('a', 'b', 'c', 'd'),
      pending: fc.boolean(),
      n: fc.nat(1000),
    });
    fc.assert(
      fc.property(
        fc.array(op, { maxLength: 60 }),
        fc.array(fc.nat(60), { maxLength: 5 }),
        (ops, readAt) => {
          const stream = new EventStream();
          const order: string[] = [];
          const newest = new Map<string, { pending: boolean; n: number }>();
          ops.forEach((o, i) => {
            // Reading in between must not change the result (the projection is incremental).
            if (readAt.includes(i)) stream.latest();
            stream.append(model(o.uuid, o.pending, String(o.n)));
            const seen = newest.get(o.uuid);
            if (seen === undefined) order.push(o.uuid);
            if (seen === undefined || !o.pending || seen.pending) newest.set(o.uuid, o);
          });
          const expected = order.map((u) => String(newest.get(u)!.n));
          expect(stream.latest().map((e) => (e as { data?: unknown }).data)).toEqual(expected);
          expect(stream.length).toBe(ops.length);
        },
      ),
    );
  });
});

describe('replay()', () => {
  const at = (s: number) => new Date(Date.parse(T0) + s * 1000).toISOString();
  // Wire-shaped literals, as an untyped caller would pass them.
  const run = [
    {
      event: 'span_begin',
      uuid: 'u1',
      timestamp: at(0),
      span_id: 's-init',
      id: 's-init',
      type: 'init',
      name: 'init',
    },
    {
      event: 'sample_init',
      uuid: 'u2',
      timestamp: at(0.001),
      span_id: 's-init',
      sample: { input: 'Decode AIS\nmore' },
      state: {},
    },
    { event: 'span_end', uuid: 'u3', timestamp: at(1.5), span_id: 's-init', id: 's-init' },
    {
      event: 'span_begin',
      uuid: 'u4',
      timestamp: at(2),
      span_id: 'a',
      id: 'a',
      type: 'agent',
      name: 'react',
    },
    {
      event: 'model',
      uuid: 'u5',
      timestamp: at(2.25),
      span_id: 'a',
      model: 'openai/gpt-5.4',
      input: [],
      tools: [],
      tool_choice: 'auto',
      config: {},
      pending: true,
      output: { model: 'gpt-5.4', choices: [], completion: '' },
    },
    {
      event: 'span_begin',
      uuid: 'u6',
      timestamp: at(3),
      span_id: 't',
      id: 't',
      parent_id: 'a',
      type: 'tool',
      name: 'bash',
    },
    {
      event: 'tool',
      uuid: 'u7',
      timestamp: at(2.999),
      span_id: 'a',
      type: 'function',
      id: 'c1',
      function: 'bash',
      arguments: { cmd: 'ls' },
      result: 'a.txt\nb.txt',
      events: [],
    },
    {
      event: 'sandbox',
      uuid: 'u8',
      timestamp: at(3.1),
      span_id: 't',
      action: 'exec',
      cmd: 'ls',
      result: 0,
    },
    { event: 'span_end', uuid: 'u9', timestamp: at(3.2), span_id: 't', id: 't' },
    {
      event: 'error',
      uuid: 'u10',
      timestamp: at(4),
      span_id: 'a',
      error: { message: 'boom\ntrace', traceback: '', traceback_ansi: '' },
    },
    { event: 'span_end', uuid: 'u11', timestamp: at(12.5), span_id: 'a', id: 'a' },
    {
      event: 'score',
      uuid: 'u12',
      timestamp: at(13),
      score: { value: 'C' },
      intermediate: false,
      scorer: 'match',
    },
    {
      event: 'logger',
      uuid: 'u13',
      timestamp: at(13.5),
      message: { level: 'warning', message: 'slow\nx', created: 0 },
    },
  ] as unknown[] as Event[];

  it('prints one line per event, indented by span depth, with offsets, kinds and summaries', () => {
    expect(EventStream.from(run).replay()).toBe(
      [
        ' +0.000s  span_begin init',
        ' +0.001s    sample_init "Decode AIS"',
        ' +1.500s  span_end init',
        ' +2.000s  span_begin react (agent)',
        ' +2.250s    model openai/gpt-5.4 (pending)',
        ' +3.000s    span_begin bash (tool)',
        ' +2.999s    tool bash(cmd="ls") → a.txt',
        ' +3.100s      sandbox exec ls → exit 0',
        ' +3.200s    span_end bash',
        ' +4.000s    error boom',
        '+12.500s  span_end react',
        '+13.000s  score match: "C"',
        '+13.500s  logger warning slow',
      ].join('\n'),
    );
  });

  it('shows the newest version of a re-emitted event once', () => {
    const final = {
      ...(run[4] as object),
      pending: undefined,
      output: { model: 'gpt-5.4', choices: [], completion: 'Listing files.' },
    };
    delete (final as { pending?: unknown }).pending;
    const lines = EventStream.from([...run.slice(0, 5), final as unknown as Event])
      .replay()
      .split('\n');
    expect(lines).toHaveLength(5);
    expect(lines[4]).toBe('+2.250s    model openai/gpt-5.4 "Listing files."');
  });

  it('nests legacy step events by begin/end', () => {
    const steps: Event[] = [
      { event: 'step', uuid: 's1', timestamp: at(0), action: 'begin', name: 'generate' },
      { event: 'info', uuid: 's2', timestamp: at(1), data: 'inside' },
      { event: 'step', uuid: 's3', timestamp: at(2), action: 'end', name: 'generate' },
    ];
    expect(EventStream.from(steps).replay()).toBe(
      ['+0.000s  step begin generate', '+1.000s    info inside', '+2.000s  step end generate'].join(
        '\n',
      ),
    );
  });

  it('is empty for an empty stream', () => expect(new EventStream().replay()).toBe(''));
});
