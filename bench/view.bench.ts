/**
 * `skein view` under a flood, the server in its own process (bench/server-child.ts):
 * - `node.view.flood.<files>`: ms until 2,000 concurrent `GET /api/file/…`
 *   requests spread over a folder of 400 logs are all answered in full, on a
 *   server that has not listed the folder yet (the listing is made inside the
 *   measure); `.warm` the same flood again;
 * - `….server-cpu`: the server's CPU time for that flood (what wall time
 *   would be on an idle machine, less the clients' share of it);
 * - `node.view.flood.peak-rss`: the server's peak resident memory during the
 *   cold flood (target: under 300 MB).
 * Before, every request listed the folder again: 20 s and 2.3 GB.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { quantile } from './harness.js';
import { defineBench } from './node.js';

interface Usage {
  cpuMs: number;
  rssMB: number;
  peakMB: number;
}

/** A server process; `ask` sends a message and resolves with the next answer. */
export async function startServer(args: string[]) {
  const child: ChildProcess = fork(
    fileURLToPath(new URL('./server-child.ts', import.meta.url)),
    args,
    { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  const next = () =>
    new Promise<Record<string, unknown>>((ok) =>
      child.once('message', (m) => ok(m as Record<string, unknown>)),
    );
  const { port } = (await next()) as { port: number };
  return {
    port,
    async usage(): Promise<Usage> {
      const answer = next();
      child.send('usage');
      return (await answer) as unknown as Usage;
    },
    async resetPeak(): Promise<void> {
      const answer = next();
      child.send('reset');
      await answer;
    },
    stop(): Promise<void> {
      return new Promise((ok) => {
        child.once('exit', () => ok());
        child.send('exit');
      });
    },
  };
}

/** GETs `path` on a new connection; resolves with the body's length (rejects on a non-200). */
function fetchLength(port: number, path: string): Promise<number> {
  return new Promise((ok, fail) => {
    const req = http.get(
      { host: '127.0.0.1', port, path, agent: false, headers: { host: `127.0.0.1:${port}` } },
      (res) => {
        let length = 0;
        res.on('data', (c: Buffer) => (length += c.length));
        res.on('end', () =>
          res.statusCode === 200 ? ok(length) : fail(new Error(`${path}: ${res.statusCode}`)),
        );
        res.on('error', fail);
      },
    );
    req.on('error', fail);
  });
}

export default defineBench({
  name: 'node.view',
  async run(ctx) {
    const files = 400;
    const requests = ctx.size(2000, 500);
    const dir = mkdtempSync(join(tmpdir(), 'skein-bench-view-'));
    const t0 = Date.UTC(2026, 0, 1);
    const sizes: number[] = [];
    for (let f = 0; f < files; f++) {
      let text = '';
      for (let k = 0; k < 150; k++)
        text += `${JSON.stringify({ event: 'info', uuid: `f${f}-e${k}`, timestamp: new Date(t0 + k).toISOString(), data: `file ${f} line ${k}` })}\n`;
      writeFileSync(join(dir, `run-${String(f).padStart(3, '0')}.jsonl`), text);
      sizes.push(Buffer.byteLength(text));
    }
    const flood = async (port: number) => {
      const start = performance.now();
      const lengths = await Promise.all(
        Array.from({ length: requests }, (_, i) =>
          fetchLength(port, `/api/file/run-${String(i % files).padStart(3, '0')}.jsonl`),
        ),
      );
      const ms = performance.now() - start;
      lengths.forEach((n, i) => {
        if (n !== sizes[i % files]) throw new Error(`request ${i}: ${n} bytes`);
      });
      return ms;
    };
    const server = await startServer(['view', dir]);
    try {
      await server.resetPeak();
      const before = await server.usage();
      const cold = await flood(server.port);
      const { peakMB, cpuMs } = await server.usage();
      const warm: number[] = [];
      const warmCpu: number[] = [];
      for (let i = 0; i < 3; i++) {
        const t = (await server.usage()).cpuMs;
        warm.push(await flood(server.port));
        warmCpu.push((await server.usage()).cpuMs - t);
      }
      const label = `${ctx.label(requests)}x${files}`;
      ctx.record({
        name: `node.view.flood.${label}`,
        value: cold,
        unit: 'ms',
        n: requests,
        target: '≤ 2000 ms',
      });
      ctx.record({
        name: `node.view.flood.${label}.warm`,
        value: quantile(warm, 0.5),
        unit: 'ms',
        n: requests,
      });
      ctx.record({
        name: `node.view.flood.${label}.server-cpu`,
        value: cpuMs - before.cpuMs,
        unit: 'ms',
        n: requests,
      });
      ctx.record({
        name: `node.view.flood.${label}.warm.server-cpu`,
        value: quantile(warmCpu, 0.5),
        unit: 'ms',
        n: requests,
      });
      ctx.record({
        name: 'node.view.flood.peak-rss',
        value: peakMB,
        unit: 'MB',
        target: '< 300 MB',
      });
    } finally {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  },
});
