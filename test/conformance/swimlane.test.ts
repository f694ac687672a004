// Conformance: the swimlane renders of timelines built from every inspect_ai /
// inspect_scout timeline fixture (../shared/fixtures/inspect_ai/timeline-events/,
// research/inspect_ai.md §3.9): the ASCII lines are `width − 2` long with one
// depth-1 row per expected agent name (plus init/scoring), the layout has the
// same agents, and the SVG is well-formed.
import { describe, expect, it } from 'vitest';
import { parseEvents } from '../../src/core/events/index.js';
import {
  layoutSwimlane,
  renderTimelineAscii,
  renderTimelineSvg,
} from '../../src/core/swimlane/index.js';
import { buildTimeline } from '../../src/core/timeline/index.js';
import { parseXml } from '../core/helpers/xml-check.js';
import { describeFixtures, listFixtures, readFixture } from './fixtures.js';

interface ExpectedAgent {
  name: string;
  utility?: boolean;
  children?: ExpectedAgent[];
  /** Some fixtures list child agents here instead of in `children`. */
  content_structure?: { type: 'event' | 'agent'; name?: string }[];
}
interface Fixture {
  events: unknown[];
  expected: { init: unknown; agent: ExpectedAgent | null; scoring: unknown };
}

const files = listFixtures('inspect_ai/timeline-events', '.json');

/** The agent names expected one level below the root (utility agents are hidden). */
function expectedTopRows(fixture: Fixture): string[] {
  const names = new Set<string>();
  if (fixture.expected.init) names.add('init');
  for (const child of fixture.expected.agent?.children ?? []) {
    if (!child.utility) names.add(child.name.toLowerCase());
  }
  for (const item of fixture.expected.agent?.content_structure ?? []) {
    if (item.type === 'agent' && item.name) names.add(item.name.toLowerCase());
  }
  if (fixture.expected.scoring) names.add('scoring');
  return [...names].sort();
}

describeFixtures('swimlane renders of the timeline fixtures', () => {
  it('finds the fixtures', () => {
    expect(files.length).toBeGreaterThan(0);
  });

  describe.each(files)('%s', (file) => {
    const fixture = JSON.parse(new TextDecoder().decode(readFixture(file))) as Fixture;
    const timeline = buildTimeline(parseEvents(fixture.events).events);

    it('renders ASCII lines width − 2 long, one row per expected agent', () => {
      for (const width of [60, 100, 120]) {
        const text = renderTimelineAscii(timeline, { width });
        if (timeline.root.content.length === 0) {
          expect(text).toBe('main');
          continue;
        }
        const lines = text.split('\n');
        expect(lines[0]!.startsWith('main ')).toBe(true);
        for (const line of lines) expect([...line].length).toBe(width - 2);
        const top = lines
          .map((line) => line.slice(0, line.indexOf('│')))
          .filter((label) => /^ {2}\S/.test(label) && !label.startsWith('  ↳'))
          .map((label) => label.trim());
        expect(top.sort()).toEqual(expectedTopRows(fixture));
      }
    });

    it('lays out the same agents, and draws a well-formed SVG', () => {
      const layout = layoutSwimlane(timeline);
      const names = new Set(
        layout.rows.filter((r) => r.depth === 1).map((r) => r.name.toLowerCase()),
      );
      expect([...names].sort()).toEqual(expectedTopRows(fixture));
      for (const row of layout.rows) {
        for (const bar of row.bars) {
          expect(bar.timeStart).toBeGreaterThanOrEqual(layout.timeStart);
          expect(bar.timeEnd).toBeLessThanOrEqual(layout.timeEnd);
        }
      }
      expect(parseXml(renderTimelineSvg(timeline)).name).toBe('svg');
    });
  });
});
