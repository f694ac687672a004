// Hand-built timelines for the swimlane tests: spans and events placed at
// seconds after a fixed base time, the way research/inspect_ai.md §3.6 built
// its example (duck-typed spans and events, no builder involved).
import type { Event } from '../../../src/core/events/types.js';
import type { Timeline, TimelineItem, TimelineSpan } from '../../../src/core/timeline/types.js';

/** Base time of every hand-built timeline: 2026-06-10T18:00:00Z. */
export const BASE_MS = Date.UTC(2026, 5, 10, 18, 0, 0);

let counter = 0;

/** ISO timestamp `seconds` after {@link BASE_MS} (fractional seconds allowed). */
export function at(seconds: number): string {
  return new Date(BASE_MS + seconds * 1000).toISOString();
}

/** A model event from `start` to `end` seconds using `tokens` tokens (all output). */
export function model(
  start: number,
  end: number,
  tokens = 0,
  extra: Record<string, unknown> = {},
): TimelineItem {
  const event = {
    event: 'model',
    uuid: `m${++counter}`,
    timestamp: at(start),
    completed: at(end),
    model: 'test/model',
    input: [],
    tools: [],
    tool_choice: 'auto',
    config: {},
    output: { model: 'test/model', choices: [], usage: { input_tokens: 0, output_tokens: tokens } },
    ...extra,
  } as unknown as Event;
  return { type: 'event', event };
}

/** A tool event from `start` to `end` seconds, failing when `error` is given. */
export function tool(start: number, end: number, error?: string): TimelineItem {
  const event = {
    event: 'tool',
    uuid: `t${++counter}`,
    timestamp: at(start),
    completed: at(end),
    type: 'function',
    id: `call${counter}`,
    function: 'bash',
    arguments: {},
    result: '',
    events: [],
    ...(error ? { error: { type: 'unknown', message: error } } : {}),
  } as unknown as Event;
  return { type: 'event', event };
}

/** A point event of kind `kind` (e.g. `compaction`, `info`, `anchor`) at `time` seconds. */
export function point(
  kind: string,
  time: number,
  extra: Record<string, unknown> = {},
): TimelineItem {
  const event = {
    event: kind,
    uuid: `p${++counter}`,
    timestamp: at(time),
    ...extra,
  } as unknown as Event;
  return { type: 'event', event };
}

/** A span named `name` holding `content`. */
export function span(
  name: string,
  content: TimelineItem[],
  extra: Partial<Omit<TimelineSpan, 'type' | 'name' | 'content'>> = {},
): TimelineSpan {
  return {
    type: 'span',
    id: extra.id ?? `${name}-${++counter}`,
    name,
    spanType: extra.spanType ?? 'agent',
    content,
    branches: extra.branches ?? [],
    utility: extra.utility ?? false,
    toolInvoked: extra.toolInvoked ?? false,
    ...(extra.branchedFrom !== undefined ? { branchedFrom: extra.branchedFrom } : {}),
  };
}

/** A timeline whose root (named `main`) holds `content` and `branches`. */
export function timeline(content: TimelineItem[], branches: TimelineSpan[] = []): Timeline {
  return {
    name: 'Default',
    description: '',
    root: span('main', content, { id: 'main', branches }),
  };
}

/**
 * The timeline of research/inspect_ai.md §3.6, rebuilt from its description
 * (times in seconds; the view runs 0–120 s):
 * main holds an init span; 3 overlapping `explore` agents at 12–40 s; `plan`;
 * two sequential `coder` agents, the first with a compaction at 72 s; a
 * hidden utility span whose tokens count toward main; `scoring`; and one
 * branch whose content holds a single `coder` span.
 */
export function researchExample(): Timeline {
  return timeline(
    [
      span('init', [point('info', 0)], { spanType: 'init' }),
      span('explore', [model(12, 40, 10_000)]),
      span('explore', [model(13, 35, 9_000)]),
      span('explore', [model(14, 38, 9_000)]),
      span('plan', [model(45, 55, 12_000)]),
      span('utility', [model(56, 58, 5_000)], { utility: true }),
      span('coder', [model(60, 70, 20_000), point('compaction', 72), model(74, 96, 20_000)]),
      span('coder', [model(101, 112, 26_500)]),
      span('scoring', [model(113, 120, 2_500)], { spanType: 'scorers' }),
    ],
    [
      span(
        'branch',
        [point('branch', 71, { from_anchor: 'a1' }), span('coder', [model(71, 100, 20_000)])],
        {
          spanType: 'branch',
          branchedFrom: 'a1',
        },
      ),
    ],
  );
}
