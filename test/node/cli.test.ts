import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VERSION, errorMessage } from '../../src/index.js';
import { readLogFile, runCli } from '../../src/server.js';

async function cli(...argv: string[]) {
  let out = '';
  let err = '';
  const code = await runCli(argv, { stdout: (t) => (out += t), stderr: (t) => (err += t) });
  return { code, out, err };
}

describe('runCli', () => {
  it('prints the version', async () => {
    expect(await cli('--version')).toEqual({ code: 0, out: `${VERSION}\n`, err: '' });
    expect((await cli('version')).out).toBe(`${VERSION}\n`);
  });
  it('prints help with --help (exit 0) and with no command (exit 1)', async () => {
    const help = await cli('--help');
    expect(help.code).toBe(0);
    expect(help.out).toContain('Usage:');
    const none = await cli();
    expect(none.code).toBe(1);
    expect(none.out).toBe(help.out);
  });
  it('rejects an unknown command on stderr with exit 1 (usage)', async () => {
    const r = await cli('frobnicate', 'x');
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    expect(r.err).toContain("unknown command 'frobnicate'");
  });
  it('prints user errors from the catalogue: one line, no stack, the documented exit codes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skein-'));
    const missing = join(dir, 'nope.jsonl');
    const cases: [string[], number, string][] = [
      [['frobnicate'], 1, errorMessage('cli_unknown_command', 'frobnicate')],
      [
        ['tree', 'x', '--mode', 'odd'],
        1,
        errorMessage('cli_bad_option', '--mode', 'is spans, events or outline'),
      ],
      [['tree', 'a', 'b'], 1, errorMessage('cli_unexpected_argument', 'b')],
      [['tree', missing], 3, errorMessage('cli_no_such_file', missing)],
      [['tree', dir], 2, errorMessage('cli_is_directory', dir, '').split(' (')[0]!],
    ];
    for (const [argv, code, message] of cases) {
      const r = await cli(...argv);
      expect(r.code, argv.join(' ')).toBe(code);
      expect(r.err.startsWith(`skein: ${message}`), r.err).toBe(true);
      expect(r.err).not.toMatch(/\n\s+at /);
      expect(r.err.split('\n').filter(Boolean).length).toBeLessThanOrEqual(2); // + the --help hint
    }
  });
});

describe('readLogFile', () => {
  it('returns the bytes of a file as an owned Uint8Array', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skein-'));
    const file = join(dir, 'log.json');
    writeFileSync(file, '{"a":1}');
    const bytes = await readLogFile(file);
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect(bytes.byteOffset).toBe(0);
    expect(bytes.buffer.byteLength).toBe(7);
    expect(new TextDecoder().decode(bytes)).toBe('{"a":1}');
  });
  it('rejects for a missing file', async () => {
    await expect(readLogFile('/nonexistent/skein.json')).rejects.toThrow(/ENOENT/);
  });
});
