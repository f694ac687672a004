import { defineConfig } from 'vite';
import { configDefaults } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { playwright } from '@vitest/browser-playwright';
import { storybookTest } from '@storybook/addon-vitest/vitest-plugin';
import { readFileSync, readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { chromiumArgs, chromiumPath } from './scripts/chromium.mjs';
import { renderOnServer } from './test/ssr/commands.js';
import * as liveServer from './test/browser/live-server-commands.js';
import { emulateColorScheme, emulatePrintMedia } from './test/browser/media-commands.js';
import { moveMouseAway } from './test/browser/visual-commands.js';
import pkg from './package.json' with { type: 'json' };

// Library build: dependencies, peers and Node built-ins stay imports.
const deps = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})];
const nodeBuiltins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
const external = (id: string) =>
  nodeBuiltins.has(id) ||
  id.startsWith('node:') ||
  deps.some((d) => id === d || id.startsWith(`${d}/`));

// A factory, not a shared object: Vitest mutates `instances`, so two projects
// sharing one config would get each other's names (research/toolchain.md §2.5).
const browser = () => ({
  enabled: true,
  headless: true,
  provider: playwright({ launchOptions: { executablePath: chromiumPath, args: chromiumArgs } }),
  instances: [{ browser: 'chromium' as const }],
  // Server rendering in a real Node process, for the SSR hydration test.
  // A real SSE server for the live transport tests (issue 21).
  // The system colour scheme, emulated, for `theme="auto"` in dark.
  // The mouse moved off the page, for the screenshot tests.
  commands: { renderOnServer, ...liveServer, emulateColorScheme, emulatePrintMedia, moveMouseAway },
});

// Visual regression (test/browser/visual.browser.test.tsx): reference
// screenshots live in test/visual/ and are committed; a mismatch writes the
// actual screenshot and the diff image under .vitest-attachments/ and the
// failure names both paths. `npm run test:visual-update` rewrites the
// references (`-u` last: it takes an optional value, and would swallow the file).
const screenshotMatching = {
  comparatorName: 'pixelmatch' as const,
  // Per-pixel colour tolerance as pixelmatch's default; up to 0.5% of the
  // pixels may differ (anti-aliasing of text on a loaded machine), which is
  // far less than one shifted column or a wrapped title.
  comparatorOptions: { threshold: 0.1, allowedMismatchedPixelRatio: 0.005 },
  resolveScreenshotPath: ({
    arg,
    ext,
    root,
    browserName,
    platform,
  }: {
    arg: string;
    ext: string;
    root: string;
    browserName: string;
    platform: string;
  }) => `${root}/test/visual/${arg}-${browserName}-${platform}${ext}`,
};

// React 18.3 in place of 19 (devDependencies `react-18`, `react-dom-18`): the
// SSR hydration test runs under both (issue 16).
const react18 = [
  { find: /^react-dom$/, replacement: 'react-dom-18' },
  { find: /^react-dom\/(.*)$/, replacement: 'react-dom-18/$1' },
  { find: /^react$/, replacement: 'react-18' },
  { find: /^react\/(.*)$/, replacement: 'react-18/$1' },
];

// Story files whose `meta` is tagged `light-only` as a whole (the tag before
// the first story): the dark/390 pass leaves them out rather than listing
// each as a file of no tests.
const LIGHT_ONLY_FILES = readdirSync('stories')
  .filter((f) => f.endsWith('.stories.tsx'))
  .map((f) => `stories/${f}`)
  .filter((f) => {
    const source = readFileSync(f, 'utf8');
    const head = source.slice(0, Math.max(0, source.search(/^export const /m)));
    return /tags:\s*\[[^\]]*'light-only'/.test(head);
  });

// Test files that need a fresh module graph of their own: `vi.mock` of a
// skein module (a module another file loaded first would stay real), a spy
// on a global, and the lazy display parts (their test watches the first load).
// live-memory forces ~60 full collections: in the shared core worker each
// walks every module and leftover the files before it loaded (11–19 s
// there, 4 s in a worker of its own).
const ISOLATED = {
  core: [
    'test/core/inspect-log.test.ts',
    'test/core/listeners.test.ts',
    'test/core/live-memory.test.ts',
  ],
  react: ['test/react/display-lazy.test.tsx'],
};

export default defineConfig({
  plugins: [react()],
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    minify: false,
    lib: {
      entry: {
        index: 'src/index.ts',
        react: 'src/react.ts',
        server: 'src/server.ts',
        'server-redis': 'src/server-redis.ts',
        'server-fetch': 'src/server-fetch.ts',
        cli: 'src/cli.ts',
      },
      formats: ['es'],
    },
    rolldownOptions: {
      external,
      // One output file per source module, not shared chunks: an app's
      // bundler then drops every module it does not use (package.json
      // `sideEffects`), as it does building from the sources. Merged into
      // chunks, the unused components beside a used one stayed in apps (a
      // top-level `forwardRef(…)` call is not known to be pure): the bare
      // <Transcript> cost 60 kB gzip instead of 50. The bundled markdown
      // stack goes under dist/vendor/ (npm never packs a node_modules folder).
      output: {
        preserveModules: true,
        preserveModulesRoot: 'src',
        entryFileNames: (chunk) =>
          chunk.name.includes('node_modules/')
            ? `vendor/${chunk.name.slice(chunk.name.lastIndexOf('node_modules/') + 13)}.js`
            : '[name].js',
      },
    },
  },
  test: {
    projects: [
      // Core, node and react files share their worker's modules
      // (`isolate: false`): skein's sources load once per worker, not once
      // per file. Measured on 2 cores, side by side: 60 core files 134–178 s
      // → 86–95 s, 30 node files 194 → 139 s, the react files 162 → 67 s.
      // Files that mock a module, spy on a global or need a module's first
      // load run in the `-isolated` projects beside them.
      {
        extends: true,
        test: {
          name: 'core',
          environment: 'node',
          include: ['test/core/**/*.test.ts'],
          // A project's own `exclude` replaces `--exclude` on the command
          // line, so `npm run fuzz` (FUZZ_RUNS set) leaves the hostile corpus
          // (`fuzz:hostile`'s job) out here.
          exclude: [
            ...configDefaults.exclude,
            ...ISOLATED.core,
            ...(process.env['FUZZ_RUNS'] === undefined ? [] : ['**/fuzz-hostile*.test.ts']),
          ],
          // `npm run fuzz` (FUZZ_RUNS set) keeps each file isolated, as it
          // was measured (about 150 s in CI).
          isolate: process.env['FUZZ_RUNS'] !== undefined,
          // Property tests over generated runs take tens of seconds when the
          // whole suite shares 2 cores; a timeout here only catches a hang
          // (speed is measured in the bench, not here).
          testTimeout: 90_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'core-isolated',
          environment: 'node',
          include: ISOLATED.core,
          testTimeout: 90_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: ['test/node/**/*.test.ts'],
          isolate: false,
          // These start ESLint, the TypeScript compiler, Vite and Chromium.
          testTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'conformance',
          environment: 'node',
          include: ['test/conformance/**/*.test.ts'],
          testTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'react',
          environment: 'jsdom',
          include: ['test/react/**/*.test.{ts,tsx}'],
          exclude: [...configDefaults.exclude, ...ISOLATED.react],
          isolate: false,
          setupFiles: ['test/react/setup.ts'],
          // (As for core: a loaded 2-core machine, not a speed limit.)
          testTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'react-isolated',
          environment: 'jsdom',
          include: ISOLATED.react,
          setupFiles: ['test/react/setup.ts'],
          testTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['test/browser/**/*.browser.test.{ts,tsx}'],
          browser: { ...browser(), expect: { toMatchScreenshot: screenshotMatching } },
          testTimeout: 60_000,
        },
      },
      {
        extends: true,
        resolve: { alias: react18 },
        test: {
          name: 'browser-react18',
          include: ['test/browser/transcript-ssr.browser.test.tsx'],
          browser: browser(),
          testTimeout: 60_000,
        },
      },
      {
        extends: true,
        plugins: [storybookTest({ configDir: '.storybook' })],
        // Stories render real payloads (100k-character markdown, 1M-event runs);
        // on a loaded 2-core machine a play function can take well over the default.
        test: { name: 'storybook', browser: browser(), testTimeout: 120_000 },
      },
      {
        // The stories again (play function and axe) in the dark theme at 390 px:
        // contrast is checked on dark colours and layout at a phone's width in
        // one pass. Stories tagged `light-only` run only in the pass above:
        // the imports and the bare drop-ins draw the views other stories
        // check here, and a million events or 10 MB of text would cost
        // seconds twice (.storybook/preview.tsx).
        extends: true,
        plugins: [
          storybookTest({
            configDir: '.storybook',
            tags: { exclude: ['light-only'] },
            initialGlobals: { theme: 'dark', viewport: { value: 'phone', isRotated: false } },
          }),
          // The plugin puts every project of one Storybook in one Vite cache
          // folder; two projects optimizing dependencies there at once collide.
          {
            name: 'skein:storybook-dark-390-cache',
            enforce: 'post',
            config: () => ({ cacheDir: 'node_modules/.cache/sb-vitest-dark-390' }),
          },
        ],
        test: {
          name: 'storybook-dark-390',
          exclude: [...configDefaults.exclude, ...LIGHT_ONLY_FILES],
          browser: browser(),
          testTimeout: 120_000,
        },
      },
    ],
  },
});
