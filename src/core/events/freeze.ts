/**
 * Deep-freezing for canonical events. Events are immutable once parsed or
 * appended (ARCHITECTURE.md "Canonical events"), so history cannot be patched
 * behind a view's back.
 */

/**
 * Freezes `value` and everything reachable from it through own enumerable
 * properties and array elements, in place, and returns it.
 *
 * - An object that is already frozen is taken to be deep-frozen and not
 *   walked again: shared sub-trees (pooled messages referenced by many model
 *   events) are frozen once, and a second `deepFreeze` of a parsed event is
 *   O(1).
 * - Typed arrays and other `ArrayBuffer` views are skipped (`Object.freeze`
 *   throws on views with elements); JSON never contains them.
 * - Recursive for the first {@link RECURSION_LIMIT} levels (events are a few
 *   levels deep, and a call is cheaper than an explicit stack), iterative
 *   below, so 100k-deep nesting cannot overflow the call stack. Safe on
 *   cycles: an object is frozen before its children are visited.
 *
 * @example
 * const event = deepFreeze({ event: 'info', data: { rows: [1, 2] } });
 * Object.isFrozen(event.data.rows); // true
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  if (ArrayBuffer.isView(value)) return value;
  freezeTree(value, 0);
  return value;
}

/**
 * One frozen empty array, shared by every event field that is empty (a model
 * call's `input` and `tools` when an importer has none): an event built with
 * it has one object fewer to allocate, keep and freeze. {@link deepFreeze}
 * skips it (frozen already).
 * @internal
 * @example
 * import { EMPTY_ARRAY } from 'src/core/events/freeze.js';
 * const tools: unknown[] = EMPTY_ARRAY;
 */
export const EMPTY_ARRAY: unknown[] = Object.freeze([]) as unknown as unknown[];

/**
 * One frozen empty object, as {@link EMPTY_ARRAY} (a model call's `config`).
 * @internal
 * @example
 * import { EMPTY_OBJECT } from 'src/core/events/freeze.js';
 * const config: Record<string, never> = EMPTY_OBJECT;
 */
export const EMPTY_OBJECT: Record<string, never> = Object.freeze({});

/** Depth below which {@link deepFreeze} recurses; deeper sub-trees use a stack. */
const RECURSION_LIMIT = 200;

/** True for a child that {@link deepFreeze} still has to visit. */
function needsFreeze(child: unknown): child is object {
  return (
    typeof child === 'object' &&
    child !== null &&
    !Object.isFrozen(child) &&
    !ArrayBuffer.isView(child)
  );
}

/** Freezes `node` (not frozen, not a view) and, recursively, its children. */
function freezeTree(node: object, depth: number): void {
  Object.freeze(node);
  const next = depth + 1;
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) {
      const child: unknown = node[i];
      if (needsFreeze(child)) {
        if (next < RECURSION_LIMIT) freezeTree(child, next);
        else freezeWithStack(child);
      }
    }
  } else {
    // for…in is the fastest own-key walk for JSON objects (no inherited
    // enumerable keys); Object.keys would allocate an array per object.
    const obj = node as Record<string, unknown>;
    for (const key in obj) {
      const child = obj[key];
      if (needsFreeze(child)) {
        if (next < RECURSION_LIMIT) freezeTree(child, next);
        else freezeWithStack(child);
      }
    }
  }
}

/** {@link freezeTree} with an explicit stack, for arbitrarily deep nesting. */
function freezeWithStack(root: object): void {
  const stack: object[] = [root];
  while (stack.length > 0) {
    const current = stack.pop() as Record<string, unknown>;
    // A node can be pushed twice before it is frozen (two parents in one
    // sub-tree, or a cycle): freeze and walk it once.
    if (Object.isFrozen(current)) continue;
    Object.freeze(current);
    if (Array.isArray(current)) {
      for (let i = 0; i < current.length; i++) {
        const child: unknown = current[i];
        if (needsFreeze(child)) stack.push(child);
      }
    } else {
      for (const key in current) {
        const child = current[key];
        if (needsFreeze(child)) stack.push(child);
      }
    }
  }
}

/**
 * A deep copy of a JSON-like value: plain objects and arrays are copied,
 * everything else is shared. Used by `parseEvent(json, { copy: true })` so the
 * caller's input is never frozen.
 *
 * @example
 * const copy = cloneJson({ a: [1, { b: 2 }] });
 */
export function cloneJson<T>(value: T): T {
  return cloneAt(value, 0) as T;
}

function cloneAt(value: unknown, depth: number): unknown {
  if (typeof value !== 'object' || value === null || ArrayBuffer.isView(value)) return value;
  // Deeper than the recursion limit, an explicit stack: hostile input nests
  // arrays thousands deep, and a copy must not overflow the call stack.
  if (depth >= RECURSION_LIMIT) return cloneIterative(value);
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = cloneAt(value[i], depth + 1);
    return out;
  }
  const out: Record<string, unknown> = {};
  const source = value as Record<string, unknown>;
  for (const key in source) setOwn(out, key, cloneAt(source[key], depth + 1));
  return out;
}

/** A JSON `"__proto__"` key is an own property; plain assignment would set the prototype instead. */
function setOwn(out: Record<string, unknown>, key: string, v: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(out, key, {
      value: v,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  } else {
    out[key] = v;
  }
}

function shell(value: object): Record<string, unknown> | unknown[] {
  return Array.isArray(value) ? new Array<unknown>(value.length) : {};
}

function cloneIterative(root: object): unknown {
  const top = shell(root);
  const stack: [source: object, target: Record<string, unknown> | unknown[]][] = [[root, top]];
  while (stack.length > 0) {
    const [source, target] = stack.pop()!;
    if (Array.isArray(source)) {
      const out = target as unknown[];
      for (let i = 0; i < source.length; i++) {
        const v = source[i] as unknown;
        if (typeof v !== 'object' || v === null || ArrayBuffer.isView(v)) out[i] = v;
        else stack.push([v, (out[i] = shell(v))]);
      }
    } else {
      const out = target as Record<string, unknown>;
      const src = source as Record<string, unknown>;
      for (const key in src) {
        const v = src[key];
        if (typeof v !== 'object' || v === null || ArrayBuffer.isView(v)) setOwn(out, key, v);
        else {
          const child = shell(v);
          setOwn(out, key, child);
          stack.push([v, child]);
        }
      }
    }
  }
  return top;
}
