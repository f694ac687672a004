/**
 * `skein` — the headless core. Runs in browsers, workers and Node.
 * @packageDocumentation
 */
export * from './core/index.js';
