// `npm test` runs this first: the browser and Storybook projects need a real
// Chromium and are never skipped. When none is found, install one where this
// machine allows it — Debian's package when running as root with apt-get,
// else Playwright's download — and otherwise stop with one clear instruction.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromiumFound, installHint, playwrightChromium } from './chromium.mjs';

const say = (line) => process.stderr.write(`${line}\n`);

function attempt(label, cmd, args) {
  say(`Chromium not found; trying: ${label}`);
  try {
    execFileSync(cmd, args, {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    return true;
  } catch {
    say(`  failed: ${label}`);
    return false;
  }
}

function install() {
  if (process.env.CHROMIUM_PATH) return false; // the user chose a binary: do not second-guess it
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  if (root && existsSync('/usr/bin/apt-get')) {
    if (
      attempt('apt-get install chromium', 'sh', [
        '-c',
        'apt-get update -qq && apt-get install -y -qq --no-install-recommends chromium',
      ]) &&
      (existsSync('/usr/lib/chromium/chromium') || existsSync('/usr/bin/chromium'))
    ) {
      return true;
    }
  }
  return (
    attempt('npx playwright-core install chromium', 'npx', [
      'playwright-core',
      'install',
      'chromium',
    ]) &&
    playwrightChromium !== undefined &&
    existsSync(playwrightChromium)
  );
}

if (!chromiumFound() && !(process.env.SKEIN_NO_CHROMIUM_INSTALL ? false : install())) {
  say(`\n${installHint}\n`);
  process.exit(1);
}
