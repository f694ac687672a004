// Doc examples compile (issue 16). Every `@example` in src/**/*.ts(x) is
// type-checked as a module against the package entry points; a broken one
// fails with its file and line.
//
// The convention for example authors:
// - Every export of `skein` and `skein/react` is in scope: use them by name.
// - The placeholders of PLACEHOLDERS in test/node/doc-examples.ts (`stream`,
//   `event`, `tree`, `toolEvent`, `modelEvent`, `json`) are in scope with
//   their real types. Add a name there only when many examples share it.
// - Any other free name is declared in the example (`declare const rows:
//   TranscriptRows;`) — a reader sees its type, the compiler checks its use.
// - The code runs in an async block: `await` works, and a local
//   `const events = …` may shadow an export.
//
// Every file's examples compile: the list of files exempted while older
// examples were converted is gone (empty since the 2026-11-25 session).
import { describe, expect, it } from 'vitest';
import { checkExamples, extractExamples } from './doc-examples.js';

describe('JSDoc @example blocks', () => {
  it('type-check against the entry points, every file', () => {
    const examples = extractExamples();
    expect(examples.length).toBeGreaterThan(300);
    const problems = checkExamples(examples);
    expect(problems.map((p) => `${p.where}: ${p.message}`)).toEqual([]);
  }, 600_000);

  it('catches a broken example with its file and line', () => {
    const problems = checkExamples([
      { file: 'src/probe.ts', line: 10, code: 'const s = new EventStream();\ns.appendd(1);' },
      { file: 'src/probe.ts', line: 20, code: 'const n: number = stream.length;' },
    ]);
    expect(problems.map((p) => p.where)).toEqual(['src/probe.ts:11']);
    expect(problems[0]!.message).toMatch(/appendd/);
  }, 600_000);
});
