// Past 600 lines: one bounded walk (visit budget, cycle tracking, limits) that every kind of value goes through.
/**
 * Shape summaries: step 3 of the representation cascade. A summary
 * says what a value *is* — `Array(10000) of {id: number, name: string}` — and
 * shows a bounded preview of it; it never dumps the data.
 *
 * Every cost is bounded independently of the value's size:
 * - arrays are **sampled** (evenly spaced indices, first and last included)
 *   to infer the element shape, and previewed by head and tail only;
 * - objects, Maps and Sets are read up to a fixed number of keys/entries;
 * - nesting stops at `maxDepth`, a global visit budget backs every limit up,
 *   and the text is cut to `maxLength` at the end;
 * - cycles print `[Circular]` (ancestors on the current path are tracked, so
 *   a shared, non-cyclic reference is shown twice, as `util.inspect` does).
 *
 * Property reads go through `safeGet`: a throwing getter or a hostile Proxy
 * yields a marker instead of an exception.
 */
import type { DisplayOptions } from './types.js';
import { ownKeys } from '../events/freeze.js';

/**
 * The limits with defaults filled.
 * @internal
 * @example
 * import { resolveLimits, type ShapeLimits } from 'src/core/display/shape-summary.js';
 * const limits: ShapeLimits = resolveLimits({ maxItems: 3 });
 */
export interface ShapeLimits {
  maxDepth: number;
  maxItems: number;
  maxStringLength: number;
  maxLength: number;
  sampleSize: number;
}

/**
 * Defaults of the display options that bound a summary.
 * @internal
 * @example
 * import { DEFAULT_LIMITS } from 'src/core/display/shape-summary.js';
 * DEFAULT_LIMITS.maxItems; // 10
 */
export const DEFAULT_LIMITS: ShapeLimits = {
  maxDepth: 2,
  maxItems: 10,
  maxStringLength: 80,
  maxLength: 2000,
  sampleSize: 64,
};

// Backstop against pathological breadth × depth products (wide objects of wide
// arrays): after this many visited nodes everything left prints as `…`.
const VISIT_BUDGET = 20_000;
// Union members shown before `| …`: more than a few types is noise.
const MAX_UNION = 4;
// Own keys read from one object when merging the shapes of sampled elements.
const KEYS_PER_SAMPLE = 64;
// Lines of an Error's stack shown at top level.
const STACK_LINES = 12;

/**
 * Fills the summary limits from display options (invalid numbers → defaults).
 * @internal
 * @example
 * import { resolveLimits } from 'src/core/display/shape-summary.js';
 * resolveLimits({ maxDepth: 1 }).maxItems; // 10
 */
export function resolveLimits(options: DisplayOptions = {}): ShapeLimits {
  const pick = (v: number | undefined, d: number, min: number) =>
    typeof v === 'number' && Number.isFinite(v) && v >= min ? Math.floor(v) : d;
  return {
    maxDepth: pick(options.maxDepth, DEFAULT_LIMITS.maxDepth, 0),
    maxItems: pick(options.maxItems, DEFAULT_LIMITS.maxItems, 1),
    maxStringLength: pick(options.maxStringLength, DEFAULT_LIMITS.maxStringLength, 1),
    maxLength: pick(options.maxLength, DEFAULT_LIMITS.maxLength, 16),
    sampleSize: pick(options.sampleSize, DEFAULT_LIMITS.sampleSize, 2),
  };
}

/**
 * The result of {@link summarizeShape}.
 * @internal
 * @example
 * import { summarizeShape } from 'src/core/display/shape-summary.js';
 * summarizeShape([1]).preview; // '[1]'
 */
export interface ShapeSummary {
  /** First line: the shape (`Array(3) of number`). */
  headline: string;
  /** Further lines: the bounded preview (may be empty). */
  preview: string;
  /** `headline` and `preview` joined, cut to `maxLength`. */
  text: string;
  /** Whether anything was elided (items, keys, characters, depth). */
  truncated: boolean;
}

interface Walk {
  limits: ShapeLimits;
  budget: number;
  /** Objects on the current path (cycle detection). */
  path: Set<object>;
  truncated: boolean;
  /** Own keys read so far, by object. */
  keys: Map<object, readonly string[]>;
}

const NO_VALUE = Symbol('no value');
type Read = unknown | typeof NO_VALUE;

/** Reads a property; a throwing getter or Proxy trap gives a marker, never an exception. */
function safeGet(target: object, key: PropertyKey): Read {
  try {
    return (target as Record<PropertyKey, unknown>)[key];
  } catch {
    return NO_VALUE;
  }
}

function ownKeysBounded(
  target: object,
  max: number,
  walk: Walk,
): { keys: readonly string[]; total: number } {
  // Object.keys is the one step that is linear in a value's size: V8 builds
  // the whole key list even for a `for…in` that stops early. It is one native
  // call, cached so the shape and the preview of an object share it (and,
  // for a large frozen object, so every walk over it does: `ownKeys`).
  let all = walk.keys.get(target);
  if (!all) {
    try {
      all = ownKeys(target);
    } catch {
      all = [];
    }
    walk.keys.set(target, all);
  }
  return { keys: all.length > max ? all.slice(0, max) : all, total: all.length };
}

function className(value: object): string | undefined {
  let proto: unknown;
  try {
    proto = Object.getPrototypeOf(value);
  } catch {
    return 'Proxy';
  }
  if (proto === null) return undefined; // Object.create(null): a plain dictionary
  const ctor = safeGet(proto as object, 'constructor');
  if (typeof ctor !== 'function') return undefined;
  const name = safeGet(ctor, 'name');
  if (typeof name !== 'string' || name === '' || name === 'Object') return undefined;
  return name;
}

function tagOf(value: object): string {
  try {
    return Object.prototype.toString.call(value).slice(8, -1);
  } catch {
    return 'Object';
  }
}

const IDENT = /^[A-Za-z_$][\w$]*$/;

function cut(text: string, max: number, walk: Walk): string {
  if (text.length <= max) return text;
  walk.truncated = true;
  return `${text.slice(0, max)}…`;
}

function formatKey(key: string, walk: Walk): string {
  return IDENT.test(key) ? key : JSON.stringify(cut(key, walk.limits.maxStringLength, walk));
}

function formatString(s: string, walk: Walk): string {
  const max = walk.limits.maxStringLength;
  if (s.length <= max) return JSON.stringify(s);
  walk.truncated = true;
  return `${JSON.stringify(s.slice(0, max))}…(${s.length} chars)`;
}

/**
 * A primitive as it prints inside a preview.
 * @internal
 * @example
 * import { formatPrimitive } from 'src/core/display/shape-summary.js';
 * formatPrimitive(-0); // '-0'
 */
export function formatPrimitive(value: unknown): string {
  switch (typeof value) {
    case 'number':
      return Object.is(value, -0) ? '-0' : String(value);
    case 'bigint':
      return `${value}n`;
    case 'symbol':
      return value.toString();
    case 'string':
      return value;
    default:
      return String(value);
  }
}

function functionLabel(fn: object): string {
  const name = safeGet(fn, 'name');
  const label = typeof name === 'string' && name !== '' ? name : '(anonymous)';
  // Telling a class from a function needs its source; read only the first
  // bytes' worth by checking the prefix of toString (bounded by the engine's
  // own string, which we do not copy).
  let isClass = false;
  try {
    isClass = Function.prototype.toString.call(fn).startsWith('class');
  } catch {
    // A revoked Proxy or a host function: call it a function.
  }
  return isClass ? `[class ${label}]` : `[Function ${label}]`;
}

function isTypedArray(value: object): value is ArrayLike<number | bigint> & { length: number } {
  return ArrayBuffer.isView(value) && !(value instanceof DataView);
}

function errorLine(error: object, walk: Walk): string {
  const name = safeGet(error, 'name');
  const message = safeGet(error, 'message');
  const n = typeof name === 'string' ? name : 'Error';
  const m = typeof message === 'string' ? cut(message, walk.limits.maxStringLength * 2, walk) : '';
  return m ? `${n}: ${m}` : n;
}

function dateText(date: Date): string {
  const t = date.getTime();
  return Number.isNaN(t) ? 'Invalid Date' : date.toISOString();
}

/** Indices to sample from an array-like of length n: all, or `size` evenly spaced. */
function sampleIndices(length: number, size: number): number[] {
  if (length <= size) return Array.from({ length }, (_, i) => i);
  const out: number[] = [];
  const step = (length - 1) / (size - 1);
  for (let i = 0; i < size; i++) out.push(Math.round(i * step));
  return out;
}

/** Samples an array's elements; a sample of holes only is reported as `empty`. */
function sampledType(array: readonly unknown[], depth: number, walk: Walk, size: number): string {
  const sample = sampleOf(array, size);
  return sample.length === 0 ? 'empty' : mergedType(sample, depth, walk, nextSample(size));
}

function sampleOf(array: readonly unknown[], size: number): unknown[] {
  const out: unknown[] = [];
  for (const i of sampleIndices(array.length, size)) {
    // Holes in sparse arrays carry no type information.
    if (i in array) {
      const v = safeGet(array, i);
      if (v !== NO_VALUE) out.push(v);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------
// Shapes (types)
// ---------------------------------------------------------------------------

/** The type of one value, at `depth` levels of remaining nesting. */
function typeOf(value: unknown, depth: number, walk: Walk, sample: number): string {
  if (value === null) return 'null';
  if (value === NO_VALUE) return 'unknown'; // a getter threw
  const t = typeof value;
  if (t !== 'object' && t !== 'function') return t;
  if (walk.budget-- <= 0) {
    walk.truncated = true;
    return '…';
  }
  const obj = value as object;
  if (t === 'function') return 'function';
  if (walk.path.has(obj)) return '[Circular]';
  if (Array.isArray(obj)) {
    if (obj.length === 0) return '[]';
    if (depth <= 0) {
      walk.truncated = true;
      return '[…]';
    }
    walk.path.add(obj);
    const elem = sampledType(obj, depth - 1, walk, sample);
    walk.path.delete(obj);
    return elem.includes(' | ') ? `(${elem})[]` : `${elem}[]`;
  }
  const special = opaqueType(obj);
  if (special !== undefined) return special;
  if (obj instanceof Map || obj instanceof Set) {
    const kind = obj instanceof Map ? 'Map' : 'Set';
    if (depth <= 0) return kind;
    walk.path.add(obj);
    const { key, value: elem } = collectionType(obj, depth - 1, walk, nextSample(sample));
    walk.path.delete(obj);
    return key === undefined ? `${kind}<${elem}>` : `${kind}<${key}, ${elem}>`;
  }
  return mergedType([obj], depth, walk, sample);
}

/** Types printed as a name only (no structure worth showing in a shape). */
function opaqueType(obj: object): string | undefined {
  if (isTypedArray(obj)) return tagOf(obj);
  if (obj instanceof ArrayBuffer || obj instanceof DataView) return tagOf(obj);
  if (obj instanceof Date) return 'Date';
  if (obj instanceof RegExp) return 'RegExp';
  if (obj instanceof Error) {
    const name = safeGet(obj, 'name');
    return typeof name === 'string' ? name : 'Error';
  }
  if (
    obj instanceof Promise ||
    obj instanceof WeakMap ||
    obj instanceof WeakSet ||
    obj instanceof WeakRef
  ) {
    return tagOf(obj);
  }
  // Boxed primitives and iterators (never iterated: that would consume them).
  const tag = tagOf(obj);
  if (
    tag === 'Number' ||
    tag === 'String' ||
    tag === 'Boolean' ||
    tag === 'Symbol' ||
    tag === 'BigInt' ||
    tag === 'Generator' ||
    tag === 'AsyncGenerator' ||
    tag.endsWith('Iterator')
  ) {
    return tag;
  }
  return undefined;
}

function nextSample(sample: number): number {
  // Nested arrays are sampled more thinly: the product over levels stays small.
  return Math.max(4, Math.floor(sample / 8));
}

/** Key and value types of a Map, or the element type of a Set, from its first entries. */
function collectionType(
  obj: Map<unknown, unknown> | Set<unknown>,
  depth: number,
  walk: Walk,
  sample: number,
): { key?: string; value: string } {
  const keys: unknown[] = [];
  const values: unknown[] = [];
  try {
    let n = 0;
    if (obj instanceof Map) {
      for (const [k, v] of obj) {
        if (n++ >= sample) break;
        keys.push(k);
        values.push(v);
      }
    } else {
      for (const v of obj) {
        if (n++ >= sample) break;
        values.push(v);
      }
    }
  } catch {
    return { value: '…' };
  }
  const value = mergedType(values, depth, walk, sample);
  return obj instanceof Map ? { key: mergedType(keys, depth, walk, sample), value } : { value };
}

/**
 * One type for several values: objects of the same class merge key by key
 * (`note?` marks keys missing from some), anything else becomes a union.
 */
function mergedType(values: readonly unknown[], depth: number, walk: Walk, sample: number): string {
  if (values.length === 0) return 'never';
  const members: string[] = [];
  const seen = new Set<string>();
  const groups = new Map<string, object[]>();
  const add = (type: string) => {
    if (!seen.has(type)) {
      seen.add(type);
      members.push(type);
    }
  };
  for (const v of values) {
    if (v !== null && typeof v === 'object' && !Array.isArray(v) && isRecordLike(v)) {
      if (walk.path.has(v)) {
        add('[Circular]');
        continue;
      }
      const cls = className(v) ?? '';
      let group = groups.get(cls);
      if (!group) {
        group = [];
        groups.set(cls, group);
        // Reserve the group's place in the union's order.
        add(`\u0000${cls}`);
      }
      group.push(v);
    } else {
      add(typeOf(v, depth, walk, sample));
    }
  }
  const out = members.map((m) => {
    if (!m.startsWith('\u0000')) return m;
    const cls = m.slice(1);
    return objectType(groups.get(cls) ?? [], cls, depth, walk, sample);
  });
  if (out.length > MAX_UNION) {
    walk.truncated = true;
    return `${out.slice(0, MAX_UNION).join(' | ')} | …`;
  }
  return out.join(' | ');
}

/** Plain objects and class instances (not arrays, collections or opaque built-ins). */
function isRecordLike(v: object): boolean {
  return !(v instanceof Map || v instanceof Set) && opaqueType(v) === undefined;
}

function objectType(
  objs: readonly object[],
  cls: string,
  depth: number,
  walk: Walk,
  sample: number,
): string {
  const prefix = cls ? `${cls} ` : '';
  if (depth <= 0) {
    walk.truncated = true;
    return `${prefix}{…}`;
  }
  const max = walk.limits.maxItems;
  const order: string[] = [];
  const present = new Map<string, unknown[]>();
  let extra = 0;
  for (const o of objs) {
    if (walk.budget-- <= 0) {
      walk.truncated = true;
      break;
    }
    const { keys, total } = ownKeysBounded(o, KEYS_PER_SAMPLE, walk);
    let shown = 0;
    for (const k of keys) {
      let vals = present.get(k);
      if (!vals) {
        if (order.length >= max) continue;
        vals = [];
        present.set(k, vals);
        order.push(k);
      }
      shown++;
      vals.push(safeGet(o, k));
    }
    // Keys of this object the type does not name (the most over all samples).
    extra = Math.max(extra, total - shown);
  }
  if (order.length === 0) return cls ? `${cls} {}` : '{}';
  for (const o of objs) walk.path.add(o);
  const fields = order.map((k) => {
    const vals = present.get(k) ?? [];
    const optional = vals.length < objs.length ? '?' : '';
    return `${formatKey(k, walk)}${optional}: ${mergedType(vals, depth - 1, walk, sample)}`;
  });
  for (const o of objs) walk.path.delete(o);
  if (extra > 0) {
    walk.truncated = true;
    fields.push(`… +${extra}`);
  }
  return `${prefix}{${fields.join(', ')}}`;
}

// ---------------------------------------------------------------------------
// Previews (values)
// ---------------------------------------------------------------------------

function preview(value: unknown, depth: number, walk: Walk): string {
  if (typeof value === 'string') return formatString(value, walk);
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) {
    return formatPrimitive(value);
  }
  if (walk.budget-- <= 0) {
    walk.truncated = true;
    return '…';
  }
  const obj = value as object;
  if (typeof value === 'function') return functionLabel(obj);
  if (walk.path.has(obj)) return '[Circular]';
  if (obj instanceof Date) return dateText(obj);
  if (obj instanceof RegExp) return cut(String(obj), walk.limits.maxStringLength, walk);
  if (obj instanceof Error) return errorLine(obj, walk);
  if (Array.isArray(obj)) {
    if (obj.length === 0) return '[]';
    if (depth <= 0) {
      walk.truncated = true;
      return `[…${obj.length}]`;
    }
    return withPath(obj, walk, () => `[${listPreview(obj, obj.length, depth - 1, walk)}]`);
  }
  if (isTypedArray(obj)) {
    const len = obj.length;
    if (depth <= 0) return `${tagOf(obj)}(${len})`;
    return `${tagOf(obj)}(${len}) [${listPreview(obj, len, depth - 1, walk)}]`;
  }
  if (obj instanceof ArrayBuffer) return `ArrayBuffer(${obj.byteLength} bytes)`;
  if (obj instanceof DataView) return `DataView(${obj.byteLength} bytes)`;
  if (obj instanceof Map || obj instanceof Set) {
    const head = `${obj instanceof Map ? 'Map' : 'Set'}(${obj.size})`;
    if (depth <= 0 || obj.size === 0) return obj.size === 0 ? `${head} {}` : `${head} {…}`;
    return withPath(obj, walk, () => `${head} {${entriesPreview(obj, depth - 1, walk)}}`);
  }
  const opaque = opaqueType(obj);
  if (opaque !== undefined) return opaque;
  const cls = className(obj);
  const prefix = cls ? `${cls} ` : '';
  if (depth <= 0) {
    walk.truncated = true;
    return `${prefix}{…}`;
  }
  return withPath(obj, walk, () => `${prefix}{${fieldsPreview(obj, depth - 1, walk)}}`);
}

function withPath(obj: object, walk: Walk, fn: () => string): string {
  walk.path.add(obj);
  try {
    return fn();
  } finally {
    walk.path.delete(obj);
  }
}

/** Head and tail of an array-like: `1, 2, 3, … 9994 more, 9998, 9999`. */
function listPreview(list: ArrayLike<unknown>, length: number, depth: number, walk: Walk): string {
  const max = walk.limits.maxItems;
  const item = (i: number) => {
    if (!(i in list)) return '<empty>';
    const v = safeGet(list, i);
    return v === NO_VALUE ? '<unreadable>' : preview(v, depth, walk);
  };
  if (length <= max) {
    const parts: string[] = [];
    for (let i = 0; i < length; i++) parts.push(item(i));
    return parts.join(', ');
  }
  walk.truncated = true;
  const head = Math.ceil(max / 2);
  const tail = max - head;
  const parts: string[] = [];
  for (let i = 0; i < head; i++) parts.push(item(i));
  parts.push(`… ${length - max} more`);
  for (let i = length - tail; i < length; i++) parts.push(item(i));
  return parts.join(', ');
}

function entriesPreview(
  obj: Map<unknown, unknown> | Set<unknown>,
  depth: number,
  walk: Walk,
): string {
  // Head only: reaching the tail of a Map/Set means iterating all of it.
  const max = walk.limits.maxItems;
  const parts: string[] = [];
  try {
    if (obj instanceof Map) {
      for (const [k, v] of obj) {
        if (parts.length >= max) break;
        parts.push(`${preview(k, depth, walk)} => ${preview(v, depth, walk)}`);
      }
    } else {
      for (const v of obj) {
        if (parts.length >= max) break;
        parts.push(preview(v, depth, walk));
      }
    }
  } catch {
    parts.push('<unreadable>');
  }
  if (obj.size > parts.length) {
    walk.truncated = true;
    parts.push(`… ${obj.size - parts.length} more`);
  }
  return parts.join(', ');
}

function fieldsPreview(obj: object, depth: number, walk: Walk): string {
  const { keys, total } = ownKeysBounded(obj, walk.limits.maxItems, walk);
  const parts = keys.map((k) => {
    const v = safeGet(obj, k);
    return `${formatKey(k, walk)}: ${v === NO_VALUE ? '<getter threw>' : preview(v, depth, walk)}`;
  });
  if (total > keys.length) {
    walk.truncated = true;
    parts.push(`… ${total - keys.length} more`);
  }
  return parts.join(', ');
}

// ---------------------------------------------------------------------------
// The summary
// ---------------------------------------------------------------------------

function headlineOf(value: object, walk: Walk): string {
  const { maxDepth, sampleSize } = walk.limits;
  if (typeof value === 'function') return functionLabel(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return 'Array(0)';
    walk.path.add(value);
    // The array itself does not count as a level: `Array(n) of {…}` shows
    // its elements' fields down to maxDepth, like a top-level object does.
    const elem = sampledType(value, maxDepth, walk, sampleSize);
    walk.path.delete(value);
    return `Array(${value.length}) of ${elem}`;
  }
  if (isTypedArray(value)) return `${tagOf(value)}(${value.length})`;
  if (value instanceof ArrayBuffer) return `ArrayBuffer(${value.byteLength} bytes)`;
  if (value instanceof DataView) return `DataView(${value.byteLength} bytes)`;
  if (value instanceof Date) return `Date ${dateText(value)}`;
  if (value instanceof RegExp)
    return `RegExp ${cut(String(value), walk.limits.maxStringLength, walk)}`;
  if (value instanceof Error) return errorLine(value, walk);
  if (value instanceof Map || value instanceof Set) {
    const kind = value instanceof Map ? 'Map' : 'Set';
    if (value.size === 0) return `${kind}(0)`;
    walk.path.add(value);
    const inner = collectionType(value, maxDepth, walk, sampleSize);
    walk.path.delete(value);
    const of = inner.key === undefined ? inner.value : `${inner.key} => ${inner.value}`;
    return `${kind}(${value.size}) of ${of}`;
  }
  const opaque = opaqueType(value);
  if (opaque !== undefined) return opaque;
  return typeOf(value, maxDepth, walk, sampleSize);
}

function previewOf(value: object, walk: Walk): string {
  const { maxDepth } = walk.limits;
  if (typeof value === 'function' || value instanceof ArrayBuffer || value instanceof DataView)
    return '';
  if (value instanceof Date || value instanceof RegExp) return '';
  if (value instanceof Error) return stackOf(value, walk);
  if (opaqueType(value) !== undefined && !isTypedArray(value)) return '';
  if (Array.isArray(value) && value.length === 0) return '';
  if (isTypedArray(value)) {
    return value.length === 0
      ? '[]'
      : `[${listPreview(value, value.length, Math.max(0, maxDepth - 1), walk)}]`;
  }
  return preview(value, Math.max(1, maxDepth), walk);
}

function stackOf(error: object, walk: Walk): string {
  const stack = safeGet(error, 'stack');
  const lines: string[] = [];
  if (typeof stack === 'string') {
    // V8 repeats "Name: message" as the first line; the headline has it already.
    const all = stack.split('\n').filter((l) => /^\s+at\s|@/.test(l));
    lines.push(...all.slice(0, STACK_LINES).map((l) => cut(l.trimEnd(), 200, walk)));
    if (all.length > STACK_LINES) {
      walk.truncated = true;
      lines.push(`    … ${all.length - STACK_LINES} more frames`);
    }
  }
  const cause = safeGet(error, 'cause');
  if (cause !== undefined && cause !== NO_VALUE) lines.push(`cause: ${preview(cause, 1, walk)}`);
  return lines.join('\n');
}

/**
 * Summarizes an object (container, class instance, built-in) within bounded
 * time and output. Never throws.
 * @internal
 * @example
 * import { summarizeShape } from 'src/core/display/shape-summary.js';
 * summarizeShape([{ id: 1, name: 'a' }]).headline; // 'Array(1) of {id: number, name: string}'
 */
export function summarizeShape(value: object, options: DisplayOptions = {}): ShapeSummary {
  const walk: Walk = {
    limits: resolveLimits(options),
    budget: VISIT_BUDGET,
    path: new Set(),
    truncated: false,
    keys: new Map(),
  };
  let headline: string;
  let body: string;
  try {
    headline = headlineOf(value, walk);
    body = previewOf(value, walk);
  } catch {
    // A Proxy whose traps throw where safeGet does not reach (getPrototypeOf
    // inside instanceof, ownKeys): name what we can.
    headline = tagOf(value);
    body = '';
    walk.truncated = true;
  }
  // `{}` under `{}` says nothing twice.
  if (body === headline) body = '';
  let text = body ? `${headline}\n${body}` : headline;
  const max = walk.limits.maxLength;
  if (text.length > max) {
    walk.truncated = true;
    text = `${text.slice(0, max)}… (${text.length - max} more chars)`;
  }
  return { headline, preview: body, text, truncated: walk.truncated };
}
