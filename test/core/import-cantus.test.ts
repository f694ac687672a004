import { cantusFormat } from '../../src/core/import/cantus/cantus.js';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  EventStream,
  detectFormat,
  importAny,
  importCantus,
  isCantus,
  streamImport,
  type Event,
  type MessageEvent,
  type ToolEvent,
} from '../../src/index.js';
import { checkImport } from './helpers/import-check.js';

const dir = 'test/fixtures/cantus';
const read = (name: string) => readFileSync(`${dir}/${name}`, 'utf8');
const tools = (events: Event[]) => events.filter((e): e is ToolEvent => e.event === 'tool');

describe('cantus importer: project fixtures', () => {
  it.each([
    ['run.json', []],
    ['tagged.jsonl', ['cantus_unanswered_action', 'cantus_unpaired_observation']],
    ['introspection.json', []],
  ] as const)('%s imports as cantus, canonical, with a stable dump', async (name, allowed) => {
    const result = await checkImport(read(name), 'cantus', {
      filename: name,
      allowDiagnostics: allowed,
    });
    await expect(result.dump).toMatchFileSnapshot(`__snapshots__/cantus-${name}.txt`);
  });
});

describe('cantus importer: mapping', () => {
  const { events, diagnostics } = importCantus(read('run.json'));

  it('pairs each skill call with the observation after it into one tool event', () => {
    const [search, convert, calc] = tools(events);
    expect(search).toMatchObject({
      id: 'cantus-call-1',
      function: 'search',
      arguments: { query: 'tide height Brest today' },
      result: 'High tide 6.9 m at 14:02; low tide 1.2 m at 20:15.',
    });
    expect(convert!.error).toEqual({
      type: 'unknown',
      message: "Unknown skill 'convert'. Valid skills: search, calculator",
    });
    expect(JSON.parse(calc!.result as string)).toEqual({ value: 18.7, unit: 'ft' });
    for (const t of tools(events))
      expect(t.metadata?.['skein_invented']).toEqual(['timestamp', 'id']);
  });

  it('puts the thought before the call as a reasoning message', () => {
    const i = events.indexOf(tools(events)[0]!);
    expect(events[i - 1]).toMatchObject({
      event: 'message',
      role: 'assistant',
      content: [{ type: 'reasoning', reasoning: 'I should look up tide heights first.' }],
    });
  });

  it('marks the attempt after a validation error as a retry', () => {
    const calc = tools(events)[2]!;
    expect(calc.metadata?.['retry']).toEqual({
      attempt: 2,
      validator: 'action_parse',
      feedback: 'Expected a JSON object with "thought" and "action".',
    });
    const answers = events.filter(
      (e): e is MessageEvent => e.event === 'message' && e.metadata?.['final_answer'] === true,
    );
    expect(answers).toHaveLength(2);
    expect(answers[0]!.metadata?.['retry']).toBeUndefined();
    expect(answers[1]!.metadata?.['retry']).toMatchObject({ validator: 'non_empty_final_answer' });
    expect(answers[1]!.content).toEqual([
      { type: 'reasoning', reasoning: 'State the range.' },
      { type: 'text', text: "Today's tidal range in Brest is 5.7 m (about 18.7 ft)." },
    ]);
    expect(
      events.filter(
        (e) => e.event === 'info' && e.metadata?.['cantus_type'] === 'ValidationErrorObservation',
      ),
    ).toHaveLength(2);
  });

  it('synthesises times in order, never backwards, from baseTime, flagged once per file', () => {
    const base = importCantus(read('run.json'), { baseTime: '2026-05-01T09:00:00Z' }).events;
    expect(base[0]!.timestamp).toBe('2026-05-01T09:00:00.000Z');
    const times = base.map((e) => Date.parse(e.timestamp));
    for (let i = 1; i < times.length; i++) expect(times[i]).toBeGreaterThan(times[i - 1]!);
    for (const t of tools(base))
      expect(Date.parse(t.completed!)).toBeGreaterThan(Date.parse(t.timestamp));
    expect(diagnostics.filter((d) => d.code === 'value_invented').map((d) => d.message)).toEqual([
      expect.stringContaining('10 timestamp values'),
      expect.stringContaining('3 id values'),
    ]);
  });

  it('formats synthesised times across a second boundary like toISOString', () => {
    const { events: out } = importCantus(read('run.json'), {
      baseTime: '2026-01-01T00:00:59.998Z',
    });
    expect(out.slice(0, 4).map((e) => e.timestamp)).toEqual([
      '2026-01-01T00:00:59.998Z',
      '2026-01-01T00:00:59.999Z',
      '2026-01-01T00:01:00.001Z',
      '2026-01-01T00:01:00.002Z',
    ]);
    // The tool's end took the tick between.
    expect(tools(out)[0]!.completed).toBe('2026-01-01T00:01:00.000Z');
  });

  it('maps max iterations to a limit event keeping the nested partial state', () => {
    const { events: tagged, diagnostics: d } = importCantus(read('tagged.jsonl'));
    const limit = tagged.at(-1)!;
    expect(limit).toMatchObject({ event: 'sample_limit', type: 'turn', limit: 5 });
    expect((limit.metadata!['partial_state'] as { events: unknown[] }).events).toHaveLength(2);
    // An action never answered, an observation with no action, an unknown class: all kept.
    expect(d.map((x) => `${x.code} ${x.path}`).slice(0, 3)).toEqual([
      'cantus_unanswered_action $[2]',
      'cantus_unpaired_observation $[5]',
      'unknown_event_kind $[6]',
    ]);
    expect(tools(tagged)[1]).toMatchObject({ function: 'fetch', result: '' });
    expect(tagged.filter((e) => e.event === 'info')).toHaveLength(2);
  });

  it('reads the introspection steps, summaries standing in for redacted values', () => {
    const { events: steps } = importCantus(read('introspection.json'));
    expect(tools(steps)[0]).toMatchObject({
      function: 'search',
      result: "SkillObservation(skill_name='search', result=<redacted>)",
    });
  });

  it('reads keyed and tagged items alike', () => {
    const keyed = importCantus({
      events: [{ FinalAnswerAction: { thought: 't', answer: '42' } }],
    }).events;
    const tagged = importCantus([{ type: 'FinalAnswerAction', thought: 't', answer: '42' }]).events;
    expect(keyed.map((e) => (e as MessageEvent).content)).toEqual(
      tagged.map((e) => (e as MessageEvent).content),
    );
  });

  it('reports a wrong field type and an item that is no cantus item, and keeps going', () => {
    const { events: out, diagnostics: d } = importCantus({
      events: [{ CallSkillAction: { thought: 't', skill_name: 7, args: 'x' } }, 'junk'],
    });
    expect(tools(out)[0]).toMatchObject({ function: 'skill', arguments: { value: 'x' } });
    expect(d.map((x) => `${x.code} ${x.path}`)).toEqual([
      'wrong_type $.events[0].CallSkillAction.skill_name',
      'wrong_type $.events[1]',
      'cantus_unanswered_action $.events[0]',
      'value_invented $.events[0]',
      'value_invented $.events[0]',
    ]);
  });
});

describe('cantus importer: detection', () => {
  it("tells cantus {events} from skein's own {events} container", () => {
    expect(detectFormat(read('run.json')).format).toBe('cantus');
    expect(isCantus(read('tagged.jsonl'))).toBe(true);
    expect(isCantus(read('introspection.json'))).toBe(true);
    const skein = JSON.stringify({
      events: [{ event: 'info', uuid: 'u1', timestamp: '2026-01-01T00:00:00Z', data: 'x' }],
    });
    expect(isCantus(skein)).toBe(false);
    expect(detectFormat(skein).format).toBe('skein');
    expect(isCantus('{"events": []}')).toBe(false);
    expect(isCantus('{"events": [{"Something": {"a": 1}}]}')).toBe(false);
  });
});

describe('cantus importer: streaming', () => {
  it('one line at a time gives, in latest(), the whole-file events', () => {
    const text = read('tagged.jsonl');
    const whole = importCantus(text).events;
    const stream = new EventStream();
    const imp = cantusFormat.incremental({});
    text.split('\n').forEach((line, i) => {
      if (line.trim() === '') return;
      imp.push(JSON.parse(line), `$[${i}]`);
      for (const e of imp.drain()) stream.append(e);
    });
    for (const e of imp.end()) stream.append(e);
    expect(stream.latest()).toEqual(whole);
    // The awaited calls went out pending first.
    expect(stream.toArray().some((e) => e.event === 'tool' && e.pending === true)).toBe(true);
  });

  it('streamImport detects cantus JSON Lines from chunks, yields before the end, and equals importAny', async () => {
    // Two runs back to back: detection takes the first 8 records, so events
    // of the rest come out while chunks are still being read.
    const text = read('tagged.jsonl').repeat(2);
    let fed = 0;
    async function* chunks() {
      // 7-character chunks: records split mid-line, mid-key and mid-string.
      for (let i = 0; i < text.length; i += 7) {
        fed = i + 7;
        yield text.slice(i, i + 7);
      }
    }
    const stream = new EventStream();
    let firstAt: number | undefined;
    const it = streamImport(chunks());
    let next = await it.next();
    while (!next.done) {
      if (next.value.length > 0) firstAt ??= fed;
      for (const e of next.value) stream.append(e);
      next = await it.next();
    }
    const whole = await importAny(text);
    expect(whole.format).toBe('cantus');
    expect(stream.latest()).toEqual(whole.events);
    expect(next.value.diagnostics).toEqual(whole.diagnostics);
    expect(firstAt).toBeLessThan(text.length);
  });
});
