// `skein/server/fetch` runs on edge runtimes, which have no Node built-ins:
// its whole import graph (followed through the sources) must import none.
import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(new URL(import.meta.url).pathname), '../..');
const builtins = new Set(builtinModules);

/** Every module reachable from `entry` and every bare specifier it imports (type-only imports excluded). */
function importGraph(entry: string) {
  const files = new Set<string>();
  const bare = new Map<string, string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const text = readFileSync(file, 'utf8');
    // `import … from 'x'`, `export … from 'x'`, `import 'x'`, `import('x')`;
    // `import type` / `export type` vanish at build time.
    const re =
      /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
    for (const m of text.matchAll(re)) {
      if (m[2] !== undefined) continue;
      const spec = m[3] ?? m[4]!;
      // A source imports `x.js` for `x.ts`; generated code (the OTLP decoders) is `.js`.
      const ts = resolve(dirname(file), spec.replace(/\.js$/, '.ts'));
      if (spec.startsWith('.')) visit(existsSync(ts) ? ts : resolve(dirname(file), spec));
      else bare.set(spec, relative(root, file));
    }
  };
  visit(join(root, entry));
  return { files, bare };
}

const isBuiltin = (spec: string) => spec.startsWith('node:') || builtins.has(spec.split('/')[0]!);

describe('skein/server/fetch import graph', () => {
  it('reaches the Fetch handler and imports no Node built-in', () => {
    const { files, bare } = importGraph('src/server-fetch.ts');
    expect([...files].map((f) => relative(root, f))).toContain('src/node/server/fetch.ts');
    expect([...files].map((f) => relative(root, f))).toContain('src/node/otlp/fetch-handler.ts');
    const offenders = [...bare].filter(([spec]) => isBuiltin(spec));
    expect(offenders).toEqual([]);
  });

  it('the scan does find the built-ins skein/server imports (files, CLI, Node handler)', () => {
    const { bare } = importGraph('src/server.ts');
    expect([...bare.keys()].filter(isBuiltin)).toEqual(
      expect.arrayContaining(['node:fs/promises', 'node:http', 'node:zlib']),
    );
  });
});
