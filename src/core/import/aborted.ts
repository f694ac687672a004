// The one rule of "aborted" that every importer applies (the rule
// itself is written once, in events/outcome.ts, "Aborted"): a turn or task
// that ended without finishing — rolled back by the agent, or stopped by the
// user or client — keeps all its events, each marked `metadata.aborted: true`
// (its span_begin and span_end too), so views show them marked and totals
// skip them.
import type {
  Event,
  JsonObject,
  JsonValue,
  SpanBeginEvent,
  SpanEndEvent,
} from '../events/types.js';
import type { EventSink } from './sink.js';

/**
 * Whether a turn's stop reason means it was stopped before it finished: ACP's
 * `cancelled` (and its other spelling), and `aborted`. Every other reason
 * (`end_turn`, `max_tokens`, `refusal`, …) is a turn that finished.
 */
export function isAbortStopReason(reason: unknown): boolean {
  // Compared, not looked up in a Set: a reason just parsed is a string not
  // hashed yet, and hashing it costs more than three compares.
  return reason === 'cancelled' || reason === 'canceled' || reason === 'aborted';
}

/**
 * Marks each of `drafts` aborted (`metadata.aborted: true`) in `sink`, and a
 * span_begin among them with `metadata.abort_reason` when the source gave one.
 */
export function markAborted(sink: EventSink, drafts: Iterable<Event>, reason?: unknown): void {
  for (const e of drafts) {
    if (e.metadata?.['aborted'] === true) continue; // marked before: not changed again
    const draft = sink.revise(e);
    // A copy: the metadata may be a shared frozen object (`inventedOnlyMetadata`).
    const metadata: JsonObject = { ...draft.metadata };
    metadata['aborted'] = true;
    if (reason !== undefined && draft.event === 'span_begin')
      metadata['abort_reason'] = reason as JsonValue;
    draft.metadata = metadata;
    sink.touch(draft);
  }
}

/**
 * Marks aborted the span `begin` opened — the begin, its end if added, and
 * every event added since inside it or in a span nested in it — and nothing
 * else (events of other spans interleaved with it are left alone).
 */
export function markSpanAborted(
  sink: EventSink,
  begin: SpanBeginEvent,
  reason?: JsonValue | undefined,
): void {
  const inside = new Set<string>([begin.id]);
  const ours: Event[] = [];
  let first = true;
  for (const e of sink.since(begin)) {
    if (first) {
      first = false;
      ours.push(e);
      continue;
    }
    const span = typeof e.span_id === 'string' ? e.span_id : null;
    if (e.event === 'span_begin') {
      const { id, parent_id: parentId } = e as SpanBeginEvent;
      const parent = typeof parentId === 'string' ? parentId : span !== id ? span : null;
      if (parent === null || !inside.has(parent)) continue;
      inside.add(id);
    } else if (e.event === 'span_end') {
      if (!inside.has((e as SpanEndEvent).id)) continue;
    } else if (span === null || !inside.has(span)) continue;
    ours.push(e);
  }
  markAborted(sink, ours, reason);
}
