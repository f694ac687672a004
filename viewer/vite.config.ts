import react from '@vitejs/plugin-react';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { skeinAliases } from '../scripts/skein-aliases.mjs';
import { addBundledPackages, licenseNotices } from '../scripts/third-party-licenses.mjs';

const outDir = fileURLToPath(new URL('../dist/viewer', import.meta.url));

/**
 * dist/viewer/THIRD-PARTY-LICENSES.md: the built page bundles React,
 * react-dom, scheduler and skein's own dependencies (in the page and in the
 * loader worker), so their licences ship with it. The modules come from the
 * chunks of both builds (the page has no source maps to read them from).
 */
function thirdPartyLicenses(): { page: Plugin; worker: Plugin } {
  const packages = new Map<string, string>();
  // Where this build writes (a test builds into a temporary folder).
  let written = outDir;
  const collect: Plugin = {
    name: 'skein-viewer-bundled-packages',
    apply: 'build',
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle))
        if (chunk.type === 'chunk') addBundledPackages(packages, chunk.moduleIds);
    },
  };
  return {
    worker: collect,
    page: {
      ...collect,
      name: 'skein-viewer-third-party-licenses',
      configResolved(config) {
        written = resolve(config.root, config.build.outDir);
      },
      // The worker is built during the page's build, so its packages are in by now.
      closeBundle() {
        writeFileSync(
          join(written, 'THIRD-PARTY-LICENSES.md'),
          licenseNotices(
            packages,
            'Third-party code bundled in the skein viewer',
            'The skein viewer page (dist/viewer/, served by `skein view`) includes code from these packages, under their licences.',
          ),
        );
      },
    },
  };
}
const licenses = thirdPartyLicenses();

// The viewer page: `npm start` serves it, `npm run build` writes it to
// dist/viewer/ (relative asset URLs, so `skein view` can serve it under any path).
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  plugins: [react(), licenses.page],
  resolve: { alias: skeinAliases },
  server: { host: '127.0.0.1', port: 5173 },
  worker: { format: 'es', plugins: () => [licenses.worker] },
  build: {
    outDir,
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    reportCompressedSize: false,
    chunkSizeWarningLimit: 2000,
  },
});
