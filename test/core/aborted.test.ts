// Aborted turns (issue 19: rolled back, or stopped before they finished):
// events marked `metadata.aborted` stay in the log, every view shows them
// marked, and every total skips them — one rule (events/outcome.ts) read by
// the span headers, the span tree and the timeline.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  buildEventTree,
  buildTimeline,
  describeEvent,
  eventCountedTokens,
  eventOutcome,
  eventTotalTokens,
  importDefect,
  isAbortedEvent,
  spanSummary,
  spanTotalTokens,
  type Event,
} from '../../src/index.js';

const T0 = Date.parse('2026-06-10T18:24:10Z');
const ts = (s: number) => new Date(T0 + s * 1000).toISOString();

function model(uuid: string, span: string, tokens: number, aborted: boolean, at: number): Event {
  return {
    event: 'model',
    uuid,
    span_id: span,
    timestamp: ts(at),
    completed: ts(at + 1),
    model: 'm',
    input: [],
    tools: [],
    tool_choice: 'auto',
    config: {},
    output: {
      model: 'm',
      choices: [],
      usage: { input_tokens: tokens, output_tokens: 0, total_tokens: tokens },
    },
    ...(aborted ? { metadata: { aborted: true } } : {}),
  } as unknown as Event;
}

const run: Event[] = [
  { event: 'span_begin', uuid: 'b', timestamp: ts(0), id: 'agent', name: 'agent', type: 'agent' },
  model('m1', 'agent', 100, false, 1),
  model('m2', 'agent', 40, true, 3),
  {
    event: 'error',
    uuid: 'x',
    span_id: 'agent',
    timestamp: ts(4),
    error: { message: 'boom', traceback: '', traceback_ansi: '' },
    metadata: { aborted: true },
  } as unknown as Event,
  { event: 'span_end', uuid: 'e', timestamp: ts(10), id: 'agent' } as Event,
];

describe('aborted events', () => {
  it('are recognised only by metadata.aborted === true', () => {
    expect(isAbortedEvent(run[2]!)).toBe(true);
    expect(isAbortedEvent(run[1]!)).toBe(false);
    const truthy = { ...run[1]!, metadata: { aborted: 'yes' } } as Event;
    expect(isAbortedEvent(truthy)).toBe(false);
    const nullMeta = { ...run[1]!, metadata: null } as unknown as Event;
    expect(isAbortedEvent(nullMeta)).toBe(false);
  });

  it('keep their own facts but add nothing to totals', () => {
    expect(eventTotalTokens(run[2]!)).toBe(40);
    expect(eventCountedTokens(run[2]!)).toBe(0);
    expect(eventCountedTokens(run[1]!)).toBe(100);
    expect(eventOutcome(run[2]!).aborted).toBe(true);
    expect(eventOutcome(run[1]!).aborted).toBeUndefined();
    expect(describeEvent(run[2]!).aborted).toBe(true);
    expect(describeEvent(run[2]!).tokens?.total).toBe(40);
  });

  it('are skipped by span headers and the timeline alike', () => {
    const tree = buildEventTree(run);
    expect(tree.length).toBe(4); // every event kept (the end folds into its header)
    const summary = spanSummary(tree, tree.spans[0]!.index);
    expect(summary.tokens).toBe(100);
    // The aborted error does not fail the span.
    expect(summary.errors).toBe(0);
    expect(summary.status).toBe('ok');
    const timeline = buildTimeline(run);
    expect(spanTotalTokens(timeline.root)).toBe(100);
  });

  it('come from defect turn_aborted: the whole turn marked, nothing dropped', () => {
    const result = importDefect(readFileSync('test/fixtures/defect/events.jsonl', 'utf8'));
    const aborted = result.events.filter(isAbortedEvent);
    // The turn's span and what happened inside it.
    expect(new Set(aborted.map((e) => e.event))).toEqual(
      new Set(['span_begin', 'span_end', 'model', 'tool', 'message', 'approval']),
    );
    const tree = buildEventTree(result.events);
    const shown = new Set(tree.events.map((e) => e.uuid));
    for (const e of aborted) if (e.event !== 'span_end') expect(shown.has(e.uuid)).toBe(true);
    const turn = tree.spans.find((s) => isAbortedEvent(s.begin))!;
    expect(turn).toBeDefined();
    // Its events count as events inside, not as failures.
    expect(spanSummary(tree, turn.index).events).toBeGreaterThan(0);
    expect(spanSummary(tree, turn.index).errors).toBe(0);
  });
});
