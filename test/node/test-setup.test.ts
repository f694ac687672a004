// `npm test` sets itself up: scripts/test-setup.mjs, run on a simulated machine
// whose PATH has no redis-server. A fake apt-get (and a fake sudo, so the case
// holds for a non-root developer too) records what it is asked and "installs"
// a fake redis-server; without apt-get the script fails naming the command.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const script = path.resolve('scripts/test-setup.mjs');
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function machine(opts: { apt: boolean }) {
  const root = mkdtempSync(path.join(tmpdir(), 'skein-setup-'));
  dirs.push(root);
  const bin = path.join(root, 'bin');
  const installed = path.join(root, 'installed');
  const log = path.join(root, 'apt.log');
  spawnSync('mkdir', ['-p', bin, installed]);
  const write = (file: string, body: string) => {
    writeFileSync(file, `#!/bin/sh\n${body}\n`);
    chmodSync(file, 0o755);
  };
  if (opts.apt) {
    write(
      path.join(bin, 'apt-get'),
      [
        `[ "$1" = --version ] && exit 0`,
        `echo "$*" >> ${log}`,
        `case "$1" in`,
        `  install) printf '#!/bin/sh\\nexit 0\\n' > ${installed}/redis-server; /bin/chmod 755 ${installed}/redis-server ;;`,
        `esac`,
        `exit 0`,
      ].join('\n'),
    );
    // Passwordless sudo that runs its command (for a non-root run of the test).
    write(path.join(bin, 'sudo'), `[ "$1" = -n ] && shift\n[ "$1" = true ] && exit 0\nexec "$@"`);
  }
  const env = {
    HOME: root,
    // Not the machine's PATH: its /usr/bin may hold a real redis-server and apt-get.
    PATH: [bin, installed].join(':'),
    CHROMIUM_PATH: '/nonexistent',
  };
  const run = () =>
    spawnSync(process.execPath, [script, '--only=redis'], { env, encoding: 'utf8' });
  return { run, log, installed };
}

describe('npm test setup (scripts/test-setup.mjs)', () => {
  it('installs redis-server with apt-get where the machine allows it', () => {
    const m = machine({ apt: true });
    const result = m.run();
    expect(result.stderr).toMatch(/not found: redis-server; installing/);
    expect(result.status).toBe(0);
    const calls = readFileSync(m.log, 'utf8').trim().split('\n');
    expect(calls[0]).toMatch(/^update/);
    expect(calls[1]).toMatch(/^install -y .*redis-server$/);
    expect(existsSync(path.join(m.installed, 'redis-server'))).toBe(true);
    // Run again: found now, nothing installed twice.
    expect(m.run().status).toBe(0);
    expect(readFileSync(m.log, 'utf8').trim().split('\n')).toHaveLength(2);
  });

  it('fails naming the one command to run where it cannot install', () => {
    const m = machine({ apt: false });
    const result = m.run();
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('sudo apt-get update && sudo apt-get install -y redis-server');
    expect(result.stderr).toContain('REDIS_SERVER=');
  });

  it('leaves a machine that has redis-server alone', () => {
    const m = machine({ apt: true });
    writeFileSync(path.join(m.installed, 'redis-server'), '#!/bin/sh\nexit 0\n');
    chmodSync(path.join(m.installed, 'redis-server'), 0o755);
    const result = m.run();
    expect(result.status).toBe(0);
    expect(existsSync(m.log)).toBe(false);
  });
});
