// Which events of a partial OTLP import are placed: their span's chain of
// parents reaches a root inside what was read. Shared by the file streaming
// importer (otlp-stream.ts) and the live one (otlp-live.ts).
import type { Event } from '../../events/types.js';

interface SpanMeta {
  readonly key: string;
  readonly parent: string | null;
}

/** The OTLP span an event was made from (model, tool, span_begin), by its metadata. */
function spanMeta(e: Event): SpanMeta | undefined {
  if (e.event !== 'model' && e.event !== 'tool' && e.event !== 'span_begin') return undefined;
  const m = e.metadata;
  const id = m?.['span_id'];
  if (typeof id !== 'string') return undefined;
  const trace = typeof m?.['trace_id'] === 'string' ? m['trace_id'] : '';
  const parent = m?.['parent_span_id'];
  return {
    key: `${trace}/${id}`,
    parent:
      typeof parent === 'string' && parent !== '' && parent !== id ? `${trace}/${parent}` : null,
  };
}

/**
 * The events of a partial import whose spans are placed: every span whose
 * chain of parents reaches a root inside the lines read. A span under a
 * parent not read yet is an orphan at the root of the partial import; it and
 * everything under it wait.
 *
 * @example
 * import { placed } from 'src/core/import/otlp/placed.js';
 * declare const recordsSoFar: unknown[]; // OTLP/JSON exports
 * const ready = placed(importOtlp(recordsSoFar).events);
 */
export function placed(events: readonly Event[]): Event[] {
  const spans = new Map<string, SpanMeta>();
  for (const e of events) {
    const s = spanMeta(e);
    if (s && !spans.has(s.key)) spans.set(s.key, s);
  }
  const waiting = new Map<string, boolean>();
  // Whether a span waits: its chain of parents ends at a parent not read
  // yet. Walked up with a loop (chains are 100,000 deep in hostile exports),
  // then every span on the way takes the verdict.
  const waits = (start: string): boolean => {
    const chain: string[] = [];
    let key = start;
    let result: boolean;
    for (;;) {
      const known = waiting.get(key);
      if (known !== undefined) {
        result = known;
        break;
      }
      waiting.set(key, false); // a parent cycle is placed (at the root), as in the whole import
      chain.push(key);
      const parent = spans.get(key)?.parent ?? null;
      if (parent === null) {
        result = false;
        break;
      }
      if (!spans.has(parent)) {
        result = true;
        break;
      }
      key = parent;
    }
    for (const k of chain) waiting.set(k, result);
    return result;
  };
  // Events follow their span (span events right after it; a span_end names
  // its begin's skein id), so each takes the verdict of the span it follows.
  const beginOf = new Map<string, boolean>(); // skein span id → waits
  const lastOfId = new Map<string, boolean>(); // OTLP span id → waits (for its span events)
  const out: Event[] = [];
  for (const e of events) {
    let hold = false;
    const s = spanMeta(e);
    if (s) {
      hold = waits(s.key);
      lastOfId.set(String(e.metadata!['span_id']), hold);
      if (e.event === 'span_begin') beginOf.set((e as { id: string }).id, hold);
    } else if (e.event === 'span_end') {
      hold = beginOf.get((e as { id: string }).id) ?? false;
    } else {
      const id = e.metadata?.['span_id'];
      if (typeof id === 'string') hold = lastOfId.get(id) ?? false;
      // A log record of its own that names a span: the span is not read yet
      // (otherwise the record would be its event, otlp-logs.ts).
      else hold = namesSpan(e.metadata?.['log']);
    }
    if (!hold) out.push(e);
  }
  return out;
}

function namesSpan(log: unknown): boolean {
  if (typeof log !== 'object' || log === null) return false;
  const id = (log as Record<string, unknown>)['span_id'];
  return typeof id === 'string' && id !== '';
}

/**
 * A cheap, early view of which spans are placed (their parents up to a root
 * read), from the raw records: only to skip imports that would hand out
 * nothing new. Ids are compared as written, lower-cased (a parent written in
 * base64 and its child in hex look unplaced here: that only delays them to a
 * later import, never changes what comes out).
 *
 * @example
 * import { Placement } from 'src/core/import/otlp/placed.js';
 * const placement = new Placement();
 * placement.record({ resourceSpans: [] }, 0);
 * if (placement.take()) {
 *   // something was placed: an import hands out something new
 * }
 */
export class Placement {
  readonly #placed = new Set<string>();
  readonly #waiting = new Map<string, string[]>();
  #news = false;
  #held = 0;
  #logs = 0;

  /** Spans and log records waiting for a parent (or their span). */
  get held(): number {
    return this.#held;
  }

  /** Everything waiting counts as placed (the importer handed it out). */
  releaseAll(): void {
    if (this.#held > 0) this.released = true;
    for (const keys of this.#waiting.values()) for (const k of keys) this.#placed.add(k);
    this.#waiting.clear();
    this.#held = 0;
  }

  /**
   * Whether some span may be out without its parent: released, or waiting
   * without an id (not counted in {@link held}).
   */
  released = false;

  /** Whether something was placed since the last call. */
  take(): boolean {
    const news = this.#news;
    this.#news = false;
    return news;
  }

  /** Walks a record as the whole-file reader does (exports, resources, scopes, spans, lists). */
  record(r: unknown, depth: number): void {
    if (Array.isArray(r)) {
      if (depth < 2) for (const x of r) this.record(x, depth + 1);
      else this.#news = true;
      return;
    }
    if (typeof r !== 'object' || r === null) return void (this.#news = true);
    const o = r as Record<string, unknown>;
    const rs = o['resourceSpans'];
    if (Array.isArray(rs)) {
      for (const x of rs) this.#scopes(x);
      return;
    }
    const rl = o['resourceLogs'];
    if (Array.isArray(rl)) {
      for (const x of rl) this.#scopeLogs(x);
      return;
    }
    if (Array.isArray(o['scopeSpans'])) return this.#scopes(o);
    if (Array.isArray(o['spans']) && typeof o['event'] !== 'string') return this.#spans(o);
    this.#span(o);
  }

  #scopes(r: unknown): void {
    const list = (r as { scopeSpans?: unknown } | null)?.scopeSpans;
    if (Array.isArray(list)) for (const x of list) this.#spans(x);
  }

  #spans(r: unknown): void {
    const list = (r as { spans?: unknown } | null)?.spans;
    if (Array.isArray(list)) for (const x of list) this.#span(x);
  }

  /**
   * Log records: one that names a span waits for it (it becomes that span's
   * event); any other is placed at once.
   */
  #scopeLogs(r: unknown): void {
    const scopes = (r as { scopeLogs?: unknown } | null)?.scopeLogs;
    if (!Array.isArray(scopes)) return;
    for (const sc of scopes) {
      const records = (sc as { logRecords?: unknown } | null)?.logRecords;
      if (!Array.isArray(records)) continue;
      for (const lr of records) {
        const o = (typeof lr === 'object' && lr !== null ? lr : {}) as Record<string, unknown>;
        const span = idText(o['spanId']);
        if (span === '') {
          this.#news = true;
          continue;
        }
        const wait = `${idText(o['traceId'])}/${span}`;
        const key = `log#${this.#logs++}`;
        if (this.#placed.has(wait)) this.#place(key);
        else this.#wait(wait, key);
      }
    }
  }

  #wait(parent: string, key: string): void {
    this.#held++;
    const list = this.#waiting.get(parent);
    if (list) list.push(key);
    else this.#waiting.set(parent, [key]);
  }

  #span(r: unknown): void {
    if (typeof r !== 'object' || r === null) return;
    const o = r as Record<string, unknown>;
    const context = typeof o['context'] === 'object' && o['context'] !== null ? o['context'] : {};
    const c = context as Record<string, unknown>;
    const trace = idText(o['traceId'] ?? c['trace_id']);
    const id = idText(o['spanId'] ?? c['span_id']);
    const parent = idText(o['parentSpanId'] ?? o['parent_id']);
    const key = `${trace}/${id}`;
    if (parent === '' || parent === id) return this.#place(id === '' ? undefined : key);
    const wait = `${trace}/${parent}`;
    if (this.#placed.has(wait)) return this.#place(id === '' ? undefined : key);
    if (id === '') return void (this.released = true); // waits, uncounted: not all placed
    this.#wait(wait, key);
  }

  #place(key: string | undefined): void {
    this.#news = true;
    const stack = key === undefined ? [] : [key];
    while (stack.length) {
      const k = stack.pop()!;
      if (this.#placed.has(k)) continue;
      this.#placed.add(k);
      const children = this.#waiting.get(k);
      if (children) {
        this.#waiting.delete(k);
        this.#held -= children.length;
        stack.push(...children);
      }
    }
  }
}

function idText(v: unknown): string {
  return typeof v === 'string' ? v.toLowerCase() : '';
}
