// `npm start` (the viewer on Vite's dev server) serves the page's icon as
// `skein view` does: /favicon.ico and the SVG the page links to.
import { fileURLToPath } from 'node:url';
import { createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let server: ViteDevServer;
let base: string;

beforeAll(async () => {
  server = await createServer({
    configFile: fileURLToPath(new URL('../../viewer/vite.config.ts', import.meta.url)),
    server: { port: 0, host: '127.0.0.1', strictPort: false },
    logLevel: 'silent',
  });
  await server.listen();
  base = server.resolvedUrls!.local[0]!;
}, 60_000);

afterAll(async () => {
  await server?.close();
});

describe('the viewer on the Vite dev server', () => {
  it('serves /favicon.ico and the icon the page links to', async () => {
    const ico = await fetch(new URL('favicon.ico', base));
    expect(ico.status).toBe(200);
    expect([...new Uint8Array(await ico.arrayBuffer()).subarray(0, 4)]).toEqual([0, 0, 1, 0]);
    const html = await (await fetch(base)).text();
    const href = /<link rel="icon" href="([^"]+)" type="image\/svg\+xml"/.exec(html)?.[1];
    expect(href).toBeDefined();
    const svg = await fetch(new URL(href!, base));
    expect(svg.status).toBe(200);
    expect(svg.headers.get('content-type')).toContain('image/svg+xml');
    expect(await svg.text()).toMatch(/^<svg /);
  });
});
