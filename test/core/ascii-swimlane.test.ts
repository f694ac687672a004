// renderTimelineAscii: inspect_ai's Timeline.render, character for character
// (research/inspect_ai.md §3.6). The expected strings below are the research
// notes' output of the unmodified upstream renderer; the rest are rules.
import { describe, expect, it } from 'vitest';
import { renderTimelineAscii } from '../../src/core/swimlane/ascii.js';
import { at, model, point, researchExample, span, timeline } from './helpers/hand-timeline.js';
import type { TimelineItem } from '../../src/core/timeline/types.js';

/** The bar cells of row `i` (between the two `│`). */
function bar(text: string, i: number): string {
  const line = text.split('\n')[i]!;
  return line.slice(line.indexOf('│') + 1, line.lastIndexOf('│'));
}

describe('renderTimelineAscii', () => {
  it('renders the research example at width 100 exactly', () => {
    expect(renderTimelineAscii(researchExample(), { width: 100 })).toBe(
      [
        'main      │████████████████████████████████████████████████████████████████████████████████│  134k',
        '  init    │█                                                                               │     0',
        '  explore │        ③██████████████████                                                     │ 28.0k',
        '  plan    │                              ███████                                           │ 12.0k',
        '  coder   │                                        ████████┊███████████████   ████████     │ 66.5k',
        '  scoring │                                                                           █████│  2.5k',
        '  ↳ coder │                                               ████████████████████             │ 20.0k',
      ].join('\n'),
    );
  });

  it('renders the two-event root of the research notes at width 60', () => {
    const t = timeline([model(0, 10, 40_000), model(10, 20, 9_700)]);
    expect(renderTimelineAscii(t, { width: 60 })).toBe(
      'main      │████████████████████████████████████████│ 49.7k',
    );
  });

  it('makes every line width − 2 long, at the default width 120 too', () => {
    for (const width of [40, 80, 100, 120, 157]) {
      const text = renderTimelineAscii(researchExample(), width === 120 ? {} : { width });
      for (const line of text.split('\n')) expect([...line].length).toBe(width - 2);
    }
  });

  it('renders a root without content as the single word main', () => {
    expect(renderTimelineAscii(timeline([]))).toBe('main');
    expect(renderTimelineAscii(timeline([], [span('branch', [model(0, 1, 5)])]))).toBe('main');
  });

  it('fills the whole bar when everything happens at one instant', () => {
    const t = timeline([point('info', 5), span('a', [point('info', 5)])]);
    const text = renderTimelineAscii(t, { width: 30 });
    expect(bar(text, 0)).toBe('█'.repeat(30 - 10 - 10));
    expect(bar(text, 1)).toBe('█'.repeat(30 - 10 - 10));
  });

  it('keeps a minimum bar width of 4 for very long labels', () => {
    const t = timeline([span('a-very-long-agent-name-indeed', [model(0, 1, 1)])]);
    const text = renderTimelineAscii(t, { width: 20 });
    expect(bar(text, 0)).toHaveLength(4);
  });

  it('hides utility spans but counts their tokens in the parent', () => {
    const t = timeline([
      span('a', [model(0, 10, 1_000)]),
      span('u', [model(2, 3, 500)], { utility: true }),
    ]);
    const text = renderTimelineAscii(t, { width: 60 });
    expect(text.split('\n').map((l) => l.split('│')[0]!.trim())).toEqual(['main', 'a']);
    expect(text.split('\n')[0]!.endsWith('  1.5k')).toBe(true);
  });

  it('orders groups by earliest start and uses the first-seen casing', () => {
    const t = timeline([
      span('Late', [model(50, 60, 1)]),
      span('early', [model(0, 10, 1)]),
      span('late', [model(70, 80, 1)]),
    ]);
    const labels = renderTimelineAscii(t, { width: 60 })
      .split('\n')
      .map((l) => l.split('│')[0]!.trim());
    expect(labels).toEqual(['main', 'early', 'Late']);
  });

  it('draws sequential same-name spans as separate segments on one row', () => {
    const t = timeline([span('a', [model(0, 10, 1)]), span('a', [model(30, 40, 1)])]);
    expect(bar(renderTimelineAscii(t, { width: 60 }), 1)).toBe(
      '██████████' + ' '.repeat(20) + '██████████',
    );
  });

  it('clusters spans that overlap within 100 ms, and not beyond', () => {
    // b starts 99.999 ms after a ends: still parallel; c starts 100 ms after b ends: not.
    const t = timeline([
      span('a', [model(0, 10, 1)]),
      span('a', [model(10.099999, 20, 1)]),
      span('a', [model(20.1, 40, 1)]),
    ]);
    const cells = bar(renderTimelineAscii(t, { width: 60 }), 1);
    expect(cells[0]).toBe('②');
    expect([...cells].filter((c) => c === '②' || c === '①')).toHaveLength(1);
  });

  it('uses the last digit as the count glyph from 10 parallel spans', () => {
    const spans = Array.from({ length: 12 }, (_, i) => span('w', [model(i * 0.01, 10, 1)]));
    const cells = bar(renderTimelineAscii(timeline(spans), { width: 60 }), 1);
    expect(cells[0]).toBe('2');
    expect(cells.slice(1)).toBe('█'.repeat(39));
  });

  it('drops markers that fall on empty cells', () => {
    // View 0–100 s over 40 cells. The span ends with its compaction at 11 s:
    // 4.4 cells, so its bar ends at int(4.4 + 0.5) = 4 (cells 0–3) while the
    // marker lands on int(4.4) = cell 4, which is empty: inspect drops it.
    const t = timeline([model(0, 100, 1), span('a', [model(0, 10, 1), point('compaction', 11)])]);
    expect(bar(renderTimelineAscii(t, { width: 60 }), 1)).toBe('████' + ' '.repeat(36));
    // At 13.75 s (5.5 cells) the bar ends at int(6.0) = 6, covering the marker's cell 5.
    const shown = timeline([
      model(0, 100, 1),
      span('a', [model(0, 10, 1), point('compaction', 13.75)]),
    ]);
    expect(bar(renderTimelineAscii(shown, { width: 60 }), 1)).toBe('█████┊' + ' '.repeat(34));
  });

  it('lets the first marker on a cell win', () => {
    const s1 = span('x', [model(0, 10, 1), point('compaction', 0)]);
    const s2 = span('x', [model(0, 10, 1)]);
    const cells = bar(renderTimelineAscii(timeline([s1, s2]), { width: 60 }), 1);
    expect(cells[0]).toBe('┊'); // the compaction is collected before the count glyph
  });

  it('labels a branch by its single child span, else "branch N"', () => {
    const one = span('branch', [span('fixer', [model(5, 10, 1)])], { spanType: 'branch' });
    const two = span('branch', [span('p', [model(5, 6, 1)]), span('q', [model(6, 8, 1)])], {
      spanType: 'branch',
    });
    const t = timeline([model(0, 20, 1)], [one, two]);
    const labels = renderTimelineAscii(t, { width: 60 })
      .split('\n')
      .map((l) => l.split('│')[0]!.trimEnd());
    // A branch's several children sit at the branch row's own depth (Python's quirk).
    expect(labels).toEqual(['main', '  ↳ fixer', '  ↳ branch 2', '  p', '  q']);
  });

  it('emits nested branches after the branch rows, one level deeper', () => {
    const nested = span('branch', [model(6, 7, 1)], { spanType: 'branch' });
    const outer = span('branch', [model(5, 9, 1)], { spanType: 'branch', branches: [nested] });
    const labels = renderTimelineAscii(timeline([model(0, 10, 1)], [outer]), { width: 60 })
      .split('\n')
      .map((l) => l.split('│')[0]!.trimEnd());
    expect(labels).toEqual(['main', '  ↳ branch 1', '    ↳ branch 1']);
  });

  it('recurses into singleton clusters only', () => {
    const t = timeline([
      span('a', [model(0, 10, 1), span('child1', [model(1, 2, 1)])]),
      span('a', [model(5, 12, 1), span('hidden', [model(6, 7, 1)])]),
      span('a', [model(30, 40, 1), span('child3', [model(31, 32, 1)])]),
    ]);
    const labels = renderTimelineAscii(t, { width: 60 })
      .split('\n')
      .map((l) => l.split('│')[0]!.trimEnd());
    expect(labels).toEqual(['main', '  a', '    child3']);
  });

  it('pads labels by code points (astral names count once, as Python len())', () => {
    const t = timeline([span('🦀crab', [model(0, 1, 1)])]);
    const line = renderTimelineAscii(t, { width: 60 }).split('\n')[1]!;
    expect([...line].length).toBe(58);
  });

  it('compares times at microsecond precision', () => {
    // 12.0000004 s rounds to 12 s in Python's datetime: the same cell as 12 s.
    const items: TimelineItem[] = [model(0, 120, 0), span('a', [model(12.0000004, 40, 0)])];
    expect(bar(renderTimelineAscii(timeline(items), { width: 100 }), 1).indexOf('█')).toBe(8);
    expect(at(0)).toMatch(/Z$/);
  });
});

describe('renderTimelineAscii options', () => {
  it('rejects a width that is not an integer, naming the option', () => {
    expect(() => renderTimelineAscii(researchExample(), { width: 99.5 })).toThrow(
      expect.objectContaining({ code: 'invalid_option', path: '$.width' }),
    );
    expect(() => renderTimelineAscii(researchExample(), { width: Number.NaN })).toThrow(/width/);
  });
});
