/**
 * `skein/react` — React components and hooks. Requires `react` and `react-dom`
 * (optional peer dependencies of the package).
 * @packageDocumentation
 */
export * from './react/index.js';
