// Comments in src/ state invariants and reasons. A comment that cites an issue
// number, or points at a document the package does not ship, fails here with
// its file and line: the reader of the published package has neither. The
// package ships README.md, CHANGELOG.md and docs/*.md (package.json "files");
// a URL to another project's document is a public source and allowed.
//
// Comments of .ts and .css files are found by a small lexer (strings,
// templates and regular expressions skipped), not the TypeScript parser:
// parsing all of src/ takes seconds, the lexer a fraction of one. In the few
// .tsx files the parser finds the JSX text, which the lexer then skips.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(new URL(import.meta.url).pathname), '../..');

interface Comment {
  /** 1-based line of the comment's first character. */
  line: number;
  text: string;
}

/** Keywords after which a `/` starts a regular expression, not a division. */
const REGEX_AFTER_WORD = new Set([
  'return',
  'typeof',
  'case',
  'do',
  'else',
  'in',
  'of',
  'new',
  'delete',
  'void',
  'throw',
  'yield',
  'await',
  'instanceof',
]);

/** `[A-Za-z0-9_$]`. */
function isWordChar(c: number): boolean {
  return (
    (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 36
  );
}

/** Every `//` and block comment of a TypeScript or CSS source, in order. */
function commentsOf(source: string, css = false): Comment[] {
  const out: Comment[] = [];
  const n = source.length;
  let line = 1;
  // `{` of code, or `${` of a template whose text resumes at its `}`.
  const braces: ('code' | 'template')[] = [];
  // The last significant character and word of code, for regex detection.
  let prev = '';
  let prevWord = '';
  let i = 0;
  const countLines = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (source.charCodeAt(k) === 10) line++;
  };
  // Template text from `i` (after a backtick or a `}`) to its end or `${`.
  const templateText = () => {
    const start = i;
    while (i < n) {
      const c = source[i];
      if (c === '\\') i += 2;
      else if (c === '`') {
        i++;
        break;
      } else if (c === '$' && source[i + 1] === '{') {
        i += 2;
        braces.push('template');
        break;
      } else i++;
    }
    countLines(start, i);
    prev = ')';
  };
  while (i < n) {
    const c = source[i]!;
    const d = source[i + 1];
    if (c === '\n') {
      line++;
      i++;
    } else if (c === ' ' || c === '\t' || c === '\r') i++;
    else if (c === '/' && d === '/' && !css) {
      const end = source.indexOf('\n', i);
      const stop = end < 0 ? n : end;
      out.push({ line, text: source.slice(i, stop) });
      i = stop;
    } else if (c === '/' && d === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end < 0 ? n : end + 2;
      out.push({ line, text: source.slice(i, stop) });
      countLines(i, stop);
      i = stop;
    } else if (c === '"' || c === "'") {
      // A string ends at its quote or, unterminated, at the line.
      i++;
      while (i < n && source[i] !== c && source[i] !== '\n') i += source[i] === '\\' ? 2 : 1;
      if (source[i] === c) i++;
      prev = ')';
    } else if (css) i++;
    else if (c === '`') {
      i++;
      templateText();
    } else if (c === '<' && d === '/') {
      // A JSX closing tag, never the start of a regular expression.
      prev = '<';
      i += 2;
    } else if (c === '{') {
      braces.push('code');
      prev = c;
      i++;
    } else if (c === '}') {
      i++;
      if (braces.pop() === 'template') templateText();
      else prev = '}';
    } else if (
      c === '/' &&
      (prev === '' || '(,=:[!&|?{};+-*%<>~^'.includes(prev) || REGEX_AFTER_WORD.has(prevWord))
    ) {
      // A regular expression literal: classes may hold an unescaped `/`.
      i++;
      let inClass = false;
      while (i < n && source[i] !== '\n') {
        const r = source[i];
        if (r === '\\') i++;
        else if (r === '[') inClass = true;
        else if (r === ']') inClass = false;
        else if (r === '/' && !inClass) break;
        i++;
      }
      i++;
      prev = ')';
      prevWord = '';
    } else if (isWordChar(source.charCodeAt(i))) {
      const start = i;
      while (i < n && isWordChar(source.charCodeAt(i))) i++;
      prevWord = source.slice(start, i);
      prev = 'a';
    } else {
      prev = c;
      prevWord = '';
      i++;
    }
  }
  return out;
}

/**
 * A `.tsx` source with its JSX text blanked (newlines kept), so the lexer
 * reads the rest: JSX text may hold an apostrophe or a `//` that is neither a
 * string nor a comment. The TypeScript parser finds the JSX text.
 */
function withoutJsxText(source: string): string {
  const sf = ts.createSourceFile('x.tsx', source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TSX);
  const parts: string[] = [];
  let at = 0;
  // Iterative, children in source order.
  const stack: ts.Node[] = [sf];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.kind === ts.SyntaxKind.JsxText) {
      parts.push(
        source.slice(at, node.pos),
        source.slice(node.pos, node.end).replace(/[^\n]/g, ' '),
      );
      at = node.end;
      continue;
    }
    const kids: ts.Node[] = [];
    ts.forEachChild(node, (c) => {
      kids.push(c);
    });
    kids.sort((x, y) => y.pos - x.pos);
    stack.push(...kids);
  }
  parts.push(source.slice(at));
  return parts.join('');
}

const SHIPPED_DOCS = new Set(
  readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
);

/**
 * What is wrong with one comment's text: issue numbers, and references to
 * documents the package does not ship. URLs are public sources and removed
 * before the checks.
 */
function citationsIn(text: string): string[] {
  const found: string[] = [];
  const bare = text.replace(/\bhttps?:\/\/\S+/g, ' ');
  for (const m of bare.matchAll(/\bissues? #?\d+/gi)) found.push(`issue number "${m[0]}"`);
  // `#12` alone is one of our issues; `OpenHands#16910` names its project,
  // `&#39;` is an entity.
  for (const m of bare.matchAll(/(?:^|[\s([,;])(#\d+)\b/g)) found.push(`issue number "${m[1]}"`);
  for (const m of bare.matchAll(/[\w./-]*\.md\b/g)) {
    const path = m[0].replace(/^\.\//, '');
    const shipped =
      path === 'README.md' ||
      path === 'CHANGELOG.md' ||
      (SHIPPED_DOCS.has(path) && existsSync(join(root, path)));
    if (!shipped) found.push(`unshipped document "${m[0]}"`);
  }
  // The house notes, cited by section without a file name.
  for (const m of bare.matchAll(/\b(?:STYLE|ARCHITECTURE|research)\s+§[\d.]+/g)) {
    found.push(`unshipped document "${m[0]}"`);
  }
  return found;
}

function sourceFiles(): string[] {
  return (readdirSync(join(root, 'src'), { recursive: true }) as string[])
    .filter((f) => /\.(?:tsx?|css)$/.test(f))
    .map((f) => join('src', f))
    .sort();
}

function problemsIn(file: string, source: string): string[] {
  const problems: string[] = [];
  const text = file.endsWith('.tsx') ? withoutJsxText(source) : source;
  for (const c of commentsOf(text, file.endsWith('.css'))) {
    const lines = c.text.split('\n');
    lines.forEach((text, k) => {
      for (const p of citationsIn(text)) problems.push(`${file}:${c.line + k}: ${p}`);
    });
  }
  return problems;
}

describe('comments in src/', () => {
  it('cite no issue numbers and no document the package does not ship', () => {
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(200);
    const problems = files.flatMap((f) => problemsIn(f, readFileSync(join(root, f), 'utf8')));
    expect(problems).toEqual([]);
  });

  it('names the file and line of a citation, in comments only', () => {
    const source = [
      "const s = 'issue 4 in a string is not a comment';",
      'const r = /issue 5/; // fine: a regular expression, then a clean comment',
      '// The tree (issue 17): one identity.',
      '/**',
      ' * Rows (see research/inspect_ai.md §1.3, STYLE §6 and docs/nope.md).',
      ' * Shipped: README.md, CHANGELOG.md, docs/list-engine.md.',
      ' * Elsewhere: https://github.com/org/repo/blob/main/spec.md, OpenHands#16910.',
      ' */',
      'const t = `${a /* #12 */} // not a comment`;',
      'const u = a / b / c; // issues 6, 16',
    ].join('\n');
    const expected = [
      'src/x.ts:3: issue number "issue 17"',
      'src/x.ts:5: unshipped document "research/inspect_ai.md"',
      'src/x.ts:5: unshipped document "docs/nope.md"',
      'src/x.ts:5: unshipped document "STYLE §6"',
      'src/x.ts:9: issue number "#12"',
      'src/x.ts:10: issue number "issues 6"',
    ];
    expect(problemsIn('src/x.ts', source)).toEqual(expected);
    // Read as .tsx (the JSX-text pass first), the same source gives the same.
    expect(problemsIn('src/x.tsx', source)).toEqual(
      expected.map((p) => p.replace('x.ts', 'x.tsx')),
    );
  });

  it('reads JSX text as text in .tsx files', () => {
    const source = [
      'export const j = (',
      '  <p title="issue 1">Don\'t // (issue 2) see https://x.org</p> // (#3)',
      ');',
    ].join('\n');
    expect(problemsIn('src/x.tsx', source)).toEqual(['src/x.tsx:2: issue number "#3"']);
  });

  it('reads CSS comments, and no // there', () => {
    const css = 'a { background: url(//cdn/x.png); }\n/* A label never wraps (issue 16). */';
    expect(problemsIn('src/x.css', css)).toEqual(['src/x.css:2: issue number "issue 16"']);
  });
});
