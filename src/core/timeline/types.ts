/**
 * The Timeline model: inspect_ai's `Timeline` / `TimelineSpan` /
 * `TimelineEvent` (inspect_ai's `event/_timeline.py`) as plain, serializable data.
 *
 * Field names are camelCase here; {@link timelineDump} writes inspect's
 * snake_case JSON (`span_type`, `branched_from`, …). Metrics (start, end,
 * tokens, idle time) are functions over this data (`spanStartTime`, …), not
 * methods, so a timeline can be frozen, cloned and sent to a worker.
 */
import type { Event } from '../events/types.js';

/**
 * One event placed in a timeline (inspect `TimelineEvent`).
 *
 * @example
 * const item: TimelineEvent = { type: 'event', event: modelEvent };
 */
export interface TimelineEvent {
  readonly type: 'event';
  /** The canonical event (dumped as its `uuid`). */
  readonly event: Event;
}

/**
 * A node of a curated outline (inspect `OutlineNode`): an event uuid and
 * child nodes. `buildTimeline` never fills outlines; custom timeline producers
 * hand them to viewers (inspect_ai's `event/_timeline.py`).
 *
 * @example
 * const node: OutlineNode = { event: 'u1', children: [] };
 */
export interface OutlineNode {
  /** The uuid of the event this node points at. */
  readonly event: string;
  readonly children: readonly OutlineNode[];
}

/**
 * A curated outline of a span (inspect `Outline`).
 *
 * @example
 * const outline: Outline = { nodes: [{ event: 'u1', children: [] }] };
 */
export interface Outline {
  readonly nodes: readonly OutlineNode[];
}

/**
 * An item of a span's content: an event or a child span.
 *
 * @example
 * declare const span: TimelineSpan;
 * declare function visit(child: TimelineSpan): void;
 * for (const item of span.content) if (item.type === 'span') visit(item);
 */
export type TimelineItem = TimelineEvent | TimelineSpan;

/**
 * A span of the timeline (inspect `TimelineSpan`): an agent, a phase
 * (`init`, `scorers`), a utility call or a branch.
 *
 * @example
 * const span: TimelineSpan = {
 *   type: 'span', id: 'main', name: 'main', spanType: 'agent', content: [], branches: [],
 *   utility: false, toolInvoked: false,
 * };
 */
export interface TimelineSpan {
  readonly type: 'span';
  /** Span id (the `span_begin` id, or a synthetic one such as `utility-<uuid>`). */
  readonly id: string;
  /** Display name, lower-cased as inspect's validator does. */
  readonly name: string;
  /** `'agent'`, `'init'`, `'scorers'`, `'branch'`, … or `null` (the phase-less root). */
  readonly spanType: string | null;
  /** Events and child spans, in order. */
  readonly content: readonly TimelineItem[];
  /** Alternative trajectories branched off this span (spans of type `'branch'`). */
  readonly branches: readonly TimelineBranch[];
  /** For a branch: the anchor id it branched from (`BranchEvent.from_anchor`). */
  readonly branchedFrom?: string | null;
  /** Description (agent spans: `span_begin.metadata.description`). */
  readonly description?: string | null;
  /** A utility agent (helper model call), hidden by default in swimlanes. */
  readonly utility: boolean;
  /** The agent was invoked as a tool (handoff, `as_tool`); never utility. */
  readonly toolInvoked: boolean;
  /** The agent's final answer, as text (inspect_ai's `event/_timeline.py`). */
  readonly agentResult?: string | null;
  /** A curated outline supplied by a custom producer (never built here). */
  readonly outline?: Outline | null;
}

/**
 * A branch: a {@link TimelineSpan} with `spanType: 'branch'` and
 * `branchedFrom` set, found in its parent's `branches` list.
 *
 * @example
 * declare const span: TimelineSpan;
 * const anchors = span.branches.map((b: TimelineBranch) => b.branchedFrom);
 */
export type TimelineBranch = TimelineSpan;

/**
 * A whole timeline (inspect `Timeline`): a name, a description and the root
 * span named `main`. The `init` and `scoring` phase spans (when present) are
 * the root's first and last content items; {@link Timeline.init} and
 * {@link Timeline.scorers} point at them for convenience, and the root's
 * branches are its {@link TimelineSpan.branches}.
 *
 * @example
 * const timeline = buildTimeline(stream.toArray());
 * timeline.root.name; // 'main'
 */
export interface Timeline {
  /** `'Default'` for built timelines (overridable). */
  readonly name: string;
  readonly description: string;
  readonly root: TimelineSpan;
  /** The `init` phase span (also the root's first content item), if any. */
  readonly init?: TimelineSpan | null;
  /** The `scoring` phase span (span type `'scorers'`, the root's last content item), if any. */
  readonly scorers?: TimelineSpan | null;
}

/**
 * Options of `buildTimeline`.
 *
 * @example
 * buildTimeline(stream.toArray(), { keepOrphans: false, name: 'Default' });
 */
export interface BuildTimelineOptions {
  /** Timeline name (default `'Default'`, as inspect). */
  readonly name?: string;
  /** Timeline description (default `''`). */
  readonly description?: string;
  /**
   * Keep root-level events and spans outside the `init`/`solvers`/`scorers`
   * phases (e.g. a `sample_limit` event written when a run is interrupted).
   * Default `true`, the choice of inspect's TS port
   * (https://github.com/meridianlabs-ai/ts-mono/issues/178); `false` drops them
   * as Python `timeline_build` does (inspect_ai's `event/_timeline.py`).
   */
  readonly keepOrphans?: boolean;
}
