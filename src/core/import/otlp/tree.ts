// The span tree of an import: missing times filled, duplicates dropped,
// parents linked by trace and span id (children may come first), cycles
// broken, siblings ordered by start time. Iterative: chains may be 100,000 deep.
import { timestampMs } from '../../events/timestamp.js';
import type { ImportContext } from '../guards.js';
import { SyntheticClock } from '../sink.js';
import { type Span, spanPath, NO_CHILDREN } from './read.js';

/**
 * Span order: start time, then nanoseconds, then read order.
 *
 * @example
 * import { bySpanStart } from 'src/core/import/otlp/tree.js';
 * import type { Span } from 'src/core/import/otlp/read.js';
 * declare const spans: Span[];
 * spans.sort(bySpanStart);
 */
export function bySpanStart(a: Span, b: Span): number {
  if (a.startMs !== b.startMs) return a.startMs < b.startMs ? -1 : 1;
  if (a.startNs !== undefined && b.startNs !== undefined && a.startNs !== b.startNs)
    return a.startNs.length !== b.startNs.length
      ? a.startNs.length - b.startNs.length
      : a.startNs < b.startNs
        ? -1
        : 1;
  return a.order - b.order;
}

/**
 * Spans by trace id and span id. Keyed by the span id alone (unique in
 * practice), the trace compared on a hit: no `trace/span` string built,
 * flattened and hashed per span and per parent lookup (a tenth of building
 * the tree). With a `/` in some id the joined key is not one pair's alone
 * (`a/b` + `c` and `a` + `b/c`), so such a file keeps the joined keys, and
 * their collisions, as before.
 */
class SpanIndex {
  readonly #byId = new Map<string, Span | Span[]>();
  readonly #joined: Map<string, Span> | undefined;
  /**
   * False once two spans (of different traces) share a span id, and always
   * with joined keys: only while it is true is every kept span's id its own.
   */
  spanIdsUnique: boolean;

  constructor(joinedKeys: boolean) {
    this.#joined = joinedKeys ? new Map() : undefined;
    this.spanIdsUnique = !joinedKeys;
  }

  /** The span of these ids, if any. */
  get(traceId: string, spanId: string): Span | undefined {
    if (this.#joined) return this.#joined.get(`${traceId}/${spanId}`);
    const found = this.#byId.get(spanId);
    if (found === undefined) return undefined;
    if (!Array.isArray(found)) return found.traceId === traceId ? found : undefined;
    for (const s of found) if (s.traceId === traceId) return s;
    return undefined;
  }

  /**
   * Adds every span when no two share a span id (the usual case), and says
   * whether it did: one map operation per span, not a look-up and an insert.
   * Otherwise (a span id seen again: the map's size did not grow) this index
   * is left unusable, and the spans are to be {@link claim}ed one by one in
   * a new one. Not with joined keys.
   */
  addDistinct(spans: Span[]): boolean {
    const byId = this.#byId;
    for (let i = 0; i < spans.length; i++) {
      const s = spans[i]!;
      const size = byId.size;
      if (byId.set(s.spanId, s).size === size) return false;
    }
    return true;
  }

  /** The span already under the ids of `s`, if any; else `s` is added. */
  claim(s: Span): Span | undefined {
    if (this.#joined) {
      const key = `${s.traceId}/${s.spanId}`;
      const first = this.#joined.get(key);
      if (!first) this.#joined.set(key, s);
      return first;
    }
    const found = this.#byId.get(s.spanId);
    if (found === undefined) {
      this.#byId.set(s.spanId, s);
      return undefined;
    }
    if (!Array.isArray(found)) {
      if (found.traceId === s.traceId) return found;
      this.spanIdsUnique = false;
      this.#byId.set(s.spanId, [found, s]);
      return undefined;
    }
    for (const f of found) if (f.traceId === s.traceId) return f;
    found.push(s);
    return undefined;
  }
}

/**
 * Fills missing times (flagged), drops duplicates, links parents; returns the
 * roots in order, and whether no two kept spans share a span id.
 */
export function buildTree(
  spans: Span[],
  ctx: ImportContext,
  baseTime: string | undefined,
): { roots: Span[]; spanIdsUnique: boolean } {
  // Missing starts: after the last time seen in file order (hand-written spans).
  // Spans before the first timed one count back from it, so file order holds.
  let base = baseTime;
  const firstTimed = spans.findIndex((s) => s.start !== '');
  if (base === undefined && firstTimed > 0)
    base = new Date(Math.floor(spans[firstTimed]!.startMs) - firstTimed).toISOString();
  const clock = new SyntheticClock(base);
  // Indexed loops, here and below: a `for…of` made an iterator result per
  // step (some 20 MB an import of 100k spans).
  for (let i = 0; i < spans.length; i++) {
    const s = spans[i]!;
    if (s.start === '') {
      s.start = clock.next();
      s.startMs = timestampMs(s.start);
      s.invented = [...s.invented, 'timestamp'];
    } else clock.observe(s.start, s.startMs);
    if (s.end !== '') clock.observe(s.end, s.endMs);
  }
  const joinedKeys = spans.some((s) => s.traceId.includes('/') || s.spanId.includes('/'));
  let byKey = new SpanIndex(joinedKeys);
  // No two spans share a span id: none is a duplicate, all are kept.
  const distinct = !joinedKeys && byKey.addDistinct(spans);
  if (!distinct) byKey = new SpanIndex(joinedKeys);
  const kept: Span[] = distinct ? spans : [];
  for (let i = 0; i < spans.length && !distinct; i++) {
    const s = spans[i]!;
    const first = byKey.claim(s);
    if (first) {
      ctx.warn(spanPath(s), 'otlp_duplicate_span', s.spanId);
      // Keep the first, unless only the later one has ended.
      if (first.end === '' && s.end !== '') {
        first.end = s.end;
        first.endMs = s.endMs;
        first.endNs = s.endNs;
      }
      continue;
    }
    kept.push(s);
  }
  const roots: Span[] = [];
  let missingEnd = false;
  for (let i = 0; i < kept.length; i++) {
    const s = kept[i]!;
    if (s.end === '') missingEnd = true;
    if (s.parentSpanId === '' || s.parentSpanId === s.spanId) {
      roots.push(s);
      continue;
    }
    const parent = byKey.get(s.traceId, s.parentSpanId);
    if (!parent) {
      ctx.info(spanPath(s), 'otlp_orphan_span', s.spanId, s.parentSpanId);
      roots.push(s);
      continue;
    }
    s.parent = parent;
    if (parent.children === NO_CHILDREN) parent.children = [s];
    else parent.children.push(s);
  }
  // A parent cycle leaves spans no root reaches: each becomes a root. The
  // spans in walk order are needed only to fill missing ends.
  const ordered: Span[] = [];
  let reached = 0;
  const walk = (root: Span) => {
    const stack = [root];
    root.visited = true;
    while (stack.length) {
      const s = stack.pop()!;
      reached++;
      if (missingEnd) ordered.push(s);
      const children = s.children;
      for (let i = 0; i < children.length; i++) {
        const c = children[i]!;
        if (c.visited) continue;
        c.visited = true;
        stack.push(c);
      }
    }
  };
  for (let i = 0; i < roots.length; i++) walk(roots[i]!);
  if (reached < kept.length) {
    for (const s of kept) {
      if (s.visited) continue;
      ctx.warn(spanPath(s), 'otlp_parent_cycle', s.spanId);
      if (s.parent) s.parent.children = s.parent.children.filter((c) => c !== s);
      s.parent = undefined;
      roots.push(s);
      walk(s);
    }
  }
  // Missing ends: the latest end below (children first), else the start.
  for (let i = ordered.length - 1; i >= 0; i--) {
    const s = ordered[i]!;
    if (s.end === '') {
      let end = s.startMs;
      let iso = s.start;
      for (const c of s.children)
        if (c.endMs > end) {
          end = c.endMs;
          iso = c.end;
        }
      s.end = iso;
      s.endMs = end;
      s.invented = [...s.invented, 'end'];
    }
  }
  for (let i = 0; i < kept.length; i++) {
    const children = kept[i]!.children;
    if (children.length > 1) sortBySpanStart(children);
  }
  return { roots: sortBySpanStart(roots), spanIdsUnique: byKey.spanIdsUnique };
}

/**
 * Sorts spans by {@link bySpanStart} in place. Spans usually come in order
 * already; then the (stable) sort would leave them as they are, and is not
 * run (it copies the list to sort it).
 *
 * @example
 * import { sortBySpanStart } from 'src/core/import/otlp/tree.js';
 * import type { Span } from 'src/core/import/otlp/read.js';
 * declare const newRoots: Span[];
 * const roots = sortBySpanStart(newRoots);
 */
export function sortBySpanStart(spans: Span[]): Span[] {
  for (let i = 1; i < spans.length; i++)
    if (bySpanStart(spans[i - 1]!, spans[i]!) > 0) return spans.sort(bySpanStart);
  return spans;
}
