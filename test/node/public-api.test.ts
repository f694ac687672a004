// The public API is chosen on purpose: every name each entry point in
// package.json `exports` offers (values and types) is listed in
// public-api.txt beside this file, so adding, removing or renaming one shows
// in the diff as a decision (and gets a CHANGELOG line). After a deliberate
// change, update the list with `npx vitest run test/node/public-api.test.ts -u`.
//
// The entry files are read with the TypeScript parser, not a type checker:
// they consist of explicit `export { … } from` / `export type { … } from`
// lines (no `export *`), and `verbatimModuleSyntax` makes the compiler reject
// a type re-exported without `type`, so the syntax says which names are
// values. The values are also checked against the modules' runtime namespaces.
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };

const root = resolve(dirname(new URL(import.meta.url).pathname), '../..');

/** Each `exports` subpath with types, and the source file it is built from. */
const ENTRY_SOURCES: Record<string, string> = {
  '.': 'src/index.ts',
  './react': 'src/react.ts',
  './server': 'src/server.ts',
  './server/fetch': 'src/server-fetch.ts',
  './server/redis': 'src/server-redis.ts',
};

interface ExportList {
  values: string[];
  types: string[];
  /** Modules the entry re-exports from (absolute paths). */
  from: string[];
  /** Statements that are not explicit re-exports, as text. */
  other: string[];
}

function parse(path: string): ts.SourceFile {
  return ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.ES2022, true);
}

function resolveModule(fromFile: string, spec: string): string {
  return join(dirname(fromFile), spec.replace(/\.js$/, '.ts'));
}

function exportsOf(path: string): ExportList {
  const out: ExportList = { values: [], types: [], from: [], other: [] };
  for (const st of parse(path).statements) {
    if (
      ts.isExportDeclaration(st) &&
      st.moduleSpecifier &&
      ts.isStringLiteral(st.moduleSpecifier)
    ) {
      out.from.push(resolveModule(path, st.moduleSpecifier.text));
      if (!st.exportClause || !ts.isNamedExports(st.exportClause)) {
        out.other.push(st.getText());
        continue;
      }
      for (const el of st.exportClause.elements) {
        (st.isTypeOnly || el.isTypeOnly ? out.types : out.values).push(el.name.text);
      }
    } else if (!ts.isImportDeclaration(st)) {
      out.other.push(st.getText().slice(0, 80));
    }
  }
  out.values.sort();
  out.types.sort();
  return out;
}

/** Every `export * from` in the modules an entry re-exports from, followed transitively. */
function starExports(entry: string): string[] {
  const found: string[] = [];
  const seen = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const path = file.endsWith('.ts') && !readable(file) ? file.replace(/\.ts$/, '.tsx') : file;
    // Only a module with an `export … from` line can continue a chain.
    if (!/^export\b[^;]*\bfrom\s/m.test(readFileSync(path, 'utf8'))) continue;
    for (const st of parse(path).statements) {
      if (!ts.isExportDeclaration(st) || !st.moduleSpecifier) continue;
      if (!ts.isStringLiteral(st.moduleSpecifier) || !st.moduleSpecifier.text.startsWith('.'))
        continue;
      if (!st.exportClause || ts.isNamespaceExport(st.exportClause)) {
        found.push(`${relative(root, path)}: ${st.getText()}`);
      }
      queue.push(resolveModule(path, st.moduleSpecifier.text));
    }
  }
  return found;
}

function readable(path: string): boolean {
  try {
    readFileSync(path);
    return true;
  } catch {
    return false;
  }
}

const entries = Object.entries(ENTRY_SOURCES).map(([subpath, source]) => ({
  name: subpath === '.' ? 'skein' : `skein${subpath.slice(1)}`,
  subpath,
  source,
  list: exportsOf(join(root, source)),
}));

describe('the public API', () => {
  it('covers every entry point of package.json with types', () => {
    const withTypes = Object.entries(pkg.exports)
      .filter(([, target]) => typeof target === 'object' && 'types' in target)
      .map(([subpath]) => subpath);
    expect(withTypes.sort()).toEqual(Object.keys(ENTRY_SOURCES).sort());
  });

  it('is listed name by name in each entry file (no `export *`, no local code)', () => {
    for (const e of entries) {
      expect({ entry: e.name, other: e.list.other }).toEqual({ entry: e.name, other: [] });
    }
  });

  it('has no `export *` on the way from an entry point', () => {
    const stars = entries.flatMap((e) => starExports(join(root, e.source)));
    expect(stars).toEqual([]);
  });

  it('offers at runtime exactly the values its entry file lists', async () => {
    for (const e of entries) {
      const mod = (await import(/* @vite-ignore */ join(root, e.source))) as object;
      expect({ entry: e.name, values: Object.keys(mod).sort() }).toEqual({
        entry: e.name,
        values: [...e.list.values].sort(),
      });
    }
  }, 60_000);

  it('matches the checked-in list (update with -u after a deliberate change)', async () => {
    const text = entries
      .map((e) => {
        const lines = [
          `${e.name} (${e.list.values.length} values, ${e.list.types.length} types)`,
          ...e.list.values.map((n) => `  value ${n}`),
          ...e.list.types.map((n) => `  type ${n}`),
        ];
        return lines.join('\n');
      })
      .join('\n\n');
    await expect(`${text}\n`).toMatchFileSnapshot('./public-api.txt');
  });
});
