// renderTimelineSvg: a standalone, well-formed, escaped SVG of the layout.
import { describe, expect, it } from 'vitest';
import { renderTimelineSvg, SWIMLANE_SVG_THEMES } from '../../src/core/swimlane/svg.js';
import { allElements, parseXml } from './helpers/xml-check.js';
import { model, point, researchExample, span, timeline, tool } from './helpers/hand-timeline.js';

const HOSTILE = `<script>alert("x")</script> & 'quotes' "too" ]]> \u0000\u0007 \uD800`;

describe('the XML check used below', () => {
  it('rejects what is not well-formed', () => {
    expect(() => parseXml('<a><b></a>')).toThrow();
    expect(() => parseXml('<a>x & y</a>')).toThrow();
    expect(() => parseXml('<a x="1" x="2"/>')).toThrow();
    expect(() => parseXml('<a><b/>')).toThrow();
    expect(() => parseXml('<a title="<b>"/>')).toThrow();
    expect(parseXml('<a x="&amp;"><b/>t &lt; u</a>').children).toHaveLength(1);
  });
});

describe('renderTimelineSvg', () => {
  it('is a well-formed standalone SVG with xmlns and viewBox', () => {
    const svg = renderTimelineSvg(researchExample(), { width: 640 });
    const root = parseXml(svg);
    expect(root.name).toBe('svg');
    expect(root.attributes.xmlns).toBe('http://www.w3.org/2000/svg');
    expect(root.attributes.viewBox).toMatch(/^0 0 640 \d+(\.\d+)?$/);
    expect(root.attributes.width).toBe('640');
    expect(root.children[0]!.name).toBe('title');
  });

  it('draws one row group per layout row, with a tooltip on every bar', () => {
    const root = parseXml(renderTimelineSvg(researchExample()));
    const rows = allElements(root).filter((e) => e.attributes.class === 'row');
    expect(rows.map((r) => r.attributes['data-key'])).toContain('main/explore-3');
    const bars = allElements(root).filter((e) => e.name === 'rect' && e.attributes['data-span-id']);
    expect(bars.length).toBeGreaterThanOrEqual(rows.length);
    for (const bar of bars) expect(bar.children.map((c) => c.name)).toEqual(['title']);
    expect(bars.every((b) => Number(b.attributes.width) >= 2)).toBe(true);
  });

  it('draws axis ticks with relative labels', () => {
    const root = parseXml(renderTimelineSvg(researchExample(), { width: 800, ticks: 4 }));
    const axis = allElements(root).find((e) => e.attributes.class === 'axis')!;
    expect(axis.children.filter((e) => e.name === 'text').map((e) => e.text)).toEqual([
      '0s',
      '30s',
      '1m',
      '1m 30s',
      '2m',
    ]);
  });

  it('escapes hostile agent names, error messages and timeline names', () => {
    const t = {
      ...timeline([span(HOSTILE, [model(0, 10, 5), tool(2, 3, HOSTILE)])]),
      name: HOSTILE,
    };
    const svg = renderTimelineSvg(t);
    const root = parseXml(svg); // well-formed despite NUL, BEL and a lone surrogate
    expect(svg).not.toContain('<script');
    expect([...svg].some((c) => c.charCodeAt(0) < 9)).toBe(false); // NUL, BEL dropped
    expect(svg).toContain(
      '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39;',
    );
    expect(allElements(root).some((e) => e.name === 'script')).toBe(false);
  });

  it('draws error, compaction and branch markers with titles', () => {
    const b = span('branch', [model(6, 8)], { spanType: 'branch', branchedFrom: 'a1' });
    const t = timeline(
      [
        point('anchor', 5, { anchor_id: 'a1' }),
        model(0, 10),
        tool(2, 3, 'boom'),
        point('compaction', 4),
      ],
      [b],
    );
    const root = parseXml(renderTimelineSvg(t));
    const titles = allElements(root)
      .filter((e) => ['circle', 'line', 'path'].includes(e.name) && e.children.length > 0)
      .map((e) => `${e.name}:${e.children[0]!.text}`);
    expect(titles).toEqual([
      'circle:Error (bash): boom',
      'line:Context compaction: ? → ? tokens',
      'path:Branch branch (0 tokens)',
    ]);
  });

  it('shades compressed idle gaps', () => {
    const t = timeline([model(0, 10), model(1000, 1010)]);
    const svg = renderTimelineSvg(t);
    expect(svg).toContain('<title>Idle 16m 30s (compressed)</title>');
    parseXml(svg);
  });

  it('uses the light theme by default and the dark one on request', () => {
    const light = renderTimelineSvg(researchExample());
    const dark = renderTimelineSvg(researchExample(), { theme: 'dark' });
    expect(light).toContain(`fill="${SWIMLANE_SVG_THEMES.light.background}"`);
    expect(dark).toContain(`fill="${SWIMLANE_SVG_THEMES.dark.background}"`);
    expect(dark).toContain(SWIMLANE_SVG_THEMES.dark.bar);
    const custom = renderTimelineSvg(researchExample(), {
      theme: { ...SWIMLANE_SVG_THEMES.light, bar: '#123456' },
    });
    expect(custom).toContain('#123456');
  });

  it('rejects a non-positive width or height', () => {
    expect(() => renderTimelineSvg(researchExample(), { width: 0 })).toThrow(
      expect.objectContaining({ code: 'invalid_option', path: '$.width' }),
    );
    expect(() => renderTimelineSvg(researchExample(), { height: Number.NaN })).toThrow(/height/);
  });

  it('fits the rows into a given height', () => {
    const root = parseXml(renderTimelineSvg(researchExample(), { width: 500, height: 150 }));
    expect(root.attributes.viewBox).toBe('0 0 500 150');
  });

  it('truncates long labels with an ellipsis but keeps the full name in a title', () => {
    const name = 'an-agent-with-a-remarkably-long-name-that-will-not-fit';
    const svg = renderTimelineSvg(timeline([span(name, [model(0, 1)])]), { width: 300 });
    expect(svg).toContain('…');
    expect(svg).toContain(`<title>${name}</title>`);
  });

  it('renders degenerate timelines: empty, zero duration, 10+ parallel', () => {
    parseXml(renderTimelineSvg(timeline([])));
    parseXml(renderTimelineSvg(timeline([point('info', 1), span('a', [point('info', 1)])])));
    const many = Array.from({ length: 12 }, (_, i) => span('w', [model(i * 0.01, 10)]));
    const root = parseXml(renderTimelineSvg(timeline(many)));
    expect(allElements(root).filter((e) => e.attributes.class === 'row')).toHaveLength(13);
  });
});
