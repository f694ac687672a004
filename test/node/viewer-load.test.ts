// The viewer's loader (viewer/load/loader.ts) without a page: what it posts for
// each kind of input, read from our own fixtures, and the errors it explains.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createLoader, lineFormatOf, sampleRow, scoreToNumber } from '../../viewer/load/loader.js';
import type { Event } from '../../src/index.js';
import { batchEvents, type LoadMessage, type LoadSource } from '../../viewer/load/protocol.js';

const fixture = (path: string) => readFileSync(new URL(`../fixtures/${path}`, import.meta.url));

async function load(source: LoadSource, sample?: { id: string | number; epoch: number }) {
  const messages: LoadMessage[] = [];
  const loader = createLoader((m) => messages.push(m));
  await loader.handle({ type: 'open', source, ...(sample ? { sample } : {}) });
  return { messages, loader };
}

const fileOf = (path: string, name = path.split('/').at(-1)!): LoadSource => ({
  kind: 'file',
  file: new Blob([fixture(path)]),
  name,
});

const eventsOf = (messages: LoadMessage[]) =>
  messages.flatMap((m) => (m.type === 'events' ? [...batchEvents(m)] : []));
/** The last message before the timeline (built after `done`). */
const last = (messages: LoadMessage[]) => {
  const end = messages.at(-1)!;
  if (end.type !== 'timeline') return end;
  // Posted only when `done` says one follows, and built for any format.
  const done = messages.at(-2)!;
  expect(done).toMatchObject({ type: 'done', timeline: true });
  expect(end.timeline?.spans).toBeGreaterThan(0);
  return done;
};

describe('viewer loader', () => {
  it('opens a multi-sample .eval: the log, its samples, the first sample’s events, done', async () => {
    const { messages } = await load(fileOf('inspect/zstd-zip64.eval'));
    expect(messages.find((m) => m.type === 'format')).toMatchObject({ format: 'inspect' });
    const log = messages.find((m) => m.type === 'log');
    expect(log).toMatchObject({ sample: { id: 1, epoch: 1 } });
    expect(log?.type === 'log' && log.samples.map((s) => String(s.id))).toEqual(['1', 'two']);
    expect(log?.type === 'log' && log.facts).toMatchObject({ task: 'unit', model: 'mock/model' });
    const events = eventsOf(messages);
    expect(events.length).toBeGreaterThan(3);
    expect(events[0]!.uuid).toBe('1-1-e0');
    expect(last(messages)).toMatchObject({ type: 'done', facts: { scores: ['match: C'] } });
  });

  it('opens the sample the URL names, and another on request', async () => {
    const { messages, loader } = await load(fileOf('inspect/zstd-zip64.eval'), {
      id: 'two',
      epoch: 1,
    });
    expect(messages.find((m) => m.type === 'log')).toMatchObject({ sample: { id: 'two' } });
    const first = eventsOf(messages);
    messages.length = 0;
    await loader.handle({ type: 'sample', sample: { id: 1, epoch: 1 } });
    const second = eventsOf(messages);
    expect(second[0]!.uuid).toBe('1-1-e0');
    expect(second.map((e) => e.uuid)).not.toEqual(first.map((e) => e.uuid));
    // Messages of the new load carry a new session number.
    expect(new Set(messages.map((m) => m.session)).size).toBe(1);
    expect(messages[0]!.session).toBe(2);
  });

  it('streams a line format through streamImport in batches', async () => {
    const { messages } = await load(fileOf('acp/session.jsonl'));
    expect(messages.find((m) => m.type === 'format')).toMatchObject({ format: 'acp' });
    expect(eventsOf(messages).length).toBeGreaterThan(0);
    expect(last(messages).type).toBe('done');
  });

  it('imports a whole JSON document (OTLP export)', async () => {
    const { messages } = await load(fileOf('otlp/agent-chat-tool.otlp.json'));
    expect(messages.find((m) => m.type === 'format')).toMatchObject({ format: 'otlp' });
    expect(eventsOf(messages).length).toBeGreaterThan(0);
    expect(last(messages).type).toBe('done');
  });

  it('says what a file is and what was expected when no format reads it', async () => {
    const { messages } = await load({
      kind: 'file',
      file: new Blob(['{"hello": 1, "world": [2]}']),
      name: 'notes.json',
    });
    const m = last(messages);
    expect(m.type).toBe('error');
    if (m.type !== 'error') return;
    expect(m.error.code).toBe('unrecognized_format');
    expect(m.error.title).toBe('notes.json is not a log format skein reads');
    expect(m.error.detail).toMatch(/a JSON document: an object with keys "hello", "world"/);
    expect(m.error.detail).toMatch(/inspect_ai log \(\.eval, \.json\)/);
  });

  it('names a truncated .eval as truncated, with what to do', async () => {
    const bytes = fixture('inspect/zstd-zip64.eval');
    const { messages } = await load({
      kind: 'file',
      file: new Blob([bytes.subarray(0, bytes.length - 200)]),
      name: 'cut.eval',
    });
    const m = last(messages);
    expect(m.type === 'error' && m.error).toMatchObject({
      code: 'zip_truncated',
      title: 'cut.eval is a truncated .eval archive',
    });
  });

  it('an empty file is "an empty file"', async () => {
    const { messages } = await load({ kind: 'file', file: new Blob([]), name: 'empty.jsonl' });
    const m = last(messages);
    expect(m.type === 'error' && m.error.detail).toMatch(/an empty file/);
  });

  it('a generated demo run', async () => {
    const { messages } = await load({ kind: 'demo', events: 300, name: 'demo' });
    expect(eventsOf(messages).length).toBeGreaterThanOrEqual(300);
    expect(last(messages)).toMatchObject({ type: 'done', facts: { task: 'generated run' } });
  });
});

describe('lineFormatOf', () => {
  const enc = (s: string) => new TextEncoder().encode(s);
  it('streams JSON Lines of a line format, reads everything else whole', () => {
    expect(lineFormatOf(fixture('acp/session.jsonl'), 'session.jsonl')).toBe('acp');
    expect(lineFormatOf(fixture('inspect/zstd-zip64.eval'), 'x.eval')).toBeNull();
    expect(lineFormatOf(enc('{\n  "version": 2,\n  "eval": {}\n}\n'), 'x.json')).toBeNull();
    expect(lineFormatOf(enc('[{"a":1},\n{"b":2}]\n'), 'x.json')).toBeNull();
  });
});

describe('sample rows', () => {
  it('reads scores, tokens, time, error and limit from a summary', () => {
    const row = sampleRow({
      id: 7,
      epoch: 2,
      input: [{ role: 'user', content: 'What is 2+2?' }],
      scores: { match: { value: 'C' }, f1: { value: 0.5 } },
      model_usage: { a: { input_tokens: 6, output_tokens: 4 }, b: { output_tokens: 5 } },
      total_time: 12.5,
      error: 'boom\nat line 2',
      limit: { type: 'token' },
    });
    expect(row).toMatchObject({
      id: 7,
      epoch: 2,
      score: 'C',
      scoreValue: 1,
      scores: 'match: C, f1: 0.5',
      tokens: 15,
      duration: 12.5,
      error: 'boom',
      limit: null, // an error outranks the limit (core's summarizeInspectSample)
      input: 'What is 2+2?',
    });
  });
  it('a limit without an error', () => {
    expect(sampleRow({ id: 1, epoch: 1, limit: { type: 'token', limit: 100 } })).toMatchObject({
      error: null,
      limit: 'token limit (100)',
    });
  });
  it('scores as numbers, as inspect’s value_to_float', () => {
    expect([true, 'I', 'P', '0.25', 3, 'maybe', null].map(scoreToNumber)).toEqual([
      1,
      0,
      0.5,
      0.25,
      3,
      null,
      null,
    ]);
  });
});
