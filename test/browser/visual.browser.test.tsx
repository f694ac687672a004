// Visual regression: the main stories' first look at 390, 740 and 1280 px,
// light and dark, compared with the reference screenshots in test/visual/
// (vite.config.ts `screenshotMatching`: pixelmatch, 0.5% of the pixels may
// differ). A layout change that moves a column, wraps a title or paints a
// box the wrong colour fails here and prints the paths of the reference,
// the actual screenshot and the diff image.
//
// After an intended change, rewrite the references and review them in the diff:
//   npx vitest run --project browser test/browser/visual.browser.test.tsx -u
//
// Deterministic on this kind of machine: fixed runs (seeded generators, fixed
// times), fonts named (DejaVu, what `system-ui` and `monospace` resolve to
// here), animations, transitions and the caret off, the mouse away, device
// pixel ratio 1. Stories render without their play functions: their first
// paint, once the views have loaded and settled.
import { cleanup, render } from '@testing-library/react';
import { composeStories, setProjectAnnotations } from '@storybook/react-vite';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { commands, page } from 'vitest/browser';
import type { ComponentType } from 'react';
import preview from '../../.storybook/preview.js';
import * as displayStories from '../../stories/display.stories.js';
import * as spanTreeStories from '../../stories/span-tree.stories.js';
import * as swimlaneStories from '../../stories/swimlane.stories.js';
import * as transcriptStories from '../../stories/transcript.stories.js';

setProjectAnnotations(preview);

const WIDTHS = [390, 740, 1280] as const;
const THEMES = ['light', 'dark'] as const;
type Theme = (typeof THEMES)[number];

declare module 'vitest/browser' {
  interface BrowserCommands {
    moveMouseAway(): Promise<void>;
  }
}

/** A story rendered as a component, once its loaders have run. */
type ComposedStory = ComponentType & { load(): Promise<void> };

/** The stories pictured, the viewport height each needs, and when it is ready. */
interface Target {
  name: string;
  story: (theme: Theme) => ComposedStory;
  height: number;
  ready: (root: HTMLElement) => boolean;
}

const composed = (module: Parameters<typeof composeStories>[0], theme: Theme) =>
  composeStories(module, { initialGlobals: { theme } }) as unknown as Record<string, ComposedStory>;

/** A feed whose whole run is folded in and whose rows have their markdown. */
const feedReady = (root: HTMLElement) =>
  [...root.querySelectorAll('[role="feed"]')].every(
    (feed) =>
      feed.getAttribute('aria-busy') === 'false' &&
      feed.querySelector('article') !== null &&
      feed.querySelector('[data-skein-pending], .skein-display__loading') === null,
  );
const treeReady = (root: HTMLElement) =>
  [...root.querySelectorAll('[role="treegrid"]')].every(
    (grid) =>
      grid.getAttribute('aria-busy') !== 'true' &&
      grid.querySelector('[role="row"][aria-level]') !== null,
  );
const laneReady = (root: HTMLElement) =>
  [...root.querySelectorAll('[role="application"]')].every(
    (lane) => lane.querySelector('rect.skein-swimlane__bar') !== null,
  );

const TARGETS: Target[] = [
  {
    name: 'transcript',
    story: (theme) => composed(transcriptStories, theme)['EveryKind']!,
    height: 600,
    ready: feedReady,
  },
  {
    name: 'span-tree',
    story: (theme) => composed(spanTreeStories, theme)['Small']!,
    height: 560,
    ready: treeReady,
  },
  {
    name: 'swimlane',
    story: (theme) => composed(swimlaneStories, theme)['Small']!,
    height: 400,
    ready: laneReady,
  },
  {
    name: 'swimlane-tiles',
    story: (theme) => composed(swimlaneStories, theme)['DashboardTiles']!,
    height: 300,
    ready: (root) =>
      laneReady(root) && root.querySelectorAll('[role="application"][data-compact]').length === 4,
  },
  {
    name: 'display-gallery',
    story: (theme) => composed(displayStories, theme)['Gallery']!,
    height: 900,
    ready: (root) =>
      root.querySelectorAll('[data-mime]').length === 8 &&
      root.querySelector('.skein-display__loading, [data-skein-pending]') === null &&
      [...root.querySelectorAll('img')].every((img) => img.complete),
  },
];

beforeAll(() => {
  const style = document.createElement('style');
  style.textContent = `
    *, *::before, *::after {
      animation: none !important;
      transition: none !important;
      caret-color: transparent !important;
    }
    .skein[data-theme] {
      --skein-font-sans: 'DejaVu Sans', sans-serif;
      --skein-font-mono: 'DejaVu Sans Mono', monospace;
    }
    html, body { margin: 0; }
  `;
  document.head.append(style);
});

afterEach(() => cleanup());

/** Two frames: layout effects and the measuring they schedule have run. */
const frames = () =>
  new Promise<void>((resolve) =>
    requestAnimationFrame(() => requestAnimationFrame(() => resolve())),
  );

describe.each(TARGETS)('$name', (target) => {
  test.each(THEMES.flatMap((theme) => WIDTHS.map((width) => [theme, width] as const)))(
    '%s at %i px',
    async (theme, width) => {
      await page.viewport(width, target.height);
      const Story = target.story(theme);
      await Story.load();
      const { container } = render(<Story />);
      await expect
        .poll(() => target.ready(container), { timeout: 30_000, interval: 100 })
        .toBe(true);
      await document.fonts.ready;
      await commands.moveMouseAway();
      await frames();
      const root = container.firstElementChild as HTMLElement;
      await expect(root).toMatchScreenshot(`${target.name}-${width}-${theme}`, {
        timeout: 15_000,
        screenshotOptions: { animations: 'disabled', caret: 'hide', scale: 'css' },
      });
    },
  );
});
