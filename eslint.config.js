// ESLint flat config. Prettier owns formatting; ESLint owns correctness.
import js from '@eslint/js';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['dist/**', 'storybook-static/**', 'bench/.dist/**', 'coverage/**', 'node_modules/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    // Accessibility rules on the components we ship (and the stories that show them).
    files: ['src/react/**/*.tsx', 'stories/**/*.tsx', 'demo/**/*.tsx', 'viewer/**/*.tsx'],
    ...jsxA11y.flatConfigs.strict,
  },
  {
    // Library code reports through return values and diagnostics, never the console.
    files: ['src/**/*.{ts,tsx}'],
    rules: { 'no-console': 'error' },
  },
  {
    // The core is headless: no React, no DOM-bound or Node-bound layers, no Node built-ins.
    // (The DOM itself is kept out by src/core/tsconfig.json: lib ES2022 only.)
    files: ['src/core/**/*.ts'],
    languageOptions: { globals: {} },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^react($|[-/])',
              message: 'src/core is headless: no React (ARCHITECTURE.md).',
            },
            {
              regex: '^(\\.\\./)+(react|node)(/|$)',
              message: 'src/core must not import src/react or src/node.',
            },
            {
              regex: '(^|/)src/(react|node)(/|$)',
              message: 'src/core must not import src/react or src/node.',
            },
            {
              regex: '^(\\.\\./)+(react|server|cli)(\\.js|\\.ts)?$',
              message: 'src/core must not import the react/server entry points.',
            },
            {
              regex: '^node:',
              message: 'src/core runs in browsers and workers: no Node built-ins.',
            },
            {
              regex:
                '^(fs|path|os|child_process|http|https|net|stream|zlib|crypto|util|url|worker_threads)(/|$)',
              message: 'src/core runs in browsers and workers: no Node built-ins.',
            },
          ],
        },
      ],
    },
  },
);
