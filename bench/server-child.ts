/**
 * A skein server in its own process, for benches that measure the server
 * alone (its CPU time and peak memory) while the bench process plays the
 * clients. Started with `fork(…, { execArgv: ['--import', 'tsx'] })`:
 *
 * - `view <dir>`: `createViewHandler({ root: dir })`;
 * - `live <n>`: `createEventStreamHandler` over an `EventStream` of n small
 *   events (no gzip: the clients do not ask for it).
 *
 * Sends `{ port }` once listening; answers `'usage'` with `{ cpuMs, rssMB,
 * peakMB }` (peak: the process's RSS high-water mark since the last
 * `'reset'`, from /proc/self/status; Linux).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { EventStream, type Event } from '../src/index.js';
import { createEventStreamHandler, createViewHandler } from '../src/server.js';

const [mode, arg] = process.argv.slice(2);

function events(count: number): Event[] {
  const out: Event[] = [];
  const t0 = Date.UTC(2026, 0, 1);
  for (let k = 0; k < count; k++)
    out.push({
      event: 'info',
      uuid: `e${k}`,
      timestamp: new Date(t0 + k).toISOString(),
      data: `line ${k}`,
    } as Event);
  return out;
}

const listener =
  mode === 'view'
    ? createViewHandler({ root: arg!, viewerDir: null })
    : createEventStreamHandler(EventStream.from(events(Number(arg))), {
        compression: false,
        maxConnections: 10_000,
      });
const server = http.createServer(listener);
server.listen(0, '127.0.0.1', () => {
  process.send!({ port: (server.address() as AddressInfo).port });
});

const statusMB = (field: string): number => {
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(
    readFileSync('/proc/self/status', 'utf8'),
  );
  return match ? Number(match[1]) / 1024 : NaN;
};

process.on('message', (message) => {
  if (message === 'reset') {
    // Writing 5 to clear_refs resets the peak RSS (VmHWM) to the current RSS.
    try {
      writeFileSync('/proc/self/clear_refs', '5');
    } catch {
      // not Linux: the peak is the process's whole life
    }
    process.send!({ reset: true });
  } else if (message === 'usage') {
    const cpu = process.cpuUsage();
    process.send!({
      cpuMs: (cpu.user + cpu.system) / 1000,
      rssMB: statusMB('VmRSS'),
      peakMB: statusMB('VmHWM'),
    });
  } else if (message === 'exit') {
    server.closeAllConnections();
    process.exit(0);
  }
});
