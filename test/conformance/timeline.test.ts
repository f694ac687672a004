// Conformance: every timeline fixture of inspect_ai / inspect_scout
// (../shared/fixtures/inspect_ai/timeline-events/, research/inspect_ai.md §3.9),
// compared the way ts-mono's fixtureTimeline.test.ts compares: root id, root
// name `main`, direct event uuids, child spans in order, total tokens (init and
// scoring added to the root's), utility, agent_result, branches with
// branched_from and their event uuids, content structure, init/scorers spans.
import { describe, expect, it } from 'vitest';
import { parseEvents } from '../../src/core/events/index.js';
import type { Event } from '../../src/core/events/index.js';
import {
  buildTimeline,
  spanTotalTokens,
  timelineDump,
  timelineLoad,
} from '../../src/core/timeline/index.js';
import type { TimelineItem, TimelineSpan } from '../../src/core/timeline/index.js';
import { describeFixtures, listFixtures, readFixture } from './fixtures.js';

interface ExpectedBranch {
  branched_from: string;
  event_uuids?: string[];
  branches?: ExpectedBranch[];
  children?: ExpectedAgent[];
}
interface ExpectedContentItem {
  type: 'event' | 'agent';
  uuid?: string;
  id?: string;
  name?: string;
  source?: unknown;
  nested_uuids?: string[];
  total_tokens?: number;
}
interface ExpectedAgent {
  id: string;
  name: string;
  source?: unknown;
  event_uuids?: string[];
  nested_uuids?: string[];
  branches?: ExpectedBranch[];
  children?: ExpectedAgent[];
  content_structure?: ExpectedContentItem[];
  total_tokens?: number;
  utility?: boolean;
  agent_result?: string;
}
interface ExpectedSection {
  event_uuids: string[];
  total_tokens?: number;
}
interface WireEvent {
  uuid?: string;
  events?: WireEvent[];
}
interface Fixture {
  description: string;
  events: WireEvent[];
  expected: {
    init: ExpectedSection | null;
    agent: ExpectedAgent | null;
    scoring: ExpectedSection | null;
  };
}

const folder = 'inspect_ai/timeline-events';
const files = listFixtures(folder, '.json');

/** Checks one fixture; `wire` holds the uuids the fixture itself gives (derived ones are not compared, as upstream filters null uuids). */
function check(fixture: Fixture): void {
  const wire = new Set<string>();
  const collect = (list: WireEvent[]) => {
    for (const e of list) {
      if (typeof e.uuid === 'string') wire.add(e.uuid);
      if (Array.isArray(e.events)) collect(e.events);
    }
  };
  collect(fixture.events);
  const { events } = parseEvents(fixture.events);
  const timeline = buildTimeline(events);
  const root = timeline.root;
  const { expected } = fixture;

  const directUuids = (span: TimelineSpan) =>
    span.content.flatMap((c) =>
      c.type === 'event' && wire.has(c.event.uuid) ? [c.event.uuid] : [],
    );
  const nestedUuids = (span: TimelineSpan): string[] => {
    const out: string[] = [];
    const walk = (items: readonly TimelineItem[]) => {
      for (const c of items) {
        if (c.type === 'event') {
          if (wire.has(c.event.uuid)) out.push(c.event.uuid);
        } else walk(c.content);
      }
    };
    walk(span.content);
    return out;
  };
  const childSpans = (span: TimelineSpan) =>
    span.content.filter((c): c is TimelineSpan => c.type === 'span');
  const isPhase = (c: TimelineItem) =>
    c.type === 'span' && (c.spanType === 'init' || c.spanType === 'scorers');

  const checkContentStructure = (span: TimelineSpan, structure: ExpectedContentItem[]) => {
    const items = span.content.filter((c) => !isPhase(c));
    expect(items.length).toBe(structure.length);
    structure.forEach((exp, i) => {
      const act = items[i]!;
      expect(act.type).toBe(exp.type === 'agent' ? 'span' : 'event');
      if (exp.type === 'event' && exp.uuid && act.type === 'event')
        expect(act.event.uuid).toBe(exp.uuid);
      if (exp.type === 'agent' && act.type === 'span') {
        if (exp.id) expect(act.id).toBe(exp.id);
        if (exp.name) expect(act.name).toBe(exp.name);
        if (exp.source) expect(act.spanType).toBe('agent');
        if (exp.nested_uuids) expect(nestedUuids(act)).toEqual(exp.nested_uuids);
        if (exp.total_tokens !== undefined) expect(spanTotalTokens(act)).toBe(exp.total_tokens);
      }
    });
  };

  const checkBranch = (act: TimelineSpan, exp: ExpectedBranch) => {
    expect(act.branchedFrom).toBe(exp.branched_from);
    if (exp.event_uuids) expect(directUuids(act)).toEqual(exp.event_uuids);
    if (exp.children) {
      const kids = childSpans(act);
      expect(kids.length).toBe(exp.children.length);
      exp.children.forEach((c, i) => checkSpan(kids[i]!, c));
    }
    if (exp.branches) {
      expect(act.branches.length).toBe(exp.branches.length);
      exp.branches.forEach((b, i) => checkBranch(act.branches[i]!, b));
    }
  };

  const checkSpan = (act: TimelineSpan, exp: ExpectedAgent) => {
    expect(act.id).toBe(exp.id);
    expect(act.name).toBe(exp.name);
    if (exp.source) expect(act.spanType).toBe('agent');
    if (exp.event_uuids) expect(directUuids(act)).toEqual(exp.event_uuids);
    if (exp.nested_uuids) expect(nestedUuids(act)).toEqual(exp.nested_uuids);
    if (exp.total_tokens !== undefined) expect(spanTotalTokens(act)).toBe(exp.total_tokens);
    if (exp.utility !== undefined) expect(act.utility).toBe(exp.utility);
    if (exp.agent_result !== undefined) expect(act.agentResult).toBe(exp.agent_result);
    if (exp.branches) {
      expect(act.branches.length).toBe(exp.branches.length);
      exp.branches.forEach((b, i) => checkBranch(act.branches[i]!, b));
    }
    if (exp.children) {
      const kids = childSpans(act);
      expect(kids.map((k) => k.id)).toEqual(exp.children.map((c) => c.id));
      exp.children.forEach((c, i) => checkSpan(kids[i]!, c));
    }
    if (exp.content_structure) checkContentStructure(act, exp.content_structure);
  };

  // init: the root's first item, a span named "init".
  if (expected.init !== null && expected.init.event_uuids.length > 0) {
    const first = root.content[0];
    expect(first?.type).toBe('span');
    if (first?.type === 'span') {
      expect(first.spanType).toBe('init');
      expect(first.name).toBe('init');
      expect(directUuids(first)).toEqual(expected.init.event_uuids);
      expect(timeline.init).toBe(first);
    }
  }

  if (expected.agent !== null) {
    const agent = expected.agent;
    expect(root.id).toBe(agent.id);
    expect(root.name).toBe('main');
    if (agent.event_uuids) expect(directUuids(root)).toEqual(agent.event_uuids);
    if (agent.total_tokens !== undefined) {
      const total =
        agent.total_tokens +
        (expected.init?.total_tokens ?? 0) +
        (expected.scoring?.total_tokens ?? 0);
      expect(spanTotalTokens(root)).toBe(total);
    }
    if (agent.utility !== undefined) expect(root.utility).toBe(agent.utility);
    if (agent.branches) {
      expect(root.branches.length).toBe(agent.branches.length);
      agent.branches.forEach((b, i) => checkBranch(root.branches[i]!, b));
    }
    if (agent.children) {
      const kids = root.content.filter((c): c is TimelineSpan => c.type === 'span' && !isPhase(c));
      expect(kids.map((k) => k.id)).toEqual(agent.children.map((c) => c.id));
      agent.children.forEach((c, i) => checkSpan(kids[i]!, c));
    }
    if (agent.content_structure) checkContentStructure(root, agent.content_structure);
  }

  // scorers: exactly one span of that type when expected, none otherwise.
  const scorers = root.content.filter(
    (c): c is TimelineSpan => c.type === 'span' && c.spanType === 'scorers',
  );
  if (expected.scoring === null) expect(scorers).toHaveLength(0);
  else {
    expect(scorers).toHaveLength(1);
    expect(directUuids(scorers[0]!)).toEqual(expected.scoring.event_uuids);
  }

  // Round trip through inspect's JSON shape (tool-agent spans hold legacy
  // nested events, so the load list is every event the timeline holds).
  const held: Event[] = [];
  const gather = (span: TimelineSpan) => {
    for (const c of span.content) {
      if (c.type === 'event') held.push(c.event);
      else gather(c);
    }
    span.branches.forEach(gather);
  };
  gather(root);
  const dumped = JSON.parse(JSON.stringify(timelineDump(timeline))) as unknown;
  expect(timelineDump(timelineLoad(dumped, held))).toEqual(dumped);
}

describeFixtures('timeline conformance (inspect_ai / inspect_scout fixtures)', () => {
  it('finds the fixtures', () => {
    expect(files.length).toBeGreaterThan(0);
  });
  describe.each(files)('%s', (file) => {
    it('matches the expected timeline', () => {
      const fixture = JSON.parse(new TextDecoder().decode(readFixture(file))) as Fixture;
      check(fixture);
    });
  });
});
