// Runs for the swimlane's stories, browser tests and benches (issue 18): a
// fan-out run (a main agent launching many sub-agents in parallel waves),
// as events or as a ready timeline built directly (a 100k-span timeline in
// milliseconds, without building 300k events first). Deterministic.
import { stampEventTime } from '../src/core/events/event-time.js';
import type { Event, Timeline, TimelineItem, TimelineSpan } from '../src/index.js';

/** Options of {@link fanOutEvents} and {@link fanOutTimeline}. */
export interface FanOutOptions {
  /** Sub-agents (bars). */
  readonly agents: number;
  /** Sub-agents running at once (default 8). */
  readonly parallelism?: number;
  /** Every `idleEvery` waves, the run pauses for `idleMs` (default: never). */
  readonly idleEvery?: number;
  /** Length of each pause, ms (default 2 h). */
  readonly idleMs?: number;
  /** Every `errorEvery`-th agent's model call fails (default 97; 0 never). */
  readonly errorEvery?: number;
  /** Epoch ms of the first event (default 2026-06-10T18:23:50Z). */
  readonly start?: number;
  readonly seed?: number;
}

const NAMES = ['worker', 'search', 'review'];

interface Agent {
  id: string;
  name: string;
  start: number;
  end: number;
  tokens: number;
  failed: boolean;
}

/** The agents' times: waves of `parallelism`, each a few seconds long. */
function agentsOf(options: FanOutOptions): Agent[] {
  const parallelism = options.parallelism ?? 8;
  const idleEvery = options.idleEvery ?? 0;
  const idleMs = options.idleMs ?? 2 * 3600_000;
  const errorEvery = options.errorEvery ?? 97;
  let seed = (options.seed ?? 1) >>> 0 || 1;
  const random = () => {
    // xorshift32: small, deterministic, good enough for durations.
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 4294967296;
  };
  const out: Agent[] = [];
  let t = (options.start ?? Date.parse('2026-06-10T18:23:50Z')) + 1000;
  let wave = 0;
  for (let i = 0; i < options.agents; i += parallelism) {
    let waveEnd = t;
    for (let j = i; j < Math.min(options.agents, i + parallelism); j++) {
      const start = t + Math.floor(random() * 400);
      const end = start + 500 + Math.floor(random() * 6000);
      waveEnd = Math.max(waveEnd, end);
      out.push({
        id: `agent-${j}`,
        name: NAMES[j % NAMES.length]!,
        start,
        end,
        tokens: 200 + Math.floor(random() * 3000),
        failed: errorEvery > 0 && j % errorEvery === errorEvery - 1,
      });
    }
    t = waveEnd + 200;
    wave++;
    if (idleEvery > 0 && wave % idleEvery === 0) t += idleMs;
  }
  return out;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Stamps the start time as `parseEvent` and every importer do (generateRun
 * too), so these events cost what a real run's events cost to read.
 */
function stamped(event: Event, ms: number): Event {
  stampEventTime(event, ms);
  return event;
}

function modelEvent(agent: Agent, spanId: string | null): Event {
  return stamped(
    {
      event: 'model',
      uuid: `${agent.id}-model`,
      span_id: spanId,
      timestamp: iso(agent.start + 10),
      completed: iso(agent.end - 10),
      working_start: 0,
      model: 'test/model',
      input: [],
      tools: [],
      tool_choice: 'auto',
      config: {},
      output: {
        model: 'test/model',
        choices: [],
        usage: { input_tokens: 0, output_tokens: agent.tokens, total_tokens: agent.tokens },
      },
      ...(agent.failed ? { error: 'rate limited' } : {}),
    } as unknown as Event,
    agent.start + 10,
  );
}

/**
 * A fan-out run as canonical events: per sub-agent a `span_begin`, one model
 * call and a `span_end` (3 events per bar).
 */
export function fanOutEvents(options: FanOutOptions): Event[] {
  const events: Event[] = [];
  for (const agent of agentsOf(options)) {
    events.push(
      stamped(
        {
          event: 'span_begin',
          uuid: `${agent.id}-begin`,
          span_id: agent.id,
          id: agent.id,
          parent_id: null,
          timestamp: iso(agent.start),
          working_start: 0,
          name: agent.name,
          type: 'agent',
        } as unknown as Event,
        agent.start,
      ),
      modelEvent(agent, agent.id),
      stamped(
        {
          event: 'span_end',
          uuid: `${agent.id}-end`,
          span_id: agent.id,
          id: agent.id,
          timestamp: iso(agent.end),
          working_start: 0,
        } as unknown as Event,
        agent.end,
      ),
    );
  }
  return events;
}

/** The same run as a ready timeline (what `buildTimeline(fanOutEvents(o))` gives, built directly). */
export function fanOutTimeline(options: FanOutOptions): Timeline {
  return rootTimeline(
    agentsOf(options).map((agent) =>
      agentSpan(agent.id, agent.name, [{ type: 'event', event: modelEvent(agent, agent.id) }]),
    ),
  );
}

/** An agent span of `content` (and `branches`). */
function agentSpan(
  id: string,
  name: string,
  content: TimelineItem[],
  branches: TimelineSpan[] = [],
): TimelineSpan {
  return {
    type: 'span',
    id,
    name,
    spanType: 'agent',
    content,
    branches,
    utility: false,
    toolInvoked: false,
  };
}

/** A timeline whose root agent `main` holds `content`. */
function rootTimeline(content: TimelineItem[]): Timeline {
  return { name: 'Default', description: '', root: agentSpan('main', 'main', content) };
}

/** Renames the ids of a fan-out's sub-agents under `prefix` (ids stay unique when nested). */
function prefixed(spans: readonly TimelineItem[], prefix: string): TimelineSpan[] {
  return spans.map((item) => ({
    ...(item as TimelineSpan),
    id: `${prefix}/${item.type === 'span' ? item.id : ''}`,
  }));
}

/**
 * A run with nesting to drill into: three sequential `planner` agents, each
 * fanning out six `worker`/`search`/`review` sub-agents; the second planner
 * has a branch (`retry`) of two sub-agents. Span ids: `planner-<i>`,
 * `planner-<i>/agent-<j>`, `retry`.
 */
export function nestedTimeline(): Timeline {
  const base = Date.parse('2026-06-10T18:23:50Z');
  const planners = [0, 1, 2].map((i): TimelineSpan => {
    const start = base + i * 30_000;
    const inner = fanOutTimeline({ agents: 6, parallelism: 2, seed: 10 + i, start, errorEvery: 0 });
    const retry = fanOutTimeline({ agents: 2, parallelism: 1, seed: 5, start: start + 4000 });
    const branches: TimelineSpan[] =
      i === 1
        ? [
            {
              ...retry.root,
              id: 'retry',
              name: 'retry',
              spanType: 'branch',
              branchedFrom: 'a1',
              content: prefixed(retry.root.content, 'retry'),
            },
          ]
        : [];
    return agentSpan(
      `planner-${i}`,
      'planner',
      prefixed(inner.root.content, `planner-${i}`),
      branches,
    );
  });
  return rootTimeline(planners);
}
