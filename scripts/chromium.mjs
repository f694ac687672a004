// Where Chromium is, for Vitest browser mode, Storybook tests and the benchmarks.
// CHROMIUM_PATH wins; otherwise Debian's /usr/bin/chromium.
import { existsSync } from 'node:fs';

export const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

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

export const installHint = `Chromium was not found at ${chromiumPath}.
skein's browser and Storybook tests run in a real Chromium; they are never skipped.
Install it with:
  sudo apt-get update && sudo apt-get install -y chromium     (Debian/Ubuntu)
or point CHROMIUM_PATH at an existing Chromium or Chrome binary:
  CHROMIUM_PATH=/path/to/chrome npm test`;
