// Helpers of the live-feed tests: small events, a loopback server that can be
// restarted on the same port, and a fault-injecting TCP proxy.
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Event } from '../../../src/index.js';

/**
 * Small events for feeds of 100k: every 7th uuid comes twice, first
 * `pending`, then final (the same uuid; a client must keep both versions).
 */
export function liveEvents(count: number, offset = 0): Event[] {
  const out: Event[] = [];
  const t0 = Date.UTC(2026, 0, 1);
  for (let k = offset; out.length < count; k++) {
    const uuid = `e${k}`;
    const timestamp = new Date(t0 + k * 10).toISOString();
    if (k % 7 === 3) {
      out.push({
        event: 'model',
        uuid,
        timestamp,
        pending: true,
        model: 'm',
        n: k,
      } as unknown as Event);
      if (out.length < count)
        out.push({ event: 'model', uuid, timestamp, model: 'm', n: k } as unknown as Event);
    } else {
      out.push({ event: 'info', uuid, timestamp, data: `line ${k}` } as Event);
    }
  }
  return out;
}

/** A server on 127.0.0.1 that can be stopped and started again on the same port. */
export class RestartableServer {
  server: http.Server | null = null;
  port = 0;
  constructor(private readonly listener: () => http.RequestListener) {}

  async start(): Promise<number> {
    const server = http.createServer(this.listener());
    server.keepAliveTimeout = 100;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
    return this.port;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (server === null) return;
    this.server = null;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }
}

/**
 * A TCP proxy on 127.0.0.1 in front of `target()`, cutting each connection
 * after a random number of bytes from the server (mid-message, mid-line)
 * drawn by `budget()`; `Infinity` never cuts.
 */
export class FaultProxy {
  server: net.Server;
  port = 0;
  cuts = 0;
  readonly sockets = new Set<net.Socket>();
  constructor(
    private readonly target: () => number,
    private readonly budget: () => number,
  ) {
    this.server = net.createServer((client) => this.#connect(client));
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    this.port = (this.server.address() as AddressInfo).port;
    return `http://127.0.0.1:${this.port}/events`;
  }

  #connect(client: net.Socket): void {
    const upstream = net.connect(this.target(), '127.0.0.1');
    this.sockets.add(client);
    let left = this.budget();
    const kill = () => {
      client.destroy();
      upstream.destroy();
      this.sockets.delete(client);
    };
    client.on('error', kill).on('close', kill);
    upstream.on('error', kill).on('close', kill);
    client.on('data', (chunk) => upstream.write(chunk));
    upstream.on('data', (chunk: Buffer) => {
      if (chunk.length < left) {
        left -= chunk.length;
        client.write(chunk);
        return;
      }
      // Deliver part of the chunk, then cut: the client sees half a message.
      client.write(chunk.subarray(0, Math.max(0, Math.floor(left))));
      this.cuts++;
      kill();
    });
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A seeded PRNG (mulberry32), so a failing chaos run can be replayed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Resolves once `check()` holds (polled), or rejects after `ms`, saying `what`. */
export async function until(check: () => boolean, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** The JSON of each event, for comparing logs version by version. */
export const jsonLines = (events: Iterable<unknown>): string[] =>
  [...events].map((e) => JSON.stringify(e));
