// Vite aliases that resolve `skein`, `skein/react` and `skein/styles.css` to the
// sources, so the demo and the bench page import skein by package name, exactly
// as a user's app does, without building first.
import { fileURLToPath } from 'node:url';

const src = (p) => fileURLToPath(new URL(`../src/${p}`, import.meta.url));

export const skeinAliases = [
  { find: /^skein$/, replacement: src('index.ts') },
  { find: /^skein\/react$/, replacement: src('react.ts') },
  { find: /^skein\/styles\.css$/, replacement: src('styles.css') },
];
