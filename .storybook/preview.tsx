import type { Decorator, Preview } from '@storybook/react-vite';
import { useLayoutEffect } from 'react';
import { configure } from 'storybook/test';
import { SkeinTheme } from '../src/react.js';
import { STORY_VIEWPORTS } from './viewports.js';
import '../src/styles.css';

// `waitFor` and `findBy…` in play functions wait up to 10 s, not 1: CI runs
// the stories beside the other browser projects on 2 cores, where a story
// that settles in 200 ms alone can take seconds (stop 39's CI failed so).
configure({ asyncUtilTimeout: 10_000 });

/**
 * Paints the canvas (the preview's `<body>`) in the story's theme: the body
 * becomes a skein theme root while the story is shown, so its background is
 * the theme's `--skein-bg` everywhere, past the story's own box too.
 */
function CanvasTheme({ theme }: { theme: 'light' | 'dark' }) {
  useLayoutEffect(() => {
    const body = document.body;
    body.classList.add('skein');
    body.dataset['theme'] = theme;
    return () => {
      body.classList.remove('skein');
      delete body.dataset['theme'];
    };
  }, [theme]);
  return null;
}

/**
 * Wraps a story in skein's theme root; the toolbar switches light/dark, and
 * on the canvas (not in docs pages) the whole page takes the theme, so a
 * dark story is not a dark box on a white page. Stories with the parameter
 * `skeinTheme: false` render bare, with nothing themed above them, as a user
 * drops a component in with only `skein/styles.css`: with the theme around
 * every story, components that only worked inside it went unseen.
 *
 * Tags the story runs (vite.config.ts): every story is tested in the light
 * theme at 1200 px (the `storybook` project), and again in the dark theme at
 * 390 px (`storybook-dark-390`) unless tagged `light-only`: a story whose
 * components, themed, another story already checks there (the imports, the
 * bare drop-ins) or whose size makes a second run cost seconds (a million
 * events, 10 MB of text, live feeds).
 */
const withTheme: Decorator = (Story, context) => {
  if (context.parameters['skeinTheme'] === false) return <Story />;
  const theme = (context.globals['theme'] as 'light' | 'dark' | undefined) ?? 'light';
  return (
    <SkeinTheme theme={theme} style={{ padding: '1rem' }}>
      {context.viewMode === 'docs' ? null : <CanvasTheme theme={theme} />}
      <Story />
    </SkeinTheme>
  );
};

const preview: Preview = {
  decorators: [withTheme],
  // Every component with a folder gets a docs page (props with controls) from
  // its meta's `tags: ['autodocs']`; the import stories share Transcript's.
  globalTypes: {
    theme: {
      description: 'skein colour theme',
      toolbar: {
        title: 'Theme',
        icon: 'mirror',
        items: [
          { value: 'light', title: 'Light' },
          { value: 'dark', title: 'Dark' },
        ],
        dynamicTitle: true,
      },
    },
  },
  initialGlobals: { theme: 'light' },
  parameters: {
    layout: 'fullscreen',
    // The widths the components are checked at (also the Vitest story runs':
    // `globals: { viewport: { value: 'phone' } }` resizes the test page).
    viewport: { options: STORY_VIEWPORTS },
    // Every story is an accessibility test: axe violations fail the story's test.
    a11y: { test: 'error' },
    controls: { expanded: true, sort: 'requiredFirst' },
    options: {
      // Storybook opens on the first entry: the introduction, not a gallery.
      storySort: {
        order: [
          'Introduction',
          'Views',
          [
            'Transcript',
            'Transcript (drop-in)',
            'SpanTree',
            'Swimlane',
            'AsciiSwimlane',
            'Linked views',
            'Live and replay',
          ],
          'Display',
          'Import',
          'Sources',
          'Foundation',
        ],
      },
    },
  },
};

export default preview;
