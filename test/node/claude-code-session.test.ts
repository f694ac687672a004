import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ImportError, importClaudeCode, type Event } from '../../src/index.js';
import { readClaudeCodeSession } from '../../src/server.js';

const fixture = (name: string) =>
  fileURLToPath(new URL(`../fixtures/claude-code/${name}`, import.meta.url));

/**
 * The on-disk layout of a newer Claude Code project, built from the project's
 * own fixtures: `<project>/sess-1.jsonl` and `<project>/sess-1/subagents/agent-f00d.jsonl`.
 */
function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'skein-cc-'));
  copyFileSync(fixture('with-subagent.jsonl'), join(dir, 'sess-1.jsonl'));
  mkdirSync(join(dir, 'sess-1', 'subagents'), { recursive: true });
  copyFileSync(fixture('agent-f00d.jsonl'), join(dir, 'sess-1', 'subagents', 'agent-f00d.jsonl'));
  return dir;
}

const agentSpan = (events: readonly Event[]) =>
  events.find((e) => e.event === 'span_begin' && (e as { type?: string }).type === 'agent') as
    (Event & { id: string; name: string }) | undefined;

describe('readClaudeCodeSession', () => {
  it('reads the session file with its sub-agent files, nested under the Task call', async () => {
    const dir = project();
    const r = await readClaudeCodeSession(join(dir, 'sess-1.jsonl'));
    expect(r.format).toBe('claude-code');
    expect(r.files.subagents).toEqual({
      f00d: join(dir, 'sess-1', 'subagents', 'agent-f00d.jsonl'),
    });
    const agent = agentSpan(r.events)!;
    expect(agent.name).toBe('researcher');
    expect(r.events.filter((e) => e.span_id === agent.id).map((e) => e.event)).toEqual([
      'span_begin',
      'message',
      'model',
      'span_end',
    ]);
  });

  it('gives the same import from the session folder, the project folder, or the text and sub-agents', async () => {
    const dir = project();
    const byFile = await readClaudeCodeSession(join(dir, 'sess-1.jsonl'));
    const byFolder = await readClaudeCodeSession(join(dir, 'sess-1'));
    const byProject = await readClaudeCodeSession(dir);
    expect(byFolder.events).toEqual(byFile.events);
    expect(byProject.events).toEqual(byFile.events);
    const direct = importClaudeCode(readFileSync(fixture('with-subagent.jsonl'), 'utf8'), {
      filename: 'sess-1.jsonl',
      subagents: { f00d: readFileSync(fixture('agent-f00d.jsonl'), 'utf8') },
    });
    expect(byFile.events).toEqual(direct.events);
  });

  it('reads a session without sub-agent files as it is', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skein-cc-'));
    copyFileSync(fixture('session.jsonl'), join(dir, 'only.jsonl'));
    const r = await readClaudeCodeSession(join(dir, 'only.jsonl'));
    expect(r.files.subagents).toEqual({});
    expect(r.events.length).toBeGreaterThan(0);
  });

  it('throws a typed error for a missing path or a folder with several sessions', async () => {
    const dir = project();
    writeFileSync(join(dir, 'sess-2.jsonl'), '');
    const missing = readClaudeCodeSession(join(dir, 'nope.jsonl'));
    await expect(missing).rejects.toBeInstanceOf(ImportError);
    await expect(missing).rejects.toMatchObject({ code: 'claude_code_session_not_found' });
    await expect(readClaudeCodeSession(dir)).rejects.toMatchObject({
      code: 'claude_code_session_not_found',
      message: expect.stringContaining('2 sessions') as unknown,
    });
  });
});
