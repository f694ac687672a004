/**
 * Drilling into a span of a swimlane: the span becomes the root of
 * the view, and breadcrumbs lead back out. Pure functions over a timeline;
 * the component keeps only the drilled span's id, so a live timeline that
 * grows keeps the drill as long as the span exists.
 */
import type { Timeline, TimelineSpan } from '../timeline/types.js';

/**
 * One step of the way from the run's root to the drilled span.
 *
 * @example
 * const crumb: SwimlaneCrumb = { spanId: 'main', label: 'main', depth: 0 };
 */
export interface SwimlaneCrumb {
  readonly spanId: string;
  /** The span's name (`main` for a nameless root). */
  readonly label: string;
  /** 0 for the run's root. */
  readonly depth: number;
}

/**
 * The result of {@link drillTimeline}: the timeline to lay out (rooted at the
 * drilled span) and the breadcrumbs, the run's root first and the drilled
 * span last.
 *
 * @example
 * declare const timeline: Timeline;
 * const { timeline: view, crumbs } = drillTimeline(timeline, 'explore-2');
 */
export interface SwimlaneDrill {
  readonly timeline: Timeline;
  readonly crumbs: readonly SwimlaneCrumb[];
  /** The drilled span's id, or `null` when the view is the whole run. */
  readonly spanId: string | null;
}

/**
 * The spans from the root down to the span with `spanId` (content and
 * branches searched, pre-order, first match), or `null` when there is none.
 * Iterative: a 500-deep run does not overflow the stack.
 *
 * @example
 * declare const timeline: Timeline;
 * findSpanPath(timeline.root, 'explore-2')?.map((s) => s.name); // ['main', 'explore']
 */
export function findSpanPath(root: TimelineSpan, spanId: string): TimelineSpan[] | null {
  const path: TimelineSpan[] = [root];
  const next: number[] = [0];
  if (root.id === spanId) return path;
  while (path.length > 0) {
    const top = path.length - 1;
    const span = path[top]!;
    const content = span.content;
    const total = content.length + span.branches.length;
    let i = next[top]!;
    let child: TimelineSpan | null = null;
    while (i < total && child === null) {
      const item = i < content.length ? content[i]! : span.branches[i - content.length]!;
      i++;
      if (item.type === 'span') child = item;
    }
    next[top] = i;
    if (child === null) {
      path.pop();
      next.pop();
      continue;
    }
    path.push(child);
    next.push(0);
    if (child.id === spanId) return path;
  }
  return null;
}

/**
 * Whether drilling into a span shows more than its own bar: it has child
 * spans or branches.
 *
 * @example
 * declare const span: TimelineSpan;
 * declare function openSpan(spanId: string): void;
 * if (canDrillInto(span)) openSpan(span.id);
 */
export function canDrillInto(span: TimelineSpan): boolean {
  if (span.branches.length > 0) return true;
  for (const item of span.content) if (item.type === 'span') return true;
  return false;
}

function crumbOf(span: TimelineSpan, depth: number): SwimlaneCrumb {
  return { spanId: span.id, label: span.name || 'main', depth };
}

/**
 * The view of a timeline drilled into the span with `spanId`: a timeline
 * whose root is that span (name and description kept; no `init`/`scorers`
 * phases, which belong to the run's root) and the breadcrumbs back out.
 * `null`, an unknown id, or the root's id give the whole run with one crumb.
 *
 * @example
 * declare const timeline: Timeline;
 * const drill = drillTimeline(timeline, 'explore-2');
 * const layout = layoutSwimlane(drill.timeline);
 * drill.crumbs.map((c) => c.label).join(' › '); // 'main › explore'
 */
export function drillTimeline(timeline: Timeline, spanId: string | null): SwimlaneDrill {
  const path = spanId === null ? null : findSpanPath(timeline.root, spanId);
  if (path === null || path.length === 1) {
    return { timeline, crumbs: [crumbOf(timeline.root, 0)], spanId: null };
  }
  const span = path[path.length - 1]!;
  return {
    timeline: { name: timeline.name, description: timeline.description, root: span },
    crumbs: path.map(crumbOf),
    spanId: span.id,
  };
}
