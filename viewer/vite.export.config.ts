import react from '@vitejs/plugin-react';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { skeinAliases } from '../scripts/skein-aliases.mjs';
import { addBundledPackages, licenseNotices } from '../scripts/third-party-licenses.mjs';

const outDir = fileURLToPath(new URL('../dist/viewer-export', import.meta.url));

/** THIRD-PARTY-LICENSES.md of what the one script bundles (an exported page carries it). */
function thirdPartyLicenses(): Plugin {
  const packages = new Map<string, string>();
  let written = outDir;
  return {
    name: 'skein-export-third-party-licenses',
    apply: 'build',
    configResolved(config) {
      written = resolve(config.root, config.build.outDir);
    },
    generateBundle(_options, bundle) {
      for (const [name, chunk] of Object.entries(bundle)) {
        if (chunk.type === 'chunk') addBundledPackages(packages, chunk.moduleIds);
        // The loader's module Worker (client.ts's default port): an exported
        // page runs the loader on the page, so its file is never loaded.
        if (name !== 'viewer.js' && name !== 'viewer.css') delete bundle[name];
      }
    },
    closeBundle() {
      writeFileSync(
        join(written, 'THIRD-PARTY-LICENSES.md'),
        licenseNotices(
          packages,
          'Third-party code bundled in a skein export',
          'A page written by `skein export` includes code from these packages, under their licences.',
        ),
      );
    },
  };
}

// The viewer for `skein export`: one classic script (IIFE, every lazy chunk
// inlined) and one stylesheet in dist/viewer-export/, which the export inlines
// into a single HTML file. Module scripts and chunk fetches fail from
// `file://`, so nothing here may load anything at run time.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react(), thirdPartyLicenses()],
  resolve: { alias: skeinAliases },
  // React's production build, whatever NODE_ENV the building process has (a
  // test runner sets `test`, which would otherwise give development JSX).
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  oxc: { jsx: { runtime: 'automatic', development: false } },
  build: {
    outDir,
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    reportCompressedSize: false,
    chunkSizeWarningLimit: 4000,
    cssCodeSplit: false,
    minify: true,
    lib: {
      entry: fileURLToPath(new URL('./export-main.tsx', import.meta.url)),
      formats: ['iife'],
      name: 'skeinExport',
      fileName: () => 'viewer.js',
      cssFileName: 'viewer',
    },
  },
});
