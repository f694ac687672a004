// One definition per fact (issue 16): an event's status, error, end time,
// duration and tokens come from events/outcome.ts, and every view — the
// describers, the span headers of the transcript rows, the timeline metrics
// and the swimlane markers — agrees with it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  EventStream,
  buildEventTree,
  buildTimeline,
  describeEvent,
  eventEnd,
  eventError,
  eventOutcome,
  eventStatus,
  eventTime,
  eventTotalTokens,
  generateRun,
  isFailedEvent,
  layoutSwimlane,
  spanSummary,
  spanTotalTokens,
  type Event,
  type TimelineSpan,
} from '../../src/index.js';

const T0 = '2026-06-10T18:24:10Z';
const T0_MS = Date.parse(T0);
const env = { uuid: 'u1', timestamp: T0 };

const model = (over: Record<string, unknown> = {}): Event =>
  ({
    ...env,
    event: 'model',
    model: 'm',
    input: [],
    tools: [],
    tool_choice: 'auto',
    config: {},
    output: { model: 'm', choices: [], completion: '' },
    ...over,
  }) as Event;
const tool = (over: Record<string, unknown> = {}): Event =>
  ({
    ...env,
    event: 'tool',
    type: 'function',
    id: 'c1',
    function: 'bash',
    arguments: {},
    result: '',
    events: [],
    ...over,
  }) as Event;

describe('eventOutcome: the rules', () => {
  it.each<[string, Event, string]>([
    ['a model call', model(), 'ok'],
    ['a model call with an error', model({ error: 'rate limited' }), 'error'],
    ['a cancel sentinel', model({ error: 'Cancelled by operator' }), 'cancelled'],
    [
      'ModelOutput.error (a refusal) is an answer',
      model({ output: { model: 'm', choices: [], completion: '', error: 'refused' } }),
      'ok',
    ],
    ['an empty model error', model({ error: '' }), 'ok'],
    ['a pending model call, even with an error', model({ pending: true, error: 'x' }), 'running'],
    ['a tool call', tool(), 'ok'],
    ['a tool error', tool({ error: { type: 'timeout', message: 'slow' } }), 'error'],
    [
      'a cancelled tool call',
      tool({ error: { type: 'cancelled', message: 'stop' }, failed: true }),
      'cancelled',
    ],
    ['failed without an error', tool({ failed: true }), 'error'],
    [
      'an error event',
      { ...env, event: 'error', error: { message: 'boom', traceback: '', traceback_ansi: '' } },
      'error',
    ],
    ['a limit', { ...env, event: 'sample_limit', type: 'token', message: 'too many' }, 'cancelled'],
    [
      'an interrupt',
      { ...env, event: 'interrupt', source: 'user_cancel', interrupted: 'generate' },
      'cancelled',
    ],
    [
      'a non-zero exit',
      { ...env, event: 'sandbox', action: 'exec', cmd: 'grep x', result: 1 } as Event,
      'ok',
    ],
    [
      'a log record at level error',
      { ...env, event: 'logger', message: { level: 'error', message: 'x', created: 0 } },
      'ok',
    ],
    ['an unknown kind with an error', { ...env, event: 'future', error: 'x' } as Event, 'error'],
    ['an unknown kind with error: false', { ...env, event: 'future', error: false } as Event, 'ok'],
    ['a known kind never fails by an extra field', { ...env, event: 'info', error: 'x' }, 'ok'],
  ])('%s', (_name, event, status) => {
    expect(eventStatus(event)).toBe(status);
    expect(eventOutcome(event).status).toBe(status);
    expect(isFailedEvent(event)).toBe(status === 'error');
    expect(describeEvent(event).status).toBe(status);
  });

  it('says why: message, type and traceback', () => {
    expect(eventError(tool({ error: { type: 'timeout', message: 'slow' } }))).toEqual({
      message: 'slow',
      type: 'timeout',
    });
    expect(eventError(model({ error: 'bad', traceback: 'T', traceback_ansi: 'A' }))).toEqual({
      message: 'bad',
      traceback: 'T',
      tracebackAnsi: 'A',
    });
    expect(eventError(model())).toBeUndefined();
    expect(eventError(model({ error: 'x', pending: true }))).toBeUndefined();
  });

  it('ends at `completed` for model and tool events only (inspect §3.1)', () => {
    const completed = '2026-06-10T18:24:12Z';
    expect(eventOutcome(tool({ completed }))).toMatchObject({
      startTime: T0_MS,
      endTime: T0_MS + 2000,
      duration: 2000,
    });
    const sandbox = { ...env, event: 'sandbox', action: 'exec', completed } as Event;
    expect(eventEnd(sandbox)).toBeUndefined();
    expect(eventOutcome(sandbox).duration).toBeUndefined();
    expect(eventOutcome(tool({ completed: 'garbage' })).endTime).toBeUndefined();
  });

  it('counts tokens as inspect: input + cache + output, not usage.total_tokens', () => {
    const usage = {
      input_tokens: 10,
      output_tokens: 5,
      total_tokens: 999,
      input_tokens_cache_read: 100,
      input_tokens_cache_write: 1,
      reasoning_tokens: 3,
    };
    const e = model({ output: { model: 'm', choices: [], completion: '', usage } });
    expect(eventTotalTokens(e)).toBe(116);
    expect(eventOutcome(e).tokens).toEqual({
      input: 10,
      output: 5,
      total: 116,
      cacheRead: 100,
      cacheWrite: 1,
      reasoning: 3,
    });
    expect(describeEvent(e).tokens?.total).toBe(116);
    expect(eventOutcome(tool()).tokens).toBeUndefined();
  });
});

/** Every event the timeline holds (content and branches, recursively). */
function timelineEvents(span: TimelineSpan, out: Event[] = []): Event[] {
  for (const item of [...span.content, ...span.branches]) {
    if (item.type === 'event') out.push(item.event);
    else timelineEvents(item, out);
  }
  return out;
}

describe('every view agrees with the outcome (generated runs)', () => {
  it('describers, span headers, timeline and swimlane', () => {
    let failures = 0;
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer({ min: 60, max: 600 }),
        fc.double({ min: 0, max: 0.5, noNaN: true }),
        fc.boolean(),
        (seed, events, errorRate, inProgress) => {
          const run = generateRun({ seed, events, errorRate, inProgress, pendingRate: 0.2 });
          const latest = EventStream.from(run).latest();
          const described = new Map(latest.map((e) => [e.uuid, describeEvent(e)]));

          // Describers: status, end and tokens are the outcome's.
          for (const e of latest) {
            const d = described.get(e.uuid)!;
            const o = eventOutcome(e);
            expect(d.status).toBe(o.status);
            expect(d.endTime).toBe(o.endTime);
            expect(d.tokens?.total ?? 0).toBe(eventTotalTokens(e));
            expect(d.startTime).toBe(eventTime(e));
          }

          // Span headers (transcript rows, span tree): errors and tokens of a
          // subtree are the sums of what its rows show.
          const tree = buildEventTree(latest);
          for (const span of tree.spans) {
            const s = spanSummary(tree, span.index);
            let errors = 0;
            let tokens = 0;
            for (let i = span.index + 1; i < tree.subtreeEnd[span.index]!; i++) {
              const d = described.get(tree.events[i]!.uuid)!;
              if (d.status === 'error') errors++;
              tokens += d.tokens?.total ?? 0;
            }
            expect(s.errors).toBe(errors);
            expect(s.tokens).toBe(tokens);
            if (span.end !== null) expect(s.status).toBe(errors > 0 ? 'error' : 'ok');
            else expect(s.status).toBe('running');
          }

          // Timeline: the root's tokens are the rows' tokens of the events it holds.
          const timeline = buildTimeline(latest);
          const held = timelineEvents(timeline.root);
          const rowTokens = held.reduce(
            (n, e) => n + (described.get(e.uuid)?.tokens?.total ?? 0),
            0,
          );
          expect(spanTotalTokens(timeline.root)).toBe(rowTokens);

          // Swimlane: the error markers are exactly the events rows show as failed.
          const layout = layoutSwimlane(timeline, {
            includeUtility: true,
            showBranches: true,
            markerKinds: ['error'],
            markerDepth: 'recursive',
          });
          // Recursive markers: every row holds its subtree's; branch rows hold the branches'.
          const marked = new Set(layout.rows.flatMap((r) => r.markers.map((m) => m.eventUuid)));
          const failed = new Set(
            held.filter((e) => described.get(e.uuid)!.status === 'error').map((e) => e.uuid),
          );
          expect([...marked].sort()).toEqual([...failed].sort());
          failures += failed.size;
        },
      ),
      { numRuns: 12 },
    );
    // The runs did exercise the failure rule (errorRate > 0 gives failures;
    // the generator makes no cancellations: the table above covers those).
    expect(failures).toBeGreaterThan(0);
  });
});
