// `npm test` runs this first. The suite needs two programs it never skips for:
// a real Chromium (the browser and Storybook projects) and `redis-server` (the
// `skein/server/redis` tests start one on a free loopback port). Where one is
// missing, install it as the machine allows — Debian's package through
// apt-get, as root or with passwordless sudo; for Chromium, else Playwright's
// download — and otherwise stop with the one command that installs it.
//
// `.ci/run` installs nothing that `npm ci && npm test` do not, so a gap here
// fails CI instead of hiding behind a CI-only install step.
//
// Flags: `--only=chromium` or `--only=redis` checks one program (the test of
// this script uses it); SKEIN_NO_INSTALL=1 only checks.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromiumFound, installHint, playwrightChromium } from './chromium.mjs';

const say = (line) => process.stderr.write(`${line}\n`);
const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
const mayInstall = !process.env.SKEIN_NO_INSTALL;

/** True when `cmd args…` runs and exits 0 (a missing program is false, not a throw). */
function runs(cmd, args) {
  return spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;
}

function attempt(label, cmd, args) {
  say(`trying: ${label}`);
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

/**
 * How this machine can run apt-get: directly as root, through passwordless
 * sudo, or not at all (`null`). apt-get is looked up on PATH.
 */
function aptRunner() {
  if (!runs('apt-get', ['--version'])) return null;
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  if (root) return [];
  if (runs('sudo', ['-n', 'true'])) return ['sudo', '-n'];
  return null;
}

/** Installs Debian packages in one apt-get run; false where it cannot. */
function aptInstall(packages) {
  const runner = aptRunner();
  if (runner === null) return false;
  const apt = (label, args) => {
    const [cmd, ...rest] = [...runner, 'apt-get', ...args];
    return attempt(label, cmd, rest);
  };
  return (
    apt('apt-get update', ['update', '-qq']) &&
    apt(`apt-get install ${packages.join(' ')}`, [
      'install',
      '-y',
      '-qq',
      '--no-install-recommends',
      ...packages,
    ])
  );
}

const redisBin = () => process.env.REDIS_SERVER ?? 'redis-server';
const redisFound = () => runs(redisBin(), ['--version']);
const redisHint = `redis-server was not found (looked for ${redisBin()}).
skein's skein/server/redis tests start a real redis-server; they are never skipped.
Install it:
  sudo apt-get update && sudo apt-get install -y redis-server   (Debian/Ubuntu)
or point REDIS_SERVER at an existing redis-server binary:
  REDIS_SERVER=/path/to/redis-server npm test`;

const wanted = [
  {
    name: 'chromium',
    found: chromiumFound,
    // The user chose a binary: do not second-guess it.
    installable: () => !process.env.CHROMIUM_PATH,
    fallback: () =>
      attempt('npx playwright-core install chromium', 'npx', [
        'playwright-core',
        'install',
        'chromium',
      ]) &&
      playwrightChromium !== undefined &&
      existsSync(playwrightChromium),
    hint: installHint,
  },
  {
    name: 'redis-server',
    found: redisFound,
    installable: () => !process.env.REDIS_SERVER,
    fallback: () => false,
    hint: redisHint,
  },
].filter((w) => only === undefined || w.name.startsWith(only));

const missing = wanted.filter((w) => !w.found());
if (missing.length > 0 && mayInstall) {
  const debian = missing.filter((w) => w.installable());
  if (debian.length > 0) {
    say(`[skein] not found: ${debian.map((w) => w.name).join(', ')}; installing`);
    aptInstall(debian.map((w) => w.name));
  }
  for (const w of debian) if (!w.found()) w.fallback();
}
// Chromium's path is resolved when chromium.mjs loads; a fresh install lands
// at one of its candidates, which `chromiumFound` re-checks on disk.
const still = missing.filter((w) => !w.found());
for (const w of still) say(`\n${w.hint}\n`);
if (still.length > 0) process.exit(1);
