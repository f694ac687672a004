import { createLazyModule } from '../display/lazy.js';

/**
 * The word-level diff (jsdiff), a chunk of its own: loaded when a
 * `<RunDiff>` first shows a changed row, never by a page without one.
 *
 * @example
 * declare const wordDiffModule: { load(): Promise<unknown> };
 * await wordDiffModule.load();
 */
export const wordDiffModule = createLazyModule(() => import('./word-diff.js'));
