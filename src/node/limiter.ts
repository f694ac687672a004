/**
 * A queue that runs at most `n` tasks at once; the others wait their turn in
 * order. What bounds the files a server holds open and the bytes it holds
 * in memory when many requests arrive together.
 *
 * @example
 * import { createLimiter } from './limiter.js';
 * declare const paths: string[];
 * declare function sizeOf(path: string): Promise<number>;
 * const limit = createLimiter(2);
 * const sizes = await Promise.all(paths.map((p) => limit(() => sizeOf(p))));
 */
export function createLimiter(n: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (running >= n) await new Promise<void>((go) => waiting.push(go));
    else running++;
    try {
      return await task();
    } finally {
      // The slot passes straight to the next waiter, so `running` never dips.
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}
