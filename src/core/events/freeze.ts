/**
 * Deep-freezing for canonical events. Events are immutable once parsed or
 * appended, so history cannot be patched
 * behind a view's back.
 *
 * Freezing is also where a value's depth is bounded: every event enters
 * skein through it (importers seal their drafts with it, `parseEvent` ends
 * with it, `EventStream.append` runs it), so a value nested deeper than
 * {@link MAX_VALUE_DEPTH} is cut here, once, and every later walk (the views,
 * `JSON.stringify`, `postMessage`'s structured clone, all recursive in the
 * engines) meets a bounded value.
 */

/**
 * How deep a value may nest inside an event: objects and arrays more than
 * this many levels below the event (or below the value given to
 * {@link deepFreeze}) are replaced by {@link VALUE_CUT_MARKER}. Importers
 * report each file's cuts in one `value_too_deep` diagnostic.
 *
 * Why 1,000: structured clone (`postMessage` to and from a worker) is
 * recursive in every engine and overflows from about 1,850 levels in a
 * Chromium worker and 1,950 in Node; `JSON.stringify` in Node from about
 * 4,000. A thousand levels is far beyond any real log (inspect_ai events nest
 * a few levels; a tool result's JSON a few tens) and leaves room for the
 * envelopes events travel in. Span nesting is not a value's depth: spans are
 * separate events, and 100,000-deep span trees are shown in full.
 *
 * @example
 * let value: unknown = 'leaf';
 * for (let i = 0; i < 5000; i++) value = [value];
 * deepFreeze({ event: 'info', data: value }); // data is cut at MAX_VALUE_DEPTH levels
 */
export const MAX_VALUE_DEPTH = 1000;

/**
 * What stands where {@link deepFreeze} cut a value nested deeper than
 * {@link MAX_VALUE_DEPTH}: a string, so it shows in every view (and survives
 * JSON) as it is.
 *
 * @example
 * const isCut = (v: unknown) => v === VALUE_CUT_MARKER;
 */
export const VALUE_CUT_MARKER = `[value_too_deep: nested more than ${MAX_VALUE_DEPTH} levels; cut here]`;

/**
 * Freezes `value` and everything reachable from it through own enumerable
 * properties and array elements, in place, and returns it.
 *
 * - An object or array more than {@link MAX_VALUE_DEPTH} levels below `value`
 *   is replaced, in its (still unfrozen) parent, by {@link VALUE_CUT_MARKER}.
 * - An object that is already frozen is taken to be deep-frozen and not
 *   walked again: shared sub-trees (pooled messages referenced by many model
 *   events) are frozen once, and a second `deepFreeze` of a parsed event is
 *   O(1).
 * - Typed arrays and other `ArrayBuffer` views are skipped (`Object.freeze`
 *   throws on views with elements); JSON never contains them.
 * - Recursive for the first {@link RECURSION_LIMIT} levels (events are a few
 *   levels deep, and a call is cheaper than an explicit stack), iterative
 *   below, so deep nesting cannot overflow the call stack. Safe on cycles: an
 *   object is frozen before its children are visited.
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
 * {@link deepFreeze}, returning how many values it cut (0 nearly always), for
 * callers that report them (`value_too_deep`).
 * @internal
 * @example
 * import { deepFreezeCounting } from 'src/core/events/freeze.js';
 * const cuts = deepFreezeCounting({ a: [1] }); // 0
 */
export function deepFreezeCounting(value: unknown): number {
  const before = cutCount;
  deepFreeze(value);
  return cutCount - before;
}

/** Values cut so far by this module (a counter, read as a difference: one thread). */
let cutCount = 0;

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

/** Frozen objects with at least this many keys have their key list remembered. */
const KEYS_KEPT_FROM = 10_000;
const keysOfFrozen = new WeakMap<object, string[]>();

/**
 * `Object.keys(value)`, listed once for a large frozen object (an event's
 * value: events are deep-frozen, so their keys never change). Listing is
 * the cost of a million-key object (about a second in V8, which builds and
 * sorts the whole list), and every view that describes, summarizes or
 * serializes an event lists its values again. The list is shared: callers
 * must not change it.
 * @internal
 * @example
 * import { ownKeys } from 'src/core/events/freeze.js';
 * ownKeys(Object.freeze({ a: 1, b: 2 })); // ['a', 'b']
 */
export function ownKeys(value: object): readonly string[] {
  const kept = keysOfFrozen.get(value);
  if (kept !== undefined) return kept;
  const keys = Object.keys(value);
  if (keys.length >= KEYS_KEPT_FROM && Object.isFrozen(value)) keysOfFrozen.set(value, keys);
  return keys;
}

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
        else freezeWithStack(child, next);
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
        else freezeWithStack(child, next);
      }
    }
  }
}

/**
 * {@link freezeTree} with an explicit stack, for deep nesting: `root` sits
 * `rootDepth` levels below the value frozen. A child more than
 * {@link MAX_VALUE_DEPTH} levels down is cut before its parent is frozen.
 */
function freezeWithStack(root: object, rootDepth: number): void {
  const stack: object[] = [root];
  const depths: number[] = [rootDepth];
  while (stack.length > 0) {
    const current = stack.pop() as Record<string, unknown>;
    const depth = depths.pop()!;
    // A node can be pushed twice before it is frozen (two parents in one
    // sub-tree, or a cycle): freeze and walk it once.
    if (Object.isFrozen(current)) continue;
    if (depth === MAX_VALUE_DEPTH) cutChildren(current);
    Object.freeze(current);
    if (depth === MAX_VALUE_DEPTH) continue;
    if (Array.isArray(current)) {
      for (let i = 0; i < current.length; i++) {
        const child: unknown = current[i];
        if (needsFreeze(child)) {
          stack.push(child);
          depths.push(depth + 1);
        }
      }
    } else {
      for (const key in current) {
        const child = current[key];
        if (needsFreeze(child)) {
          stack.push(child);
          depths.push(depth + 1);
        }
      }
    }
  }
}

/** Replaces every object or array child of `node` (not yet frozen) by the marker. */
function cutChildren(node: Record<string, unknown>): void {
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) {
      const child: unknown = node[i];
      if (typeof child === 'object' && child !== null) {
        node[i] = VALUE_CUT_MARKER;
        cutCount++;
      }
    }
    return;
  }
  for (const key in node) {
    const child = node[key];
    if (typeof child === 'object' && child !== null) {
      // A property that cannot be written (a getter, a non-writable one on a
      // caller's object) keeps its value: it is frozen as it is below.
      const d = Object.getOwnPropertyDescriptor(node, key);
      if (d === undefined || !('value' in d) || d.writable !== true) continue;
      // Defined, not assigned: an own "__proto__" key stays data.
      Object.defineProperty(node, key, { value: VALUE_CUT_MARKER });
      cutCount++;
    }
  }
}

/**
 * A deep copy of a JSON-like value: plain objects and arrays are copied,
 * everything else is shared. Used by `parseEvent(json, { copy: true })` so the
 * caller's input is never frozen.
 *
 * @example
 * import { cloneJson } from './freeze.js';
 * const copy = cloneJson({ a: [1, { b: 2 }] });
 */
export function cloneJson<T>(value: T): T {
  return cloneAt(value, 0, false) as T;
}

/**
 * {@link cloneJson}, sharing what is frozen already instead of copying it:
 * for skein's own values only, where a frozen object is deep-frozen (the
 * rule {@link deepFreeze} relies on) — never for a caller's, which may be
 * frozen at the top and mutable below.
 * @internal
 * @example
 * import { cloneJsonSharingFrozen } from 'src/core/events/freeze.js';
 * const shared = Object.freeze({ b: 2 });
 * const copy = cloneJsonSharingFrozen({ a: shared }); // copy.a === shared
 */
export function cloneJsonSharingFrozen<T>(value: T): T {
  return cloneAt(value, 0, true) as T;
}

function cloneAt(value: unknown, depth: number, share: boolean): unknown {
  if (typeof value !== 'object' || value === null || ArrayBuffer.isView(value)) return value;
  if (share && Object.isFrozen(value)) return value;
  // Deeper than the recursion limit, an explicit stack: hostile input nests
  // arrays thousands deep, and a copy must not overflow the call stack.
  if (depth >= RECURSION_LIMIT) return cloneIterative(value, share);
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = cloneAt(value[i], depth + 1, share);
    return out;
  }
  const out: Record<string, unknown> = {};
  const source = value as Record<string, unknown>;
  for (const key in source) setOwn(out, key, cloneAt(source[key], depth + 1, share));
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

/** Whether a child is copied by {@link cloneIterative} (an object, not a view, not shared as frozen). */
function copied(v: unknown, share: boolean): v is object {
  return (
    typeof v === 'object' && v !== null && !ArrayBuffer.isView(v) && !(share && Object.isFrozen(v))
  );
}

function cloneIterative(root: object, share: boolean): unknown {
  const top = shell(root);
  const stack: [source: object, target: Record<string, unknown> | unknown[]][] = [[root, top]];
  while (stack.length > 0) {
    const [source, target] = stack.pop()!;
    if (Array.isArray(source)) {
      const out = target as unknown[];
      for (let i = 0; i < source.length; i++) {
        const v = source[i] as unknown;
        if (!copied(v, share)) out[i] = v;
        else stack.push([v, (out[i] = shell(v))]);
      }
    } else {
      const out = target as Record<string, unknown>;
      const src = source as Record<string, unknown>;
      for (const key in src) {
        const v = src[key];
        if (!copied(v, share)) setOwn(out, key, v);
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
