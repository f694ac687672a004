// AG-UI shared state (https://docs.ag-ui.com/concepts/state): `STATE_SNAPSHOT`
// replaces it, `STATE_DELTA` patches it with JSON Patch (RFC 6902), and
// `ACTIVITY_DELTA` patches an activity's content the same way. The canonical
// `state` event is inspect's: a list of JSON-Patch changes, each with the
// value it `replaced` (inspect_ai's `event/` models). This module keeps the
// current value (copy-on-write: nothing given is ever mutated, so frozen
// events may share it) and turns each snapshot into the changes from the
// previous value, each patch into its operations with what they replaced.
//
// A patch applies whole or not at all, as `@ag-ui/client` applies it
// (fast-json-patch with validation): when an operation fails, the value stays
// as it was and the reason is returned. Walks are iterative (a pointer's
// tokens, an explicit stack for equality), so hostile nesting cannot overflow
// the stack; equality gives up (says "different") past a node budget.
import type { JsonChange } from '../../events/types.js';
import { isRecord } from '../guards.js';
import { jsonEqual } from '../json-equal.js';

export { jsonEqual };

/** The tokens of a JSON Pointer (RFC 6901), or `undefined` when it is not one. */
function pointer(path: unknown): string[] | undefined {
  if (typeof path !== 'string') return undefined;
  if (path === '') return [];
  if (path.charCodeAt(0) !== 47) return undefined; // '/'
  const tokens = path.slice(1).split('/');
  // Escapes are rare: a pointer without `~` is its tokens as split (no
  // closure and no array more per operation).
  if (path.indexOf('~') < 0) return tokens;
  return tokens.map((t) => (t.includes('~') ? t.replace(/~1/g, '/').replace(/~0/g, '~') : t));
}

/** An array index token (`-` is the end), or -1. */
function index(token: string, length: number, forAdd: boolean): number {
  if (forAdd && token === '-') return length;
  if (!/^(?:0|[1-9][0-9]*)$/.test(token)) return -1;
  const i = Number(token);
  return i <= (forAdd ? length : length - 1) ? i : -1;
}

function own(obj: Record<string, unknown>, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(obj, key);
}

/** The value at `tokens`, or `NOT_FOUND`. */
function get(root: unknown, tokens: readonly string[]): unknown {
  let node = root;
  for (const t of tokens) {
    node = child(node, t);
    if (node === NOT_FOUND) return NOT_FOUND;
  }
  return node;
}

/** The value under one token of `node`, or `NOT_FOUND`. */
function child(node: unknown, t: string): unknown {
  if (Array.isArray(node)) {
    const i = index(t, node.length, false);
    return i < 0 ? NOT_FOUND : (node[i] as unknown);
  }
  return isRecord(node) && own(node, t) ? node[t] : NOT_FOUND;
}

const NOT_FOUND = Symbol('not found');

/** A JSON object's own copy with one key set (a `__proto__` key stays an own property). */
function withKey(
  obj: Record<string, unknown>,
  key: string,
  value: unknown,
): Record<string, unknown> {
  // A spread defines an own "__proto__" key as data (and an assignment to
  // that own key writes it); only a new "__proto__" key needs defining.
  const copy: Record<string, unknown> = { ...obj };
  if (key === '__proto__') define(copy, key, value);
  else copy[key] = value;
  return copy;
}

function define(obj: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * `root` with the container at `tokens` (all but the last token of an
 * operation's path) replaced by `edit(container)`, copying each container on
 * the way; `NOT_FOUND` when the path does not lead to a container.
 */
function update(
  root: unknown,
  tokens: readonly string[],
  edit: (container: unknown) => unknown,
): unknown {
  const chain: unknown[] = [root];
  for (const t of tokens) {
    const node = child(chain[chain.length - 1], t);
    if (node === NOT_FOUND) return NOT_FOUND;
    chain.push(node);
  }
  let value = edit(chain[chain.length - 1]);
  if (value === NOT_FOUND) return NOT_FOUND;
  for (let k = tokens.length - 1; k >= 0; k--) {
    const parent = chain[k];
    const t = tokens[k]!;
    if (Array.isArray(parent)) {
      const copy = parent.slice();
      copy[index(t, parent.length, false)] = value;
      value = copy;
    } else value = withKey(parent as Record<string, unknown>, t, value);
  }
  return value;
}

function add(root: unknown, tokens: readonly string[], value: unknown): unknown {
  if (tokens.length === 0) return value;
  const last = tokens[tokens.length - 1]!;
  return update(root, tokens.slice(0, -1), (c) => {
    if (Array.isArray(c)) {
      const i = index(last, c.length, true);
      if (i < 0) return NOT_FOUND;
      const copy = c.slice();
      copy.splice(i, 0, value);
      return copy;
    }
    return isRecord(c) ? withKey(c, last, value) : NOT_FOUND;
  });
}

function remove(root: unknown, tokens: readonly string[]): unknown {
  if (tokens.length === 0) return NOT_FOUND;
  const last = tokens[tokens.length - 1]!;
  return update(root, tokens.slice(0, -1), (c) => {
    if (Array.isArray(c)) {
      const i = index(last, c.length, false);
      if (i < 0) return NOT_FOUND;
      const copy = c.slice();
      copy.splice(i, 1);
      return copy;
    }
    if (!isRecord(c) || !own(c, last)) return NOT_FOUND;
    const copy: Record<string, unknown> = {};
    for (const k of Object.keys(c)) {
      if (k === last) continue;
      if (k === '__proto__') define(copy, k, c[k]);
      else copy[k] = c[k];
    }
    return copy;
  });
}

/**
 * One operation applied to `root`: the new value and what the operation
 * replaced (`undefined` when nothing), or the reason it cannot apply.
 */
function applyOne(
  root: unknown,
  op: Record<string, unknown>,
): { value: unknown; replaced?: unknown } | { error: string } {
  const tokens = pointer(op['path']);
  if (tokens === undefined) return { error: `"path" is not a JSON Pointer` };
  switch (op['op']) {
    case 'add': {
      if (!own(op, 'value')) return { error: '"add" without a value' };
      const before = get(root, tokens);
      const value = add(root, tokens, op['value']);
      if (value === NOT_FOUND) return { error: `no container at ${String(op['path'])}` };
      // Adding over an existing object member replaces it (RFC 6902 §4.1).
      const last = tokens[tokens.length - 1];
      const parent = get(root, tokens.slice(0, -1));
      return before !== NOT_FOUND && !Array.isArray(parent) && last !== undefined
        ? { value, replaced: before }
        : { value };
    }
    case 'remove': {
      const before = get(root, tokens);
      const value = remove(root, tokens);
      return value === NOT_FOUND || before === NOT_FOUND
        ? { error: `nothing at ${String(op['path'])}` }
        : { value, replaced: before };
    }
    case 'replace': {
      if (!own(op, 'value')) return { error: '"replace" without a value' };
      const before = get(root, tokens);
      if (before === NOT_FOUND) return { error: `nothing at ${String(op['path'])}` };
      if (tokens.length === 0) return { value: op['value'], replaced: before };
      const last = tokens[tokens.length - 1]!;
      const value = update(root, tokens.slice(0, -1), (c) => {
        if (!Array.isArray(c)) return withKey(c as Record<string, unknown>, last, op['value']);
        const copy = c.slice();
        copy[index(last, c.length, false)] = op['value'];
        return copy;
      });
      return value === NOT_FOUND
        ? { error: `nothing at ${String(op['path'])}` }
        : { value, replaced: before };
    }
    case 'move':
    case 'copy': {
      const from = pointer(op['from']);
      if (from === undefined) return { error: `"from" is not a JSON Pointer` };
      const moved = get(root, from);
      if (moved === NOT_FOUND) return { error: `nothing at ${String(op['from'])}` };
      if (
        op['op'] === 'move' &&
        tokens.length > from.length &&
        from.every((t, i) => t === tokens[i])
      )
        return { error: 'a value cannot move into itself' };
      const base = op['op'] === 'move' ? remove(root, from) : root;
      if (base === NOT_FOUND) return { error: `nothing at ${String(op['from'])}` };
      const before = get(base, tokens);
      const value = add(base, tokens, moved);
      if (value === NOT_FOUND) return { error: `no container at ${String(op['path'])}` };
      return before !== NOT_FOUND ? { value, replaced: before } : { value };
    }
    case 'test': {
      const at = get(root, tokens);
      return at !== NOT_FOUND && jsonEqual(at, op['value'])
        ? { value: root }
        : { error: `test failed at ${String(op['path'])}` };
    }
    default:
      return { error: `unknown op ${JSON.stringify(op['op'])}` };
  }
}

/**
 * A patch applied to `value`: the changes (each operation as given, with
 * `replaced` where it replaced something) and the new value — or the old one
 * and the reason, when an operation fails (the patch applies whole or not).
 *
 * @example
 * import { applyPatch } from 'src/core/import/ag-ui/state.js';
 * const { value, changes } = applyPatch({ a: 1 }, [{ op: 'replace', path: '/a', value: 2 }]);
 * // value: { a: 2 }; changes: [{ op: 'replace', path: '/a', value: 2, replaced: 1 }]
 */
export function applyPatch(
  value: unknown,
  ops: unknown,
): { value: unknown; changes: JsonChange[]; error?: string } {
  const changes: JsonChange[] = [];
  if (!Array.isArray(ops)) return { value, changes, error: 'the patch is not an array' };
  let next = value;
  let error: string | undefined;
  for (let i = 0; i < ops.length; i++) {
    const op: unknown = ops[i];
    if (!isRecord(op) || typeof op['op'] !== 'string' || typeof op['path'] !== 'string') {
      error ??= `operation ${i} is not a JSON Patch operation`;
      continue;
    }
    const change: JsonChange = { op: op['op'] as JsonChange['op'], path: op['path'] };
    if (typeof op['from'] === 'string') change.from = op['from'];
    if (own(op, 'value')) change.value = op['value'];
    changes.push(change);
    if (error !== undefined) continue;
    const result = applyOne(next, op);
    if ('error' in result) {
      error = `operation ${i}: ${result.error}`;
      continue;
    }
    next = result.value;
    if (own(result, 'replaced')) change.replaced = result.replaced;
  }
  return error === undefined ? { value: next, changes } : { value, changes, error };
}

/**
 * The changes that turn `before` into `after`: per top-level key of two
 * objects (`add`, `remove`, `replace` with what it replaced), or one
 * `replace` of the whole value otherwise. Equal values give none.
 *
 * @example
 * import { snapshotChanges } from 'src/core/import/ag-ui/state.js';
 * snapshotChanges({ a: 1, b: 2 }, { a: 1, c: 3 });
 * // [{ op: 'remove', path: '/b', replaced: 2 }, { op: 'add', path: '/c', value: 3 }]
 */
export function snapshotChanges(before: unknown, after: unknown): JsonChange[] {
  if (!isRecord(before) || !isRecord(after)) {
    if (jsonEqual(before, after)) return [];
    return before === undefined
      ? [{ op: 'add', path: '', value: after }]
      : [{ op: 'replace', path: '', value: after, replaced: before }];
  }
  const changes: JsonChange[] = [];
  for (const k of Object.keys(before)) {
    if (!own(after, k)) changes.push({ op: 'remove', path: `/${escape(k)}`, replaced: before[k] });
  }
  for (const k of Object.keys(after)) {
    if (!own(before, k)) changes.push({ op: 'add', path: `/${escape(k)}`, value: after[k] });
    else if (!jsonEqual(before[k], after[k]))
      changes.push({ op: 'replace', path: `/${escape(k)}`, value: after[k], replaced: before[k] });
  }
  return changes;
}

function escape(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}
