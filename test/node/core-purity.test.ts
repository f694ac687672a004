// The core's purity is enforced by tools, and these tests prove the tools bite:
// a React or src/react import in src/core fails lint, and a DOM global there
// fails the core typecheck (lib ES2022, no DOM).
import { ESLint } from 'eslint';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(new URL(import.meta.url).pathname), '../..');

async function lintCore(code: string, file = 'src/core/__probe.ts') {
  const eslint = new ESLint({ cwd: root });
  const [result] = await eslint.lintText(code, { filePath: join(root, file) });
  return (result?.messages ?? []).map((m) => `${m.ruleId}: ${m.message}`);
}

function typecheckCore(code: string): string[] {
  const configPath = join(root, 'src/core/tsconfig.json');
  const config = ts.readConfigFile(configPath, (p) => ts.sys.readFile(p));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, dirname(configPath));
  const probe = join(root, 'src/core/__probe.ts');
  const host = ts.createCompilerHost(parsed.options);
  const readFile = host.readFile.bind(host);
  host.readFile = (p) => (p === probe ? code : readFile(p));
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (p) => p === probe || fileExists(p);
  const rootNames = [probe, join(root, 'src/core/platform.d.ts')];
  const program = ts.createProgram({ rootNames, options: parsed.options, host });
  return ts
    .getPreEmitDiagnostics(program, program.getSourceFile(probe))
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

describe('core purity: lint', () => {
  it.each([
    ["import { useState } from 'react';"],
    ["import { createRoot } from 'react-dom/client';"],
    ["import { jsx } from 'react/jsx-runtime';"],
    ["import { SkeinTheme } from '../react/theme.js';"],
    ["import { runCli } from '../node/cli.js';"],
    ["import { readFile } from 'node:fs';"],
    ["import { join } from 'path';"],
  ])('rejects %s', async (line) => {
    const messages = await lintCore(`${line}\nexport const x = 1;\n`);
    expect(messages.some((m) => m.startsWith('no-restricted-imports'))).toBe(true);
  });

  it('accepts core-internal and dependency imports', async () => {
    const messages = await lintCore(
      "import { unzipSync } from 'fflate';\nimport { VERSION } from './version.js';\nexport const x = [unzipSync, VERSION];\n",
    );
    expect(messages).toEqual([]);
  });

  it('rejects console output in library code', async () => {
    const messages = await lintCore("console.log('hi');\n");
    expect(messages.some((m) => m.startsWith('no-console'))).toBe(true);
  });
});

describe('core purity: typecheck', () => {
  it('rejects DOM globals', () => {
    const errors = typecheckCore('export const t = document.title;\n');
    expect(errors.join('\n')).toMatch(/Cannot find name 'document'/);
  });
  it('rejects Node globals', () => {
    const errors = typecheckCore('export const e = process.env;\n');
    expect(errors.join('\n')).toMatch(/Cannot find name 'process'/);
  });
  it('allows the declared cross-platform globals', () => {
    const errors = typecheckCore(
      'queueMicrotask(() => {});\nexport const s = new TextDecoder().decode(new Uint8Array(1));\n',
    );
    expect(errors).toEqual([]);
  });
});
