import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { skeinAliases } from '../scripts/skein-aliases.mjs';

// `npm start`: the demo page, importing skein by package name as a user would.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  resolve: { alias: skeinAliases },
  server: {
    host: '127.0.0.1',
    port: 5173,
    // Live mode (`?live`): the page reads `/live/` on its own origin, which
    // goes to `skein serve <log> --live` (port 8787, or SKEIN_LIVE_URL) — the
    // real SSE transport, with no CORS to configure.
    proxy: {
      '/live/': {
        target: process.env['SKEIN_LIVE_URL'] ?? 'http://127.0.0.1:8787',
        rewrite: (path) => path.replace(/^\/live/, ''),
      },
    },
  },
  build: { outDir: fileURLToPath(new URL('../dist-demo', import.meta.url)), emptyOutDir: true },
});
