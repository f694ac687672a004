/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { playwright } from '@vitest/browser-playwright';
import { storybookTest } from '@storybook/addon-vitest/vitest-plugin';
import { builtinModules } from 'node:module';
import { chromiumArgs, chromiumPath } from './scripts/chromium.mjs';
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
});

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
        cli: 'src/cli.ts',
      },
      formats: ['es'],
    },
    rolldownOptions: {
      external,
      output: { chunkFileNames: 'chunks/[name]-[hash].js' },
    },
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'core',
          environment: 'node',
          include: ['test/core/**/*.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: ['test/node/**/*.test.ts'],
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
          setupFiles: ['test/react/setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['test/browser/**/*.browser.test.{ts,tsx}'],
          browser: browser(),
          testTimeout: 60_000,
        },
      },
      {
        extends: true,
        plugins: [storybookTest({ configDir: '.storybook' })],
        // Stories render real payloads (100k-character markdown, 1M-event runs);
        // on a loaded 2-core machine a play function can take well over the default.
        test: { name: 'storybook', browser: browser(), testTimeout: 60_000 },
      },
    ],
  },
});
