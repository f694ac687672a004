// Closed event types and typed builders (issue 16). The `@ts-expect-error`
// lines are checked by `npm run typecheck` (the test folder is in the
// project): if a typo ever type-checks as an Event again, the directive is
// unused and the typecheck fails.
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  EventStream,
  ImportError,
  createEventBuilders,
  events,
  eventTime,
  isKnownEvent,
  type Event,
  type EventInit,
  type ModelEvent,
  type SpanBeginEvent,
  type ToolEvent,
  type UnknownEvent,
} from '../../src/index.js';

const T0 = '2026-01-01T00:00:00Z';

describe('Event is a closed union', () => {
  it('rejects a misspelled kind and a known kind with missing fields at compile time', () => {
    // @ts-expect-error — 'modle' is no kind, and a literal is never an UnknownEvent
    const typo: Event = { event: 'modle', uuid: 'u', timestamp: T0 };
    // @ts-expect-error — a tool event needs id, function, …
    const partial: Event = { event: 'tool', uuid: 'u', timestamp: T0 };
    const fine: Event = { event: 'info', uuid: 'u', timestamp: T0, data: 'x' };
    expect([typo, partial, fine]).toHaveLength(3);
  });

  it('narrows known kinds; unknown events come from parse or events.unknown', () => {
    expectTypeOf(events.model).returns.toEqualTypeOf<ModelEvent>();
    expectTypeOf(events.unknown('future')).toEqualTypeOf<UnknownEvent>();
    expectTypeOf<UnknownEvent>().toExtend<Event>();
    expectTypeOf<{ event: 'future'; uuid: string; timestamp: string }>().not.toExtend<Event>();
    const e: Event = events.unknown('future', { payload: 1 });
    expect(isKnownEvent(e)).toBe(false);
  });

  it('append takes Event, and still checks untyped callers at run time', () => {
    const stream = new EventStream();
    // @ts-expect-error — not an Event
    expect(() => stream.append({ event: 'info' })).toThrow(
      expect.objectContaining({ name: 'SkeinTypeError', code: 'not_an_event' }),
    );
    expect(() => stream.append(42 as unknown as Event)).toThrow(/number 42/);
  });
});

describe('event builders', () => {
  let n = 0;
  const b = createEventBuilders({ uuid: () => `e${n++}`, now: () => T0 });

  it('fill uuid, timestamp and inspect defaults, and freeze', () => {
    const tool = b.tool({ id: 'c1', function: 'bash', arguments: { cmd: 'ls' } });
    expectTypeOf(tool).toEqualTypeOf<ToolEvent>();
    expect(tool).toEqual({
      event: 'tool',
      uuid: 'e0',
      timestamp: T0,
      type: 'function',
      id: 'c1',
      function: 'bash',
      arguments: { cmd: 'ls' },
      result: '',
      events: [],
    });
    expect(Object.isFrozen(tool)).toBe(true);
    expect(Object.isFrozen(tool.arguments)).toBe(true);
    expect(eventTime(tool)).toBe(Date.parse(T0));
    const model = b.model({ model: 'openai/gpt-5.4', pending: true });
    expect(model).toMatchObject({ uuid: 'e1', input: [], tools: [], tool_choice: 'auto' });
    expect(model.output.model).toBe('openai/gpt-5.4');
  });

  it('keep what is given, and give a span its own span_id', () => {
    const span: SpanBeginEvent = b.span_begin({
      uuid: 'mine',
      timestamp: '2026-01-01T00:00:01Z',
      id: 's1',
      name: 'agent',
      type: 'agent',
    });
    expect(span).toMatchObject({ uuid: 'mine', span_id: 's1', timestamp: '2026-01-01T00:00:01Z' });
    expect(b.span_end({ id: 's1' }).span_id).toBe('s1');
  });

  it('type-check their input', () => {
    // @ts-expect-error — `function` is required
    expect(b.tool({ id: 'c1' }).function).toBe('');
    const call = { id: 'c', function: 'f', arguments: {} };
    expect(() =>
      // @ts-expect-error — `decision` must be one of the five
      b.approval({ message: '', call, approver: 'h', decision: 'maybe' }),
    ).toThrow(ImportError);
    const init: EventInit<'info'> = { data: 1 };
    expect(b.info(init).data).toBe(1);
  });

  it('throw ImportError on wrong types from untyped callers', () => {
    expect(() => b.tool({ id: 'c', function: 42 } as unknown as EventInit<'tool'>)).toThrow(
      ImportError,
    );
  });

  it('make unknown kinds on purpose only', () => {
    const u = b.unknown('future_kind', { payload: 1 });
    expect(u).toMatchObject({ event: 'future_kind', payload: 1 });
    expect(() => b.unknown('model')).toThrow(/known kind/);
    expect(() => b.unknown('model')).toThrow(
      expect.objectContaining({ name: 'SkeinError', code: 'builder_known_kind' }),
    );
    expect(() => b.unknown('')).toThrow(
      expect.objectContaining({ name: 'SkeinError', code: 'builder_empty_kind' }),
    );
  });

  it('default to random 22-character ids and the current time', () => {
    const a = events.info({ data: 'x' });
    const c = events.info({ data: 'x' });
    expect(a.uuid).toMatch(/^[2-9A-HJ-NP-Za-km-z]{22}$/);
    expect(a.uuid).not.toBe(c.uuid);
    expect(Math.abs(eventTime(a) - Date.now())).toBeLessThan(60_000);
  });

  it('feed EventStream.append', () => {
    const stream = EventStream.from([b.info({ data: 'a' }), b.info({ data: 'b' })]);
    expect(stream.length).toBe(2);
  });
});
