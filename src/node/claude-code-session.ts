// A Claude Code session as it lies on disk ("a folder import that
// takes the session file plus its sub-agent files"): newer versions write
// `~/.claude/projects/<encoded-cwd>/<sessionId>.jsonl` and, beside it, a
// folder `<sessionId>/subagents/agent-<id>.jsonl` per sub-agent. The importer
// itself stays pure (`importClaudeCode(text, { subagents })`); this reader
// finds the files.
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ImportError } from '../core/errors.js';
import type { ImportOptions } from '../core/import/guards.js';
import type { ImportResult } from '../core/import/format.js';
import { importClaudeCode } from '../core/import/claude-code/claude-code.js';

/** What {@link readClaudeCodeSession} read, besides the import itself. */
export interface ClaudeCodeSessionFiles {
  /** The session file. */
  readonly session: string;
  /** The sub-agent files folded in, by agent id. */
  readonly subagents: Readonly<Record<string, string>>;
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

/** The session file a path names: the file itself, `<dir>.jsonl` beside a session folder, or a folder's only session. */
async function sessionFile(path: string): Promise<string> {
  if (await isFile(path)) return path;
  if (!(await isDirectory(path)))
    throw new ImportError('claude_code_session_not_found', path, 'no such file or folder');
  const trimmed = path.replace(/[\\/]+$/, '');
  const beside = `${trimmed}.jsonl`;
  if (await isFile(beside)) return beside;
  const sessions = (await readdir(trimmed)).filter(
    (name) => name.endsWith('.jsonl') && !name.startsWith('agent-'),
  );
  if (sessions.length === 1) return join(trimmed, sessions[0]!);
  throw new ImportError(
    'claude_code_session_not_found',
    path,
    sessions.length === 0
      ? 'the folder holds no session file'
      : `the folder holds ${sessions.length} sessions; name one`,
  );
}

/**
 * Reads a Claude Code session from disk with its sub-agent files and imports
 * it: give the session file (`<sessionId>.jsonl`), its folder
 * (`<sessionId>/`), or a project folder holding one session. Sub-agents from
 * `<sessionId>/subagents/agent-<id>.jsonl` nest under the Task calls that
 * spawned them. A missing session is an `ImportError` with code
 * `claude_code_session_not_found`.
 *
 * @example
 * import { readClaudeCodeSession } from 'skein/server';
 * const { events, files } = await readClaudeCodeSession('~/.claude/projects/-repo/3f2a.jsonl');
 */
export async function readClaudeCodeSession(
  path: string,
  options: ImportOptions = {},
): Promise<ImportResult & { files: ClaudeCodeSessionFiles }> {
  const session = await sessionFile(path);
  const text = await readFile(session, 'utf8');
  const folder = join(dirname(session), basename(session).replace(/\.jsonl$/i, ''), 'subagents');
  const subagents: Record<string, string> = {};
  const files: Record<string, string> = {};
  if (await isDirectory(folder)) {
    for (const name of (await readdir(folder)).sort()) {
      const match = /^agent-(.+)\.jsonl$/i.exec(name);
      if (!match) continue;
      const file = join(folder, name);
      subagents[match[1]!] = await readFile(file, 'utf8');
      files[match[1]!] = file;
    }
  }
  const result = importClaudeCode(text, {
    filename: basename(session),
    ...options,
    subagents,
  });
  return { ...result, files: { session, subagents: files } };
}
