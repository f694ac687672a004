// Server-renders test/ssr/app.tsx in Node (no window, no document) and
// prints `{ html, react, logs }` as JSON: what the browser test hydrates.
// Usage: node --import tsx [--import ./test/ssr/react18-hooks.mjs] test/ssr/render.tsx box|flow
import { version } from 'react';
import { renderToString } from 'react-dom/server';
import { App } from './app.js';

const layout = process.argv[2] === 'flow' ? 'flow' : 'box';
const logs: string[] = [];
for (const level of ['error', 'warn'] as const) {
  console[level] = (...args: unknown[]) => logs.push(`${level}: ${args.map(String).join(' ')}`);
}
const html = renderToString(<App layout={layout} />);
process.stdout.write(JSON.stringify({ html, react: version, logs }));
