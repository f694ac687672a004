// Conformance tests read real files from ../shared/fixtures (beside the checkout
// in CI). Where that folder is absent they print one notice and skip: the
// project's own small fixtures under test/ cover what must pass everywhere.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe } from 'vitest';

/** Absolute path of the shared fixtures folder (override with SKEIN_FIXTURES). */
export const fixturesDir = resolve(
  process.env.SKEIN_FIXTURES ?? new URL('../../../shared/fixtures', import.meta.url).pathname,
);

export const fixturesPresent = existsSync(fixturesDir);

let noticePrinted = false;

/**
 * `describe` when the shared fixtures exist; otherwise `describe.skip` plus a
 * single notice on stderr naming the missing folder.
 */
export function describeFixtures(name: string, fn: () => void): void {
  if (fixturesPresent) {
    describe(name, fn);
    return;
  }
  if (!noticePrinted) {
    noticePrinted = true;
    process.stderr.write(
      `[skein] conformance: ${fixturesDir} is absent; skipping tests that read shared fixtures.\n`,
    );
  }
  // The skip is the documented behaviour when the shared folder is absent (CI has it).
  describe.skip(name, fn);
}

/** Path of a fixture, relative to the fixtures folder. */
export function fixturePath(...parts: string[]): string {
  return join(fixturesDir, ...parts);
}

/** Bytes of a fixture file. */
export function readFixture(...parts: string[]): Uint8Array {
  return new Uint8Array(readFileSync(fixturePath(...parts)));
}

/** Every file below a fixture folder (relative paths, sorted), filtered by ending. */
export function listFixtures(folder: string, ending = ''): string[] {
  const root = fixturePath(folder);
  if (!existsSync(root)) return [];
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (p.endsWith(ending)) out.push(relative(fixturesDir, p));
    }
  };
  walk(root);
  return out;
}
