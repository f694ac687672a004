// Kind codes: a small number per event kind, kept per tree node, so views
// filter and sum by kind without reading a million event objects.

import { KNOWN_EVENT_KINDS } from '../events/types.js';
import type { EventTree } from './event-tree.js';

/**
 * A small code per event kind (its index in `KNOWN_EVENT_KINDS`;
 * {@link OTHER_KIND} for any other), kept per tree node so that views can
 * filter and sum by kind without touching a million event objects (each a
 * cache miss) every time a live tree is rebuilt.
 */
const KIND_CODE: ReadonlyMap<string, number> = new Map(KNOWN_EVENT_KINDS.map((k, i) => [k, i]));
/** The kind code of a kind that is not a known one. */
export const OTHER_KIND = 255;

/** The kind code of `kind` ({@link OTHER_KIND} when unknown). */
export function kindCode(kind: string): number {
  return KIND_CODE.get(kind) ?? OTHER_KIND;
}

/**
 * Kinds looked up last, direct-mapped by length and first and last character
 * (of the known kinds, only `state`, `store` and `score` share an entry): a
 * hit is one string comparison (kinds are a few short, usually interned
 * strings), where the `Map` lookup cost ~30 ns per event.
 */
const recentKinds: unknown[] = new Array<unknown>(64).fill(undefined);
const recentKindCodes = new Uint8Array(64);

/** {@link kindCode} through the recent-kind cache. */
export function cachedKindCode(kind: string): number {
  if (typeof kind !== 'string') return OTHER_KIND;
  const r = (kind.length + kind.charCodeAt(0) * 5 + kind.charCodeAt(kind.length - 1) * 9) & 63;
  if (recentKinds[r] === kind) return recentKindCodes[r]!;
  const code = kindCode(kind);
  recentKinds[r] = kind;
  recentKindCodes[r] = code;
  return code;
}

/** Kind codes per node of trees built here (`kinds[i]` for node `i`). */
export const treeKindCodes = new WeakMap<EventTree, Uint8Array>();

/**
 * The kind code of every node of `tree` (from its builder; computed once for
 * a tree made elsewhere, e.g. by `structuredClone`). Internal.
 */
export function treeKinds(tree: EventTree): Uint8Array {
  let kinds = treeKindCodes.get(tree);
  if (kinds === undefined) {
    kinds = new Uint8Array(tree.length);
    for (let i = 0; i < tree.length; i++) kinds[i] = kindCode(tree.events[i]!.event);
    treeKindCodes.set(tree, kinds);
  }
  return kinds;
}
