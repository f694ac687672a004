import type { Decorator, Preview } from '@storybook/react-vite';
import { SkeinTheme } from '../src/react/index.js';
import { STORY_VIEWPORTS } from './viewports.js';
import '../src/styles.css';

/**
 * Wraps a story in skein's theme root; the toolbar switches light/dark.
 * On the canvas the root is at least the viewport's height, so a dark story
 * paints the whole canvas, not a dark box on a white page (in docs pages the
 * stories stay their own size). Stories with the parameter `skeinTheme: false`
 * render bare, as a user drops a component in with only `skein/styles.css`:
 * with the theme around every story, components that only worked inside it
 * went unseen.
 */
const withTheme: Decorator = (Story, context) => {
  if (context.parameters['skeinTheme'] === false) return <Story />;
  const theme = (context.globals['theme'] as 'light' | 'dark' | undefined) ?? 'light';
  const canvas = context.viewMode !== 'docs';
  return (
    <SkeinTheme
      theme={theme}
      style={{
        padding: '1rem',
        boxSizing: 'border-box',
        minHeight: canvas ? '100vh' : undefined,
      }}
    >
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
          'Foundation',
        ],
      },
    },
  },
};

export default preview;
