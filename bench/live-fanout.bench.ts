/**
 * One live history, many clients (`createEventStreamHandler`, the server in
 * its own process: bench/server-child.ts), each replaying all of it to the
 * `live` marker over plain SSE (no gzip: the clients do not ask for it):
 * - `node.live.fanout.<clients>x<n>.cpu-per-client`: the server's CPU time
 *   per client with `clients` at once, against one client alone (target
 *   ≤ 1.2×), both on a server warmed by one replay (see `measure`), so the
 *   ratio is the cost of many connections at once. Each entry's text is made
 *   once and shared by every connection; before, each connection serialized
 *   every event again (the warm-up replay then made nothing cheaper).
 * - `….wall`: ms until every client has the whole history.
 */
import net from 'node:net';
import { defineBench } from './node.js';
import { startServer } from './view.bench.js';

const MARKER = Buffer.from('event: live');

/**
 * Reads `/` until `event: live` arrives; resolves with the bytes read. Raw
 * bytes over a plain socket, searched as bytes: the clients share the
 * machine with the server, so they should cost as little as they can.
 */
function replay(port: number): Promise<number> {
  return new Promise((ok, fail) => {
    const socket = net.connect(port, '127.0.0.1', () =>
      socket.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`),
    );
    let bytes = 0;
    let tail: Buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      // The marker may straddle two chunks: search the end of the last one too.
      const found =
        chunk.indexOf(MARKER) >= 0 ||
        Buffer.concat([tail, chunk.subarray(0, MARKER.length)]).indexOf(MARKER) >= 0;
      if (found) {
        socket.destroy();
        ok(bytes);
      }
      tail = chunk.subarray(Math.max(0, chunk.length - MARKER.length));
    });
    socket.on('error', fail);
    socket.on('end', () => fail(new Error(`the stream ended before live (${bytes} bytes)`)));
  });
}

/**
 * A fresh server with `n` events, warmed by one client's replay (untimed: it
 * makes the entries' text and compiles the hot paths); then `clients` replay
 * at once. The server's CPU ms and the wall ms of that.
 */
async function measure(n: number, clients: number): Promise<{ cpuMs: number; wallMs: number }> {
  const server = await startServer(['live', String(n)]);
  try {
    await replay(server.port);
    await new Promise((r) => setTimeout(r, 200));
    const before = (await server.usage()).cpuMs;
    const start = performance.now();
    await Promise.all(Array.from({ length: clients }, () => replay(server.port)));
    const wallMs = performance.now() - start;
    // Let the server finish its side of the closed connections.
    await new Promise((r) => setTimeout(r, 200));
    return { cpuMs: (await server.usage()).cpuMs - before, wallMs };
  } finally {
    await server.stop();
  }
}

export default defineBench({
  name: 'node.live.fanout',
  async run(ctx) {
    const n = ctx.size(100_000, 20_000);
    const clients = ctx.size(500, 100);
    const label = `${clients}x${ctx.label(n)}`;
    const ones: number[] = [];
    for (let i = 0; i < 3; i++) ones.push((await measure(n, 1)).cpuMs);
    const one = [...ones].sort((a, b) => a - b)[1]!;
    const many = await measure(n, clients);
    const baseline = {
      name: `node.live.fanout.1x${ctx.label(n)}.cpu`,
      value: one,
      unit: 'ms' as const,
      n,
    };
    ctx.record(baseline);
    ctx.record(
      {
        name: `node.live.fanout.${label}.cpu-per-client`,
        value: many.cpuMs / clients,
        unit: 'ms',
        n,
        target: '≤ 1.2×',
      },
      baseline,
    );
    ctx.record({ name: `node.live.fanout.${label}.wall`, value: many.wallMs, unit: 'ms', n });
  },
});
