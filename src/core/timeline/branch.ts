/**
 * Recording a branch the way inspect's `timeline_branch` context manager
 * does (inspect_ai's `timeline_branch` in `event/_timeline.py`): an AnchorEvent in
 * the current span, a span of type `branch`, and a BranchEvent as the
 * branch's first event. `buildTimeline` then puts the branch in its parent's
 * `branches` with `branchedFrom` = the anchor id.
 */
import type { AnchorEvent, BranchEvent, SpanBeginEvent, SpanEndEvent } from '../events/types.js';

/**
 * Options of {@link recordBranch}.
 *
 * @example
 * import { type RecordBranchOptions } from './branch.js';
 * const options: RecordBranchOptions = {
 *   name: 'retry',
 *   fromAnchor: 'a1',
 *   spanId: 'agent-1',
 *   newId: () => crypto.randomUUID(),
 * };
 */
export interface RecordBranchOptions {
  /** Name of the branch span. */
  readonly name: string;
  /** Anchor id at the branch point (`BranchEvent.from_anchor`). */
  readonly fromAnchor: string;
  /** The span the branch starts from (the anchor's `span_id`, the branch's `parent_id`); `null` at the root. */
  readonly spanId: string | null;
  /** Id of the branch span; default `newId()`. */
  readonly id?: string;
  /** Source of event uuids (and the default span id). Injected: the core has no id source of its own. */
  readonly newId: () => string;
  /** Clock (ISO 8601); default `new Date().toISOString()`. */
  readonly now?: () => string;
  /** The `source` of the AnchorEvent (optional). */
  readonly source?: string;
}

/**
 * What {@link recordBranch} returns: the events to append now, in order, and
 * a function making the closing `span_end` once the branch's events are done.
 *
 * @example
 * import { type RecordBranchOptions, recordBranch } from './branch.js';
 * declare const options: RecordBranchOptions;
 * const { events, spanId, end } = recordBranch(options);
 */
export interface RecordedBranch {
  /** `[anchor, span_begin, branch]`, to append in this order. */
  readonly events: readonly [AnchorEvent, SpanBeginEvent, BranchEvent];
  /** The branch span's id: give it as `span_id` to the branch's own events. */
  readonly spanId: string;
  /** The `span_end` closing the branch. */
  end(): SpanEndEvent;
}

/**
 * Records a branch for producers that emit canonical events: returns the
 * anchor (in the current span), the `branch` span's begin and the
 * BranchEvent (first inside it), plus `end()` for the closing span_end.
 *
 * @example
 * import { recordBranch } from './branch.js';
 * const newId = () => crypto.randomUUID();
 * const branch = recordBranch({ name: 'attempt 2', fromAnchor: 'turn-3', spanId: 'agent-1', newId });
 * for (const e of branch.events) stream.append(e);
 * stream.append(events.info({ data: 'retrying', span_id: branch.spanId }));
 * stream.append(branch.end());
 */
export function recordBranch(options: RecordBranchOptions): RecordedBranch {
  const now = options.now ?? (() => new Date().toISOString());
  const spanId = options.id ?? options.newId();
  const parent = options.spanId;
  const anchor: AnchorEvent = {
    event: 'anchor',
    uuid: options.newId(),
    timestamp: now(),
    span_id: parent,
    anchor_id: options.fromAnchor,
    ...(options.source !== undefined ? { source: options.source } : {}),
  };
  // As inspect's span(): the new span is current before its begin is emitted,
  // so span_begin.span_id === id (inspect_ai's `span()`).
  const begin: SpanBeginEvent = {
    event: 'span_begin',
    uuid: options.newId(),
    timestamp: now(),
    span_id: spanId,
    id: spanId,
    parent_id: parent,
    type: 'branch',
    name: options.name,
  };
  const branch: BranchEvent = {
    event: 'branch',
    uuid: options.newId(),
    timestamp: now(),
    span_id: spanId,
    from_anchor: options.fromAnchor,
  };
  return {
    events: [anchor, begin, branch],
    spanId,
    end: () => ({
      event: 'span_end',
      uuid: options.newId(),
      timestamp: now(),
      span_id: spanId,
      id: spanId,
    }),
  };
}
