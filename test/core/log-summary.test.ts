// Log summaries, input descriptions and the text span tree (issue 22): what
// `skein info`, the CLI's error messages and `skein tree` read from core.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  ImportError,
  compareSamples,
  describeInput,
  importAny,
  renderSpanTreeText,
  summarizeEvents,
  summarizeInspectSample,
  summarizeLog,
  type Event,
  type SampleSummary,
} from '../../src/index.js';

const t = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms).toISOString();
const fixture = (p: string) =>
  new Uint8Array(readFileSync(new URL(`../fixtures/${p}`, import.meta.url)));

async function canonical(raw: Record<string, unknown>[]): Promise<Event[]> {
  const { format, events } = await importAny(JSON.stringify(raw));
  expect(format).toBe('skein');
  return events;
}

const model = (uuid: string, at: number, tokens: [number, number]) => ({
  event: 'model',
  uuid,
  timestamp: t(at),
  completed: t(at + 500),
  model: 'mock/m',
  input: [],
  tools: [],
  tool_choice: 'auto',
  config: {},
  output: {
    model: 'mock/m',
    choices: [],
    usage: { input_tokens: tokens[0], output_tokens: tokens[1], total_tokens: 999 },
  },
});

describe('summarizeEvents', () => {
  it('sums tokens by the core rule, spans first start to last end, reads final scores', async () => {
    const events = await canonical([
      { event: 'span_begin', uuid: 'a', timestamp: t(0), id: 's', name: 'solvers' },
      model('b', 1000, [100, 20]),
      model('c', 2000, [5, 5]),
      {
        event: 'score',
        uuid: 'd',
        timestamp: t(3000),
        score: { value: 0.5 },
        intermediate: true,
      },
      { event: 'score', uuid: 'e', timestamp: t(3100), score: { value: 'C' }, scorer: 'match' },
      { event: 'span_end', uuid: 'f', timestamp: t(4000), id: 's' },
    ]);
    const s = summarizeEvents(events);
    expect(s).toMatchObject({
      id: null,
      epoch: 1,
      tokens: 130, // not usage.total_tokens
      durationMs: 4000,
      status: 'ok',
      error: null,
      events: 6,
    });
    expect(s.scores).toEqual({ match: 'C' });
  });
  it('is error when the run raised, with the first line of the message', async () => {
    const s = summarizeEvents(
      await canonical([
        model('a', 0, [1, 1]),
        {
          event: 'sample_limit',
          uuid: 'b',
          timestamp: t(10),
          type: 'token',
          message: 'token limit',
          limit: 5,
        },
        {
          event: 'error',
          uuid: 'c',
          timestamp: t(20),
          error: { message: 'boom\nTraceback…', traceback: '', traceback_ansi: '' },
        },
      ]),
    );
    expect(s.status).toBe('error');
    expect(s.error).toBe('boom');
  });
  it('is limit for a sample_limit, running when the last event is pending', async () => {
    const limited = summarizeEvents(
      await canonical([
        { event: 'sample_limit', uuid: 'b', timestamp: t(10), type: 'time', message: 'too slow' },
      ]),
    );
    expect(limited).toMatchObject({ status: 'limit', error: 'too slow' });
    const running = summarizeEvents(await canonical([{ ...model('a', 0, [1, 1]), pending: true }]));
    expect(running.status).toBe('running');
    expect(summarizeEvents([])).toMatchObject({ tokens: null, durationMs: null, status: 'ok' });
  });
});

describe('summarizeInspectSample', () => {
  it('reads scores, model_usage, total_time, error and limit', () => {
    expect(
      summarizeInspectSample({
        id: 3,
        epoch: 2,
        scores: { match: { value: 'I', answer: 'x' }, f1: { value: 0.25 } },
        model_usage: {
          'a/m': { input_tokens: 10, output_tokens: 5, input_tokens_cache_read: 100 },
          'b/n': { input_tokens: 1, output_tokens: 1, total_tokens: 2 },
        },
        total_time: 12.5,
        error: { message: 'RuntimeError: x\n  at …', traceback: '' },
      }),
    ).toEqual({
      id: 3,
      epoch: 2,
      scores: { match: 'I', f1: 0.25 },
      tokens: 117,
      durationMs: 12_500,
      status: 'error',
      error: 'RuntimeError: x',
    });
    const limited = summarizeInspectSample({
      id: 'a',
      epoch: 1,
      limit: { type: 'token', limit: 1000 },
      started_at: t(0),
      completed_at: t(1500),
    });
    expect(limited).toMatchObject({
      status: 'limit',
      error: 'token limit (1000)',
      durationMs: 1500,
      tokens: null,
    });
    expect(summarizeInspectSample({ id: 1, epoch: 1, completed: false }).status).toBe('running');
  });
});

describe('summarizeInspectSample on values a host handed in', () => {
  const hostile = {
    toString(): string {
      throw new Error('ran toString');
    },
    [Symbol.toPrimitive](): string {
      throw new Error('ran toPrimitive');
    },
  };
  const lying = {
    toString: () => '2026-01-01T00:00:00Z) injected (',
    [Symbol.toPrimitive]: () => '2026-01-01T00:00:00Z) injected (',
  };

  it('never runs their toString or Symbol.toPrimitive, and shows their JSON text', () => {
    const s = summarizeInspectSample({
      id: 1,
      epoch: 1,
      started_at: hostile,
      completed_at: lying,
      limit: { type: 'token', limit: lying },
    });
    expect(s.durationMs).toBeNull();
    expect(s.status).toBe('limit');
    // JSON has no text for the methods: the object shows as {} and nothing it returns gets in.
    expect(s.error).toBe('token limit ({})');
    const failed = summarizeInspectSample({ id: 1, epoch: 1, error: hostile });
    expect(failed).toMatchObject({ status: 'error', error: '{}' });
  });

  it('an error whose JSON form throws (toJSON, a boxed string with its own toString) gives a placeholder', () => {
    const toJson = {
      toJSON(): never {
        throw new Error('ran toJSON');
      },
    };
    const boxed = Object.assign(new String('x'), {
      toString(): never {
        throw new Error('ran toString');
      },
    });
    for (const error of [toJson, boxed])
      expect(summarizeInspectSample({ id: 1, epoch: 1, error })).toMatchObject({
        status: 'error',
        error: '[value that cannot be shown as JSON]',
      });
  });
});

describe('compareSamples', () => {
  it('orders numbers numerically before strings (natural order), then by epoch', () => {
    const s = (id: string | number | null, epoch = 1): SampleSummary => ({
      id,
      epoch,
      scores: {},
      tokens: null,
      durationMs: null,
      status: 'ok',
      error: null,
    });
    const sorted = [s('b10'), s(10), s('b2'), s(2, 2), s(2, 1)].sort(compareSamples);
    expect(sorted.map((x) => `${x.id}/${x.epoch}`)).toEqual([
      '2/1',
      '2/2',
      '10/1',
      'b2/1',
      'b10/1',
    ]);
  });
});

describe('summarizeLog', () => {
  it('summarises an inspect .eval from its summaries, sorted', async () => {
    const log = await summarizeLog(fixture('inspect/zstd-zip64.eval'));
    expect(log).toMatchObject({ format: 'inspect', task: 'unit', status: 'success' });
    expect(log.samples.map((s) => s.id)).toEqual([1, 'two']);
    expect(log.samples[0]!.scores).toEqual({ match: 'C' });
  });
  it.each([
    ['acp/session.jsonl', 'acp'],
    ['agex/agex-ts.jsonl', 'agex'],
    ['cantus/run.json', 'cantus'],
    ['claude-code/session.jsonl', 'claude-code'],
    ['defect/events.jsonl', 'defect'],
    ['jupyter/iopub.jsonl', 'jupyter'],
    ['otlp/agent-chat-tool.otlp.json', 'otlp'],
    ['skein/run.jsonl', 'skein'],
  ])('summarises %s as one run from its events', async (file, format) => {
    const bytes = fixture(file);
    const log = await summarizeLog(bytes);
    const { events } = await importAny(bytes);
    expect(log.format).toBe(format);
    expect(log.samples).toHaveLength(1);
    expect(log.samples[0]).toEqual(summarizeEvents(events));
  });
  it('rejects input no format reads, naming a truncated zip', async () => {
    const cut = fixture('inspect/zstd-zip64.eval').subarray(0, 2000);
    await expect(summarizeLog(cut)).rejects.toMatchObject({ code: 'zip_truncated' });
    await expect(importAny(cut)).rejects.toBeInstanceOf(ImportError);
    await expect(summarizeLog('just words')).rejects.toMatchObject({
      code: 'unrecognized_format',
    });
  });
});

describe('describeInput', () => {
  it.each([
    [new Uint8Array(0), 'an empty file'],
    ['hello\nworld\n', 'plain text (2 lines)'],
    ['{"a":1,"b":2}', 'a JSON document: an object with keys "a", "b"'],
    ['[1,2,3]', 'a JSON document: an array of 3'],
    ['{"x":1}\n{"y":2}\n', 'JSON Lines whose first record is an object with keys "x"'],
    ['{"x": 1', /^text that starts like JSON but is not valid JSON \(Invalid JSON/],
    [new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2]), 'binary data'],
  ])('%j → %s', (input, expected) => {
    const got = describeInput(input);
    if (typeof expected === 'string') expect(got).toBe(expected);
    else expect(got).toMatch(expected);
  });
  it('says a cut-short zip is truncated', () => {
    const cut = fixture('inspect/zstd-zip64.eval').subarray(0, 2000);
    expect(describeInput(cut)).toMatch(/^a zip archive that cannot be opened: Truncated zip/);
  });
});

describe('renderSpanTreeText', () => {
  it('draws guides, names and aligned columns from the row facts', async () => {
    const events = await canonical([
      { event: 'span_begin', uuid: 'a', timestamp: t(0), id: 'outer', name: 'solvers' },
      {
        event: 'span_begin',
        uuid: 'b',
        timestamp: t(100),
        id: 'inner',
        parent_id: 'outer',
        name: 'agent',
      },
      { ...model('c', 200, [1000, 234]), span_id: 'inner' },
      {
        event: 'tool',
        uuid: 'd',
        timestamp: t(800),
        completed: t(900),
        span_id: 'inner',
        id: 'c1',
        function: 'bash',
        arguments: {},
        result: '',
        error: { type: 'unknown', message: 'bad' },
      },
      { event: 'span_end', uuid: 'e', timestamp: t(1000), id: 'inner', span_id: 'inner' },
      {
        event: 'span_begin',
        uuid: 'f',
        timestamp: t(1100),
        id: 'score',
        parent_id: 'outer',
        name: 'scorers',
      },
      { event: 'span_end', uuid: 'g', timestamp: t(1200), id: 'score', span_id: 'score' },
      { event: 'span_end', uuid: 'h', timestamp: t(2000), id: 'outer', span_id: 'outer' },
    ]);
    expect(renderSpanTreeText(events)).toBe(
      [
        'solvers     ERROR, 1 failed   2.0 s  1.2k tok',
        '├─ agent    ERROR, 1 failed  900 ms  1.2k tok',
        '└─ scorers                   100 ms',
        '',
      ].join('\n'),
    );
    expect(renderSpanTreeText(events, { mode: 'events' })).toBe(
      [
        'solvers           ERROR, 1 failed   2.0 s  1.2k tok',
        '├─ agent          ERROR, 1 failed  900 ms  1.2k tok',
        '│  ├─ mock/m                       500 ms  1.2k tok',
        '│  └─ bash · bad  ERROR            100 ms',
        '└─ scorers                         100 ms',
        '',
      ].join('\n'),
    );
    expect(renderSpanTreeText([])).toBe('');
  });
  it('keeps the sign of a span that ends before it starts, in the usual units', async () => {
    // Records out of order (the Claude Code edge-cases fixture has such a turn).
    const events = await canonical([
      { event: 'span_begin', uuid: 'a', timestamp: t(60_000), id: 's', name: 'turn' },
      { event: 'span_end', uuid: 'b', timestamp: t(31_000), id: 's', span_id: 's' },
      { event: 'span_begin', uuid: 'c', timestamp: t(70_000), id: 'm', name: 'later' },
      { event: 'span_end', uuid: 'd', timestamp: t(69_750), id: 'm', span_id: 'm' },
    ]);
    expect(renderSpanTreeText(events)).toBe(['turn   -29.0 s', 'later  -250 ms', ''].join('\n'));
  });
  it('cuts long names to the width', async () => {
    const events = await canonical([
      { event: 'span_begin', uuid: 'a', timestamp: t(0), id: 's', name: 'x'.repeat(300) },
      { event: 'span_end', uuid: 'b', timestamp: t(10), id: 's', span_id: 's' },
    ]);
    const line = renderSpanTreeText(events, { width: 60 }).trimEnd();
    expect([...line].length).toBeLessThanOrEqual(60);
    expect(line).toContain('…');
  });
});
