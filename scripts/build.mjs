// npm run build: the library into dist/ (ESM + .d.ts per entry point + CSS),
// then publint (strict), a plain-Node smoke import of the core, and a gzip
// size report per entry point.
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const run = (cmd, args, opts = {}) =>
  execFileSync(cmd, args, { cwd: root, stdio: 'inherit', ...opts });
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

rmSync(join(root, 'dist'), { recursive: true, force: true });
run('npx', ['vite', 'build', '--logLevel', 'warn']);
run('npx', ['tsc', '-p', 'tsconfig.build.json']);
copyFileSync(join(root, 'src/styles.css'), join(root, 'dist/styles.css'));

// publint, strict: warnings fail the build too.
run('npx', ['publint', '--strict']);

// The core must load in plain Node with no DOM and no React in scope: install
// the built package alone into a temp folder whose node_modules holds only
// its non-React dependencies, then import it.
const sandbox = mkdtempSync(join(tmpdir(), 'skein-smoke-'));
try {
  const pkgDir = join(sandbox, 'node_modules', 'skein');
  mkdirSync(pkgDir, { recursive: true });
  symlinkSync(join(root, 'dist'), join(pkgDir, 'dist'));
  writeFileSync(join(pkgDir, 'package.json'), JSON.stringify(pkg));
  for (const dep of Object.keys(pkg.dependencies ?? {})) {
    if (dep.includes('react')) continue;
    const target = join(sandbox, 'node_modules', dep);
    mkdirSync(dirname(target), { recursive: true });
    symlinkSync(join(root, 'node_modules', dep), target);
  }
  const smoke = [
    "import * as core from 'skein';",
    "if (core.VERSION !== process.argv[1]) throw new Error('VERSION mismatch: ' + core.VERSION);",
    "if (typeof document !== 'undefined') throw new Error('a DOM leaked into the smoke test');",
    "let react = true; try { await import('react'); } catch { react = false; }",
    "if (react) throw new Error('react is resolvable from the smoke sandbox; the test proves nothing');",
    "process.stdout.write('smoke: skein core imports in plain Node without React (' + Object.keys(core).length + ' exports)\\n');",
  ].join('\n');
  run(process.execPath, ['--input-type=module', '-e', smoke, pkg.version], { cwd: sandbox });
} finally {
  rmSync(sandbox, { recursive: true, force: true });
}

// Size report: each entry with the chunks it statically imports, gzipped.
const seen = (file, acc = new Set()) => {
  if (acc.has(file)) return acc;
  acc.add(file);
  const code = readFileSync(file, 'utf8');
  for (const m of code.matchAll(
    /^\s*(?:import|export)\s[^'"]*?from\s*["'](\.[^"']+)["']|^\s*import\s*["'](\.[^"']+)["']/gm,
  )) {
    seen(resolve(dirname(file), m[1] ?? m[2]), acc);
  }
  return acc;
};
const rows = [];
for (const [name, spec] of Object.entries(pkg.exports)) {
  const target = typeof spec === 'string' ? spec : spec.import;
  if (!target.endsWith('.js') && !target.endsWith('.css')) continue;
  const file = join(root, target);
  const files = target.endsWith('.css') ? new Set([file]) : seen(file);
  const bytes = Buffer.concat([...files].map((f) => readFileSync(f)));
  rows.push({
    entry: name,
    files: files.size,
    raw: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
  });
}
const kb = (n) => `${(n / 1024).toFixed(2)} kB`;
process.stdout.write('\nsize report (entry + statically imported chunks; dependencies excluded)\n');
process.stdout.write(
  `${'entry'.padEnd(14)}${'files'.padStart(6)}${'raw'.padStart(12)}${'gzip'.padStart(12)}\n`,
);
for (const r of rows) {
  process.stdout.write(
    `${r.entry.padEnd(14)}${String(r.files).padStart(6)}${kb(r.raw).padStart(12)}${kb(r.gzip).padStart(12)}\n`,
  );
}
writeFileSync(join(root, 'dist', 'size-report.json'), JSON.stringify(rows, null, 2) + '\n');
