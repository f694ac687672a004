// Compare in the viewer, in real Chromium: two epochs of one inspect sample
// chosen from the run ("Compare with…", keyboard only), the comparison's deep
// link opening it again, two open logs chosen with checkboxes, and the
// comparison on screen at phone, tablet and desktop widths in light and dark.
import { cleanup, render } from '@testing-library/react';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commands, page, userEvent } from 'vitest/browser';
import { header, monolithSample } from '../core/helpers/inspect-fixture.js';
import { ViewerApp } from '../../viewer/app.js';
import '../../src/styles.css';
import '../../viewer/viewer.css';
import { pick } from './viewer-pick.js';

const WAIT = { timeout: 30_000, interval: 50 };

beforeEach(() => {
  localStorage.clear();
  history.replaceState(null, '', location.pathname);
});
afterEach(() => cleanup());
afterAll(async () => {
  await page.viewport(1280, 800);
  await commands.emulateColorScheme('light');
});

/**
 * An inspect `.json` log: sample 1 in two epochs (the second's tool call
 * fails, and the first's too when `first` says how), and sample 2.
 */
function evalLog(first: string | null = null): string {
  const fail = (s: ReturnType<typeof monolithSample>, result: string) => {
    const tool = s.events.find((e) => e.event === 'tool') as Record<string, unknown>;
    tool['result'] = result;
    s.scores = { match: { value: 'I' } };
    return s;
  };
  const e1 = monolithSample(1, 1);
  return JSON.stringify({
    ...header(),
    samples: [
      first === null ? e1 : fail(e1, first),
      fail(monolithSample(1, 2), 'bash: /workspace: No such file or directory'),
      monolithSample(2, 1),
    ],
  });
}

async function mount(width = 1280) {
  await page.viewport(width, 800);
  render(
    <div style={{ height: '100vh', display: 'flex', flexDirection: 'column' }}>
      <ViewerApp />
    </div>,
  );
}

const q = <T extends Element = HTMLElement>(sel: string) => document.querySelector<T>(sel);
const grid = () => q('.viewer-compare [role="treegrid"]');
const names = () => [
  q('[data-testid="compare-a"]')?.textContent,
  q('[data-testid="compare-b"]')?.textContent,
];
/** The rows the comparison draws, by status. */
const statuses = () =>
  [...document.querySelectorAll('.viewer-compare [role="row"][data-status]')].map((r) =>
    r.getAttribute('data-status'),
  );

describe('viewer: compare', () => {
  it('compares two epochs of a sample from the keyboard, and its deep link opens it again', async () => {
    await mount();
    await pick([new File([evalLog()], 'run.json')]);
    await expect.poll(() => q('[data-testid="compare-open"]'), WAIT).not.toBeNull();
    await expect.poll(() => q('.viewer-doc')?.getAttribute('data-phase'), WAIT).toBe('done');

    // `c` opens the chooser on run B, another epoch of the same sample first.
    (document.activeElement as HTMLElement | null)?.blur();
    await userEvent.keyboard('c');
    const target = () => q<HTMLSelectElement>('[data-testid="compare-target"]');
    await expect.poll(() => document.activeElement === target(), WAIT).toBe(true);
    expect(target()!.selectedOptions[0]!.textContent).toBe('sample 1 · epoch 2 (I)');
    expect([...target()!.options].map((o) => o.textContent)).toEqual([
      'sample 1 · epoch 2 (I)',
      'sample 2 (C)',
    ]);
    // Tab stays inside the dialog; Escape closes it and gives the focus back.
    for (let i = 0; i < 4; i++) await userEvent.keyboard('{Tab}');
    expect(q('[data-testid="compare-chooser"]')!.contains(document.activeElement)).toBe(true);
    await userEvent.keyboard('{Escape}');
    expect(q('[data-testid="compare-chooser"]')).toBeNull();

    await userEvent.keyboard('c');
    await expect.poll(() => document.activeElement === target(), WAIT).toBe(true);
    await userEvent.keyboard('{Enter}');
    await expect.poll(grid, WAIT).not.toBeNull();
    expect(names()).toEqual(['epoch 1', 'epoch 2']);
    // The failed tool call is the one change; the rest is the same.
    await expect.poll(() => statuses().includes('changed'), WAIT).toBe(true);
    expect(statuses().filter((s) => s === 'only-a' || s === 'only-b')).toEqual([]);
    expect(location.hash).toBe('#sample=1&compare-sample=1&compare-epoch=2');
    const link = location.hash;

    // Closing goes back to run A and takes the comparison out of the URL.
    await userEvent.click(q('[data-testid="compare-close"]')!);
    expect(grid()).toBeNull();
    expect(location.hash).toBe('#sample=1');
    cleanup();

    // The deep link (the log at a URL) opens the same comparison.
    const url = URL.createObjectURL(new Blob([evalLog()], { type: 'application/json' }));
    history.replaceState(null, '', `${location.pathname}?src=${encodeURIComponent(url)}${link}`);
    await mount();
    await expect.poll(grid, WAIT).not.toBeNull();
    await expect.poll(names, WAIT).toEqual(['epoch 1', 'epoch 2']);
    await expect.poll(() => statuses().includes('changed'), WAIT).toBe(true);
    URL.revokeObjectURL(url);
  });

  it('compares two open logs chosen with checkboxes', async () => {
    await mount();
    await pick([
      new File([evalLog()], 'monday.json'),
      new File([evalLog('permission denied')], 'tuesday.json'),
    ]);
    const boxes = () => [
      ...document.querySelectorAll<HTMLInputElement>(
        'section[aria-label="Open logs"] input[type="checkbox"]',
      ),
    ];
    await expect.poll(() => boxes().length, WAIT).toBe(2);
    const compare = [
      ...document.querySelectorAll<HTMLButtonElement>('.viewer-pick-bar button'),
    ][0]!;
    expect(compare.disabled).toBe(true);
    await userEvent.click(boxes()[0]!);
    await userEvent.click(boxes()[1]!);
    expect(compare.disabled).toBe(false);
    await userEvent.click(compare);
    await expect.poll(grid, WAIT).not.toBeNull();
    // One task in both: the file names tell the runs apart.
    await expect.poll(names, WAIT).toEqual(['monday.json · sample 1', 'tuesday.json · sample 1']);
    await expect.poll(() => statuses().includes('changed'), WAIT).toBe(true);
    // Local files have no URL: the link does not claim a comparison.
    expect(location.hash).not.toContain('compare');
  });

  it('fits at 390, 740 and 1280 px, dark and light', async () => {
    const url = URL.createObjectURL(new Blob([evalLog()], { type: 'application/json' }));
    history.replaceState(
      null,
      '',
      `${location.pathname}?src=${encodeURIComponent(url)}#sample=1&compare-sample=1&compare-epoch=2`,
    );
    await mount(390);
    await expect.poll(() => statuses().includes('changed'), WAIT).toBe(true);
    for (const [width, scheme] of [
      [390, 'dark'],
      [740, 'light'],
      [1280, 'dark'],
    ] as const) {
      await commands.emulateColorScheme(scheme);
      await page.viewport(width, 800);
      await expect.poll(() => innerWidth, WAIT).toBe(width);
      await expect
        .poll(() => grid()!.getBoundingClientRect().width, WAIT)
        .toBeGreaterThan(width * 0.5);
      const doc = document.documentElement;
      expect(doc.scrollWidth, `${width}: sideways scroll`).toBeLessThanOrEqual(doc.clientWidth);
      const view = q('[data-testid="compare"]')!.getBoundingClientRect();
      expect(view.left).toBeGreaterThanOrEqual(-0.5);
      expect(view.right).toBeLessThanOrEqual(innerWidth + 0.5);
      expect(view.bottom).toBeLessThanOrEqual(innerHeight + 0.5);
      expect(grid()!.getBoundingClientRect().height).toBeGreaterThan(200);
      // The header's controls are on screen, whatever the width.
      for (const b of document.querySelectorAll('.viewer-compare .viewer-doc-head button')) {
        const r = b.getBoundingClientRect();
        expect(r.right, `${width}: ${b.textContent}`).toBeLessThanOrEqual(innerWidth + 0.5);
        expect(r.width).toBeGreaterThan(0);
      }
      const bg = getComputedStyle(q('.viewer-bar')!).backgroundColor;
      const light =
        bg
          .match(/\d+/g)!
          .slice(0, 3)
          .map(Number)
          .reduce((a, b) => a + b, 0) > 382;
      expect(light, `${width}: ${scheme}`).toBe(scheme === 'light');
    }
    URL.revokeObjectURL(url);
  });
});
