// The hostile-shape corpus (src/core/generate/hostile.ts) through every
// `skein` command: each shape as a file (in `npm test` one format per shape,
// the canonical one where it has it; with `HOSTILE_SIZE=full` every format), and
// each command gives its output or a one-line typed error (exit 2), never a
// stack trace or a crash, within its CPU budget. `convert`'s output parses.
// A failure prints the command that replays it.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/server.js';
import {
  HOSTILE_FORMATS,
  HOSTILE_SHAPES,
  hostileCase,
  type HostileCase,
  type HostileFormat,
} from '../../src/core/generate/hostile.js';
import type { FormatId } from '../../src/index.js';
import {
  HOSTILE_CPU_LIMIT_S,
  HOSTILE_RUN_FULL,
  HOSTILE_SEED,
  HOSTILE_SIZES,
  cpuSeconds,
  hostilePairs,
  prototypeSnapshot,
  replayCommand,
} from '../core/helpers/hostile.js';

const FILE = 'test/node/cli-hostile.test.ts';

/** The cases: every pair at full size; else per shape the first format in this order that has it. */
function pairs(): [HostileFormat, (typeof HOSTILE_SHAPES)[number]][] {
  const all = hostilePairs(HOSTILE_FORMATS, HOSTILE_SHAPES);
  if (HOSTILE_RUN_FULL || process.env['HOSTILE']) return all;
  const preferred: FormatId[] = ['skein', 'otlp', 'claude-code', 'defect', 'agex', 'jupyter'];
  return HOSTILE_SHAPES.flatMap((shape) => {
    const format = preferred.find((f) => all.some(([g, s]) => g === f && s === shape));
    return format ? [[format, shape] as [HostileFormat, typeof shape]] : [];
  });
}

async function cli(argv: string[], signal?: AbortSignal) {
  let out = '';
  let err = '';
  const code = await runCli(argv, {
    stdout: (t) => (out += t),
    stderr: (t) => (err += t),
    columns: 100,
    viewerDir: null,
    ...(signal ? { signal } : {}),
  });
  return { code, out, err };
}

/** A server command (`serve`, `view`): started, asked once over HTTP, stopped. */
async function served(argv: string[], path: (url: string) => string) {
  const abort = new AbortController();
  let out = '';
  let err = '';
  const done = runCli([...argv, '--port', '0'], {
    stdout: (t) => (out += t),
    stderr: (t) => (err += t),
    signal: abort.signal,
    viewerDir: null,
  });
  const deadline = Date.now() + 60_000;
  while (!/http:\/\/\S+/.test(out) && err === '' && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 20));
  let status = 0;
  const url = /http:\/\/\S+/.exec(out)?.[0];
  if (url) {
    const res = await fetch(path(new URL(url).origin), { signal: AbortSignal.timeout(30_000) });
    status = res.status;
    // A stream (SSE) has no end: its first bytes are enough.
    const reader = res.body!.getReader();
    await reader.read();
    await reader.cancel();
  }
  abort.abort();
  return { code: await done, out, err, status };
}

/** What every command's result must be: output, or one typed line on stderr. */
function problemsOf(name: string, r: { code: number; out: string; err: string }): string[] {
  const problems: string[] = [];
  if (r.code !== 0 && r.code !== 2)
    problems.push(`${name}: exit ${r.code}: ${r.err.slice(0, 300)}`);
  if (/\n\s+at /.test(r.err)) problems.push(`${name}: a stack trace on stderr`);
  if (r.code === 2 && !/\[[a-z_]+\]/.test(r.err))
    problems.push(`${name}: an error without its code`);
  if (r.code === 0 && r.out === '') problems.push(`${name}: no output`);
  return problems;
}

describe(`skein on hostile shapes (seed ${HOSTILE_SEED})`, () => {
  it.each(pairs())(
    '%s / %s',
    async (format, shape) => {
      const c: HostileCase = hostileCase(format, shape, HOSTILE_SIZES, HOSTILE_SEED)!;
      const file = join(mkdtempSync(join(tmpdir(), 'skein-hostile-')), c.filename);
      writeFileSync(file, c.input);
      const before = prototypeSnapshot();
      const problems: string[] = [];
      const commands: string[][] = [
        ['info', file],
        ['info', file, '--json'],
        ['replay', file],
        ['tree', file],
        ['tree', file, '--mode', 'events'],
        ['tree', file, '--mode', 'outline'],
        ['ascii', file],
        ['svg', file],
        ['convert', file, '--to', 'jsonl'],
        ['convert', file, '--to', 'json'],
      ];
      for (const argv of commands) {
        const [r, cpu] = await cpuSeconds(() => cli(argv));
        const name = argv.filter((a) => a !== file).join(' ');
        problems.push(...problemsOf(name, r));
        if (cpu > HOSTILE_CPU_LIMIT_S) problems.push(`${name}: ${cpu.toFixed(2)} CPU-s`);
        if (argv[0] === 'convert' && r.code === 0) {
          // What convert wrote reads back: one JSON value per line, or one document.
          const texts = argv[3] === 'jsonl' ? r.out.split('\n').filter(Boolean) : [r.out];
          try {
            for (const t of texts) JSON.parse(t);
          } catch (e) {
            problems.push(`${name}: output is not JSON (${String(e)})`);
          }
        }
      }
      const serve = await served(['serve', file], (u) => `${u}/`);
      problems.push(...problemsOf('serve', { ...serve, out: serve.out || 'x' }));
      if (serve.out !== '' && serve.status !== 200) problems.push(`serve: HTTP ${serve.status}`);
      const view = await served(['view', file], (u) => `${u}/api/list`);
      problems.push(...problemsOf('view', { ...view, out: view.out || 'x' }));
      if (view.out !== '' && view.status !== 200) problems.push(`view: HTTP ${view.status}`);
      if (prototypeSnapshot() !== before) problems.push('a prototype gained or lost a property');
      expect(problems, `${c.name}\nreplay: ${replayCommand(c, 'node', FILE)}`).toEqual([]);
    },
    600_000,
  );
});
