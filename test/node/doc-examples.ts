// Extracts every `@example` of the JSDoc in src/ and type-checks it as a
// module against the package's own entry points (issue 16: "doc examples
// compile in CI").
//
// The convention (see docs in test/node/doc-examples.test.ts):
// - An example is a module body. Every name exported by `skein` and
//   `skein/react` is in scope (imported for it), and so are the usual
//   placeholders of PLACEHOLDERS below (`stream`, `event`, `tree`, …) with
//   their real types. Anything else must be declared by the example itself
//   (`declare const x: T;` is fine).
// - Its code sits in a block inside an async function whose parameters are
//   the placeholders (so they shadow DOM globals such as `event`), so a local
//   `const events = …` may shadow an export; `import` lines are hoisted out.
// - The example is checked as if it sat beside its source file: an example of
//   a helper that no entry point exports imports it relatively
//   (`import { sliceText } from './text.js';`), as a maintainer would.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

export const root = resolve(dirname(new URL(import.meta.url).pathname), '../..');

/** Free names every example may use, with their types. */
export const PLACEHOLDERS: Readonly<Record<string, string>> = {
  stream: "import('skein').EventStream",
  event: "import('skein').Event",
  tree: "import('skein').EventTree",
  toolEvent: "import('skein').ToolEvent",
  modelEvent: "import('skein').ModelEvent",
  json: 'unknown',
};

/** One `@example` block: where it is and its code. */
export interface DocExample {
  file: string;
  line: number;
  code: string;
}

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** Every `@example` in `src/**\/*.ts(x)`, with the 1-based line where its code starts. */
export function extractExamples(files = sourceFiles(join(root, 'src'))): DocExample[] {
  const out: DocExample[] = [];
  for (const path of files) {
    const text = readFileSync(path, 'utf8');
    const file = relative(root, path);
    for (const m of text.matchAll(/\/\*\*[\s\S]*?\*\//g)) {
      const lines = m[0].split('\n');
      const startLine = text.slice(0, m.index).split('\n').length;
      for (let i = 0; i < lines.length; i++) {
        const tag = /@example\b(.*)$/.exec(lines[i]!);
        if (!tag) continue;
        const body: string[] = [];
        // Same-line code (`@example foo()`), then the following lines up to
        // the next tag or the end of the comment.
        const inline = tag[1]!.replace(/\*\/\s*$/, '').trim();
        let first = startLine + i;
        if (inline !== '') body.push(inline);
        else first++;
        for (let j = i + 1; j < lines.length; j++) {
          const line = lines[j]!.replace(/^\s*\*\/?\s?/, '').replace(/\*\/\s*$/, '');
          if (/^\s*@\w/.test(line) && !/^\s*@ts-/.test(line)) break;
          body.push(line);
        }
        const code = body.join('\n').trimEnd();
        if (code.trim() !== '') out.push({ file, line: first, code });
      }
    }
  }
  return out;
}

/** A broken example: where, and what the compiler said. */
export interface DocExampleProblem {
  where: string;
  message: string;
}

/**
 * Type-checks examples, all in one program. Returns the problems, each at
 * `file:line` of the source comment.
 */
export function checkExamples(examples: readonly DocExample[]): DocExampleProblem[] {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    jsx: ts.JsxEmit.ReactJSX,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    allowImportingTsExtensions: false,
    types: ['node'],
    baseUrl: root,
    paths: {
      skein: ['./src/index.ts'],
      'skein/react': ['./src/react.ts'],
      'skein/server': ['./src/server.ts'],
      'skein/server/redis': ['./src/server-redis.ts'],
      'skein/server/fetch': ['./src/server-fetch.ts'],
    },
  };
  // Export names of the entry points, from a first program over them.
  const entry = ts.createProgram({
    rootNames: [join(root, 'src/index.ts'), join(root, 'src/react.ts')],
    options,
  });
  const checker = entry.getTypeChecker();
  const exportsOf = (file: string) => {
    const sf = entry.getSourceFile(join(root, file))!;
    return checker.getExportsOfModule(checker.getSymbolAtLocation(sf)!).map((s) => s.name);
  };
  const coreNames = exportsOf('src/index.ts');
  const reactNames = exportsOf('src/react.ts').filter((n) => !coreNames.includes(n));

  const files = new Map<string, { text: string; example: DocExample; offset: number }>();
  examples.forEach((example, k) => {
    const imports: string[] = [];
    const code: string[] = [];
    for (const line of example.code.split('\n')) {
      // Imports and `declare` lines are module-level: hoisted out of the block.
      if (/^\s*(?:import|declare)\s/.test(line)) imports.push(line);
      else code.push(line);
    }
    const used = (n: string) =>
      new RegExp(`(?<![\\w$])(?<![^.]\\.)${n.replace(/\$/g, '\\$')}(?![\\w$])`).test(example.code);
    const own = new Set([
      ...imports
        .filter((l) => /^\s*import\s/.test(l))
        .flatMap((l) => [...l.matchAll(/[\w$]+/g)].map((m) => m[0])),
      // `declare const events: Event[];` shadows the export of that name.
      ...imports.flatMap(
        (l) => /^\s*declare\s+(?:const|let|var|function|class)\s+([\w$]+)/.exec(l)?.[1] ?? [],
      ),
    ]);
    const fromCore = coreNames.filter((n) => used(n) && !own.has(n));
    const fromReact = reactNames.filter((n) => used(n) && !own.has(n));
    const head = [
      ...imports,
      fromCore.length > 0 ? `import { ${fromCore.join(', ')} } from 'skein';` : '',
      fromReact.length > 0 ? `import { ${fromReact.join(', ')} } from 'skein/react';` : '',
      'export {};',
      `async function __example(${Object.entries(PLACEHOLDERS)
        .map(([name, type]) => `${name}: ${type}`)
        .join(', ')}) {{`,
    ];
    const text = `${head.join('\n')}\n${code.join('\n')}\n}}\nvoid __example;\n`;
    // Beside its source file (virtually): an example of a module's internal
    // helper imports it as a maintainer would, `from './text.js'`.
    files.set(join(root, dirname(example.file), `__doc_example_${k}.tsx`), {
      text,
      example,
      offset: head.length - imports.length,
    });
  });

  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.readFile = (p) => files.get(p)?.text ?? readFile(p);
  host.fileExists = (p) => files.has(p) || fileExists(p);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (p, lang, ...rest) => {
    const f = files.get(p);
    return f !== undefined
      ? ts.createSourceFile(p, f.text, lang, true, ts.ScriptKind.TSX)
      : getSourceFile(p, lang, ...rest);
  };
  const program = ts.createProgram({
    rootNames: [...files.keys()],
    options,
    host,
    oldProgram: entry,
  });
  const problems: DocExampleProblem[] = [];
  for (const [path, { example, offset }] of files) {
    const sf = program.getSourceFile(path)!;
    const diagnostics = [
      ...program.getSyntacticDiagnostics(sf),
      ...program.getSemanticDiagnostics(sf),
    ];
    for (const d of diagnostics) {
      const lineInFile = d.start === undefined ? 0 : sf.getLineAndCharacterOfPosition(d.start).line;
      // Lines of the example after the hoisted imports map back one to one
      // (import lines keep their own offset only approximately).
      const line = example.line + Math.max(0, lineInFile - offset);
      problems.push({
        where: `${example.file}:${line}`,
        message: ts.flattenDiagnosticMessageText(d.messageText, '\n').split('\n')[0]!,
      });
    }
  }
  return problems;
}
