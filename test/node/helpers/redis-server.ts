// Starts a throwaway redis-server on a free loopback port for a test file, or
// says why it cannot (then the Redis tests skip with a printed notice).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import type { AddressInfo } from 'node:net';

export interface RedisServer {
  url: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** `null` and a notice on stderr when redis-server is missing or does not start. */
export async function startRedisServer(): Promise<RedisServer | null> {
  const bin = process.env.REDIS_SERVER ?? 'redis-server';
  if (spawnSync(bin, ['--version']).status !== 0) {
    process.stderr.write(
      `[skein] redis: ${bin} not found; the Redis Streams tests need it (apt-get install -y redis-server, or REDIS_SERVER=<path>).\n`,
    );
    return null;
  }
  const port = await freePort();
  const child: ChildProcess = spawn(
    bin,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const up = await new Promise<boolean>((resolve) => {
    const deadline = Date.now() + 5000;
    const probe = () => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => {
        socket.destroy();
        if (Date.now() > deadline || child.exitCode !== null) resolve(false);
        else setTimeout(probe, 50);
      });
    };
    probe();
  });
  if (!up) {
    child.kill();
    process.stderr.write('[skein] redis: redis-server did not start; skipping the Redis tests.\n');
    return null;
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
