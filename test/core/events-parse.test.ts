import { INSPECT_EVENT_KINDS } from '../../src/core/events/types.js';
import { describe, expect, it } from 'vitest';
import {
  ImportError,
  KNOWN_EVENT_KINDS,
  deepFreeze,
  eventTime,
  isEventOfKind,
  isKnownEvent,
  parseEvent,
  parseEvents,
  type Diagnostic,
  type Event,
} from '../../src/index.js';
import { wireSamples } from './event-samples.js';

/** Parses and expects an ImportError; returns it for code/path checks. */
function importError(fn: () => unknown): ImportError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ImportError) return e;
    throw e;
  }
  throw new Error('expected an ImportError');
}

const codes = (diagnostics: Diagnostic[]) => diagnostics.map((d) => `${d.code} ${d.path}`);
const plain = (e: Event) => JSON.parse(JSON.stringify(e)) as Record<string, unknown>;

describe('every kind parses', () => {
  it('there are 23 inspect kinds and 25 known kinds', () => {
    expect(INSPECT_EVENT_KINDS).toHaveLength(23);
    expect(KNOWN_EVENT_KINDS).toHaveLength(25);
    expect(Object.keys(wireSamples).sort()).toEqual([...KNOWN_EVENT_KINDS].sort());
  });

  for (const kind of KNOWN_EVENT_KINDS) {
    it(`${kind}: complete wire event → same fields, no diagnostics`, () => {
      const wire = wireSamples[kind];
      const { event, diagnostics } = parseEvent(wire);
      expect(diagnostics).toEqual([]);
      expect(plain(event)).toEqual(wire);
      expect(isKnownEvent(event)).toBe(true);
      expect(isEventOfKind(event, kind)).toBe(true);
    });
  }
});

describe('minimal events get defaults and diagnostics', () => {
  it('tool with only id/function/timestamp gets inspect defaults', () => {
    const { event, diagnostics } = parseEvent(
      {
        event: 'tool',
        uuid: 'e-002',
        id: 'tool-1',
        function: 'search',
        timestamp: '2024-01-01T00:00:03Z',
      },
      { path: '$.events[1]' },
    );
    expect(event).toMatchObject({ type: 'function', arguments: {}, result: '', events: [] });
    expect(codes(diagnostics)).toEqual([
      'default_filled $.events[1].type',
      'default_filled $.events[1].arguments',
      'default_filled $.events[1].result',
      'default_filled $.events[1].events',
    ]);
    expect(diagnostics.every((d) => d.severity === 'info')).toBe(true);
  });

  it('model with only usage output gets input/tools/config and a full output', () => {
    const { event, diagnostics } = parseEvent({
      event: 'model',
      uuid: 'e-001',
      model: 'test-model',
      timestamp: '2024-01-01T00:00:01Z',
      output: { usage: { input_tokens: 100, output_tokens: 50 } },
    });
    expect(event).toMatchObject({
      input: [],
      tools: [],
      tool_choice: 'auto',
      config: {},
      output: {
        model: 'test-model',
        choices: [],
        completion: '',
        usage: { input_tokens: 100, output_tokens: 50 },
      },
    });
    expect(codes(diagnostics)).toEqual([
      'default_filled $.input',
      'default_filled $.tools',
      'default_filled $.tool_choice',
      'default_filled $.config',
      'default_filled $.output.choices',
      'default_filled $.output.completion',
      'field_inferred $.output.model',
    ]);
  });

  it('model without output gets an empty output of its model', () => {
    const { event } = parseEvent({
      event: 'model',
      uuid: 'u',
      model: 'm',
      timestamp: '2024-01-01T00:00:01Z',
    });
    expect(event).toMatchObject({ output: { model: 'm', choices: [], completion: '' } });
  });

  it('span_end with only span_id takes its id from span_id (§1.6)', () => {
    const { event, diagnostics } = parseEvent({
      event: 'span_end',
      uuid: 'u',
      span_id: 's1',
      timestamp: '2024-01-01T00:00:05Z',
    });
    expect(event).toMatchObject({ id: 's1', span_id: 's1' });
    expect(codes(diagnostics)).toEqual(['field_inferred $.id']);
  });

  it('span_begin without span_id takes it from id; a null parent_id is kept', () => {
    const { event, diagnostics } = parseEvent({
      event: 'span_begin',
      uuid: 'u',
      id: 'agent-1',
      parent_id: null,
      name: 'agent',
      timestamp: '2024-01-01T00:00:00Z',
    });
    expect(plain(event)).toMatchObject({ id: 'agent-1', span_id: 'agent-1', parent_id: null });
    expect(codes(diagnostics)).toEqual(['field_inferred $.span_id']);
  });

  it('span_begin without a type keeps it absent (not invented from name)', () => {
    const { event } = parseEvent({
      event: 'span_begin',
      uuid: 'u',
      id: 'a',
      span_id: 'a',
      name: 'init',
      timestamp: '2024-01-01T00:00:00Z',
    });
    expect('type' in event).toBe(false);
  });

  it('score, branch, compaction, subtask get inspect defaults', () => {
    const t = '2024-01-01T00:00:00Z';
    expect(
      parseEvent({ event: 'score', uuid: 'u', timestamp: t, score: { value: 1 } }).event,
    ).toMatchObject({ intermediate: false });
    expect(parseEvent({ event: 'branch', uuid: 'u', timestamp: t }).event).toMatchObject({
      from_anchor: '',
    });
    expect(parseEvent({ event: 'compaction', uuid: 'u', timestamp: t }).event).toMatchObject({
      type: 'summary',
    });
    expect(
      parseEvent({ event: 'subtask', uuid: 'u', timestamp: t, name: 'x' }).event,
    ).toMatchObject({ input: {}, events: [] });
  });

  it('input without input_ansi takes the plain input', () => {
    const { event } = parseEvent({
      event: 'input',
      uuid: 'u',
      timestamp: '2024-01-01T00:00:00Z',
      input: 'yes',
    });
    expect(event).toMatchObject({ input_ansi: 'yes' });
  });

  it('info without data keeps data absent (inspect omits null data)', () => {
    const { event, diagnostics } = parseEvent({
      event: 'info',
      uuid: 'u',
      timestamp: '2024-01-01T00:00:00Z',
      source: 'agent',
    });
    expect('data' in event).toBe(false);
    expect(diagnostics).toEqual([]);
  });

  it('a null required field counts as missing (exclude_none)', () => {
    const { event, diagnostics } = parseEvent({
      event: 'tool',
      uuid: 'u',
      timestamp: '2024-01-01T00:00:00Z',
      id: 'c',
      function: 'f',
      result: null,
      type: 'function',
      arguments: {},
      events: [],
    });
    expect(event).toMatchObject({ result: '' });
    expect(codes(diagnostics)).toEqual(['default_filled $.result']);
  });

  it('message without message_id is its own message (id = uuid)', () => {
    const { event } = parseEvent({
      event: 'message',
      uuid: 'u-9',
      timestamp: '2024-01-01T00:00:00Z',
      role: 'user',
      content: 'hi',
    });
    expect(event).toMatchObject({ message_id: 'u-9' });
  });

  it('missing timestamp: previous event’s, else the next one’s, else the default (warning)', () => {
    const { events, diagnostics } = parseEvents([
      { event: 'info', uuid: 'a' },
      { event: 'info', uuid: 'b', timestamp: '2024-01-01T00:00:02Z' },
      { event: 'info', uuid: 'c' },
    ]);
    expect(events.map((e) => e.timestamp)).toEqual([
      '2024-01-01T00:00:02Z',
      '2024-01-01T00:00:02Z',
      '2024-01-01T00:00:02Z',
    ]);
    expect(codes(diagnostics)).toEqual([
      'timestamp_missing $[0].timestamp',
      'timestamp_missing $[2].timestamp',
    ]);
    expect(diagnostics[0]?.severity).toBe('warning');
    const alone = parseEvent(
      { event: 'info', uuid: 'a' },
      { defaultTimestamp: '2030-01-01T00:00:00Z' },
    );
    expect(alone.event.timestamp).toBe('2030-01-01T00:00:00Z');
    expect(parseEvent({ event: 'info', uuid: 'a' }).event.timestamp).toBe('1970-01-01T00:00:00Z');
  });

  it('diagnostics past the per-code cap are counted, not listed', () => {
    const raw = Array.from({ length: 5 }, (_, i) => ({
      event: 'branch',
      uuid: `u${i}`,
      timestamp: '2024-01-01T00:00:00Z',
    }));
    const { diagnostics } = parseEvents(raw, { maxDiagnosticsPerCode: 2 });
    expect(codes(diagnostics)).toEqual([
      'default_filled $[0].from_anchor',
      'default_filled $[1].from_anchor',
      'diagnostics_truncated $',
    ]);
    expect(diagnostics[2]?.message).toBe('3 more "default_filled" diagnostics not listed');
  });
});

describe('wrong types throw ImportError with the exact path', () => {
  const t = '2024-01-01T00:00:00Z';
  const cases: [string, unknown, string, string][] = [
    ['event not an object', 42, 'wrong_type', '$.events[0]'],
    ['missing event', { uuid: 'u', timestamp: t }, 'missing_field', '$.events[0].event'],
    ['event not a string', { event: 7, timestamp: t }, 'wrong_type', '$.events[0].event'],
    [
      'timestamp a number',
      { event: 'info', timestamp: 1704067200 },
      'wrong_type',
      '$.events[0].timestamp',
    ],
    [
      'timestamp not ISO',
      { event: 'info', timestamp: 'yesterday' },
      'invalid_timestamp',
      '$.events[0].timestamp',
    ],
    ['uuid a number', { event: 'info', uuid: 5, timestamp: t }, 'wrong_type', '$.events[0].uuid'],
    [
      'span_id an object',
      { event: 'info', span_id: {}, timestamp: t },
      'wrong_type',
      '$.events[0].span_id',
    ],
    [
      'working_start a string',
      { event: 'info', working_start: '1', timestamp: t },
      'wrong_type',
      '$.events[0].working_start',
    ],
    [
      'pending a string',
      { event: 'info', pending: 'yes', timestamp: t },
      'wrong_type',
      '$.events[0].pending',
    ],
    [
      'metadata an array',
      { event: 'info', metadata: [], timestamp: t },
      'wrong_type',
      '$.events[0].metadata',
    ],
    [
      'tool arguments a string',
      { event: 'tool', id: 'c', function: 'f', arguments: '{}', timestamp: t },
      'wrong_type',
      '$.events[0].arguments',
    ],
    [
      'tool completed not ISO',
      { event: 'tool', id: 'c', function: 'f', completed: '10:00', timestamp: t },
      'invalid_timestamp',
      '$.events[0].completed',
    ],
    [
      'model input not an array',
      { event: 'model', model: 'm', input: 'hi', timestamp: t },
      'wrong_type',
      '$.events[0].input',
    ],
    [
      'model input message without role',
      { event: 'model', model: 'm', input: [{ content: 'hi' }], timestamp: t },
      'missing_field',
      '$.events[0].input[0].role',
    ],
    [
      'model input message a string',
      { event: 'model', model: 'm', input: ['hi'], timestamp: t },
      'wrong_type',
      '$.events[0].input[0]',
    ],
    [
      'model output choices an object',
      { event: 'model', model: 'm', output: { choices: {} }, timestamp: t },
      'wrong_type',
      '$.events[0].output.choices',
    ],
    [
      'choice message content a number',
      {
        event: 'model',
        model: 'm',
        output: { choices: [{ message: { content: 1 } }] },
        timestamp: t,
      },
      'wrong_type',
      '$.events[0].output.choices[0].message.content',
    ],
    [
      'usage a number',
      { event: 'model', model: 'm', output: { usage: 3 }, timestamp: t },
      'wrong_type',
      '$.events[0].output.usage',
    ],
    [
      'state changes an object',
      { event: 'state', changes: {}, timestamp: t },
      'wrong_type',
      '$.events[0].changes',
    ],
    [
      'step without action',
      { event: 'step', name: 'x', timestamp: t },
      'missing_field',
      '$.events[0].action',
    ],
    [
      'step with an unknown action',
      { event: 'step', action: 'middle', name: 'x', timestamp: t },
      'invalid_value',
      '$.events[0].action',
    ],
    [
      'approval with an unknown decision',
      { event: 'approval', decision: 'maybe', timestamp: t },
      'invalid_value',
      '$.events[0].decision',
    ],
    [
      'message without role',
      { event: 'message', content: 'x', timestamp: t },
      'missing_field',
      '$.events[0].role',
    ],
    [
      'message content a number',
      { event: 'message', role: 'user', content: 1, timestamp: t },
      'wrong_type',
      '$.events[0].content',
    ],
    [
      'display bundle without data',
      { event: 'display', outputs: [{}], timestamp: t },
      'wrong_type',
      '$.events[0].outputs[0].data',
    ],
    [
      'display bundle metadata a string',
      { event: 'display', outputs: [{ data: {}, metadata: 'x' }], timestamp: t },
      'wrong_type',
      '$.events[0].outputs[0].metadata',
    ],
    [
      'unknown kind: envelope still checked',
      { event: 'future', timestamp: t, uuid: [] },
      'wrong_type',
      '$.events[0].uuid',
    ],
  ];
  for (const [name, raw, code, path] of cases) {
    it(name, () => {
      const e = importError(() => parseEvents([raw], { path: '$.events' }));
      expect([e.code, e.path]).toEqual([code, path]);
      expect(e.message).toContain(`(at ${path})`);
    });
  }

  it('the path of a later event names its index', () => {
    const raw = [wireSamples.info, wireSamples.info, { ...wireSamples.info, timestamp: 12 }];
    expect(importError(() => parseEvents(raw, { path: '$.samples[0].events' })).path).toBe(
      '$.samples[0].events[2].timestamp',
    );
  });

  it('parseEvents of something that is not a list throws at the base path', () => {
    const e = importError(() => parseEvents({ not: 'events' }, { path: '$.samples[3]' }));
    expect([e.code, e.path]).toEqual(['wrong_type', '$.samples[3]']);
  });

  it('parseEvents reads an object with an `events` array (a sample or fixture file)', () => {
    const { events } = parseEvents({ description: 'x', events: [wireSamples.info] });
    expect(events).toHaveLength(1);
    expect(importError(() => parseEvents({ events: [{ event: 1 }] })).path).toBe(
      '$.events[0].event',
    );
  });
});

describe('unknown kinds and fields are kept', () => {
  it('an unknown kind keeps every field and is reported once', () => {
    const raw = {
      event: 'future_kind',
      uuid: 'x1',
      timestamp: '2024-01-01T00:00:00Z',
      payload: { deep: [1, 2] },
      flag: true,
    };
    const { event, diagnostics } = parseEvent(raw);
    expect(plain(event)).toEqual(raw);
    expect(isKnownEvent(event)).toBe(false);
    expect(codes(diagnostics)).toEqual(['unknown_event_kind $.event']);
  });

  it('unknown fields on a known kind are kept', () => {
    const raw = { ...wireSamples.tool, vendor_extra: { trace: 'abc' } };
    expect(plain(parseEvent(raw).event)).toEqual(raw);
  });

  it('a JSON "__proto__" key stays an own data property', () => {
    const raw = JSON.parse(
      '{"event":"info","uuid":"u","timestamp":"2024-01-01T00:00:00Z","__proto__":{"polluted":true}}',
    ) as unknown;
    const { event } = parseEvent(raw);
    expect(Object.getPrototypeOf(event)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(event, '__proto__')).toBe(true);
    expect((event as { polluted?: unknown }).polluted).toBeUndefined();
  });
});

describe('immutability and ownership', () => {
  it('parsed events are deep-frozen', () => {
    const { event } = parseEvent(structuredClone(wireSamples.model));
    expect(Object.isFrozen(event)).toBe(true);
    const model = event as Extract<Event, { event: 'model' }>;
    expect(Object.isFrozen(model.input)).toBe(true);
    expect(Object.isFrozen(model.input[1]?.content)).toBe(true);
    expect(Object.isFrozen(model.output.choices[0]?.message.tool_calls?.[0]?.arguments)).toBe(true);
    expect(() => {
      (model as { model: string }).model = 'x';
    }).toThrow(TypeError);
  });

  it('a deep-frozen input parses (including repairs) and is left as it was', () => {
    const raw = deepFreeze(
      structuredClone([
        wireSamples.model,
        { event: 'span_end', span_id: 's', timestamp: '2024-01-01T00:00:00Z' },
        { event: 'model', model: 'm', timestamp: '2024-01-01T00:00:00Z', output: { usage: {} } },
      ]),
    );
    const before = JSON.stringify(raw);
    const { events } = parseEvents(raw);
    expect(JSON.stringify(raw)).toBe(before);
    expect(events[1]).toMatchObject({ id: 's' });
  });

  it('the top-level input object is never the output nor frozen; repaired nested objects are replaced, not changed', () => {
    const output = { usage: { input_tokens: 1 } };
    const raw = {
      event: 'model',
      uuid: 'u',
      model: 'm',
      timestamp: '2024-01-01T00:00:00Z',
      output,
    };
    const { event } = parseEvent(raw);
    expect(event).not.toBe(raw);
    expect(Object.isFrozen(raw)).toBe(false);
    expect(output).toEqual({ usage: { input_tokens: 1 } });
    expect((event as { output: unknown }).output).not.toBe(output);
  });

  it('by default nested values are shared and frozen in place; { copy: true } leaves the input untouched', () => {
    const shared = { plan: ['a'] };
    parseEvent({ event: 'info', uuid: 'u', timestamp: '2024-01-01T00:00:00Z', data: shared });
    expect(Object.isFrozen(shared)).toBe(true);

    const untouched = { plan: ['a'] };
    const { event } = parseEvent(
      { event: 'info', uuid: 'u', timestamp: '2024-01-01T00:00:00Z', data: untouched },
      { copy: true },
    );
    expect(Object.isFrozen(untouched)).toBe(false);
    expect((event as { data: unknown }).data).toEqual(untouched);
    expect((event as { data: unknown }).data).not.toBe(untouched);
  });

  it('the derived time is invisible to JSON, keys and spread', () => {
    const { event } = parseEvent(wireSamples.info);
    expect(Object.keys(event)).toEqual(Object.keys(wireSamples.info));
    expect(JSON.stringify(event)).toBe(JSON.stringify(wireSamples.info));
    expect(Object.getOwnPropertySymbols({ ...event })).toEqual([]);
    expect(eventTime(event)).toBe(Date.UTC(2026, 5, 10, 18, 24, 28) + 198.559);
  });

  it('re-parsing a parsed event gives an equal event and no diagnostics', () => {
    const first = parseEvents([
      { event: 'span_end', span_id: 's', timestamp: '2024-01-01T00:00:00Z' },
    ]).events[0] as Event;
    const again = parseEvent(first, { path: '$[0]' });
    expect(again.diagnostics).toEqual([]);
    expect(plain(again.event)).toEqual(plain(first));
  });
});

describe('edge cases', () => {
  it('an empty uuid is replaced by a derived one', () => {
    const { event, diagnostics } = parseEvent({
      event: 'info',
      uuid: '',
      timestamp: '2024-01-01T00:00:00Z',
    });
    expect(event.uuid).toHaveLength(22);
    expect(diagnostics.map((d) => d.code)).toEqual(['uuid_derived']);
  });

  it('parseEvents of a single tool event is an error, not its legacy nested events', () => {
    const e = importError(() => parseEvents({ ...wireSamples.tool, events: [wireSamples.info] }));
    expect([e.code, e.path]).toEqual(['wrong_type', '$']);
  });

  it('legacy nested tool events are kept raw and frozen (an importer flattens them, §1.1)', () => {
    const nested = {
      event: 'model',
      uuid: 'e-002a',
      model: 'm',
      timestamp: '2024-01-01T00:00:04Z',
    };
    const { event } = parseEvent({ ...wireSamples.tool, events: [nested] });
    const events = (event as { events: unknown[] }).events;
    expect(events[0]).toEqual(nested);
    expect(Object.isFrozen(events[0])).toBe(true);
  });

  it('an empty list parses to nothing', () => {
    expect(parseEvents([])).toEqual({ events: [], diagnostics: [] });
  });
});
