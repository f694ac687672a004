// Reading export requests for the registry: fields of untrusted OTLP/JSON
// objects, a request cut into one record per run, results.
import type { OtlpIngestResult } from './types.js';
import type { Run } from './run.js';

/**
 * A part of one request for one run: the resources it has items in (by
 * index in the request), each with its scopes and their items, in request
 * order. Lists, not maps: a request is walked in order, so an item is of the
 * last resource and scope added or of new ones.
 */
export interface Batch {
  parts: { ri: number; scopes: { si: number; items: unknown[] }[] }[];
  count: number;
}

export function field(o: unknown, key: string): unknown {
  return o !== null && typeof o === 'object' ? (o as Record<string, unknown>)[key] : undefined;
}

export function listOf(o: unknown, key: string): unknown[] {
  const v = field(o, key);
  return Array.isArray(v) ? v : [];
}

export function attributesOf(resource: unknown): unknown {
  return field(resource, 'attributes');
}

export function countItems(resources: unknown[], scopesKey: string, itemsKey: string): number {
  let n = 0;
  for (const r of resources)
    for (const sc of listOf(r, scopesKey)) n += listOf(sc, itemsKey).length;
  return n;
}

export function add(
  batches: Map<Run, Batch>,
  run: Run,
  ri: number,
  si: number,
  item: unknown,
): void {
  let batch = batches.get(run);
  if (batch === undefined) batches.set(run, (batch = { parts: [], count: 0 }));
  const parts = batch.parts;
  let part = parts[parts.length - 1];
  if (part === undefined || part.ri !== ri) parts.push((part = { ri, scopes: [] }));
  const scopes = part.scopes;
  let scope = scopes[scopes.length - 1];
  if (scope === undefined || scope.si !== si) scopes.push((scope = { si, items: [] }));
  scope.items.push(item);
  batch.count++;
}

/** The resources of a request with only the given items, in their resource and scope. */
export function recordOf(
  resources: unknown[],
  scopesKey: string,
  itemsKey: string,
  parts: Batch['parts'],
): unknown[] {
  const out: unknown[] = [];
  for (const { ri, scopes } of parts) {
    const r = resources[ri] as Record<string, unknown>;
    const scopeList = listOf(r, scopesKey);
    const outScopes: unknown[] = [];
    for (const { si, items } of scopes) {
      const sc = scopeList[si] as Record<string, unknown>;
      const scope: Record<string, unknown> = { [itemsKey]: items };
      if (sc['scope'] !== undefined) scope['scope'] = sc['scope'];
      if (sc['schemaUrl'] !== undefined) scope['schemaUrl'] = sc['schemaUrl'];
      outScopes.push(scope);
    }
    const resource: Record<string, unknown> = { [scopesKey]: outScopes };
    if (r['resource'] !== undefined) resource['resource'] = r['resource'];
    if (r['schemaUrl'] !== undefined) resource['schemaUrl'] = r['schemaUrl'];
    out.push(resource);
  }
  return out;
}

export function result(
  accepted: number,
  rejected: number,
  duplicates: number,
  why: string,
): OtlpIngestResult {
  return rejected > 0
    ? { accepted, rejected, duplicates, errorMessage: `${rejected} ${why}` }
    : { accepted, rejected, duplicates };
}

export function closedResult(n: number): OtlpIngestResult {
  return { accepted: 0, rejected: n, duplicates: 0, errorMessage: 'the receiver is shutting down' };
}

export function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v) ?? '';
  } catch {
    return '';
  }
}

/** FNV-1a over the text, 52 bits: a record's identity for duplicate detection. */
export function hash(text: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
  }
  return `${(h1 >>> 0).toString(36)}${(h2 >>> 0).toString(36)}`;
}

/** Lets a Node process exit while a timer is pending (browsers have no `unref`). */
export function unref(timer: unknown): unknown {
  (timer as { unref?: () => void } | null)?.unref?.();
  return timer;
}
