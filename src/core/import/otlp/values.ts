// Values of OTLP/JSON records: AnyValues and key-value lists as plain JSON,
// JSON-string attributes, and the property reads every other part uses.
import type { JsonObject } from '../../events/types.js';
import { MAX_VALUE_DEPTH, EMPTY_OBJECT } from '../../events/freeze.js';
import { isRecord, own, safeJson } from '../guards.js';

/** Attributes as one object, key by key. */
export type Attrs = Record<string, unknown>;

/** Sets a key as an own property, so a `__proto__` key is data, not a prototype change. */
export function put(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(obj, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  else obj[key] = value;
}

/** `Object.prototype.hasOwnProperty`, called on records that may lack the method. */
export const hasOwn = Object.prototype.hasOwnProperty;

/**
 * `own(r, key)` for the names this importer reads (never `__proto__`): a
 * name the object lacks answers from its prototype only with a method of
 * `Object.prototype` (`toString`, …), and a value read from JSON is never a
 * function, so a function is taken for absent — one property load, no
 * `hasOwnProperty` call per field read.
 */
export function field(r: Record<string, unknown>, key: string): unknown {
  const v = r[key];
  return typeof v === 'function' ? undefined : v;
}

/**
 * What stands for an AnyValue nested past `MAX_VALUE_DEPTH` levels: an
 * object, so the event's `deepFreeze` (which it is always deeper than) cuts
 * it and counts the cut for the import's `value_too_deep` diagnostic.
 */
const CUT_ANY_VALUE = Object.freeze({ value_too_deep: true });

/**
 * An OTLP `AnyValue` as plain JSON (64-bit ints beyond 2^53 stay strings).
 * Depth-bounded: past `MAX_VALUE_DEPTH` levels the rest is the cut marker, as
 * `deepFreeze` cuts any event's value (and counts it, for `value_too_deep`).
 */
export function anyValue(v: unknown, depth = 0): unknown {
  if (!isRecord(v)) return v ?? null;
  if (depth > MAX_VALUE_DEPTH) return CUT_ANY_VALUE;
  let x = field(v, 'stringValue');
  if (x !== undefined) return x;
  x = field(v, 'intValue');
  if (x !== undefined) {
    if (typeof x === 'string') {
      const n = Number(x);
      return Number.isSafeInteger(n) ? n : x;
    }
    return x;
  }
  x = field(v, 'doubleValue');
  if (x !== undefined) return typeof x === 'string' ? Number(x) : x;
  x = field(v, 'boolValue');
  if (x !== undefined) return x;
  x = field(v, 'arrayValue');
  if (x !== undefined) {
    const values = isRecord(x) ? field(x, 'values') : undefined;
    return Array.isArray(values) ? values.map((e) => anyValue(e, depth + 1)) : [];
  }
  x = field(v, 'kvlistValue');
  if (x !== undefined) {
    const values = isRecord(x) ? field(x, 'values') : undefined;
    return Array.isArray(values) ? keyValues(values, depth + 1) : {};
  }
  x = field(v, 'bytesValue');
  if (x !== undefined) return x;
  return null;
}

/**
 * `[{key, value: AnyValue}]` (OTLP) or a plain object (hand-written spans) as
 * one object. Its keys' {@link keyBit}s are left in {@link keyMask}.
 */
export function keyValues(list: unknown, depth = 0): Attrs {
  const out: Attrs = {};
  let mask = 0;
  if (Array.isArray(list)) {
    for (let i = 0; i < list.length; i++) {
      const kv: unknown = list[i];
      if (!isRecord(kv)) continue;
      const key = field(kv, 'key');
      if (typeof key !== 'string') continue;
      mask |= keyBit(key);
      put(out, key, anyValue(field(kv, 'value'), depth));
    }
  } else if (isRecord(list)) {
    for (const key of Object.keys(list)) {
      mask |= keyBit(key);
      put(out, key, own(list, key));
    }
  }
  keyMask = mask; // after the values: a nested kvlist sets it too
  return out;
}

/**
 * One bit per first character of a key (folded to 32): an attribute whose
 * bit is not in an object's mask is not one of its keys. A model span is asked
 * for some fifty spellings (every dialect's), most of another dialect's
 * prefix: those answer without a property lookup.
 */
export function keyBit(key: string): number {
  return 1 << (key.charCodeAt(0) & 31);
}

/** The key mask of the object {@link keyValues} last returned. */
export let keyMask = 0;

/** A finite number, or a string of one, as a number; else undefined. */
export function num(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v !== '') {
    const n = Number(v);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

/** A JSON-string attribute parsed (the usual encoding of GenAI content), or the value itself. */
export function jsonish(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  const c = v.charCodeAt(0);
  if (c !== 123 /* { */ && c !== 91 /* [ */ && c !== 34 /* " */) return v;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return v;
  }
}

/** Text for a result or content slot: strings as they are, anything else as JSON. */
export function asText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === undefined || v === null) return '';
  return safeJson(v) ?? '';
}

/**
 * Tool-call arguments as an object: parsed from JSON text, a non-object kept
 * as `{value}`; none as {@link NO_ARGS}.
 */
export function asArgs(v: unknown): JsonObject {
  const parsed = jsonish(v);
  if (isRecord(parsed)) return parsed;
  if (parsed === undefined || parsed === null || parsed === '') return NO_ARGS;
  return { value: parsed };
}

/**
 * A tool call's arguments when there are none: one frozen object for all
 * (a tool span usually has none, its model call's are paired in: `pairTools`
 * replaces it, never adds to it), not an object per event.
 */
export const NO_ARGS: JsonObject = EMPTY_OBJECT;

/** No attributes left (never added to). */
export const NO_ATTRS: Attrs = Object.freeze({});
