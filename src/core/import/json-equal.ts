// Equality of two JSON values, for importers that reconcile a source's
// whole states with what they already hold (AG-UI snapshots, AI SDK UI
// messages). Iterative (hostile nesting cannot overflow the stack), and
// bounded: past a node budget, two values count as different.

/** Past this many nodes compared, two values count as different. */
const EQUAL_BUDGET = 100_000;

/**
 * Whether two JSON values are equal, within a budget of nodes compared.
 *
 * @example
 * import { jsonEqual } from 'src/core/import/json-equal.js';
 * jsonEqual({ a: [1] }, { a: [1] }); // true
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  const stack: unknown[] = [a, b];
  let budget = EQUAL_BUDGET;
  while (stack.length > 0) {
    const y = stack.pop();
    const x = stack.pop();
    if (x === y) continue;
    if (--budget < 0) return false;
    if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) {
      if (typeof x === 'number' && typeof y === 'number' && Number.isNaN(x) && Number.isNaN(y))
        continue;
      return false;
    }
    if (Array.isArray(x) !== Array.isArray(y)) return false;
    if (Array.isArray(x)) {
      const ya = y as unknown[];
      if (x.length !== ya.length) return false;
      for (let i = 0; i < x.length; i++) stack.push(x[i], ya[i]);
      continue;
    }
    const xo = x as Record<string, unknown>;
    const yo = y as Record<string, unknown>;
    const keys = Object.keys(xo);
    if (keys.length !== Object.keys(yo).length) return false;
    for (const k of keys) {
      if (!Object.prototype.hasOwnProperty.call(yo, k)) return false;
      stack.push(xo[k], yo[k]);
    }
  }
  return true;
}
