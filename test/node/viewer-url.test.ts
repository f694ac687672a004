// The viewer's URL state and sample list rules (pure).
import { describe, expect, it } from 'vitest';
import type { SampleRow } from '../../viewer/load/protocol.js';
import { filterSamples, sortSamples } from '../../viewer/samples.js';
import { formatHash, nameOfUrl, readHash, readParams } from '../../viewer/url-state.js';
import { countByCode, eventIndexOfPath } from '../../viewer/diagnostics.js';
import { describeContent } from '../../viewer/load/explain.js';

describe('viewer URL', () => {
  it('reads what to open from the query', () => {
    expect(readParams('?src=%2Fapi%2Ffile%2Fa.eval')).toEqual({
      src: '/api/file/a.eval',
      live: null,
      list: null,
      demo: null,
      runs: null,
    });
    expect(readParams('?list=/api/list&demo=500')).toMatchObject({ list: '/api/list', demo: 500 });
    expect(readParams('?demo=abc').demo).toBeNull();
  });

  it('round-trips #sample, #epoch and #event, keeping other pairs', () => {
    const hash = formatHash('#tab=log', { sample: { id: 'a b', epoch: 2 }, event: 'u/1' });
    expect(hash).toBe('#tab=log&sample=a%20b&epoch=2&event=u%2F1');
    expect(readHash(hash)).toEqual({ sample: { id: 'a b', epoch: 2 }, event: 'u/1' });
    // epoch 1 is left out; null removes; undefined keeps.
    expect(formatHash(hash, { sample: { id: 3, epoch: 1 } })).toBe('#tab=log&sample=3&event=u%2F1');
    expect(formatHash(hash, { event: null })).toBe('#tab=log&sample=a%20b&epoch=2');
    expect(formatHash('#sample=1', { sample: null })).toBe('');
    expect(readHash('#event=%E0%A4%A')).toEqual({ sample: null, event: '%E0%A4%A' });
  });

  it('names a URL by its last segment', () => {
    expect(nameOfUrl('/api/file/logs%2Frun%201.eval')).toBe('logs/run 1.eval');
    expect(nameOfUrl('http://h:1/x/run.jsonl?x=1')).toBe('run.jsonl');
  });
});

const row = (id: string | number, over: Partial<SampleRow> = {}): SampleRow => ({
  id,
  epoch: 1,
  score: null,
  scoreValue: null,
  scores: '',
  tokens: null,
  duration: null,
  error: null,
  limit: null,
  input: '',
  ...over,
});

describe('sample list', () => {
  const rows = [
    row(10, { scoreValue: 0, score: 'I', tokens: 500, duration: 3 }),
    row(2, { scoreValue: 1, score: 'C', tokens: 100, error: 'boom', input: 'weather in Paris' }),
    row('b', { epoch: 2, tokens: null, duration: 9 }),
    row(2, { epoch: 2, scoreValue: 0.5, tokens: 300, limit: 'token' }),
  ];
  const ids = (r: SampleRow[]) => r.map((x) => `${String(x.id)}/${x.epoch}`);

  it('sorts by id (numbers before strings, then epoch) and by each column', () => {
    expect(ids(sortSamples(rows, { key: 'id', dir: 'asc' }))).toEqual([
      '2/1',
      '2/2',
      '10/1',
      'b/2',
    ]);
    expect(ids(sortSamples(rows, { key: 'tokens', dir: 'desc' }))).toEqual([
      '10/1',
      '2/2',
      '2/1',
      'b/2', // missing values last either way
    ]);
    expect(ids(sortSamples(rows, { key: 'score', dir: 'asc' }))).toEqual([
      '10/1',
      '2/2',
      '2/1',
      'b/2',
    ]);
    expect(ids(sortSamples(rows, { key: 'duration', dir: 'asc' }))).toEqual([
      '10/1',
      'b/2',
      '2/1',
      '2/2',
    ]);
    expect(ids(sortSamples(rows, { key: 'error', dir: 'desc' })).slice(0, 2)).toEqual([
      '2/1',
      '2/2',
    ]);
  });

  it('filters by words and has:error', () => {
    expect(ids(filterSamples(rows, 'paris'))).toEqual(['2/1']);
    expect(ids(filterSamples(rows, 'has:error'))).toEqual(['2/1', '2/2']);
    expect(filterSamples(rows, '  ')).toHaveLength(4);
  });
});

describe('diagnostics', () => {
  it('finds the event index in a path, and counts by code', () => {
    expect(eventIndexOfPath('$["samples/1_epoch_1.json"].events[12].timestamp')).toBe(12);
    expect(eventIndexOfPath('$[3].update')).toBe(3);
    expect(eventIndexOfPath('$.header')).toBeNull();
    expect(
      countByCode([
        { code: 'uuid_derived', severity: 'info', message: '', path: '' },
        { code: 'default_filled', severity: 'info', message: '', path: '' },
        { code: 'uuid_derived', severity: 'info', message: '', path: '' },
      ]),
    ).toEqual([
      ['uuid_derived', 2],
      ['default_filled', 1],
    ]);
  });

  it('describes what a file is (core describeInput; gzip named)', () => {
    const enc = (s: string) => new TextEncoder().encode(s);
    expect(describeContent(enc('{"a":1}\n{"b":2}\n'), 16)).toBe(
      'JSON Lines whose first record is an object with keys "a"',
    );
    expect(describeContent(enc('[{"x": 1}]'), 10)).toBe('a JSON document: an array of 1');
    expect(describeContent(enc('hello world'), 11)).toBe('plain text (1 line)');
    expect(describeContent(new Uint8Array([0x1f, 0x8b, 8]), 3)).toMatch(/gzip/);
    expect(describeContent(new Uint8Array([0, 1, 2]), 3)).toBe('binary data');
    expect(describeContent(new Uint8Array(0), 0)).toBe('an empty file');
  });
});
