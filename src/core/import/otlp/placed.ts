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
