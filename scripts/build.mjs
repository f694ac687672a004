// npm run build: the library into dist/ (ESM + .d.ts per entry point + CSS),
// trimmed for the tarball (see below), then publint (strict), attw (the types
// as each module resolver sees them), a plain-Node smoke import of the core,
// and a gzip size report per entry point (printed, not shipped).
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { addBundledPackages, licenseNotices } from './third-party-licenses.mjs';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const run = (cmd, args, opts = {}) =>
  execFileSync(cmd, args, { cwd: root, stdio: 'inherit', ...opts });
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

rmSync(join(root, 'dist'), { recursive: true, force: true });
run('npx', ['vite', 'build', '--logLevel', 'warn']);
run('npx', ['tsc', '-p', 'tsconfig.build.json']);
copyFileSync(join(root, 'src/styles.css'), join(root, 'dist/styles.css'));
// The viewer page (`skein view`, issue 22): a static app in dist/viewer/ with
// relative asset URLs, its loader in a Web Worker chunk.
run('npx', ['vite', 'build', '--config', 'viewer/vite.config.ts', '--logLevel', 'warn']);
// The same viewer as one classic script and one stylesheet in
// dist/viewer-export/, which `skein export` inlines into a single HTML file.
run('npx', ['vite', 'build', '--config', 'viewer/vite.export.config.ts', '--logLevel', 'warn']);
trimSourceMaps();
writeThirdPartyNotices();
cleanDeclarationComments();

// publint, strict: warnings fail the build too.
run('npx', ['publint', '--strict']);
// attw on the packed tarball. ESM only: the CommonJS `require` rows cannot
// resolve by design (`exports` has only `import`), so the esm-only profile.
run('npx', [
  'attw',
  '--pack',
  '.',
  '--profile',
  'esm-only',
  // A stylesheet has no types to check.
  '--exclude-entrypoints',
  './styles.css',
  '--format',
  'table-flipped',
]);

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

// ---------------------------------------------------------------------------
// Trimming dist/ for the tarball
// ---------------------------------------------------------------------------

function* walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else yield path;
  }
}

/**
 * Source maps without `sourcesContent` (issue 16: 1.1 MB of the tarball).
 * They still map every line of dist/ to its file and line in src/, so a stack
 * trace (Node `--enable-source-maps`, browser devtools) names the TypeScript
 * source; the code itself is in dist/, unminified and commented.
 */
function trimSourceMaps() {
  for (const file of walk(join(root, 'dist'))) {
    if (!file.endsWith('.map')) continue;
    const map = JSON.parse(readFileSync(file, 'utf8'));
    delete map.sourcesContent;
    writeFileSync(file, JSON.stringify(map));
  }
}

/**
 * Code bundled into dist/ from other packages (react-markdown and the unified
 * packages behind it, in the lazily loaded markdown chunk) keeps its licence:
 * every package whose files a source map lists gets its LICENSE text in
 * dist/THIRD-PARTY-LICENSES.md.
 */
function writeThirdPartyNotices() {
  const packages = new Map();
  for (const file of walk(join(root, 'dist'))) {
    if (!file.endsWith('.map')) continue;
    const map = JSON.parse(readFileSync(file, 'utf8'));
    addBundledPackages(
      packages,
      (map.sources ?? []).map((source) => resolve(dirname(file), source)),
    );
  }
  writeFileSync(
    join(root, 'dist', 'THIRD-PARTY-LICENSES.md'),
    licenseNotices(
      packages,
      'Third-party code bundled in skein',
      "skein's dist/ includes code from these packages, under their licences. The viewer page (dist/viewer/) lists what it bundles in dist/viewer/THIRD-PARTY-LICENSES.md.",
    ),
  );
}

/**
 * The .d.ts keep skein's JSDoc, whose comments must not cite project documents
 * that do not ship (`research/*.md`, `STYLE.md`, `ARCHITECTURE.md`, issue
 * numbers). test/node/comments.test.ts keeps them out of src/; this pass is the
 * second guard: it drops any such citation from the declarations and reports
 * what it could not drop.
 */
function cleanDeclarationComments() {
  const br = String.raw`\s+(?:\*\s+)?`; // a space, or a line break inside the comment
  const cite = String.raw`(?:research/[\w.-]+\.md(?:${br}§[\d.–-]+)?|STYLE(?:\.md)? §[\d.]+|ARCHITECTURE\.md(?:${br}"[^"]*")?|issue \d+)`;
  const rules = [
    // A parenthesis that opens with a citation goes whole: "(issue 6)",
    // "(STYLE §6; jaeger-ui …)", "(research/x.md §1.2: …)".
    [new RegExp(String.raw`\s*\(${cite}[^()]*\)`, 'g'), ''],
    // A citation closing one: "(agex's design, research/formats.md §3.2)".
    [new RegExp(String.raw`[;,]${br}${cite}(?=\))`, 'g'), ''],
    // "rules from issue 5:" → "rules:".
    [new RegExp(String.raw` (?:from|in|see) ${cite}`, 'g'), ''],
  ];
  const left = [];
  for (const file of walk(join(root, 'dist'))) {
    if (!file.endsWith('.d.ts')) continue;
    const code = readFileSync(file, 'utf8');
    const cleaned = code.replace(/\/\*\*[\s\S]*?\*\//g, (comment) => {
      let out = comment;
      for (const [pattern, replacement] of rules) out = out.replace(pattern, replacement);
      return out;
    });
    for (const m of cleaned.matchAll(new RegExp(cite, 'g'))) {
      const at = cleaned.slice(Math.max(0, m.index - 50), m.index + 30).replace(/\s+/g, ' ');
      left.push(`  ${file.slice(root.length + 1)}: …${at}…`);
    }
    if (cleaned !== code) writeFileSync(file, cleaned);
  }
  // Reported, not fatal: what is left is prose that needs rewording in src/.
  if (left.length) {
    process.stderr.write(
      `d.ts comments still cite documents that do not ship:\n${left.join('\n')}\n`,
    );
  }
}
