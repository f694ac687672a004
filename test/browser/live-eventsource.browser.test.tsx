// Live transport in a real browser (issue 21): Chromium's own `EventSource`
// (and streaming `fetch`) against a real `skein/server` SSE server started in
// Node by a browser command (test/browser/live-server-commands.ts).
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { commands } from 'vitest/browser';
import { connectEventStream, type LiveConnection } from '../../src/index.js';
import { Transcript } from '../../src/react.js';
import '../../src/styles.css';
import './live-commands.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  cleanup();
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function server(total: number, initial: number) {
  const s = await commands.startLiveServer({ total, initial });
  cleanups.push(() => commands.stopLiveServer(s.id));
  return s;
}

function connect(url: string, transport: 'eventsource' | 'fetch'): LiveConnection {
  const live = connectEventStream(url, {
    transport,
    retry: { firstDelayMs: 50, baseDelayMs: 100, maxDelayMs: 500 },
  });
  cleanups.push(() => live.close());
  return live;
}

const clientLog = (live: LiveConnection) =>
  live.stream.toArray().map((e) => `${e.uuid}${e.pending === true ? '~' : ''}`);
const poll = { timeout: 30_000, interval: 50 };

describe.each(['eventsource', 'fetch'] as const)(
  'connectEventStream over %s in Chromium',
  (transport) => {
    it('receives the history, then the live tail, and ends with exactly the server’s log across drops', async () => {
      const s = await server(3000, 1000);
      const live = connect(s.url, transport);
      await expect.poll(() => live.status.getSnapshot().status, poll).toBe('live');
      await expect.poll(() => live.stream.length, poll).toBe(1000);
      await commands.appendLiveEvents(s.id, 500);
      await expect.poll(() => live.stream.length, poll).toBe(1500);
      // Three drops while events keep coming: the events appended after each
      // drop can only arrive over a new connection.
      for (let k = 0; k < 3; k++) {
        expect(await commands.dropLiveConnections(s.id)).toBeGreaterThan(0);
        const length = await commands.appendLiveEvents(s.id, 500);
        await expect.poll(() => live.stream.length, poll).toBe(length);
      }
      const expected = await commands.liveServerLog(s.id);
      expect(expected).toHaveLength(3000);
      await expect.poll(() => live.stream.length, poll).toBe(3000);
      expect(clientLog(live)).toEqual(expected);
      expect(live.status.getSnapshot().error).toBeNull();
    });
  },
);

describe('<Transcript connection> with a real EventSource', () => {
  it('shows Live, then Reconnecting… with the error when the server is gone', async () => {
    const s = await server(200, 200);
    const live = connect(s.url, 'eventsource');
    render(
      <div style={{ height: 500 }}>
        <Transcript stream={live.stream} connection={live} />
      </div>,
    );
    const status = screen.getByRole('status', { name: 'Connection' });
    await expect.poll(() => status.textContent, poll).toBe('Live');
    await expect
      .poll(() => document.querySelectorAll('article[data-event-id]').length, poll)
      .toBeGreaterThan(3);
    await act(async () => {
      await commands.stopLiveServer(s.id);
    });
    await expect.poll(() => status.dataset['status'], poll).toBe('reconnecting');
    await expect.poll(() => status.textContent, poll).toMatch(/^Reconnecting….* — last error: /);
    act(() => live.close());
    await expect.poll(() => status.textContent, poll).toMatch(/^Disconnected/);
  });
});
