import { useEffect, useSyncExternalStore } from 'react';
import { Listeners } from '../../core/stream/listeners.js';

/**
 * A module loaded on first use with a dynamic `import()` ("pay for
 * what you use"): the markdown stack and the HTML sanitizer are most of what
 * `<Display>` would weigh, and many runs hold neither markdown nor trusted
 * HTML. A small external store, so every renderer waiting on it re-renders
 * once when it arrives.
 */
export interface LazyModule<T> {
  /** The module, once loaded; `undefined` before. */
  get(): T | undefined;
  /** Starts loading (once; again after a failure) and resolves with the module. */
  load(): Promise<T>;
  subscribe(listener: () => void): () => void;
}

/**
 * A {@link LazyModule} around `importer` (a function holding the `import()`, so
 * bundlers split the module into its own chunk).
 *
 * @example
 * import { createLazyModule } from './lazy.js';
 * const markdown = createLazyModule(() => import('./renderers/markdown-body.js'));
 */
export function createLazyModule<T>(importer: () => Promise<T>): LazyModule<T> {
  let value: T | undefined;
  let pending: Promise<T> | undefined;
  const listeners = new Listeners();
  return {
    get: () => value,
    load() {
      if (value !== undefined) return Promise.resolve(value);
      pending ??= importer().then(
        (module) => {
          value = module;
          listeners.notify();
          return module;
        },
        (error: unknown) => {
          // A failed chunk request (offline, a deploy replaced the files) is
          // retried by the next renderer that asks.
          pending = undefined;
          throw error;
        },
      );
      return pending;
    },
    subscribe: (listener) => listeners.subscribe(listener),
  };
}

/**
 * The module if loaded, else `undefined` and (when `enabled`) a load starts
 * after mount.
 * Server rendering and hydration see the same value as long as both sides
 * preloaded alike (see `preloadDisplay`): nothing loads during render.
 *
 * @example
 * import { useLazyModule } from './lazy.js';
 * import { markdownModule } from './loaders.js';
 * declare const text: string;
 * function Markdown() {
 *   const md = useLazyModule(markdownModule);
 *   return md ? (
 *     <md.MarkdownChunk text={text} trust="untrusted" maxImageBytes={1e7} />
 *   ) : (
 *     <PlainText text={text} limit={10_000} />
 *   );
 * }
 */
export function useLazyModule<T>(module: LazyModule<T>, enabled = true): T | undefined {
  const value = useSyncExternalStore(module.subscribe, module.get, module.get);
  useEffect(() => {
    // A failed load leaves the fallback in place; nothing to report to the page.
    if (enabled && value === undefined) module.load().catch(() => undefined);
  }, [module, value, enabled]);
  return value;
}
