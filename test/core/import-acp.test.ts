// ACP importer (issue 19): the project's own fixtures (every variant the
// importer maps, the messy shapes of real captures, the v2 draft), streaming
// equals whole-file, and the real captures in ../shared/fixtures/acp.
import { acpFormat } from '../../src/core/import/acp/acp.js';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  EventStream,
  detectFormat,
  importAcp,
  importAny,
  isAcp,
  streamImport,
  type Event,
} from '../../src/index.js';
import { describeFixtures, listFixtures, readFixture } from '../conformance/fixtures.js';
import { checkImport, dumpImport } from './helpers/import-check.js';

const own = (name: string) =>
  readFileSync(new URL(`../fixtures/acp/${name}`, import.meta.url), 'utf8');

const byKind = (events: readonly Event[], kind: string) => events.filter((e) => e.event === kind);
const field = (e: Event | undefined, key: string): unknown =>
  e ? (e as unknown as Record<string, unknown>)[key] : undefined;
const tool = (events: readonly Event[], id: string) =>
  events.find((e) => e.event === 'tool' && field(e, 'id') === id);

/** Feeds the records one at a time into an EventStream, draining after each. */
function streamed(text: string): readonly Event[] {
  const imp = acpFormat.incremental({});
  const stream = new EventStream();
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    imp.push(JSON.parse(line), `$[${i}]`);
    for (const e of imp.drain()) stream.append(e);
  });
  for (const e of imp.end()) stream.append(e);
  return stream.latest();
}

describe('ACP importer: own fixtures', () => {
  it('session.jsonl: turns, chunks, tools, permissions, fs/terminal, cancel, errors', async () => {
    const r = await checkImport(own('session.jsonl'), 'acp', {
      filename: 'session.jsonl',
      allowDiagnostics: ['acp_unclosed'],
    });
    await expect(r.dump).toMatchFileSnapshot('__snapshots__/acp/session.txt');
    const ev = r.events;
    const turns = byKind(ev, 'span_begin');
    expect(turns.map((t) => [field(t, 'type'), t.metadata?.['stop_reason']])).toEqual([
      ['turn', 'end_turn'],
      ['turn', 'cancelled'],
      ['turn', 'error'],
    ]);
    expect(turns[0]!.metadata?.['usage']).toEqual({
      inputTokens: 1200,
      outputTokens: 80,
      totalTokens: 1280,
    });
    expect(byKind(ev, 'span_end')).toHaveLength(3);
    // Chunks with one messageId merge even with a tool call between them.
    const msg = ev.find((e) => field(e, 'message_id') === 'msg_a1');
    expect(field(msg, 'content')).toBe('Let me look at the config.');
    expect(msg!.span_id).toBe('turn-1');
    // Consecutive thought chunks without an id merge into one reasoning part.
    const thought = ev.find(
      (e) => e.event === 'message' && Array.isArray(field(e, 'content')) && e.span_id === 'turn-1',
    );
    expect(field(thought, 'content')).toEqual([
      { type: 'reasoning', reasoning: 'The test reads config.json first.' },
    ]);
    // A placeholder title and empty input are replaced by the update.
    const read = tool(ev, 'call_read')!;
    expect(field(read, 'function')).toBe('Read config.json');
    expect(field(read, 'arguments')).toEqual({ path: '/work/app/config.json' });
    expect(field(read, 'result')).toBe('{"debug": false}');
    expect((read.metadata?.['acp'] as Record<string, unknown>)['kind']).toBe('read');
    // First seen in request_permission; the id reused by both sides pairs by shape.
    const edit = tool(ev, 'call_edit')!;
    expect(field(edit, 'result')).toBe(
      '--- /work/app/config.json\n+++ /work/app/config.json\n-{"debug": false}\n+{"debug": true}',
    );
    const approvals = byKind(ev, 'approval');
    expect(
      approvals.map((a) => [field(field(a, 'call') as Event, 'id'), field(a, 'decision')]),
    ).toEqual([
      ['call_edit', 'approve'],
      ['call_rm', 'terminate'],
    ]);
    const test = tool(ev, 'call_test')!;
    expect(field(test, 'error')).toEqual({ type: 'unknown', message: '[terminal term_1]' });
    const sandboxes = byKind(ev, 'sandbox');
    expect(
      sandboxes.map((s) => [
        field(s, 'action'),
        field(s, 'result') ?? null,
        field(s, 'output') ?? null,
      ]),
    ).toEqual([
      ['read_file', null, '{"debug": false}'],
      ['exec', null, null],
      ['terminal/wait_for_exit', 1, null],
      ['terminal/output', 1, '1 failed, 11 passed\n'],
    ]);
    expect(byKind(ev, 'interrupt')).toHaveLength(1);
    expect(field(byKind(ev, 'error')[0], 'error')).toMatchObject({
      message: 'session/prompt: Internal error: model overloaded (code -32603)',
    });
    const plan = byKind(ev, 'display')[0]!;
    expect(field(plan, 'display_id')).toBe('plan');
    expect(
      (field(plan, 'outputs') as { data: Record<string, string> }[])[0]!.data['text/markdown'],
    ).toBe(
      '- [ ] Read the config _(in progress, high priority)_\n- [ ] Fix the flag _(medium priority)_',
    );
    // Kept, never dropped: the bare update line, extensions, unknown updates.
    const infos = byKind(ev, 'info').map((e) => field(e, 'data') as Record<string, unknown>);
    expect(infos.some((d) => d['sessionUpdate'] === 'session_info_update')).toBe(true);
    expect(infos.some((d) => d['method'] === '_zed.dev/file_opened')).toBe(true);
    expect(infos.some((d) => d['sessionUpdate'] === 'future_update')).toBe(true);
    expect(
      infos.some((d) => d['sessionUpdate'] === 'current_mode_update' && d['modeId'] === 'code'),
    ).toBe(true);
    expect(r.diagnostics.map((d) => d.code)).toContain('acp_unknown_update');
  });

  it('every event has an invented, strictly increasing time, flagged once per file', () => {
    const { events, diagnostics } = importAcp(own('session.jsonl'));
    const times = events.map((e) => Date.parse(e.timestamp));
    // Each event is timed when first seen, and events keep creation order.
    for (let i = 1; i < times.length; i++) expect(times[i]).toBeGreaterThan(times[i - 1]!);
    expect(times[0]).toBe(0);
    for (const e of events) expect(e.metadata?.['skein_invented']).toContain('timestamp');
    expect(
      diagnostics.filter((d) => d.code === 'value_invented' && d.message.includes('timestamp')),
    ).toHaveLength(1);
  });

  it('agent-only capture: implicit turns, repeated final chunk kept, tool from permission, unfinished turn', async () => {
    const r = await checkImport(own('agent-only.jsonl'), 'acp', {
      allowDiagnostics: ['acp_unclosed'],
    });
    await expect(r.dump).toMatchFileSnapshot('__snapshots__/acp/agent-only.txt');
    const messages = byKind(r.events, 'message');
    expect(field(messages[0], 'content')).toBe('Hello!Hello!');
    expect(messages[0]!.span_id).toBe('turn-1');
    expect(field(tool(r.events, 'call_w'), 'result')).toBe('--- /dev/null\n+++ notes.md\n+# Notes');
    const begins = byKind(r.events, 'span_begin');
    expect(begins.map((b) => b.metadata?.['stop_reason'])).toEqual(['end_turn', 'unfinished']);
    expect(byKind(r.events, 'span_end')).toHaveLength(2);
    expect(r.diagnostics.find((d) => d.code === 'acp_unclosed')?.severity).toBe('warning');
  });

  it('v2 draft shapes: message patches, upsert-only tools, content chunks, state_update, plan ids', async () => {
    const r = await checkImport(own('v2-draft.jsonl'), 'acp');
    await expect(r.dump).toMatchFileSnapshot('__snapshots__/acp/v2-draft.txt');
    const m1 = r.events.find((e) => field(e, 'message_id') === 'm1');
    expect(field(m1, 'content')).toBe('A small TypeScript library.');
    const c1 = tool(r.events, 'c1')!;
    expect(field(c1, 'result')).toBe('src/\ntest/');
    expect(field(c1, 'error')).toEqual({ type: 'cancelled', message: 'src/\ntest/' });
    expect(field(byKind(r.events, 'display')[0], 'display_id')).toBe('plan:p1');
    expect(byKind(r.events, 'span_begin').map((b) => b.metadata?.['stop_reason'])).toEqual([
      'end_turn',
    ]);
    expect(r.diagnostics.map((d) => d.code)).not.toContain('acp_unknown_update');
  });

  it('streaming one line at a time gives the same latest events as the whole file', async () => {
    for (const name of ['session.jsonl', 'agent-only.jsonl', 'v2-draft.jsonl']) {
      const text = own(name);
      const whole = importAcp(text).events;
      expect(streamed(text), name).toEqual(whole);
      const stream = new EventStream();
      const lines = text.split('\n').map((l) => `${l}\n`);
      const it = streamImport(
        (async function* () {
          yield* lines;
        })(),
      );
      for await (const batch of it) for (const e of batch) stream.append(e);
      expect(stream.latest(), `${name} via streamImport`).toEqual(whole);
    }
  });

  it('detects ACP from either side of the connection, and not other JSON-RPC', () => {
    expect(isAcp('{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn"}}')).toBe(true);
    expect(isAcp('{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[]}}')).toBe(true);
    expect(isAcp('{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}')).toBe(false);
    expect(detectFormat('{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}').format).toBe(null);
  });

  it('keeps records that are not ACP messages as info events', () => {
    const r = importAcp('{"type":"text","text":"a fragment"}\n[1,2]\n');
    expect(r.events.map((e) => [e.event, field(e, 'source')])).toEqual([
      ['info', 'acp'],
      ['info', 'acp'],
    ]);
    expect(r.diagnostics.filter((d) => d.code === 'acp_unknown_record')).toHaveLength(2);
  });

  it('shows hostile values in tool content as JSON text: nested thousands deep, or a prototype key as a kind', () => {
    const deep = '['.repeat(5000) + '1' + ']'.repeat(5000);
    const update = (u: string) =>
      `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":${u}}}`;
    const r = importAcp(
      [
        update(
          `{"sessionUpdate":"tool_call","toolCallId":"c1","title":"t","status":"completed","content":[{"type":"diff","path":${deep},"newText":"x"},{"type":"terminal","terminalId":[1,2]}]}`,
        ),
        update(`{"sessionUpdate":"plan","entries":[{"content":{"a":1},"status":"pending"}]}`),
        update('{"sessionUpdate":"__proto__","content":{"type":"text","text":"hi"}}'),
        `{"jsonrpc":"2.0","id":7,"method":"terminal/create","params":{"sessionId":"s","command":"ls","args":["-l",${deep}]}}`,
        `{"jsonrpc":"2.0","id":7,"error":{"code":${deep},"message":"no"}}`,
      ].join('\n'),
    );
    const result = String(field(tool(r.events, 'c1'), 'result'));
    expect(result).toContain('+++ [value nested too deep to show as text]');
    expect(result).toContain('[terminal [1,2]]');
    expect(r.events.some((e) => e.event === 'message')).toBe(false);
    expect(r.events.find((e) => e.event === 'sandbox')).toMatchObject({
      cmd: 'ls -l [value nested too deep to show as text]',
    });
    expect(
      field(
        r.events.find((e) => e.event === 'error'),
        'error',
      ),
    ).toMatchObject({
      message: 'terminal/create: no (code [value nested too deep to show as text])',
    });
  });
});

describeFixtures('ACP importer: real captures (../shared/fixtures/acp)', () => {
  it('the Codex bridge capture (agent side only, repeated final chunk)', async () => {
    const r = await checkImport(
      readFixture('acp', 'acplazybridge-codex-streaming-capture.jsonl'),
      'acp',
      { filename: 'acplazybridge-codex-streaming-capture.jsonl' },
    );
    await expect(r.dump).toMatchFileSnapshot('__snapshots__/acp/real-codex-capture.txt');
    expect(field(byKind(r.events, 'message')[0], 'content')).toBe('Hello!Hello!');
    expect(byKind(r.events, 'span_begin')[0]!.metadata?.['stop_reason']).toBe('end_turn');
  });

  it('the spec examples import with no warnings but unclosed requests (fragments kept as info)', async () => {
    const files = listFixtures('acp/spec-v1-doc-examples', '.jsonl');
    expect(files.length).toBeGreaterThan(10);
    const dumps: string[] = [];
    for (const file of files) {
      const bytes = readFixture(file);
      const detected = detectFormat(bytes).format;
      const r = await importAny(bytes, { format: 'acp' });
      expect(
        r.diagnostics.filter((d) => d.severity === 'warning' && d.code !== 'acp_unclosed'),
        file,
      ).toEqual([]);
      expect(r.events.length, file).toBeGreaterThan(0);
      dumps.push(`## ${file.split('/').pop()} (detected: ${detected})\n${dumpImport(r)}`);
    }
    await expect(dumps.join('\n')).toMatchFileSnapshot('__snapshots__/acp/real-spec-examples.txt');
  });
});
