// `skein` on every format it reads (issue 22): our fixtures of each format
// through every command, stdin, folders, exit codes and the messages of user
// errors (never a stack trace). Real files from ../shared/fixtures too, when
// that folder is present.
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importAny } from '../../src/index.js';
import { runCli } from '../../src/server.js';
import { describeFixtures, fixturePath } from '../conformance/fixtures.js';
import { header, monolithSample } from '../core/helpers/inspect-fixture.js';

const fixtures = fileURLToPath(new URL('../fixtures/', import.meta.url));
const fixture = (p: string) => join(fixtures, p);

async function cli(argv: string[], stdin?: Uint8Array | string) {
  let out = '';
  let err = '';
  const code = await runCli(argv, {
    stdout: (t) => (out += t),
    stderr: (t) => (err += t),
    ...(stdin !== undefined
      ? {
          stdin: (async function* () {
            // Two chunks, as a pipe delivers them.
            const bytes = typeof stdin === 'string' ? new TextEncoder().encode(stdin) : stdin;
            const half = Math.floor(bytes.length / 2);
            yield bytes.subarray(0, half);
            yield bytes.subarray(half);
          })(),
        }
      : {}),
  });
  return { code, out, err };
}

/** No user error prints a stack: no `    at ` frames, no `Error:` prefix of a thrown object. */
function expectNoStack(err: string) {
  expect(err).not.toMatch(/^\s+at /m);
  expect(err).not.toMatch(/^(Type|Range|Syntax)?Error:/m);
}

const EVERY_FORMAT: [string, string][] = [
  ['inspect/zstd-zip64.eval', 'inspect'],
  ['otlp/agent-chat-tool.otlp.json', 'otlp'],
  ['jupyter/agent notebook.ipynb', 'jupyter'],
  ['claude-code/with-subagent.jsonl', 'claude-code'],
  ['openhands/events-v1.jsonl', 'openhands'],
  ['openhands/trajectory-v0.json', 'openhands'],
  ['acp/session.jsonl', 'acp'],
  ['defect/events.jsonl', 'defect'],
  ['agex/agex-ts.jsonl', 'agex'],
  ['cantus/run.json', 'cantus'],
  ['skein/run.jsonl', 'skein'],
];

describe.each(EVERY_FORMAT)('skein on %s', (file, format) => {
  const path = fixture(file);

  it(`info names the format (${format}) and lists its samples`, async () => {
    const r = await cli(['info', path]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(new RegExp(`^format: .*\\(${format}\\)$`, 'm'));
    expect(r.out).toMatch(/^id +epoch +scores +tokens +duration +status +error$/m);
    const json = await cli(['info', path, '--json']);
    const doc = JSON.parse(json.out) as { format: string; samples: { status: string }[] };
    expect(doc.format).toBe(format);
    expect(doc.samples.length).toBeGreaterThan(0);
    for (const s of doc.samples)
      expect(['ok', 'error', 'limit', 'cancelled', 'running']).toContain(s.status);
  });

  it('replay, tree, ascii and svg print the first sample', async () => {
    const { events } = await importAny(new Uint8Array(readFileSync(path)));
    const replay = await cli(['replay', path]);
    expect(replay.code).toBe(0);
    expect(replay.out.trimEnd().split('\n')).toHaveLength(events.length);
    const tree = await cli(['tree', path, '--mode', 'events', '--width', '100']);
    expect(tree.code).toBe(0);
    const lines = tree.out.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(0);
    for (const l of lines) expect([...l].length).toBeLessThanOrEqual(100);
    const ascii = await cli(['ascii', path, '--width', '80']);
    expect(ascii.code).toBe(0);
    expect(ascii.out.length).toBeGreaterThan(0);
    const svg = await cli(['svg', path]);
    expect(svg.code).toBe(0);
    expect(svg.out).toMatch(/^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  });

  it('convert gives canonical events that read back as the same events', async () => {
    const { events } = await importAny(new Uint8Array(readFileSync(path)));
    for (const to of ['jsonl', 'json']) {
      const r = await cli(['convert', path, '--to', to]);
      expect(r.code).toBe(0);
      const back = await importAny(r.out);
      expect(back.format).toBe('skein');
      expect(back.events.map((e) => e.uuid)).toEqual(events.map((e) => e.uuid));
      expect(JSON.parse(JSON.stringify(back.events))).toEqual(JSON.parse(JSON.stringify(events)));
    }
  });

  it('reads the same log from stdin with -', async () => {
    const bytes = new Uint8Array(readFileSync(path));
    const fromFile = await cli(['convert', path]);
    const fromStdin = await cli(['convert', '-'], bytes);
    expect(fromStdin.code).toBe(0);
    expect(fromStdin.out).toBe(fromFile.out);
  });
});

describe('samples and epochs', () => {
  const evalLog = fixture('inspect/zstd-zip64.eval');
  it('--sample picks a sample; an unknown one exits 3', async () => {
    const first = await cli(['convert', evalLog]);
    const two = await cli(['convert', evalLog, '--sample', 'two']);
    expect(two.code).toBe(0);
    expect(two.out).not.toBe(first.out);
    const none = await cli(['replay', evalLog, '--sample', 'nine']);
    expect(none.code).toBe(3);
    expect(none.err).toMatch(/No sample with id "nine" and epoch 1.*\[sample_not_found\]/);
    const epoch = await cli(['replay', evalLog, '--epoch', '4']);
    expect(epoch.code).toBe(3);
    expect(epoch.err).toContain('epoch 4');
  });
  it('--sample on a single-run format is a usage error', async () => {
    const r = await cli(['replay', fixture('acp/session.jsonl'), '--sample', '1']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/acp\/session\.jsonl \(Agent Client Protocol.*\) holds one run/);
  });
  it('info sorts samples by id and shows scores', async () => {
    const r = await cli(['info', evalLog]);
    // (No tokens in these samples; their duration is read from their events.)
    expect(r.out).toMatch(/\n1 +1 +C +6\.0 s +ok\n"two" +1 +C +6\.0 s +ok\n$/);
  });
});

describe('user errors: a message, an exit code, no stack', () => {
  it('a directory where a file is expected: exit 2, says what to run', async () => {
    const r = await cli(['replay', fixtures]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(
      /is a directory; expected a log file \(inspect_ai log, .*\)\. 'skein info /,
    );
    expectNoStack(r.err);
  });
  it('a missing file: exit 3', async () => {
    for (const cmd of ['info', 'replay', 'tree', 'convert', 'view']) {
      const r = await cli([cmd, '/nonexistent/run.eval']);
      expect(r.code, cmd).toBe(3);
      expect(r.err).toBe('skein: /nonexistent/run.eval: no such file\n');
    }
  });
  it('a truncated .eval: exit 2, says it is a zip cut short', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skein-cli-'));
    const cut = join(dir, 'cut.eval');
    writeFileSync(cut, readFileSync(fixture('inspect/zstd-zip64.eval')).subarray(0, 3000));
    for (const cmd of ['info', 'replay']) {
      const r = await cli([cmd, cut]);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(
        /cut\.eval: a zip archive \(an inspect_ai \.eval\?\) that cannot be opened: Truncated zip archive.*\[zip_truncated\]\. The file may have been cut short/,
      );
      expectNoStack(r.err);
    }
  });
  it('a wrong format: exit 2, says what the file is and what was expected', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skein-cli-'));
    const file = join(dir, 'package.json');
    writeFileSync(file, JSON.stringify({ name: 'x', version: '1.0.0' }));
    const r = await cli(['tree', file]);
    expect(r.code).toBe(2);
    expect(
      r.err.startsWith(
        `skein: ${file}: not a log skein can read: it is a JSON document: an object with keys "name", "version". Expected one of: inspect_ai log, `,
      ),
    ).toBe(true);
    expectNoStack(r.err);
  });
  it('invalid JSON: exit 2 with the parser message and code', async () => {
    const r = await cli(['info', '-'], '{"version": 2, "eval": {');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^skein: <stdin>: .*\[invalid_json\]\n$/);
  });
  it('usage errors exit 1 and point at the command help', async () => {
    const cases: [string[], RegExp][] = [
      [['frobnicate'], /unknown command 'frobnicate'\nRun 'skein --help'/],
      [['info'], /missing the log file or folder\nRun 'skein info --help'/],
      [['replay', fixture('skein/run.jsonl'), '--bogus'], /unknown option '--bogus'/],
      [['tree', fixture('skein/run.jsonl'), '--mode', 'x'], /--mode is spans, events or outline/],
      [['convert', fixture('skein/run.jsonl'), '--to', 'xml'], /--to is jsonl or json/],
      [['convert', fixture('skein/run.jsonl'), '--to'], /--to needs a value/],
      [['view', fixtures, '--port', '70000'], /--port takes 0\.\.65535/],
      [['help', 'nope'], /no command 'nope'/],
    ];
    for (const [argv, message] of cases) {
      const r = await cli(argv);
      expect(r.code, argv.join(' ')).toBe(1);
      expect(r.err).toMatch(message);
      expectNoStack(r.err);
    }
  });
  it('--help per command, and the exit codes in the main help', async () => {
    for (const cmd of ['info', 'replay', 'tree', 'ascii', 'svg', 'convert', 'view', 'serve']) {
      const r = await cli([cmd, '--help']);
      expect(r.code).toBe(0);
      expect(r.out).toMatch(new RegExp(`^Usage: skein ${cmd} `));
      expect((await cli(['help', cmd])).out).toBe(r.out);
    }
    const help = await cli(['--help']);
    expect(help.out).toMatch(
      /Exit codes:\n {2}0 {2}ok\n {2}1 {2}usage.*\n {2}2 {2}unreadable or invalid input[\s\S]*\n {2}3 {2}not found/,
    );
  });
});

describe('diagnostics', () => {
  it('are counted by kind on stderr, listed with --verbose', async () => {
    const file = fixture('acp/session.jsonl');
    const quiet = await cli(['replay', file]);
    expect(quiet.err).toMatch(
      /^(info|warning): repaired while reading: (\d+ \w+(, )?)+ \(--verbose lists each\)\n$/,
    );
    const verbose = await cli(['replay', file, '--verbose']);
    const { diagnostics } = await importAny(new Uint8Array(readFileSync(file)));
    expect(verbose.err.trimEnd().split('\n')).toHaveLength(diagnostics.length);
    expect(verbose.err).toContain(`[${diagnostics[0]!.code}]`);
    expect(verbose.out).toBe(quiet.out);
  });

  it('counts every repair of a kind, past the 100 listed', async () => {
    // An inspect log whose event holds 250 attachment refs that resolve to
    // nothing: 100 dangling_attachment listed, 150 counted in one truncation.
    const sample = monolithSample(1, 1) as { events: { data?: unknown }[] };
    sample.events[4]!.data = Array.from({ length: 250 }, (_, i) => `attachment://missing-${i}`);
    const dir = mkdtempSync(join(tmpdir(), 'skein-cli-'));
    const file = join(dir, 'dangling.json');
    writeFileSync(file, JSON.stringify({ ...header(), samples: [sample] }));
    const r = await cli(['replay', file]);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/\b250 dangling_attachment\b/);
    expect(r.err).not.toContain('diagnostics_truncated');
  });
});

describe('skein info <dir>', () => {
  function folder() {
    const dir = mkdtempSync(join(tmpdir(), 'skein-dir-'));
    copyFileSync(fixture('inspect/zstd-zip64.eval'), join(dir, 'eval-run.eval'));
    copyFileSync(fixture('acp/session.jsonl'), join(dir, 'session.jsonl'));
    mkdirSync(join(dir, 'nested'));
    copyFileSync(fixture('otlp/agent-chat-tool.otlp.json'), join(dir, 'nested', 'trace.json'));
    writeFileSync(join(dir, 'notes.json'), '{"todo": []}');
    writeFileSync(
      join(dir, 'cut.eval'),
      readFileSync(fixture('inspect/zstd-zip64.eval')).subarray(0, 900),
    );
    writeFileSync(join(dir, 'README.md'), '# not a log');
    writeFileSync(join(dir, '.hidden.jsonl'), '{}');
    // Newest first: give the files distinct times.
    const names = ['eval-run.eval', 'session.jsonl', 'nested/trace.json', 'notes.json', 'cut.eval'];
    names.forEach((n, i) =>
      utimesSync(join(dir, n), 1_700_000_000 + i * 60, 1_700_000_000 + i * 60),
    );
    return dir;
  }
  it('lists every log, newest first, and says what the bad ones are (exit 0)', async () => {
    const r = await cli(['info', folder()]);
    expect(r.code).toBe(0);
    const lines = r.out.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^name +format +samples +status$/);
    expect(lines.slice(1).map((l) => l.split(/ +/)[0])).toEqual([
      'cut.eval',
      'notes.json',
      'nested/trace.json',
      'session.jsonl',
      'eval-run.eval',
    ]);
    expect(r.out).toMatch(
      /\ncut\.eval +- +- +error: not a log skein can read: a zip archive that cannot be opened: Truncated zip/,
    );
    expect(r.out).toMatch(
      /\nnotes\.json +- +- +error: not a log skein can read: a JSON document: an object with keys "todo"/,
    );
    expect(r.out).toMatch(/\nnested\/trace\.json +otlp +1 +success/);
    expect(r.out).toMatch(/\neval-run\.eval +inspect +2 +success/);
    expect(r.out).not.toContain('README');
    expect(r.out).not.toContain('hidden');
  });
  it('--json gives the same rows', async () => {
    const r = await cli(['info', folder(), '--json']);
    const doc = JSON.parse(r.out) as {
      logs: { name: string; format: string | null; samples: number | null }[];
    };
    expect(doc.logs.find((l) => l.name === 'session.jsonl')).toMatchObject({
      format: 'acp',
      samples: 1,
    });
    expect(doc.logs.find((l) => l.name === 'notes.json')).toMatchObject({
      format: null,
      samples: null,
    });
  });
  it('an empty folder says so', async () => {
    const r = await cli(['info', mkdtempSync(join(tmpdir(), 'skein-empty-'))]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/: no logs \(looked for/);
  });
});

describeFixtures('skein on the shared real fixtures', () => {
  it.each([
    ['inspect_ai/logs/ais-decoder.eval', 'inspect'],
    ['inspect_ai/logs/2025-05-12T20-27-36-04-00_browser.json', 'inspect'],
    ['inspect_ai/logs/2025-02-11T15-18-04-05-00_popularity_mj7khqpMM4GBCfVQozKgzB.eval', 'inspect'],
    ['claude-code/claude-code-log-edge_cases.jsonl', 'claude-code'],
    ['acp/acplazybridge-codex-streaming-capture.jsonl', 'acp'],
    ['openhands/openhands-traj-basic.json', 'openhands'],
    ['openinference/genai-interlingua-openinference-openai.otlp.json', 'otlp'],
    ['otel-genai/genai-interlingua-vercel-ai-sdk.otlp.json', 'otlp'],
    ['jupyter/nbformat-many_tracebacks.ipynb', 'jupyter'],
  ])('%s: info, tree and convert', async (file, format) => {
    const path = fixturePath(file);
    const info = await cli(['info', path, '--json']);
    expect(info.code, info.err).toBe(0);
    expect((JSON.parse(info.out) as { format: string }).format).toBe(format);
    expect((await cli(['tree', path])).code).toBe(0);
    const converted = await cli(['convert', path]);
    expect(converted.code).toBe(0);
    expect((await importAny(converted.out)).format).toBe('skein');
  });
});
