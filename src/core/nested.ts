/**
 * Recursion without the call stack, for walks over input-controlled structure
 * (a span tree 100,000 levels deep overflows the call stack at about 10,000).
 *
 * The walk is written as a generator that `yield`s the arguments of each call
 * it would make to itself, and receives that call's result back from the
 * `yield`. {@link runNested} keeps the pending generators on an array (the
 * heap), so depth is bounded by memory only, and runs them in exactly the
 * order plain recursion would: a yielded call runs to its end before its
 * caller resumes.
 */

/**
 * Runs `step(...args)` and every call it yields, depth-first, and returns the
 * outer call's result.
 *
 * @example
 * import { runNested } from 'src/core/nested.js';
 * interface Node { children: Node[] }
 * // The depth of a tree, at any depth:
 * const depth = runNested(function* walk(node: Node): Generator<[Node], number, number> {
 *   let deepest = 0;
 *   for (const child of node.children) deepest = Math.max(deepest, yield [child]);
 *   return deepest + 1;
 * }, { children: [] });
 */
export function runNested<A extends unknown[], R>(
  step: (...args: A) => Generator<A, R, R>,
  ...args: A
): R {
  const stack: Generator<A, R, R>[] = [step(...args)];
  let sent: R | undefined;
  for (;;) {
    const top = stack[stack.length - 1]!;
    const next = top.next(sent as R);
    if (next.done) {
      stack.pop();
      if (stack.length === 0) return next.value;
      sent = next.value;
    } else {
      stack.push(step(...next.value));
      sent = undefined;
    }
  }
}
