// Where Chromium is, for Vitest browser mode, Storybook tests and the benchmarks.
// The first that exists: CHROMIUM_PATH; Debian's binary (the real one, without
// the wrapper script's shell noise); /usr/bin/chromium; the Chromium that
// `npx playwright-core install chromium` downloads. scripts/test-setup.mjs
// (run by `npm test`) installs one when none is found and it can.
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';

/** Playwright's own download for this playwright-core version (may not exist). */
export const playwrightChromium = (() => {
  try {
    return chromium.executablePath();
  } catch {
    return undefined;
  }
})();

const candidates = process.env.CHROMIUM_PATH
  ? [process.env.CHROMIUM_PATH]
  : ['/usr/lib/chromium/chromium', '/usr/bin/chromium', playwrightChromium].filter(Boolean);

/** Resolved once, when this module loads (after an install, start a new process). */
export const chromiumPath = candidates.find((path) => existsSync(path)) ?? candidates[0];

/** Flags that make Chromium run headless as root on a machine with no network. */
export const chromiumArgs = [
  '--no-sandbox',
  '--headless',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export function chromiumFound() {
  return existsSync(chromiumPath);
}

export const installHint = `Chromium was not found (looked at ${candidates.join(', ')}).
skein's browser and Storybook tests run in a real Chromium; they are never skipped.
Install one of:
  npx playwright-core install --with-deps chromium        (any OS; downloads Chromium)
  sudo apt-get update && sudo apt-get install -y chromium  (Debian/Ubuntu)
or point CHROMIUM_PATH at an existing Chromium or Chrome binary:
  CHROMIUM_PATH=/path/to/chrome npm test`;
