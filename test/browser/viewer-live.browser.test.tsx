// The viewer page's `?live=<url>` (issues 21 and 22) in real Chromium: the app
// follows a real `skein/server` SSE server (started in Node by a browser
// command, test/browser/live-server-commands.ts), shows its connection status
// in the header, opens at the end of the run and follows the tail, linked to
// the span tree, across dropped connections.
import { act, cleanup, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commands } from 'vitest/browser';
import { ViewerApp } from '../../viewer/app.js';
import '../../src/styles.css';
import '../../viewer/viewer.css';
import './live-commands.js';

const WAIT = { timeout: 30_000, interval: 50 };
const stops: (() => Promise<void>)[] = [];

beforeEach(() => {
  localStorage.clear();
});
afterEach(async () => {
  cleanup();
  for (const stop of stops.splice(0)) await stop();
  history.replaceState(null, '', location.pathname);
});

const status = () => document.querySelector('[data-testid="run-status"]')?.textContent ?? null;
/**
 * The position in the server's log (which marks pending versions with `~`)
 * of the latest event the transcript draws. Not the log's last entry: the
 * generated run's sub-agents keep their events inside a collapsed row.
 */
const furthestShown = (log: string[]) => {
  const plain = log.map((u) => u.replace(/~$/, ''));
  let furthest = -1;
  for (const a of document.querySelectorAll('article[data-event-id]'))
    furthest = Math.max(furthest, plain.lastIndexOf(a.getAttribute('data-event-id')!));
  return furthest;
};

describe('viewer page with ?live=', () => {
  it('follows a live server: status in the header, the tail in view, through dropped connections', async () => {
    const s = await commands.startLiveServer({ total: 1200, initial: 400 });
    stops.push(() => commands.stopLiveServer(s.id));
    history.replaceState(null, '', `${location.pathname}?live=${encodeURIComponent(s.url)}`);
    render(
      <div style={{ height: 800, width: 1280, display: 'flex', flexDirection: 'column' }}>
        <ViewerApp />
      </div>,
    );

    await expect.poll(status, WAIT).toBe('live');
    // A live run opens at its end.
    const first = await commands.liveServerLog(s.id);
    await expect.poll(() => furthestShown(first), WAIT).toBeGreaterThan(first.length * 0.75);
    // The span tree is fed by the same stream.
    await expect
      .poll(() => document.querySelectorAll('[role="treegrid"] [role="row"]').length, WAIT)
      .toBeGreaterThan(0);

    // The tail follows.
    await commands.appendLiveEvents(s.id, 300);
    const second = await commands.liveServerLog(s.id);
    await expect.poll(() => furthestShown(second), WAIT).toBeGreaterThanOrEqual(first.length);

    // A dropped connection: the header says so or is live again at once;
    // the events appended meanwhile arrive over the new connection.
    expect(await commands.dropLiveConnections(s.id)).toBeGreaterThan(0);
    await commands.appendLiveEvents(s.id, 500);
    const third = await commands.liveServerLog(s.id);
    expect(third).toHaveLength(1200);
    await expect.poll(() => furthestShown(third), WAIT).toBeGreaterThanOrEqual(second.length);
    await expect.poll(status, WAIT).toBe('live');
    expect(document.querySelector('[role="alert"]')).toBeNull();
  });

  it('says when the server is gone: the status leaves live and the error is shown', async () => {
    const s = await commands.startLiveServer({ total: 100, initial: 100 });
    history.replaceState(null, '', `${location.pathname}?live=${encodeURIComponent(s.url)}`);
    render(
      <div style={{ height: 800, width: 1280, display: 'flex', flexDirection: 'column' }}>
        <ViewerApp />
      </div>,
    );
    await expect.poll(status, WAIT).toBe('live');
    await act(async () => {
      await commands.stopLiveServer(s.id);
    });
    await expect.poll(status, WAIT).toBe('reconnecting');
    await expect
      .poll(() => document.querySelector('.viewer-doc [role="status"]')?.textContent ?? '', WAIT)
      .not.toBe('');
  });
});
