import type { Decorator, Preview } from '@storybook/react-vite';
import { SkeinTheme } from '../src/react/index.js';
import '../src/styles.css';

/**
 * Wraps a story in skein's theme root; the toolbar switches light/dark.
 * Stories with the parameter `skeinTheme: false` render bare, as a user
 * drops a component in with only `skein/styles.css` (issue 16: with the
 * theme around every story, components that only worked inside it went unseen).
 */
const withTheme: Decorator = (Story, context) => {
  if (context.parameters['skeinTheme'] === false) return <Story />;
  const theme = (context.globals['theme'] as 'light' | 'dark' | undefined) ?? 'light';
  return (
    <SkeinTheme theme={theme} style={{ padding: '1rem', minHeight: '100%' }}>
      <Story />
    </SkeinTheme>
  );
};

const preview: Preview = {
  decorators: [withTheme],
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
    // Every story is an accessibility test: axe violations fail the story's test.
    a11y: { test: 'error' },
  },
};

export default preview;
