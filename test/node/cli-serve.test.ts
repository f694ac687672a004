// `skein serve <log> [--live]`: a log over the SSE handler, on loopback.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connectEventStream } from '../../src/index.js';
import { runCli } from '../../src/server.js';
import { until } from './helpers/live.js';

const t = (ms: number) => new Date(Date.UTC(2026, 2, 1, 10) + ms).toISOString();

function writeLog(): string {
  const events = [
    { event: 'span_begin', uuid: 'a', timestamp: t(0), id: 'sp', name: 'solvers' },
    { event: 'info', uuid: 'b', timestamp: t(200), span_id: 'sp', data: 'hi' },
    { event: 'info', uuid: 'c', timestamp: t(60_000), span_id: 'sp', data: 'after idle' },
    { event: 'span_end', uuid: 'd', timestamp: t(60_400), id: 'sp', span_id: 'sp' },
  ];
  const log = {
    version: 2,
    status: 'success',
    eval: { task: 'x', model: 'm', created: t(0), dataset: {}, config: {} },
    samples: [{ id: 1, epoch: 1, input: 'q', target: 'a', messages: [], events }],
  };
  const file = join(mkdtempSync(join(tmpdir(), 'skein-serve-')), 'log.json');
  writeFileSync(file, JSON.stringify(log));
  return file;
}

async function serve(...args: string[]) {
  const abort = new AbortController();
  let out = '';
  let err = '';
  const done = runCli(['serve', writeLog(), '--port', '0', ...args], {
    stdout: (s) => (out += s),
    stderr: (s) => (err += s),
    signal: abort.signal,
  });
  await until(() => out.includes('http://') || err !== '', 'the server to listen');
  const url = /http:\/\/\S+\//.exec(out)![0];
  return { url, stop: () => abort.abort(), done, out: () => out };
}

describe('skein serve', () => {
  it('serves the log on 127.0.0.1 by default', async () => {
    const s = await serve();
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const client = connectEventStream(s.url);
    await until(() => client.status.getSnapshot().status === 'live', 'live');
    expect(client.stream.toArray().map((e) => e.uuid)).toEqual(['a', 'b', 'c', 'd']);
    client.close();
    s.stop();
    expect(await s.done).toBe(0);
  });

  it('--live plays at recorded speed, idle gaps capped', async () => {
    const s = await serve('--live', '--speed', '2', '--max-gap', '400');
    const client = connectEventStream(s.url);
    const t0 = Date.now();
    await until(() => client.stream.length === 4, 'the replay', 10_000);
    // Recorded: 200 ms, then 60 s of idle (capped to 400), then 400 ms; at 2×: ~500 ms.
    expect(Date.now() - t0).toBeGreaterThanOrEqual(350);
    await until(() => s.out().includes('replay finished'), 'the end of the replay');
    client.close();
    s.stop();
    expect(await s.done).toBe(0);
  });

  it('rejects a bad --speed', async () => {
    let err = '';
    const code = await runCli(['serve', writeLog(), '--speed', '0'], {
      stdout: () => {},
      stderr: (s) => (err += s),
    });
    expect(code).toBe(1);
    expect(err).toContain('--speed');
  });
});
