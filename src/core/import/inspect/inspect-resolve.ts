// Undoes inspect_ai's size reductions on a sample's raw events, in place:
// the message pool (`input_refs`), the call pool (`call_refs` + `call_key`) and
// attachments (`attachment://<hash>`, the chunked layout's `attachment://<index>`,
// legacy `tc://<hash>`), as inspect_ai's
// `log/_pool.py` (`resolve_model_event_inputs/calls`) and `log/_condense.py`
// (`resolve_sample_attachments`).
//
// Performance: one pass. Each pool entry is walked once (pools first, because
// pool entries hold attachment refs themselves), each event is walked once
// before its refs are expanded, so the shared, already-resolved pool entries
// are never walked again. Nothing is deep-cloned: the objects come fresh from
// JSON.parse and belong to the importer, so strings are replaced in place; only
// a model event with refs is rebuilt, shallowly. Paths are computed only for
// the rare places that need a diagnostic.
import { ImportError, errorMessage, jsonPath, type Diagnostic } from '../../errors.js';
import { isRecord as isObject, typeName } from '../guards.js';

/**
 * Where `attachment://<key>` refs point.
 *
 * @example
 * import type { AttachmentTable } from 'src/core/import/inspect/inspect-resolve.js';
 * declare const sample: { attachments: Record<string, string> };
 * const table: AttachmentTable = { kind: 'hash', map: sample.attachments };
 */
export type AttachmentTable =
  /** Monolith samples: `sample.attachments`, keyed by murmur3 hash (legacy: `transcript.content`). */
  | { readonly kind: 'hash'; readonly map: Readonly<Record<string, unknown>> }
  /** Chunked samples: a sequence of bare strings, referenced by index. */
  | { readonly kind: 'index'; readonly list: readonly unknown[] };

/**
 * A sample's raw events with everything needed to resolve them. Paths are
 * functions so that no path string is built unless a diagnostic needs it.
 *
 * @example
 * import type { RawSampleParts } from 'src/core/import/inspect/inspect-resolve.js';
 * declare const rawEvents: unknown[];
 * declare const list: string[]; // a chunked sample's attachment strings
 * const parts: RawSampleParts = {
 *   events: rawEvents,
 *   eventPath: (i) => `$.events[${i}]`,
 *   attachments: { kind: 'index', list },
 *   messagePoolPath: (i) => `$.events_data.messages[${i}]`,
 *   callPoolPath: (i) => `$.events_data.calls[${i}]`,
 * };
 */
export interface RawSampleParts {
  /** Raw events (mutated in place). */
  readonly events: unknown[];
  /** JSON path of raw event `i` (for diagnostics and errors). */
  readonly eventPath: (i: number) => string;
  readonly attachments: AttachmentTable;
  /** `events_data.messages`, or `undefined` when the sample has no message pool. */
  readonly messagePool?: unknown[] | undefined;
  readonly messagePoolPath: (i: number) => string;
  /** `events_data.calls`, or `undefined` when the sample has no call pool. */
  readonly callPool?: unknown[] | undefined;
  readonly callPoolPath: (i: number) => string;
  /**
   * `false` when the text these values were parsed from holds no ref string
   * (see `isRefFree`): the ref walk is skipped, pools are still expanded.
   * Default `true`.
   */
  readonly mayContainRefs?: boolean;
}

const ATTACHMENT = 'attachment://';
const LEGACY = 'tc://';

/** Resolves one string; counts refs it could not resolve. */
class StringResolver {
  unresolved = 0;
  constructor(private readonly table: AttachmentTable) {}

  /** The resolved string, or `s` itself (and a count) when `s` is a dangling ref. */
  resolve(s: string): string {
    let key: string;
    if (s.startsWith(ATTACHMENT)) key = s.slice(ATTACHMENT.length);
    else if (s.startsWith(LEGACY)) key = s.slice(LEGACY.length);
    else return s;
    const found = this.lookup(key);
    if (found === undefined) {
      this.unresolved++;
      return s;
    }
    return found;
  }

  lookup(key: string): string | undefined {
    const t = this.table;
    if (t.kind === 'hash') {
      // `Object.hasOwn` keeps keys like "constructor" from reaching the prototype.
      const v = Object.hasOwn(t.map, key) ? t.map[key] : undefined;
      return typeof v === 'string' ? v : undefined;
    }
    // Index refs are whole decimal numbers (inspect_ai `chunked/read.py` `_INDEX_REF`).
    if (!/^\d{1,15}$/.test(key)) return undefined;
    const v = t.list[Number(key)];
    return typeof v === 'string' ? v : undefined;
  }
}

/** True for strings that look like a ref; cheap enough to run on every string. */
function isRef(s: string): boolean {
  const c = s.charCodeAt(0);
  return (
    (c === 97 /* a */ && s.startsWith(ATTACHMENT)) || (c === 116 /* t */ && s.startsWith(LEGACY))
  );
}

/**
 * Resolves every ref string below `node`, in place, and freezes each object
 * once its refs are resolved. Events are deep-frozen anyway (parseEvents);
 * doing it in this walk spares a second walk over every object of the sample,
 * since `deepFreeze` stops at objects that are already frozen. An object that
 * is already frozen was walked before (a shared pool entry) and is skipped.
 *
 * Recursive for {@link WALK_DEPTH} levels; below, refs are resolved with an
 * explicit stack and nothing is frozen, nor any object above it: `deepFreeze`
 * then reaches that deep part and cuts it at `MAX_VALUE_DEPTH` (reported as
 * `value_too_deep`). Returns whether `node` was frozen whole.
 */
function walk(node: object, r: StringResolver, freezeSelf = true, depth = 0): boolean {
  if (Object.isFrozen(node)) return true;
  if (depth === WALK_DEPTH) {
    resolveDeep(node, r);
    return false;
  }
  let whole = true;
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) {
      const v: unknown = node[i];
      if (typeof v === 'string') {
        if (isRef(v)) node[i] = r.resolve(v);
      } else if (v !== null && typeof v === 'object' && !walk(v, r, true, depth + 1)) whole = false;
    }
  } else {
    const obj = node as Record<string, unknown>;
    for (const k in obj) {
      const v = obj[k];
      if (typeof v === 'string') {
        if (isRef(v)) obj[k] = r.resolve(v);
      } else if (v !== null && typeof v === 'object' && !walk(v, r, true, depth + 1)) whole = false;
    }
  }
  if (whole && freezeSelf) Object.freeze(node);
  return whole;
}

/** Levels {@link walk} recurses (events nest a few; a hostile value thousands). */
const WALK_DEPTH = 200;

/** Resolves every ref below `root` with an explicit stack, freezing nothing. */
function resolveDeep(root: object, r: StringResolver): void {
  const stack: object[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as Record<string, unknown>;
    if (Object.isFrozen(node)) continue;
    for (const k in node) {
      const v = node[k];
      if (typeof v === 'string') {
        if (isRef(v)) node[k] = r.resolve(v);
      } else if (v !== null && typeof v === 'object') stack.push(v);
    }
  }
}

/** Reports every ref still present below `node` (only run after a walk found some). */
function reportUnresolved(node: unknown, path: string, out: Diagnostic[]): void {
  // An explicit stack (children pushed in reverse: reported in document order).
  const stack: [unknown, string][] = [[node, path]];
  while (stack.length > 0) {
    const [value, at] = stack.pop()!;
    if (typeof value === 'string') {
      if (isRef(value)) {
        out.push({
          code: 'dangling_attachment',
          severity: 'warning',
          message: errorMessage('dangling_attachment', value),
          path: at,
        });
      }
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], jsonPath(at, i)]);
      continue;
    }
    const keys = Object.keys(value);
    for (let i = keys.length - 1; i >= 0; i--)
      stack.push([(value as Record<string, unknown>)[keys[i]!], jsonPath(at, keys[i]!)]);
  }
}

/**
 * Expands range refs (`[[start, end_exclusive], …]`) against a pool, like
 * inspect's `_expand_refs`. Out-of-range or missing pool entries are skipped
 * with a diagnostic; a malformed ref list throws (`wrong_type`).
 */
function expandRefs(
  refs: unknown,
  pool: unknown[] | undefined,
  poolName: string,
  diagnostics: Diagnostic[],
  pathOf: () => string,
): { items: unknown[]; complete: boolean } {
  if (!Array.isArray(refs)) {
    throw new ImportError('wrong_type', pathOf(), 'array of [start, end] pairs', typeName(refs));
  }
  let items: unknown[] = [];
  let complete = true;
  const size = pool?.length ?? 0;
  for (let k = 0; k < refs.length; k++) {
    const pair: unknown = refs[k];
    const start: unknown = Array.isArray(pair) ? pair[0] : undefined;
    const end: unknown = Array.isArray(pair) ? pair[1] : undefined;
    if (
      !Array.isArray(pair) ||
      pair.length !== 2 ||
      !Number.isSafeInteger(start) ||
      !Number.isSafeInteger(end) ||
      (start as number) < 0 ||
      (end as number) < (start as number)
    ) {
      throw new ImportError(
        'wrong_type',
        jsonPath(pathOf(), k),
        '[start, end] with 0 <= start <= end',
        JSON.stringify(pair) ?? typeName(pair),
      );
    }
    const s = start as number;
    const e = end as number;
    let missing = e > size;
    const stop = Math.min(e, size);
    if (s < stop) {
      // The usual case is one range covering the whole conversation so far
      // (inspect's `input_refs` are usually one range): a slice is far cheaper than pushing item by item.
      const slice = pool!.slice(s, stop);
      // Holes (from a chunked pool with a missing chunk) read as undefined.
      if (slice.includes(undefined)) {
        missing = true;
        for (const item of slice) if (item !== undefined) items.push(item);
      } else if (refs.length === 1) {
        items = slice;
      } else {
        for (const item of slice) items.push(item);
      }
    }
    if (missing) {
      complete = false;
      diagnostics.push({
        code: 'dangling_pool_ref',
        severity: 'warning',
        message: errorMessage('dangling_pool_ref', poolName, s, e, size),
        path: jsonPath(pathOf(), k),
      });
    }
  }
  return { items, complete };
}

/**
 * Resolves every indirection of a sample's raw events in place and returns the
 * diagnostics for what could not be resolved (the refs are then kept as they
 * were, never dropped).
 *
 * @example
 * import { resolveSampleEvents } from 'src/core/import/inspect/inspect-resolve.js';
 * declare const sample: { events: unknown[]; attachments: Record<string, string> };
 * const diagnostics = resolveSampleEvents({
 *   events: sample.events,
 *   eventPath: (i) => `$.events[${i}]`,
 *   attachments: { kind: 'hash', map: sample.attachments },
 *   messagePoolPath: (i) => `$.events_data.messages[${i}]`,
 *   callPoolPath: (i) => `$.events_data.calls[${i}]`,
 * });
 */
export function resolveSampleEvents(parts: RawSampleParts): Diagnostic[] {
  const resolver = createSampleResolver(parts);
  return [...resolver.diagnostics, ...resolver.resolve(parts.events)];
}

/**
 * {@link resolveSampleEvents} a piece at a time, for a reader that gets a
 * sample's events in pieces (the viewer's streaming open): the pools are
 * resolved once, here (their diagnostics in `diagnostics`), then `resolve`
 * takes each piece of events in order, `offset` being the index of its
 * first event in the sample. The diagnostics of the pools and of each piece,
 * in that order, are those of one `resolveSampleEvents` over all the events.
 *
 * @example
 * import { createSampleResolver } from 'src/core/import/inspect/inspect-resolve.js';
 * declare const pieces: unknown[][];
 * declare const attachments: Record<string, string>;
 * const resolver = createSampleResolver({
 *   eventPath: (i) => `$.events[${i}]`,
 *   attachments: { kind: 'hash', map: attachments },
 *   messagePoolPath: (i) => `$.events_data.messages[${i}]`,
 *   callPoolPath: (i) => `$.events_data.calls[${i}]`,
 * });
 * let offset = 0;
 * for (const piece of pieces) {
 *   resolver.resolve(piece, offset);
 *   offset += piece.length;
 * }
 * @internal
 */
export function createSampleResolver(parts: Omit<RawSampleParts, 'events'>): {
  readonly diagnostics: readonly Diagnostic[];
  resolve(events: unknown[], offset?: number): Diagnostic[];
} {
  const poolDiagnostics: Diagnostic[] = [];
  const r = new StringResolver(parts.attachments);

  // 1. Pools first: their entries carry attachment refs of their own.
  const walkPool = (pool: unknown[] | undefined, pathOf: (i: number) => string) => {
    if (!pool) return;
    for (let i = 0; i < pool.length; i++) {
      const item = pool[i];
      const before = r.unresolved;
      if (typeof item === 'string') {
        if (isRef(item)) pool[i] = r.resolve(item);
      } else if (item !== null && typeof item === 'object') walk(item, r);
      if (r.unresolved !== before) reportUnresolved(pool[i], pathOf(i), poolDiagnostics);
    }
  };
  const refs = parts.mayContainRefs !== false;
  if (refs) {
    walkPool(parts.messagePool, parts.messagePoolPath);
    walkPool(parts.callPool, parts.callPoolPath);
  }
  return {
    diagnostics: poolDiagnostics,
    resolve: (events, offset = 0) =>
      resolveEvents(parts, r, refs, events, (i) => parts.eventPath(offset + i)),
  };
}

/** 2. Each event: attachments, then splice in the (resolved) pool entries. */
function resolveEvents(
  parts: Omit<RawSampleParts, 'events'>,
  r: StringResolver,
  refs: boolean,
  events: unknown[],
  eventPath: (i: number) => string,
): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (let i = 0; i < events.length; i++) {
    const ev = events[i];
    if (!isObject(ev)) continue; // parseEvents reports the wrong type with its path
    if (refs) {
      const before = r.unresolved;
      // The event object itself stays unfrozen: it may be rebuilt below, and
      // parseEvents makes a new top-level object anyway.
      walk(ev, r, false);
      if (r.unresolved !== before) reportUnresolved(ev, eventPath(i), diagnostics);
    }
    if (ev.event !== 'model') continue;

    const hasInputRefs = ev.input_refs !== undefined && ev.input_refs !== null;
    const call = ev.call;
    const hasCallRefs = isObject(call) && call.call_refs !== undefined && call.call_refs !== null;
    if (!hasInputRefs && !hasCallRefs) continue;
    // Rebuild the event (shallow) rather than `delete` the refs: deleting turns
    // V8 objects into slow dictionaries, which costs more here and in parseEvents.
    const out: Record<string, unknown> = {};
    let input: unknown[] | undefined;
    let dropInputRefs = false;
    if (hasInputRefs) {
      const expanded = expandRefs(ev.input_refs, parts.messagePool, 'message', diagnostics, () =>
        jsonPath(eventPath(i), 'input_refs'),
      );
      input = expanded.items;
      // Like inspect's reader, drop the refs once expanded; keep them when some
      // range could not be expanded so the loss stays visible.
      dropInputRefs = expanded.complete;
    }
    for (const k in ev) if (!(dropInputRefs && k === 'input_refs')) out[k] = ev[k];
    if (input) out.input = input;
    if (hasCallRefs) {
      const c = call as Record<string, unknown>;
      const { items, complete } = expandRefs(c.call_refs, parts.callPool, 'call', diagnostics, () =>
        jsonPath(jsonPath(eventPath(i), 'call'), 'call_refs'),
      );
      // inspect_ai `resolve_model_event_calls`: the key defaults to "messages".
      const key = typeof c.call_key === 'string' ? c.call_key : 'messages';
      const request: Record<string, unknown> = isObject(c.request) ? { ...c.request } : {};
      request[key] = items;
      const newCall: Record<string, unknown> = {};
      for (const k in c)
        if (!(complete && (k === 'call_refs' || k === 'call_key'))) newCall[k] = c[k];
      newCall.request = request;
      out.call = newCall;
    }
    events[i] = out;
  }
  return diagnostics;
}
