/**
 * `timelineDump` / `timelineLoad` / `timelineFilter` — inspect's
 * `timeline_dump`, `timeline_load` and `timeline_filter`
 * (inspect_ai's `timeline_dump`). The dump is inspect's snake_case JSON with
 * events as uuids: compact, and meaningful only with the event list.
 * All three walk the tree with explicit stacks (no recursion over depth).
 */
import { ImportError, jsonPath } from '../errors.js';
import type { Event } from '../events/types.js';
import type { Outline, Timeline, TimelineItem, TimelineSpan } from './types.js';
import { isRecord as isObject, typeName } from '../import/guards.js';

/**
 * A dumped event reference: `event` is the uuid (`""` when it has none).
 *
 * @example
 * const ref: TimelineEventJson = { type: 'event', event: 'hVv1xX2Mn8sZ4iT7Qe3rKd' };
 */
export interface TimelineEventJson {
  type: 'event';
  event: string;
}

/**
 * A dumped span, in inspect's field names and order (nulls kept, as
 * pydantic's `model_dump`).
 *
 * @example
 * const json: TimelineSpanJson = {
 *   type: 'span', id: 'main', name: 'main', span_type: 'agent', content: [], branches: [],
 *   branched_from: null, description: null, utility: false, tool_invoked: false,
 *   agent_result: null, outline: null,
 * };
 */
export interface TimelineSpanJson {
  type: 'span';
  id: string;
  name: string;
  span_type: string | null;
  content: (TimelineEventJson | TimelineSpanJson)[];
  branches: TimelineSpanJson[];
  branched_from: string | null;
  description: string | null;
  utility: boolean;
  tool_invoked: boolean;
  agent_result: string | null;
  outline: Outline | null;
}

/**
 * A dumped timeline (`sample.timelines[i]` in inspect logs).
 *
 * @example
 * declare const timeline: Timeline;
 * const dumped: TimelineJson = timelineDump(timeline);
 */
export interface TimelineJson {
  name: string;
  description: string;
  root: TimelineSpanJson;
}

function spanShell(span: TimelineSpan): TimelineSpanJson {
  return {
    type: 'span',
    id: span.id,
    name: span.name,
    span_type: span.spanType,
    content: [],
    branches: [],
    branched_from: span.branchedFrom ?? null,
    description: span.description ?? null,
    utility: span.utility,
    tool_invoked: span.toolInvoked,
    agent_result: span.agentResult ?? null,
    outline: span.outline ?? null,
  };
}

/**
 * Serializes a timeline to inspect's JSON shape (`span_type`,
 * `branched_from`, `tool_invoked`, `agent_result`, …), events as their uuids.
 *
 * @example
 * const text = JSON.stringify(timelineDump(buildTimeline(stream.toArray())));
 */
export function timelineDump(timeline: Timeline): TimelineJson {
  const root = spanShell(timeline.root);
  const stack: [TimelineSpan, TimelineSpanJson][] = [[timeline.root, root]];
  while (stack.length > 0) {
    const [span, out] = stack.pop()!;
    for (const item of span.content) {
      if (item.type === 'event') out.content.push({ type: 'event', event: item.event.uuid ?? '' });
      else {
        const child = spanShell(item);
        out.content.push(child);
        stack.push([item, child]);
      }
    }
    for (const b of span.branches) {
      const child = spanShell(b);
      out.branches.push(child);
      stack.push([b, child]);
    }
  }
  return { name: timeline.name, description: timeline.description, root };
}

/**
 * A JSON path, spelled out only when an error names it: the path of a
 * container and a key in it. Building every item's path string up front was
 * most of a load's time at a million items.
 */
type LazyPath = string | { readonly base: LazyPath; readonly key: string | number };

/** The path as text (`jsonPath` of each key in turn; a loop: paths nest as deep as spans). */
function pathText(path: LazyPath): string {
  const keys: (string | number)[] = [];
  let at = path;
  while (typeof at !== 'string') {
    keys.push(at.key);
    at = at.base;
  }
  let text = at;
  for (let i = keys.length - 1; i >= 0; i--) text = jsonPath(text, keys[i]!);
  return text;
}

const under = (base: LazyPath, key: string | number): LazyPath => ({ base, key });

function expectObject(value: unknown, path: LazyPath): Record<string, unknown> {
  if (!isObject(value))
    throw new ImportError('wrong_type', pathText(path), 'object', typeName(value));
  return value;
}

function expectString(obj: Record<string, unknown>, key: string, path: LazyPath): string {
  const value = obj[key];
  if (typeof value === 'string') return value;
  const at = pathText(under(path, key));
  if (value === undefined) throw new ImportError('missing_field', at, key);
  throw new ImportError('wrong_type', at, 'string', typeName(value));
}

function optionalString(obj: Record<string, unknown>, key: string, path: LazyPath): string | null {
  const value = obj[key];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') {
    throw new ImportError(
      'wrong_type',
      pathText(under(path, key)),
      'string or null',
      typeName(value),
    );
  }
  return value;
}

function optionalArray(obj: Record<string, unknown>, key: string, path: LazyPath): unknown[] {
  const value = obj[key];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value))
    throw new ImportError('wrong_type', pathText(under(path, key)), 'array', typeName(value));
  return value;
}

/**
 * A span while it is put together (its lists still growing); also what a
 * worker-built timeline is rebuilt into on the page (`TimelineDecoder`, wire.ts).
 * @internal
 */
export interface LoadSpan {
  type: 'span';
  id: string;
  name: string;
  spanType: string | null;
  content: TimelineItem[];
  branches: TimelineSpan[];
  branchedFrom: string | null;
  description: string | null;
  utility: boolean;
  toolInvoked: boolean;
  agentResult: string | null;
  outline: Outline | null;
}

function loadSpanShell(obj: Record<string, unknown>, path: LazyPath): LoadSpan {
  const outline = obj['outline'];
  return {
    type: 'span',
    id: expectString(obj, 'id', path),
    // inspect's validator lower-cases names on load too.
    name: expectString(obj, 'name', path).toLowerCase(),
    spanType: optionalString(obj, 'span_type', path),
    content: [],
    branches: [],
    branchedFrom: optionalString(obj, 'branched_from', path),
    description: optionalString(obj, 'description', path),
    utility: obj['utility'] === true,
    toolInvoked: obj['tool_invoked'] === true,
    agentResult: optionalString(obj, 'agent_result', path),
    // Outlines are data carriers; kept as given (inspect_ai's `event/_timeline.py`).
    outline:
      isObject(outline) && Array.isArray(outline['nodes']) ? (outline as unknown as Outline) : null,
  };
}

/**
 * Rebuilds a timeline from {@link timelineDump} output (or a log's
 * `sample.timelines[i]`), resolving uuids against `events` (events without a
 * uuid are ignored). A uuid that resolves to no event throws an
 * {@link ImportError} with code `timeline_unresolved_event` and the JSON
 * path of the reference (inspect fails validation; its TS viewer silently
 * drops the item — skein reports it).
 *
 * @example
 * declare const sample: { events: Event[]; timelines: unknown[] };
 * const timeline = timelineLoad(sample.timelines[0], sample.events);
 */
export function timelineLoad(json: unknown, events: readonly Event[]): Timeline {
  const byUuid = new Map<string, Event>();
  for (const e of events) if (e.uuid) byUuid.set(e.uuid, e);
  const top = expectObject(json, '$');
  const name = expectString(top, 'name', '$');
  const description = typeof top['description'] === 'string' ? top['description'] : '';
  const rootPath: LazyPath = '$.root';
  const root = loadSpanShell(expectObject(top['root'], rootPath), rootPath);
  const stack: [Record<string, unknown>, LoadSpan, LazyPath][] = [
    [top['root'] as Record<string, unknown>, root, rootPath],
  ];
  while (stack.length > 0) {
    const [obj, span, path] = stack.pop()!;
    const contentPath = under(path, 'content');
    const content = optionalArray(obj, 'content', path);
    for (let i = 0; i < content.length; i++) {
      const item = content[i];
      if (!isObject(item)) expectObject(item, under(contentPath, i));
      const fields = item as Record<string, unknown>;
      if (fields['type'] === 'span') {
        const itemPath = under(contentPath, i);
        const child = loadSpanShell(fields, itemPath);
        span.content.push(child);
        stack.push([fields, child, itemPath]);
        continue;
      }
      // `type` defaults to "event" (inspect's discriminator does the same).
      const ref = fields['event'];
      const uuid =
        typeof ref === 'string' ? ref : expectString(fields, 'event', under(contentPath, i));
      const event = byUuid.get(uuid);
      if (event === undefined) {
        const at = pathText(under(under(contentPath, i), 'event'));
        throw new ImportError('timeline_unresolved_event', at, uuid);
      }
      span.content.push({ type: 'event', event });
    }
    const branchesPath = under(path, 'branches');
    const branches = optionalArray(obj, 'branches', path);
    for (let i = 0; i < branches.length; i++) {
      const itemPath = under(branchesPath, i);
      const item = expectObject(branches[i], itemPath);
      const child = loadSpanShell(item, itemPath);
      span.branches.push(child);
      stack.push([item, child, itemPath]);
    }
  }
  return withPhases(name, description, root);
}

/** Locates the init (first item) and scoring (last item) phase spans of a root. */
function withPhases(name: string, description: string, root: TimelineSpan): Timeline {
  const first = root.content[0];
  const last = root.content[root.content.length - 1];
  return {
    name,
    description,
    root,
    init: first?.type === 'span' && first.spanType === 'init' ? first : null,
    scorers: last?.type === 'span' && last.spanType === 'scorers' ? last : null,
  };
}

/**
 * Returns a new timeline keeping only the child spans for which
 * `predicate(span)` is true; a rejected span goes with its whole subtree.
 * Events are always kept; the root is never tested; `branches` are copied
 * unchanged, not filtered (inspect's `timeline_filter`, inspect_ai's `timeline_dump`).
 *
 * @example
 * import { timelineFilter } from './serialize.js';
 * declare const timeline: Timeline;
 * const noUtility = timelineFilter(timeline, (span) => !span.utility);
 */
export function timelineFilter(
  timeline: Timeline,
  predicate: (span: TimelineSpan) => boolean,
): Timeline {
  const copy = (span: TimelineSpan): { type: 'span'; content: TimelineItem[] } & TimelineSpan => ({
    ...span,
    content: [],
  });
  const root = copy(timeline.root);
  const stack: [TimelineSpan, { content: TimelineItem[] }][] = [[timeline.root, root]];
  while (stack.length > 0) {
    const [span, out] = stack.pop()!;
    for (const item of span.content) {
      if (item.type === 'event') out.content.push(item);
      else if (predicate(item)) {
        const child = copy(item);
        out.content.push(child);
        stack.push([item, child]);
      }
    }
  }
  return withPhases(timeline.name, timeline.description, root);
}
