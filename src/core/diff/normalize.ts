/**
 * Content of one step, as the run diff compares it: which fields are
 * volatile (ids, times, provider bookkeeping), a bounded normalised text
 * (for signatures and similarity), and an equality that skips the volatile
 * fields. Every walk here is iterative with an explicit stack and bounded
 * by `MAX_DEPTH`, so a 100,000-deep value costs a bounded walk, never the
 * call stack.
 */

/**
 * Fields the run diff ignores by default: identities and clocks that differ
 * between any two runs, and bookkeeping that repeats what a step already
 * says. A bare name is ignored at any depth; a name starting with `$.` is a
 * path from the event's root, where `*` stands for any array index
 * (`$.output.usage`: the token counts, which the diff reports as deltas
 * instead). Ids are paths, not names, so a tool argument called `id` still
 * counts.
 *
 * - links: `uuid`, `span_id`, `parent_id`, `message_id`, `agent_span_id`,
 *   `tool_call_id`, `signature`, `call_refs`;
 * - times: `timestamp`, `completed`, `working_start`, `working_time`,
 *   `pending`, `$.output.time`;
 * - ids: `$.id` (a tool call's, a span's), the ids of output messages and
 *   their tool calls;
 * - per event: `$.input` and `$.input_refs` (a model call's input is the
 *   conversation so far: an earlier difference already shows), `$.call` (the
 *   provider's raw request and response), `$.cache`, `$.output.usage`,
 *   the provider call's own times, ids and retry counts (`$.retries`,
 *   `$.attempt`, `$.call_*`, `$.http_retries`),
 *   `$.metadata` (importers' notes; an aborted step is compared as a fact of
 *   its outcome instead), `$.events` (legacy nested copies).
 *
 * @example
 * declare const a: Event[], b: Event[];
 * diffRuns(a, b, { ignore: [...DEFAULT_DIFF_IGNORE, 'path'] });
 */
export const DEFAULT_DIFF_IGNORE: readonly string[] = Object.freeze([
  'uuid',
  'span_id',
  'parent_id',
  'message_id',
  'agent_span_id',
  'tool_call_id',
  'signature',
  'call_refs',
  'timestamp',
  'completed',
  'working_start',
  'working_time',
  'pending',
  '$.id',
  '$.input',
  '$.input_refs',
  '$.call',
  '$.cache',
  '$.metadata',
  '$.events',
  '$.retries',
  '$.attempt',
  '$.call_id',
  '$.call_started_at',
  '$.call_completed_at',
  '$.call_working_start',
  '$.call_working_time',
  '$.call_retries',
  '$.http_retries',
  '$.output.usage',
  '$.output.time',
  '$.output.choices.*.message.id',
  '$.output.choices.*.message.tool_calls.*.id',
  '$.tool_calls.*.id',
]);

/** Deepest nesting a comparison or a text walks; deeper parts count as one opaque value. */
export const MAX_DEPTH = 64;

/**
 * A place in the tree of ignored root paths: the fields below it that are
 * ignored, and the places below it where an ignored path continues (`*` for
 * any array index). `null` stands for every place no ignored path reaches.
 * Internal.
 */
export interface IgnorePath {
  /** Keys ignored right here (`usage` at `output`). */
  readonly ignored: ReadonlySet<string>;
  /** Keys under which an ignored path goes on. */
  readonly next: ReadonlyMap<string, IgnorePath>;
}

/** An ignore list, split for lookups. Internal. */
export interface IgnoreSet {
  /** Names ignored at any depth. */
  readonly names: ReadonlySet<string>;
  /** Root paths as `a.b` (without `$.`). */
  readonly paths: ReadonlySet<string>;
  /** The root of the ignored paths (an event's top level). */
  readonly root: IgnorePath;
  /**
   * A filter over every ignored name and path key, by length and first
   * character (`skipped`): most keys are ruled out without a set
   * lookup.
   */
  readonly filter: Uint32Array;
}

/** The filter slot of `key`: its length (capped) and first character. */
function filterBit(filter: Uint32Array, key: string, set: boolean): boolean {
  const slot = key.length < 63 ? key.length : 63;
  // `''.charCodeAt(0)` is NaN, and NaN & 31 is 0: the empty key has a slot too.
  const bit = 1 << (key.charCodeAt(0) & 31);
  if (set) filter[slot] = filter[slot]! | bit;
  return (filter[slot]! & bit) !== 0;
}

/** Splits an ignore list into names and root paths. Internal. */
export function ignoreSet(list: readonly string[]): IgnoreSet {
  const names = new Set<string>();
  const paths = new Set<string>();
  type Node = { ignored: Set<string>; next: Map<string, Node> };
  const root: Node = { ignored: new Set(), next: new Map() };
  const filter = new Uint32Array(64);
  for (const entry of list) {
    if (entry.startsWith('$.')) {
      const path = entry.slice(2);
      paths.add(path);
      const parts = path.split('.');
      let node = root;
      for (let i = 0; i < parts.length - 1; i++) {
        const part = parts[i]!;
        let child = node.next.get(part);
        if (child === undefined) {
          child = { ignored: new Set(), next: new Map() };
          node.next.set(part, child);
        }
        node = child;
      }
      node.ignored.add(parts[parts.length - 1]!);
      filterBit(filter, parts[parts.length - 1]!, true);
    } else {
      names.add(entry);
      filterBit(filter, entry, true);
    }
  }
  return { names, paths, root, filter };
}

function skipped(ignore: IgnoreSet, key: string, at: IgnorePath | null): boolean {
  if (!filterBit(ignore.filter, key, false)) return false;
  return ignore.names.has(key) || (at !== null && at.ignored.has(key));
}

/** The place of `key` under `at`, or `null` once no ignored path can lie below. */
function childPath(key: string, at: IgnorePath | null): IgnorePath | null {
  return at === null ? null : (at.next.get(key) ?? null);
}

/**
 * Whether `x` and `y` hold the same content, ignoring `ignore`'s fields
 * (`path` is where `x` and `y` sit: `ignore.root` for an event's root,
 * `null` below every ignored path). Strings compare exactly; numbers by value (`NaN`
 * equals `NaN`: inspect writes it for missing scores); a field that is
 * `null` or absent is absent (inspect omits null fields, `exclude_none`;
 * other writers keep them). Recursion is bounded: parts deeper than
 * {@link MAX_DEPTH} compare by identity.
 */
export function sameContent(
  x: unknown,
  y: unknown,
  ignore: IgnoreSet,
  path: IgnorePath | null = null,
  depth = 0,
): boolean {
  if (x === y) return true;
  if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) {
    return typeof x === 'number' && typeof y === 'number' && x !== x && y !== y;
  }
  if (depth >= MAX_DEPTH) return false;
  const xa = Array.isArray(x);
  if (xa !== Array.isArray(y)) return false;
  if (xa) {
    const p = x as unknown[];
    const q = y as unknown[];
    if (p.length !== q.length) return false;
    const inner = childPath('*', path);
    for (let i = 0; i < p.length; i++) {
      if (!sameContent(p[i], q[i], ignore, inner, depth + 1)) return false;
    }
    return true;
  }
  const p = x as Record<string, unknown>;
  const q = y as Record<string, unknown>;
  // Every kept key of `p` is on `q` with the same content, and `q` keeps
  // no more keys than `p`.
  let kept = 0;
  for (const key in p) {
    const v = p[key];
    if (v === undefined || v === null || skipped(ignore, key, path)) continue;
    kept++;
    const w = q[key];
    if (w === undefined || w === null) return false;
    if (!sameContent(v, w, ignore, childPath(key, path), depth + 1)) return false;
  }
  for (const key in q) {
    const w = q[key];
    if (w === undefined || w === null || skipped(ignore, key, path)) continue;
    kept--;
  }
  return kept === 0;
}

/**
 * The top-level fields of events `x` and `y` whose content differs
 * (ignored fields left out), in key order.
 */
export function differingFields(
  x: Record<string, unknown>,
  y: Record<string, unknown>,
  ignore: IgnoreSet,
): string[] {
  const out: string[] = [];
  // `x`'s keys in order: `y`'s keys usually come in the same order (one
  // writer), and a key at its place in `x` needs no own-property lookup.
  const keys = scratchKeys;
  let n = 0;
  for (const key in x) {
    keys[n++] = key;
    fieldDiffers(x, y, key, ignore, out);
  }
  // `y`'s keys that `x` lacks (events are plain objects: own keys only).
  let i = 0;
  for (const key in y) {
    if (i < n && keys[i] === key) {
      i++;
      continue;
    }
    i = n;
    if (!Object.prototype.hasOwnProperty.call(x, key)) fieldDiffers(x, y, key, ignore, out);
  }
  // Kept for the next call (no allocation); a long list is let go.
  if (n > 64) keys.length = 0;
  return out;
}

/** Reused by {@link differingFields} (not reentrant: it calls nothing that calls it). */
const scratchKeys: string[] = [];

function fieldDiffers(
  x: Record<string, unknown>,
  y: Record<string, unknown>,
  key: string,
  ignore: IgnoreSet,
  out: string[],
): void {
  if (skipped(ignore, key, ignore.root)) return;
  const p = x[key];
  const q = y[key];
  const pAbsent = p === undefined || p === null;
  const qAbsent = q === undefined || q === null;
  if (pAbsent && qAbsent) return;
  if (pAbsent !== qAbsent || !sameContent(p, q, ignore, childPath(key, ignore.root))) {
    out.push(key);
  }
}

/**
 * A normalised text of `value`, at most about `max` characters: object keys
 * sorted, ignored fields left out, absent (`null`) fields dropped. Two values with the same content give the same text (up
 * to the cut). Iterative; what lies deeper than {@link MAX_DEPTH} is written
 * `…`.
 */
export function normalizedText(
  value: unknown,
  ignore: IgnoreSet,
  max: number,
  path: IgnorePath | null = null,
): string {
  let out = '';
  // Work items on three parallel stacks (no object per item), kept between
  // calls (this calls nothing that calls it): a value to write with its
  // root path and depth, or a literal (depth -1).
  const values = stackValues;
  const paths = stackPaths;
  const depths = stackDepths;
  let sp = 1;
  let high = 1;
  values[0] = value;
  paths[0] = path;
  depths[0] = 0;
  while (sp > 0 && out.length < max) {
    sp--;
    const v = values[sp];
    const at = paths[sp]!;
    const depth = depths[sp]!;
    if (depth < 0) {
      out += v as string;
    } else if (typeof v === 'string') {
      // Only what can still fit is quoted (the text is cut at `max`): each
      // character quotes to at least one, so `room` characters fill it. A
      // surrogate pair split at the cut quotes differently, past the cut.
      const room = max - out.length;
      out += JSON.stringify(v.length > room ? v.slice(0, room) : v);
    } else if (typeof v === 'number' || typeof v === 'boolean') {
      out += String(v);
    } else if (v === null || v === undefined) {
      out += 'null';
    } else if (typeof v !== 'object') {
      out += typeof v;
    } else if (depth >= MAX_DEPTH) {
      out += '…';
    } else if (Array.isArray(v)) {
      out += '[';
      values[sp] = ']';
      paths[sp] = null;
      depths[sp++] = -1;
      const inner = childPath('*', at);
      for (let i = v.length - 1; i >= 0; i--) {
        values[sp] = v[i];
        paths[sp] = inner;
        depths[sp++] = depth + 1;
        if (i > 0) {
          values[sp] = ',';
          paths[sp] = null;
          depths[sp++] = -1;
        }
      }
    } else {
      const record = v as Record<string, unknown>;
      // Kept between objects: the keys are on the stacks before the next
      // object is read (`Object.keys` and a new list were two arrays per object).
      const keys = scratchKeyList;
      keys.length = 0;
      for (const k in record) {
        if (!Object.prototype.hasOwnProperty.call(record, k)) continue;
        const x = record[k];
        if (x !== undefined && x !== null && !skipped(ignore, k, at)) keys.push(k);
      }
      sortStrings(keys);
      out += '{';
      values[sp] = '}';
      paths[sp] = null;
      depths[sp++] = -1;
      for (let i = keys.length - 1; i >= 0; i--) {
        const k = keys[i]!;
        values[sp] = record[k];
        paths[sp] = childPath(k, at);
        depths[sp++] = depth + 1;
        values[sp] = keyLiteral(k);
        paths[sp] = null;
        depths[sp++] = -1;
        if (i > 0) {
          values[sp] = ',';
          paths[sp] = null;
          depths[sp++] = -1;
        }
      }
    }
    if (sp > high) high = sp;
  }
  // Nothing of this value is kept past the call; a deep stack is let go.
  if (high > 4096) {
    values.length = 0;
    paths.length = 0;
    depths.length = 0;
  } else values.fill(undefined, 0, high);
  if (scratchKeyList.length > 64) scratchKeyList.length = 0;
  return out.length > max ? out.slice(0, max) : out;
}

/** The stacks of {@link normalizedText} (not reentrant: it calls nothing that calls it). */
const stackValues: unknown[] = [];
const stackPaths: (IgnorePath | null)[] = [];
const stackDepths: number[] = [];
/** An object's kept keys, sorted, in {@link normalizedText}. */
const scratchKeyList: string[] = [];

/** `"key":` per key name, made once: events of one run share a few dozen names. */
const keyLiterals = new Map<string, string>();

function keyLiteral(key: string): string {
  let out = keyLiterals.get(key);
  if (out === undefined) {
    out = `${JSON.stringify(key)}:`;
    // A hostile run can name any number of keys; this stays small.
    if (keyLiterals.size >= 4096) keyLiterals.clear();
    keyLiterals.set(key, out);
  }
  return out;
}

/**
 * Sorts `keys` in place as `Array.prototype.sort()` does (by UTF-16 code
 * units; equal strings are indistinguishable): insertion sort for the few
 * keys most objects have, which allocates nothing. Internal.
 */
export function sortStrings(keys: string[]): void {
  if (keys.length > 12) {
    keys.sort();
    return;
  }
  for (let i = 1; i < keys.length; i++) {
    const k = keys[i]!;
    let j = i - 1;
    while (j >= 0 && keys[j]! > k) {
      keys[j + 1] = keys[j]!;
      j--;
    }
    keys[j + 1] = k;
  }
}

/** `text` trimmed, with every run of white space folded to one space. */
export function foldSpace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * How alike two texts are, 0–1: the Dice coefficient of their word
 * multisets (2 × shared words / all words). `1` for two empty texts.
 */
export function textSimilarity(x: string, y: string): number {
  const wx = words(x);
  const wy = words(y);
  if (wx.length === 0 && wy.length === 0) return 1;
  const counts = new Map<string, number>();
  for (const w of wx) counts.set(w, (counts.get(w) ?? 0) + 1);
  let shared = 0;
  for (const w of wy) {
    const c = counts.get(w);
    if (c !== undefined && c > 0) {
      shared++;
      counts.set(w, c - 1);
    }
  }
  return (2 * shared) / (wx.length + wy.length);
}

function words(text: string): string[] {
  return text.split(/[^\p{L}\p{N}_]+/u).filter((w) => w !== '');
}
