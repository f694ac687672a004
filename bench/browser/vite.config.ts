import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { skeinAliases } from '../../scripts/skein-aliases.mjs';

// The bench page imports skein by package name, as users do; aliases point at
// the sources so benches measure the current code without a prior build.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  resolve: { alias: skeinAliases },
  // The viewer bench runs the viewer's loader worker (an ES module worker).
  worker: { format: 'es' },
  build: {
    outDir: fileURLToPath(new URL('../.dist', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // Benchmarks measure production React. Profiles (SKEIN_BENCH_PROFILE,
    // run-browser.ts) keep names readable.
    minify: !process.env['SKEIN_BENCH_PROFILE'],
  },
  logLevel: 'warn',
});
