// Vitest browser commands (they run in Node): a real `skein/server` SSE
// server on 127.0.0.1 that a browser test reaches with a real `EventSource`
// (issue 21). Each server is named by an id the test gets back.
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { EventStream } from '../../src/core/stream/event-stream.js';
import { generateRun } from '../../src/core/generate/generate-run.js';
import { createEventStreamHandler } from '../../src/node/server/sse.js';

interface LiveServer {
  server: Server;
  stream: EventStream;
  run: ReturnType<typeof generateRun>;
  sockets: Set<Socket>;
  close(): Promise<void>;
}

const servers = new Map<string, LiveServer>();
let nextId = 0;

/**
 * Starts a server holding the first `initial` events of a generated run of
 * `total`, open to any origin (the test page's). Returns its id and URL.
 */
export async function startLiveServer(
  _context: unknown,
  options: { total: number; initial: number; seed?: number },
): Promise<{ id: string; url: string }> {
  const run = generateRun({ seed: options.seed ?? 21, events: options.total, pendingRate: 0.2 });
  const stream = new EventStream();
  for (let i = 0; i < options.initial; i++) stream.append(run[i]!);
  const handler = createEventStreamHandler(stream, { cors: { origin: '*' }, heartbeatMs: 1000 });
  const server = createServer((req, res) => void handler(req, res));
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  const id = String(++nextId);
  servers.set(id, {
    server,
    stream,
    run,
    sockets,
    close: async () => {
      await handler.close();
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
  return { id, url: `http://127.0.0.1:${address.port}/events` };
}

/** Appends the next `count` events of the run; returns the server's length. */
export function appendLiveEvents(_context: unknown, id: string, count: number): number {
  const s = servers.get(id)!;
  const end = Math.min(s.run.length, s.stream.length + count);
  for (let i = s.stream.length; i < end; i++) s.stream.append(s.run[i]!);
  return s.stream.length;
}

/** Cuts every open connection (as a proxy or a network drop would); returns how many. */
export function dropLiveConnections(_context: unknown, id: string): number {
  const s = servers.get(id)!;
  const n = s.sockets.size;
  for (const socket of s.sockets) socket.destroy();
  return n;
}

/** The server's log as uuids with their pending flags (every version). */
export function liveServerLog(_context: unknown, id: string): string[] {
  const s = servers.get(id)!;
  return s.stream.toArray().map((e) => `${e.uuid}${e.pending === true ? '~' : ''}`);
}

export async function stopLiveServer(_context: unknown, id: string): Promise<void> {
  const s = servers.get(id);
  servers.delete(id);
  await s?.close();
}
