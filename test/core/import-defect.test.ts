// defect importer (issue 19): the project's own fixtures (every AgentEvent
// variant, sub-agents in both path forms, an aborted turn, a cut-off turn, the
// array form, the stored journal with a seq gap) and streaming = whole file.
import { defectFormat } from '../../src/core/import/defect/defect.js';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EventStream, detectFormat, importDefect, isDefect, type Event } from '../../src/index.js';
import { checkImport } from './helpers/import-check.js';

const own = (name: string) =>
  readFileSync(new URL(`../fixtures/defect/${name}`, import.meta.url), 'utf8');
const byKind = (events: readonly Event[], kind: string) => events.filter((e) => e.event === kind);
const field = (e: Event | undefined, key: string): unknown =>
  e ? (e as unknown as Record<string, unknown>)[key] : undefined;
const find = (events: readonly Event[], kind: string, key: string, value: unknown) =>
  events.find((e) => e.event === kind && field(e, key) === value);

function streamed(records: unknown[]): readonly Event[] {
  const imp = defectFormat.incremental({});
  const stream = new EventStream();
  records.forEach((r, i) => {
    imp.push(r, `$[${i}]`);
    for (const e of imp.drain()) stream.append(e);
  });
  for (const e of imp.end()) stream.append(e);
  return stream.latest();
}

const lines = (text: string) =>
  text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as unknown);

describe('defect importer', () => {
  it('events.jsonl: turns, deltas, tools, policy, model attempts, compaction, sub-agents, abort', async () => {
    const r = await checkImport(own('events.jsonl'), 'defect', {
      filename: 'events.jsonl',
      allowDiagnostics: ['defect_unclosed'],
    });
    await expect(r.dump).toMatchFileSnapshot('__snapshots__/defect/events.txt');
    const ev = r.events;
    // Turns and their stop reasons; the aborted one and the cut-off one.
    const turns = byKind(ev, 'span_begin').filter((b) => field(b, 'type') === 'turn');
    expect(turns.map((t) => [field(t, 'id'), t.metadata?.['stop_reason']])).toEqual([
      ['turn-1', 'end_turn'],
      ['toolu_task/turn-1', 'end_turn'],
      ['turn-2', 'aborted'],
      ['turn-3', 'unfinished'],
    ]);
    expect(field(turns[1], 'parent_id')).toBe('agent:toolu_task');
    // Deltas merge; thought is reasoning.
    const messages = byKind(ev, 'message');
    expect(messages.map((m) => field(m, 'content'))).toContainEqual("I'll read the parser first.");
    expect(messages.map((m) => field(m, 'content'))).toContainEqual([
      { type: 'reasoning', reasoning: 'The parser has two entry points.' },
    ]);
    // Retries are attempts of one call.
    const models = byKind(ev, 'model').filter((m) => m.span_id === 'turn-1');
    expect(
      models.map((m) => [
        field(m, 'call_id'),
        field(m, 'attempt'),
        field(m, 'retries'),
        field(m, 'error') ?? null,
      ]),
    ).toEqual([
      ['llm-1', 1, 0, 'overloaded_error: retrying'],
      ['llm-1', 2, 1, null],
    ]);
    expect((field(models[1], 'output') as { usage: unknown }).usage).toEqual({
      input_tokens: 1800,
      output_tokens: 120,
      total_tokens: 1920,
      input_tokens_cache_read: 1500,
    });
    // One tool event per id, with its approval.
    const read = find(ev, 'tool', 'id', 'toolu_read')!;
    expect([field(read, 'function'), field(read, 'result'), field(read, 'arguments')]).toEqual([
      'read_file',
      'fn parse() {}',
      { path: 'src/parser.rs' },
    ]);
    expect(
      byKind(ev, 'approval').map((a) => [
        (field(a, 'call') as { id: string }).id,
        field(a, 'decision'),
        field(a, 'approver'),
      ]),
    ).toEqual([
      ['toolu_read', 'approve', 'policy'],
      ['toolu_edit', 'approve', 'user'],
      ['toolu_sh', 'reject', 'policy'],
      ['toolu_rm', 'terminate', 'user'],
    ]);
    expect(field(find(ev, 'tool', 'id', 'toolu_sh'), 'error')).toEqual({
      type: 'unknown',
      message: 'denied by policy',
    });
    // Sub-agents: spans under the spawning tool's span, named by the tool.
    const task = find(ev, 'tool', 'id', 'toolu_task')!;
    expect([field(task, 'agent_span_id'), field(task, 'agent')]).toEqual([
      'agent:toolu_task',
      'tester',
    ]);
    const agents = byKind(ev, 'span_begin').filter((b) => field(b, 'type') === 'agent');
    expect(agents.map((a) => [field(a, 'id'), field(a, 'parent_id'), field(a, 'name')])).toEqual([
      ['agent:toolu_task', 'turn-1', 'tester'],
      ['agent:toolu_grep', 'toolu_task/turn-1', 'searcher'],
    ]);
    const grep = find(ev, 'tool', 'id', 'toolu_grep')!;
    expect(grep.span_id).toBe('toolu_task/turn-1');
    // The recursive and the flattened path land in one sub-agent, one message.
    const found = messages.filter((m) => m.span_id === 'agent:toolu_grep');
    expect(found.map((m) => field(m, 'content'))).toEqual([
      'found 12 tests (recursive form); done (flattened form)',
    ]);
    expect(byKind(ev, 'span_end').map((e) => field(e, 'id'))).toContain('agent:toolu_grep');
    // Compactions.
    expect(
      byKind(ev, 'compaction').map((c) => [
        field(c, 'type'),
        field(c, 'tokens_before'),
        field(c, 'tokens_after'),
        c.metadata?.['cleared'] ?? null,
      ]),
    ).toEqual([
      ['summary', 180000, 42000, null],
      ['edit', 50000, 31000, 4],
    ]);
    // The aborted turn: every event in it kept and marked; the others not.
    const inTurn2 = ev.filter((e) => e.span_id === 'turn-2');
    expect(inTurn2.length).toBeGreaterThan(4);
    for (const e of inTurn2) expect(e.metadata?.['aborted'], e.event).toBe(true);
    expect(turns[2]!.metadata?.['abort_reason']).toBe('user interrupted');
    expect(ev.filter((e) => e.span_id === 'turn-1').some((e) => e.metadata?.['aborted'])).toBe(
      false,
    );
    // Unknown kinds kept.
    expect(byKind(ev, 'info').map((e) => (field(e, 'data') as { type: string }).type)).toEqual([
      'session_renamed',
    ]);
    expect(r.diagnostics.map((d) => d.code)).toEqual(
      expect.arrayContaining(['defect_unknown_event', 'defect_unclosed', 'value_invented']),
    );
  });

  it('the array form', async () => {
    const r = await checkImport(own('events-array.json'), 'defect', {
      filename: 'events-array.json',
    });
    expect(field(byKind(r.events, 'message')[1], 'content')).toBe('Hello there');
    expect(byKind(r.events, 'span_begin')[0]!.metadata?.['usage']).toEqual({
      input_tokens: 10,
      output_tokens: 2,
    });
  });

  it('journal.jsonl: the conversation projection, tool use and result paired, seq gaps diagnosed', async () => {
    const r = await checkImport(own('journal.jsonl'), 'defect', {
      filename: 'journal.jsonl',
      allowDiagnostics: ['defect_seq_gap'],
    });
    await expect(r.dump).toMatchFileSnapshot('__snapshots__/defect/journal.txt');
    const gap = r.diagnostics.filter((d) => d.code === 'defect_seq_gap');
    expect(gap.map((d) => d.path)).toEqual(['$[4].seq']);
    const ls = find(r.events, 'tool', 'id', 'toolu_ls')!;
    expect([field(ls, 'function'), field(ls, 'arguments'), field(ls, 'result')]).toEqual([
      'shell',
      { cmd: 'ls' },
      'Cargo.toml\nsrc',
    ]);
    expect(field(byKind(r.events, 'message')[1], 'content')).toEqual([
      { type: 'reasoning', reasoning: 'Use ls.', signature: 'sig' },
      { type: 'text', text: 'Listing.' },
    ]);
  });

  it('streaming one record at a time gives the same latest events as the whole file', () => {
    for (const name of ['events.jsonl', 'journal.jsonl']) {
      const text = own(name);
      expect(streamed(lines(text)), name).toEqual(importDefect(text).events);
    }
  });

  it('detection: defect events and journals, not other tagged JSON', () => {
    expect(isDefect('{"type":"turn_started"}')).toBe(true);
    expect(isDefect('{"schema_version":1,"seq":0,"record":{"type":"turn_started"}}')).toBe(true);
    expect(isDefect('{"type":"taskStart","name":"x"}')).toBe(false);
    expect(detectFormat(own('events.jsonl')).format).toBe('defect');
  });

  it('reads a permission option id nested thousands deep as text, not a stack overflow', () => {
    const deep = '['.repeat(5000) + '"deny"' + ']'.repeat(5000);
    const r = importDefect(
      [
        '{"type":"turn_started"}',
        '{"type":"tool_call_started","id":"t1","name":"edit_file","fields":{}}',
        '{"type":"policy_decision","id":"t1","decision":{"kind":"ask","options":[]}}',
        `{"type":"permission_resolved","id":"t1","outcome":{"kind":"selected","option_id":${deep}}}`,
      ].join('\n'),
    );
    expect(r.events.find((e) => e.event === 'approval')).toMatchObject({ decision: 'approve' });
  });
});
