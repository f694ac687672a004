// `skein diff`: two logs (any formats, two samples or epochs of one log)
// compared step by step, as text or JSON, with git's --exit-code.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { errorMessage, type Event } from '../../src/index.js';
import { runCli } from '../../src/server.js';
import { header } from '../core/helpers/inspect-fixture.js';
import { run, type RunBuilder } from '../core/helpers/run-builder.js';

async function cli(...argv: string[]) {
  let out = '';
  let err = '';
  const code = await runCli(argv, {
    stdout: (t) => (out += t),
    stderr: (t) => (err += t),
    columns: 100,
  });
  return { code, out, err };
}

const body = (cmd: string) => (r: RunBuilder) =>
  r.span('solvers', 'solvers', (s) =>
    s.span('react', 'agent', (x) => {
      x.model('Look around.', { calls: ['bash'] });
      x.tool('bash', { cmd: 'ls' }, 'a b');
      x.model('Build it.', { calls: ['bash'] });
      x.tool('bash', { cmd }, 'ok');
    }),
  );

function jsonl(dir: string, name: string, events: readonly Event[]): string {
  const path = join(dir, name);
  writeFileSync(path, events.map((e) => JSON.stringify(e)).join('\n'));
  return path;
}

describe('skein diff', () => {
  const dir = mkdtempSync(join(tmpdir(), 'skein-diff-'));
  const a = jsonl(dir, 'a.jsonl', run('a', body('make')));
  const b = jsonl(dir, 'b.jsonl', run('b', body('make -j8')));
  const same = jsonl(dir, 'same.jsonl', run('c', body('make')));

  it('prints the text diff: both runs, the counts, the first divergence', async () => {
    const r = await cli('diff', a, b);
    expect(r.code).toBe(0);
    expect(r.err).toBe('');
    const lines = r.out.split('\n');
    expect(lines[0]).toBe(`--- ${a}: 8 steps, 220 tokens, 5.4 s, ok`);
    expect(lines[1]).toBe(`+++ ${b}: 8 steps, 220 tokens, 5.4 s, ok`);
    expect(r.out).toContain('@@ 6 same · 2 changed · 0 only in');
    expect(r.out).toContain('>>> first divergence (in solvers › react (agent) › turn 2)');
    expect(r.out).toMatch(/\n~ {7}bash \{"cmd":"make -j8"\} {2}\[arguments · \d+% alike\]\n/);
  });

  it('--exit-code: 1 when the runs differ, 0 when they are the same', async () => {
    expect((await cli('diff', a, b, '--exit-code')).code).toBe(1);
    const r = await cli('diff', a, same, '--exit-code');
    expect(r.code).toBe(0);
    expect(r.out).toContain('identical: 8 steps, all the same');
    // Without it, differing runs are not an error.
    expect((await cli('diff', a, b)).code).toBe(0);
  });

  it('--json prints the diff itself', async () => {
    const r = await cli('diff', a, b, '--json');
    const diff = JSON.parse(r.out) as { identical: boolean; counts: object; rows: unknown[] };
    expect(diff.identical).toBe(false);
    expect(diff.counts).toEqual({ same: 6, changed: 2, onlyA: 0, onlyB: 0 });
    expect(diff.rows).toHaveLength(8);
  });

  it('two epochs of one inspect sample (--epoch, --epoch-b)', async () => {
    const events = (epoch: number) => [
      {
        event: 'span_begin',
        uuid: `s${epoch}`,
        span_id: 's',
        id: 's',
        name: 'solvers',
        type: 'solvers',
        timestamp: '2026-01-02T03:04:00+00:00',
      },
      {
        event: 'tool',
        uuid: `t${epoch}`,
        span_id: 's',
        timestamp: '2026-01-02T03:04:01+00:00',
        type: 'function',
        id: 'c',
        function: 'bash',
        arguments: { cmd: epoch === 1 ? 'pytest' : 'rm -rf tests' },
        result: '',
        events: [],
      },
      {
        event: 'span_end',
        uuid: `e${epoch}`,
        span_id: 's',
        id: 's',
        timestamp: '2026-01-02T03:04:02+00:00',
      },
    ];
    const sample = (epoch: number) => ({
      id: 7,
      epoch,
      input: 'x',
      target: 'y',
      messages: [],
      events: events(epoch),
    });
    const log = join(dir, 'log.json');
    writeFileSync(log, JSON.stringify({ ...header(), samples: [sample(1), sample(2)] }));
    const r = await cli(
      'diff',
      log,
      log,
      '--sample',
      '7',
      '--epoch',
      '1',
      '--epoch-b',
      '2',
      '--exit-code',
    );
    expect(r.code).toBe(1);
    expect(r.out.split('\n')[0]).toMatch(/^--- .*log\.json sample 7 epoch 1: 2 steps/);
    expect(r.out.split('\n')[1]).toMatch(/^\+\+\+ .*log\.json sample 7 epoch 2: 2 steps/);
    expect(r.out).toContain('bash {"cmd":"rm -rf tests"}');
    // The same epoch against itself.
    expect((await cli('diff', log, log, '--sample', '7', '--exit-code')).code).toBe(0);
  });

  it('two formats of one run: an OpenTelemetry export against its canonical events', async () => {
    const otlp = join(dir, 'run.otlp.json');
    writeFileSync(
      otlp,
      readFileSync(new URL('../fixtures/otlp/agent-chat-tool.otlp.json', import.meta.url)),
    );
    const converted = await cli('convert', otlp, '--to', 'jsonl');
    const canonical = join(dir, 'run.jsonl');
    writeFileSync(canonical, converted.out);
    const r = await cli('diff', otlp, canonical, '--exit-code');
    expect(r.code).toBe(0);
    expect(r.out).toContain('identical');
  });

  it('usage and input errors keep the CLI exit codes', async () => {
    const cases: [string[], number, string][] = [
      [['diff', a], 1, errorMessage('cli_missing_argument', 'the second log')],
      [['diff', a, b, b], 1, errorMessage('cli_unexpected_argument', b)],
      [['diff', a, b, '--frob'], 1, errorMessage('cli_unknown_option', '--frob')],
      [
        ['diff', a, join(dir, 'nope.jsonl')],
        3,
        errorMessage('cli_no_such_file', join(dir, 'nope.jsonl')),
      ],
      [['diff', a, b, '--sample', '1'], 1, errorMessage('cli_one_run', a, 'skein events')],
    ];
    for (const [argv, code, message] of cases) {
      const r = await cli(...argv);
      expect(r.code, argv.join(' ')).toBe(code);
      expect(r.err.startsWith(`skein: ${message}`), r.err).toBe(true);
    }
    expect((await cli('diff', '--help')).out).toContain('Usage: skein diff');
    expect((await cli('--help')).out).toContain('diff <a> <b>');
  });
});
