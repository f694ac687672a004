import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The packed-tarball test (`npm run test:package`, run by .ci/run after
// `npm run build`): separate from `npm test` because it packs dist/, installs
// it into fresh projects and builds an app, which needs a built dist/ and
// about a minute; `npm test` stays a check of the sources.
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    name: 'package',
    environment: 'node',
    include: ['test/package/**/*.test.ts'],
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
