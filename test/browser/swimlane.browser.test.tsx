// <Swimlane> and <AsciiSwimlane> in Chromium (issue 18): bare mount with only
// src/styles.css, zoom, pan, brush, fit, selection, keyboard, resize and the
// compact tile, a bounded DOM at 100k spans, server render + hydration.
import { act, cleanup, render } from '@testing-library/react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { userEvent } from 'vitest/browser';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  buildTimeline,
  createSelectionStore,
  generateRun,
  layoutSwimlane,
  type Timeline,
} from '../../src/index.js';
import { AsciiSwimlane, Swimlane, type SwimlaneRange } from '../../src/react.js';
import { fanOutEvents, fanOutTimeline } from '../../stories/swimlane-fixtures.js';
import '../../src/styles.css';

afterEach(() => cleanup());

const small = (): Timeline => fanOutTimeline({ agents: 24, parallelism: 3, errorEvery: 5 });

function mount(timeline: Timeline, box = { width: 900, height: 400 }, extra = {}) {
  const ranges: (SwimlaneRange | null)[] = [];
  const selection = createSelectionStore();
  const utils = render(
    <div style={{ width: box.width, height: box.height }} data-testid="box">
      <Swimlane
        timeline={timeline}
        selection={selection}
        onRangeChange={(r) => ranges.push(r)}
        {...extra}
      />
    </div>,
  );
  const root = utils.container.querySelector<HTMLElement>('.skein-swimlane')!;
  const body = root.querySelector<HTMLElement>('.skein-swimlane__body')!;
  const axis = root.querySelector<HTMLElement>('.skein-swimlane__axis')!;
  return { ...utils, root, body, axis, ranges, selection };
}

const bars = (el: ParentNode) => [
  ...el.querySelectorAll<SVGRectElement>('rect.skein-swimlane__bar'),
];

function wheel(el: Element, init: WheelEventInit): WheelEvent {
  const event = new WheelEvent('wheel', { bubbles: true, cancelable: true, ...init });
  act(() => {
    el.dispatchEvent(event);
  });
  return event;
}

function pointer(el: Element, type: string, clientX: number, clientY: number) {
  act(() => {
    el.dispatchEvent(
      new PointerEvent(type, {
        bubbles: true,
        cancelable: true,
        clientX,
        clientY,
        pointerId: 1,
        button: 0,
        buttons: type === 'pointerup' ? 0 : 1,
      }),
    );
  });
}

/** The bar area's left edge and the middle of the rows, in client px. */
function geometry(root: HTMLElement) {
  const lane = root.querySelector('.skein-swimlane__lane')!.getBoundingClientRect();
  return { left: lane.left, width: lane.width, y: lane.top + lane.height / 2 };
}

describe('<Swimlane> in Chromium', () => {
  it('mounts bare (only styles.css): rows, axis ticks, themed bars, labels', async () => {
    const { root } = mount(small());
    await expect.poll(() => bars(root).length, { timeout: 20_000 }).toBeGreaterThan(10);
    expect(root.querySelectorAll('.skein-swimlane__row').length).toBeGreaterThan(3);
    expect(root.querySelectorAll('.skein-swimlane__tick').length).toBeGreaterThan(2);
    expect(root.querySelector('.skein-swimlane__label')!.textContent).toBe('main');
    // The bar colour comes from the stylesheet's variables, not the SVG default (black).
    expect(getComputedStyle(bars(root)[1]!).fill).not.toBe('rgb(0, 0, 0)');
    expect(root.querySelector('.skein-swimlane__minimap')).not.toBeNull();
    expect(root.hasAttribute('data-compact')).toBe(false);
  });

  it('draws the minimap density after the first paint, once, and keeps it while zooming', async () => {
    const { root } = mount(small());
    // Not in the first render (as on the server): it follows the paint.
    expect(root.querySelector('.skein-swimlane__density')).toBeNull();
    await expect.poll(() => root.querySelector('.skein-swimlane__density')).not.toBeNull();
    const path = root.querySelector('.skein-swimlane__density')!.getAttribute('d');
    const lane = root.querySelector('.skein-swimlane__lane')!;
    const rect = lane.getBoundingClientRect();
    wheel(lane, { deltaY: -240, clientX: rect.left + rect.width / 2, clientY: rect.top + 5 });
    expect(root.hasAttribute('data-fitted')).toBe(false);
    // The overview is of the whole run: zooming does not change it.
    expect(root.querySelector('.skein-swimlane__density')!.getAttribute('d')).toBe(path);
  });

  it('zooms around the pointer with the wheel, pans with Shift+wheel, fits on double-click', async () => {
    const { root, ranges } = mount(small());
    await expect.poll(() => bars(root).length).toBeGreaterThan(10);
    const g = geometry(root);
    const atX = g.left + g.width * 0.3;
    const event = wheel(root.querySelector('.skein-swimlane__lane')!, {
      deltaY: -300,
      clientX: atX,
      clientY: g.y,
    });
    expect(event.defaultPrevented).toBe(true);
    await expect.poll(() => ranges.length).toBe(1);
    const [s0, e0] = ranges[0]!;
    const layout = layoutSwimlane(small(), { showBranches: true });
    const whole = layout.timeEnd - layout.timeStart;
    expect(e0 - s0).toBeLessThan(whole * 0.8);
    // The time under the pointer stays under it (no idle gaps in this run).
    const before = layout.timeStart + 0.3 * whole;
    expect(Math.abs(s0 + 0.3 * (e0 - s0) - before)).toBeLessThan(whole * 0.002);

    wheel(root.querySelector('.skein-swimlane__lane')!, {
      deltaY: 120,
      shiftKey: true,
      clientX: atX,
      clientY: g.y,
    });
    await expect.poll(() => ranges.length).toBe(2);
    const [s1, e1] = ranges[1]!;
    expect(s1).toBeGreaterThan(s0);
    expect(e1 - s1).toBeCloseTo(e0 - s0, 0);

    act(() => {
      root.dispatchEvent(new MouseEvent('dblclick', { bubbles: true }));
    });
    await expect.poll(() => ranges.at(-1)).toBeNull();
    expect(root.hasAttribute('data-fitted')).toBe(true);
  });

  it('pans by dragging the bars and zooms to a range brushed on the axis', async () => {
    const { root, body, axis, ranges } = mount(small());
    await expect.poll(() => bars(root).length).toBeGreaterThan(10);
    const g = geometry(root);
    const ay = axis.getBoundingClientRect().top + 8;
    // Brush 20%–40% of the axis.
    pointer(axis, 'pointerdown', g.left + g.width * 0.2, ay);
    pointer(axis, 'pointermove', g.left + g.width * 0.3, ay);
    expect(root.querySelector('.skein-swimlane__brush')).not.toBeNull();
    pointer(axis, 'pointermove', g.left + g.width * 0.4, ay);
    pointer(axis, 'pointerup', g.left + g.width * 0.4, ay);
    await expect.poll(() => ranges.length).toBe(1);
    const layout = layoutSwimlane(small(), { showBranches: true });
    const whole = layout.timeEnd - layout.timeStart;
    const [s0, e0] = ranges[0]!;
    expect((s0 - layout.timeStart) / whole).toBeCloseTo(0.2, 2);
    expect((e0 - layout.timeStart) / whole).toBeCloseTo(0.4, 2);

    // Drag the bars left by 100 px: the view moves later in time.
    pointer(body, 'pointerdown', g.left + 300, g.y);
    pointer(body, 'pointermove', g.left + 250, g.y);
    pointer(body, 'pointermove', g.left + 200, g.y);
    pointer(body, 'pointerup', g.left + 200, g.y);
    await expect.poll(() => ranges.length).toBeGreaterThanOrEqual(2);
    const [s1, e1] = ranges.at(-1)!;
    expect(s1).toBeGreaterThan(s0);
    expect(e1 - s1).toBeCloseTo(e0 - s0, 0);
  });

  it('selects a bar on click through the shared store', async () => {
    const { root, selection } = mount(small());
    await expect.poll(() => bars(root).length).toBeGreaterThan(10);
    const target = bars(root).find((b) => b.getAttribute('data-kind') === 'agent')!;
    const id = target.getAttribute('data-span-id')!;
    await userEvent.click(target);
    await expect.poll(() => selection.getSnapshot().selected).toBe(id);
    await expect
      .poll(() => root.querySelector(`rect[data-span-id="${id}"]`)!.hasAttribute('data-selected'))
      .toBe(true);
    // Selected elsewhere (a transcript, a span tree): highlighted here.
    const other = bars(root).filter((b) => b.getAttribute('data-kind') === 'agent')[3]!;
    act(() => selection.select(other.getAttribute('data-span-id')));
    await expect.poll(() => other.hasAttribute('data-selected')).toBe(true);
  });

  it('works from the keyboard: +/- zoom, arrows pan, 0 fits, Tab walks bars, Enter selects', async () => {
    const { root, ranges, selection } = mount(small());
    await expect.poll(() => bars(root).length).toBeGreaterThan(10);
    root.focus();
    await userEvent.keyboard('+');
    await expect.poll(() => ranges.length).toBe(1);
    const [s0, e0] = ranges[0]!;
    await userEvent.keyboard('{ArrowRight}');
    await expect.poll(() => ranges.length).toBe(2);
    expect(ranges[1]![0]).toBeGreaterThan(s0);
    await userEvent.keyboard('-');
    await expect.poll(() => ranges.length).toBe(3);
    expect(ranges[2] === null || ranges[2]![1] - ranges[2]![0] > e0 - s0).toBe(true);
    await userEvent.keyboard('0');
    await expect.poll(() => ranges.at(-1)).toBeNull();

    // The toolbar comes first (the branches toggle), then the bars.
    await userEvent.tab();
    expect((document.activeElement as Element).textContent).toBe('Branches');
    await userEvent.tab();
    const focused = document.activeElement as Element;
    expect(focused.classList.contains('skein-swimlane__bar')).toBe(true);
    await userEvent.tab();
    const next = document.activeElement as Element;
    expect(next.classList.contains('skein-swimlane__bar')).toBe(true);
    expect(next).not.toBe(focused);
    await userEvent.keyboard('{Enter}');
    await expect
      .poll(() => selection.getSnapshot().selected)
      .toBe(next.getAttribute('data-span-id'));
  });

  it('follows its container (ResizeObserver) and turns into a compact tile at 300×120', async () => {
    const { root, getByTestId } = mount(small());
    await expect.poll(() => bars(root).length).toBeGreaterThan(10);
    const laneWidth = () =>
      root.querySelector('.skein-swimlane__lane')!.getBoundingClientRect().width;
    const wide = laneWidth();
    const box = getByTestId('box');
    box.style.width = '600px';
    await expect.poll(laneWidth, { timeout: 10_000 }).toBeLessThan(wide - 200);

    box.style.width = '300px';
    box.style.height = '120px';
    await expect.poll(() => root.hasAttribute('data-compact'), { timeout: 10_000 }).toBe(true);
    const tile = box.getBoundingClientRect();
    const rect = root.getBoundingClientRect();
    expect(rect.width).toBeLessThanOrEqual(tile.width + 0.5);
    expect(rect.height).toBeLessThanOrEqual(tile.height + 0.5);
    for (const el of root.querySelectorAll('*')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || el.closest('.skein-swimlane__visually-hidden')) continue;
      // Nothing visible spills out of the tile (SVG shapes clip at the root).
      expect(r.left).toBeGreaterThanOrEqual(tile.left - 3);
    }
    // A tile's lane labels are a narrow column (a fifth of it), with a legend below.
    for (const label of root.querySelectorAll('.skein-swimlane__label'))
      expect(label.getBoundingClientRect().width).toBeLessThanOrEqual(96);
    expect(root.querySelector('.skein-swimlane__legend')).not.toBeNull();
    expect(root.querySelector('.skein-swimlane__minimap')).toBeNull();
    expect(bars(root).length).toBeGreaterThan(0);

    // The wheel stays the page's until the tile is engaged.
    const lane = root.querySelector('.skein-swimlane__lane')!;
    const g = geometry(root);
    expect(wheel(lane, { deltaY: -100, clientX: g.left + 50, clientY: g.y }).defaultPrevented).toBe(
      false,
    );
    act(() => root.focus());
    expect(wheel(lane, { deltaY: -100, clientX: g.left + 50, clientY: g.y }).defaultPrevented).toBe(
      true,
    );
  });

  it('does not flip between tile and full view when its container wobbles around the threshold', async () => {
    const { root, getByTestId } = mount(small());
    const box = getByTestId('box');
    const settle = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 50)));
    box.style.width = '900px';
    box.style.height = '170px';
    await settle();
    // Above 420×160: full.
    expect(root.hasAttribute('data-compact')).toBe(false);
    // A header above it wraps: 20 px less, below 160 → a tile.
    box.style.height = '150px';
    await expect.poll(() => root.hasAttribute('data-compact')).toBe(true);
    // It unwraps: back to 170 px, the tile stays (no flip back and forth)…
    box.style.height = '170px';
    await settle();
    await settle();
    expect(root.hasAttribute('data-compact')).toBe(true);
    // …until there is clearly room for the full view (460×200).
    box.style.height = '220px';
    await expect.poll(() => root.hasAttribute('data-compact')).toBe(false);
    box.style.height = '170px';
    await settle();
    expect(root.hasAttribute('data-compact')).toBe(false);
  });

  it('keeps every axis label inside the axis, at any width (the last one too)', async () => {
    const { root, getByTestId } = mount(buildTimeline(generateRun({ seed: 3, events: 400 })));
    const box = getByTestId('box');
    const settle = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 30)));
    let checked = 0;
    for (let width = 300; width <= 1300; width += 37) {
      box.style.width = `${width}px`;
      await settle();
      const right = root.getBoundingClientRect().right - 1;
      const labels = [...root.querySelectorAll<SVGTextElement>('.skein-swimlane__tick text')];
      expect(labels.length).toBeGreaterThan(1);
      for (const text of labels) {
        expect(
          text.getBoundingClientRect().right,
          `${text.textContent} at ${width}px`,
        ).toBeLessThanOrEqual(right);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(50);
  });

  it('draws no marker over a bar label', async () => {
    const { root } = mount(buildTimeline(generateRun({ seed: 3, events: 400, errorRate: 0.3 })), {
      width: 1000,
      height: 400,
    });
    await expect
      .poll(() => root.querySelectorAll('.skein-swimlane__marker').length)
      .toBeGreaterThan(10);
    let pairs = 0;
    for (const row of root.querySelectorAll('.skein-swimlane__row')) {
      const labels = [...row.querySelectorAll('.skein-swimlane__bar-label')].map((t) =>
        t.getBoundingClientRect(),
      );
      for (const marker of row.querySelectorAll('.skein-swimlane__marker')) {
        const m = marker.getBoundingClientRect();
        for (const l of labels) {
          // Markers in the label's x range are the ones that could cover it.
          if (m.right < l.left || m.left > l.right) continue;
          pairs++;
          expect(m.bottom <= l.top + 0.5 || m.top >= l.bottom - 0.5).toBe(true);
        }
      }
    }
    expect(pairs).toBeGreaterThan(0);
  });

  it('a tile of a one-agent run shows its lanes, its model and tool calls and a legend', async () => {
    const run = generateRun({ seed: 5, events: 120, agents: 0, pendingRate: 0 });
    const { root } = mount(buildTimeline(run), { width: 390, height: 120 });
    await expect.poll(() => root.hasAttribute('data-compact')).toBe(true);
    const main = root.querySelector<HTMLElement>('.skein-swimlane__row[data-key="main"]')!;
    expect(main.querySelector('.skein-swimlane__label')!.textContent).toBe('main');
    const activity = (kind: string) =>
      main.querySelectorAll(`.skein-swimlane__activity[data-kind="${kind}"]`).length;
    expect(activity('model')).toBeGreaterThan(1);
    expect(activity('tool')).toBeGreaterThan(1);
    // Calls sit inside the bar, coloured apart from it.
    const bar = main.querySelector('rect.skein-swimlane__bar')!.getBoundingClientRect();
    for (const a of main.querySelectorAll('.skein-swimlane__activity')) {
      const r = a.getBoundingClientRect();
      expect(r.top).toBeGreaterThanOrEqual(bar.top - 0.5);
      expect(r.bottom).toBeLessThanOrEqual(bar.bottom + 0.5);
    }
    const fill = (sel: string) => getComputedStyle(main.querySelector(sel)!).fill;
    expect(fill('.skein-swimlane__activity[data-kind="model"]')).not.toBe(
      fill('.skein-swimlane__activity[data-kind="tool"]'),
    );
    const legend = root.querySelector('.skein-swimlane__legend')!;
    expect(legend.textContent).toMatch(/model.*tool/);
    expect(legend.getBoundingClientRect().bottom).toBeLessThanOrEqual(
      root.getBoundingClientRect().bottom,
    );
  });

  it('keeps the DOM bounded at 100k spans, fitted and zoomed', async () => {
    const timeline = fanOutTimeline({ agents: 100_000, parallelism: 8 });
    const { root, ranges } = mount(timeline, { width: 1000, height: 600 });
    await expect
      .poll(() => root.querySelectorAll('.skein-swimlane__strip').length, {
        timeout: 60_000,
      })
      .toBeGreaterThan(0);
    // Markers of big rows follow the first paint: count the whole drawing.
    await expect
      .poll(() => root.querySelectorAll('.skein-swimlane__marker').length, { timeout: 10_000 })
      .toBeGreaterThan(0);
    const count = () => root.querySelectorAll('*').length;
    const kinds = () => {
      const by = new Map<string, number>();
      for (const el of root.querySelectorAll('*')) {
        const k = `${el.tagName}.${el.getAttribute('class') ?? ''}`;
        by.set(k, (by.get(k) ?? 0) + 1);
      }
      return JSON.stringify([...by].sort((a, b) => b[1] - a[1]).slice(0, 6));
    };
    expect(count(), kinds()).toBeLessThanOrEqual(2000);
    expect(count()).toBeLessThanOrEqual(2000);
    const g = geometry(root);
    for (let i = 0; i < 12; i++) {
      wheel(root.querySelector('.skein-swimlane__lane')!, {
        deltaY: -400,
        clientX: g.left + g.width / 2,
        clientY: g.y,
      });
      expect(count(), kinds()).toBeLessThanOrEqual(2000);
    }
    await expect.poll(() => ranges.length).toBeGreaterThan(5);
    // Deep enough that real bars with labels show.
    await expect.poll(() => bars(root).length).toBeGreaterThan(3);
    expect(count()).toBeLessThanOrEqual(2000);
  }, 120_000);

  it("paints a big run's bars first and its markers right after; a small run's at once", async () => {
    const markers = (el: ParentNode) => el.querySelectorAll('.skein-swimlane__marker').length;
    const big = mount(fanOutTimeline({ agents: 20_000, parallelism: 8 }), {
      width: 1000,
      height: 600,
    });
    // The first commit: bars (density strips at this zoom), no markers yet.
    expect(big.root.querySelectorAll('.skein-swimlane__strip').length).toBeGreaterThan(0);
    expect(markers(big.root)).toBe(0);
    // After the first paint: the failed agents' markers (every 97th).
    await expect.poll(() => markers(big.root), { timeout: 10_000 }).toBeGreaterThan(0);
    expect(big.root.querySelector('.skein-swimlane__marker[data-kind="error"]')).not.toBeNull();
    // Later views draw markers with their bars, in the same commit.
    const g = geometry(big.root);
    wheel(big.root.querySelector('.skein-swimlane__lane')!, {
      deltaY: -400,
      clientX: g.left + g.width / 2,
      clientY: g.y,
    });
    expect(markers(big.root)).toBeGreaterThan(0);
    big.unmount();

    const { root } = mount(small());
    expect(markers(root)).toBeGreaterThan(0);
  }, 60_000);

  it("leaves a big run's markers to the task after its first paint, however few its bars", async () => {
    const markers = (el: ParentNode) => el.querySelectorAll('.skein-swimlane__marker').length;
    const view = (timeline: Timeline) => (
      <div style={{ width: 900, height: 400 }}>
        <Swimlane timeline={timeline} />
      </div>
    );
    // Mounted on a small run: its markers are drawn at once.
    const { container, rerender } = render(view(small()));
    const root = container.querySelector<HTMLElement>('.skein-swimlane')!;
    expect(markers(root)).toBeGreaterThan(0);
    // A run of 30k events arrives (a few dozen bars; the viewer's timeline
    // comes after its load like this): bars first…
    const big = buildTimeline(generateRun({ seed: 5, events: 30_000, errorRate: 0.01 }));
    rerender(view(big));
    expect(bars(root).length).toBeGreaterThan(0);
    expect(bars(root).length).toBeLessThan(200);
    expect(markers(root)).toBe(0);
    // …markers after the paint.
    await expect.poll(() => markers(root), { timeout: 10_000 }).toBeGreaterThan(0);
  });

  it('follows a live run pinned to its end without resetting the zoom', async () => {
    const events = fanOutEvents({ agents: 40, parallelism: 2 });
    const ranges: (SwimlaneRange | null)[] = [];
    const view = (n: number) => (
      <div style={{ width: 800, height: 300 }}>
        <Swimlane events={events.slice(0, n)} onRangeChange={(r) => ranges.push(r)} />
      </div>
    );
    const { container, rerender } = render(view(60));
    const root = container.querySelector<HTMLElement>('.skein-swimlane')!;
    await expect.poll(() => bars(root).length, { timeout: 20_000 }).toBeGreaterThan(3);
    root.focus();
    await userEvent.keyboard('++');
    await expect.poll(() => ranges.length).toBe(2);
    // Pan to the end: pinned.
    for (let i = 0; i < 20; i++) await userEvent.keyboard('{ArrowRight}');
    const pinnedWidth = ranges.at(-1)![1] - ranges.at(-1)![0];
    const endBefore = buildTimeline(events.slice(0, 60));
    rerender(view(120));
    const after = layoutSwimlane(buildTimeline(events.slice(0, 120)));
    const before = layoutSwimlane(endBefore);
    expect(after.timeEnd).toBeGreaterThan(before.timeEnd);
    // Still zoomed (not fitted), and the last bar of the grown run is drawn.
    await expect.poll(() => root.hasAttribute('data-fitted'), { timeout: 20_000 }).toBe(false);
    await expect
      .poll(() => bars(root).some((b) => b.getAttribute('data-span-id') === 'agent-39'), {
        timeout: 20_000,
      })
      .toBe(true);
    expect(pinnedWidth).toBeGreaterThan(0);
  });

  it('renders the fitted drawing on the server and hydrates without a mismatch', async () => {
    const timeline = small();
    const node = (
      <div style={{ width: 800, height: 320 }}>
        <Swimlane timeline={timeline} initialSize={{ width: 800, height: 320 }} />
      </div>
    );
    const html = renderToString(node);
    const layout = layoutSwimlane(timeline, { showBranches: true });
    for (const row of layout.rows.slice(0, 5))
      for (const bar of row.bars) expect(html).toContain(`data-span-id="${bar.spanId}"`);
    expect(html).toContain('skein-swimlane__tick');
    const host = document.createElement('div');
    host.innerHTML = html;
    document.body.appendChild(host);
    const recoverable = vi.fn();
    const root = hydrateRoot(host, node, { onRecoverableError: recoverable });
    await expect.poll(() => bars(host).length).toBeGreaterThan(10);
    expect(recoverable).not.toHaveBeenCalled();
    act(() => root.unmount());
    host.remove();
  });
});

describe('<Swimlane> big runs on the server', () => {
  it("draws a big run's markers on the server and keeps them through hydration", async () => {
    const timeline = fanOutTimeline({ agents: 20_000, parallelism: 8 });
    const node = (
      <div style={{ width: 1000, height: 600 }}>
        <Swimlane timeline={timeline} initialSize={{ width: 1000, height: 600 }} />
      </div>
    );
    const html = renderToString(node);
    expect(html).toContain('skein-swimlane__marker');
    const host = document.createElement('div');
    host.innerHTML = html;
    document.body.appendChild(host);
    const markers = () => host.querySelectorAll('.skein-swimlane__marker').length;
    const recoverable = vi.fn();
    let root: ReturnType<typeof hydrateRoot> | undefined;
    act(() => {
      root = hydrateRoot(host, node, { onRecoverableError: recoverable });
    });
    // Markers are deferred only on a client mount: a hydrated tree never drops them.
    for (let i = 0; i < 6; i++) {
      expect(markers()).toBeGreaterThan(0);
      await new Promise((r) => requestAnimationFrame(r));
    }
    expect(markers()).toBeGreaterThan(0);
    expect(recoverable).not.toHaveBeenCalled();
    act(() => root!.unmount());
    host.remove();
  }, 60_000);
});

describe('<Swimlane> range, playhead and tooltip in Chromium', () => {
  /** The visible window's start and end in client px of the minimap's window rect. */
  const windowRect = (root: HTMLElement) =>
    root.querySelector('.skein-swimlane__window')!.getBoundingClientRect();

  it('shows a controlled range, reports zooms without applying them, and follows new props', async () => {
    const timeline = small();
    const layout = layoutSwimlane(timeline, { showBranches: true });
    const span = layout.timeEnd - layout.timeStart;
    const first: SwimlaneRange = [layout.timeStart, layout.timeStart + span / 4];
    const { root, rerender, ranges, selection } = mount(timeline, undefined, { range: first });
    await expect.poll(() => root.hasAttribute('data-fitted')).toBe(false);
    const before = windowRect(root).width;
    // The minimap's window spans about a quarter of the overview.
    const minimap = root.querySelector('.skein-swimlane__minimap-svg')!.getBoundingClientRect();
    expect(before / minimap.width).toBeGreaterThan(0.2);
    expect(before / minimap.width).toBeLessThan(0.3);
    // A zoom is reported, but the view stays where the parent keeps it.
    const g = geometry(root);
    wheel(root.querySelector('.skein-swimlane__lane')!, {
      deltaY: -200,
      clientX: g.left + 50,
      clientY: g.y,
    });
    expect(ranges.length).toBeGreaterThan(0);
    const asked = ranges[ranges.length - 1]!;
    expect(asked![1] - asked![0]).toBeLessThan(first[1] - first[0]);
    expect(windowRect(root).width).toBeCloseTo(before, 0);
    // The parent applies a new range: the view follows.
    rerender(
      <div style={{ width: 900, height: 400 }} data-testid="box">
        <Swimlane timeline={timeline} selection={selection} range={null} />
      </div>,
    );
    await expect.poll(() => root.hasAttribute('data-fitted')).toBe(true);
  });

  it('starts at defaultRange, then zooms on its own', async () => {
    const timeline = small();
    const layout = layoutSwimlane(timeline, { showBranches: true });
    const span = layout.timeEnd - layout.timeStart;
    const { root } = mount(timeline, undefined, {
      defaultRange: [layout.timeStart + span / 2, layout.timeStart + span * 0.75],
    });
    await expect.poll(() => root.hasAttribute('data-fitted')).toBe(false);
    const minimap = root.querySelector('.skein-swimlane__minimap-svg')!.getBoundingClientRect();
    const rect = windowRect(root);
    expect((rect.left - minimap.left) / minimap.width).toBeGreaterThan(0.4);
    const before = rect.width;
    const g = geometry(root);
    wheel(root.querySelector('.skein-swimlane__lane')!, {
      deltaY: -300,
      clientX: g.left + 100,
      clientY: g.y,
    });
    await expect.poll(() => windowRect(root).width).toBeLessThan(before - 1);
  });

  it('draws the playhead from the shared store and moves it with the store', async () => {
    const timeline = small();
    const layout = layoutSwimlane(timeline, { showBranches: true });
    const { root, selection } = mount(timeline);
    expect(root.querySelector('.skein-swimlane__playhead')).toBeNull();
    const lane = root.querySelector('.skein-swimlane__lane')!.getBoundingClientRect();
    const at = (fraction: number) =>
      act(() =>
        selection.setPlayhead(layout.timeStart + (layout.timeEnd - layout.timeStart) * fraction),
      );
    const x = () => root.querySelector('.skein-swimlane__playhead')!.getBoundingClientRect().left;
    at(0.25);
    await expect.poll(() => root.querySelector('.skein-swimlane__playhead')).not.toBeNull();
    const x1 = x();
    expect(x1).toBeGreaterThan(lane.left);
    at(0.75);
    await expect.poll(x).toBeGreaterThan(x1 + lane.width / 4);
    expect(x()).toBeLessThan(lane.right);
    act(() => selection.setPlayhead(null));
    await expect.poll(() => root.querySelector('.skein-swimlane__playhead')).toBeNull();
  });

  it('shows name, duration, tokens, idle and status in the hover tooltip', async () => {
    // Every 5th agent's model call fails: find a failed one's bar.
    const timeline = small();
    const { root } = mount(timeline);
    const failed = bars(root).find((b) => b.getAttribute('data-span-id') === 'agent-4')!;
    expect(failed).toBeDefined();
    const box = failed.getBoundingClientRect();
    const body = root.querySelector('.skein-swimlane__body')!;
    act(() => {
      body.dispatchEvent(
        new PointerEvent('pointermove', {
          bubbles: true,
          clientX: box.left + box.width / 2,
          clientY: box.top + box.height / 2,
          pointerId: 2,
        }),
      );
    });
    await expect
      .poll(() => root.querySelector('[role="tooltip"]')?.textContent ?? '')
      .toMatch(/tokens/);
    const text = root.querySelector('[role="tooltip"]')!.textContent!;
    expect(text).toMatch(/^\w+( \(.+\))?: /); // name (row label)
    expect(text).toMatch(/: \d+(\.\d+)? m?s, /); // duration
    expect(text).toMatch(/[\d.,]+k? tokens/);
    expect(text).toMatch(/ idle, /);
    expect(text).toMatch(/error \(1 error\)$/);
    // The bar's accessible name starts the same way (name, duration, tokens).
    expect(text.startsWith(failed.getAttribute('aria-label')!)).toBe(true);
  });
});

describe('<AsciiSwimlane> in Chromium', () => {
  it('refits to its container width and selects on click', async () => {
    const timeline = small();
    const selection = createSelectionStore();
    const { container } = render(
      <div style={{ width: 700 }} data-testid="ascii">
        <AsciiSwimlane timeline={timeline} selection={selection} />
      </div>,
    );
    const pre = container.querySelector<HTMLElement>('pre.skein-ascii-swimlane')!;
    const lineWidth = () => {
      const first = pre.querySelector('.skein-ascii-swimlane__line')!.textContent!;
      return [...first.replace('\n', '')].length;
    };
    await expect
      .poll(() => Number(pre.dataset['columns']), { timeout: 10_000 })
      .toBeGreaterThan(40);
    const wide = lineWidth();
    // No line wider than the box.
    expect(pre.scrollWidth).toBeLessThanOrEqual(pre.clientWidth + 1);
    (container.firstChild as HTMLElement).style.width = '400px';
    await expect.poll(lineWidth, { timeout: 10_000 }).toBeLessThan(wide - 20);
    expect(pre.scrollWidth).toBeLessThanOrEqual(pre.clientWidth + 1);

    const line = [...pre.querySelectorAll<HTMLElement>('.skein-ascii-swimlane__line')].find((l) =>
      l.textContent!.trimStart().startsWith('worker'),
    )!;
    await userEvent.click(line);
    await expect.poll(() => selection.getSnapshot().selected).toMatch(/^agent-\d+$/);
    expect(line.hasAttribute('data-selected')).toBe(true);
  });
});

describe('<Swimlane> sized by its content', () => {
  it('shrinks with a grid track of auto width (its SVGs do not hold it at the width it was drawn at)', async () => {
    const timeline = small();
    const utils = render(
      <div data-testid="grid" style={{ display: 'grid', width: 900 }}>
        <div style={{ height: 300 }}>
          <Swimlane timeline={timeline} aria-label="In a grid" />
        </div>
      </div>,
    );
    const root = utils.container.querySelector<HTMLElement>('.skein-swimlane')!;
    await expect.poll(() => bars(root).length).toBeGreaterThan(10);
    await expect.poll(() => root.getBoundingClientRect().width).toBeGreaterThan(850);
    const grid = utils.getByTestId('grid');
    grid.style.width = '358px';
    // Before the fix the track stayed 900 px wide: the SVGs' width attributes
    // were the swimlane's min-content width.
    await expect
      .poll(() => root.getBoundingClientRect().width, { timeout: 10_000 })
      .toBeLessThanOrEqual(358.5);
    await expect
      .poll(() =>
        Math.max(...[...root.querySelectorAll('svg')].map((s) => s.getBoundingClientRect().right)),
      )
      .toBeLessThanOrEqual(grid.getBoundingClientRect().right + 0.5);
    for (const svg of root.querySelectorAll('svg'))
      expect(Number(svg.getAttribute('width'))).toBeLessThanOrEqual(358);
  });
});
