import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/server.js';

async function cli(...argv: string[]) {
  let out = '';
  let err = '';
  const code = await runCli(argv, { stdout: (t) => (out += t), stderr: (t) => (err += t) });
  return { code, out, err };
}

const t = (s: number) => `2026-03-01T10:00:${String(s).padStart(2, '0')}.000Z`;

/** A small inspect_ai .json log with two samples, written to a temp file. */
function writeLog(): string {
  const events = (tag: string) => [
    {
      event: 'span_begin',
      uuid: `${tag}-1`,
      timestamp: t(0),
      id: 'sp',
      name: 'solvers',
      type: 'solvers',
    },
    {
      event: 'info',
      uuid: `${tag}-2`,
      timestamp: t(2),
      span_id: 'sp',
      source: 'demo',
      data: `hello from ${tag}`,
    },
    { event: 'span_end', uuid: `${tag}-3`, timestamp: t(5), id: 'sp', span_id: 'sp' },
  ];
  const log = {
    version: 2,
    status: 'success',
    eval: { task: 'cli-task', model: 'mockllm/model', created: t(0), dataset: {}, config: {} },
    samples: [
      { id: 1, epoch: 1, input: 'q1', target: 'a1', messages: [], events: events('s1') },
      { id: 'two', epoch: 1, input: 'q2', target: 'a2', messages: [], events: events('s2') },
    ],
  };
  const dir = mkdtempSync(join(tmpdir(), 'skein-cli-'));
  const file = join(dir, 'log.json');
  writeFileSync(file, JSON.stringify(log));
  return file;
}

describe('skein info', () => {
  it('summarizes task, model, status and samples', async () => {
    const r = await cli('info', writeLog());
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/task: +cli-task/);
    expect(r.out).toMatch(/model: +mockllm\/model/);
    expect(r.out).toMatch(/status: +success/);
    expect(r.out).toMatch(/samples: 2\n\nid +epoch .*\n1 +1 .*\n"two" +1 /);
  });
  it('refuses a file that is not a log', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skein-cli-'));
    const file = join(dir, 'x.txt');
    writeFileSync(file, 'hello');
    const r = await cli('info', file);
    expect(r.code).toBe(2);
    expect(r.err).toContain('not a log skein can read: it is plain text (1 line)');
  });
  it('reports a missing file', async () => {
    const r = await cli('info', '/nonexistent/log.json');
    expect(r.code).toBe(3);
    expect(r.err).toBe('skein: /nonexistent/log.json: no such file\n');
  });
  it('needs a file', async () => {
    const r = await cli('info');
    expect(r.code).toBe(1);
    expect(r.err).toContain('missing the log file');
  });
});

describe('skein replay', () => {
  it('prints the first sample as a transcript by default', async () => {
    const r = await cli('replay', writeLog());
    expect(r.code).toBe(0);
    expect(r.out).toContain('hello from s1');
    expect(r.out).not.toContain('hello from s2');
    expect(r.out.endsWith('\n')).toBe(true);
    // One line per event, the info event indented inside its span.
    const lines = r.out.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    const indent = (s: string) => s.replace(/^\s*\+[\d.]+s/, '').search(/\S/);
    expect(indent(lines[1]!)).toBeGreaterThan(indent(lines[0]!));
  });
  it('picks a sample by id', async () => {
    const r = await cli('replay', writeLog(), '--sample', 'two');
    expect(r.code).toBe(0);
    expect(r.out).toContain('hello from s2');
  });
  it('fails with exit 3 (not found) for an unknown sample', async () => {
    const r = await cli('replay', writeLog(), '--sample', 'nope');
    expect(r.code).toBe(3);
    expect(r.err).toContain('No sample with id "nope" and epoch 1');
    expect(r.err).toMatch(/\[\w+\]/);
  });
  it('rejects a bad --epoch', async () => {
    const r = await cli('replay', writeLog(), '--epoch', 'x');
    expect(r.code).toBe(1);
    expect(r.err).toContain('--epoch');
  });
});

describe('skein ascii', () => {
  it('prints the swimlane at the given width', async () => {
    const r = await cli('ascii', writeLog(), '--width', '60');
    expect(r.code).toBe(0);
    const lines = r.out.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^main +│█+│/);
    // inspect's renderer draws lines width − 2 long (research/inspect_ai.md §3.6).
    for (const line of lines) expect([...line]).toHaveLength(58);
  });
  it('defaults to the terminal width, else 120', async () => {
    let out = '';
    await runCli(['ascii', writeLog()], {
      stdout: (t) => (out += t),
      stderr: () => {},
      columns: 90,
    });
    expect([...out.split('\n')[0]!]).toHaveLength(88);
    const r = await cli('ascii', writeLog());
    expect([...r.out.split('\n')[0]!]).toHaveLength(118);
  });
  it('rejects a silly width', async () => {
    const r = await cli('ascii', writeLog(), '--width', '5');
    expect(r.code).toBe(1);
    expect(r.err).toContain('--width');
  });
});

describe('skein svg', () => {
  it('prints a standalone SVG document', async () => {
    const r = await cli('svg', writeLog(), '--width', '640', '--theme', 'dark');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="640"/);
    expect(r.out.trimEnd().endsWith('</svg>')).toBe(true);
  });
  it('rejects an unknown theme', async () => {
    const r = await cli('svg', writeLog(), '--theme', 'neon');
    expect(r.code).toBe(1);
  });
});

describe('diagnostics on stderr', () => {
  it('counts routine repairs by code, and lists each with --verbose', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skein-cli-'));
    const file = join(dir, 'no-uuids.json');
    const events = [
      { event: 'info', timestamp: t(1), data: 'a' },
      { event: 'info', timestamp: t(2), data: 'b' },
    ];
    writeFileSync(
      file,
      JSON.stringify({
        version: 2,
        status: 'success',
        eval: { task: 't', model: 'm', created: t(0) },
        samples: [{ id: 1, epoch: 1, input: '', target: '', events }],
      }),
    );
    const quiet = await cli('replay', file);
    expect(quiet.code).toBe(0);
    expect(quiet.err).toMatch(/info: repaired while reading: 2 uuid_derived/);
    const verbose = await cli('replay', file, '--verbose');
    expect(
      verbose.err.match(/^info: \$\.samples\[0\]\.events\[\d\]\.uuid: .* \[uuid_derived\]$/gm),
    ).toHaveLength(2);
    expect(verbose.out).toBe(quiet.out);
  });
});
