// Timeline metrics (research §3.1, §3.4), dump/load/filter (§3.8) and the
// branch-recording helper (§3.3 "Producing branches").
import { describe, expect, it } from 'vitest';
import { ImportError } from '../../src/core/errors.js';
import {
  buildTimeline,
  recordBranch,
  spanEndTime,
  spanIdleTime,
  spanStartTime,
  spanTotalTokens,
  timelineDump,
  timelineFilter,
  timelineLoad,
} from '../../src/core/timeline/index.js';
import type { TimelineSpan } from '../../src/core/timeline/index.js';
import { clock, parse, shape, spans, uuids, wire } from './helpers/timeline-wire.js';

const T0 = Date.UTC(2026, 0, 1);

describe('metrics', () => {
  it('tokens are input + cache read + cache write + output, with or without branches', () => {
    const w = wire(clock());
    const events = parse([
      w.begin('a', 'agent', 'agent'),
      w.model('m1', 'a', {
        usage: {
          input_tokens: 1,
          input_tokens_cache_read: 20,
          input_tokens_cache_write: 300,
          output_tokens: 4000,
          total_tokens: 9,
        },
      }),
      w.begin('b', 'b', 'branch', 'a'),
      w.branch('be', 'b', 'x'),
      w.model('m2', 'b', { usage: { input_tokens: 5, output_tokens: 5 } }),
      w.end('b'),
      w.end('a'),
    ]);
    const agent = spans(buildTimeline(events).root)[0]!;
    expect(spanTotalTokens(agent)).toBe(4331);
    expect(spanTotalTokens(agent, { includeBranches: false })).toBe(4321);
  });

  it('start is the earliest start; end uses `completed` of model and tool events only', () => {
    const w = wire(clock());
    const events = parse([
      w.model('m1', null, { at: 10, completedAt: 40 }),
      { ...w.info('i', null), timestamp: new Date(T0 + 20_000).toISOString() },
      {
        event: 'sandbox',
        uuid: 'sb',
        action: 'exec',
        timestamp: new Date(T0 + 30_000).toISOString(),
        completed: new Date(T0 + 90_000).toISOString(),
      },
    ]);
    const root = buildTimeline(events).root;
    expect(spanStartTime(root)).toBe(T0 + 10_000);
    expect(spanEndTime(root)).toBe(T0 + 40_000);
  });

  it('an empty span has sentinel times (+∞ start, −∞ end) and 0 tokens', () => {
    const root = buildTimeline([]).root;
    expect(spanStartTime(root)).toBe(Number.POSITIVE_INFINITY);
    expect(spanEndTime(root)).toBe(Number.NEGATIVE_INFINITY);
    expect(spanTotalTokens(root)).toBe(0);
    expect(spanIdleTime(root)).toBe(0);
  });

  it('idle time counts gaps over 5 minutes, in ms, measured from the previous child end (quirk)', () => {
    const w = wire(clock());
    const events = parse([
      w.model('m1', null, { at: 0, completedAt: 1000 }), // long: 0 → 1000 s
      w.model('m2', null, { at: 100, completedAt: 110 }),
      w.model('m3', null, { at: 500, completedAt: 510 }), // 390 s after m2's end: counted
      w.model('m4', null, { at: 700, completedAt: 710 }), // 190 s: not counted
    ]);
    expect(spanIdleTime(buildTimeline(events).root)).toBe(390_000);
  });

  it('idle time sums the children’s own idle time', () => {
    const w = wire(clock());
    const events = parse([
      w.begin('a', 'agent', 'agent'),
      w.model('m1', 'a', { at: 0, completedAt: 1 }),
      w.model('m2', 'a', { at: 601, completedAt: 602 }),
      w.end('a'),
    ]);
    const t = buildTimeline(events);
    expect(spanIdleTime(spans(t.root)[0]!)).toBe(600_000);
    expect(spanIdleTime(t.root)).toBe(600_000);
  });
});

function sample() {
  const w = wire(clock());
  const events = parse([
    w.begin('init', 'init', 'init'),
    w.info('i0', 'init'),
    w.end('init'),
    w.begin('solvers', 'solvers', 'solvers'),
    w.begin('a', 'Main', 'agent', 'solvers', { metadata: { description: 'top' } }),
    w.model('m1', 'a', { system: 'p', calls: true }),
    w.begin('c', 'helper', 'agent', 'a'),
    w.model('m2', 'c', { system: 'q' }),
    w.end('c'),
    w.tool('t1', 'a', { agent_span_id: 'c', result: 'helped' }),
    w.begin('b', 'retry', 'branch', 'a'),
    w.branch('be', 'b', 'anchor'),
    w.begin('cb', 'inbranch', 'agent', 'b'),
    w.model('m3', 'cb'),
    w.end('cb'),
    w.end('b'),
    w.end('a'),
    w.end('solvers'),
  ]);
  return { events, timeline: buildTimeline(events) };
}

describe('timelineDump / timelineLoad', () => {
  it('dumps inspect’s snake_case shape with events as uuids', () => {
    const { timeline } = sample();
    const json = timelineDump(timeline);
    expect(json.name).toBe('Default');
    expect(json.root).toMatchObject({
      type: 'span',
      id: 'a',
      name: 'main',
      span_type: 'agent',
      description: 'top',
      utility: false,
      tool_invoked: false,
      agent_result: null,
      branched_from: null,
      outline: null,
    });
    expect(json.root.content[1]).toEqual({ type: 'event', event: 'm1' });
    expect(json.root.content[2]).toMatchObject({
      type: 'span',
      id: 'c',
      utility: true,
      agent_result: 'helped',
    });
    expect(json.root.branches[0]).toMatchObject({
      id: 'b',
      span_type: 'branch',
      branched_from: 'anchor',
    });
    expect(Object.keys(json.root)).toEqual([
      'type',
      'id',
      'name',
      'span_type',
      'content',
      'branches',
      'branched_from',
      'description',
      'utility',
      'tool_invoked',
      'agent_result',
      'outline',
    ]);
  });

  it('round-trips through JSON and rebinds the same event objects', () => {
    const { events, timeline } = sample();
    const json = JSON.parse(JSON.stringify(timelineDump(timeline))) as unknown;
    const loaded = timelineLoad(json, events);
    expect(timelineDump(loaded)).toEqual(json);
    const first = loaded.root.content[1];
    expect(first?.type === 'event' && first.event).toBe(events[5]);
    expect(loaded.init?.id).toBe('init');
  });

  it('an unresolvable uuid throws a typed ImportError with code and path', () => {
    const { timeline } = sample();
    const json = timelineDump(timeline);
    let error: unknown;
    try {
      timelineLoad(json, []);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ImportError);
    expect((error as ImportError).code).toBe('timeline_unresolved_event');
    expect((error as ImportError).path).toBe('$.root.content[1].event');
  });

  it('malformed input throws wrong_type / missing_field', () => {
    expect(() => timelineLoad(42, [])).toThrow(
      expect.objectContaining({ code: 'wrong_type', path: '$' }),
    );
    expect(() => timelineLoad({ name: 'x', root: { type: 'span', name: 'm' } }, [])).toThrow(
      expect.objectContaining({ code: 'missing_field', path: '$.root.id' }),
    );
  });
});

describe('timelineFilter', () => {
  it('prunes rejected child spans with their subtree, keeps events, never tests the root, leaves branches alone', () => {
    const { timeline } = sample();
    const tested: string[] = [];
    const filtered = timelineFilter(timeline, (span: TimelineSpan) => {
      tested.push(span.id);
      return !span.utility && span.spanType !== 'init';
    });
    expect(tested).not.toContain('a');
    expect(tested).not.toContain('cb'); // inside a branch: not tested
    expect(shape(filtered.root.content)).toEqual(['m1', 't1']);
    expect(filtered.root.branches).toBe(timeline.root.branches);
    expect(filtered.init).toBeNull();
    expect(shape(timeline.root.content)[2]).toBe('[c: m2]'); // the input is untouched
  });
});

describe('recordBranch', () => {
  it('emits anchor, branch span_begin and BranchEvent, which buildTimeline turns into a branch', () => {
    let n = 0;
    const newId = () => `id${n++}`;
    const now = () => new Date(T0 + n * 1000).toISOString();
    const w = wire(clock());
    const branch = recordBranch({
      name: 'Attempt 2',
      fromAnchor: 'turn-1',
      spanId: 'a',
      newId,
      now,
    });
    const [anchor, begin, be] = branch.events;
    expect(anchor).toMatchObject({ event: 'anchor', anchor_id: 'turn-1', span_id: 'a' });
    expect(begin).toMatchObject({
      event: 'span_begin',
      type: 'branch',
      name: 'Attempt 2',
      parent_id: 'a',
      id: branch.spanId,
      span_id: branch.spanId,
    });
    expect(be).toMatchObject({ event: 'branch', from_anchor: 'turn-1', span_id: branch.spanId });
    const events = parse([
      w.begin('a', 'agent', 'agent'),
      w.model('m1', 'a'),
      ...branch.events.map((e) => ({ ...e })),
      { ...w.model('m2', branch.spanId) },
      { ...branch.end() },
      w.end('a'),
    ]);
    const agent = spans(buildTimeline(events).root)[0]!;
    expect(uuids(agent)).toEqual(['m1', anchor.uuid]);
    expect(agent.branches).toHaveLength(1);
    expect(agent.branches[0]).toMatchObject({
      id: branch.spanId,
      name: 'attempt 2',
      branchedFrom: 'turn-1',
    });
    expect(uuids(agent.branches[0]!)).toEqual([be.uuid, 'm2']);
  });
});
