// Drilling into a span of the swimlane (issue 18): the path to a span, the
// drilled timeline and its breadcrumbs, and the layout of a drilled view.
import { describe, expect, it } from 'vitest';
import {
  canDrillInto,
  drillTimeline,
  findSpanPath,
  layoutSwimlane,
  spanStartTime,
} from '../../src/index.js';
import type { TimelineSpan } from '../../src/core/timeline/types.js';
import { model, span, timeline } from './helpers/hand-timeline.js';

function run() {
  const search = span('search', [model(12, 14, 50)], { id: 'search-1' });
  const explore = span('explore', [model(10, 11, 100), search, model(15, 20, 10)], {
    id: 'explore-1',
  });
  const retry = span('coder', [model(31, 33, 5)], { id: 'coder-retry' });
  const alt = span('branch', [retry], { id: 'alt', spanType: 'branch', branchedFrom: 'a1' });
  const coder = span('coder', [model(25, 40, 70)], { id: 'coder-1', branches: [alt] });
  return timeline([model(0, 2, 1), explore, coder]);
}

describe('findSpanPath', () => {
  it('gives the spans from the root down, through content and branches', () => {
    const t = run();
    expect(findSpanPath(t.root, 'search-1')?.map((s) => s.id)).toEqual([
      'main',
      'explore-1',
      'search-1',
    ]);
    expect(findSpanPath(t.root, 'coder-retry')?.map((s) => s.id)).toEqual([
      'main',
      'coder-1',
      'alt',
      'coder-retry',
    ]);
    expect(findSpanPath(t.root, 'main')?.map((s) => s.id)).toEqual(['main']);
    expect(findSpanPath(t.root, 'nowhere')).toBeNull();
  });

  it('walks a 5,000-deep run without overflowing', () => {
    let inner: TimelineSpan = span('leaf', [model(1, 2)], { id: 'deepest' });
    for (let i = 0; i < 5000; i++) inner = span('level', [inner], { id: `l${i}` });
    const path = findSpanPath(span('main', [inner], { id: 'main' }), 'deepest');
    expect(path).toHaveLength(5002);
    expect(path![5001]!.id).toBe('deepest');
  });
});

describe('canDrillInto', () => {
  it('is true for spans with child spans or branches only', () => {
    const t = run();
    const [explore, coder] = [findSpanPath(t.root, 'explore-1')!, findSpanPath(t.root, 'coder-1')!];
    expect(canDrillInto(explore.at(-1)!)).toBe(true);
    expect(canDrillInto(coder.at(-1)!)).toBe(true);
    expect(canDrillInto(findSpanPath(t.root, 'search-1')!.at(-1)!)).toBe(false);
  });
});

describe('drillTimeline', () => {
  it('roots the view at the span, with crumbs from the run root', () => {
    const t = run();
    const drill = drillTimeline(t, 'search-1');
    expect(drill.spanId).toBe('search-1');
    expect(drill.timeline.root.id).toBe('search-1');
    expect(drill.timeline.name).toBe(t.name);
    expect(drill.crumbs).toEqual([
      { spanId: 'main', label: 'main', depth: 0 },
      { spanId: 'explore-1', label: 'explore', depth: 1 },
      { spanId: 'search-1', label: 'search', depth: 2 },
    ]);
  });

  it('gives the whole run for null, the root or an unknown id', () => {
    const t = run();
    for (const id of [null, 'main', 'gone']) {
      const drill = drillTimeline(t, id);
      expect(drill.timeline).toBe(t);
      expect(drill.spanId).toBeNull();
      expect(drill.crumbs).toEqual([{ spanId: 'main', label: 'main', depth: 0 }]);
    }
  });

  it('lays out the drilled span as the root row, its children below, its own times', () => {
    const t = run();
    const layout = layoutSwimlane(drillTimeline(t, 'explore-1').timeline);
    expect(layout.rows.map((r) => [r.label, r.depth, r.kind])).toEqual([
      ['explore', 0, 'root'],
      ['search', 1, 'agent'],
    ]);
    const explore = findSpanPath(t.root, 'explore-1')!.at(-1)!;
    expect(layout.timeStart).toBe(spanStartTime(explore));
    expect(layout.rows[0]!.bars.map((b) => b.spanId)).toEqual(['explore-1']);
  });

  it('shows a drilled branch span with its content', () => {
    const layout = layoutSwimlane(drillTimeline(run(), 'alt').timeline);
    expect(layout.rows.map((r) => r.label)).toEqual(['branch', 'coder']);
  });
});
