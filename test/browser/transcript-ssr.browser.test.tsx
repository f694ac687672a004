// Server rendering (issue 16): test/ssr/app.tsx — a bare <Transcript> over a
// complete array — is rendered by a real server (a Node process: no window,
// no document; test/ssr/commands.ts), then hydrated here in Chromium at two
// window sizes. Runs on React 19 (project `browser`) and React 18.3 (project
// `browser-react18`, which aliases react/react-dom to the 18.3 copies).
import { version } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { commands, page } from 'vitest/browser';
import { App } from '../ssr/app.js';
import type { ServerRender } from '../ssr/commands.js';
import '../../src/styles.css';

declare module 'vitest/browser' {
  interface BrowserCommands {
    renderOnServer(react: '18' | '19', layout: 'box' | 'flow'): Promise<ServerRender>;
  }
}

const major = version.split('.')[0] === '18' ? '18' : '19';
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

/** Console errors and warnings while `run` goes on (React reports hydration problems there). */
function capture() {
  const logs: string[] = [];
  const original = { error: console.error, warn: console.warn };
  console.error = (...args: unknown[]) => logs.push(`error: ${args.map(String).join(' ')}`);
  console.warn = (...args: unknown[]) => logs.push(`warn: ${args.map(String).join(' ')}`);
  cleanups.push(() => Object.assign(console, original));
  return logs;
}

describe(`<Transcript> server-rendered and hydrated, React ${version}`, () => {
  for (const [width, height] of [
    [1280, 900],
    [420, 320],
  ] as const) {
    for (const layout of ['box', 'flow'] as const) {
      it(`in ${layout === 'box' ? 'a fixed box' : 'page flow'}, window ${width}×${height}`, async () => {
        await page.viewport(width, height);
        const server = await commands.renderOnServer(major, layout);
        expect(server.react).toBe(version);
        // The server rendered without a warning (React 18 warns for each
        // useLayoutEffect it meets), and drew the first rows — not a placeholder.
        expect(server.logs).toEqual([]);
        const container = document.createElement('div');
        container.innerHTML = server.html;
        document.body.append(container);
        cleanups.push(() => container.remove());
        const serverRows = container.querySelectorAll('article');
        expect(serverRows.length).toBe(30);
        expect(serverRows[0]!.getAttribute('aria-posinset')).toBe('1');
        // In normal flow until hydrated: readable before any script runs.
        expect(serverRows[1]!.getBoundingClientRect().top).toBeGreaterThan(
          serverRows[0]!.getBoundingClientRect().top,
        );

        const logs = capture();
        const recoverable: string[] = [];
        const root = hydrateRoot(container, <App layout={layout} />, {
          onRecoverableError: (error) => recoverable.push(String(error)),
        });
        cleanups.push(() => root.unmount());
        const feed = container.querySelector<HTMLElement>('[role="feed"]')!;
        const scroller = feed.parentElement!;
        // Hydrated: the rows for the real viewport, positioned; then all loaded.
        await expect.poll(() => feed.style.height !== '').toBe(true);
        await expect.poll(() => feed.getAttribute('aria-busy'), { timeout: 30_000 }).toBe('false');
        expect(container.querySelectorAll('article').length).toBeLessThanOrEqual(100);
        expect(scroller.scrollTop).toBe(0);
        expect(container.querySelector('article')!.getAttribute('aria-posinset')).toBe('1');
        // The same elements were kept (hydrated, not re-rendered from scratch).
        expect(feed.isConnected).toBe(true);
        expect(container.contains(serverRows[0]!)).toBe(true);
        await new Promise((r) => setTimeout(r, 300));
        expect(recoverable).toEqual([]);
        expect(logs).toEqual([]);
      });
    }
  }
});
